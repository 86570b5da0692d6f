//===- BlockDivergence.cpp - what threads of one block may decide differently ===//
#include "BlockDivergence.h"
#include "DeviceMemoryOps.h"
#include "IrAddresses.h"
#include "IrStaged.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace cuda_scope {

namespace {
/// A barrier of the whole block: __syncthreads() (and the _count/_and/_or
/// reductions), or inline bar.sync 0. The forms with a thread count are
/// named barriers of some warps, which only they reach by design.
std::optional<bool> wholeBlockBarrier(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return std::nullopt;
  if (const auto *Asm = dyn_cast<InlineAsm>(CB->getCalledOperand()))
    return isWholeBlockBarrierAsm(Asm->getAsmString()) ? std::optional<bool>(false) : std::nullopt;
  const Function *Callee = CB->getCalledFunction();
  if (!Callee)
    return std::nullopt;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_sync_aligned_all:
  case Intrinsic::nvvm_barrier_cta_sync_all:
    return false;
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
    return true;
  default:
    return std::nullopt;
  }
}

/// Threads of one block, or lanes of one warp.
enum class Level { Block, Warp };

/// A shuffle that gives every lane of a warp one lane's value (model:
/// isWarpBroadcast): the same for the warp's lanes where its source lane is.
bool warpBroadcast(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee || CB->arg_size() != 4)
    return false;
  std::optional<WarpSyncCall> W = warpSyncCall(Callee->getName());
  const auto *C = dyn_cast<ConstantInt>(CB->getArgOperand(3));
  return W && C && isWarpBroadcast(W->Name, static_cast<unsigned>(C->getZExtValue()));
}

/// A value threads of one block (lanes of one warp) may see differently, by
/// itself.
bool isSource(const Instruction &I, Level L) {
  if (L == Level::Warp && warpBroadcast(I))
    return false;
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return true;
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->getType()->isVoidTy())
    return false;
  if (const auto *Asm = dyn_cast<InlineAsm>(CB->getCalledOperand()))
    return blockVaryingAsm(Asm->getAsmString()).has_value() ||
           StringRef(Asm->getAsmString()).contains("atom."); // an atomic's result
  if (const Function *Callee = CB->getCalledFunction()) {
    if (L == Level::Warp && sameAcrossWarp(Callee->getName()))
      return false;
    return blockVaryingSource(Callee->getName()).has_value() ||
           (Callee->isIntrinsic() && Callee->getName().starts_with("llvm.nvvm.atomic"));
  }
  return false;
}

/// The thread's index (x), through casts.
bool isThreadIndexX(const Value *V) {
  while (const auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x;
}

/// Built of what lanes of one warp share, or of the thread's row in its
/// block (threadIdx.y, .z): block and grid registers, kernel arguments and
/// constants, through arithmetic, casts, comparisons and choices, loop
/// counters that step by them, and loads from such addresses; no call, no x
/// index.
/// Times a multiple of the warp size, a row is a whole number of warps:
/// threadIdx.x + blockDim.x * threadIdx.y is the linear index by which the
/// hardware forms warps.
bool rowIndex(const Value *X, const DominatorTree *DT) {
  SmallVector<const Value *, 8> Work{X};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *W = Work.pop_back_val();
    if (!Seen.insert(W).second || isa<Constant, Argument>(W))
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(W)) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ir::isBlockRegister(ID) || ID == Intrinsic::nvvm_read_ptx_sreg_tid_y ||
          ID == Intrinsic::nvvm_read_ptx_sreg_tid_z)
        continue;
      return false;
    }
    // What is loaded from such an address is one value for the warp, as the
    // divergence below takes a load (a field of a kernel's by-value object).
    const auto *I = dyn_cast<Instruction>(W);
    if (const auto *Ld = dyn_cast_or_null<LoadInst>(I)) {
      Work.push_back(Ld->getPointerOperand());
      continue;
    }
    // A loop's counter: a phi at a loop's head (it dominates the blocks its
    // other values come from) whose value on entry is one such value and
    // whose values around the loop are such values, itself taken to be one
    // (a grid-stride loop over blockIdx.y, and -O2's wider twin of it). In
    // each round its lanes hold one value. A phi that joins two arms' values
    // is not at the head of their loop.
    if (const auto *Phi = dyn_cast_or_null<PHINode>(I)) {
      const Value *Start = nullptr;
      bool Around = false;
      for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
        const Value *In = Phi->getIncomingValue(K);
        if (DT && DT->dominates(Phi->getParent(), Phi->getIncomingBlock(K))) {
          Around = true;
          Work.push_back(In);
          continue;
        }
        if (Start && Start != In)
          return false;
        Start = In;
      }
      if (!Start || !Around)
        return false;
      Work.push_back(Start);
      continue;
    }
    // A comparison of such values, and a choice between them by one (the
    // last block's share: blockIdx.x == gridDim.x - 1 ? n : end).
    if (!I || !isa<BinaryOperator, CastInst, GetElementPtrInst, CmpInst, SelectInst>(I))
      return false;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return true;
}

