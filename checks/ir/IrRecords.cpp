//===- IrRecords.cpp - a module's device operations as the engine's records ===//
#include "IrRecords.h"
#include "IrAddresses.h"
#include "IrSpins.h"
#include "model/Hierarchy.h"
#include "model/Wording.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace cuda_scope::ir;

namespace cuda_scope {

namespace {

/// Where memory lives, from the state space the operation names and the
/// object its address is based on.
ObjectHome homeOf(const IROp &Op) {
  if (!Op.Object)
    return ObjectHome::Unknown;
  // A kernel argument points to global memory; so does a pointer loaded
  // from a global variable's generic address.
  ObjectHome OfObject = ObjectHome::Unknown;
  if (isa<GlobalVariable>(Op.Object) || isa<Argument>(Op.Object))
    OfObject = ObjectHome::Global;
  else if (isa<AllocaInst>(Op.Object))
    OfObject = ObjectHome::Local;
  else if (isa<LoadInst>(Op.Object))
    // A pointer read from memory: where it points, by where it was kept.
    OfObject = pointeeHome(Op.Keeper);
  return homeInSpace(Op.Space, OfObject);
}

/// \p V is computed (through arithmetic, casts, selects and phis) from \p From.
bool derivesFrom(const Value *V, const Value *From) {
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    const Value *X = Work.pop_back_val();
    if (X == From)
      return true;
    if (!Seen.insert(X).second)
      continue;
    if (isa<BinaryOperator>(X) || isa<CastInst>(X) || isa<SelectInst>(X) || isa<PHINode>(X))
      for (const Value *Op : cast<Instruction>(X)->operands())
        Work.push_back(Op);
  }
  return false;
}

/// \p V is computed from the grid's size in blocks (%nctaid).
/// \p V is the grid's width in blocks itself (%nctaid.x, through casts), as
/// the AST front end reads gridDim.x (MemOp::GoalIsGrid).
bool isGridWidth(const Value *V) {
  while (isa<ZExtInst, SExtInst, TruncInst>(V))
    V = cast<CastInst>(V)->getOperand(0);
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_nctaid_x;
}

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

/// \p V is the same at every run by one thread (MemOp::GoalVaries is its
/// negation): built from the special registers of the thread's and block's
/// indices and sizes, constants and parameters (a by-value one read from its
/// copy) by arithmetic. A phi (a loop's counter), a load or a call's result
/// can change between runs.
bool sameEveryUse(const Value *V, unsigned Depth = 0) {
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

/// How the value an operation reads decides a branch (the spin of a wait
/// loop, the test of a flag or of a ticket): through equality, a bound, or
/// not at all. \p StoredTo collects the objects it is stored to on the way
/// (a relay), with the comparison made before the store.
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

/// \p L reads the relay \p Relay: the variable itself, or the same word.
bool readsRelay(const IROp &L, const Value *Relay) {
  if (isa<AllocaInst, GlobalVariable>(Relay))
    return L.Object == Relay;
  if (!L.Address || !isUniformWord(L.Address))
    return false;
  IndexDeps A, B;
  return canonical(L.Address, A) == canonical(Relay, B);
}

std::optional<ValueTest> testOf(const Value *I,
                                SmallVectorImpl<std::pair<const Value *, ValueTest>> *StoredTo = nullptr,
                                const Instruction **Guard = nullptr, bool *AgainstGrid = nullptr,
                                bool *GoalVaries = nullptr, bool *GoalIsGrid = nullptr) {
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
        if (derivesFrom(Other, I))
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

bool isBlockIndexX(const Value *V) {
  while (const auto *Cast = dyn_cast<CastInst>(V))
    V = Cast->getOperand(0);
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_ctaid_x;
}

/// \p V reads the special register \p ID, through casts.
bool readsRegister(const Value *V, Intrinsic::ID ID) {
  while (const auto *Cast = dyn_cast<CastInst>(V))
    V = Cast->getOperand(0);
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == ID;
}

/// blockIdx.x * blockDim.x, in either order: where the block's threads start
/// in a one-dimensional grid.
bool isBlockOffsetX(const Value *V) {
  using namespace PatternMatch;
  const Value *X = nullptr, *Y = nullptr;
  while (const auto *Cast = dyn_cast<CastInst>(V))
    V = Cast->getOperand(0);
  return match(V, m_c_Mul(m_Value(X), m_Value(Y))) &&
         ((isBlockIndexX(X) && readsRegister(Y, Intrinsic::nvvm_read_ptx_sreg_ntid_x)) ||
          (isBlockIndexX(Y) && readsRegister(X, Intrinsic::nvvm_read_ptx_sreg_ntid_x)));
}

/// threadIdx.x + blockIdx.x * blockDim.x, in either order, through casts:
/// the thread's index in a one-dimensional grid.
bool isGridIndexX(const Value *V) {
  using namespace PatternMatch;
  while (const auto *Cast = dyn_cast<CastInst>(V))
    V = Cast->getOperand(0);
  const Value *A = nullptr, *B = nullptr;
  return match(V, m_c_Add(m_Value(A), m_Value(B))) &&
         ((readsRegister(A, Intrinsic::nvvm_read_ptx_sreg_tid_x) && isBlockOffsetX(B)) ||
          (readsRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_x) && isBlockOffsetX(A)));
}

/// An integer comparison of an index with a constant, in the model's words;
/// an index is never negative, so signed and unsigned comparisons agree.
std::optional<IndexCompare> indexCompareOf(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return IndexCompare::EQ;
  case CmpInst::ICMP_NE: return IndexCompare::NE;
  case CmpInst::ICMP_ULT: case CmpInst::ICMP_SLT: return IndexCompare::LT;
  case CmpInst::ICMP_ULE: case CmpInst::ICMP_SLE: return IndexCompare::LE;
  case CmpInst::ICMP_UGT: case CmpInst::ICMP_SGT: return IndexCompare::GT;
  case CmpInst::ICMP_UGE: case CmpInst::ICMP_SGE: return IndexCompare::GE;
  default: return std::nullopt;
  }
}

/// The one block whose threads see \p Cond come out \p WhenTrue, as the AST
/// front end reads if (blockIdx.x == C) and its negations.
/// blockIdx.x is one of the operands of \p V, an or (of ors).
bool orOfBlockIndex(const Value *V, unsigned Depth = 0) {
  const auto *Or = dyn_cast<BinaryOperator>(V);
  if (!Or || Or->getOpcode() != Instruction::Or || Depth > 4)
    return false;
  return any_of(Or->operands(),
                [&](const Value *Part) { return isBlockIndexX(Part) || orOfBlockIndex(Part, Depth + 1); });
}

std::optional<int64_t> pinnedBlock(const Value *Cond, bool WhenTrue, unsigned Depth = 0) {
  if (Depth > 8)
    return std::nullopt;
  using namespace PatternMatch;
  const Value *A, *B;
  if (match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))) || match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
    bool And = match(Cond, m_LogicalAnd(m_Value(), m_Value()));
    if (And != WhenTrue)
      return std::nullopt;
    if (std::optional<int64_t> C = pinnedBlock(A, WhenTrue, Depth + 1))
      return C;
    return pinnedBlock(B, WhenTrue, Depth + 1);
  }
  if (match(Cond, m_Not(m_Value(A))))
    return pinnedBlock(A, !WhenTrue, Depth + 1);
  const auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return std::nullopt;
  CmpInst::Predicate P = Cmp->getPredicate();
  const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  if (isa<ConstantInt>(L)) {
    std::swap(L, R);
    P = CmpInst::getSwappedPredicate(P);
  }
  // -O2 moves the block's part across: tid + ctaid * ntid == 0 becomes
  // tid == 0 - ctaid * ntid.
  if (CmpInst::isEquality(P))
    for (int Turn = 0; Turn < 2; ++Turn, std::swap(L, R)) {
      using namespace PatternMatch;
      const Value *Offset = nullptr;
      if (readsRegister(L, Intrinsic::nvvm_read_ptx_sreg_tid_x) && match(R, m_Sub(m_Zero(), m_Value(Offset))) &&
          isBlockOffsetX(Offset))
        return gridIndexPinnedBy(P == CmpInst::ICMP_EQ ? IndexCompare::EQ : IndexCompare::NE, 0, WhenTrue);
    }
  const auto *C = dyn_cast<ConstantInt>(R);
  if (!C)
    return std::nullopt;
  // -O2 folds blockIdx.x == 0 && threadIdx.x == 0 into (ctaid | tid) == 0:
  // every operand of the or is 0 when it holds, some is not when it fails.
  if (const auto *Or = dyn_cast<BinaryOperator>(L);
      Or && Or->getOpcode() == Instruction::Or && C->isZero() && CmpInst::isEquality(P)) {
    if ((P == CmpInst::ICMP_EQ) != WhenTrue)
      return std::nullopt;
    return orOfBlockIndex(Or) ? blockPinnedBy(IndexCompare::EQ, 0, true) : std::nullopt;
  }
  bool GridIndex = !isBlockIndexX(L) && isGridIndexX(L);
  if (!isBlockIndexX(L) && !GridIndex)
    return std::nullopt;
  std::optional<IndexCompare> Op = indexCompareOf(P);
  if (!Op || C->isNegative() || C->getBitWidth() > 64)
    return std::nullopt;
  return GridIndex ? gridIndexPinnedBy(*Op, C->getSExtValue(), WhenTrue) : blockPinnedBy(*Op, C->getSExtValue(), WhenTrue);
}

