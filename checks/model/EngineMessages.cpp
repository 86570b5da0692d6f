//===- EngineMessages.cpp - messages that no release/acquire pair orders ---===//
//
// A message: data written, then a flag published; the flag received (its
// value decides a branch), then the data read. PTX: a release pattern
// synchronizes with an acquire pattern when a write of the one is observed
// by a read of the other, and only then are the writes before the release
// visible to the reads after the acquire. Found per kernel (or across
// kernels) over the operations on memory every block reaches:
// - a flag is an object that some access treats as shared (atomic or
//   volatile), that is published (written) and received (read, the value
//   tested);
// - its data are the other objects written and read with plain accesses:
//   what a kernel only reads is its input, what it only writes its output;
// - a publish after a data write with no release between them (a release
//   publish, or a release fence wide enough between), or a receive before a
//   data read with no acquire, is reported; so is a fence of the right kind
//   whose scope leaves out the other side.
//
//===----------------------------------------------------------------------===//
#include "EngineImpl.h"
#include "llvm/ADT/MapVector.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

namespace {

bool isPlainData(const MemOp &Op) { return Op.isAccess() && Op.Ord == Order::Plain; }

struct Flag {
  int Object = -1;
  SmallVector<unsigned, 4> Publishes, Receives;
  /// Publishes that only reset the flag after receiving it.
  SmallVector<unsigned, 2> Resets;
  Scope Needed = Scope::Device;
};

/// The messages of one kernel (or, across kernels, of the unit).
struct MessageGroup {
  std::vector<Flag> Flags;
  /// Plain writes and reads of data objects.
  SmallVector<unsigned, 8> DataStores, DataLoads;
  SmallVector<unsigned, 8> Fences;
};

} // namespace