/// A multiple of the warp size that every lane of a warp computes alike: a
/// constant multiple, the block's size in x (taken to be one), a row index
/// times one, a shift left by 5 or more, sums of them (AST:
/// Varying::warpMultiple).
bool warpMultiple(const Value *V, const DominatorTree *DT, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  while (const auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return C->getBitWidth() <= 64 && isWarpMultiple(C->getSExtValue());
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_ntid_x;
  // Read by the warp from one address, of a __shared__ variable the kernel
  // stores only multiples in.
  if (const auto *Ld = dyn_cast<LoadInst>(V))
    return rowIndex(Ld->getPointerOperand(), DT) && storesWarpMultiples(*Ld);
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO)
    return false;
  const Value *A = BO->getOperand(0), *B = BO->getOperand(1);
  switch (BO->getOpcode()) {
  case Instruction::Mul:
    return (warpMultiple(A, DT, Depth + 1) && rowIndex(B, DT)) || (warpMultiple(B, DT, Depth + 1) && rowIndex(A, DT));
  case Instruction::Shl:
    if (const auto *C = dyn_cast<ConstantInt>(B))
      return isWarpMultipleShift(C->getSExtValue()) ? rowIndex(A, DT) : warpMultiple(A, DT, Depth + 1);
    return false;
  case Instruction::And:
    // x & -128, what -O2 makes of (x / 128) * 128.
    if (const auto *C = dyn_cast<ConstantInt>(B); C && C->getBitWidth() <= 64)
      return (C->getSExtValue() & (WarpSize - 1)) == 0 && rowIndex(A, DT);
    return false;
  case Instruction::Or: // an add of parts that share no bit (-O2's form of some adds)
    if (!cast<PossiblyDisjointInst>(BO)->isDisjoint())
      return false;
    return warpMultiple(A, DT, Depth + 1) && warpMultiple(B, DT, Depth + 1);
  case Instruction::Sub:
    // x - x % m, what -O2 makes of (x / m) * m: x rounded down to a
    // multiple of m.
    if (const auto *Rem = dyn_cast<BinaryOperator>(B);
        Rem && (Rem->getOpcode() == Instruction::URem || Rem->getOpcode() == Instruction::SRem) &&
        Rem->getOperand(0) == A && rowIndex(A, DT) && warpMultiple(Rem->getOperand(1), DT, Depth + 1))
      return true;
    [[fallthrough]];
  case Instruction::Add:
    return warpMultiple(A, DT, Depth + 1) && warpMultiple(B, DT, Depth + 1);
  default:
    return false;
  }
}

