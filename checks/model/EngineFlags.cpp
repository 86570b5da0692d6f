//===- EngineFlags.cpp - what is a flag and what is data, per kernel ------===//
//
// A flag is an object that some access treats as shared (atomic or
// volatile), that is published (written) and received (read, its value
// tested); a counter that only reductions update and nothing waits on is no
// flag. Its data are the other objects the kernel both writes and reads
// with plain or volatile accesses, and those only written, at one address
// every thread computes alike, on both sides of a receive (EngineMessages.cpp
// has the rules over them).
//
//===----------------------------------------------------------------------===//
#include "EngineFlags.h"
#include "llvm/ADT/MapVector.h"

using namespace llvm;

namespace cuda_scope {
namespace engine {

std::vector<MessageGroup> messageGroups(const State &St) {
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
      // A counter: only reductions (counting updates whose old value no
      // thread uses) and plain accesses, and no read that waits on it or
      // tests it for a value. Its value decides nothing another thread
      // reads, so it is no flag; what the reductions write is data, read by
      // its plain reads (a histogram every block adds to, read by the last).
      auto Reduction = [&](unsigned I) {
        const MemOp &Op = St.op(I);
        return Op.What == OpKind::RMW && Op.Counts && Op.ValueUnused;
      };
      const bool Counter =
          any_of(List, Reduction) && all_of(List, [&](unsigned I) {
            const MemOp &Op = St.op(I);
            return (isData(Op) || Reduction(I)) && !(Op.reads() && (Op.Spins || Op.Test == ValueTest::Equality));
          });
      auto DataWrite = [&](unsigned I) {
        return (isData(St.op(I)) && St.op(I).What == OpKind::Store) || (Counter && Reduction(I));
      };
      bool Written = any_of(List, DataWrite);
      bool Read = any_of(List, [&](unsigned I) { return isData(St.op(I)) && St.op(I).What == OpKind::Load; });
      // Elements every thread owns (each access at the same index, which keeps
      // every thread apart) carry nothing between threads: neither data nor flag.
      const MemOp &Head = St.op(List.front());
      bool Owned = all_of(List, [&](unsigned I) {
        return St.op(I).ThreadPrivate && St.op(I).Element >= 0 && St.op(I).Element == Head.Element;
      });
      if (Owned)
        continue;
      // A partner's datum that it reads after the kernel (EngineMirrors.cpp)
      // is read there: what this instance writes of it travels.
      if (Written && (Read || St.ReadAfterKernel.count(Object))) {
        for (unsigned I : List) {
          if (DataWrite(I)) {
            G.DataStores.push_back(I);
            G.StoresOf[Object].push_back(I);
          } else if (isData(St.op(I)) && St.op(I).What == OpKind::Load) {
            G.DataLoads.push_back(I);
          }
        }
      }
      // Only written, by plain or volatile stores and nothing else, each at
      // an address every thread computes alike (the one location both sides
      // write: *last, p->result): data if a receive comes before some write
      // of it (the rules ask for that). Elements chosen per thread or by a
      // value read (a slot claimed from a counter) show no shared location.
      if (Written && all_of(List, [&](unsigned I) {
            return isData(St.op(I)) && St.op(I).What == OpKind::Store && St.op(I).FixedAddress;
          }))
        for (unsigned I : List) {
          G.DataStores.push_back(I);
          G.OnlyWrites.push_back(I);
          G.StoresOf[Object].push_back(I);
        }
      // A flag: published, received, and shared on purpose by some access.
      if (Counter || none_of(List, [&](unsigned I) { return St.op(I).Ord != Order::Plain; }))
        continue;
      Flag F;
      F.Object = Object;
      for (unsigned I : List) {
        if (St.op(I).writes())
          F.Publishes.push_back(I);
        if (St.op(I).reads()) {
          F.Reads.push_back(I);
          if (isReceive(St, St.op(I)))
            F.Receives.push_back(I);
        }
      }
      // A read of the thread's own element of a flag that each thread writes
      // only at its own element (ready[k] = 1 for the cell it owns) hears from
      // no other thread: it tests what this thread wrote, or the launch's
      // initial value.
      erase_if(F.Receives, [&](unsigned R) {
        const MemOp &Own = St.op(R);
        return Own.ThreadPrivate && Own.Element >= 0 && all_of(F.Publishes, [&](unsigned P) {
                 return St.op(P).ThreadPrivate && St.op(P).Element == Own.Element;
               });
      });
      if (F.Publishes.empty() || F.Receives.empty())
        continue;
      // A flag in one warp's own part of the object ((blockIdx.x * warps +
      // warp) * size) has only that warp's lanes on either side: warp-
      // synchronous code, which __syncwarp orders, not a message between
      // blocks or warps that a release and an acquire would order.
      const MemOp &Front = St.op(List.front());
      if (all_of(List, [&](unsigned I) {
            return St.op(I).WarpSegment && St.op(I).Segment >= 0 && St.op(I).Segment == Front.Segment;
          }))
        continue;
      // Who may be on the other side: the block only, when every access uses
      // one block-indexed element or one block of one grid runs them all;
      // host threads too, when they access the flag.
      const MemOp &First = St.op(List.front());
      bool PerBlock = all_of(List, [&](unsigned I) {
        return St.op(I).Segment >= 0 && St.op(I).Segment == First.Segment;
      });
      bool OneBlock = oneBlockRuns(St.Ops, List);
      F.Needed = St.accessedByHost(Object) ? Scope::System : PerBlock || OneBlock ? Scope::Block : Scope::Device;
      G.Flags.push_back(std::move(F));
    }
    if (G.Flags.empty())
      continue;
    G.DataUses.append(G.DataLoads.begin(), G.DataLoads.end());
    G.DataUses.append(G.OnlyWrites.begin(), G.OnlyWrites.end());
    GroupOf[Context] = Groups.size();
    Groups.push_back(std::move(G));
  }
  for (unsigned I = 0; I < St.Ops.size(); ++I) {
    const MemOp &Op = St.op(I);
    if (Op.RunBy == Runner::Host)
      continue;
    auto It = GroupOf.find(Across ? -1 : Op.Context);
    if (It == GroupOf.end())
      continue;
    if (Op.What == OpKind::Fence)
      Groups[It->second].Fences.push_back(I);
    else if ((Op.What == OpKind::BlockBarrier && Op.Object < 0) || Op.What == OpKind::GridBarrier)
      Groups[It->second].Barriers.push_back(I);
  }

  return Groups;
}

} // namespace engine
} // namespace cuda_scope
