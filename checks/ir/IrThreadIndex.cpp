//===- IrThreadIndex.cpp - which thread a value names, for the pass -------===//
//
// The IR side of the facts model/MemoryModel decides of a thread's index: a
// value that is threadIdx.x plus a constant (the lane, the block's linear
// index and a tile's rank among them), and the bits of a value that may
// differ between a warp's lanes, as -O2 leaves them, and a loop's variable
// that walks its owner's range. clang-tidy reads the same from the AST
// (memory/ThreadIndex.cpp, memory/IndexText.cpp).
//
//===----------------------------------------------------------------------===//
#include "IrAddresses.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace cuda_scope {
namespace ir {

static bool isRegister(const Value *X, Intrinsic::ID ID) {
  const auto *II = dyn_cast<IntrinsicInst>(X);
  return II && II->getIntrinsicID() == ID;
}

/// \p V reads only threadIdx.y, threadIdx.z and blockDim.y, by + and *.
static bool readsOnlyOtherDimensions(const Value *V, unsigned Depth = 0) {
  if (Depth > 6)
    return false;
  if (const auto *Cast = dyn_cast<ZExtInst>(V))
    return readsOnlyOtherDimensions(Cast->getOperand(0), Depth + 1);
  if (isRegister(V, Intrinsic::nvvm_read_ptx_sreg_tid_y) || isRegister(V, Intrinsic::nvvm_read_ptx_sreg_tid_z) ||
      isRegister(V, Intrinsic::nvvm_read_ptx_sreg_ntid_y))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(V);
  return BO && (BO->getOpcode() == Instruction::Add || BO->getOpcode() == Instruction::Mul) &&
         readsOnlyOtherDimensions(BO->getOperand(0), Depth + 1) &&
         readsOnlyOtherDimensions(BO->getOperand(1), Depth + 1);
}

/// \p V is blockDim.x times what reads only the other dimensions: the
/// threads of the rows before the thread's in the block's linear index.
static bool isRowsBeforeThread(const Value *V) {
  if (const auto *Cast = dyn_cast<ZExtInst>(V))
    V = Cast->getOperand(0);
  const auto *Mul = dyn_cast<BinaryOperator>(V);
  if (!Mul || Mul->getOpcode() != Instruction::Mul)
    return false;
  for (unsigned I = 0; I < 2; ++I)
    if (isRegister(Mul->getOperand(I), Intrinsic::nvvm_read_ptx_sreg_ntid_x) &&
        readsOnlyOtherDimensions(Mul->getOperand(1 - I)))
      return true;
  return false;
}

std::optional<int64_t> threadIndexPlus(const Value *V, unsigned Depth, int64_t *Group) {
  if (Depth > 8)
    return std::nullopt;
  if (const auto *Cast = dyn_cast<CastInst>(V))
    return threadIndexPlus(Cast->getOperand(0), Depth + 1, Group);
  if (const auto *II = dyn_cast<IntrinsicInst>(V); II && (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x ||
                                                          II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_laneid))
    return 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
    // The lane (threadIdx.x & 31, threadIdx.x % 32) keeps a warp's lanes apart as the index does;
    // a rank in smaller or larger aligned groups (a tile's thread_rank()) where the caller reads it.
    if (const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
        C && C->getBitWidth() <= 64 && (BO->getOpcode() == Instruction::And || BO->getOpcode() == Instruction::URem))
      if (std::optional<int64_t> G = rankGroupOf(C->getSExtValue(), BO->getOpcode() == Instruction::And);
          G && (*G == 0 || Group))
        if (std::optional<int64_t> K = threadIndexPlus(BO->getOperand(0), Depth + 1); K && *K == 0) {
          if (Group)
            *Group = *G;
          return 0;
        }
    // The block's linear index: threadIdx.x + blockDim.x * (threadIdx.y + ...).
    const bool Add = BO->getOpcode() == Instruction::Add ||
                     (BO->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(BO)->isDisjoint());
    if (Add)
      for (unsigned I = 0; I < 2; ++I)
        if (isRowsBeforeThread(BO->getOperand(1 - I)))
          if (std::optional<int64_t> K = threadIndexPlus(BO->getOperand(I), Depth + 1); K && *K == 0)
            return 0;
    if (!Add && BO->getOpcode() != Instruction::Sub)
      return std::nullopt;
    const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    const Value *Other = BO->getOperand(0);
    if (!C && Add) {
      C = dyn_cast<ConstantInt>(BO->getOperand(0));
      Other = BO->getOperand(1);
    }
    if (!C || C->getBitWidth() > 64)
      return std::nullopt;
    std::optional<int64_t> Base = threadIndexPlus(Other, Depth + 1);
    if (!Base)
      return std::nullopt;
    return Add ? *Base + C->getSExtValue() : *Base - C->getSExtValue();
  }
  return std::nullopt;
}

