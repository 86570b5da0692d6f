//===- IrTests.cpp - what a read's value decides, in the device IR -------===//
//
// Where the value an operation reads decides a branch: directly, through
// the arithmetic and comparisons -O2 leaves, or through a relay (a local, a
// __shared__ word) another branch tests; and, for a value tested more than
// once, every test (model: what any test of the value guards runs on it).
//
//===----------------------------------------------------------------------===//
#include "IrTests.h"
#include "IrAddresses.h"
#include "IrRecords.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;
using namespace cuda_scope::ir;

namespace cuda_scope {

namespace {

/// \p V is computed (through arithmetic, casts, selects and phis) from the
/// value \p From holds where \p V is used: not through a phi's value carried
/// round a loop (a back edge, whose block \p DT says the phi's dominates),
/// which holds an earlier run's value (old = t; t = atomicCAS(p, t, n);
/// while (t != old)), as the AST front end reads a local that took the
/// variable's value before it changed (computedFrom).
bool derivesFrom(const Value *V, const Value *From, const DominatorTree *DT) {
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    const Value *X = Work.pop_back_val();
    if (X == From)
      return true;
    if (!Seen.insert(X).second)
      continue;
    if (const auto *Phi = dyn_cast<PHINode>(X)) {
      for (unsigned I = 0, E = Phi->getNumIncomingValues(); I < E; ++I)
        if (!DT || !DT->dominates(Phi->getParent(), Phi->getIncomingBlock(I)))
          Work.push_back(Phi->getIncomingValue(I));
    } else if (isa<BinaryOperator>(X) || isa<CastInst>(X) || isa<SelectInst>(X)) {
      for (const Value *Op : cast<Instruction>(X)->operands())
        Work.push_back(Op);
    }
  }
  return false;
}

/// \p V is the grid's width in blocks itself (%nctaid.x, through casts), as
/// the AST front end reads gridDim.x (MemOp::GoalIsGrid).
bool isGridWidth(const Value *V) {
  while (isa<ZExtInst, SExtInst, TruncInst>(V))
    V = cast<CastInst>(V)->getOperand(0);
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_nctaid_x;
}

/// comparisonTest for an icmp of \p V (an fcmp against a bound unless it is
/// an equality).
ValueTest irComparisonTest(const CmpInst &Cmp, const Value *V) {
  if (Cmp.isEquality())
    return ValueTest::Equality;
  const auto *IC = dyn_cast<ICmpInst>(&Cmp);
  if (!IC)
    return ValueTest::Bound;
  CmpInst::Predicate P = Cmp.getOperand(0) == V ? IC->getPredicate() : IC->getSwappedPredicate();
  const Value *Other = Cmp.getOperand(0) == V ? Cmp.getOperand(1) : Cmp.getOperand(0);
  std::optional<int64_t> K;
  if (const auto *CI = dyn_cast<ConstantInt>(Other); CI && CI->getBitWidth() <= 64)
    K = CI->getZExtValue();
  Comparison C = Comparison::LT;
  switch (ICmpInst::getUnsignedPredicate(P)) {
  case CmpInst::ICMP_ULT: C = Comparison::LT; break;
  case CmpInst::ICMP_ULE: C = Comparison::LE; break;
  case CmpInst::ICMP_UGT: C = Comparison::GT; break;
  case CmpInst::ICMP_UGE: C = Comparison::GE; break;
  default: return ValueTest::Bound;
  }
  return comparisonTest(C, IC->isUnsigned(), K);
}

/// __syncthreads_or, _and and _count: a block barrier whose value is the
/// block's vote on each thread's operand.
bool isBlockVote(const CallBase &Call) {
  switch (Call.getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
    return true;
  default:
    return false;
  }
}

/// An address every thread computes alike, into a variable (a __shared__ or
/// __device__ one, a local): no index reads the block's or the thread's
/// identity, and every step is one the canonical text can name.
bool isUniformWord(const Value *Ptr) {
  const Value *Base = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (!isa<GlobalVariable, AllocaInst>(Base))
    return false;
  IndexDeps Deps;
  std::string Text = canonical(Ptr, Deps);
  return sameForEveryThread(Text, Deps);
}

} // namespace

bool readsGridSize(const Value *V) {
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(X)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: return true;
      default: break;
      }
    }
    if (isa<BinaryOperator>(X) || isa<CastInst>(X) || isa<SelectInst>(X) || isa<PHINode>(X))
      for (const Value *Op : cast<Instruction>(X)->operands())
        Work.push_back(Op);
  }
  return false;
}

bool sameEveryUse(const Value *V, unsigned Depth) {
  if (Depth > 12)
    return false;
  if (isa<ConstantInt>(V) || isa<Argument>(V))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    case Intrinsic::nvvm_read_ptx_sreg_tid_z: return true;
    default: return isBlockRegister(II->getIntrinsicID());
    }
  if (const auto *Load = dyn_cast<LoadInst>(V)) {
    const auto *Arg = dyn_cast<Argument>(getUnderlyingObject(Load->getPointerOperand(), 0));
    return Arg && Arg->hasByValAttr();
  }
  if (isa<BinaryOperator>(V) || isa<CastInst>(V))
    return all_of(cast<Instruction>(V)->operands(), [&](const Value *Op) { return sameEveryUse(Op, Depth + 1); });
  return false;
}