/// The lane read from the %laneid register: the intrinsic, or inline PTX
/// that reads only it (model: isLaneAsm), through integer casts.
bool readsLaneRegister(const Value *V) {
  while (isa<ZExtInst, SExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_laneid;
  const auto *Asm = isa<CallBase>(V) ? dyn_cast<InlineAsm>(cast<CallBase>(V)->getCalledOperand()) : nullptr;
  return Asm && isLaneAsm(Asm->getAsmString());
}

/// The thread's index, or it plus a multiple of the warp size that lanes
/// share (AST: Varying::laneInWarp); a loop's variable that starts so and
/// steps by such multiples (a grid-stride loop over blockDim.x * blocks).
/// The lane itself is one, with the multiple 0: %laneid, and what a
/// remainder by a multiple of the warp size keeps of such an index.
bool laneInWarp(const Value *V, const DominatorTree *DT, unsigned Depth = 0) {
  if (isThreadIndexX(V) || readsLaneRegister(V))
    return true;
  while (const auto *C = dyn_cast<CastInst>(V))
    V = C->getOperand(0);
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    if (Depth > 2)
      return false;
    bool Start = false;
    for (const Value *In : Phi->incoming_values()) {
      const auto *Step = dyn_cast<BinaryOperator>(In);
      if (Step && Step->getOpcode() == Instruction::Add &&
          ((Step->getOperand(0) == Phi && warpMultiple(Step->getOperand(1), DT)) ||
           (Step->getOperand(1) == Phi && warpMultiple(Step->getOperand(0), DT))))
        continue;
      if (!laneInWarp(In, DT, Depth + 1))
        return false;
      Start = true;
    }
    return Start;
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || Depth > 2)
    return false;
  // What a mask of at least the lane bits keeps of it (a tile of 128's rank,
  // linear & 127): the lane, plus a multiple of the warp size its lanes share.
  if (BO->getOpcode() == Instruction::And)
    if (const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1)); C && C->getBitWidth() <= 64)
      return isLaneBitsMask(C->getSExtValue()) && laneInWarp(BO->getOperand(0), DT, Depth + 1);
  if (BO->getOpcode() == Instruction::URem || BO->getOpcode() == Instruction::SRem)
    if (const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1)); C && C->getBitWidth() <= 64)
      return isLaneBitsDivisor(C->getSExtValue()) && laneInWarp(BO->getOperand(0), DT, Depth + 1);
  if (BO->getOpcode() != Instruction::Add &&
      !(BO->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(BO)->isDisjoint()))
    return false;
  return (laneInWarp(BO->getOperand(0), DT, Depth + 1) && warpMultiple(BO->getOperand(1), DT)) ||
         (laneInWarp(BO->getOperand(1), DT, Depth + 1) && warpMultiple(BO->getOperand(0), DT));
}

/// What the thread's index says of its warp is the same for every lane of
/// the warp (blocks whose size is a multiple of the warp size, as the
/// rule assumes): divided by the warp size (>> 5, / 32), its lane bits
/// cleared (& ~31) or taken away (x - (x & 31)), or compared with a multiple of it (tid < 32, which is
/// what -O2 makes of tid / 32 == 0).
bool warpOf(const Instruction &I, const DominatorTree *DT) {
  if (const auto *Cmp = dyn_cast<ICmpInst>(&I)) {
    if (!Cmp->isRelational())
      return false;
    // Against a multiple of the warp size that lanes share, computed or not
    // (i < blocks * blockDim.x): x < M and x >= M split whole warps.
    ICmpInst::Predicate P = Cmp->getPredicate();
    const Value *X = Cmp->getOperand(0), *M = Cmp->getOperand(1);
    // x << k against a constant multiple of 32 << k is x against a multiple
    // of 32: a tile's meta_group_rank() == 0 where cooperative groups keep the
    // rank in a packed word's high half, ((linear >> 5) << 16) < 65536, which
    // -O2 makes (linear << 11) < 65536. A shift that wraps keeps the split:
    // 32 << k divides 2^N, so the bits above the lane's decide alone.
    if (const auto *Shl = dyn_cast<BinaryOperator>(X); Shl && Shl->getOpcode() == Instruction::Shl)
      if (const auto *K = dyn_cast<ConstantInt>(Shl->getOperand(1)), *C = dyn_cast<ConstantInt>(M);
          K && C && K->getZExtValue() < 26 && C->getBitWidth() <= 64 && laneInWarp(Shl->getOperand(0), DT)) {
        const bool Strict = P == ICmpInst::ICMP_ULT || P == ICmpInst::ICMP_UGE;
        const int64_t Unit = int64_t(WarpSize) << K->getZExtValue();
        const int64_t Bound = C->getSExtValue();
        return (P == ICmpInst::ICMP_ULT || P == ICmpInst::ICMP_UGE || P == ICmpInst::ICMP_ULE ||
                P == ICmpInst::ICMP_UGT) &&
               Bound >= 0 && (Strict ? Bound : Bound + 1) % Unit == 0;
      }
    if (!laneInWarp(X, DT)) {
      std::swap(X, M);
      P = ICmpInst::getSwappedPredicate(P);
      if (!laneInWarp(X, DT))
        return false;
    }
    bool Strict = P == ICmpInst::ICMP_ULT || P == ICmpInst::ICMP_SLT || P == ICmpInst::ICMP_UGE ||
                  P == ICmpInst::ICMP_SGE;
    if (!isa<ConstantInt>(M))
      return Strict && warpMultiple(M, DT);
    if (X != Cmp->getOperand(0))
      return false;
    const auto *C = cast<ConstantInt>(M);
    int64_t Bound = C->getSExtValue();
    // x < C and x >= C split warps apart when C is a multiple of the warp
    // size; x <= C and x > C when C + 1 is.
    return (Strict ? Bound : Bound + 1) % WarpSize == 0;
  }
  const auto *BO = dyn_cast<BinaryOperator>(&I);
  if (!BO)
    return false;
  // The index less its lane bits (x - (y & 31), x - y % 32, with x and y the
  // thread's index plus multiples of the warp size that lanes share: a tile's
  // first thread, thread_id - tile.thread_rank()).
  if (BO->getOpcode() == Instruction::Sub) {
    // Or less the lane itself (threadIdx.x - lane_id(), the lane read from
    // %laneid): under the rule's block shapes, the index's lane bits.
    if (readsLaneRegister(BO->getOperand(1)))
      return laneInWarp(BO->getOperand(0), DT);
    const auto *Lane = dyn_cast<BinaryOperator>(BO->getOperand(1));
    const auto *C = Lane ? dyn_cast<ConstantInt>(Lane->getOperand(1)) : nullptr;
    if (!C || C->getBitWidth() > 64 || !laneInWarp(BO->getOperand(0), DT) || !laneInWarp(Lane->getOperand(0), DT))
      return false;
    switch (Lane->getOpcode()) {
    case Instruction::And:
      return isLaneBitsMask(C->getSExtValue());
    case Instruction::URem:
    case Instruction::SRem:
      return isLaneBitsDivisor(C->getSExtValue());
    default:
      return false;
    }
  }
  if (BO->getOpcode() == Instruction::And)
    if (const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1)))
      return laneInWarp(BO->getOperand(0), DT) && (C->getZExtValue() & (WarpSize - 1)) == 0;
  const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
  if (!C)
    return false;
  switch (BO->getOpcode()) {
  case Instruction::LShr:
  case Instruction::AShr:
    return isWarpShift(C->getSExtValue()) && laneInWarp(BO->getOperand(0), DT);
  case Instruction::UDiv:
  case Instruction::SDiv:
    return isWarpDivisor(C->getSExtValue()) && laneInWarp(BO->getOperand(0), DT);
  default:
    return false;
  }
}

