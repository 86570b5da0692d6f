//===- EngineMessages.cpp - messages that no release/acquire pair orders ---===//
//
// A message: data written, then a flag published; the flag received (its
// value decides a branch), then the data read. PTX: a release pattern
// synchronizes with an acquire pattern when a write of the one is observed
// by a read of the other, and only then are the writes before the release
// visible to the reads after the acquire (ptx-memory-synchronization.md,
// item 4). Found per kernel (or across kernels) over memory every block
// reaches:
// - a flag is an object that some access treats as shared (atomic or
//   volatile), that is published (written) and received (read, the value
//   tested);
// - its data are the other objects the kernel both writes and reads with
//   plain or volatile accesses: what a kernel only reads is its input, and
//   neither it nor what it only writes before any receive (its output)
//   travels. An object only written, but written both before a publish and
//   after a receive (a critical section that only writes), is data too: two
//   writes of it that causality does not order race, and the value left need
//   not be the last holder's;
// - a publish after a data write, with no release pattern between them, or
//   a receive before a data read with no acquire pattern, is reported; so is
//   the fence of the right kind whose scope leaves out the other side.
// What orders them besides (base causality order is transitive): a barrier
// every side passes (__syncthreads() within a block, a grid sync across the
// grid), a release pattern on the flag that the relaxed publish follows, an
// acquire on another flag that carries the same data (a ticket lock's
// turn word). A thread that receives one flag and publishes another passes
// the first one's data on, and needs a release to do so (ISA2).
//
//===----------------------------------------------------------------------===//
#include "EngineFlags.h"
#include "llvm/ADT/MapVector.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

namespace {

class Messages {
public:
  Messages(State &St, MessageGroup &G) : St(St), G(G) {}