bool readsRelay(const IROp &L, const Value *Relay) {
  if (isa<AllocaInst, GlobalVariable>(Relay))
    return L.Object == Relay;
  if (!L.Address || !isUniformWord(L.Address))
    return false;
  IndexDeps A, B;
  return canonical(L.Address, A) == canonical(Relay, B);
}

std::optional<ValueTest> testOf(const Value *I, SmallVectorImpl<std::pair<const Value *, ValueTest>> *StoredTo,
                                const Instruction **Guard, bool *AgainstGrid, bool *GoalVaries, bool *GoalIsGrid,
                                SmallVectorImpl<const Instruction *> *Guards, const DominatorTree *DT) {
  SmallVector<std::pair<const Value *, ValueTest>, 8> Work{{I, ValueTest::None}};
  SmallPtrSet<const Value *, 16> Seen;
  std::optional<ValueTest> Found;
  while (!Work.empty() && Seen.size() < 32) {
    auto [V, Compare] = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      // A select decides by its condition; the values it picks between are
      // only passed on (m = ch < n ? mass : w), as the AST's ?: arms are.
      if (const auto *Sel = dyn_cast<SelectInst>(U); Sel && Sel->getCondition() != V) {
        Work.push_back({U, Compare});
        continue;
      }
      // `a && b` and `a || b` as -O2 leaves them (select i1 a, b, false;
      // select i1 a, true, b): a logical operator, whose value the branch
      // after it tests, as the AST's && is followed to its if.
      if (const auto *Sel = dyn_cast<SelectInst>(U);
          Sel && Sel->getType()->isIntegerTy(1) &&
          (isa<Constant>(Sel->getTrueValue()) || isa<Constant>(Sel->getFalseValue()))) {
        Work.push_back({U, Compare});
        continue;
      }
      if (isa<BranchInst>(U) || isa<SwitchInst>(U) || isa<SelectInst>(U)) {
        ValueTest T = Compare == ValueTest::None ? ValueTest::Equality : Compare;
        // Equality wins: a flag tested for its value somewhere is a flag.
        // The first branch of that kind is the guard; but where -O2 tests
        // one condition twice (if (finished == 1) {...} else break;, then
        // the loop's latch branches on the same i1 to go round or not), the
        // branch in the block that computes the condition decides first what
        // the iteration runs.
        const auto *Again = dyn_cast<BranchInst>(U);
        const auto *Before = Guard ? dyn_cast_or_null<BranchInst>(*Guard) : nullptr;
        bool FirstOfTwo = Again && Before && Again->isConditional() && Before->isConditional() &&
                          Again->getCondition() == Before->getCondition() &&
                          isa<Instruction>(Again->getCondition()) &&
                          cast<Instruction>(Again->getCondition())->getParent() == Again->getParent() &&
                          Before->getParent() != Again->getParent();
        if (Guards && Guards->size() < 8 && !is_contained(*Guards, cast<Instruction>(U)))
          Guards->push_back(cast<Instruction>(U));
        if (!Found || (T == ValueTest::Equality && *Found != ValueTest::Equality) || (T == *Found && FirstOfTwo)) {
          Found = T;
          if (Guard)
            *Guard = cast<Instruction>(U);
        }
        continue;
      }
      // A relay is a variable (a local, a __shared__ or __device__ one), or a
      // word every thread addresses alike (one carved from a dynamic shared
      // array at a fixed offset), as the AST front end follows them: not an
      // element the threads pick apart.
      if (const auto *St = dyn_cast<StoreInst>(U); St && StoredTo && St->getValueOperand() == V) {
        const Value *Ptr = St->getPointerOperand()->stripPointerCasts();
        if (isa<AllocaInst>(Ptr) || isa<GlobalVariable>(Ptr) || isUniformWord(Ptr))
          StoredTo->push_back({Ptr, Compare});
      }
      if (const auto *Cmp = dyn_cast<CmpInst>(U)) {
        // Compared with what it was computed from itself (next == f(value)):
        // arithmetic, not a test of what other threads did.
        const Value *Other = Cmp->getOperand(0) == V ? Cmp->getOperand(1) : Cmp->getOperand(0);
        if (derivesFrom(Other, I, DT))
          continue;
        if (AgainstGrid && readsGridSize(Other)) {
          *AgainstGrid = true;
          if (GoalVaries && !sameEveryUse(Other))
            *GoalVaries = true;
          if (GoalIsGrid && isGridWidth(Other))
            *GoalIsGrid = true;
        }
        if (Compare == ValueTest::None)
          Work.push_back({U, irComparisonTest(*Cmp, V)});
        else
          Work.push_back({U, Compare});
        continue;
      }
      // The value a compare-and-swap expects is compared with what it finds:
      // its success bit is that equality (-O2 turns while (t != old) after
      // t = atomicCAS(p, old, n) into a branch on it), as the AST front end
      // reads the comparison of the variables.
      if (const auto *Swap = dyn_cast<AtomicCmpXchgInst>(U); Swap && Swap->getCompareOperand() == V) {
        for (const User *SU : Swap->users())
          if (const auto *EV = dyn_cast<ExtractValueInst>(SU); EV && EV->getNumIndices() == 1 && EV->getIndices()[0] == 1)
            Work.push_back({EV, ValueTest::Equality});
        continue;
      }
      if (isa<BinaryOperator>(U) || isa<CastInst>(U) || isa<ExtractValueInst>(U) || isa<PHINode>(U))
        Work.push_back({U, Compare});
      // A shuffle hands the value to the warp, which tests it there; a block
      // barrier's vote (__syncthreads_or/_and/_count) hands it to the block.
      else if (const auto *Call = dyn_cast<CallBase>(U);
               Call && Call->getCalledFunction() &&
               (isWarpShuffleName(Call->getCalledFunction()->getName()) || isBlockVote(*Call)))
        Work.push_back({U, Compare});
    }
  }
  return Found;
}

