//===- EngineMirrors.cpp - one message under two names: a kernel's partner ===//
//
// A collective runs one kernel on every GPU (or on two grids), each instance
// given the same buffers crosswise: what this instance writes as `mine` and
// signals through `arrivalMine`, its partner reads as `other` after waiting on
// `arrivalOther`. The file shows both sides of that message in one kernel,
// under two names. The model's evidence that the partner exists and runs the
// same code:
// - the kernel spins, with an atomic or volatile read, on a word that nothing
//   in it writes: the writer runs while the kernel runs, outside it (the
//   Group::OutsideKernel fact). A plain read in a loop is no wait on another
//   thread (that would be a data race): a probe of a hash table it was
//   given, say. It still counts as a loop on such a word: a kernel with two
//   does not say which one its partner signals;
// - it publishes, with an atomic or volatile write, a word nothing in it
//   reads: that word's reader runs outside it too;
// - it writes objects before that publish that nothing in it reads, and after
//   that wait reads objects that nothing in it writes and that it did not
//   read before the wait;
// - they make an exchange: a write sent, then a publish, then (or in one
//   loop with it) a wait, then a read received. A handshake of execution
//   first (a relaxed signal and wait before the kernel reads its own input)
//   shows no partner's write that a read after a wait may get. Or the wait
//   ends the kernel and acquires: what it orders is read by the stream's
//   later work, and the partner's writes before its signal are the ones it
//   is for. A relaxed wait at the end is a barrier of execution only.
// Then, where the kernel has exactly one such outgoing word and one such
// incoming word, the two words are one flag and the objects sent and
// received (or, where the exchange ends the kernel, those sent, which the
// partner reads after it: ReadAfterKernel) are one datum, as they are in memory once the host has mapped
// them: the message rules see a publish and a receive of one flag. The
// partner's thread of the same index writes what this thread reads, so
// elements that one grid's threads own (a grid-stride index, a block's own
// slot) are no one's own across the two: the rules get them unowned, and the
// partner is outside every block of this grid (device scope at least), even
// where one block of each runs the exchange (if (tid == 0) with tid the
// grid-wide index).
// Nothing else the kernel touches is the partner's: its own __device__
// variables (a grid barrier's counters) and what it neither sends nor
// receives are this GPU's, so the flag carries the partner's datum only.
//
//===----------------------------------------------------------------------===//
#include "EngineImpl.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

