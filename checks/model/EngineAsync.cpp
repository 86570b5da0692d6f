//===- EngineAsync.cpp - the async proxy and the cluster barrier -----------===//
//
// Two rules of the PTX model that only the device IR shows well:
// - proxy fence: generic-proxy writes to shared memory read next by the async
//   proxy (a bulk copy out of shared memory, wgmma) need a fence.proxy.async
//   between them (proxy-preserved base causality order);
// - cluster wait: barrier.cluster.arrive only announces this block; another
//   block's shared memory is ready to read once barrier.cluster.wait returns.
//
//===----------------------------------------------------------------------===//
#include "EngineImpl.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

void asyncRules(State &St, std::vector<Finding> &Out) {
  for (unsigned R = 0; R < St.Ops.size(); ++R) {
    const MemOp &Read = St.op(R);
    if (Read.What == OpKind::AsyncSharedRead) {
      for (unsigned W : St.threadOps(Read.Thread)) {
        const MemOp &Write = St.op(W);
        if (Write.What != OpKind::Store || Write.Space != MemorySpace::Shared || !St.before(W, R))
          continue;
        if (!St.anySyncBetween(W, R, [&](unsigned F) { return St.op(F).What == OpKind::ProxyFence; })) {
          Out.push_back(finding(Finding::ProxyFence, R, static_cast<int>(W), Scope::Block, false));
          break;
        }
      }
    } else if (Read.What == OpKind::Load && Read.Space == MemorySpace::SharedCluster) {
      for (unsigned A : St.threadOps(Read.Thread)) {
        if (St.op(A).What != OpKind::ClusterArrive || !St.before(A, R))
          continue;
        if (!St.anySyncBetween(A, R, [&](unsigned W) { return St.op(W).What == OpKind::ClusterWait; })) {
          Out.push_back(finding(Finding::ClusterWait, R, static_cast<int>(A), Scope::Cluster, false));
          break;
        }
      }
    }
  }
}

} // namespace engine
} // namespace cuda_scope
