//===- IrSpins.h - the values on which a spin in the device IR is left -----===//
#ifndef CUDA_SCOPE_IR_IRSPINS_H
#define CUDA_SCOPE_IR_IRSPINS_H

#include "DeviceMemoryOps.h"
#include "IrOrder.h"
#include "model/Engine.h"
#include "llvm/Analysis/LoopInfo.h"
#include <optional>

namespace cuda_scope {

/// Where a read spins: a natural loop, or a cycle with several entries where
/// -O2 has threaded the loop's test into them (a wait whose order is a
/// run-time argument: a switch over it ahead of the loop and at its end, each
/// case jumping to its own load), which no natural loop holds.
struct SpinLoop {
  const llvm::Loop *L = nullptr;
  const llvm::Cycle *C = nullptr;
  explicit operator bool() const { return L || C; }
  bool contains(const llvm::BasicBlock *BB) const { return L ? L->contains(BB) : C && C->contains(BB); }
};

/// The innermost loop holding the read \p I in which the branch \p Guard,
/// which the read's value decides, makes the thread read again: the branch
/// leaves the loop, or one of its outcomes goes straight back to the loop's
/// header (a take that failed retries); where no natural loop holds both, the
/// innermost irreducible cycle the branch leaves. None where it does neither.
SpinLoop spinLoopOf(const llvm::Instruction *Guard, const llvm::Instruction *I, const FunctionOrder &O);

/// Whether the function holding \p I returns its value (itself, or through
/// the casts, phis and selects that merge its paths), so that a caller's
/// test of the call tests the read.
bool returnedBy(const llvm::Instruction &I);

/// The condition on the value \p Op reads under which the loop it spins in
/// is left (MemOp::PassWhen), or none where the IR does not show one.
std::optional<ValueCondition> spinExit(const IROp &Op, const FunctionOrder &O);

} // namespace cuda_scope

#endif