/// The form of \p V for the block-stride rule (model: StrideForm), through
/// widening casts, adds, constant scales and a loop's phi (taken to have the
/// form while its own steps are read: pos = tid, pos += ntid).
StrideForm strideForm(const Value *V, SmallPtrSetImpl<const PHINode *> &Assumed, unsigned Depth = 0) {
  while (isa<ZExtInst, SExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  if (Depth > 12)
    return StrideForm::Other;
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x)
      return StrideForm::ThreadPlusBlocks;
    return II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_ntid_x ? StrideForm::BlockSizes : StrideForm::Other;
  }
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    if (!Assumed.insert(Phi).second)
      return StrideForm::ThreadPlusBlocks;
    bool Kept = all_of(Phi->incoming_values(), [&](const Value *In) {
      return strideForm(In, Assumed, Depth + 1) == StrideForm::ThreadPlusBlocks;
    });
    Assumed.erase(Phi);
    return Kept ? StrideForm::ThreadPlusBlocks : StrideForm::Other;
  }
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO)
    return StrideForm::Other;
  const Value *A = BO->getOperand(0), *B = BO->getOperand(1);
  const auto *C = dyn_cast<ConstantInt>(B);
  std::optional<int64_t> K = C && C->getBitWidth() <= 64 ? std::optional<int64_t>(C->getSExtValue()) : std::nullopt;
  switch (BO->getOpcode()) {
  case Instruction::Or:
    if (!cast<PossiblyDisjointInst>(BO)->isDisjoint())
      return StrideForm::Other;
    [[fallthrough]];
  case Instruction::Add:
    return strideSum(strideForm(A, Assumed, Depth + 1), strideForm(B, Assumed, Depth + 1));
  case Instruction::Mul:
    if (const auto *L = dyn_cast<ConstantInt>(A); L && !C && L->getBitWidth() <= 64)
      return strideScaled(strideForm(B, Assumed, Depth + 1), L->getSExtValue());
    return strideScaled(strideForm(A, Assumed, Depth + 1), K);
  case Instruction::Shl:
    return strideScaled(strideForm(A, Assumed, Depth + 1),
                        K && *K >= 0 && *K < 62 ? std::optional<int64_t>(int64_t(1) << *K) : std::nullopt);
  default:
    return StrideForm::Other;
  }
}