Mirror mirrorPartners(const State &St) {
  Mirror M;
  std::vector<MemOp> &Out = M.Ops;
  MapVector<int, SmallVector<unsigned, 16>> ByContext;
  for (unsigned I = 0; I < St.Ops.size(); ++I) {
    const MemOp &Op = St.op(I);
    if (Op.RunBy == Runner::Kernel && Op.isAccess() && Op.Object >= 0 && gridMemory(Op.Home))
      ByContext[Op.Context].push_back(I);
  }
  for (auto &[Context, List] : ByContext) {
    (void)Context;
    DenseSet<int> Written, Read;
    for (unsigned I : List) {
      const MemOp &Op = St.op(I);
      if (Op.writes())
        Written.insert(Op.Object);
      if (Op.What == OpKind::Load || (Op.What == OpKind::RMW && !Op.ValueUnused))
        Read.insert(Op.Object);
    }
    SetVector<int> Outgoing, Incoming;
    for (unsigned I : List) {
      const MemOp &Op = St.op(I);
      if (Op.writes() && Op.Ord != Order::Plain && !Read.count(Op.Object))
        Outgoing.insert(Op.Object);
      if (Op.Spins && Op.reads() && !Written.count(Op.Object))
        Incoming.insert(Op.Object);
    }
    if (Outgoing.size() != 1 || Incoming.size() != 1)
      continue;
    const int Send = Outgoing.front(), Wait = Incoming.front();
    // The wait reads its word atomically or volatile: a plain read in a loop
    // (a probe of a table the kernel was given) waits on no one.
    if (none_of(List, [&](unsigned I) {
          return St.op(I).Object == Wait && St.op(I).Spins && St.op(I).Ord != Order::Plain;
        }))
      continue;
    SmallVector<unsigned, 4> Publishes, Receives;
    for (unsigned I : List) {
      if (St.op(I).Object == Send && St.op(I).writes())
        Publishes.push_back(I);
      if (St.op(I).Object == Wait && St.op(I).Spins)
        Receives.push_back(I);
    }
    // What is sent: written before a publish and never read here. What is
    // received: read only after a receive and never written here.
    MapVector<int, SmallVector<unsigned, 4>> Accesses;
    for (unsigned I : List)
      if (St.op(I).Object != Send && St.op(I).Object != Wait)
        Accesses[St.op(I).Object].push_back(I);
    SetVector<int> Sent, Received;
    SmallVector<unsigned, 8> SentWrites, ReceivedReads;
    for (auto &[Object, Ops] : Accesses) {
      if (!Read.count(Object) && any_of(Ops, [&](unsigned D) {
            return St.op(D).What == OpKind::Store && any_of(Publishes, [&](unsigned P) { return St.before(D, P); });
          })) {
        Sent.insert(Object);
        SentWrites.append(Ops.begin(), Ops.end());
      } else if (!Written.count(Object) && all_of(Ops, [&](unsigned L) {
                   return any_of(Receives, [&](unsigned R) { return St.before(R, L); });
                 })) {
        Received.insert(Object);
        ReceivedReads.append(Ops.begin(), Ops.end());
      }
    }
    // An exchange: a write sent before a publish, that publish before a
    // wait (or in one loop with it), and a read after that wait. The
    // partner's write before its signal is then what this read may get; a
    // handshake of execution before the kernel reads its own input shows no
    // write that a read after a wait receives.
    auto Sends = [&](unsigned P, unsigned R) {
      return (St.before(P, R) || St.inCommonLoop(P, R)) &&
             any_of(SentWrites, [&](unsigned D) { return St.before(D, P); });
    };
    auto Exchange = [&](unsigned P, unsigned R) {
      return Sends(P, R) && any_of(ReceivedReads, [&](unsigned L) { return St.before(R, L); });
    };
    // Or an exchange that ends the kernel: the wait acquires (or an acquire
    // fence follows it) and no access of the kernel comes after it. What
    // the acquire orders is then read after the kernel, by the stream's
    // later work: the partner's writes before its signal, which are this
    // instance's writes before its own. A wait that orders nothing (relaxed,
    // and no fence) is a barrier of execution: it shows no datum received.
    auto EndsKernel = [&](unsigned R) {
      bool Acquires = hasAcquire(St.op(R).Ord) || any_of(St.threadOps(St.op(R).Thread), [&](unsigned X) {
                        return St.op(X).What == OpKind::Fence && hasAcquire(St.op(X).Ord) && St.before(R, X);
                      });
      return Acquires && none_of(List, [&](unsigned X) {
               return St.op(X).Object != Send && St.op(X).Object != Wait && St.before(R, X);
             });
    };
    bool ReadInKernel =
        any_of(Publishes, [&](unsigned P) { return any_of(Receives, [&](unsigned R) { return Exchange(P, R); }); });
    if (!ReadInKernel && none_of(Publishes, [&](unsigned P) {
          return any_of(Receives, [&](unsigned R) { return Sends(P, R) && EndsKernel(R); });
        }))
      continue;
    SetVector<int> Data = Sent;
    if (ReadInKernel)
      Data.insert(Received.begin(), Received.end());
    if (Out.empty())
      Out.assign(St.Ops.begin(), St.Ops.end());
    // In this instance's memory, what it receives and what it sends are
    // different locations: the elements it receives at get ids of their own,
    // so that no read of `other` is taken for the thread's own earlier write
    // of `mine`.
    int Elements = 0;
    for (const MemOp &Op : St.Ops)
      Elements = std::max(Elements, Op.Element + 1);
    const int DataObject = Data.front();
    M.PartnerDatum[Send] = DataObject;
    if (!ReadInKernel)
      M.ReadAfterKernel.insert(DataObject);
    for (unsigned I : List) {
      MemOp &Op = Out[I];
      const bool Incoming = Op.Object == Wait || (Data.count(Op.Object) && !Written.count(Op.Object));
      if (Op.Object == Wait)
        Op.Object = Send;
      else if (Data.count(Op.Object))
        Op.Object = DataObject;
      else
        continue;
      if (Incoming && Op.Element >= 0)
        Op.Element += Elements;
      // No one's own across the two instances, and run in no one block:
      // the partner's block 0 is not this grid's.
      Op.ThreadPrivate = false;
      Op.PerBlock = false;
      Op.Segment = -1;
      Op.WarpSegment = false;
      Op.OnlyBlock = -1;
      Op.ElectedBy = -1;
    }
  }
  return M;
}

} // namespace engine
} // namespace cuda_scope
