//===- IrSpins.cpp - the values on which a spin in the device IR is left ---===//
//
// MemOp::PassWhen from the IR: the value a spinning read must return for its
// loop to be left, read at the loop's one exiting branch, directly or
// through a relay the read's comparison is stored to. The AST front end
// reads the same from a loop's test (AstRecords' spinExit).
//
//===----------------------------------------------------------------------===//
#include "IrSpins.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace cuda_scope {

/// The condition on the value \p Op reads under which a relay it is stored
/// to takes a value meeting \p Loaded, where \p L loads the relay: the read's
/// equality comparison with a constant, stored as its truth value or as one
/// of two constants a select picks by it. None for any other relay.
static std::optional<ValueCondition> throughRelay(const IROp &Op, ValueCondition Loaded, const LoadInst *L) {
  const Value *Relay = getUnderlyingObject(L->getPointerOperand()->stripPointerCasts());
  const Value *Read = Op.I;
  if (isa<AtomicCmpXchgInst>(Op.I))
    for (const User *U : Op.I->users())
      if (const auto *EV = dyn_cast<ExtractValueInst>(U); EV && EV->getIndices().size() == 1 && EV->getIndices()[0] == 0)
        Read = EV;
  std::optional<ValueCondition> Found;
  // The relay passes on one of the two values only: the read's condition is
  // the comparison, or its negation. False where both or neither pass, or
  // where another store of the relay says otherwise.
  auto Decide = [&](ValueCondition Holds, std::optional<int64_t> IfHolds, std::optional<int64_t> IfNot) {
    auto Passes = [&](std::optional<int64_t> X) { return X && Loaded.holdsFor(*X); };
    const bool HoldsPasses = Passes(IfHolds), NotPasses = Passes(IfNot);
    if (HoldsPasses == NotPasses)
      return false;
    ValueCondition R = Holds;
    if (!HoldsPasses)
      R.Op = R.Op == Comparison::EQ ? Comparison::NE : Comparison::EQ;
    if (Found && (Found->Op != R.Op || Found->C != R.C))
      return false;
    Found = R;
    return true;
  };
  // The conditions on the read's value: its equality comparisons with a
  // constant, and a compare-and-swap's success bit (the value equals what it
  // expects).
  SmallVector<std::pair<const Value *, ValueCondition>, 2> Conditions;
  for (const User *U : Read->users()) {
    const auto *Cmp = dyn_cast<ICmpInst>(U);
    const auto *K = Cmp && Cmp->isEquality() ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
    if (K && K->getBitWidth() <= 64)
      Conditions.push_back(
          {Cmp, {Cmp->getPredicate() == CmpInst::ICMP_EQ ? Comparison::EQ : Comparison::NE, K->getSExtValue()}});
  }
  if (isa<AtomicCmpXchgInst>(Op.I) && Op.Expected)
    for (const User *U : Op.I->users())
      if (const auto *EV = dyn_cast<ExtractValueInst>(U); EV && EV->getIndices().size() == 1 && EV->getIndices()[0] == 1)
        Conditions.push_back({EV, {Comparison::EQ, *Op.Expected}});
  for (const auto &[Cmp, Holds] : Conditions) {
    for (const User *V : Cmp->users()) {
      // The two values stored: where the comparison holds, and where not.
      std::optional<int64_t> IfHolds, IfNot;
      const Value *Stored = V;
      if (isa<ZExtInst>(V)) {
        IfHolds = 1, IfNot = 0;
      } else if (const auto *Sel = dyn_cast<SelectInst>(V); Sel && Sel->getCondition() == Cmp) {
        const auto *A = dyn_cast<ConstantInt>(Sel->getTrueValue()), *B = dyn_cast<ConstantInt>(Sel->getFalseValue());
        if (!A || !B || A->getBitWidth() > 64)
          continue;
        IfHolds = A->getSExtValue(), IfNot = B->getSExtValue();
      } else if (const auto *Br = dyn_cast<BranchInst>(V); Br && Br->isConditional()) {
        // A branch whose arms store a constant each (if (cas == 1) *relay =
        // 0; else *relay = 1;); an arm that stores nothing leaves the relay
        // at a value the loop goes on with.
        bool Sets = false;
        for (unsigned Arm = 0; Arm < 2; ++Arm) {
          const BasicBlock *B = Br->getSuccessor(Arm);
          // An arm with no code of its own (if (cas == 0) *relay = 1;): the
          // branch goes straight to where the other arm joins it.
          if (B == Br->getSuccessor(1 - Arm)->getSingleSuccessor())
            continue;
          if (B->getSinglePredecessor() != Br->getParent())
            return std::nullopt;
          for (const Instruction &I : *B)
            if (const auto *S = dyn_cast<StoreInst>(&I);
                S && getUnderlyingObject(S->getPointerOperand()->stripPointerCasts()) == Relay) {
              const auto *K = dyn_cast<ConstantInt>(S->getValueOperand());
              if (!K || K->getBitWidth() > 64)
                return std::nullopt;
              (Arm == 0 ? IfHolds : IfNot) = K->getSExtValue();
              Sets = true;
            }
        }
        if (!Sets)
          continue;
        if (!Decide(Holds, IfHolds, IfNot))
          return std::nullopt;
        continue;
      } else {
        continue;
      }
      for (const User *W : Stored->users()) {
        const auto *S = dyn_cast<StoreInst>(W);
        if (!S || S->getValueOperand() != Stored ||
            getUnderlyingObject(S->getPointerOperand()->stripPointerCasts()) != Relay)
          continue;
        if (!Decide(Holds, IfHolds, IfNot))
          return std::nullopt;
      }
    }
  }
  return Found;
}

