//===- AccessWalk.cpp - program order, tested values, plain accesses -----===//
#include "ScopedAccessesWalker.h"
#include "Divergence.h"
#include "ast/CheckUtils.h"
#include "model/Hierarchy.h"
#include "model/Ptx.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

namespace {
/// A statement that leaves the function: return, or a block ending in one.
bool returns(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && returns(CS->body_back());
  return isa_and_nonnull<ReturnStmt>(S);
}

/// A statement that ends its loop's iteration: break or continue, or a block
/// ending in one.
bool leavesIteration(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && leavesIteration(CS->body_back());
  return isa_and_nonnull<BreakStmt, ContinueStmt>(S);
}

/// A statement that leaves its loop: a break, or a block ending in one.
bool breaks(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && breaks(CS->body_back());
  return isa_and_nonnull<BreakStmt>(S);
}

/// A statement that leaves its place: a return, break, continue or goto, or
/// a block ending in one.
bool leaves(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && leaves(CS->body_back());
  return isa_and_nonnull<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S);
}
} // namespace

/// The one block whose threads see \p Cond come out \p WhenTrue, as the
/// model reads its block tests (BlockCondition::pinnedBlock).
std::optional<int64_t> ScopedAccesses::Walker::pinnedBlock(const Expr *Cond, bool WhenTrue) {
  if (!Cond)
    return std::nullopt;
  auto ValueOf = [&](const VarDecl *VD) -> const Expr * {
    return VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
  };
  return blockConditionOf(Cond, Ctx, ValueOf, [](const Expr *) { return false; }).pinnedBlock(WhenTrue);
}

void ScopedAccesses::Walker::walk(const Stmt *S, const Frame *Fr) {
  if (!S || Budget == 0)
    return;
  --Budget;
  // Code that did not compile has no meaning to read order or objects from.
  if (const auto *E = dyn_cast<Expr>(S); E && E->containsErrors())
    Broken = true;
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    // Device lambdas are walked where they are called; host code is walked
    // whole, its own lambdas included, for its launches and host accesses.
    const CXXMethodDecl *Call = L->getCallOperator();
    bool DeviceOnly = Call && Call->hasAttr<CUDADeviceAttr>() && !Call->hasAttr<CUDAHostAttr>();
    if (Kind == ScopedAccess::Host && !DeviceOnly)
      walk(L->getBody(), Fr);
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    const Narrowing Saved = narrowing();
    for (const Stmt *Child : CS->body()) {
      if (isa<Expr>(Child)) {
        ValueUse Dropped;
        Dropped.Discarded = true;
        walkWith(Child, Fr, Dropped);
      } else {
        walk(Child, Fr);
      }
      // if (blockIdx.x != C) return; what follows runs in block C alone.
      if (const auto *If = dyn_cast<IfStmt>(Child); If && !If->getElse() && returns(If->getThen())) {
        narrowTo(If->getCond(), /*WhenTrue=*/false, Fr);
        // if (tid >= 32) return; what follows runs in threads below 32.
        if (ThreadBelow == UnknownThreadGuard)
          ;
        else if (std::optional<ThreadBound> B = threadBound(If->getCond(), /*WhenTrue=*/false, Fr))
          bound(*B);
        else if (laneBits(If->getCond(), Fr) != 0)
          ThreadBelow = UnknownThreadGuard;
      }
    }
    restore(Saved);
    return;
  }
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(S)) {
    if (Kind == ScopedAccess::Host)
      launch(K, Fr);
    for (const Expr *Arg : K->arguments())
      walk(Arg, Fr);
    return;
  }
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    inlineAsm(A, Fr);
    return;
  }
  if (control(S, Fr)) {
    if (isa<IfStmt, WhileStmt, ForStmt, DoStmt, SwitchStmt, ConditionalOperator>(S) ||
        (isa<BinaryOperator>(S) && cast<BinaryOperator>(S)->isLogicalOp()))
      GuardEnd[S].push_back(Seq);
    return;
  }
  // Only the outermost value of a dropped expression is dropped (through the
  // nodes that only wrap it: a temporary's cleanups, parentheses): what it is
  // computed from is used. A pointer handed to a call is an address there
  // (atomicLoad(h->inbound, ...)): what the call's value decides does not
  // test it, as the IR, which sees it only dereferenced, does not.
  const bool Call = isa<CallExpr>(S), Wraps = isa<ExprWithCleanups, ParenExpr, ConstantExpr>(S);
  for (const Stmt *Child : S->children())
    if ((Use.Discarded && !Wraps) || (Call && isa<Expr>(Child) && cast<Expr>(Child)->getType()->isPointerType()))
      walkWith(Child, Fr, ValueUse());
    else
      walk(Child, Fr);
  if (const auto *AE = dyn_cast<AtomicExpr>(S)) {
    atomicExpr(AE, Fr);
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (Kind != ScopedAccess::Host)
      noteHandedObjects(CE);
    call(CE, Fr);
  } else if (Kind != ScopedAccess::Host) {
    // Plain loads and stores, after what they are computed from.
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(S); IC && IC->getCastKind() == CK_LValueToRValue) {
      // A conditional of two lvalues (done ? pref[i] : agg[i]) reads one of
      // them: each arm is a read, as the IR front end reads the select of
      // their addresses (IROp::OtherObjects).
      const auto *CO = dyn_cast<ConditionalOperator>(IC->getSubExpr()->IgnoreParens());
      if (!Use.Discarded) {
        if (CO && CO->isGLValue()) {
          for (const Expr *Arm : {CO->getTrueExpr(), CO->getFalseExpr()})
            plainAccess(Arm, OpKind::Load, IC, Arm->getExprLoc(), Fr);
        } else {
          plainAccess(IC->getSubExpr(), OpKind::Load, IC, IC->getSubExpr()->getExprLoc(), Fr);
        }
      }
    } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S)) {
      plainAccess(CA->getLHS(), OpKind::Load, CA, CA->getOperatorLoc(), Fr);
      plainAccess(CA->getLHS(), OpKind::Store, CA, CA->getOperatorLoc(), Fr);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp()) {
      plainAccess(UO->getSubExpr(), OpKind::Load, UO, UO->getOperatorLoc(), Fr);
      plainAccess(UO->getSubExpr(), OpKind::Store, UO, UO->getOperatorLoc(), Fr);
    } else if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
      placementNew(New, Fr);
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      // A struct copied whole (float3 p = partial[b]) reads it.
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (Construct->getNumArgs() == 1 && Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial())
        plainAccess(Construct->getArg(0), OpKind::Load, Construct, Construct->getArg(0)->getExprLoc(), Fr);
      if (Ctor->isCopyOrMoveConstructor())
        noteHandedObjects(Construct);
      else
        noteConstruction(Construct, Fr);
    }
  }
}