/// \p I sits in a loop over the grid's blocks: one of its exits compares
/// with the grid's size (MemOp::GridLoop).
bool inLoopOverGrid(const Instruction *I, const LoopInfo &LI) {
  for (const Loop *L = LI.getLoopFor(I->getParent()); L; L = L->getParentLoop()) {
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    for (const BasicBlock *B : Exiting)
      if (const auto *Br = dyn_cast<BranchInst>(B->getTerminator()); Br && Br->isConditional())
        if (const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
            Cmp && (readsGridSize(Cmp->getOperand(0)) || readsGridSize(Cmp->getOperand(1))))
          return true;
  }
  return false;
}

/// The bound a dominating branch on threadIdx.x puts on the threads that run
/// \p I (if (threadIdx.x < 32)): -1 for none; \p Group the size of the
/// groups it counts ranks of, where it reads a tile's rank (ThreadBound).
int threadBelow(const Instruction *I, const FunctionOrder &O, int &Group) {
  const DominatorTree &DT = O.domTree();
  const DomTreeNode *N = DT.getNode(I->getParent());
  std::optional<ThreadBound> Below;
  Group = 0;
  for (const DomTreeNode *Up = N ? N->getIDom() : nullptr; Up; Up = Up->getIDom()) {
    const auto *Br = dyn_cast<BranchInst>(Up->getBlock()->getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    const Loop *In = O.loops().getLoopFor(Up->getBlock());
    for (unsigned Succ = 0; Succ < 2; ++Succ) {
      // Leaving a loop is not a guard: every lane leaves it.
      if ((In && !In->contains(Br->getSuccessor(Succ))) ||
          !DT.dominates(BasicBlockEdge(Up->getBlock(), Br->getSuccessor(Succ)), I->getParent()))
        continue;
      SmallPtrSet<const Value *, 16> Seen;
      const bool LaneGuard = laneBits(Br->getCondition(), Seen) != 0;
      if (!Cmp) {
        if (LaneGuard)
          return UnknownThreadGuard;
        continue;
      }
      // tid < C on the true edge, tid >= C on the false edge; C > tid alike
      // (model: threadsBelow, as the AST front end reads it).
      CmpInst::Predicate P = Cmp->getPredicate();
      const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
      if (isa<ConstantInt>(L)) {
        std::swap(L, R);
        P = CmpInst::getSwappedPredicate(P);
      }
      const auto *C = dyn_cast<ConstantInt>(R);
      int64_t RankGroup = 0;
      std::optional<int64_t> K = threadIndexPlus(L, 0, &RankGroup);
      if (!C || !K || *K != 0 || C->isNegative() || C->getBitWidth() > 64) {
        if (LaneGuard)
          return UnknownThreadGuard;
        continue;
      }
      std::optional<IndexCompare> Op = indexCompareOf(P);
      std::optional<ThreadBound> Bounded =
          Op ? threadsBelow(*Op, C->getSExtValue(), Succ == 0, RankGroup) : std::nullopt;
      if (!Bounded)
        return UnknownThreadGuard; // tid >= C, tid != C: not a bound from above
      if (Bounded->Below >= 0 && Bounded->Below < (1 << 20))
        Below = Below ? bothBounds(*Below, *Bounded) : *Bounded;
    }
  }
  if (!Below)
    return -1;
  Group = static_cast<int>(Below->Group);
  return static_cast<int>(Below->Below);
}

/// The ticket (one of \p Tickets: counting updates whose draws are distinct,
/// drawsDistinctTickets, in no loop, each drawn once per launch) that \p V, when \p WhenTrue, says this block drew the
/// chosen value of, as the AST front end's electingTicket reads it: ticket ==
/// n - 1 with n the same at every use, through casts, a truth test, a
/// negation, a phi of such tests and false (bool last = false; if (tid == 0)
/// last = ...), and the block's vote __syncthreads_or(last).
const Instruction *electingTicket(const Value *V, bool WhenTrue, const DenseSet<const Instruction *> &Tickets,
                                  unsigned Depth = 0) {
  if (Depth > 8)
    return nullptr;
  while (isa<ZExtInst, TruncInst>(V))
    V = cast<CastInst>(V)->getOperand(0);
  if (const auto *Call = dyn_cast<CallBase>(V))
    return WhenTrue && Call->getIntrinsicID() == Intrinsic::nvvm_barrier_cta_red_or_aligned_all
               ? electingTicket(Call->getArgOperand(1), true, Tickets, Depth + 1)
               : nullptr;
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    const Instruction *Ticket = nullptr;
    for (const Value *In : Phi->incoming_values()) {
      if (const auto *C = dyn_cast<ConstantInt>(In); C && C->isZero())
        continue;
      const Instruction *T = WhenTrue ? electingTicket(In, true, Tickets, Depth + 1) : nullptr;
      if (!T || (Ticket && T != Ticket))
        return nullptr;
      Ticket = T;
    }
    return Ticket;
  }
  if (const auto *Not = dyn_cast<BinaryOperator>(V); Not && Not->getOpcode() == Instruction::Xor)
    if (const auto *C = dyn_cast<ConstantInt>(Not->getOperand(1)); C && C->isOne() && C->getBitWidth() == 1)
      return electingTicket(Not->getOperand(0), !WhenTrue, Tickets, Depth + 1);
  const auto *Cmp = dyn_cast<ICmpInst>(V);
  if (!Cmp || !Cmp->isEquality())
    return nullptr;
  const bool Eq = Cmp->getPredicate() == CmpInst::ICMP_EQ;
  for (unsigned Side = 0; Side < 2; ++Side) {
    const Value *X = Cmp->getOperand(Side), *Y = Cmp->getOperand(1 - Side);
    if (const auto *T = dyn_cast<Instruction>(X); T && Tickets.count(T))
      return Eq == WhenTrue && sameEveryUse(Y) ? T : nullptr;
    if (const auto *C = dyn_cast<ConstantInt>(Y); C && C->isZero()) // a truth test: last != 0
      if (const Instruction *T = electingTicket(X, Eq != WhenTrue, Tickets, Depth + 1))
        return T;
  }
  return nullptr;
}