std::pair<const Instruction *, ValueTest> IrRecords::testedAt(unsigned First, unsigned Last, const IROp &Op,
                                                              bool *AgainstGrid, bool *GoalVaries, bool *GoalIsGrid,
                                                              SmallVectorImpl<const Instruction *> *Others) const {
  // At the read itself, or, when the value is relayed through memory (the
  // last-block ticket stores it to a __shared__ bool, then every thread tests
  // it after __syncthreads()), at the load of the relay that decides a branch.
  SmallVector<std::pair<const Value *, ValueTest>, 2> Relays;
  const Instruction *Guard = nullptr;
  SmallVector<const Instruction *, 4> Guards;
  if (std::optional<ValueTest> T = testOf(Op.I, &Relays, &Guard, AgainstGrid, GoalVaries, GoalIsGrid, &Guards,
                                                  &orderOf(Op.I->getFunction()).domTree())) {
    // Each test, and where a test only sets a relay, the relay's test.
    for (const Instruction *G : Guards)
      if (G != Guard && Others)
        Others->push_back(throughSetter(First, Last, G, AgainstGrid, GoalVaries, GoalIsGrid));
    return {throughSetter(First, Last, Guard, AgainstGrid, GoalVaries, GoalIsGrid), *T};
  }
  for (auto [Relay, Compare] : Relays)
    for (unsigned I = First; I < Last; ++I) {
      const IROp &L = IROps[I];
      if (L.What != OpKind::Load || !readsRelay(L, Relay) || !orderOf(Op.I->getFunction()).mayPrecede(Op.I, L.I))
        continue;
      if (std::optional<ValueTest> T = testOf(L.I, nullptr, &Guard, AgainstGrid, GoalVaries, GoalIsGrid, nullptr,
                                                    &orderOf(L.I->getFunction()).domTree()))
        return {Guard, Compare != ValueTest::None ? Compare : *T};
    }
  return {nullptr, ValueTest::None};
}

const Instruction *IrRecords::throughSetter(unsigned First, unsigned Last, const Instruction *Guard,
                                            bool *AgainstGrid, bool *GoalVaries, bool *GoalIsGrid) const {
  // A decision whose one effect is to set a relay (if (now == mine)
  // haveLock = true;, then every thread tests haveLock after a barrier):
  // what the relay's test decides, the value decides, as the AST front end
  // follows the variable the arm assigns.
  if (const auto *Br = dyn_cast_or_null<BranchInst>(Guard); Br && Br->isConditional())
    for (const BasicBlock *Arm : Br->successors()) {
      if (Arm->getSinglePredecessor() != Br->getParent())
        continue;
      const StoreInst *Set = nullptr;
      bool Else = false;
      for (const Instruction &I : *Arm) {
        if (const auto *S = dyn_cast<StoreInst>(&I); S && !Set && isa<Constant>(S->getValueOperand()))
          Set = S;
        else if (I.mayReadOrWriteMemory() || (I.isTerminator() && !isa<BranchInst>(I)))
          Else = true;
      }
      if (!Set || Else)
        continue;
      const Value *Relay = nullptr;
      for (unsigned I = First; I < Last && !Relay; ++I)
        if (IROps[I].I == Set)
          Relay = IROps[I].Object;
      if (!Relay)
        continue;
      const FunctionOrder &Order = orderOf(Set->getFunction());
      for (unsigned I = First; I < Last; ++I) {
        const IROp &L = IROps[I];
        if (L.What != OpKind::Load || L.Object != Relay || L.I->getFunction() != Set->getFunction() ||
            !Order.mayPrecede(Set, L.I))
          continue;
        const Instruction *RelayGuard = nullptr;
        if (testOf(L.I, nullptr, &RelayGuard, AgainstGrid, GoalVaries, GoalIsGrid, nullptr, &Order.domTree()) &&
            RelayGuard)
          return RelayGuard;
      }
    }
  return Guard;
}

} // namespace cuda_scope
