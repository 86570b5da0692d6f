//===- IrOrder.cpp - program order in one function's control-flow graph ---===//
#include "IrOrder.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/PatternMatch.h"
#include <functional>
#include <queue>

using namespace llvm;

namespace cuda_scope {

FunctionOrder::FunctionOrder(const Function &F)
    : Fn(F), DT(const_cast<Function &>(F)), LI(DT), PDT(const_cast<Function &>(F)) { // the analyses only read it
  unsigned N = 0;
  for (const BasicBlock *BB : ReversePostOrderTraversal<const Function *>(&F))
    RPO[BB] = N++;
  std::vector<const BasicBlock *> Blocks;
  order(nullptr, Blocks);
  unsigned Pos = 0;
  for (const BasicBlock *BB : Blocks)
    for (const Instruction &I : *BB)
      InstNum[&I] = Pos++;
}

const CycleInfo &FunctionOrder::cycles() const {
  if (!Cycles) {
    Cycles = std::make_unique<CycleInfo>();
    Cycles->compute(const_cast<Function &>(Fn)); // it only reads the function
  }
  return *Cycles;
}

void FunctionOrder::order(const Loop *L, std::vector<const BasicBlock *> &Out) {
  // The nodes of this region: its own blocks, and each loop just inside it
  // as one node named by its header.
  auto NodeOf = [&](const BasicBlock *BB) -> const BasicBlock * {
    const Loop *Inner = LI.getLoopFor(BB);
    if (Inner == L)
      return BB;
    while (Inner && Inner->getParentLoop() != L)
      Inner = Inner->getParentLoop();
    return Inner ? Inner->getHeader() : BB;
  };
  auto InRegion = [&](const BasicBlock *BB) { return RPO.count(BB) && (!L || L->contains(BB)); };
  SmallVector<const BasicBlock *, 32> Blocks;
  if (L)
    Blocks.assign(L->block_begin(), L->block_end());
  else
    for (const auto &Entry : RPO)
      Blocks.push_back(Entry.first);
  DenseMap<const BasicBlock *, unsigned> InDegree;
  DenseMap<const BasicBlock *, SmallVector<const BasicBlock *, 4>> Edges;
  for (const BasicBlock *BB : Blocks)
    InDegree.try_emplace(NodeOf(BB), 0);
  for (const BasicBlock *BB : Blocks)
    for (const BasicBlock *Succ : successors(BB)) {
      if (!InRegion(Succ) || (L && Succ == L->getHeader()))
        continue; // leaves the region, or goes back around it
      const BasicBlock *From = NodeOf(BB), *To = NodeOf(Succ);
      if (From == To)
        continue;
      Edges[From].push_back(To);
      ++InDegree[To];
    }
  // Kahn's algorithm, the earliest in reverse post-order first; what an
  // irreducible cycle leaves is taken in reverse post-order.
  auto Later = [&](const BasicBlock *A, const BasicBlock *B) { return RPO.lookup(A) > RPO.lookup(B); };
  std::priority_queue<const BasicBlock *, std::vector<const BasicBlock *>, decltype(Later)> Ready(Later);
  for (auto &Entry : InDegree)
    if (Entry.second == 0)
      Ready.push(Entry.first);
  SmallPtrSet<const BasicBlock *, 32> Done;
  while (Done.size() < InDegree.size()) {
    if (Ready.empty()) {
      const BasicBlock *Next = nullptr;
      for (auto &Entry : InDegree)
        if (!Done.count(Entry.first) && (!Next || Later(Next, Entry.first)))
          Next = Entry.first;
      Ready.push(Next);
    }
    const BasicBlock *N = Ready.top();
    Ready.pop();
    if (!Done.insert(N).second)
      continue;
    const Loop *Inner = LI.getLoopFor(N);
    if (Inner != L && Inner && Inner->getHeader() == N) {
      while (Inner->getParentLoop() != L)
        Inner = Inner->getParentLoop();
      order(Inner, Out);
    } else {
      Out.push_back(N);
    }
    for (const BasicBlock *To : Edges.lookup(N))
      if (--InDegree[To] == 0 && !Done.count(To))
        Ready.push(To);
  }
}

namespace {
/// What a branch's condition says of one value on one of its edges.
struct EdgeFact {
  const Value *V;
  ValueCondition Test;
};

/// The facts \p C gives where it is \p Holds: an equality of a value with a
/// constant, the parts of an and that held or an or that failed (as -O2
/// writes && and ||: and, or, or a select with a constant arm), negations.
void factsOf(const Value *C, bool Holds, SmallVectorImpl<EdgeFact> &Out, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (Depth > 8)
    return;
  const Value *X, *Y;
  if (match(C, m_Not(m_Value(X))))
    return factsOf(X, !Holds, Out, Depth + 1);
  if ((Holds && match(C, m_LogicalAnd(m_Value(X), m_Value(Y)))) ||
      (!Holds && match(C, m_LogicalOr(m_Value(X), m_Value(Y))))) {
    factsOf(X, Holds, Out, Depth + 1);
    factsOf(Y, Holds, Out, Depth + 1);
    return;
  }
  const auto *Cmp = dyn_cast<ICmpInst>(C);
  if (!Cmp || !Cmp->isEquality())
    return;
  const Value *V = Cmp->getOperand(0);
  const auto *K = dyn_cast<ConstantInt>(Cmp->getOperand(1));
  if (!K || K->getBitWidth() > 64)
    return;
  const bool Equal = (Cmp->getPredicate() == ICmpInst::ICMP_EQ) == Holds;
  Out.push_back({V, {Equal ? Comparison::EQ : Comparison::NE, K->getSExtValue()}});
}
} // namespace

bool FunctionOrder::mayPrecedeOnOpenPath(const Instruction *A, const Instruction *B) const {
  if (!mayPrecede(A, B))
    return false;
  // The facts of the branch edges that dominate a block: every path to it
  // took them.
  auto FactsAt = [&](const BasicBlock *BB, SmallVectorImpl<EdgeFact> &Out) {
    const DomTreeNode *N = DT.getNode(BB);
    for (unsigned Up = 0; N && N->getIDom() && Up < 32; ++Up) {
      N = N->getIDom();
      const auto *Br = dyn_cast<BranchInst>(N->getBlock()->getTerminator());
      if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
        continue;
      for (unsigned I = 0; I < 2; ++I)
        if (DT.dominates(BasicBlockEdge(N->getBlock(), Br->getSuccessor(I)), BB))
          factsOf(Br->getCondition(), I == 0, Out);
    }
  };
  SmallVector<EdgeFact, 8> AtA, AtB;
  FactsAt(A->getParent(), AtA);
  if (AtA.empty())
    return true;
  FactsAt(B->getParent(), AtB);
  // One value in every thread of the launch, wherever it is read: a
  // kernel's parameter, or arithmetic on such values and constants. A test
  // of the thread's identity (its lane, its rank in a tile) decides which
  // thread runs each arm, and the rules pair those threads' operations.
  std::function<bool(const Value *, unsigned)> Uniform = [&](const Value *V, unsigned Depth) {
    if (isa<ConstantInt>(V))
      return true;
    if (const auto *Arg = dyn_cast<Argument>(V))
      return Arg->getParent()->getCallingConv() == CallingConv::PTX_Kernel;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 8 || !isa<BinaryOperator, CastInst, ICmpInst, SelectInst, FreezeInst>(I))
      return false;
    return all_of(I->operands(), [&](const Value *Op) { return Uniform(Op, Depth + 1); });
  };
  for (const EdgeFact &Needed : AtB)
    for (const EdgeFact &Known : AtA)
      if (Needed.V == Known.V && !consistentTests(Known.Test, Needed.Test) && Uniform(Known.V, 0))
        return false;
  return true;
}