/// The bits of \p V that may differ between the lanes of a warp: those that
/// depend on the low bits of threadIdx.x (the lane), through shifts, masks,
/// casts and arithmetic (whose carries move the dependence upward only);
/// everything for what cannot be followed (memory, calls, threadIdx.y).
uint64_t laneBits(const Value *V, SmallPtrSetImpl<const Value *> &Seen, unsigned Depth) {
  constexpr uint64_t All = ~uint64_t(0), Lane = WarpLanes - 1;
  auto Upward = [](uint64_t M) { return M ? ~((M & -M) - 1) : 0; }; // from the lowest dependent bit up
  if (Depth > 16)
    return All;
  if (isa<Constant>(V) || isa<Argument>(V) || !Seen.insert(V).second)
    return 0;
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    if (isBlockRegister(II->getIntrinsicID()))
      return 0;
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    case Intrinsic::nvvm_read_ptx_sreg_laneid: return Lane;
    case Intrinsic::nvvm_read_ptx_sreg_warpid: return 0;
    default: return All;
    }
  }
  if (const auto *Cast = dyn_cast<CastInst>(V)) {
    uint64_t M = laneBits(Cast->getOperand(0), Seen, Depth + 1);
    unsigned Bits = Cast->getType()->getScalarSizeInBits();
    return Bits && Bits < 64 ? M & ((uint64_t(1) << Bits) - 1) : M;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
    uint64_t L = laneBits(BO->getOperand(0), Seen, Depth + 1), R = laneBits(BO->getOperand(1), Seen, Depth + 1);
    const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    uint64_t K = C && C->getBitWidth() <= 64 ? C->getZExtValue() : 0;
    switch (BO->getOpcode()) {
    case Instruction::Shl: return C && K < 64 ? L << K : Upward(L | R);
    case Instruction::LShr:
    case Instruction::AShr: return C && K < 64 ? L >> K : (L | R ? All : 0);
    case Instruction::UDiv: return C && K && isPowerOf2_64(K) ? L >> Log2_64(K) : (L | R ? All : 0);
    case Instruction::And: return C ? L & K : L | R;
    case Instruction::Or:
    case Instruction::Xor: return L | R;
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul: return C && BO->getOpcode() == Instruction::Mul && K && isPowerOf2_64(K)
                                      ? L << Log2_64(K)
                                      : Upward(L | R);
    default: return L | R ? All : 0;
    }
  }
  if (isa<SelectInst>(V) || isa<PHINode>(V) || isa<CmpInst>(V)) {
    uint64_t M = 0;
    for (const Value *Op : cast<Instruction>(V)->operands())
      M |= laneBits(Op, Seen, Depth + 1);
    return isa<CmpInst>(V) && M ? 1 : M;
  }
  return All;
}

/// The blocks of the loop whose back edge runs from \p Latch to \p Header:
/// the header and every block that reaches the latch without passing it.
static SmallPtrSet<const BasicBlock *, 16> loopBlocks(const BasicBlock *Header, const BasicBlock *Latch) {
  SmallPtrSet<const BasicBlock *, 16> Loop{Header};
  SmallVector<const BasicBlock *, 16> Work{Latch};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (Loop.insert(BB).second)
      append_range(Work, predecessors(BB));
  }
  return Loop;
}

/// Whether \p V decides a branch that leaves \p Loop, itself or through
/// the logic, casts and warp votes -O2 puts between a test and its branch.
static bool endsLoop(const Value *V, const SmallPtrSetImpl<const BasicBlock *> &Loop, unsigned Depth = 0) {
  if (Depth > 6)
    return false;
  for (const User *U : V->users()) {
    if (const auto *Br = dyn_cast<BranchInst>(U)) {
      if (Br->isConditional() && Loop.contains(Br->getParent()) &&
          any_of(successors(Br), [&](const BasicBlock *S) { return !Loop.contains(S); }))
        return true;
      continue;
    }
    const auto *I = dyn_cast<Instruction>(U);
    const auto *Vote = dyn_cast<IntrinsicInst>(U);
    bool Passes = I && (isa<SelectInst>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<FreezeInst>(I) ||
                        (isa<BinaryOperator>(I) && I->getType()->isIntegerTy(1)));
    bool Votes = Vote && Vote->getCalledFunction() && Vote->getCalledFunction()->getName().starts_with("llvm.nvvm.vote");
    if ((Passes || Votes) && endsLoop(U, Loop, Depth + 1))
      return true;
  }
  return false;
}