/// A block-stride value's round (model: strideRoundAlike): pos / ntid, or
/// pos - pos % ntid, as -O2 writes (pos / ntid) * ntid.
bool strideRound(const Instruction &I) {
  const auto *BO = dyn_cast<BinaryOperator>(&I);
  if (!BO)
    return false;
  SmallPtrSet<const PHINode *, 4> Assumed;
  switch (BO->getOpcode()) {
  case Instruction::UDiv:
  case Instruction::SDiv:
    return strideRoundAlike(strideForm(BO->getOperand(0), Assumed), strideForm(BO->getOperand(1), Assumed));
  case Instruction::Sub: {
    const auto *Rem = dyn_cast<BinaryOperator>(BO->getOperand(1));
    return Rem && (Rem->getOpcode() == Instruction::URem || Rem->getOpcode() == Instruction::SRem) &&
           Rem->getOperand(0) == BO->getOperand(0) &&
           strideRoundAlike(strideForm(BO->getOperand(0), Assumed), strideForm(Rem->getOperand(1), Assumed));
  }
  default:
    return false;
  }
}

class Divergence {
public:
  Divergence(const Function &F, Level L)
      : F(F), L(L), PDT(const_cast<Function &>(F)), DT(const_cast<Function &>(F)), LI(DT) {
    // The blocks from which a return can be reached.
    SmallVector<const BasicBlock *, 8> Back;
    for (const BasicBlock &B : F)
      if (isa<ReturnInst>(B.getTerminator()) && Returns.insert(&B).second)
        Back.push_back(&B);
    while (!Back.empty())
      for (const BasicBlock *P : predecessors(Back.pop_back_val()))
        if (Returns.insert(P).second)
          Back.push_back(P);
    for (const Instruction &I : instructions(F))
      if (isSource(I, L))
        mark(&I);
    // Uses, and the joins of the branches the varying values decide, until
    // nothing changes.
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const User *U : V->users()) {
        const auto *I = dyn_cast<Instruction>(U);
        if (!I || I->getFunction() != &F)
          continue;
        if (I->isTerminator()) {
          if (isa<BranchInst, SwitchInst>(I) && VaryingBranches.insert(I).second)
            joins(I);
          continue;
        }
        // A store's value does not make the memory vary (a read of one
        // address after a barrier is the block's alike); its address is
        // the loads' business.
        if (isa<StoreInst>(I))
          continue;
        if (const auto *Ld = dyn_cast<LoadInst>(I); Ld && Ld->getPointerOperand() != V)
          continue;
        if ((L == Level::Warp && warpOf(*I, &DT)) || strideRound(*I))
          continue;
        // A broadcast's value is one lane's: only where it comes from counts.
        if (L == Level::Warp && warpBroadcast(*I) && cast<CallBase>(I)->getArgOperand(ShuffleSourceArg) != V)
          continue;
        // A block reduction's result is the block's, and a warp vote's the
        // warp's, whatever they reduce.
        if (const auto *CB = dyn_cast<CallBase>(I); CB && CB->getCalledFunction()) {
          StringRef Callee = CB->getCalledFunction()->getName();
          if (sameAcrossBlock(Callee) || (L == Level::Warp && sameAcrossWarp(Callee)))
            continue;
        }
        if (!I->getType()->isVoidTy())
          mark(I);
      }
    }
  }

  /// The blocks a branch decides: reachable from it before its immediate
  /// post-dominator (every block to the exit where it has none).
  SmallPtrSet<const BasicBlock *, 16> region(const Instruction *Branch) const {
    const BasicBlock *From = Branch->getParent();
    const DomTreeNode *N = PDT.getNode(From);
    const BasicBlock *Join = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
    // With no post-dominator (a path ends in a trap, or the function has
    // several returns), the paths still meet where every arm that returns
    // goes: what all of them reach is not decided by the branch.
    if (!Join)
      return decidedByArms(From);
    SmallPtrSet<const BasicBlock *, 16> Out;
    SmallVector<const BasicBlock *, 16> Stack(succ_begin(From), succ_end(From));
    while (!Stack.empty()) {
      const BasicBlock *B = Stack.pop_back_val();
      if (B == Join || !Out.insert(B).second)
        continue;
      Stack.append(succ_begin(B), succ_end(B));
    }
    return Out;
  }

  /// The blocks some but not all arms of the branch in \p From reach
  /// before coming back to it, counting only arms that can return (a trap
  /// ends the thread, and what it skips it skips for good).
  SmallPtrSet<const BasicBlock *, 16> decidedByArms(const BasicBlock *From) const {
    std::vector<SmallPtrSet<const BasicBlock *, 16>> Arms;
    // An arm that comes back to the branch (a loop's next iteration) goes on
    // to whatever the other arms reach, a pass later: it decides only how
    // many times the loop runs, not what runs after it.
    SmallVector<bool, 4> Back;
    SmallPtrSet<const BasicBlock *, 4> Seen;
    for (const BasicBlock *S : successors(From)) {
      if (!Seen.insert(S).second || !Returns.count(S))
        continue;
      SmallPtrSet<const BasicBlock *, 16> R;
      bool Again = false;
      SmallVector<const BasicBlock *, 16> Stack{S};
      while (!Stack.empty()) {
        const BasicBlock *B = Stack.pop_back_val();
        Again |= B == From;
        if (B == From || !Returns.count(B) || !R.insert(B).second)
          continue;
        Stack.append(succ_begin(B), succ_end(B));
      }
      Arms.push_back(std::move(R));
      Back.push_back(Again);
    }
    SmallPtrSet<const BasicBlock *, 16> Out;
    if (Arms.size() < 2)
      return Out;
    // What lies in the innermost loop around the branch runs once per pass,
    // and each pass decides anew; what lies past it every arm reaches.
    const Loop *Around = LI.getLoopFor(From);
    auto Reaches = [&](unsigned A, const BasicBlock *B) {
      return Arms[A].count(B) || (Back[A] && !(Around && Around->contains(B)));
    };
    for (const auto &R : Arms)
      for (const BasicBlock *B : R)
        for (unsigned A = 0; A < Arms.size(); ++A)
          if (!Reaches(A, B)) {
            Out.insert(B);
            break;
          }
    return Out;
  }

  /// What the block tests on every way into \p X say of a block whose
  /// threads get there: the tests of the edges that dominate it.
  BlockFacts factsAt(const BasicBlock *X) const {
    BlockFacts Facts;
    const DomTreeNode *N = DT.getNode(X);
    for (N = N ? N->getIDom() : nullptr; N; N = N->getIDom()) {
      const auto *Br = dyn_cast<BranchInst>(N->getBlock()->getTerminator());
      if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
        continue;
      for (unsigned Arm = 0; Arm < 2; ++Arm)
        if (DT.dominates(BasicBlockEdge(N->getBlock(), Br->getSuccessor(Arm)), X))
          Facts.note(blockCondition(Br->getCondition()), Arm == 0);
    }
    return Facts;
  }

  /// \p Branch's condition as block tests (AST: Finder::blockCondition),
  /// through the forms -O2 leaves: (blockIdx.x | threadIdx.x) == 0 is both
  /// zero, a select with a constant arm an && or ||, an xor with true a !.
  BlockCondition branchCondition(const Instruction *Branch) const {
    const auto *Br = dyn_cast<BranchInst>(Branch);
    return Br && Br->isConditional() ? blockCondition(Br->getCondition())
                                     : BlockCondition::other(VaryingBranches.count(Branch));
  }

  /// The varying branches in the function's order.
  std::vector<const Instruction *> branches() const {
    std::vector<const Instruction *> Out;
    for (const BasicBlock &B : F)
      if (VaryingBranches.count(B.getTerminator()))
        Out.push_back(B.getTerminator());
    return Out;
  }