  void findResets(Flag &F);
  /// Every publish of \p F and every receive of it are separated, in program
  /// order, by a barrier wide enough for the flag.
  bool separated(const Flag &F) const {
    auto Apart = [&](unsigned P, unsigned R) {
      return P != R && any_of(G.Barriers, [&](unsigned B) {
               return orders(St.op(B), /*Release=*/true, F.Needed) &&
                      ((St.before(P, B) && St.before(B, R)) || (St.before(R, B) && St.before(B, P)));
             });
    };
    return !G.Barriers.empty() &&
           all_of(F.Publishes, [&](unsigned P) { return all_of(F.Receives, [&](unsigned R) { return Apart(P, R); }); });
  }
  void noteFences(const Flag &F, DenseMap<unsigned, bool> &MessageFences);
  void publishes(const Flag &F, std::vector<Finding> &Out);
  void receives(const Flag &F, std::vector<Finding> &Out);
  /// The receive \p Rc of \p F is reported for the read \p L: what it
  /// reads decides the read, nothing orders the read after it, and another
  /// thread wrote the data before a publish; \p Strict: covered by ordered
  /// receives only. \p FenceOut: the fence too narrow for it (-1: none).
  bool reportsReceive(const Flag &F, unsigned Rc, unsigned L, bool Strict, int *FenceOut = nullptr,
                      bool *OthersOut = nullptr) const;

private:
  /// A fence (or what acts as one) of the wanted kind whose scope includes
  /// \p Needed.
  bool orders(const MemOp &Op, bool Release, Scope Needed) const {
    switch (Op.What) {
    case OpKind::Fence:
      return Op.S && includes(*Op.S, Needed) && (Release ? hasRelease(Op.Ord) : hasAcquire(Op.Ord));
    case OpKind::Call:
      return Op.FenceCall;
    case OpKind::GridBarrier:
      return Op.S && includes(*Op.S, Needed);
    case OpKind::BlockBarrier:
      // __syncthreads() orders the block's threads for each other.
      return Op.Object < 0 && Needed == Scope::Block;
    default:
      return false;
    }
  }
  /// Something between \p From and \p To orders them for \p Needed; if not,
  /// \p Widest is the widest fence of the kind between them (-1: none).
  bool fenced(unsigned From, unsigned To, bool Release, Scope Needed, int &Widest) const {
    if (St.anySyncBetween(From, To, [&](unsigned I) { return orders(St.op(I), Release, Needed); }))
      return true;
    Widest = -1;
    St.anySyncBetween(From, To, [&](unsigned I) {
      const MemOp &Op = St.op(I);
      if (Op.What == OpKind::Fence && Op.S && (Release ? hasRelease(Op.Ord) : hasAcquire(Op.Ord)) &&
          (Widest < 0 || *St.op(Widest).S < *Op.S))
        Widest = I;
      return false;
    });
    return false;
  }
  bool fenced(unsigned From, unsigned To, bool Release, Scope Needed) const {
    int Widest;
    return fenced(From, To, Release, Needed, Widest);
  }
  /// A release pattern: a release write of the flag between \p D and \p P,
  /// which the strong write \p P follows.
  bool releasePattern(const Flag &F, unsigned D, unsigned P) const {
    return any_of(F.Publishes, [&](unsigned Q) {
      return hasRelease(St.op(Q).Ord) && St.before(D, Q) && St.before(Q, P);
    });
  }
  /// An acquire pattern: an acquire read of the flag after the strong read
  /// \p R and before \p L.
  bool acquirePattern(const Flag &F, unsigned R, unsigned L) const {
    return any_of(F.Reads, [&](unsigned A) {
      return hasAcquire(St.op(A).Ord) && St.before(R, A) && St.before(A, L);
    });
  }
  /// The flag \p Object is published with a release after a write of data
  /// \p Data: the data travels through it.
  bool carries(int Object, int Data) const;
  /// An acquire of another flag that carries \p L's data, between \p R and \p L.
  bool acquiredElsewhere(const Flag &F, unsigned R, unsigned L) const {
    return St.anyAcquireBetween(R, L, [&](unsigned A) {
      const MemOp &Op = St.op(A);
      return Op.Object >= 0 && Op.Object != F.Object && carries(Op.Object, St.op(L).Object);
    });
  }
  /// A barrier that \p D comes before and every receive of \p F after.
  bool barrierBeforeReceives(const Flag &F, unsigned D) const {
    return any_of(G.Barriers, [&](unsigned B) {
      return orders(St.op(B), true, F.Needed) && St.before(D, B) &&
             all_of(F.Receives, [&](unsigned R) { return St.before(B, R); });
    });
  }
  /// Every write of \p L's data is ordered before it by a barrier (in one
  /// iteration, or the last one's barrier for the next one's read), or
  /// never writes what \p L reads (addressesApart).
  bool barrierAfterWrites(const Flag &F, unsigned L) const {
    return all_of(G.StoresOf.find(St.op(L).Object)->second, [&](unsigned D) {
      return ownRegionBarrier(D, L) || St.addressesApart(D, L) || any_of(G.Barriers, [&](unsigned B) {
               return orders(St.op(B), false, F.Needed) && St.barrierBetween(D, B, L);
             });
    });
  }
  /// \p D and \p L touch one block's region of their object (BlockPart), so
  /// they are one block's accesses or touch different addresses, and a
  /// barrier of the block orders \p D before \p L, or no block runs both
  /// (blocksApart: each touches its own block's region, never the other's):
  /// data a block keeps to itself is not another block's message, whatever
  /// the flag's scope.
  bool ownRegionBarrier(unsigned D, unsigned L) const {
    const MemOp &Write = St.op(D), &Read = St.op(L);
    return Write.BlockPart >= 0 && Write.BlockPart == Read.BlockPart &&
           (St.blocksApart(D, L) || any_of(G.Barriers, [&](unsigned B) {
              return orders(St.op(B), false, Scope::Block) && St.barrierBetween(D, B, L);
            }));
  }
  /// Every read of \p D's data is so ordered in \p D's block's own region.
  bool keptInBlock(unsigned D) const {
    const int Data = St.op(D).Object;
    auto Uses = make_filter_range(G.DataUses, [&](unsigned L) { return St.op(L).Object == Data; });
    return !Uses.empty() && all_of(Uses, [&](unsigned L) { return ownRegionBarrier(D, L); });
  }
  /// The other side of a message: a receive of the flag for a publish, a
  /// publish (not a reset) for a receive.
  int otherThan(const Flag &F, ArrayRef<unsigned> List, unsigned Self) const {
    for (unsigned A : List)
      if (A != Self && !is_contained(F.Resets, A))
        return A;
    return -1;
  }
  /// The write \p P can let the receive \p R go on. A thread that spins
  /// leaves its loop only on a value its test accepts; a write of any other
  /// value is observed, if at all, by a thread that stays in the loop and
  /// reads none of what follows it. So a lock taken by a compare-and-swap
  /// that stores 1, where every waiter leaves on 0, hands nothing on: the
  /// write that stores 0 does (PTX: a release pattern synchronizes only with
  /// an acquire pattern that observes it, and only what follows that
  /// acquire in the observer's program order sees the data).
  bool mayPass(unsigned P, unsigned R) const {
    const MemOp &W = St.op(P), &Rd = St.op(R);
    // A wait that comes after its own thread's counting arrival on the word
    // it waits on (fetch_add(1), then spin to a goal the arrivals reach) reads
    // what that arrival left or a later value. Setting the word to 0, the
    // count's start, lets such a wait go on only where its goal is 0, a goal
    // that would be written as such (while (count != 0)); a goal that is not
    // a constant (the number of blocks the caller passes) is reached by
    // arrivals, not by a reset.
    if (W.Stored && *W.Stored == 0 && W.What == OpKind::Store && Rd.Spins && !Rd.PassWhen && arrivedBefore(R))
      return false;
    // P may be R's own instruction: another thread runs it and reads P's value.
    return !W.Stored || !Rd.PassWhen || Rd.PassWhen->holdsFor(*W.Stored);
  }
  /// Every thread that runs the read \p R has first made a counting arrival
  /// on the same word.
  bool arrivedBefore(unsigned R) const {
    const Flag *F = flagOf(St.op(R).Object);
    return F && any_of(F->Publishes, [&](unsigned A) {
             return St.op(A).What == OpKind::RMW && St.op(A).Counts && sameElement(A, R) && St.alwaysBefore(A, R);
           });
  }
  /// The write \p P can lead the thread that reads it at \p R to \p L: past
  /// the spin (mayPass), or into the spin's own loop, whose body runs on the
  /// values the loop does not leave on (while (flag != 0) { read data }). A
  /// loop around the spin (a benchmark's iterations) runs what follows the
  /// spin only once the spin is left.
  bool mayReach(unsigned P, unsigned R, unsigned L) const { return mayPass(P, R) || St.inSpinLoop(R, L); }
  /// Evidence of the receiving side: some receive of \p F is followed, after
  /// its test, by a read of \p Data that is not the reader's own write; with
  /// a publish \p P, a receive that \p P's value can let go on (mayPass).
  bool someoneReads(const Flag &F, int Data, int P = -1) const {
    // The partner reads its datum after the kernel, once its wait, an
    // acquire that ends the kernel, has seen the signal (EngineMirrors.cpp).
    if (St.ReadAfterKernel.count(Data) && St.PartnerDatum.count(F.Object) && mayCarry(F, Data) &&
        any_of(F.Receives, [&](unsigned R) { return P < 0 || mayPass(P, R); }))
      return true;
    // The wide net takes a read's word for it; an only-written object is
    // data only where both sides are shown (it is so defined).
    if (St.Opts.Net == Strictness::Wide &&
        none_of(G.OnlyWrites, [&](unsigned W) { return St.op(W).Object == Data; }))
      return true;
    auto ReadAfter = [&](unsigned R, int P) {
      return any_of(G.DataUses, [&](unsigned L) {
        return St.op(L).Object == Data && St.afterTest(R, L) && !readsOwnWrite(L) &&
               (P < 0 || mayReach(unsigned(P), R, L));
      });
    };
    if (P >= 0 && any_of(F.Receives, [&](unsigned R) { return !mayPass(P, R); }))
      return any_of(F.Receives, [&](unsigned R) { return ReadAfter(R, P); });
    auto [It, New] = Reads.try_emplace({F.Object, Data}, false);
    if (New)
      It->second = any_of(F.Receives, [&](unsigned R) { return ReadAfter(R, -1); });
    return It->second;
  }
  /// Evidence of the publishing side for the read \p L: some publish of \p F
  /// (not a reset) follows a write of its data; or comes before a write of it
  /// in a branch the reader does not take (a slot claimed, then filled: the
  /// reader can see the claim before the data).
  bool someoneWrote(const Flag &F, unsigned L, int R = -1) const {
    // For a write after the receive (an only-written object), the other
    // side's write is one made before publishing (a holder's before it hands
    // the lock on); a claim then a fill is a read's hazard, not a write's.
    const bool Write = St.op(L).What == OpKind::Store;
    if (St.Opts.Net == Strictness::Wide && !Write)
      return true;
    auto Stores = G.StoresOf.find(St.op(L).Object);
    return Stores != G.StoresOf.end() && any_of(F.Publishes, [&](unsigned P) {
             return !is_contained(F.Resets, P) && (R < 0 || mayReach(P, R, L)) &&
                    any_of(Stores->second, [&](unsigned D) {
                      return !ownElement(D, L) && !St.addressesApart(D, L) &&
                             (St.before(D, P) ||
                              (!Write && St.before(P, D) && !St.before(D, L) && !St.before(L, D)));
                    });
           });
  }
  /// A thread reading back the element it wrote itself reads its own write,
  /// which program order gives it: the same address computation, written on
  /// every path to the read.
  bool readsOwnWrite(unsigned L) const {
    const MemOp &Load = St.op(L);
    if (Load.What == OpKind::Store) // a write of an only-written object
      return writesOwnElement(L);
    return Load.Element >= 0 && any_of(G.StoresOf.find(Load.Object)->second, [&](unsigned D) {
             return ownElement(D, L);
           });
  }
  /// For an only-written object: no other thread writes what \p W writes
  /// (ownElement, for every write of the object).
  bool writesOwnElement(unsigned W) const {
    return all_of(G.StoresOf.find(St.op(W).Object)->second, [&](unsigned D) { return ownElement(D, W); });
  }
  /// \p D writes the element \p L reads for the same thread: the same address
  /// computation, and either the thread's own element (its index keeps every
  /// thread apart) or a write on every path to the read.
  bool ownElement(unsigned D, unsigned L) const {
    const MemOp &Store = St.op(D), &Load = St.op(L);
    // A write of an only-written object: the same element for the same
    // thread only; one write whose address keeps blocks apart meets itself
    // in no other block.
    if (Load.What == OpKind::Store)
      return (Store.Element >= 0 && Store.Element == Load.Element && Store.ThreadPrivate && Load.ThreadPrivate) ||
             (D == L && Store.PerBlock);
    return Load.Element >= 0 && Store.Element == Load.Element &&
           ((Store.ThreadPrivate && Load.ThreadPrivate) || St.alwaysBefore(D, L));
  }
  /// The data \p D writes reaches every reader of \p F through another
  /// flag: one published after \p D (before \p F's publish or after it: the
  /// reader does not learn of the data from \p F either way), and received before
  /// every receive of \p F that some read of the data follows. Once that
  /// flag's message is right (or reported), this one adds no hazard: the
  /// ring buffer's head, bumped after the ticket that hands the data over; a
  /// counter reset just before the release that publishes everything.
  bool publishCovered(const Flag &F, unsigned D) const {
    const int Data = St.op(D).Object;
    // A partner that reads its datum after the kernel has only its wait on
    // this flag before those reads: this GPU's other flags (a grid barrier's
    // count) never reach it.
    if (St.ReadAfterKernel.count(Data))
      return false;
    auto Loads = make_filter_range(G.DataUses,
                                   [&](unsigned L) { return St.op(L).Object == Data && L != D; });
    return any_of(G.Flags, [&](const Flag &X) {
      if (X.Object == F.Object || none_of(X.Publishes, [&](unsigned PX) {
            return !is_contained(X.Resets, PX) && St.before(D, PX);
          }))
        return false;
      return all_of(F.Receives, [&](unsigned R) {
        // The reader must receive the element published after the data; one
        // it receives after F must also be published after F's publishes of
        // the data (the last word), or two flags would excuse each other.
        // A flag received late covers only where F's receive is not of the
        // element F published after the data (then F is the message itself:
        // the ticket whose reader goes on to read other counters).
        auto After = [&](unsigned RX) {
          bool Late = St.before(R, RX);
          if (Late && any_of(F.Publishes, [&](unsigned P) {
                return !is_contained(F.Resets, P) && St.before(D, P) && sameElement(P, R);
              }))
            return false;
          return any_of(X.Publishes, [&](unsigned PX) {
            return !is_contained(X.Resets, PX) && St.before(D, PX) && sameElement(PX, RX) &&
                   (!Late || all_of(F.Publishes, [&](unsigned P) { return !St.before(D, P) || St.before(P, PX); }));
          });
        };
        return all_of(Loads, [&](unsigned L) { return !St.afterTest(R, L) || otherReceive(X, F, R, L, After) >= 0; });
      });
    });
  }
  /// \p A and \p B access the same element: the same address computation.
  bool sameElement(unsigned A, unsigned B) const {
    return St.op(A).Element >= 0 && St.op(A).Element == St.op(B).Element;
  }
  /// The read \p L after the receive \p R of \p F has its data through
  /// another flag: one whose receive \p L runs after, of the element
  /// published after each write of the data that a publish of \p F hands
  /// over (before or after that publish: the reader that received it has
  /// the data whatever \p F says; a slot claimed and then filled has the
  /// fill's). Received after \p R, it must be the last word (coversRead).
  /// The other flag may be another element of \p F's object, received
  /// before \p R (a field of the same structure, to a front end that does
  /// not tell fields apart).
  bool receiveCovered(const Flag &F, unsigned R, unsigned L, bool Strict = false) const {
    if (G.StoresOf.find(St.op(L).Object) == G.StoresOf.end())
      return false;
    // The covering receive must itself be ordered before the read (an
    // acquire, or a fence after it): two unordered receives would otherwise
    // excuse each other, and neither be reported (a barrier whose arrivals
    // and releases are relaxed flags read one after the other). Or it comes
    // first, is reported itself for this read on its own flag's evidence
    // (Strict: with no such cover of its own), and every publish of this
    // flag runs past its test too: the read's data reaches the reader through
    // that flag, this one is only passed between threads that have passed
    // the first (a quicksort's last warp, elected by its ticket, then takes a
    // ring-buffer slot before it reads what the ticket handed over), and the
    // acquire the first finding asks for orders the read. A flag published
    // before the first test (offsets each warp claimed) keeps its finding.
    return any_of(G.Flags, [&](const Flag &X) {
      return otherReceive(X, F, R, L, [&](unsigned RX) {
               return coversRead(X, F, RX, R, L) &&
                      (&X == &F || hasAcquire(St.op(RX).Ord) || fenced(RX, L, /*Release=*/false, X.Needed) ||
                       acquirePattern(X, RX, L) || (!Strict && passedOnlyAfter(F, RX, R) && reportsReceive(X, RX, L, true)));
             }) >= 0;
    });
  }
  /// \p RX comes before the receive \p R, and every publish of \p F runs
  /// past \p RX's test.
  bool passedOnlyAfter(const Flag &F, unsigned RX, unsigned R) const {
    return St.before(RX, R) && !St.before(R, RX) &&
           all_of(F.Publishes, [&](unsigned P) { return P != RX && St.afterTest(RX, P); });
  }
  /// receiveCovered for one receive \p RX of \p X: every write of \p L's
  /// data that \p F hands over is followed by a publish of the element
  /// \p RX reads; after \p F's publish too when \p RX is received late
  /// (after \p F's receive \p R), and only where \p R is not of the element
  /// that publish wrote.
  bool coversRead(const Flag &X, const Flag &F, unsigned RX, unsigned R, unsigned L) const {
    const SmallVector<unsigned, 4> &Stores = G.StoresOf.find(St.op(L).Object)->second;
    const bool Late = St.before(R, RX);
    // The element RX reads: of F itself, the same address computation; of
    // another flag, one shown to be the same (sameElement).
    auto Covering = [&](unsigned Q) {
      return &X == &F ? St.op(Q).Element == St.op(RX).Element : sameElement(Q, RX);
    };
    bool Related = false;
    for (unsigned P : F.Publishes) {
      if (is_contained(F.Resets, P))
        continue;
      for (unsigned S : Stores) {
        // As someoneWrote pairs them.
        bool Before = St.before(S, P);
        if (!Before && !(St.before(P, S) && !St.before(S, L) && !St.before(L, S)))
          continue;
        Related = true;
        if (&X == &F && Covering(P))
          continue; // the earlier element's own message
        if (Late && sameElement(P, R))
          return false; // F's own message: the reader received what P published
        if (none_of(X.Publishes, [&](unsigned PX) {
              return Covering(PX) && !is_contained(X.Resets, PX) && St.before(S, PX) && (!Late || St.before(P, PX));
            }))
          return false;
      }
    }
    return Related;
  }
  /// A receive of \p X other than the receive \p R of \p F whose outcome
  /// \p L runs on, and for which \p Ok holds; -1 for none. Another flag's
  /// may come before \p R or after it (the reader has the data through it
  /// either way); one of \p F itself must come before and be of another
  /// location (two fields of one shared structure).
  int otherReceive(const Flag &X, const Flag &F, unsigned R, unsigned L, function_ref<bool(unsigned)> Ok) const {
    for (unsigned RX : X.Receives)
      if (RX != R && St.afterTest(RX, L) && !pollsBefore(RX, L) &&
          (&X != &F ? St.before(RX, R) || St.before(R, RX)
                    : St.before(RX, R) && St.op(RX).FixedAddress && St.op(R).FixedAddress &&
                          St.op(RX).Element != St.op(R).Element) &&
          Ok(RX))
        return RX;
    return -1;
  }
  /// \p RX polls one word (a spin whose address is the same on every pass)
  /// and \p L runs in the poll's loop, on the values with which the loop goes
  /// on: the values the word holds before the write the poll waits for, which
  /// carry nothing of what that write publishes (a count checked against the
  /// capacity on each pass of an insert's retry loop). Unless the loop goes on
  /// on one value only (it is left on != C: what it runs on is C).
  bool pollsBefore(unsigned RX, unsigned L) const {
    const MemOp &Poll = St.op(RX);
    return Poll.Spins && Poll.FixedAddress && St.inSpinLoop(RX, L) &&
           !(Poll.PassWhen && Poll.PassWhen->Op == Comparison::NE);
  }
  /// \p Data may travel with \p F: a message to the kernel's partner
  /// instance carries the datum the partner sends, not this GPU's own memory.
  bool mayCarry(const Flag &F, int Data) const {
    auto It = St.PartnerDatum.find(F.Object);
    return It == St.PartnerDatum.end() || It->second == Data;
  }
  const Flag *flagOf(int Object) const {
    for (const Flag &F : G.Flags)
      if (F.Object == Object)
        return &F;
    return nullptr;
  }

