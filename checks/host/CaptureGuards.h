//===- CaptureGuards.h - code that runs only when not capturing, or relaxed ===//
//
// Two things make a call that would break a capture harmless: a test that
// the stream is not capturing around it (`if (Status ==
// cudaStreamCaptureStatusNone)`, `if (!isCapturing(S)) return;`), and an
// exchange of the thread's capture mode to relaxed around it. This finds
// both, per function, once: the guards by reading the function's branches;
// the relaxed calls through the capture-region dataflow, which the analysis
// runs on request (Collector).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_CAPTUREGUARDS_H
#define CUDA_SCOPE_HOST_CAPTUREGUARDS_H

#include "ast/TUCallGraph.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <memory>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class SourceManager;
class VarDecl;
} // namespace clang

namespace cuda_scope {

/// The calls a function makes while its thread is in relaxed capture mode.
struct RelaxedCalls {
  llvm::DenseSet<const clang::Expr *> Exprs;  ///< API calls and launches
  llvm::DenseSet<clang::SourceLocation> Locs; ///< every call, by its place
};

class CaptureGuards {
public:
  /// Fills the relaxed calls of a function (the region dataflow does).
  using Collector = std::function<void(const clang::FunctionDecl *, RelaxedCalls &)>;
  CaptureGuards(TUCallGraph &Graph, Collector CollectRelaxed);
  ~CaptureGuards();

  /// \p Loc in \p F runs only when the stream is not capturing.
  bool guarded(const clang::FunctionDecl *F, clang::SourceLocation Loc);
  /// What \p F calls in relaxed mode (an exchange to relaxed around it).
  const RelaxedCalls &relaxed(const clang::FunctionDecl *F);
  /// Whether a branch that runs only when not capturing holds the call \p At
  /// at the end of \p Chain (in \p Owner) or any call on the way to it.
  bool chainGuarded(llvm::ArrayRef<const CallEdge *> Chain, const clang::FunctionDecl *Owner,
                    const clang::Expr *At);
  /// Whether an exchange to relaxed mode brackets the call on its way.
  bool chainRelaxed(llvm::ArrayRef<const CallEdge *> Chain, const clang::FunctionDecl *Owner,
                    const clang::Expr *At);

private:
  enum class NotCapturing : uint8_t { Unknown, IfTrue, IfFalse };
  struct FunctionFacts;
  FunctionFacts &factsOf(const clang::FunctionDecl *F);
  FunctionFacts &guards(const clang::FunctionDecl *F);
  NotCapturing notCapturingIf(const clang::Expr *E, const FunctionFacts &FF, unsigned Depth);
  NotCapturing predicate(const clang::FunctionDecl *F, unsigned Depth);
  static NotCapturing flip(NotCapturing N);

  TUCallGraph &Graph;
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  Collector CollectRelaxed;
  // Filled while other entries are being filled (a guard calls a predicate):
  // the entries must not move.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFacts>> Facts;
  llvm::DenseMap<const clang::FunctionDecl *, NotCapturing> Predicates;
};

} // namespace cuda_scope

#endif