private:
  BlockCondition blockCondition(const Value *V) const {
    return ir::blockConditionOf(V, [&](const Value *X) { return Varying.count(X) != 0; });
  }
  void mark(const Value *V) {
    if (Varying.insert(V).second)
      Work.push_back(V);
  }
  /// Where the paths of a varying branch meet again, a value chosen by the
  /// path (a phi whose incoming values differ) varies too.
  /// Only the ways the branch decides count: a phi whose values on the
  /// edges out of the branch's region are one value is not chosen by the
  /// branch (a handler that returns early under a test of threadIdx.x, all of
  /// whose exits give the step count 1, beside a uniform switch's other arms).
  void joins(const Instruction *Branch) {
    SmallPtrSet<const BasicBlock *, 16> R = region(Branch);
    const BasicBlock *From = Branch->getParent();
    const DomTreeNode *N = PDT.getNode(From);
    if (N && N->getIDom() && N->getIDom()->getBlock())
      R.insert(N->getIDom()->getBlock());
    for (const BasicBlock *B : R)
      for (const PHINode &Phi : B->phis())
        if (!sameFrom(Phi, R, From))
          mark(&Phi);
  }
  static bool sameFrom(const PHINode &Phi, const SmallPtrSetImpl<const BasicBlock *> &R, const BasicBlock *From) {
    const Value *First = nullptr;
    for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I) {
      const BasicBlock *Pred = Phi.getIncomingBlock(I);
      if (Pred != From && !R.count(Pred))
        continue;
      const Value *V = Phi.getIncomingValue(I);
      if (First && !sameValue(V, First))
        return false;
      First = V;
    }
    return true;
  }
  /// One value, or two copies of one computation on the same operands that
  /// reads no memory (-O2 computes r + 1 in each arm of a branch and joins
  /// the copies): whichever arm a thread took, it holds what the other arm
  /// would have given it. Operands that vary make the copies vary, and the
  /// phi with them, through their uses.
  /// Or reads of one word that nothing writes while the kernel runs (the
  /// function's own copy of a by-value argument it only reads, constant
  /// memory), and merges of such reads: -O2 reads a kernel's by-value bound
  /// again after a call or a store it cannot see past, and joins the reads;
  /// every read gives the one value.
  static bool sameValue(const Value *A, const Value *B) {
    if (A == B)
      return true;
    const auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
    if (IA && IB && !isa<PHINode>(IA) && !IA->mayReadOrWriteMemory() && !IA->mayHaveSideEffects() &&
        IA->isIdenticalToWhenDefined(IB))
      return true;
    std::optional<ParamWord> WA = unwrittenParamWord(A), WB = unwrittenParamWord(B);
    return WA && WA == WB;
  }
  /// An unwritten word: the argument or constant it lies in, the offset, the type read.
  using ParamWord = std::tuple<const Value *, int64_t, const Type *>;
  static std::optional<ParamWord> unwrittenParamWord(const Value *V) {
    SmallPtrSet<const PHINode *, 8> Seen;
    return unwrittenParamWord(V, Seen);
  }
  static std::optional<ParamWord> unwrittenParamWord(const Value *V, SmallPtrSetImpl<const PHINode *> &Seen) {
    if (const auto *Phi = dyn_cast<PHINode>(V)) {
      if (Seen.size() > 8 || !Seen.insert(Phi).second)
        return std::nullopt;
      // Every way gives the word (a way back round a loop through a phi
      // already being read gives what the others give).
      std::optional<ParamWord> Word;
      for (const Value *In : Phi->incoming_values()) {
        if (const auto *P = dyn_cast<PHINode>(In); P && Seen.count(P))
          continue;
        std::optional<ParamWord> W = unwrittenParamWord(In, Seen);
        if (!W || (Word && *Word != *W))
          return std::nullopt;
        Word = W;
      }
      return Word;
    }
    const auto *Ld = dyn_cast<LoadInst>(V);
    if (!Ld || !Ld->isSimple())
      return std::nullopt;
    const DataLayout &DL = Ld->getDataLayout();
    APInt Offset;
    const Value *Base = baseAndOffset(Ld->getPointerOperand(), DL, Offset);
    const auto *Arg = dyn_cast<Argument>(Base);
    const auto *GV = dyn_cast<GlobalVariable>(Base);
    bool Unwritten = (Arg && Arg->hasByValAttr() && Arg->onlyReadsMemory()) ||
                     (GV && (GV->isConstant() || spaceOf(GV->getAddressSpace()) == MemorySpace::Constant));
    if (!Unwritten)
      return std::nullopt;
    return ParamWord{Base, Offset.getSExtValue(), Ld->getType()};
  }

  const Function &F;
  Level L;
  PostDominatorTree PDT;
  DominatorTree DT;
  LoopInfo LI;
  DenseSet<const Value *> Varying;
  DenseSet<const Instruction *> VaryingBranches;
  DenseSet<const BasicBlock *> Returns;
  SmallVector<const Value *, 32> Work;
};
} // namespace