/// The first answer \p Test gives, from the nearest dominating branch out,
/// for the condition of a branch whose edge dominates \p I and the value it
/// has on that edge: what every run of \p I has been decided by.
template <typename T, typename Fn> T dominatingTest(const Instruction *I, const FunctionOrder &O, Fn Test) {
  const DominatorTree &DT = O.domTree();
  const DomTreeNode *N = DT.getNode(I->getParent());
  for (const DomTreeNode *Up = N ? N->getIDom() : nullptr; Up; Up = Up->getIDom()) {
    const auto *Br = dyn_cast<BranchInst>(Up->getBlock()->getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    for (unsigned Succ = 0; Succ < 2; ++Succ)
      if (DT.dominates(BasicBlockEdge(Up->getBlock(), Br->getSuccessor(Succ)), I->getParent()))
        if (T Answer = Test(Br->getCondition(), Succ == 0))
          return Answer;
  }
  return T();
}

/// The ticket that elects the one block that runs \p I: a branch on an
/// electing test (electingTicket) that dominates it.
const Instruction *electedBy(const Instruction *I, const FunctionOrder &O,
                             const DenseSet<const Instruction *> &Tickets) {
  if (Tickets.empty())
    return nullptr;
  return dominatingTest<const Instruction *>(
      I, O, [&](const Value *Cond, bool WhenTrue) { return electingTicket(Cond, WhenTrue, Tickets); });
}

/// The one block that runs \p I: a branch on blockIdx.x that dominates it.
int onlyBlock(const Instruction *I, const FunctionOrder &O) {
  std::optional<int64_t> C = dominatingTest<std::optional<int64_t>>(I, O, [](const Value *Cond, bool WhenTrue) {
    return pinnedBlock(Cond, WhenTrue);
  });
  return C ? static_cast<int>(*C) : -1;
}

} // namespace