void ScopedAccesses::Walker::walkWith(const Stmt *S, const Frame *Fr, ValueUse U) {
  ValueUse Saved = Use;
  Use = U;
  walk(S, Fr);
  Use = Saved;
}

void ScopedAccesses::Walker::walkArm(const Stmt *S, const Frame *Fr, const Stmt *Owner, unsigned Arm) {
  if (!S)
    return;
  // An arm that ends in a return leaves its function: nothing in it precedes
  // what follows the statement.
  Arms.push_back({Owner, Arm | (returns(S) ? ArmReturns : 0) | (leavesIteration(S) ? ArmLeavesIteration : 0) |
                            (breaks(S) ? ArmBreaks : 0)});
  walk(S, Fr);
  Arms.pop_back();
}

/// Statements whose parts run conditionally, or whose values go somewhere the
/// rules follow: conditions (tested values), the arms of if and ?:, loops
/// (whose condition runs again after the body), assignments and
/// initializations of variables (relays), returns (to the caller's use).
bool ScopedAccesses::Walker::control(const Stmt *S, const Frame *Fr) {
  // The test of a statement's condition guards what the statement runs on
  // its outcome: its arms, or what follows a loop (and, where an arm leaves,
  // everything after). Within a condition, the enclosing test's guard stays.
  auto TestOf = [&](const Stmt *Guard) {
    if (Use.Tested && Use.Guard)
      return Use;
    return ValueUse{true, nullptr, ValueTest::None, Guard};
  };
  // A loop's condition runs again after the body: what it tests then is
  // tested after the body's accesses too.
  // Its condition and body are in the loop: an entry in the arms marks them,
  // which program order does not tell apart but a loop-carried order asks.
  auto Loop = [&](const Stmt *LoopS, const Stmt *CondVar, const Expr *Cond, const Stmt *Body, const Stmt *Inc,
                  bool CondFirst) {
    Arms.push_back({LoopS, ArmLoop});
    // A loop over the grid's blocks: its condition compares with the grid's size.
    const bool OverGrid = computesGridSize(Cond, Fr);
    GridLoops += OverGrid;
    // A loop whose condition differs between lanes runs its body in lanes not known.
    // A condition tested first runs in every thread that reaches the loop
    // (a spin's read: the IR's loop header, which the loop's exit does not guard).
    const int64_t SavedBelow = ThreadBelow;
    const bool LaneCond = Cond && laneBits(Cond, Fr) != 0;
    if (LaneCond && !CondFirst)
      ThreadBelow = UnknownThreadGuard;
    llvm::scope_exit Done([&] {
      Arms.pop_back();
      GridLoops -= OverGrid;
      ThreadBelow = SavedBelow;
    });
    size_t First = VarFlows.size();
    if (CondFirst) {
      walk(CondVar, Fr);
      walkWith(Cond, Fr, ValueUse{true, nullptr, ValueTest::None, LoopS});
      if (LaneCond)
        ThreadBelow = UnknownThreadGuard;
    }
    size_t Last = VarFlows.size();
    walk(Body, Fr);
    walk(Inc, Fr);
    if (!CondFirst) {
      walk(CondVar, Fr);
      walkWith(Cond, Fr, ValueUse{true, nullptr, ValueTest::None, LoopS});
      return;
    }
    for (size_t I = First; I < Last; ++I)
      VarFlows.push_back({VarFlows[I].From, VarFlows[I].To, Seq, VarFlows[I].Compare, VarFlows[I].Guard,
                          VarFlows[I].AgainstGrid, VarFlows[I].GoalVaries, VarFlows[I].GoalIsGrid});
  };
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getInit(), Fr);
    walk(If->getConditionVariableDeclStmt(), Fr);
    walkWith(If->getCond(), Fr, ValueUse{true, nullptr, ValueTest::None, If});
    // A condition the compiler knows (if constexpr, a template's if (!Traits::value), a sizeof
    // test) leaves one arm: the other never runs, and the device IR has no trace of it.
    std::optional<bool> Known = knownCondition(If->getCond(), Fr);
    noteBranch(If, If->getCond(), Fr);
    const Narrowing Saved = narrowing();
    auto Below = [&](bool WhenTrue) {
      if (ThreadBelow == UnknownThreadGuard)
        return;
      if (std::optional<ThreadBound> B = threadBound(If->getCond(), WhenTrue, Fr))
        bound(*B);
      else if (laneBits(If->getCond(), Fr) != 0)
        ThreadBelow = UnknownThreadGuard; // which lanes run the arm is not known
    };
    narrowTo(If->getCond(), /*WhenTrue=*/true, Fr);
    Below(true);
    if (Known != false)
      walkArm(If->getThen(), Fr, If, 0);
    restore(Saved);
    narrowTo(If->getCond(), /*WhenTrue=*/false, Fr);
    Below(false);
    if (Known != true)
      walkArm(If->getElse(), Fr, If, 1);
    restore(Saved);
    return true;
  }
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    Loop(W, W->getConditionVariableDeclStmt(), W->getCond(), W->getBody(), nullptr, true);
    return true;
  }
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    Loop(D, nullptr, D->getCond(), D->getBody(), nullptr, false);
    return true;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    walk(For->getInit(), Fr);
    Loop(For, For->getConditionVariableDeclStmt(), For->getCond(), For->getBody(), For->getInc(), true);
    return true;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    walk(Sw->getInit(), Fr);
    walk(Sw->getConditionVariableDeclStmt(), Fr);
    walkWith(Sw->getCond(), Fr, ValueUse{true, nullptr, ValueTest::None, Sw});
    walkSwitch(Sw, Fr);
    return true;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    walkWith(CO->getCond(), Fr, TestOf(CO));
    std::optional<bool> Known = knownCondition(CO->getCond(), Fr);
    if (Known != false)
      walkArm(CO->getTrueExpr(), Fr, CO, 0);
    if (Known != true)
      walkArm(CO->getFalseExpr(), Fr, CO, 1);
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isLogicalOp()) {
      walkWith(BO->getLHS(), Fr, TestOf(BO));
      walk(BO->getRHS(), Fr);
      return true;
    }
    if (BO->isComparisonOp() && (Use.Tested || Use.RelayTo)) {
      walkWith(BO->getLHS(), Fr, comparedUse(BO, /*Left=*/true, Fr));
      walkWith(BO->getRHS(), Fr, comparedUse(BO, /*Left=*/false, Fr));
      return true;
    }
    if (BO->getOpcode() != BO_Assign)
      return false;
    // The value assigned is the assignment's value too: the use around it
    // stays, and a variable assigned to relays it.
    ValueUse U = Use;
    U.Discarded = false; // the store uses it
    RelayKey To = relayTarget(BO->getLHS(), Fr);
    const bool PassedOn = To && mentions(BO->getRHS(), To, Fr); // locked = __shfl_sync(m, locked, 1)
    if (To) {
      U.RelayTo = To;
      if (!PassedOn)
        Defs[To].push_back({Seq, VarFlows.size(), {Arms.begin(), Arms.end()}});
      if (constantInt(BO->getRHS(), Ctx))
        ConstantSets.try_emplace(BO, To);
    }
    const unsigned SeqBefore = Seq;
    const size_t AccessesBefore = Owner.All.size();
    walkWith(BO->getRHS(), Fr, U);
    // What an access returns is what memory held, not the operand it was
    // handed (t = atomicCAS(p, t, t + 1)): a new value, given once the
    // operands are read.
    if (PassedOn && Owner.All.size() > AccessesBefore && Owner.All.back().Object &&
        (Owner.All.back().What == OpKind::Load || Owner.All.back().What == OpKind::RMW) &&
        Owner.All.back().Site == BO->getRHS()->IgnoreParenImpCasts())
      Defs[To].push_back({SeqBefore, VarFlows.size(), {Arms.begin(), Arms.end()}});
    walkWith(BO->getLHS(), Fr, ValueUse());
    if (Kind != ScopedAccess::Host)
      plainAccess(BO->getLHS(), OpKind::Store, BO, BO->getOperatorLoc(), Fr);
    return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit()) {
        Defs[VD].push_back({Seq, VarFlows.size(), {Arms.begin(), Arms.end()}});
        walkWith(VD->getInit(), Fr, ValueUse{false, VD});
      }
    return true;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    walkWith(R->getRetValue(), Fr, Fr->Result);
    return true;
  }
  // An address is computed from the values it reads, but what is loaded from
  // it is another value: a value used as an index (wl[idx]) or a pointer
  // (*p, p->f) neither relays nor is tested by what the load's value does.
  // A word every thread addresses alike relays, and is tested, as a
  // variable is (*slot, read back after the barrier).
  if (isa<ArraySubscriptExpr>(S) || (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref) ||
      (isa<MemberExpr>(S) && cast<MemberExpr>(S)->isArrow()))
    if (Use.Tested || Use.RelayTo)
      flowFrom(wordKey(cast<Expr>(S), Fr));
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
    walkWith(AS->getBase(), Fr, ValueUse());
    walkWith(AS->getIdx(), Fr, ValueUse());
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_Deref) {
    walkWith(UO->getSubExpr(), Fr, ValueUse());
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow()) {
    walkWith(ME->getBase(), Fr, ValueUse());
    return true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      flowFrom(VD);
    return true;
  }
  return false;
}