/// \p BB goes back to \p L's header and does nothing else on the way: the
/// header itself, or blocks of nothing but a branch that lead to it (the
/// latch -O2 leaves for a `continue`).
static bool retries(const BasicBlock *BB, const Loop *L) {
  for (unsigned Step = 0; Step < 4 && BB && L->contains(BB); ++Step) {
    if (BB == L->getHeader())
      return true;
    if (BB->sizeWithoutDebug() != 1)
      return false;
    BB = BB->getSingleSuccessor();
  }
  return false;
}

/// The outcome of \p Br that goes back around \p L (0 or 1), or -1 where
/// none or both do.
static int retryingOutcome(const BranchInst *Br, const Loop *L) {
  if (!Br->isConditional())
    return -1;
  const bool First = retries(Br->getSuccessor(0), L), Second = retries(Br->getSuccessor(1), L);
  return First == Second ? -1 : First ? 0 : 1;
}

/// Whether \p BB has a successor outside the cycle \p C.
static bool leaves(const BasicBlock *BB, const Cycle *C) {
  return any_of(successors(BB), [&](const BasicBlock *S) { return !C->contains(S); });
}

SpinLoop spinLoopOf(const Instruction *Guard, const Instruction *I, const FunctionOrder &O) {
  if (!isa<BranchInst>(Guard) && !isa<SwitchInst>(Guard))
    return {};
  const LoopInfo &LI = O.loops();
  for (const Loop *L = LI.getLoopFor(I->getParent()); L; L = L->getParentLoop())
    if (L->contains(Guard->getParent()) && L->isLoopExiting(Guard->getParent()))
      return {L, nullptr};
  // A retry: the outcome that failed goes back to the head of a loop holding
  // both, and the thread reads again, as when it leaves a spin on the other.
  if (const auto *Br = dyn_cast<BranchInst>(Guard))
    for (const Loop *L = LI.getLoopFor(I->getParent()); L; L = L->getParentLoop())
      if (L->contains(Guard->getParent()) && retryingOutcome(Br, L) >= 0)
        return {L, nullptr};
  // A loop -O2 made irreducible: only a cycle of several entries, which
  // LoopInfo leaves out, is asked here, so a natural loop's answer stands.
  for (const Cycle *C = O.cycles().getCycle(I->getParent()); C; C = C->getParentCycle())
    if (!C->isReducible() && C->contains(Guard->getParent()) && leaves(Guard->getParent(), C))
      return {nullptr, C};
  return {};
}

bool returnedBy(const Instruction &I) {
  SmallVector<const Value *, 8> Work{&I};
  SmallPtrSet<const Value *, 8> Seen{&I};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<ReturnInst>(U))
        return true;
      if ((isa<CastInst>(U) || isa<PHINode>(U) || (isa<SelectInst>(U) && U->getOperand(0) != V)) &&
          Seen.insert(U).second && Seen.size() < 32)
        Work.push_back(U);
    }
  }
  return false;
}

