//===- ScopeRules.cpp - the scope rules, applied to one kernel's device IR ===//
#include "ScopeRules.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cuda_scope {
namespace {

/// Memory in a space every block of the grid can reach: global memory, or
/// memory whose space the IR does not show but whose object is a global or an
/// argument.
bool inGridMemory(const IROp &Op) {
  if (!Op.Object)
    return false;
  switch (Op.Space) {
  case MemorySpace::Global:
    return true;
  case MemorySpace::Generic:
  case MemorySpace::Unknown:
    return isa<GlobalVariable>(Op.Object) || isa<Argument>(Op.Object);
  default:
    return false;
  }
}

void scopeRules(const std::vector<IROp> &Ops, std::vector<IRFinding> &Out) {
  // Every access in one kernel may run concurrently with every other, in
  // other threads of other blocks; one below device scope on memory that
  // several blocks reach cannot include them all.
  DenseMap<const Value *, SmallVector<const IROp *, 4>> ByObject;
  for (const IROp &Op : Ops)
    if (Op.isStrongAccess() && Op.ScopeQual && inGridMemory(Op))
      ByObject[Op.Object].push_back(&Op);
  for (auto &Entry : ByObject) {
    const SmallVector<const IROp *, 4> &Accesses = Entry.second;
    // out[blockIdx.x] is per-block data only while every access computes the
    // same block-indexed address; a second index (a partner block, a
    // permutation) lets blocks meet on one element.
    bool PerBlock = all_of(Accesses, [&](const IROp *A) {
      return A->PerBlock && A->Address == Accesses.front()->Address;
    });
    if (PerBlock)
      continue;
    for (const IROp *Op : Accesses) {
      if (includes(*Op->ScopeQual, Scope::Device) || *Op->ScopeQual == Scope::Thread)
        continue;
      const IROp *Wider = nullptr;
      for (const IROp *Other : Accesses)
        if (includes(*Other->ScopeQual, Scope::Device)) {
          Wider = Other;
          break;
        }
      Out.push_back({Wider ? "cuda-scope-mismatch" : "cuda-scope-insufficient", Op, Wider,
                     describeObject(Op->Object), IRFinding::None, {}});
    }
  }
}

bool reaches(const Instruction *From, const Instruction *To) {
  return From->getFunction() == To->getFunction() && From != To &&
         isPotentiallyReachable(From, To);
}

void proxyFenceRule(const std::vector<IROp> &Ops, std::vector<IRFinding> &Out) {
  for (const IROp &Read : Ops) {
    if (Read.What != IROp::BulkReadShared)
      continue;
    for (const IROp &Write : Ops) {
      if (Write.What != IROp::Store || Write.Space != MemorySpace::Shared ||
          !reaches(Write.I, Read.I))
        continue;
      bool Fenced = false;
      for (const IROp &F : Ops)
        if (F.What == IROp::ProxyFence && reaches(Write.I, F.I) && reaches(F.I, Read.I)) {
          Fenced = true;
          break;
        }
      if (!Fenced) {
        Out.push_back({"cuda-scope-proxy-fence", &Read, &Write, describeObject(Write.Object), IRFinding::None, {}});
        break;
      }
    }
  }
}

/// The value an operation reads decides a branch: the spin of a wait loop, the
/// test of a flag or of a ticket.
bool feedsBranch(const Value *I, SmallVectorImpl<const Value *> *StoredTo = nullptr) {
  SmallVector<const Value *, 8> Work{I};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<BranchInst>(U) || isa<SwitchInst>(U) || isa<SelectInst>(U))
        return true;
      if (const auto *St = dyn_cast<StoreInst>(U); St && StoredTo && St->getValueOperand() == V)
        StoredTo->push_back(getUnderlyingObject(St->getPointerOperand()));
      if (isa<CmpInst>(U) || isa<BinaryOperator>(U) || isa<CastInst>(U) || isa<ExtractValueInst>(U) ||
          isa<PHINode>(U) || isa<ZExtInst>(U))
        Work.push_back(U);
    }
  }
  return false;
}