void ScopedAccesses::Walker::resolveGuards(size_t FirstAll, size_t FirstPlain) {
  // What a test guards ends with its statement, or never: after a loop (the
  // spin's exit) and after an if whose arm leaves (return, break, continue).
  auto Until = [&](const Stmt *Guard, unsigned Seq) -> unsigned {
    if (!Guard || isa<WhileStmt, ForStmt, DoStmt>(Guard))
      return ~0u;
    if (const auto *If = dyn_cast<IfStmt>(Guard); If && (leaves(If->getThen()) || leaves(If->getElse())))
      return ~0u;
    return guardEnd(Guard, Seq).value_or(~0u);
  };
  auto From = [&](const ScopedAccess &A) -> unsigned {
    // A while or for loop's test, which runs before its body, guards the body
    // (it runs while the test holds), the step and what runs once the loop is
    // done. A do-while's test follows the body, whose first run it does not
    // guard: it guards what runs once the loop is done.
    if (A.TestGuard && isa<DoStmt>(A.TestGuard))
      return guardEnd(A.TestGuard, *A.TestSeq).value_or(*A.TestSeq);
    return *A.TestSeq;
  };
  for (std::vector<ScopedAccess> *List : {&Owner.All, &Owner.Plain})
    for (size_t I = List == &Owner.All ? FirstAll : FirstPlain; I < List->size(); ++I) {
      ScopedAccess &A = (*List)[I];
      if (!A.TestSeq)
        continue;
      A.TestFrom = From(A);
      A.TestUntil = Until(A.TestGuard, *A.TestSeq);
      for (const auto &[Guard, At] : A.OtherTests)
        A.OtherGuarded.push_back({At, Until(Guard, At)});
    }
}

