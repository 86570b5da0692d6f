//===- EngineImpl.h - what the engine's rules share, inside the model -----===//
//
// The engine's working state over one list of operations: program order
// questions asked through the front end's ProgramOrder, with the operations
// of each thread sorted so that "what lies between A and B" is a range; the
// concurrency groups of the scope rules. The rules live in EngineScopes.cpp,
// EngineMessages.cpp and EngineAsync.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_ENGINEIMPL_H
#define CUDA_SCOPE_MODEL_ENGINEIMPL_H

#include "Engine.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace cuda_scope {
namespace engine {

/// Accesses to one object that may run at the same time, and the scope that
/// includes every thread that may perform them.
struct Group {
  llvm::SmallVector<unsigned, 4> Ops;
  /// Block for __shared__ memory, per-block elements and objects one block
  /// uses alone; device for other global memory; system when host threads
  /// access it too.
  Scope Needed = Scope::Device;
  bool PerBlock = false;
  bool WithHost = false;
  /// Its readers run outside the kernel, while it runs (outsideReaders).
  bool OutsideKernel = false;
};

class State {
public:
  State(llvm::ArrayRef<MemOp> Ops, const ProgramOrder &PO, const EngineOptions &Opts);

  llvm::ArrayRef<MemOp> Ops;
  const ProgramOrder &PO;
  const EngineOptions &Opts;
  /// In the operations of mirrorPartners: each flag that is a kernel's
  /// message to its partner instance, and the one datum the partner sends
  /// through it. Nothing else is shared between the two instances.
  llvm::DenseMap<int, int> PartnerDatum;
  /// Of those data, the ones the partner reads only after the kernel: its
  /// wait, an acquire, ends the kernel (the stream's later work reads them).
  llvm::DenseSet<int> ReadAfterKernel;

  const MemOp &op(unsigned I) const { return Ops[I]; }