/// The condition on the value \p Op reads under which the loop it spins in
/// is left (MemOp::PassWhen): the branch its value decides is the loop's one
/// exiting branch or a retry's test (spinLoopOf), and its condition is one equality comparison of the value
/// (through casts) with a constant, or a compare-and-swap's success bit (the
/// value equals what it expects), under any number of negations. As the AST
/// front end reads a loop's test or an if that breaks out (spinExit).
std::optional<ValueCondition> spinExit(const IROp &Op, const FunctionOrder &O) {
  using namespace PatternMatch;
  const auto *Br = dyn_cast_or_null<BranchInst>(Op.Test);
  if (!Br || !Br->isConditional())
    return std::nullopt;
  const SpinLoop Spin = spinLoopOf(Br, Op.I, O);
  if (!Spin)
    return std::nullopt;
  bool FirstLeaves, SecondLeaves;
  if (const Cycle *C = Spin.C) {
    // The cycle's one way out, as a natural loop's below.
    SmallVector<BasicBlock *, 4> Exiting;
    C->getExitingBlocks(Exiting);
    if (Exiting.size() != 1 || Exiting.front() != Br->getParent())
      return std::nullopt;
    FirstLeaves = !C->contains(Br->getSuccessor(0)), SecondLeaves = !C->contains(Br->getSuccessor(1));
  } else if (const Loop *L = Spin.L; L->isLoopExiting(Br->getParent())) {
    if (L->getExitingBlock() != Br->getParent())
      return std::nullopt;
    FirstLeaves = !L->contains(Br->getSuccessor(0)), SecondLeaves = !L->contains(Br->getSuccessor(1));
  } else {
    // A retry: the outcome that does not go back around passes.
    FirstLeaves = retryingOutcome(Br, Spin.L) == 1, SecondLeaves = !FirstLeaves;
  }
  if (FirstLeaves == SecondLeaves)
    return std::nullopt;
  Value *C = Br->getCondition();
  bool Negated = false;
  for (Value *X; match(C, m_Not(m_Value(X)));) {
    C = X;
    Negated = !Negated;
  }
  auto IsRead = [&](const Value *V) {
    while (isa<ZExtInst, SExtInst, TruncInst>(V))
      V = cast<CastInst>(V)->getOperand(0);
    if (const auto *EV = dyn_cast<ExtractValueInst>(V); EV && isa<AtomicCmpXchgInst>(EV->getAggregateOperand()) &&
                                                         EV->getIndices().size() == 1 && EV->getIndices()[0] == 0)
      V = EV->getAggregateOperand();
    return V == Op.I;
  };
  ValueCondition VC;
  // Through a relay: the read's comparison with a constant, stored as a
  // truth value (zext) or as one of two constants (select) to memory that
  // the loop's test loads (*acquired = atomicCAS(l, 0, 1) != 1; while
  // (!*acquired)), as the AST front end reads an if whose arms set a
  // variable. The value loaded is the relay's condition's; it is taken back
  // to the read's.
  const Instruction *RelayLoad = nullptr;
  auto IsRelay = [&](const Value *V) {
    while (isa<ZExtInst, SExtInst, TruncInst>(V))
      V = cast<CastInst>(V)->getOperand(0);
    const auto *L = dyn_cast<LoadInst>(V);
    if (L)
      RelayLoad = L;
    return L != nullptr;
  };
  if (const auto *Cmp = dyn_cast<ICmpInst>(C); Cmp && Cmp->isEquality()) {
    const Value *X = Cmp->getOperand(0);
    const auto *K = dyn_cast<ConstantInt>(Cmp->getOperand(1));
    if (!K) {
      X = Cmp->getOperand(1);
      K = dyn_cast<ConstantInt>(Cmp->getOperand(0));
    }
    if (!K || K->getBitWidth() > 64 || (!IsRead(X) && !IsRelay(X)))
      return std::nullopt;
    VC = {Cmp->getPredicate() == CmpInst::ICMP_EQ ? Comparison::EQ : Comparison::NE, K->getSExtValue()};
  } else if (!IsRead(C) && IsRelay(C)) {
    VC = {Comparison::NE, 0}; // a truth test of the relay's value
  } else if (const auto *EV = dyn_cast<ExtractValueInst>(C);
             EV && EV->getAggregateOperand() == Op.I && isa<AtomicCmpXchgInst>(Op.I) && EV->getIndices().size() == 1 &&
             EV->getIndices()[0] == 1 && Op.Expected) {
    VC = {Comparison::EQ, *Op.Expected};
  } else if (IsRead(C)) {
    VC = {Comparison::NE, 0}; // a truth test of a bool read (trunc to i1)
  } else {
    return std::nullopt;
  }
  // The branch leaves when its condition holds (first successor outside)
  // or fails.
  if (FirstLeaves == Negated)
    VC.Op = VC.Op == Comparison::EQ ? Comparison::NE : Comparison::EQ;
  if (RelayLoad)
    return throughRelay(Op, VC, cast<LoadInst>(RelayLoad));
  return VC;
}

} // namespace cuda_scope