void ScopedAccesses::Walker::plainAccess(const Expr *E, OpKind K, const Stmt *Site, SourceLocation Loc,
                                         const Frame *Fr) {
  E = sameMemory(E);
  if (!E->getType()->isScalarType() && !E->getType()->isRecordType())
    return;
  // A thread's own variables, and what blocks or the host cannot write
  // (shared memory is per block, constant memory read-only), carry no
  // message between blocks: skip them before resolving anything.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || (VD->hasLocalStorage() && !VD->getType()->isReferenceType()) || VD->hasAttr<CUDASharedAttr>() ||
        VD->hasAttr<CUDAConstantAttr>())
      return;
  } else if (!isa<MemberExpr, ArraySubscriptExpr, UnaryOperator>(E)) {
    return;
  }
  std::optional<ObjectRef> O = lvalue(E, Fr);
  if (!O || !O->Root)
    return;
  plainAccessAt(std::move(*O), E->getType(), E, K, Site, Loc, Fr);
}

void ScopedAccesses::Walker::plainAccessAt(ObjectRef O, QualType T, const Expr *E, OpKind K, const Stmt *Site,
                                           SourceLocation Loc, const Frame *Fr) {
  // A struct copied whole reads (writes) each of its scalar fields, nested
  // structs' too, as the IR's loads (stores) of them do: a field written
  // alone (node->b = v) is the location a copy of the node later reads.
  SmallVector<SmallVector<const FieldDecl *, 2>, 16> Leaves;
  if (scalarLeaves(T, Leaves)) {
    for (const auto &Leaf : Leaves) {
      ObjectRef Field = O;
      StringRef Sep = !O.Path.empty() && O.Path.back() == nullptr ? "->" : ".";
      for (const FieldDecl *F : Leaf) {
        Field.Path.push_back(F);
        Field.Spelling += (Sep + F->getName()).str();
        Sep = ".";
      }
      plainAccessOf(std::move(Field), E, K, Site, Loc, Fr);
    }
    return;
  }
  plainAccessOf(std::move(O), E, K, Site, Loc, Fr);
}