std::optional<RangeWalk> rangeWalk(const PHINode *Phi, unsigned Depth) {
  // A bound read through the variable itself is no bound.
  static SmallPtrSet<const PHINode *, 4> Walking;
  if (Phi->getNumIncomingValues() != 2 || Depth > 20 || !Walking.insert(Phi).second)
    return std::nullopt;
  llvm::scope_exit Done([&] { Walking.erase(Phi); });
  for (unsigned Start = 0; Start < 2; ++Start) {
    const auto *Back = dyn_cast<BinaryOperator>(Phi->getIncomingValue(1 - Start));
    if (!Back || (Back->getOpcode() != Instruction::Add && Back->getOpcode() != Instruction::Sub))
      continue;
    const Value *Step = Back->getOperand(0) == Phi ? Back->getOperand(1)
                        : Back->getOperand(1) == Phi && Back->getOpcode() == Instruction::Add ? Back->getOperand(0)
                                                                                              : nullptr;
    if (!Step)
      continue;
    IndexDeps StepDeps, Bound, StartDeps;
    canonical(Step, StepDeps, Depth + 1);
    // Compared with a bound its owner owns (j < rowStart[v + 1]) by a test
    // that leaves the loop, as clang-tidy reads the loop's condition or an
    // if that breaks out of it.
    SmallPtrSet<const BasicBlock *, 16> Loop = loopBlocks(Phi->getParent(), Phi->getIncomingBlock(1 - Start));
    bool Bounded = false;
    for (const Value *Walked : {static_cast<const Value *>(Phi), static_cast<const Value *>(Back)})
      for (const User *U : Walked->users())
        if (const auto *Cmp = dyn_cast<ICmpInst>(U); Cmp && !Bounded &&
                                                      (Cmp->isRelational() || Cmp->getPredicate() == ICmpInst::ICMP_NE) &&
                                                      endsLoop(Cmp, Loop)) {
          // -O2 joins two exits (j < total, j >= stop breaks) into one
          // test against their min (max for a walk down): either bounds it.
          const Value *Other = Cmp->getOperand(Cmp->getOperand(0) == Walked ? 1 : 0);
          SmallVector<const Value *, 2> Bounds{Other};
          if (const auto *MM = dyn_cast<MinMaxIntrinsic>(Other);
              MM && (Back->getOpcode() == Instruction::Add) == (MM->getPredicate() == ICmpInst::ICMP_SLT ||
                                                                MM->getPredicate() == ICmpInst::ICMP_ULT))
            Bounds.assign({MM->getLHS(), MM->getRHS()});
          for (const Value *B : Bounds) {
            IndexDeps D;
            canonical(B, D, Depth + 1);
            if (D.Block && !Bounded) {
              Bound = D;
              Bounded = true;
            }
          }
        }
    if (!Bounded)
      continue;
    canonical(Phi->getIncomingValue(Start), StartDeps, Depth + 1);
    if (std::optional<IndexDeps> Walk = rangeIndex(StartDeps, StepDeps, Bound))
      return RangeWalk{*Walk, Phi->getIncomingValue(Start)};
  }
  return std::nullopt;
}

std::optional<std::string> rangeRow(const Value *Index) {
  while (const auto *Cast = dyn_cast<CastInst>(Index))
    Index = Cast->getOperand(0);
  const auto *Phi = dyn_cast<PHINode>(Index);
  std::optional<RangeWalk> Walk = Phi ? rangeWalk(Phi, 0) : std::nullopt;
  if (!Walk)
    return std::nullopt;
  auto Owned = [](const Value *V) -> std::optional<std::string> {
    IndexDeps D;
    std::string Text = canonical(V, D);
    return D.Block ? std::optional<std::string>(Text) : std::nullopt;
  };
  const auto *Sum = dyn_cast<BinaryOperator>(Walk->Start);
  if (Sum && (Sum->getOpcode() == Instruction::Add || Sum->getOpcode() == Instruction::Sub)) {
    std::optional<std::string> L = Owned(Sum->getOperand(0)), R = Owned(Sum->getOperand(1));
    if (L.has_value() == R.has_value())
      return std::nullopt;
    return L ? L : Sum->getOpcode() == Instruction::Add ? R : std::nullopt;
  }
  return Owned(Walk->Start);
}

//===----------------------------------------------------------------------===//
// Block tests
//===----------------------------------------------------------------------===//

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

