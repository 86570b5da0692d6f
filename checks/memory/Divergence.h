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

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_scope {

enum class VaryLevel { Block, Warp };

/// A read of a builtin variable's component (threadIdx.x, gridDim.y, or the
/// NVVM builtin that reads its register): the variable's name and the
/// component.
std::optional<std::pair<llvm::StringRef, char>> builtinVariableRead(const clang::Expr *E);

/// The size of the cooperative groups tile whose member \p CE calls
/// (thread_block_tile<32>::shfl: 32, static members too), from the tile
/// class that declares the member; none for other calls.
std::optional<unsigned> tileSize(const clang::CallExpr *CE);

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

/// The functions the hierarchy checks read: kernels and device functions
/// the project defines (bound as "f").
clang::ast_matchers::DeclarationMatcher deviceFunctionDefinitions();

/// "file:line", the path absolute as the host facts and the IR pass write it
/// (launchPlace).
std::string placeOf(clang::SourceLocation L, const clang::SourceManager &SM);

} // namespace cuda_scope

#endif
