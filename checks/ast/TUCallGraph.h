//===- TUCallGraph.h - the per-TU call graph the host-API checks share ----===//
//
// Built once per translation unit and shared by every check that asks for it
// (TUCallGraph::get). Each function is summarised lazily, the first time a
// query reaches it: the CUDA API calls and kernel launches it makes itself,
// and every way it transfers control to another function the TU defines:
// calls, constructors, destructors run by delete or at scope exit, member and
// base destructors, operators, virtual calls (to every overrider the TU
// defines), function-pointer variables whose value the TU shows, and calls
// through function-pointer fields named after the API (syms->cuMemFree).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_AST_TUCALLGRAPH_H
#define CUDA_SCOPE_AST_TUCALLGRAPH_H

#include "model/CudaApi.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace clang {
class ASTContext;
class CXXMethodDecl;
} // namespace clang

namespace cuda_scope {

/// Something a function does itself that the checks care about.
struct CudaEvent {
  enum Kind : uint8_t {
    ApiCall,      ///< a CUDA runtime or driver API function
    KernelLaunch, ///< kernel<<<...>>>()
    ExternalCall, ///< a function the TU declares but does not define, from a
                  ///< system header or a builtin (a library's: no file of the
                  ///< project defines it)
    OpenCall,     ///< a function the TU declares outside system headers but
                  ///< does not define, or a virtual call: another file of the
                  ///< project may define it, or an override
  };
  Kind What;
  const clang::Expr *E;       ///< the call or launch
  llvm::StringRef Name;       ///< normalized API name, kernel or callee name
  const CudaApiInfo *Api;     ///< the table row, if the API has one
  bool ThroughPointer = false; ///< called through a pointer named after the API
  /// ExternalCall, OpenCall: the function called (for a virtual call, the
  /// method named at the call, or the destructor that delete runs).
  const clang::FunctionDecl *Target = nullptr;
  bool Virtual = false; ///< OpenCall: any overrider of Target may run
  unsigned mask() const { return 1u << What; }
};

/// One way a function transfers control to another.
struct CallEdge {
  enum Kind : uint8_t { Call, Construct, Destroy, Delete, Virtual, Pointer };
  Kind How;
  const clang::FunctionDecl *Callee; ///< the definition
  clang::SourceLocation Loc;         ///< where to put the note
  /// Call: the call expression (its getExprLoc() is where a compiler puts
  /// the call's debug location: the callee's name).
  const clang::Expr *Site = nullptr;
};

/// A host function handed to the runtime to be run by a stream or graph.
struct Registration {
  const clang::FunctionDecl *Callback; ///< the definition (a declaration in openRegistrations)
  const clang::Expr *Site;             ///< the registering call or .fn initialisation
  llvm::StringRef Registrar;           ///< "cudaLaunchHostFunc", "cudaHostNodeParams::fn"
};

class TUCallGraph {
public:
  /// The graph of \p Ctx's translation unit, built on first use and shared
  /// by every caller until the last one lets go of it.
  static std::shared_ptr<TUCallGraph> get(clang::ASTContext &Ctx);

  explicit TUCallGraph(clang::ASTContext &Ctx);
  ~TUCallGraph();

  struct Summary {
    llvm::SmallVector<CudaEvent, 2> Events;
    llvm::SmallVector<CallEdge, 4> Calls;
  };
  /// The definition's own events and edges; null for functions with no body.
  const Summary *summary(const clang::FunctionDecl *F);

  /// The union of CudaEvent::mask() over everything reachable from \p F.
  unsigned reachableEvents(const clang::FunctionDecl *F);

  struct Path {
    const CudaEvent *Event;
    const clang::FunctionDecl *Owner;            ///< the function making the call
    llvm::SmallVector<const CallEdge *, 4> Chain; ///< from the root down to Owner
  };
  /// Visits every event reachable from \p Root whose kind is in \p Mask and
  /// for which \p Want holds, each once, with the shortest call chain.
  void forEachReachable(const clang::FunctionDecl *Root, unsigned Mask,
                        llvm::function_ref<bool(const CudaEvent &)> Want,
                        llvm::function_ref<void(const Path &)> Visit);

  /// Callbacks registered through the API table's registrars anywhere in the TU.
  llvm::ArrayRef<Registration> registrations();
  /// The same for callbacks this TU declares but another file defines.
  llvm::ArrayRef<Registration> openRegistrations();

  /// The function an expression names: a function, a static member, a
  /// non-capturing lambda converted to a pointer, or a pointer variable whose
  /// initializer names one. Null if the TU does not show it.
  static const clang::FunctionDecl *resolveFunction(const clang::Expr *E);
  /// The same, but the declaration when the TU does not define it.
  static const clang::FunctionDecl *namedFunction(const clang::Expr *E);

  /// The definition of \p F this TU holds, if any.
  static const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *F);

  clang::ASTContext &context() { return Ctx; }

  /// Whether an earlier query has found what \p F reaches.
  bool reachKnown(const clang::FunctionDecl *F) const { return Reach.count(F); }

private:
  void summarize(const clang::FunctionDecl *F, Summary &S);
  llvm::ArrayRef<const clang::CXXMethodDecl *> overriders(const clang::CXXMethodDecl *M);
  void computeReach(const clang::FunctionDecl *Root);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Summary>> Summaries;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Reach;
  std::unique_ptr<llvm::DenseMap<const clang::CXXMethodDecl *,
                                 llvm::SmallVector<const clang::CXXMethodDecl *, 2>>>
      Overriders;
  std::unique_ptr<std::vector<Registration>> Registrations, OpenRegistrations;
};

} // namespace cuda_scope

#endif