/// \p V read through widenings (a narrowing changes the value compared).
static const Value *widened(const Value *V) {
  while (isa<ZExtInst, SExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// The axis of blockIdx that \p V reads.
static std::optional<unsigned> blockAxis(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(widened(V));
  switch (II ? II->getIntrinsicID() : Intrinsic::not_intrinsic) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return 0;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return 1;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return 2;
  default: return std::nullopt;
  }
}

/// blockIdx.x * blockDim.x, in either order: where the block's threads start
/// in a one-dimensional grid.
static bool isBlockOffsetX(const Value *V) {
  using namespace PatternMatch;
  const Value *X = nullptr, *Y = nullptr;
  return match(widened(V), m_c_Mul(m_Value(X), m_Value(Y))) &&
         ((blockAxis(X) == 0u && isRegister(widened(Y), Intrinsic::nvvm_read_ptx_sreg_ntid_x)) ||
          (blockAxis(Y) == 0u && isRegister(widened(X), Intrinsic::nvvm_read_ptx_sreg_ntid_x)));
}

/// threadIdx.x + blockIdx.x * blockDim.x, in either order: the thread's
/// index in a one-dimensional grid.
static bool isGridIndexX(const Value *V) {
  using namespace PatternMatch;
  const Value *A = nullptr, *B = nullptr;
  return match(widened(V), m_c_Add(m_Value(A), m_Value(B))) &&
         ((isRegister(widened(A), Intrinsic::nvvm_read_ptx_sreg_tid_x) && isBlockOffsetX(B)) ||
          (isRegister(widened(B), Intrinsic::nvvm_read_ptx_sreg_tid_x) && isBlockOffsetX(A)));
}

/// X == 0 (\p Eq) or X != 0, where X may be an | of values: all zero, or
/// one not.
static BlockCondition zeroTest(const Value *X, bool Eq, function_ref<bool(const Value *)> Varies, unsigned Depth) {
  if (std::optional<unsigned> Axis = blockAxis(X))
    return BlockCondition::coordinate(*Axis, Eq ? IndexCompare::EQ : IndexCompare::NE, 0);
  const auto *Or = dyn_cast<BinaryOperator>(X);
  if (!Or || Or->getOpcode() != Instruction::Or || Depth > 8)
    return BlockCondition::other(Varies(X));
  BlockCondition A = zeroTest(Or->getOperand(0), Eq, Varies, Depth + 1);
  BlockCondition B = zeroTest(Or->getOperand(1), Eq, Varies, Depth + 1);
  return Eq ? BlockCondition::both(std::move(A), std::move(B)) : BlockCondition::either(std::move(A), std::move(B));
}

static BlockCondition blockConditionOf(const Value *Cond, function_ref<bool(const Value *)> Varies, unsigned Depth) {
  using namespace PatternMatch;
  const Value *A = nullptr, *B = nullptr;
  if (Depth > 8)
    return BlockCondition::other(Varies(Cond));
  if (match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return BlockCondition::both(blockConditionOf(A, Varies, Depth + 1), blockConditionOf(B, Varies, Depth + 1));
  if (match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    return BlockCondition::either(blockConditionOf(A, Varies, Depth + 1), blockConditionOf(B, Varies, Depth + 1));
  if (match(Cond, m_Not(m_Value(A))))
    return blockConditionOf(A, Varies, Depth + 1).negated();
  const auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return BlockCondition::other(Varies(Cond));
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
      const Value *Offset = nullptr;
      if (isRegister(widened(L), Intrinsic::nvvm_read_ptx_sreg_tid_x) &&
          match(R, m_Sub(m_Zero(), m_Value(Offset))) && isBlockOffsetX(Offset))
        return BlockCondition::gridIndex(P == CmpInst::ICMP_EQ ? IndexCompare::EQ : IndexCompare::NE, 0);
    }
  const auto *C = dyn_cast<ConstantInt>(R);
  std::optional<IndexCompare> Op = indexCompareOf(P);
  if (!C || !Op || C->getBitWidth() > 64)
    return BlockCondition::other(Varies(Cond));
  if (std::optional<unsigned> Axis = blockAxis(L))
    return BlockCondition::coordinate(*Axis, *Op, C->getSExtValue());
  // -O2 folds blockIdx.x == 0 && threadIdx.x == 0 into (ctaid | tid) == 0.
  if (C->isZero() && CmpInst::isEquality(P))
    if (const auto *Or = dyn_cast<BinaryOperator>(L); Or && Or->getOpcode() == Instruction::Or)
      return zeroTest(Or, P == CmpInst::ICMP_EQ, Varies, Depth + 1);
  if (isGridIndexX(L) && !C->isNegative())
    return BlockCondition::gridIndex(*Op, C->getSExtValue());
  return BlockCondition::other(Varies(Cond));
}

BlockCondition blockConditionOf(const Value *Cond, function_ref<bool(const Value *)> Varies) {
  return blockConditionOf(Cond, Varies, 0);
}

} // namespace ir
} // namespace cuda_scope
