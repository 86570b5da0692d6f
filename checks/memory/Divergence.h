//===- Divergence.h - what threads of one block or warp may decide differently ===//
//
// The clang-tidy front end of the hierarchy rules' divergence (model/
// Hierarchy.h), over one function body at a time: which of its values threads
// of one block (or lanes of one warp) may see differently, and which
// statements a condition on such a value decides, directly or through an
// earlier return, break or continue. Private to checks/memory.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_DIVERGENCE_H
#define CUDA_SCOPE_MEMORY_DIVERGENCE_H

#include "model/Hierarchy.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuda_scope {

enum class VaryLevel { Block, Warp };

/// A read of a builtin variable's component (threadIdx.x, gridDim.y, or the
/// NVVM builtin that reads its register): the variable's name and the
/// component.
std::optional<std::pair<llvm::StringRef, char>> builtinVariableRead(const clang::Expr *E);

/// threadIdx.x + blockIdx.x * blockDim.x, in any order: the thread's index
/// in a one-dimensional grid.
bool isGridIndexSum(const clang::Expr *E);

/// \p Cond as block tests (model BlockCondition): a comparison of blockIdx's
/// x, y or z, or of the grid's thread index (isGridIndexSum), with a
/// constant, either way round, and a truth test of blockIdx.x, through !, &&
/// and ||, and through locals that hold one value (\p ValueOf: the value,
/// or null); any other test as one \p Varies says threads of one block may
/// decide differently (ThreadIndex.cpp).
BlockCondition blockConditionOf(const clang::Expr *Cond, const clang::ASTContext &Ctx,
                                llvm::function_ref<const clang::Expr *(const clang::VarDecl *)> ValueOf,
                                llvm::function_ref<bool(const clang::Expr *)> Varies);

/// The size of the cooperative groups tile whose member \p CE calls
/// (thread_block_tile<32>::shfl: 32, static members too), from the tile
/// class that declares the member; none for other calls.
std::optional<unsigned> tileSize(const clang::CallExpr *CE);

/// The arm of \p S, an if or ?: whose condition the compiler folds
/// (foldedCondition), that no thread runs; null for any other statement,
/// or where the folded condition leaves no arm out.
const clang::Stmt *droppedArm(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// \p S changes \p VD: assigns it (plainly or compound), ++ or -- it, takes
/// its address, or declares it.
bool changesVariable(const clang::Stmt *S, const clang::VarDecl *VD);

/// Whether a parameter holds its caller's argument wherever its function
/// reads it: taken by value, and never assigned, stepped or its address
/// taken in the body (a helper's mask or width, read as its call hands it).
bool isHandedOn(const clang::ParmVarDecl *P);

/// A statement that a varying condition decides: the condition (or the one
/// an earlier exit is taken under).
struct Decided {
  const clang::Stmt *S;
  const clang::Expr *Cond;
};

/// The statements of \p F's body for which \p Want holds and that a
/// condition threads at \p Level may decide differently decides.
std::vector<Decided> decidedByVarying(const clang::FunctionDecl *F, clang::ASTContext &Ctx, VaryLevel Level,
                                      llvm::function_ref<bool(const clang::Stmt *)> Want);

/// A statement a call runs, and where the IR pass, which sees the call
/// inlined, reports it: the statement itself in the project's code, else the
/// innermost call on the way that is (a library's block reduction named at
/// the project's call of it).
struct ReachedPlace {
  clang::SourceLocation At;
  const clang::Stmt *S;
  /// For a statement that is a target only for some values of a parameter
  /// of the function read (a helper's mask parameter): that parameter's
  /// index, which a caller's argument decides (CalledTargets::ByParameter);
  /// -1 for a target whatever the arguments.
  int Param = -1;
};

/// The statements \p Is picks (a block barrier, a full-mask warp call) that
/// calls of functions the TU defines run, through no arm of a condition the
/// compiler folds away. Each function is read once: what its body reaches
/// is kept, with the places a caller's call is to stand for (null At: the
/// statement lies in a library's header, and so does every call on the way
/// down to it).
class CalledTargets {
public:
  /// A statement that is a target when one parameter of the function that
  /// holds it has some values: Of gives that parameter (none: no such
  /// statement), Makes whether an argument for it makes the statement a
  /// target. A helper's `__shfl_sync(Mask, ...)` whose caller hands it the
  /// full mask is a full-mask call, as the pass sees it inlined.
  struct ByParameter {
    std::function<const clang::ParmVarDecl *(const clang::Stmt *)> Of;
    std::function<bool(const clang::Expr *)> Makes;
  };
  CalledTargets(const clang::ASTContext &Ctx, std::function<bool(const clang::Stmt *)> Is, ByParameter By = {})
      : Ctx(Ctx), Is(std::move(Is)), By(std::move(By)) {}
  /// What \p Call runs; empty for a call of no function with a body.
  std::vector<ReachedPlace> of(const clang::CallExpr *Call);

private:
  const std::vector<ReachedPlace> &reach(const clang::FunctionDecl *F);
  void walk(const clang::Stmt *S, std::vector<ReachedPlace> &Out);
  /// What a place the callee reaches is at \p Call: its Param resolved by
  /// the call's argument (a target, the caller's own parameter, or none).
  std::optional<ReachedPlace> atCall(ReachedPlace P, const clang::CallExpr *Call) const;
  const clang::ASTContext &Ctx;
  std::function<bool(const clang::Stmt *)> Is;
  ByParameter By;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<ReachedPlace>> Known;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> Active;
};

/// Where a target operation is reported: a call at its callee's name, any
/// other statement (inline asm) where it begins.
clang::SourceLocation targetLoc(const clang::Stmt *S);

/// A target (a block barrier, a full-mask warp call) that a condition
/// threads at one level may decide differently decides: where it is
/// reported (ReachedPlace), the statement the walk met under the condition
/// (the target itself, or the call that runs it), and the condition.
struct DecidedPlace {
  ReachedPlace Place;
  const clang::Stmt *Met;
  const clang::Expr *Cond;
};
/// Every such place of \p F's body, once per place and condition: the
/// targets \p IsTarget picks, and the calls of functions the TU defines
/// that run one (CalledTargets), as the IR pass sees those calls inlined.
/// What the divergent-barrier and warp-mask checks report.
std::vector<DecidedPlace> decidedPlaces(const clang::FunctionDecl *F, clang::ASTContext &Ctx, VaryLevel Level,
                                        std::function<bool(const clang::Stmt *)> IsTarget,
                                        CalledTargets::ByParameter By = {});

/// The functions the hierarchy checks read: kernels and device functions
/// the project defines (bound as "f").
clang::ast_matchers::DeclarationMatcher deviceFunctionDefinitions();

/// "file:line", the path absolute as the host facts and the IR pass write it
/// (launchPlace).
std::string placeOf(clang::SourceLocation L, const clang::SourceManager &SM);

} // namespace cuda_scope

#endif
