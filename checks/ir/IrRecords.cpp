//===- IrRecords.cpp - a module's device operations as the engine's records ===//
#include "IrRecords.h"
#include "IrAddresses.h"
#include "IrSpins.h"
#include "IrTests.h"
#include "model/Hierarchy.h"
#include "model/Wording.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CFG.h"
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

/// The one block whose threads see \p Cond come out \p WhenTrue, as the
/// model reads its block tests (BlockCondition::pinnedBlock).
std::optional<int64_t> pinnedBlock(const Value *Cond, bool WhenTrue) {
  return blockConditionOf(Cond, [](const Value *) { return false; }).pinnedBlock(WhenTrue);
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
        std::tie(Op.Test, Tests[I - First]) =
            testedAt(First, Last, Op, &Op.AgainstGrid, &Op.GoalVaries, &Op.GoalIsGrid, &Op.OtherTests);
        if (!Op.Test && Op.Site && returnedBy(*Op.I)) {
          AtCall = Op;
          AtCall->I = Op.Site;
          AtCall->Site = nullptr;
          Op.OtherTests.clear();
          std::tie(Op.Test, Tests[I - First]) =
              testedAt(First, Last, *AtCall, &Op.AgainstGrid, &Op.GoalVaries, &Op.GoalIsGrid, &Op.OtherTests);
          AtCall->Test = Op.Test;
          AtCall->OtherTests = Op.OtherTests;
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
        R.Flat = flatIndexOf(Op.Address);
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
  const Instruction *PX = anchor(X, Y), *PY = anchor(Y, X);
  // A wait in a callee decides what runs after the call: the callee returns
  // only past its spin.
  if (X.Site != Y.Site && X.Site)
    return Ops[A].Spins && PX->getFunction() == PY->getFunction() && PX != PY &&
           orderOf(PX->getFunction()).mayPrecede(PX, PY);
  // What any test of the value guards (a select decides a value, not what
  // runs); what a test in the caller guards, the call's copies run under too.
  const Instruction *At = X.Site != Y.Site ? PY : Y.I;
  auto Guards = [&](const Instruction *T) {
    return T->getFunction() == At->getFunction() && T != At && orderOf(At->getFunction()).guardedBy(T, At);
  };
  return Guards(X.Test) || any_of(X.OtherTests, Guards);
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

bool IrRecords::blocksApart(unsigned A, unsigned B) const {
  const IROp &X = IROps[A], &Y = IROps[B];
  const Instruction *PX = anchor(X, Y), *PY = anchor(Y, X);
  if (PX->getFunction() != PY->getFunction() || PX->getParent() == PY->getParent())
    return false;
  const FunctionOrder &O = orderOf(PX->getFunction());
  const BasicBlock *BX = PX->getParent(), *BY = PY->getParent();
  // The branch both come after, whose successors lead to one each and never
  // to the other; neither reaches the other (no loop takes a block through
  // both arms).
  const BasicBlock *Split = O.domTree().findNearestCommonDominator(BX, BY);
  const auto *Br = Split ? dyn_cast<BranchInst>(Split->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional() || !ir::decidedAlikeInBlock(Br->getCondition()))
    return false;
  auto Reaches = [&](const BasicBlock *From, const BasicBlock *To) {
    return isPotentiallyReachable(From, To, nullptr, &O.domTree(), &O.loops());
  };
  if (Reaches(BX, BY) || Reaches(BY, BX))
    return false;
  const BasicBlock *S0 = Br->getSuccessor(0), *S1 = Br->getSuccessor(1);
  return (!Reaches(S1, BX) && !Reaches(S0, BY)) || (!Reaches(S0, BX) && !Reaches(S1, BY));
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
