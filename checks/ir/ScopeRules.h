//===- ScopeRules.h - the scope rules, applied to one kernel's device IR --===//
//
// The rules of cuda-scope-mismatch, cuda-scope-insufficient and
// cuda-scope-release-acquire, per object and kernel, after inlining; and
// cuda-scope-proxy-fence, which only the IR
// sees well: generic-proxy writes to shared memory read next by the async
// proxy (a bulk copy out of shared memory, wgmma) with no fence.proxy.async;
// and cuda-scope-cluster-wait: another block's shared memory read after
// barrier.cluster.arrive but before the matching barrier.cluster.wait.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_SCOPERULES_H
#define CUDA_SCOPE_IR_SCOPERULES_H

#include "DeviceMemoryOps.h"

namespace cuda_scope {

struct IRFinding {
  llvm::StringRef Check;          ///< "cuda-scope-mismatch"; also the remark name
  const IROp *At;                 ///< where to report
  const IROp *Other = nullptr;    ///< the other access, if the rule has one
  std::string Object;             ///< describeObject()
  /// For cuda-scope-release-acquire: which half of the pattern is missing.
  enum Pattern : uint8_t { None, NoRelease, NoAcquire, NarrowFence } What = None;
  std::string Data;               ///< the data object the flag carries
};

/// Applies every rule to \p Ops, the operations of one kernel.
std::vector<IRFinding> checkKernelOps(const std::vector<IROp> &Ops);

} // namespace cuda_scope

#endif