  /// One thread may run both \p A and \p B: program order relates only the
  /// operations of one thread, and a thread of block 0 never runs what only
  /// block 1 runs (if (blockIdx.x == 0) ... if (blockIdx.x == 1) ...).
  bool oneRunner(unsigned A, unsigned B) const {
    const MemOp &X = Ops[A], &Y = Ops[B];
    return X.Thread == Y.Thread && (X.OnlyBlock < 0 || Y.OnlyBlock < 0 || X.OnlyBlock == Y.OnlyBlock);
  }
  /// \p A may run before \p B in one thread.
  bool before(unsigned A, unsigned B) const {
    return A != B && oneRunner(A, B) && Ops[A].Seq < Ops[B].Seq && PO.mayPrecede(A, B);
  }
  /// \p A comes before \p B in the code, on a path that never reaches it: the
  /// arms of branches on the thread's index (if (rank != 15) write; if (rank
  /// == 15) publish), which -O2 makes separate paths where the second
  /// condition follows from the first. The threads that run one never run the
  /// other: as between any two threads', only a barrier orders them.
  bool besideBefore(unsigned A, unsigned B) const {
    return A != B && oneRunner(A, B) && Ops[A].Seq < Ops[B].Seq && !PO.mayPrecede(A, B) && !PO.mayPrecede(B, A);
  }
  /// Every thread that runs \p B has run \p A before it.
  bool alwaysBefore(unsigned A, unsigned B) const {
    return before(A, B) && PO.alwaysBefore(A, B);
  }
  /// \p A and \p B sit in one loop of one thread.
  bool inCommonLoop(unsigned A, unsigned B) const {
    return Ops[A].Thread == Ops[B].Thread && PO.inCommonLoop(A, B);
  }
  /// No block runs both \p A and \p B (ProgramOrder::blocksApart).
  bool blocksApart(unsigned A, unsigned B) const {
    return Ops[A].Thread == Ops[B].Thread && !inCommonLoop(A, B) && PO.blocksApart(A, B);
  }
  /// \p A and \p B never touch the same element of their object: one lies
  /// in a block's share of a buffer the grid splits evenly and the other
  /// past every share (pastEveryShare).
  bool addressesApart(unsigned A, unsigned B) const {
    const MemOp &X = Ops[A], &Y = Ops[B];
    return X.Object >= 0 && X.Object == Y.Object && X.Flat && Y.Flat &&
           (pastEveryShare(*X.Flat, *Y.Flat) || pastEveryShare(*Y.Flat, *X.Flat));
  }
  /// \p B sits in the loop the spinning read \p A is left by.
  bool inSpinLoop(unsigned A, unsigned B) const {
    return Ops[A].Thread == Ops[B].Thread && PO.inSpinLoop(A, B);
  }
  /// \p B orders \p D for \p L: D comes before B and B before L, in one
  /// iteration; or, in a loop holding all three, D cannot reach L within an
  /// iteration (it comes after L, or in a branch L's iteration does not
  /// take), so that D reaches the next iteration's L through B.
  bool barrierBetween(unsigned D, unsigned B, unsigned L) const {
    if (!before(D, B))
      return false;
    return before(B, L) || (!before(D, L) && inCommonLoop(D, L) && inCommonLoop(B, L));
  }
  /// \p B may run after the value \p A read has been tested.
  bool afterTest(unsigned A, unsigned B) const {
    const MemOp &X = Ops[A], &Y = Ops[B];
    return A != B && X.Tested && oneRunner(A, B) && X.Seq < Y.Seq && PO.afterTest(A, B);
  }
  /// Whether \p Pred holds for some synchronizing operation (a fence, a
  /// barrier, a call, a launch) that lies between \p From and \p To in
  /// program order: a binary search, then the range.
  template <typename Fn> bool anySyncBetween(unsigned From, unsigned To, Fn Pred) const {
    return anyBetween(Syncs, From, To, Pred);
  }
  /// Data access \p D is run by threads that flag access \p F is not: \p F
  /// only by the threads below a bound (if (threadIdx.x == 0)) or by some
  /// ranks of each tile (tile.thread_rank() == 15), \p D by more,
  /// at addresses the block's threads compute apart (data[threadIdx.x]: the
  /// others' locations, which \p F's thread does not touch), and no barrier
  /// stands between them (in either order) that would make
  /// the other threads' accesses the one thread's: __syncthreads(), a
  /// barrier object's wait (cuda::barrier), __syncwarp(), a grid sync, the
  /// cluster's wait, or a call not shown that may hold one.
  bool byOthers(unsigned D, unsigned F) const {
    const MemOp &Data = op(D), &Flag = op(F);
    if (!Data.ThreadApart ||
        !runsInFewerThreads(Flag.ThreadBelow, Flag.RankGroup, Data.ThreadBelow, Data.RankGroup))
      return false;
    auto Barrier = [&](unsigned I) {
      const MemOp &B = op(I);
      // A barrier object's arrive alone waits for no one: only its wait
      // (an acquire) makes the others' earlier writes this thread's.
      bool Waits = B.What == OpKind::BlockBarrier && (B.Object < 0 || hasAcquire(B.Ord));
      return Waits || B.What == OpKind::WarpBarrier || B.What == OpKind::GridBarrier ||
             B.What == OpKind::ClusterWait || (B.What == OpKind::Call && B.Opaque);
    };
    return Ops[D].Seq < Ops[F].Seq ? !anySyncBetween(D, F, Barrier) : !anySyncBetween(F, D, Barrier);
  }
  /// The same for the accesses with acquire semantics (acquire loads and
  /// read-modify-writes).
  template <typename Fn> bool anyAcquireBetween(unsigned From, unsigned To, Fn Pred) const {
    return anyBetween(Acquires, From, To, Pred);
  }
  /// The operations of \p Thread, by Seq.
  llvm::ArrayRef<unsigned> threadOps(unsigned Thread) const {
    auto It = All.find(Thread);
    return It == All.end() ? llvm::ArrayRef<unsigned>() : llvm::ArrayRef<unsigned>(It->second);
  }

  /// The groups of the scope rules: per context (or across kernels) and object.
  const std::vector<Group> &groups(bool AcrossKernels);
  /// The per-kernel group holding operation \p I, if any.
  const Group *groupOf(unsigned I);

  /// Host threads access object \p Object (atomically) too, and it lives
  /// where they can.
  bool accessedByHost(int Object) const { return HostObjects.count(Object); }

private:
  template <typename Fn>
  bool anyBetween(const llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 16>> &Lists, unsigned From, unsigned To,
                  Fn Pred) const {
    const MemOp &X = Ops[From], &Y = Ops[To];
    if (X.Thread != Y.Thread || X.Seq >= Y.Seq)
      return false;
    auto It = Lists.find(X.Thread);
    if (It == Lists.end())
      return false;
    const llvm::SmallVector<unsigned, 16> &List = It->second;
    auto First = llvm::upper_bound(List, X.Seq, [&](unsigned S, unsigned I) { return S < Ops[I].Seq; });
    auto Last = llvm::lower_bound(List, Y.Seq, [&](unsigned I, unsigned S) { return Ops[I].Seq < S; });
    for (auto I = First; I < Last; ++I)
      if (before(From, *I) && before(*I, To) && Pred(*I))
        return true;
    return false;
  }