/// Each of \p Targets (instructions of \p F) that a branch varying at level
/// \p L decides, once, with the first such branch in the function's order.
static std::vector<std::pair<const Instruction *, const Instruction *>>
decidedByVarying(const Function &F, Level L, const DenseSet<const Instruction *> &Targets) {
  std::vector<std::pair<const Instruction *, const Instruction *>> Out;
  if (Targets.empty())
    return Out;
  Divergence D(F, L);
  DenseSet<const Instruction *> Seen;
  for (const Instruction *Branch : D.branches()) {
    SmallPtrSet<const BasicBlock *, 16> R = D.region(Branch);
    const BlockFacts AtBranch = D.factsAt(Branch->getParent());
    const BlockCondition Test = D.branchCondition(Branch);
    for (const BasicBlock &B : F) {
      if (!R.count(&B) || llvm::none_of(B, [&](const Instruction &I) { return Targets.count(&I); }))
        continue;
      // A block that gets to both, where the block tests decide the branch
      // for all its threads, sends them all one way (or no block gets to both).
      BlockFacts Both = D.factsAt(&B);
      Both.add(AtBranch);
      if (decidedForBlock(Test, Both))
        continue;
      for (const Instruction &I : B)
        if (Targets.count(&I) && Seen.insert(&I).second)
          Out.push_back({&I, Branch});
    }
  }
  return Out;
}

