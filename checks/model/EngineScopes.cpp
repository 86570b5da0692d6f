//===- EngineScopes.cpp - scopes too narrow for the threads that share -----===//
//
// Two concurrent atomic accesses to one object race unless each one's scope
// includes the thread doing the other (libcu++ memory model, Data Races; PTX
// "morally strong"). Per concurrency group: an access narrower than the
// threads that may touch the object races with one wide enough (mismatch),
// or, when none is, with the other accesses of the narrow scope made by
// threads outside it (insufficient). A fence narrower than the relaxed
// access it orders (the two make a release or acquire pattern of the
// fence's scope) is insufficient too, unless it orders a message: the
// message rules know who is on the other side. A pattern counts only where
// a value read is tested: a read whose value decides nothing (a counter
// bumped and never looked at) synchronizes the reader with nothing.
//
//===----------------------------------------------------------------------===//
#include "EngineImpl.h"
#include "llvm/ADT/DenseSet.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

void scopeRules(State &St, std::vector<Finding> &Out) {
  for (const Group &G : St.groups(St.Opts.AcrossKernels))
    for (unsigned I : G.Ops) {
      if (!scopeTooNarrow(St.op(I), G))
        continue;
      for (unsigned J : G.Ops)
        if (J != I && includes(*St.op(J).S, G.Needed)) {
          Out.push_back(finding(Finding::ScopeMismatch, I, static_cast<int>(J), G));
          break;
        }
    }
  // With one access wide enough, the narrow ones are mismatches; with none,
  // every narrow one is insufficient. Kernels apart: what one kernel does
  // alone must be right for its own blocks.
  for (const Group &G : St.groups(/*AcrossKernels=*/false)) {
    if (any_of(G.Ops, [&](unsigned J) { return includes(*St.op(J).S, G.Needed); }))
      continue;
    for (unsigned I : G.Ops) {
      if (!scopeTooNarrow(St.op(I), G))
        continue;
      int Other = -1;
      if (G.WithHost)
        for (unsigned J : G.Ops)
          if ((St.op(J).RunBy == Runner::Host) != (St.op(I).RunBy == Runner::Host)) {
            Other = J;
            break;
          }
      Out.push_back(finding(Finding::ScopeInsufficient, I, Other, G));
    }
  }
}

