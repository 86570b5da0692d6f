//===- IrSpins.h - the values on which a spin in the device IR is left -----===//
#ifndef CUDA_SCOPE_IR_IRSPINS_H
#define CUDA_SCOPE_IR_IRSPINS_H

#include "DeviceMemoryOps.h"
#include "model/Engine.h"
#include "llvm/Analysis/LoopInfo.h"
#include <optional>

namespace cuda_scope {

/// The innermost loop holding the read \p I in which the branch \p Guard,
/// which the read's value decides, makes the thread read again: the branch
/// leaves the loop, or one of its outcomes goes straight back to the loop's
/// header (a take that failed retries). None where it does neither.
const llvm::Loop *spinLoopOf(const llvm::Instruction *Guard, const llvm::Instruction *I, const llvm::LoopInfo &LI);

/// Whether the function holding \p I returns its value (itself, or through
/// the casts, phis and selects that merge its paths), so that a caller's
/// test of the call tests the read.
bool returnedBy(const llvm::Instruction &I);

/// The condition on the value \p Op reads under which the loop it spins in
/// is left (MemOp::PassWhen), or none where the IR does not show one.
std::optional<ValueCondition> spinExit(const IROp &Op, const llvm::LoopInfo &LI);

} // namespace cuda_scope

#endif