std::vector<DivergentBarrier> divergentBarriers(const Function &F) {
  DenseSet<const Instruction *> Barriers;
  for (const Instruction &I : instructions(F))
    if (wholeBlockBarrier(I))
      Barriers.insert(&I);
  std::vector<DivergentBarrier> Out;
  for (const auto &[I, Branch] : decidedByVarying(F, Level::Block, Barriers))
    Out.push_back({I, Branch, *wholeBlockBarrier(*I)});
  return Out;
}

std::vector<MaskedWarpCall> fullMaskCallsUnderDivergence(const Function &F) {
  // The calls with a constant full mask.
  DenseMap<const Instruction *, StringRef> Calls;
  DenseSet<const Instruction *> Targets;
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Callee = CB->getCalledFunction())
        if (std::optional<WarpSyncCall> W = warpSyncCall(Callee->getName()); W && W->MaskArg < CB->arg_size())
          if (const auto *Mask = dyn_cast<ConstantInt>(CB->getArgOperand(W->MaskArg));
              Mask && Mask->getValue().isAllOnes()) {
            Calls[&I] = W->Name;
            Targets.insert(&I);
          }
  std::vector<MaskedWarpCall> Out;
  for (const auto &[I, Branch] : decidedByVarying(F, Level::Warp, Targets))
    Out.push_back({I, Branch, Calls.lookup(I)});
  return Out;
}

std::vector<ShuffleOutside> shufflesOutsideMask(const Function &F) {
  std::vector<ShuffleOutside> Out;
  for (const Instruction &I : instructions(F)) {
    const auto *CB = dyn_cast<CallBase>(&I);
    const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (!Callee || !Callee->getName().starts_with("llvm.nvvm.shfl.sync.") || CB->arg_size() != 4)
      continue;
    std::optional<WarpSyncCall> W = warpSyncCall(Callee->getName());
    std::optional<ShuffleMode> Mode = W ? shuffleMode(W->Name) : std::nullopt;
    // llvm.nvvm.shfl.sync.<mode>.<type>(mask, value, b, c).
    const auto *Mask = dyn_cast<ConstantInt>(CB->getArgOperand(0));
    const auto *B = dyn_cast<ConstantInt>(CB->getArgOperand(2));
    const auto *C = dyn_cast<ConstantInt>(CB->getArgOperand(3));
    if (!Mode || !Mask || !B || !C)
      continue;
    const auto M = static_cast<uint32_t>(Mask->getZExtValue());
    if (std::optional<ShuffleOutsideMask> Read =
            shuffleReadsOutsideMask(*Mode, M, static_cast<unsigned>(B->getZExtValue()),
                                    static_cast<unsigned>(C->getZExtValue())))
      Out.push_back({&I, W->Name, M, *Read});
  }
  return Out;
}

} // namespace cuda_scope