/// Where a read's value is tested: at the read itself, or, when the value is
/// relayed through memory (the last-block ticket stores it to a __shared__
/// bool, then every thread tests it after __syncthreads()), at the load of the
/// relay that decides a branch.
const Instruction *testedAt(const IROp &Op, const std::vector<IROp> &Ops) {
  SmallVector<const Value *, 2> Relays;
  if (feedsBranch(Op.I, &Relays))
    return Op.I;
  for (const Value *Relay : Relays)
    for (const IROp &L : Ops)
      if (L.What == IROp::Load && L.Object == Relay && reaches(Op.I, L.I) && feedsBranch(L.I))
        return L.I;
  return nullptr;
}

bool isGridFence(const IROp &Op, bool Release) {
  return Op.What == IROp::Fence && (Release ? hasRelease(Op.Ord) : hasAcquire(Op.Ord));
}

/// A fence of the wanted kind on some path between the two, and whether the
/// widest one found reaches device scope.
const IROp *fenceBetween(const std::vector<IROp> &Ops, const Instruction *From, const Instruction *To,
                         bool Release) {
  const IROp *Best = nullptr;
  for (const IROp &F : Ops)
    if (isGridFence(F, Release) && F.ScopeQual && reaches(From, F.I) && reaches(F.I, To))
      if (!Best || *Best->ScopeQual < *F.ScopeQual)
        Best = &F;
  return Best;
}

bool plainGridData(const IROp &Op, const Value *Flag, IROp::Kind K,
                   const SmallPtrSetImpl<const Value *> &Messages) {
  return Op.What == K && Op.Ord == Order::Plain && Op.Object && Op.Object != Flag && inGridMemory(Op) &&
         Messages.count(Op.Object);
}

