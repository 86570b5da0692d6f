//===- IrOrder.h - program order in one function's control-flow graph -----===//
//
// What may run before what in one thread, as the engine asks it: B may follow
// A when a path leads from A to B without going back around a loop that
// holds both (an iteration's later operations do not precede its earlier
// ones), which is how the AST front end reads program order too. Blocks are
// numbered in a topological order of the loop nest (a loop's blocks together,
// before what follows the loop), so that A before B implies a smaller number.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_IRORDER_H
#define CUDA_SCOPE_IR_IRORDER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "model/Engine.h"
#include <memory>

namespace cuda_scope {

class FunctionOrder {
public:
  explicit FunctionOrder(const llvm::Function &F);

  /// The position of \p I in the loop-nest topological order.
  unsigned number(const llvm::Instruction *I) const { return InstNum.lookup(I); }
  /// \p A may run before \p B (in the same function) in one thread.
  bool mayPrecede(const llvm::Instruction *A, const llvm::Instruction *B) const;
  /// ... on a path whose tests can all pass: no test on every path to \p A
  /// decides one on every path to \p B the other way, for one value (model
  /// consistentTests; what -O2 did not thread, as the AST's DecidedPaths).
  bool mayPrecedeOnOpenPath(const llvm::Instruction *A, const llvm::Instruction *B) const;

  const llvm::DominatorTree &domTree() const { return DT; }
  const llvm::LoopInfo &loops() const { return LI; }
  /// The function's cycles, natural loops or not: -O2 may thread a loop's
  /// test into its entries so that no natural loop is left (computed when
  /// first asked).
  const llvm::CycleInfo &cycles() const;
  /// \p B runs on the outcome of the branch \p Guard: in a branch it decides
  /// (B does not post-dominate it), or after the loop it exits.
  bool guardedBy(const llvm::Instruction *Guard, const llvm::Instruction *B) const;

private:
  void order(const llvm::Loop *L, std::vector<const llvm::BasicBlock *> &Out);
  bool blockReaches(const llvm::BasicBlock *From, const llvm::BasicBlock *To) const;

  const llvm::Function &Fn;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::PostDominatorTree PDT;
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> RPO;
  llvm::DenseMap<const llvm::Instruction *, unsigned> InstNum;
  mutable std::unique_ptr<llvm::CycleInfo> Cycles;
  mutable llvm::DenseMap<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, bool> Reach, Guarded;
};

} // namespace cuda_scope

#endif
