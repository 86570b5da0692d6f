//===- EnginePeers.cpp - messages between a kernel and its team's GPUs ----===//
//
// A kernel of a communication library writes into the memory of the other
// GPUs of its team (a peer's slot of a symmetric window, every copy through a
// multicast address: MemOp::Peer) and reads from it, and synchronizes with
// them by signals: it writes a word the peers wait on, and waits on words the
// peers write (a barrier across GPUs: arrive, then wait). The other side of
// such a message need not be in the kernel: the peer that passes the barrier
// may read what was written into its memory only after its own kernel ends,
// in whatever its stream runs next, and what this kernel reads from a peer
// may have been written before the peer's kernel began. Its launch boundary
// orders those accesses before or after the peer's signals on its own GPU,
// but nothing orders them for this kernel except the signals themselves. By
// the PTX model (ptx-memory-synchronization.md, item 4) a signal carries the
// writes before it only as a release pattern, and a wait makes the writes
// before the peer's signal visible to the reads after it only as an acquire
// pattern. So, without a reader or writer in view:
// - a plain write into a peer's memory, then a signal into the peers'
//   memory at system scope with no release between them, then a wait for
//   the peers, is a message whose data the signal does not carry;
// - a wait for the peers at system scope (a spin no read of which
//   acquires) after the thread's signal into their memory, then a plain read of a peer's
//   memory with no acquire between them, is a message whose data the wait
//   does not receive; a plain write there after it may land before the peer
//   is done with what it held (its reads and writes before it signalled:
//   the write is not ordered after them, as a receive's write is not).
// A release or acquire fence of any scope between them, or a call not shown,
// is taken as the order (its scope is the scope rules' question). Writes into
// this GPU's own memory (ncclGetLocalPointer) are left out: its stream orders
// the kernel before its own later work, and a peer reads them only after its
// next wait, which the next launch's signal precedes.
//
//===----------------------------------------------------------------------===//
#include "EngineImpl.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

namespace {

/// A write at system scope into the peers' memory that carries no release:
/// a signal that orders nothing before it.
bool relaxedSignal(const MemOp &Op) {
  return (Op.What == OpKind::Store || Op.What == OpKind::RMW) && Op.Peer && isStrong(Op.Ord) &&
         !hasRelease(Op.Ord) && Op.S && *Op.S == Scope::System;
}

/// A spin at system scope: the thread waits for a write from outside its
/// GPU (a peer's signal, or the host's).
bool systemWait(const MemOp &Op) {
  return (Op.What == OpKind::Load || Op.What == OpKind::RMW) && Op.Spins && isStrong(Op.Ord) && Op.S &&
         *Op.S == Scope::System;
}

/// An operation that orders the writes before it for others: a release
/// fence or access, or a call the front end does not show.
bool releases(const MemOp &Op) {
  if (Op.What == OpKind::Call)
    return Op.FenceCall || Op.Opaque;
  return (Op.What == OpKind::Fence || Op.isAccess()) && hasRelease(Op.Ord);
}

/// The same for the reads after it: an acquire fence or access, or a call
/// not shown.
bool acquires(const MemOp &Op) {
  if (Op.What == OpKind::Call)
    return Op.FenceCall || Op.Opaque;
  return (Op.What == OpKind::Fence || Op.isAccess()) && hasAcquire(Op.Ord);
}

class Peers {
public:
  explicit Peers(State &St) : St(St) {}

  void signals(std::vector<Finding> &Out) const;
  void waits(std::vector<Finding> &Out) const;

private:
  /// Some operation of the thread between \p From and \p To satisfies \p Pred.
  template <typename Fn> bool between(unsigned From, unsigned To, Fn Pred) const {
    ArrayRef<unsigned> Thread = St.threadOps(St.op(From).Thread);
    const unsigned Lo = St.op(From).Seq, Hi = St.op(To).Seq;
    auto First = upper_bound(Thread, Lo, [&](unsigned S, unsigned I) { return S < St.op(I).Seq; });
    for (auto I = First; I != Thread.end() && St.op(*I).Seq < Hi; ++I)
      if (St.before(From, *I) && St.before(*I, To) && Pred(St.op(*I)))
        return true;
    return false;
  }
  bool reported(const std::vector<Finding> &Out, Finding::Kind K, unsigned At) const {
    return any_of(Out, [&](const Finding &F) { return F.What == K && F.At == At; });
  }