void messageRules(State &St, std::vector<Finding> &Out, DenseMap<unsigned, bool> &MessageFences) {
  const bool Across = St.Opts.AcrossKernels;
  // Accesses to grid memory, per kernel (or all together) and object.
  MapVector<int, MapVector<int, SmallVector<unsigned, 8>>> ByContext;
  for (unsigned I = 0; I < St.Ops.size(); ++I) {
    const MemOp &Op = St.op(I);
    if (Op.RunBy != Runner::Host && Op.isAccess() && Op.Object >= 0 && gridMemory(Op.Home))
      ByContext[Across ? -1 : Op.Context][Op.Object].push_back(I);
  }
  std::vector<MessageGroup> Groups;
  DenseMap<int, unsigned> GroupOf;
  for (auto &[Context, Objects] : ByContext) {
    MessageGroup G;
    for (auto &Entry : Objects) {
      const int Object = Entry.first;
      const SmallVector<unsigned, 8> &List = Entry.second;
      bool Written = any_of(List, [&](unsigned I) { return isPlainData(St.op(I)) && St.op(I).What == OpKind::Store; });
      bool Read = any_of(List, [&](unsigned I) { return isPlainData(St.op(I)) && St.op(I).What == OpKind::Load; });
      if (Written && Read)
        for (unsigned I : List)
          if (isPlainData(St.op(I)))
            (St.op(I).What == OpKind::Store ? G.DataStores : G.DataLoads).push_back(I);
      // A flag: published, received, and shared on purpose by some access.
      if (none_of(List, [&](unsigned I) { return St.op(I).Ord != Order::Plain; }))
        continue;
      Flag F;
      F.Object = Object;
      for (unsigned I : List) {
        if (St.op(I).writes())
          F.Publishes.push_back(I);
        if (St.op(I).reads() && St.op(I).Tested)
          F.Receives.push_back(I);
      }
      if (F.Publishes.empty() || F.Receives.empty())
        continue;
      // Who may be on the other side: the block only, when every access uses
      // one block-indexed element or one block of one grid runs them all;
      // host threads too, when they access the flag.
      const MemOp &First = St.op(List.front());
      bool PerBlock = all_of(List, [&](unsigned I) {
        return St.op(I).PerBlock && St.op(I).Element >= 0 && St.op(I).Element == First.Element;
      });
      bool OneBlock = all_of(List, [&](unsigned I) {
        const MemOp &Op = St.op(I);
        return Op.RunBy == Runner::Kernel && Op.Context == First.Context && Op.OnlyBlock >= 0 &&
               Op.OnlyBlock == First.OnlyBlock;
      });
      F.Needed = St.accessedByHost(Object) ? Scope::System : PerBlock || OneBlock ? Scope::Block : Scope::Device;
      G.Flags.push_back(std::move(F));
    }
    (void)Context;
    if (G.Flags.empty())
      continue;
    GroupOf[Context] = Groups.size();
    Groups.push_back(std::move(G));
  }
  for (unsigned I = 0; I < St.Ops.size(); ++I) {
    const MemOp &Op = St.op(I);
    if ((Op.What == OpKind::Fence || Op.What == OpKind::Call) && Op.RunBy != Runner::Host) {
      auto It = GroupOf.find(Across ? -1 : Op.Context);
      if (It != GroupOf.end() && Op.What == OpKind::Fence)
        Groups[It->second].Fences.push_back(I);
    }
  }

  for (MessageGroup &G : Groups)
    for (Flag &F : G.Flags) {
      // A store after this thread has received the flag, with no data
      // written in between, hands nothing over: it resets the flag (the
      // ticket set back to 0 for the next launch). With data written in
      // between it hands the flag on (a lock released after its section).
      for (unsigned P : F.Publishes) {
        int Latest = -1;
        for (unsigned Rc : F.Receives)
          if (Rc != P && St.afterTest(Rc, P) && (Latest < 0 || St.op(Latest).Seq < St.op(Rc).Seq))
            Latest = Rc;
        if (Latest >= 0 && none_of(G.DataStores, [&](unsigned D) {
              return St.op(D).Object != F.Object && St.before(Latest, D) && St.before(D, P);
            }))
          F.Resets.push_back(P);
      }
      // The fences between the data and the flag of a message, ordered or
      // not: the fence rule leaves them to this one.
      if (Across)
        continue;
      for (unsigned Fence : G.Fences) {
        auto AnyData = [&](ArrayRef<unsigned> List, bool Before) {
          return any_of(List, [&](unsigned A) {
            return St.op(A).Object != F.Object && (Before ? St.before(A, Fence) : St.before(Fence, A));
          });
        };
        auto AnySide = [&](ArrayRef<unsigned> List, bool Before) {
          return any_of(List, [&](unsigned A) { return Before ? St.before(A, Fence) : St.before(Fence, A); });
        };
        if ((AnyData(G.DataStores, true) && AnySide(F.Publishes, false)) ||
            (AnySide(F.Receives, true) && AnyData(G.DataLoads, false)))
          MessageFences[Fence] = true;
      }
    }

  for (MessageGroup &G : Groups) {
    // Whether the order is there: a fence of the wanted kind and a scope that
    // includes the other side, or a call the user names a fence, between the
    // two operations. Otherwise the widest fence of the kind between them, if
    // any (-1: none).
    auto Ordered = [&](unsigned From, unsigned To, bool Release, Scope Needed, int &Widest) {
      auto Kind = [&](const MemOp &Op) {
        return Op.What == OpKind::Fence && Op.S && (Release ? hasRelease(Op.Ord) : hasAcquire(Op.Ord));
      };
      if (St.anySyncBetween(From, To, [&](unsigned I) {
            const MemOp &Op = St.op(I);
            return (Kind(Op) && includes(*Op.S, Needed)) || (Op.What == OpKind::Call && Op.FenceCall);
          }))
        return true;
      Widest = -1;
      St.anySyncBetween(From, To, [&](unsigned I) {
        const MemOp &Op = St.op(I);
        if (Kind(Op) && (Widest < 0 || *St.op(Widest).S < *Op.S))
          Widest = I;
        return false;
      });
      return false;
    };
    for (const Flag &F : G.Flags) {
      auto OtherThan = [&](ArrayRef<unsigned> List, unsigned Self) -> int {
        for (unsigned A : List)
          if (A != Self && !is_contained(F.Resets, A))
            return A;
        return -1;
      };
      for (unsigned P : F.Publishes) {
        // A release of narrow scope is the scope rules' finding: the order is there.
        if (hasRelease(St.op(P).Ord) || is_contained(F.Resets, P))
          continue;
        for (unsigned D : G.DataStores) {
          if (St.op(D).Object == F.Object || !St.before(D, P))
            continue;
          int Fence = -1;
          if (Ordered(D, P, /*Release=*/true, F.Needed, Fence))
            continue;
          Out.push_back({Fence >= 0 ? Finding::NarrowFence : Finding::NoRelease, Fence >= 0 ? unsigned(Fence) : P,
                         OtherThan(F.Receives, P), static_cast<int>(P), static_cast<int>(D), Fence, F.Needed,
                         F.Needed == Scope::System});
          break;
        }
      }
      for (unsigned Rc : F.Receives) {
        if (hasAcquire(St.op(Rc).Ord))
          continue;
        for (unsigned L : G.DataLoads) {
          const MemOp &Load = St.op(L);
          if (Load.Object == F.Object || !St.afterTest(Rc, L))
            continue;
          // A thread reading back the element it wrote itself reads its own
          // write, which program order gives it.
          if (Load.Element >= 0 && any_of(G.DataStores, [&](unsigned D) {
                return St.op(D).Object == Load.Object && St.op(D).Element == Load.Element && St.before(D, L);
              }))
            continue;
          int Fence = -1;
          if (Ordered(Rc, L, /*Release=*/false, F.Needed, Fence))
            continue;
          Out.push_back({Fence >= 0 ? Finding::NarrowFence : Finding::NoAcquire, Fence >= 0 ? unsigned(Fence) : Rc,
                         OtherThan(F.Publishes, Rc), static_cast<int>(Rc), static_cast<int>(L), Fence, F.Needed,
                         F.Needed == Scope::System});
          break;
        }
      }
    }
  }
}

} // namespace engine
} // namespace cuda_scope
