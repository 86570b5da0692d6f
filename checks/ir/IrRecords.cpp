//===- IrRecords.cpp - a module's device operations as the engine's records ===//
#include "IrRecords.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cuda_scope {

namespace {

/// Where memory lives, from the state space the operation names and the
/// object its address is based on.
ObjectHome homeOf(const IROp &Op) {
  if (!Op.Object)
    return ObjectHome::Unknown;
  switch (Op.Space) {
  case MemorySpace::Global: return ObjectHome::Global;
  case MemorySpace::Shared: return ObjectHome::Shared;
  case MemorySpace::Local: return ObjectHome::Local;
  case MemorySpace::Generic:
  case MemorySpace::Unknown:
    // A kernel argument points to global memory; so does a pointer loaded
    // from a global variable's generic address.
    if (isa<GlobalVariable>(Op.Object) || isa<Argument>(Op.Object))
      return ObjectHome::Global;
    if (isa<AllocaInst>(Op.Object))
      return ObjectHome::Local;
    return ObjectHome::Unknown;
  default:
    return ObjectHome::Unknown;
  }
}

/// The value an operation reads decides a branch: the spin of a wait loop, the
/// test of a flag or of a ticket. \p StoredTo collects the objects it is
/// stored to on the way (a relay).
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
          isa<PHINode>(U))
        Work.push_back(U);
    }
  }
  return false;
}

} // namespace

IrRecords::IrRecords(const Module &M) {
  DenseMap<const Value *, int> ObjectId, ElementId;
  DenseMap<std::pair<unsigned, const Function *>, unsigned> ThreadId;
  for (const Function &F : M) {
    if (!isKernel(F))
      continue;
    const unsigned Context = Kernels.size();
    Kernels.push_back(&F);
    const unsigned First = IROps.size();
    for (IROp &Op : collectDeviceOps(F))
      IROps.push_back(std::move(Op));
    const unsigned Last = IROps.size();
    const Instruction *Previous = nullptr;
    unsigned Within = 0;
    for (unsigned I = First; I < Last; ++I) {
      IROp &Op = IROps[I];
      if (Op.What == OpKind::Load || Op.What == OpKind::RMW)
        Op.Test = testedAt(First, Last, Op);
      const Function *Fn = Op.I->getFunction();
      MemOp R;
      R.What = Op.What;
      R.Ord = Op.Ord;
      if (Op.Ord != Order::Plain)
        R.S = Op.ScopeQual;
      R.Space = Op.Space;
      R.Home = homeOf(Op);
      if (Op.Object) {
        R.Object = ObjectId.try_emplace(Op.Object, ObjectId.size()).first->second;
        R.Element = ElementId.try_emplace(Op.Address, ElementId.size()).first->second;
      }
      R.PerBlock = Op.PerBlock;
      R.Context = Context;
      R.RunBy = Runner::Kernel;
      R.Thread = ThreadId.try_emplace({Context, Fn}, ThreadId.size()).first->second;
      // Several PTX instructions of one asm statement follow each other.
      Within = Op.I == Previous ? Within + 1 : 0;
      Previous = Op.I;
      R.Seq = orderOf(Fn).number(Op.I) * 256 + std::min(Within, 255u);
      R.Tested = Op.Test != nullptr;
      Ops.push_back(R);
    }
  }
}

IrRecords::~IrRecords() = default;

const FunctionOrder &IrRecords::orderOf(const Function *F) const {
  std::unique_ptr<FunctionOrder> &Slot = Orders[F];
  if (!Slot)
    Slot = std::make_unique<FunctionOrder>(*F);
  return *Slot;
}

const Instruction *IrRecords::testedAt(unsigned First, unsigned Last, const IROp &Op) const {
  // At the read itself, or, when the value is relayed through memory (the
  // last-block ticket stores it to a __shared__ bool, then every thread tests
  // it after __syncthreads()), at the load of the relay that decides a branch.
  SmallVector<const Value *, 2> Relays;
  if (feedsBranch(Op.I, &Relays))
    return Op.I;
  for (const Value *Relay : Relays)
    for (unsigned I = First; I < Last; ++I) {
      const IROp &L = IROps[I];
      if (L.What == OpKind::Load && L.Object == Relay && orderOf(Op.I->getFunction()).mayPrecede(Op.I, L.I) &&
          feedsBranch(L.I))
        return L.I;
    }
  return nullptr;
}

bool IrRecords::mayPrecede(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  if (X.I == Y.I)
    return Ops[A].Seq < Ops[B].Seq;
  return orderOf(X.I->getFunction()).mayPrecede(X.I, Y.I);
}

bool IrRecords::afterTest(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  if (!X.Test)
    return false;
  if (X.Test == X.I)
    return mayPrecede(A, B);
  return X.Test != Y.I && orderOf(X.I->getFunction()).mayPrecede(X.Test, Y.I);
}

StringRef checkName(Finding::Kind K) {
  switch (K) {
  case Finding::ScopeMismatch: return "cuda-scope-mismatch";
  case Finding::ScopeInsufficient:
  case Finding::FenceTooNarrow: return "cuda-scope-insufficient";
  case Finding::NoRelease:
  case Finding::NoAcquire:
  case Finding::NarrowFence: return "cuda-scope-release-acquire";
  case Finding::ProxyFence: return "cuda-scope-proxy-fence";
  case Finding::ClusterWait: return "cuda-scope-cluster-wait";
  }
  return "cuda-scope";
}

} // namespace cuda_scope