  /// Every operation, and the synchronizing ones (fences, barriers, calls,
  /// launches, the async ones), per thread, by Seq.
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 16>> All, Syncs, Acquires;
  llvm::DenseMap<int, bool> HostObjects;
  std::unique_ptr<std::vector<Group>> PerKernel, Merged;
  llvm::DenseMap<unsigned, unsigned> GroupIndex;
};

/// A finding at \p At, with the other operation and the scope needed.
inline Finding finding(Finding::Kind K, unsigned At, int Other, Scope Needed, bool WithHost = false) {
  Finding F;
  F.What = K;
  F.At = At;
  F.Other = Other;
  F.Needed = Needed;
  F.WithHost = WithHost;
  return F;
}
inline Finding finding(Finding::Kind K, unsigned At, int Other, const Group &G) {
  Finding F = finding(K, At, Other, G.Needed, G.WithHost);
  F.OutsideKernel = G.OutsideKernel;
  return F;
}

/// One block of one grid runs every operation of \p Members: a branch pins
/// the same block for each (if (blockIdx.x == 0)), or the same ticket elects
/// it (the last block to arrive). Two kernels are two grids.
template <typename Range> bool oneBlockRuns(llvm::ArrayRef<MemOp> Ops, const Range &Members) {
  const MemOp &First = Ops[*Members.begin()];
  return llvm::all_of(Members, [&](unsigned I) {
           const MemOp &Op = Ops[I];
           return Op.RunBy == Runner::Kernel && Op.Context == First.Context && Op.OnlyBlock >= 0 &&
                  Op.OnlyBlock == First.OnlyBlock;
         }) ||
         llvm::all_of(Members, [&](unsigned I) {
           const MemOp &Op = Ops[I];
           return Op.RunBy == Runner::Kernel && Op.Context == First.Context && Op.ElectedBy >= 0 &&
                  Op.ElectedBy == First.ElectedBy;
         });
}

/// An operation that the scope rules group: atomic (or volatile) with a scope,
/// on an object.
inline bool isScoped(const MemOp &Op) {
  return Op.Object >= 0 && Op.S && Op.Ord != Order::Plain &&
         (Op.isAccess() || Op.What == OpKind::BlockBarrier);
}

/// True when \p Op's scope does not include every thread that may access its
/// object concurrently (\p G's Needed). A thread-scope access is only too
/// narrow where other blocks share the object: within one block the element
/// may be the thread's own (s[threadIdx.x]).
inline bool scopeTooNarrow(const MemOp &Op, const Group &G) {
  if (includes(*Op.S, G.Needed))
    return false;
  return *Op.S != Scope::Thread || includes(G.Needed, Scope::Device);
}

void scopeRules(State &St, std::vector<Finding> &Out);
/// \p MessageFences: the fences that order some message (the fence rule
/// leaves those to the message rules).
void fenceRule(State &St, const llvm::DenseMap<unsigned, bool> &MessageFences, std::vector<Finding> &Out);
void messageRules(State &St, std::vector<Finding> &Out, llvm::DenseMap<unsigned, bool> &MessageFences);
void asyncRules(State &St, std::vector<Finding> &Out);
/// Messages between a kernel and the other GPUs of its team, whose other side
/// runs outside it (EnginePeers.cpp).
void peerRules(State &St, std::vector<Finding> &Out);
/// The operations with each kernel's message to a partner instance of itself
/// under one flag and one datum (EngineMirrors.cpp), and each such flag's
/// datum; empty where no kernel has one.
struct Mirror {
  std::vector<MemOp> Ops;
  llvm::DenseMap<int, int> PartnerDatum;
  llvm::DenseSet<int> ReadAfterKernel;
};
Mirror mirrorPartners(const State &St);
void wideScopeRule(State &St, std::vector<Finding> &Out);

} // namespace engine
} // namespace cuda_scope

#endif