  State &St;
};

void Peers::signals(std::vector<Finding> &Out) const {
  for (unsigned S = 0; S < St.Ops.size(); ++S) {
    const MemOp &Signal = St.op(S);
    if (Signal.RunBy != Runner::Kernel || !relaxedSignal(Signal) || reported(Out, Finding::NoRelease, S))
      continue;
    // An arrival: the thread waits for the peers after it.
    ArrayRef<unsigned> Thread = St.threadOps(Signal.Thread);
    if (none_of(Thread, [&](unsigned L) { return systemWait(St.op(L)) && St.before(S, L); }))
      continue;
    for (unsigned W : Thread) {
      const MemOp &Write = St.op(W);
      if (!Write.Peer || Write.Ord != Order::Plain || (Write.What != OpKind::Store && Write.What != OpKind::RMW) ||
          !St.before(W, S) || between(W, S, releases))
        continue;
      Finding Fd = finding(Finding::NoRelease, S, -1, Scope::System);
      Fd.Flag = S;
      Fd.Data = W;
      Fd.Peer = true;
      Out.push_back(Fd);
      break;
    }
  }
}

void Peers::waits(std::vector<Finding> &Out) const {
  for (unsigned L = 0; L < St.Ops.size(); ++L) {
    const MemOp &Wait = St.op(L);
    if (Wait.RunBy != Runner::Kernel || !systemWait(Wait) || hasAcquire(Wait.Ord) ||
        reported(Out, Finding::NoAcquire, L))
      continue;
    ArrayRef<unsigned> Thread = St.threadOps(Wait.Thread);
    // The wait is the loop: it acquires where any read of it does (the
    // inbox's acquire load, beside the abort flag's relaxed one).
    if (any_of(Thread, [&](unsigned X) {
          const MemOp &Op = St.op(X);
          return (Op.What == OpKind::Load || Op.What == OpKind::RMW) && hasAcquire(Op.Ord) && St.inCommonLoop(L, X);
        }))
      continue;
    // The wait answers the thread's last signal outside its GPU before it
    // (an arrival, then the wait: a barrier across GPUs). Where that signal
    // went into the peers' memory, it is their wait; where it went elsewhere
    // (a slot claimed in the host proxy's queue, then a wait for the
    // proxy's credit), the wait is for whoever that was.
    const MemOp *LastSignal = nullptr;
    for (unsigned S : Thread) {
      const MemOp &Op = St.op(S);
      if ((Op.What == OpKind::Store || Op.What == OpKind::RMW) && isStrong(Op.Ord) && Op.S &&
          *Op.S == Scope::System && Op.Seq < Wait.Seq && St.before(S, L) &&
          (!LastSignal || LastSignal->Seq < Op.Seq))
        LastSignal = &Op;
    }
    if (!LastSignal || !LastSignal->Peer)
      continue;
    // One wait is one loop: its first read stands for the others (the abort
    // flag a barrier's wait also polls).
    if (any_of(Thread, [&](unsigned X) {
          return X != L && systemWait(St.op(X)) && St.op(X).Seq < Wait.Seq && St.inCommonLoop(L, X);
        }))
      continue;
    for (unsigned R : Thread) {
      const MemOp &Read = St.op(R);
      if (!Read.Peer || Read.Ord != Order::Plain || !Read.isAccess() || !St.afterTest(L, R) ||
          between(L, R, acquires))
        continue;
      // What the thread wrote there itself, it reads back.
      if (any_of(Thread, [&](unsigned W) {
            const MemOp &Op = St.op(W);
            return Op.What != OpKind::Load && Op.Object >= 0 && Op.Object == Read.Object &&
                   Op.Element == Read.Element && St.before(W, R);
          }))
        continue;
      Finding Fd = finding(Finding::NoAcquire, L, -1, Scope::System);
      Fd.Flag = L;
      Fd.Data = R;
      Fd.Receiving = true;
      Fd.Peer = true;
      Fd.WriteWrite = Read.What != OpKind::Load;
      Out.push_back(Fd);
      break;
    }
  }
}

} // namespace

void peerRules(State &St, std::vector<Finding> &Out) {
  Peers P(St);
  P.signals(Out);
  P.waits(Out);
}

} // namespace engine
} // namespace cuda_scope