void fenceRule(State &St, const DenseMap<unsigned, bool> &MessageFences, std::vector<Finding> &Out) {
  // A release fence then a relaxed write, or a relaxed read then an acquire
  // fence, make a pattern of the fence's scope: the nearest atomic access on either
  // side of the fence in its thread is the one it orders.
  // The objects some read of which, atomic or not, is tested, per kernel.
  DenseSet<std::pair<int, int>> TestedReads;
  for (const MemOp &Op : St.Ops)
    if (Op.reads() && Op.Tested && Op.Object >= 0)
      TestedReads.insert({Op.Context, Op.Object});
  // The objects of grid memory a kernel both writes and reads: what an
  // acquire pattern can order for the reader (what it only reads is its
  // input, which no thread of it changes).
  DenseMap<std::pair<int, int>, unsigned> Uses; // bit 1: written, bit 2: read
  for (const MemOp &Op : St.Ops)
    if (Op.isAccess() && Op.Object >= 0 && gridMemory(Op.Home))
      Uses[{Op.Context, Op.Object}] |= (Op.writes() ? 1u : 0u) | (Op.reads() ? 2u : 0u);
  // An acquire pattern makes visible what the releasing thread wrote before
  // its write of the flag (and what reached that thread before it): where
  // the unit shows the flag's writes, an object no thread writes before one
  // of them, in one iteration or through a loop's next one, is not handed
  // over by it, and no fence changes what a read of it sees.
  DenseMap<int, SmallVector<unsigned, 4>> Writes;
  for (unsigned I = 0; I < St.Ops.size(); ++I)
    if (St.op(I).writes() && St.op(I).Object >= 0)
      Writes[St.op(I).Object].push_back(I);
  DenseMap<std::pair<int, int>, bool> Published;
  auto PublishedBy = [&](int Object, int Flag) {
    auto [Known, New] = Published.try_emplace({Object, Flag}, false);
    if (!New)
      return Known->second;
    auto Data = Writes.find(Object), Flags = Writes.find(Flag);
    if (Data == Writes.end())
      return false;
    // A flag whose writes the unit does not show (another unit's kernel,
    // the host, a peer) may be written after any of them.
    if (Flags == Writes.end())
      return Published[{Object, Flag}] = true;
    bool Is = any_of(Data->second, [&](unsigned I) {
      return any_of(Flags->second, [&](unsigned W) { return St.before(I, W) || St.inCommonLoop(I, W); });
    });
    Published[{Object, Flag}] = Is;
    return Is;
  };
  auto ReadsDataAfter = [&](ArrayRef<unsigned> Thread, unsigned Fence, int Flag) {
    return any_of(Thread, [&](unsigned X) {
      const MemOp &Op = St.op(X);
      // A read-modify-write reads the write just before its own in the
      // object's coherence order whatever comes before it in its thread: no
      // fence changes its value, so it is nothing an acquire pattern orders.
      if (Op.What != OpKind::Load || Op.Object < 0 || Op.Object == Flag || !St.before(Fence, X))
        return false;
      auto It = Uses.find({Op.Context, Op.Object});
      return It != Uses.end() && It->second == 3u && PublishedBy(Op.Object, Flag);
    });
  };
  for (unsigned F = 0; F < St.Ops.size(); ++F) {
    const MemOp &Fence = St.op(F);
    if (Fence.What != OpKind::Fence || !Fence.S || *Fence.S == Scope::Thread || Fence.RunBy == Runner::Host ||
        MessageFences.count(F))
      continue;
    ArrayRef<unsigned> Thread = St.threadOps(Fence.Thread);
    auto Pos = llvm::find(Thread, F);
    auto Check = [&](unsigned A, bool Release) {
      const MemOp &Access = St.op(A);
      if (!Access.isAccess() || Access.Ord != Order::Relaxed || Access.Object < 0)
        return false;
      if (Release ? Access.What == OpKind::Load : Access.What == OpKind::Store)
        return false;
      if (Release ? !St.before(F, A) : !St.before(A, F))
        return false;
      const Group *G = St.groupOf(A);
      if (!G || includes(*Fence.S, G->Needed))
        return false;
      // The pattern synchronizes only with a thread whose read observes the
      // write and whose next steps the value decides (a flag, a ticket): a
      // counter no read of which is tested (a histogram's bins) hands nothing
      // over, whatever the fence next to it orders. An acquire pattern is one
      // when the value read is tested.
      // With the wide net (Strictness), every pattern counts.
      if (St.Opts.Net == Strictness::Evidence &&
          (Release ? !TestedReads.count({Access.Context, Access.Object}) : !Access.Tested))
        return false;
      // An acquire pattern orders the reader's later reads of other
      // locations: with none that another thread writes before a write of
      // the flag (a spin whose value is all it waits for, where the fence
      // only delays the next poll: CUB's look-back before sm_70, whatever
      // the output iterator does after it), its scope hides nothing.
      if (St.Opts.Net == Strictness::Evidence && !Release && !ReadsDataAfter(Thread, F, Access.Object))
        return false;
      Out.push_back(finding(Finding::FenceTooNarrow, F, static_cast<int>(A), G->Needed, G->WithHost));
      return true;
    };
    // The nearest atomic access after it, then before it: plain accesses
    // between them change nothing.
    auto After = std::find_if(Pos + 1, Thread.end(), [&](unsigned A) { return St.op(A).isStrongAccess(); });
    if (After != Thread.end() && Check(*After, /*Release=*/true))
      continue;
    for (auto It = Pos; It != Thread.begin();) {
      --It;
      if (St.op(*It).isStrongAccess()) {
        Check(*It, /*Release=*/false);
        break;
      }
    }
  }
}

void wideScopeRule(State &St, std::vector<Finding> &Out) {
  // Shared memory is one block's (PTX: the state space of a CTA), unless the
  // code reaches another block's through its cluster (shared::cluster, the
  // cluster barrier): a scope wider than the block orders it for no thread
  // that could see it. What the wider scope costs is its ordering: a relaxed
  // atomic costs the same at every scope (Scopes.def), so only an access
  // that orders (acquire, release) and a fence are reported.
  DenseSet<int> Cluster, Beyond;
  for (const MemOp &Op : St.Ops) {
    if (Op.Space == MemorySpace::SharedCluster || Op.What == OpKind::ClusterArrive ||
        Op.What == OpKind::ClusterWait || (Op.S && *Op.S == Scope::Cluster))
      Cluster.insert(Op.Context);
    // A context whose memory is not all its block's own: an access to any
    // other memory, or to memory not known, a call whose callee is not
    // shown, a launch.
    if ((Op.isAccess() && (Op.Object < 0 || (Op.Home != ObjectHome::Shared && Op.Home != ObjectHome::Local))) ||
        (Op.What == OpKind::Call && Op.Opaque) || Op.What == OpKind::ChildLaunch || Op.What == OpKind::GridBarrier)
      Beyond.insert(Op.Context);
  }
  for (unsigned I = 0; I < St.Ops.size(); ++I) {
    const MemOp &Op = St.op(I);
    if (Op.RunBy != Runner::Kernel || !Op.S || *Op.S <= Scope::Block || Cluster.count(Op.Context))
      continue;
    bool Ordering = hasAcquire(Op.Ord) || hasRelease(Op.Ord);
    // An ordering access of shared memory.
    if (Op.isAccess() && Ordering && Op.Object >= 0 && Op.Home == ObjectHome::Shared)
      Out.push_back(finding(Finding::ScopeWider, I, -1, Scope::Block));
    // A fence in code that touches its block's shared memory and nothing else.
    else if (Op.What == OpKind::Fence && !Beyond.count(Op.Context))
      Out.push_back(finding(Finding::ScopeWider, I, -1, Scope::Block));
  }
}

} // namespace engine
} // namespace cuda_scope