void ScopedAccesses::Walker::plainAccessOf(ObjectRef O, const Expr *E, OpKind K, const Stmt *Site,
                                           SourceLocation Loc, const Frame *Fr) {
  ScopedAccess A;
  A.What = K;
  A.Ord = E->getType().isVolatileQualified() ? Order::Volatile : Order::Plain;
  A.S = Scope::System; // volatile is a relaxed system-scope access in PTX; plain has no scope
  A.How = ScopedAccess::Plain;
  A.Object = std::move(O);
  A.Name = A.Ord == Order::Volatile ? "volatile " : "";
  A.Name += K == OpKind::Load ? "load" : "store";
  A.Loc = Loc;
  if (const auto *BO = dyn_cast<BinaryOperator>(Site); K == OpKind::Store && BO && BO->getOpcode() == BO_Assign)
    A.Stored = constantInt(BO->getRHS(), Ctx);
  record(std::move(A), Site, Fr, /*PlainList=*/true);
}

void ScopedAccesses::Walker::call(const CallExpr *CE, const Frame *Fr) {
  if (recordCall(CE, Fr))
    return;
  // A struct assigned whole (partial[k] = p, v = src[i] for a uint4) reads
  // the right side and writes the left, as the copy's loads and stores do.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE); Op && Kind != ScopedAccess::Host && Op->isAssignmentOp())
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && MD->isTrivial() && (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
        Op->getNumArgs() == 2) {
      if (!isa<MaterializeTemporaryExpr>(Op->getArg(1)->IgnoreParenImpCasts()))
        plainAccess(Op->getArg(1), OpKind::Load, Op, Op->getArg(1)->getExprLoc(), Fr);
      plainAccess(Op->getArg(0), OpKind::Store, Op, Op->getOperatorLoc(), Fr);
    }
  if (Kind == ScopedAccess::Host) {
    allocation(CE);
    return;
  }
  if (const FunctionDecl *Callee = CE->getDirectCallee()) {
    CallSite C;
    C.Callee = Callee;
    C.Call = CE;
    C.Root = Root;
    C.Seq = Seq++;
    C.Arms.assign(Arms.begin(), Arms.end());
    Owner.Calls.push_back(std::move(C));
  }
  if (const FunctionDecl *Callee = CE->getDirectCallee())
    if (PeerTransfer T = peerTransferOf(plainQualifiedName(Callee)); T != PeerTransfer::None) {
      transfer(CE, T, Fr);
      return;
    }
  const FunctionDecl *Def = definitionOf(CE->getDirectCallee());
  if (!Def || (inSystemHeader(Def->getLocation()) && !walksLibraryFunction(plainQualifiedName(Def))) ||
      Active.contains(Def))
    return;
  if (Fr->Depth >= MaxDepth) {
    if (Kind != ScopedAccess::Host && CE->getDirectCallee() && !Owner.Calls.empty() && Owner.Calls.back().Call == CE)
      Owner.Calls.back().Unfollowed = true;
    return;
  }
  Frame Sub;
  Sub.F = Def;
  Sub.Call = CE;
  Sub.Parent = Fr;
  Sub.Depth = Fr->Depth + 1;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    Sub.This = MC->getImplicitObjectArgument();
    Sub.ThisIsPointer = Sub.This && Sub.This->getType()->isPointerType();
  } else if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) && CE->getNumArgs() > 0) {
    Sub.This = CE->getArg(0);
  }
  // The callee's value goes where the call's goes; inside it, values start
  // unused. Each call is its own arm, so that two calls of one function are
  // told apart.
  Sub.Result = Use;
  ValueUse Saved = Use;
  Use = ValueUse();
  Active.insert(Def);
  Chain.push_back(CE);
  Arms.push_back({CE, 0});
  walkBody(Def, &Sub);
  Arms.pop_back();
  Chain.pop_back();
  Active.erase(Def);
  Use = Saved;
}