IrRecords::IrRecords(const Module &M, const StringSet<> &OneBlock, const StringSet<> &Overlaps) {
  DenseMap<std::pair<const Value *, int64_t>, int> ObjectId;
  StringMap<int> ElementId, SegmentId, LaneBaseId, BlockPartId;
  DenseMap<std::pair<unsigned, const Function *>, unsigned> ThreadId;
  DenseMap<const Instruction *, int> ElectionId;
  for (const Function &F : M) {
    if (!isKernel(F))
      continue;
    const unsigned Context = Kernels.size();
    Kernels.push_back(&F);
    const bool LaunchedOneBlock = OneBlock.count(F.getName()) && !Overlaps.count(F.getName());
    const bool GridsOverlap = Overlaps.count(F.getName());
    const unsigned First = IROps.size();
    for (IROp &Op : collectDeviceOps(F))
      IROps.push_back(std::move(Op));
    const unsigned Last = IROps.size();
    const Instruction *Previous = nullptr;
    unsigned Within = 0;
    std::vector<ValueTest> Tests(Last - First, ValueTest::None);
    // The tickets a block draws once per launch: distinct draws in no loop.
    DenseSet<const Instruction *> Tickets;
    for (unsigned I = First; I < Last; ++I) {
      const IROp &Op = IROps[I];
      if (Op.What == OpKind::RMW && drawsDistinctTickets(Op.Spelling, Op.Operand) &&
          !orderOf(Op.I->getFunction()).loops().getLoopFor(Op.I->getParent()))
        Tickets.insert(Op.I);
    }
    for (unsigned I = First; I < Last; ++I) {
      IROp &Op = IROps[I];
      // A copy's read that its callee returns is tested where the caller
      // tests the call's result (while (loadWith(flag, ord) == 0)).
      std::optional<IROp> AtCall;
      if (Op.What == OpKind::Load || Op.What == OpKind::RMW) {
        std::tie(Op.Test, Tests[I - First]) = testedAt(First, Last, Op, &Op.AgainstGrid, &Op.GoalVaries, &Op.GoalIsGrid);
        if (!Op.Test && Op.Site && returnedBy(*Op.I)) {
          AtCall = Op;
          AtCall->I = Op.Site;
          AtCall->Site = nullptr;
          std::tie(Op.Test, Tests[I - First]) =
              testedAt(First, Last, *AtCall, &Op.AgainstGrid, &Op.GoalVaries, &Op.GoalIsGrid);
          AtCall->Test = Op.Test;
        }
      }
      const IROp &Tested = AtCall && Op.Test ? *AtCall : Op;
      const Function *Fn = Op.I->getFunction();
      // A copy at a call runs in the caller's order, on the call's arguments.
      BindCallArguments Bind(Op.Site);
      MemOp R;
      R.What = Op.What;
      R.Ord = Op.Ord;
      if (Op.Ord != Order::Plain)
        R.S = Op.ScopeQual;
      R.Space = Op.Space;
      R.Home = homeOf(Op);
      R.Peer = Op.Multicast || Op.Transfer || (Op.Address && peerAddress(*Op.I, Op.Address));
      if (Op.Object) {
        int64_t Field = Op.Address ? fieldOffset(Op.Address, M.getDataLayout()) : -1;
        R.Object = ObjectId.try_emplace({Op.Object, Field}, ObjectId.size()).first->second;
        IndexDeps Deps;
        std::string Text = canonical(Op.Address, Deps);
        R.Element = ElementId.try_emplace(Text, ElementId.size()).first->second;
        R.FixedAddress = fixedAddress(Op.Address);
        R.ThreadPrivate = Deps.Block && Deps.Thread;
        R.ThreadApart = Deps.ThreadVaries;
        bool WarpApart = false;
        if (std::string Segment = blockSegment(Op.Address, WarpApart); !Segment.empty()) {
          R.Segment = SegmentId.try_emplace(Segment, SegmentId.size()).first->second;
          R.WarpSegment = WarpApart;
        }
        if (std::string Part = blockPartOf(Op.Address); !Part.empty())
          R.BlockPart = BlockPartId.try_emplace(Part, BlockPartId.size()).first->second;
      }
      R.PerBlock = Op.PerBlock;
      R.OnlyBlock = GridsOverlap ? -1 : onlyBlock(Op.I, orderOf(Fn));
      if (R.OnlyBlock < 0 && Op.Site && !GridsOverlap)
        R.OnlyBlock = onlyBlock(Op.Site, orderOf(Op.Site->getFunction()));
      if (R.OnlyBlock < 0 && LaunchedOneBlock)
        R.OnlyBlock = 0;
      if (const Instruction *Ticket = GridsOverlap ? nullptr : electedBy(Op.I, orderOf(Fn), Tickets))
        R.ElectedBy = ElectionId.try_emplace(Ticket, ElectionId.size()).first->second;
      R.Context = Context;
      R.RunBy = Runner::Kernel;
      const Instruction *At = Op.Site ? Op.Site : Op.I;
      R.Thread = ThreadId.try_emplace({Context, At->getFunction()}, ThreadId.size()).first->second;
      // Several PTX instructions of one asm statement follow each other, and
      // so do the copies at one call, after the call's own operation.
      // (An alternative object of one merged access is the same step.)
      if (!Op.Alternative)
        Within = At == Previous ? Within + 1 : 0;
      Previous = At;
      R.Seq = orderOf(At->getFunction()).number(At) * 256 + std::min(Within, 255u);
      R.Tested = Op.Test != nullptr;
      R.Test = Tests[I - First];
      R.Counts = Op.What == OpKind::RMW && countsArrivals(Op.Spelling, Op.Operand);
      R.ValueUnused = Op.What == OpKind::RMW && Op.I->use_empty();
      R.WritesNothing = Op.What == OpKind::RMW && writesNothing(Op.Spelling, Op.Operand);
      R.AgainstGrid = Op.AgainstGrid;
      R.GoalVaries = Op.GoalVaries;
      R.GoalIsGrid = Op.GoalIsGrid;
      R.Opaque = Op.Opaque;
      R.FenceCall = Op.FenceCall;
      const FunctionOrder &TestOrder = orderOf(Tested.I->getFunction());
      R.Spins = Op.Test && spinLoopOf(Op.Test, Tested.I, TestOrder);
      if (R.Spins)
        R.PassWhen = spinExit(Tested, TestOrder);
      if (R.writes())
        R.Stored = Op.Stored;
      R.GridLoop = inLoopOverGrid(Op.I, orderOf(Fn).loops());
      if (R.isAccess())
        if (std::optional<LaneAddress> K = laneOffsetOf(Op.Address, M.getDataLayout())) {
          R.HasLaneOffset = true;
          R.LaneOffset = K->Offset;
          R.LaneBase = LaneBaseId.try_emplace(K->Base, LaneBaseId.size()).first->second;
        }
      R.ThreadBelow = threadBelow(Op.I, orderOf(Fn), R.RankGroup);
      if (R.ThreadBelow == -1 && Op.Site)
        R.ThreadBelow = threadBelow(Op.Site, orderOf(Op.Site->getFunction()), R.RankGroup);
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

std::pair<const Instruction *, ValueTest> IrRecords::testedAt(unsigned First, unsigned Last, const IROp &Op,
                                                              bool *AgainstGrid, bool *GoalVaries,
                                                              bool *GoalIsGrid) const {
  // At the read itself, or, when the value is relayed through memory (the
  // last-block ticket stores it to a __shared__ bool, then every thread tests
  // it after __syncthreads()), at the load of the relay that decides a branch.
  SmallVector<std::pair<const Value *, ValueTest>, 2> Relays;
  const Instruction *Guard = nullptr;
  if (std::optional<ValueTest> T = testOf(Op.I, &Relays, &Guard, AgainstGrid, GoalVaries, GoalIsGrid)) {
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
          if (testOf(L.I, nullptr, &RelayGuard, AgainstGrid, GoalVaries, GoalIsGrid) && RelayGuard)
            return {RelayGuard, *T};
        }
      }
    return {Guard, *T};
  }
  for (auto [Relay, Compare] : Relays)
    for (unsigned I = First; I < Last; ++I) {
      const IROp &L = IROps[I];
      if (L.What != OpKind::Load || !readsRelay(L, Relay) || !orderOf(Op.I->getFunction()).mayPrecede(Op.I, L.I))
        continue;
      if (std::optional<ValueTest> T = testOf(L.I, nullptr, &Guard, AgainstGrid, GoalVaries, GoalIsGrid))
        return {Guard, Compare != ValueTest::None ? Compare : *T};
    }
  return {nullptr, ValueTest::None};
}

// Two copies at one call (IROp::Site), or two of a function's own, are
// ordered by where they are; others by where each runs: a copy at its call.
static const Instruction *anchor(const IROp &X, const IROp &Y) { return X.Site == Y.Site ? X.I : X.Site ? X.Site : X.I; }

bool IrRecords::mayPrecede(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  const Instruction *PX = anchor(X, Y), *PY = anchor(Y, X);
  if (PX == PY)
    return Ops[A].Seq < Ops[B].Seq;
  return PX->getFunction() == PY->getFunction() && orderOf(PX->getFunction()).mayPrecedeOnOpenPath(PX, PY);
}

bool IrRecords::afterTest(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  if (!X.Test)
    return false;
  if (X.Site != Y.Site) {
    // A wait in a callee decides what runs after the call: the callee
    // returns only past its spin. What a test in the caller guards, the
    // call's copies run under too.
    const Instruction *PX = anchor(X, Y), *PY = anchor(Y, X);
    if (X.Site)
      return Ops[A].Spins && PX->getFunction() == PY->getFunction() && PX != PY &&
             orderOf(PX->getFunction()).mayPrecede(PX, PY);
    return PY->getFunction() == X.Test->getFunction() && X.Test != PY &&
           orderOf(PY->getFunction()).guardedBy(X.Test, PY);
  }
  if (X.Test->getFunction() != Y.I->getFunction())
    return false;
  // A select decides a value, not what runs.
  return X.Test != Y.I && orderOf(X.I->getFunction()).guardedBy(X.Test, Y.I);
}

bool IrRecords::alwaysBefore(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  if (!mayPrecede(A, B))
    return false;
  const Instruction *PX = anchor(X, Y), *PY = anchor(Y, X);
  return PX == PY || orderOf(PX->getFunction()).domTree().dominates(PX, PY);
}

bool IrRecords::inCommonLoop(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  const Instruction *PX = anchor(X, Y), *PY = anchor(Y, X);
  if (PX->getFunction() != PY->getFunction())
    return false;
  const LoopInfo &LI = orderOf(PX->getFunction()).loops();
  for (const Loop *L = LI.getLoopFor(PX->getParent()); L; L = L->getParentLoop())
    if (L->contains(PY->getParent()))
      return true;
  return false;
}

bool IrRecords::inSpinLoop(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  if (X.Site != Y.Site || X.I->getFunction() != Y.I->getFunction() || !X.Test)
    return inCommonLoop(A, B);
  // The innermost loop around the read in which its test makes the thread
  // read again (spinLoopOf).
  if (const SpinLoop L = spinLoopOf(X.Test, X.I, orderOf(X.I->getFunction())))
    return L.contains(Y.I->getParent());
  return inCommonLoop(A, B);
}

} // namespace cuda_scope