bool FunctionOrder::mayPrecede(const Instruction *A, const Instruction *B) const {
  if (A == B || A->getFunction() != B->getFunction())
    return false;
  if (A->getParent() == B->getParent())
    return A->comesBefore(B);
  return blockReaches(A->getParent(), B->getParent());
}

bool FunctionOrder::guardedBy(const Instruction *Guard, const Instruction *B) const {
  if (!mayPrecede(Guard, B))
    return false;
  const BasicBlock *G = Guard->getParent();
  // A loop's exit test (the spin of a wait) guards what runs after the loop,
  // and, on the outcome that stays in the loop, the rest of this iteration
  // (`if (seen != 1) break;` then the work: -O2 makes the test a loop exit).
  if (const Loop *L = LI.getLoopFor(G); L && L->isLoopExiting(G)) {
    if (!L->contains(B->getParent()))
      return true;
    const BasicBlock *Header = L->getHeader();
    SmallVector<const BasicBlock *, 16> Work;
    for (const BasicBlock *S : successors(G))
      if (L->contains(S) && S != Header)
        Work.push_back(S);
    SmallPtrSet<const BasicBlock *, 32> Seen;
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second)
        continue;
      if (BB == B->getParent())
        return true;
      for (const BasicBlock *S : successors(BB))
        if (L->contains(S) && S != Header)
          Work.push_back(S);
    }
    return false;
  }
  // A branch guards what runs only on one of its outcomes: the blocks its
  // successors reach before the point where its outcomes join again (its
  // immediate post-dominator), nested branches included; with no join (an
  // arm returns), everything after it.
  if (!isa<BranchInst, SwitchInst>(Guard))
    return false;
  const DomTreeNode *Node = PDT.getNode(G);
  const BasicBlock *Join = Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
  auto Key = std::make_pair(G, B->getParent());
  auto It = Guarded.find(Key);
  if (It != Guarded.end())
    return It->second;
  SmallVector<const BasicBlock *, 16> Work(succ_begin(G), succ_end(G));
  SmallPtrSet<const BasicBlock *, 32> Seen;
  bool Found = false;
  while (!Work.empty() && !Found) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || !Seen.insert(BB).second)
      continue;
    if (BB == B->getParent()) {
      Found = true;
      break;
    }
    Work.append(succ_begin(BB), succ_end(BB));
  }
  // In a loop, a test whose one outcome goes back around (a take that failed
  // retries) guards what only its other outcomes reach in this iteration, even
  // where the outcomes meet again at the latch, which then post-dominates it.
  if (!Found)
    if (const Loop *L = LI.getLoopFor(G)) {
      SmallPtrSet<const BasicBlock *, 4> Headers;
      for (const Loop *Around = L; Around; Around = Around->getParentLoop())
        Headers.insert(Around->getHeader());
      unsigned Reaching = 0, Outcomes = 0;
      for (const BasicBlock *S : successors(G)) {
        ++Outcomes;
        SmallVector<const BasicBlock *, 16> Iteration;
        if (!Headers.count(S))
          Iteration.push_back(S);
        SmallPtrSet<const BasicBlock *, 32> InIteration;
        bool Reaches = false;
        while (!Iteration.empty() && !Reaches) {
          const BasicBlock *BB = Iteration.pop_back_val();
          if (!InIteration.insert(BB).second)
            continue;
          Reaches = BB == B->getParent();
          for (const BasicBlock *Next : successors(BB))
            if (!Headers.count(Next))
              Iteration.push_back(Next);
        }
        Reaching += Reaches;
      }
      Found = Reaching && Reaching < Outcomes;
    }
  Guarded[Key] = Found;
  return Found;
}

bool FunctionOrder::blockReaches(const BasicBlock *From, const BasicBlock *To) const {
  auto Key = std::make_pair(From, To);
  auto It = Reach.find(Key);
  if (It != Reach.end())
    return It->second;
  // The loops that hold both are not followed back: no edge into their headers.
  SmallPtrSet<const BasicBlock *, 8> Closed;
  for (const Loop *Common = LI.getLoopFor(From); Common; Common = Common->getParentLoop())
    if (Common->contains(To))
      Closed.insert(Common->getHeader());
  SmallVector<const BasicBlock *, 16> Work{From};
  SmallPtrSet<const BasicBlock *, 32> Seen{From};
  bool Found = false;
  while (!Work.empty() && !Found) {
    const BasicBlock *BB = Work.pop_back_val();
    for (const BasicBlock *Succ : successors(BB)) {
      if (Closed.count(Succ))
        continue;
      if (Succ == To) {
        Found = true;
        break;
      }
      if (Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  Reach[Key] = Found;
  return Found;
}

} // namespace cuda_scope