void ScopedAccesses::Walker::record(ScopedAccess A, const Stmt *Site, const Frame *Fr, bool PlainList) {
  // What the host side compiles of device code only because __CUDA_ARCH__
  // is not defined there runs on no GPU: the device side reads that code.
  if (Kind != ScopedAccess::Host && HostArms && HostArms->hostOnly(A.Loc.isValid() ? A.Loc : Site->getBeginLoc()))
    return;
  A.Site = Site;
  // An access in a library's code that the walk follows (a system header:
  // clang-tidy shows nothing there) is shown at the project's innermost call
  // that reaches it.
  if (inSystemHeader(A.Loc))
    for (const Expr *Call : llvm::reverse(Chain))
      if (!inSystemHeader(Call->getExprLoc())) {
        A.Shown = Call->getExprLoc();
        break;
      }
  A.Function = Fr->F;
  A.Root = Root;
  A.RootIs = Kind;
  A.Seq = Seq++;
  // The call chain (for notes) serves the flags' rules: atomic and volatile
  // accesses keep it; plain ones, many more, keep none.
  if (!PlainList || A.Ord == Order::Volatile)
    A.CallChain.assign(Chain.begin(), Chain.end());
  A.Arms.assign(Arms.begin(), Arms.end());
  A.GridLoop = GridLoops > 0;
  A.ThreadBelow = ThreadBelow;
  A.RankGroup = RankGroup;
  A.OnlyBlock = OnlyBlock;
  A.ElectedBy = ElectedBy;
  bool Reads = A.What == OpKind::Load || A.What == OpKind::RMW;
  A.ValueUnused = A.What == OpKind::RMW && (A.ValueUnused || Use.Discarded);
  if (Reads && Use.Tested) {
    A.TestSeq = A.Seq;
    A.Test = Use.Compare == ValueTest::None ? ValueTest::Equality : Use.Compare;
    A.TestGuard = Use.Guard;
    A.AgainstGrid = Use.AgainstGrid;
    A.GoalVaries = Use.GoalVaries;
    A.GoalIsGrid = Use.GoalIsGrid;
  }
  std::vector<ScopedAccess> &List = PlainList ? Owner.Plain : Owner.All;
  if (Reads && Use.RelayTo && Kind != ScopedAccess::Host)
    Relays.push_back(
        {PlainList, List.size(), Use.RelayTo, Use.Compare, Use.AgainstGrid, Use.GoalVaries, Use.GoalIsGrid});
  List.push_back(std::move(A));
}

} // namespace cuda_scope