  State &St;
  MessageGroup &G;
  mutable DenseMap<std::pair<int, int>, bool> Carries, Reads;
};

bool Messages::carries(int Object, int Data) const {
  auto Key = std::make_pair(Object, Data);
  auto It = Carries.find(Key);
  if (It != Carries.end())
    return It->second;
  bool Result = false;
  auto Stores = G.StoresOf.find(Data);
  if (const Flag *Z = flagOf(Object); Z && Stores != G.StoresOf.end())
    Result = any_of(Z->Publishes, [&](unsigned P) {
      return any_of(Stores->second, [&](unsigned D) {
        return St.before(D, P) && (hasRelease(St.op(P).Ord) || fenced(D, P, /*Release=*/true, Z->Needed));
      });
    });
  Carries[Key] = Result;
  return Result;
}

void Messages::findResets(Flag &F) {
  // A store after this thread has received the flag, with no data written in
  // between, hands nothing over: it resets the flag (the ticket set back to 0
  // for the next launch). With data written in between it hands the flag on
  // (a lock released after its section), unless the flag only counts: when
  // every receive is a counting update (the tickets drawn), the thread that
  // stores after drawing one stores what no draw of this grid reads.
  const bool Counter = all_of(F.Receives, [&](unsigned R) { return St.op(R).Counts; });
  for (unsigned P : F.Publishes) {
    if (Counter && St.op(P).What == OpKind::Store &&
        any_of(F.Receives, [&](unsigned Rc) { return St.afterTest(Rc, P); })) {
      F.Resets.push_back(P);
      continue;
    }
    // Per path: the data written since the last receive on some way to the
    // store is handed on. A write after a receive counts unless a later
    // receive that every way to the store passes comes after it; so a store
    // that two branches share (a lock released once after either of two
    // critical sections, as -O2 merges them) hands on what either branch wrote.
    auto Receiving = [&](unsigned Rc) { return Rc != P && St.afterTest(Rc, P); };
    if (none_of(F.Receives, Receiving))
      continue;
    // An only-written object's write is handed on where a read-modify-write
    // took the flag (a lock claimed by a CAS or an exchange): a flag read
    // and then set back after the output is written resets it.
    // Data written before the receive is handed on too where no publish of
    // the flag that a receive can hear comes between (a slot written, then a
    // lock taken by a swap that stores what no waiter leaves on, then handed
    // on): the store is the first write after it that carries it.
    auto Heard = [&](unsigned Q) {
      return Q != P && any_of(F.Receives, [&](unsigned R) { return mayPass(Q, R); });
    };
    bool HandsOn = any_of(G.DataStores, [&](unsigned D) {
      bool OnlyWritten = is_contained(G.OnlyWrites, D);
      // Data the section's other threads write, on paths of their own, is handed on too.
      if (St.op(D).Object == F.Object || !(St.before(D, P) || St.besideBefore(D, P)))
        return false;
      if (!OnlyWritten && any_of(F.Receives, [&](unsigned Rc) { return Receiving(Rc) && St.before(D, Rc); }) &&
          none_of(F.Publishes, [&](unsigned Q) { return Heard(Q) && St.before(D, Q) && St.before(Q, P); }))
        return true;
      return any_of(F.Receives,
                    [&](unsigned Rc) {
                      return Receiving(Rc) && St.before(Rc, D) && (!OnlyWritten || St.op(Rc).What == OpKind::RMW);
                    }) &&
             none_of(F.Receives, [&](unsigned Rc) { return Receiving(Rc) && St.before(D, Rc) && St.alwaysBefore(Rc, P); });
    });
    if (!HandsOn)
      F.Resets.push_back(P);
  }
}

void Messages::noteFences(const Flag &F, DenseMap<unsigned, bool> &MessageFences) {
  // The fences between the data and the flag of a message, ordered or not:
  // the fence rule leaves them to this one.
  for (unsigned Fence : G.Fences) {
    // An only-written object is data of this flag only where the other side
    // writes it too (as the rules pair them).
    auto AnyData = [&](ArrayRef<unsigned> List, bool Before) {
      return any_of(List, [&](unsigned A) {
        if (St.op(A).Object == F.Object || !(Before ? St.before(A, Fence) : St.before(Fence, A)))
          return false;
        if (!is_contained(G.OnlyWrites, A))
          return true;
        return Before ? someoneReads(F, St.op(A).Object) : someoneWrote(F, A);
      });
    };
    auto AnySide = [&](ArrayRef<unsigned> List, bool Before) {
      return any_of(List, [&](unsigned A) { return Before ? St.before(A, Fence) : St.before(Fence, A); });
    };
    if ((AnyData(G.DataStores, true) && AnySide(F.Publishes, false)) ||
        (AnySide(F.Receives, true) && (AnyData(G.DataLoads, false) || AnyData(G.OnlyWrites, false))))
      MessageFences[Fence] = true;
  }
}

void Messages::publishes(const Flag &F, std::vector<Finding> &Out) {
  for (unsigned P : F.Publishes) {
    if (is_contained(F.Resets, P))
      continue;
    // A release of narrow scope is the scope rules' finding: the order is
    // there, for the data its own thread wrote.
    const bool Releases = hasRelease(St.op(P).Ord);
    bool Reported = false;
    for (unsigned D : G.DataStores) {
      // Data other threads write on paths of their own (Beside): no release of the publisher's
      // covers it, and only a barrier could.
      const bool Beside = !St.before(D, P) && St.besideBefore(D, P);
      if (St.op(D).Object == F.Object || !(Beside || St.before(D, P)) || !mayCarry(F, St.op(D).Object))
        continue;
      int Fence = -1;
      const bool Ordered =
          !Beside && (Releases || fenced(D, P, /*Release=*/true, F.Needed, Fence) || releasePattern(F, D, P));
      const bool Others = (Ordered || Beside) && St.byOthers(D, P);
      if ((Beside && !Others) || (Ordered && !Others) || barrierBeforeReceives(F, D) || keptInBlock(D) ||
          !someoneReads(F, St.op(D).Object, P) || (St.Opts.Net == Strictness::Evidence && publishCovered(F, D)))
        continue;
      Fence = Others ? -1 : Fence;
      Finding Fd = finding(Fence >= 0 ? Finding::NarrowFence : Finding::NoRelease, Fence >= 0 ? unsigned(Fence) : P,
                           otherThan(F, F.Receives, P), F.Needed, F.Needed == Scope::System);
      Fd.Flag = P;
      Fd.Data = D;
      Fd.Fence = Fence;
      Fd.WriteWrite = is_contained(G.OnlyWrites, D);
      Fd.ByOthers = Others;
      Out.push_back(Fd);
      Reported = true;
      break;
    }
    if (Reported || Releases)
      continue;
    // A relay: this thread received another flag, which carries data some
    // receiver of this one reads; publishing this one passes the data on.
    for (const Flag &X : G.Flags) {
      if (X.Object == F.Object)
        continue;
      for (unsigned RX : X.Receives) {
        if (!St.before(RX, P) || fenced(RX, P, /*Release=*/true, F.Needed) || releasePattern(F, RX, P))
          continue;
        for (unsigned L : G.DataLoads) {
          const int Data = St.op(L).Object;
          if (Data == F.Object || Data == X.Object || !mayCarry(F, Data) || !mayCarry(X, Data) ||
              !carries(X.Object, Data) ||
              none_of(F.Receives, [&](unsigned R) { return mayReach(P, R, L) && St.afterTest(R, L); }))
            continue;
          const SmallVector<unsigned, 4> &Stores = G.StoresOf.find(Data)->second;
          auto D = find_if(Stores, [&](unsigned S) {
            return any_of(X.Publishes, [&](unsigned PX) { return St.before(S, PX); });
          });
          Finding Fd = finding(Finding::NoRelease, P, otherThan(F, F.Receives, P), F.Needed, F.Needed == Scope::System);
          Fd.Flag = P;
          Fd.Data = *D;
          Fd.Via = RX;
          Out.push_back(Fd);
          Reported = true;
          break;
        }
        if (Reported)
          break;
      }
      if (Reported)
        break;
    }
  }
}

bool Messages::reportsReceive(const Flag &F, unsigned Rc, unsigned L, bool Strict, int *FenceOut,
                              bool *OthersOut) const {
  const MemOp &Load = St.op(L);
  // Data other threads read on paths of their own (Beside), after the receive in the code.
  const bool Beside = !St.afterTest(Rc, L) && St.besideBefore(Rc, L);
  if (Load.Object == F.Object || !(Beside || St.afterTest(Rc, L)) || readsOwnWrite(L) || !mayCarry(F, Load.Object))
    return false;
  int Fence = -1;
  const bool Ordered = !Beside && (hasAcquire(St.op(Rc).Ord) || fenced(Rc, L, /*Release=*/false, F.Needed, Fence) ||
                                   acquirePattern(F, Rc, L) || acquiredElsewhere(F, Rc, L));
  const bool Others = (Ordered || Beside) && St.byOthers(L, Rc);
  if ((Beside && !Others) || (Ordered && !Others) || barrierAfterWrites(F, L) || !someoneWrote(F, L, Rc) ||
      (St.Opts.Net == Strictness::Evidence && receiveCovered(F, Rc, L, Strict)))
    return false;
  if (FenceOut)
    *FenceOut = Others ? -1 : Fence;
  if (OthersOut)
    *OthersOut = Others;
  return true;
}

void Messages::receives(const Flag &F, std::vector<Finding> &Out) {
  for (unsigned Rc : F.Receives) {
    for (unsigned L : G.DataUses) {
      const MemOp &Load = St.op(L);
      int Fence = -1;
      bool Others = false;
      if (!reportsReceive(F, Rc, L, /*Strict=*/false, &Fence, &Others))
        continue;
      Finding Fd = finding(Fence >= 0 ? Finding::NarrowFence : Finding::NoAcquire, Fence >= 0 ? unsigned(Fence) : Rc,
                           otherThan(F, F.Publishes, Rc), F.Needed, F.Needed == Scope::System);
      Fd.Flag = Rc;
      Fd.Data = L;
      Fd.Fence = Fence;
      Fd.Receiving = true;
      Fd.ByOthers = Others;
      Fd.WriteWrite = Load.What == OpKind::Store;
      Out.push_back(Fd);
      break;
    }
  }
}

} // namespace

void messageRules(State &St, std::vector<Finding> &Out, DenseMap<unsigned, bool> &MessageFences) {
  const bool Across = St.Opts.AcrossKernels;
  // Accesses to grid memory, per kernel (or all together) and object.
  std::vector<MessageGroup> Groups = messageGroups(St);

  for (MessageGroup &G : Groups) {
    Messages M(St, G);
    // A flag synchronizes only where a publish and a receive may run at
    // once: when barriers every thread passes separate each publish from
    // each receive (a grid sync between phases), the barriers order the data
    // and the flag is one more datum.
    if (St.Opts.Net == Strictness::Evidence)
      G.Flags.erase(std::remove_if(G.Flags.begin(), G.Flags.end(), [&](const Flag &F) { return M.separated(F); }),
                    G.Flags.end());
    for (Flag &F : G.Flags) {
      M.findResets(F);
      if (!Across)
        M.noteFences(F, MessageFences);
    }
    for (const Flag &F : G.Flags) {
      M.publishes(F, Out);
      M.receives(F, Out);
    }
  }
}

} // namespace engine
} // namespace cuda_scope
