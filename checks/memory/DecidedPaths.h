//===- DecidedPaths.h - arms a test the path passed has closed -------------===//
//
// Program order between two operations of one thread, less the paths that no
// execution takes: an operation inside an if whose condition a test the path
// passed before has decided the other way (model consistentTests), the value
// tested unchanged in between.
//
//   if (mode == 1) data[i] = v;   // mode is a parameter nothing writes
//   if (mode == 2) publish(flag); // never after the write above
//
// -O2 threads such branches (the write's path jumps past the second test), so
// the IR front end never sees the path; the AST front end closes it here.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_DECIDEDPATHS_H
#define CUDA_SCOPE_MEMORY_DECIDEDPATHS_H

#include "ScopedAccesses.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_scope {

class DecidedPaths {
public:
  using Arm = std::pair<const clang::Stmt *, unsigned>;
  explicit DecidedPaths(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// No path of one walk of \p Root runs from what sits in \p ArmsA to what
  /// sits in \p ArmsB: an if or ?: around B, entered after A in the same
  /// call of its function, tests a variable that an if or ?: around A has
  /// tested, with an outcome the first one's excludes. The variable holds one
  /// value in every thread of the launch: a kernel's by-value parameter, a
  /// device function's that its call hands such a value, or a local set to
  /// one, and no statement changes it. A test of the thread's identity (its
  /// rank in a tile, its lane) decides which thread runs each arm, not that
  /// no thread's path runs both: the rules pair those threads' operations.
  bool closed(const clang::FunctionDecl *Root, llvm::ArrayRef<Arm> ArmsA, llvm::ArrayRef<Arm> ArmsB) const;

  /// What an arm's condition says of one variable on the arm's path.
  struct Fact {
    const clang::VarDecl *Var;
    ValueCondition Test;
  };

private:
  bool unchanged(const clang::Stmt *Body, const clang::VarDecl *V) const;
  /// \p V, \p E: one value in every thread, in the call of the function
  /// the walk is in past \p Calls (the arms down to it; none: \p Root).
  bool uniform(const clang::VarDecl *V, llvm::ArrayRef<Arm> Calls, const clang::FunctionDecl *Root,
               unsigned Depth) const;
  bool uniform(const clang::Expr *E, llvm::ArrayRef<Arm> Calls, const clang::FunctionDecl *Root,
               unsigned Depth) const;
  /// The facts on the path into an arm, read once per arm.
  llvm::ArrayRef<Fact> factsOf(const Arm &A) const;

  clang::ASTContext &Ctx;
  mutable llvm::DenseMap<std::pair<const clang::Stmt *, const clang::VarDecl *>, bool> Unchanged;
  mutable llvm::DenseMap<Arm, llvm::SmallVector<Fact, 2>> ArmFacts;
};

} // namespace cuda_scope

#endif
