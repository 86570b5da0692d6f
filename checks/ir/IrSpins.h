//===- IrSpins.h - the values on which a spin in the device IR is left -----===//
#ifndef CUDA_SCOPE_IR_IRSPINS_H
#define CUDA_SCOPE_IR_IRSPINS_H

#include "DeviceMemoryOps.h"
#include "model/Engine.h"
#include "llvm/Analysis/LoopInfo.h"
#include <optional>

namespace cuda_scope {

/// The condition on the value \p Op reads under which the loop it spins in
/// is left (MemOp::PassWhen), or none where the IR does not show one.
std::optional<ValueCondition> spinExit(const IROp &Op, const llvm::LoopInfo &LI);

} // namespace cuda_scope

#endif
