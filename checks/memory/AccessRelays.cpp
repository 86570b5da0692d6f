//===- AccessRelays.cpp - what decides through the variables a value reaches ===//
//
// A read's value may decide a branch where it is read, or later, through a
// variable it is stored to (t = atomicAdd(...); last = t == n; if (last)),
// or through a variable a test of it sets (if (atomicCAS(m, 0, 1) == 0)
// done = 1;, then the block loops on done). After a root's walk, these
// resolve each read's test to the statement that decides on its value, as
// the IR front end reads the same through its stores (IrRecords::testedAt).
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

void ScopedAccesses::Walker::flowFrom(RelayKey From) {
  if (!From)
    return;
  if (Use.Tested)
    VarFlows.push_back({From, nullptr, Seq, Use.Compare, Use.Guard, Use.AgainstGrid, Use.GoalVaries, Use.GoalIsGrid});
  else if (Use.RelayTo && Use.RelayTo != From)
    VarFlows.push_back(
        {From, Use.RelayTo, Seq, Use.Compare, nullptr, Use.AgainstGrid, Use.GoalVaries, Use.GoalIsGrid});
}

void ScopedAccesses::Walker::resolveRelays() {
  // A value stored to a variable is tested where the variable, or one it is
  // stored to in turn, decides a branch later in the walk; the first
  // comparison on the way says how.
  // A step is after its access (by Seq) or after the flow that made it (by
  // the walk's order: flows with no access between them share a Seq, as a
  // callee's `return r;` and the caller's test of what it returned do).
  struct Step {
    RelayKey Var;
    unsigned After;
    int AfterFlow;
    ValueTest Compare;
    bool AgainstGrid;
    bool GoalVaries;
    bool GoalIsGrid;
  };
  for (const Relay &R : Relays) {
    ScopedAccess &A = (R.InPlain ? Owner.Plain : Owner.All)[R.Index];
    if (A.TestSeq)
      continue;
    SmallVector<Step, 4> Work{{R.To, A.Seq, -1, R.Compare, R.AgainstGrid, R.GoalVaries, R.GoalIsGrid}};
    std::optional<unsigned> Best;
    const Stmt *Guard = nullptr;
    SmallVector<std::pair<const Stmt *, unsigned>, 2> Tests;
    ValueTest How = ValueTest::Bound;
    bool AgainstGrid = false, GoalVaries = false, GoalIsGrid = false;
    for (unsigned Round = 0; Round < 4 && !Work.empty(); ++Round) {
      SmallVector<Step, 4> Next;
      for (const Step &W : Work)
        for (int FI = 0, E = int(VarFlows.size()); FI < E; ++FI) {
          const VarFlow &F = VarFlows[FI];
          // A flow after the relay was given another value (the same
          // variable in a second call of its function) is that value's.
          if (F.From != W.Var || (W.AfterFlow < 0 ? F.Seq <= W.After : FI <= W.AfterFlow) ||
              definedBetween(W.Var, W.After, W.AfterFlow, F.Seq, FI, A.Arms))
            continue;
          ValueTest Compare = W.Compare != ValueTest::None ? W.Compare : F.Compare;
          bool Grid = W.AgainstGrid || F.AgainstGrid, Varies = W.GoalVaries || F.GoalVaries,
               Width = W.GoalIsGrid || F.GoalIsGrid;
          if (!F.To) {
            AgainstGrid = AgainstGrid || Grid;
            GoalVaries = GoalVaries || Varies;
            GoalIsGrid = GoalIsGrid || Width;
            // The first test says where; any test for equality says how (as
            // the IR front end reads it).
            ValueTest T = Compare == ValueTest::None ? ValueTest::Equality : Compare;
            if (!Best || T == ValueTest::Equality)
              How = T;
            if (!Best || F.Seq < *Best) {
              Best = F.Seq;
              Guard = F.Guard;
            }
            if (F.Guard && Tests.size() < 8)
              Tests.push_back({F.Guard, F.Seq});
          } else if (Next.size() < 16) {
            Next.push_back({F.To, F.Seq, FI, Compare, Grid, Varies, Width});
          }
        }
      Work = std::move(Next);
    }
    A.TestSeq = Best;
    if (Best) {
      A.Test = How;
      A.TestGuard = Guard;
      for (const auto &T : Tests)
        if (T.second != *Best || T.first != Guard)
          A.OtherTests.push_back(T);
      A.AgainstGrid = AgainstGrid;
      A.GoalVaries = GoalVaries;
      A.GoalIsGrid = GoalIsGrid;
    }
  }
}

void ScopedAccesses::Walker::resolveSetters(size_t FirstAll, size_t FirstPlain) {
  // A decision whose one effect is to set a variable (if (atomicCAS(m, 0, 1)
  // == 0) done = 1;, then the block tests done after a barrier): what the
  // variable's later test decides, the value decides, as the IR front end
  // reads it (IrRecords::testedAt).
  // The relay an arm sets: a variable, or a word every thread addresses
  // alike (*advance = true through a pointer to __shared__ memory), as the
  // walk named it.
  auto SetVar = [&](const Stmt *Arm, std::optional<int64_t> *To = nullptr,
                    const VarDecl **Decl = nullptr) -> RelayKey {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Arm))
      Arm = CS->size() == 1 ? CS->body_front() : nullptr;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(Arm);
    std::optional<int64_t> K = BO && BO->getOpcode() == BO_Assign ? constantInt(BO->getRHS(), Ctx) : std::nullopt;
    if (!K)
      return nullptr;
    if (To)
      *To = K;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (Decl)
        *Decl = VD;
      return VD;
    }
    auto It = ConstantSets.find(BO);
    return It == ConstantSets.end() ? nullptr : It->second;
  };
  auto Resolve = [&](ScopedAccess &A) {
    const auto *If = dyn_cast_or_null<IfStmt>(A.TestGuard);
    if (!A.TestSeq || !If)
      return;
    for (const Stmt *Arm : {If->getThen(), If->getElse()}) {
      RelayKey VD = SetVar(Arm);
      if (!VD)
        continue;
      for (const VarFlow &F : VarFlows)
        if (F.From == VD && !F.To && F.Seq > A.Seq && F.Guard && F.Guard != If) {
          A.TestSeq = F.Seq;
          A.TestGuard = F.Guard;
          // What each arm sets the variable to: an arm that sets another
          // variable, or this one to what the file does not show, leaves
          // the value unknown.
          std::optional<int64_t> Then, Else;
          // (A variable's setter only: a word's value is read back through
          // no variable.)
          const VarDecl *Var = nullptr;
          RelayKey ThenVar = SetVar(If->getThen(), &Then, &Var), ElseVar = SetVar(If->getElse(), &Else);
          if (Var && ThenVar == VD && (!If->getElse() || ElseVar == VD)) {
            A.SetterIf = If;
            A.SetterVar = Var;
            A.SetterThen = Then;
            A.SetterElse = Else;
          }
          return;
        }
    }
  };
  for (size_t I = FirstAll; I < Owner.All.size(); ++I)
    Resolve(Owner.All[I]);
  for (size_t I = FirstPlain; I < Owner.Plain.size(); ++I)
    Resolve(Owner.Plain[I]);
}

} // namespace cuda_scope