void releaseAcquireRule(const std::vector<IROp> &Ops, std::vector<IRFinding> &Out) {
  // Flags: objects in grid memory that one kernel both publishes (a store or
  // read-modify-write) and receives (a load or read-modify-write whose value
  // decides a branch). A flag only written, or only read, carries no message.
  DenseMap<const Value *, SmallVector<const IROp *, 4>> Publish;
  DenseMap<const Value *, SmallVector<std::pair<const IROp *, const Instruction *>, 4>> Receive;
  for (const IROp &Op : Ops) {
    if (!Op.isAccess() || !Op.Object || !inGridMemory(Op))
      continue;
    if (Op.What == IROp::Store || Op.What == IROp::RMW)
      Publish[Op.Object].push_back(&Op);
    if (Op.What == IROp::Load || Op.What == IROp::RMW)
      if (const Instruction *Test = testedAt(Op, Ops))
        Receive[Op.Object].push_back({&Op, Test});
  }
  // A message's data is written on one side and read on the other: objects
  // the kernel only reads (its input) or only writes (its output) carry none,
  // which keeps the look-back of CUB's scans and sorts, whose status and value
  // share one word, out of it.
  SmallPtrSet<const Value *, 8> Written, Messages;
  for (const IROp &Op : Ops)
    if (Op.What == IROp::Store && Op.Ord == Order::Plain && Op.Object)
      Written.insert(Op.Object);
  for (const IROp &Op : Ops)
    if (Op.What == IROp::Load && Op.Ord == Order::Plain && Written.count(Op.Object))
      Messages.insert(Op.Object);

  // A flag is synchronized on: some access to it is atomic or volatile. Plain
  // tests and stores of an object (bookkeeping cleared for the next launch)
  // carry no message between threads of one kernel.
  SmallPtrSet<const Value *, 8> Strong;
  for (const IROp &Op : Ops)
    if (Op.isStrongAccess() && Op.Object)
      Strong.insert(Op.Object);

  for (auto &Entry : Publish) {
    const Value *Flag = Entry.first;
    auto R = Receive.find(Flag);
    if (R == Receive.end() || !Strong.count(Flag))
      continue;
    // A store after this thread has received on the flag, on no path back to
    // the receive and with no data written in between, resets it for a later
    // launch (the ticket set back to 0). With data written in between it
    // hands the flag on (a lock released after the critical section).
    auto ResetAfterReceive = [&](const IROp *P) {
      return any_of(R->second, [&](const auto &Rc) {
        return Rc.first != P && reaches(Rc.second, P->I) && !reaches(P->I, Rc.first->I) &&
               none_of(Ops, [&](const IROp &D) {
                 return plainGridData(D, Flag, IROp::Store, Messages) && reaches(Rc.first->I, D.I) &&
                        reaches(D.I, P->I);
               });
      });
    };
    // Publishing: data written before the flag must be released, by the flag
    // access itself or by a fence between (cumulativity makes a barrier then
    // one thread's fence enough).
    for (const IROp *P : Entry.second) {
      if (hasRelease(P->Ord) && P->ScopeQual && includes(*P->ScopeQual, Scope::Device))
        continue;
      if (hasRelease(P->Ord) || ResetAfterReceive(P))
        continue; // a release of narrow scope is cuda-scope-mismatch's finding
      for (const IROp &Data : Ops) {
        if (!plainGridData(Data, Flag, IROp::Store, Messages) || !reaches(Data.I, P->I))
          continue;
        const IROp *Fence = fenceBetween(Ops, Data.I, P->I, /*Release=*/true);
        if (Fence && includes(*Fence->ScopeQual, Scope::Device))
          continue;
        Out.push_back({"cuda-scope-release-acquire", Fence ? Fence : P, Fence ? P : &Data,
                       describeObject(Flag), Fence ? IRFinding::NarrowFence : IRFinding::NoRelease,
                       describeObject(Data.Object)});
        break;
      }
    }
    for (auto [Rc, Test] : R->second) {
      if (hasAcquire(Rc->Ord))
        continue; // an acquire of narrow scope is cuda-scope-mismatch's finding
      for (const IROp &Data : Ops) {
        if (!plainGridData(Data, Flag, IROp::Load, Messages) || !reaches(Test, Data.I))
          continue;
        // The thread reads back what it stored at the same address: its own write.
        if (any_of(Ops, [&](const IROp &S) {
              return S.What == IROp::Store && S.Ord == Order::Plain && S.Address == Data.Address &&
                     reaches(S.I, Data.I);
            }))
          continue;
        const IROp *Fence = fenceBetween(Ops, Rc->I, Data.I, /*Release=*/false);
        if (Fence && includes(*Fence->ScopeQual, Scope::Device))
          continue;
        Out.push_back({"cuda-scope-release-acquire", Fence ? Fence : Rc, Fence ? Rc : &Data,
                       describeObject(Flag), Fence ? IRFinding::NarrowFence : IRFinding::NoAcquire,
                       describeObject(Data.Object)});
        break;
      }
    }
  }
}

void clusterWaitRule(const std::vector<IROp> &Ops, std::vector<IRFinding> &Out) {
  // barrier.cluster.arrive only announces this block; another block's shared
  // memory is ready to read once barrier.cluster.wait has returned.
  for (const IROp &Read : Ops) {
    if (Read.What != IROp::Load || Read.Space != MemorySpace::SharedCluster)
      continue;
    for (const IROp &Arrive : Ops) {
      if (Arrive.What != IROp::ClusterArrive || !reaches(Arrive.I, Read.I))
        continue;
      bool Waited = any_of(Ops, [&](const IROp &W) {
        return W.What == IROp::ClusterWait && reaches(Arrive.I, W.I) && reaches(W.I, Read.I);
      });
      if (!Waited) {
        Out.push_back({"cuda-scope-cluster-wait", &Read, &Arrive, "another block's shared memory",
                       IRFinding::None, {}});
        break;
      }
    }
  }
}

} // namespace

std::vector<IRFinding> checkKernelOps(const std::vector<IROp> &Ops) {
  std::vector<IRFinding> Out;
  scopeRules(Ops, Out);
  proxyFenceRule(Ops, Out);
  releaseAcquireRule(Ops, Out);
  clusterWaitRule(Ops, Out);
  return Out;
}

} // namespace cuda_scope
