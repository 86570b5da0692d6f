//===- AstSpins.cpp - the values on which a spin in the AST is left -------===//
#include "AstSpins.h"
#include "ast/CheckUtils.h"
#include "ScopedAccessesWalker.h"
#include <functional>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

namespace {
/// \p S is a break, or a block that ends in one.
bool endsInBreak(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsInBreak(CS->body_back());
  return isa_and_nonnull<BreakStmt>(S);
}

/// A helper's test on every way out of the loop that calls it: the loop and
/// which arm of the test can lead out of it.
struct HelperExit {
  const Stmt *Loop;
  bool GoThen;
};
std::optional<HelperExit> helperExit(const ScopedAccess &A, const ASTContext &Ctx);
} // namespace

/// The read decides the exit of a loop that holds it: the loop's own
/// condition, an if in it whose arm breaks out, or an if of a helper the
/// loop's condition calls that decides what the helper can return
/// (MemOp::Spins).
bool spins(const ScopedAccess &A, const ASTContext &Ctx) {
  if (A.Waits)
    return true;
  if (!A.TestSeq || !A.TestGuard)
    return false;
  bool InLoop = false;
  for (const auto &[Owner, Arm] : A.Arms) {
    if (!(Arm & ArmLoop))
      continue;
    if (Owner == A.TestGuard)
      return true;
    InLoop = true;
  }
  const auto *If = dyn_cast<IfStmt>(A.TestGuard);
  return InLoop && If && (endsInBreak(If->getThen()) || endsInBreak(If->getElse()) || helperExit(A, Ctx));
}

namespace {

/// Ways out of a loop other than its test, in \p S, a part of its body: a
/// break of the loop itself (not of a loop or switch inside it), a return,
/// a goto. Counted, so that an if whose arm breaks can be the one way out.
unsigned exitsOf(const Stmt *S, bool Nested = false) {
  if (!S)
    return 0;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S))
    return 2;
  if (isa<BreakStmt>(S))
    return Nested ? 0 : 1;
  const bool Inner = Nested || isa<WhileStmt, DoStmt, ForStmt, CXXForRangeStmt, SwitchStmt>(S);
  unsigned N = 0;
  for (const Stmt *C : S->children())
    N += exitsOf(C, Inner);
  return N;
}

/// \p X is the value the access \p A reads: its own expression; a call of
/// a function whose body returns it (a try-lock helper); or a variable that
/// the loop \p Loop writes once, with it (do rv = atomicCAS(...); while (rv)).
bool isValueOf(const Expr *X, const ScopedAccess &A, const Stmt *Loop) {
  const auto *Site = dyn_cast_or_null<Expr>(A.Site);
  if (!X || !Site)
    return false;
  X = X->IgnoreParenCasts();
  // A read assigned in the test itself (while ((st = flag[i]) == 0)).
  if (const auto *BO = dyn_cast<BinaryOperator>(X); BO && BO->getOpcode() == BO_Assign)
    X = BO->getRHS()->IgnoreParenCasts();
  const Expr *Read = Site->IgnoreParenImpCasts();
  if (X == Read)
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(X)) {
    if (!is_contained(A.CallChain, CE) || A.CallChain.back() != CE)
      return false;
    const FunctionDecl *F = CE->getDirectCallee() ? CE->getDirectCallee()->getDefinition() : nullptr;
    const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
    const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
    return Ret && Ret->getRetValue() && Ret->getRetValue()->IgnoreParenCasts() == Read;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(X);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return false;
  unsigned Writes = 0;
  bool FromRead = false;
  auto IsV = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == V;
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && IsV(BO->getLHS())) {
      ++Writes;
      FromRead |= BO->getOpcode() == BO_Assign && BO->getRHS()->IgnoreParenCasts() == Read;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
               UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && IsV(UO->getSubExpr())) {
      Writes += 2;
    }
    for (const Stmt *C : S->children())
      Visit(C);
  };
  Visit(Loop);
  return Writes == 1 && FromRead;
}
} // namespace

/// The value a compare-exchange that returns whether it swapped expects,
/// where it is one constant at every call in its loop: the variable's
/// initial value, set again by a statement of the loop's \p Body (the call
/// writes what it read into it when it fails), and written nowhere else. The
/// variable is a member call's first argument (compare_exchange_strong), a
/// builtin's second (__nv_atomic_compare_exchange_n(p, &expected, ...)), or
/// an atomic expression's.
std::optional<int64_t> expectedConstant(const Expr *Swap, const Stmt *Body, const ASTContext &Ctx) {
  const Expr *Arg = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Swap)) {
    for (const Expr *E : MC->arguments())
      if (!impl::isMemoryOrderType(E->getType())) {
        Arg = E;
        break;
      }
  } else if (const auto *CE = dyn_cast<CallExpr>(Swap)) {
    Arg = CE->getNumArgs() > 1 ? CE->getArg(1) : nullptr;
  } else if (const auto *AE = dyn_cast<AtomicExpr>(Swap)) {
    Arg = AE->getNumSubExprs() > 4 ? AE->getVal1() : nullptr;
  }
  if (const auto *UO = Arg ? dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()) : nullptr;
      UO && UO->getOpcode() == UO_AddrOf)
    Arg = UO->getSubExpr();
  const auto *DRE = Arg ? dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || !V->getInit())
    return std::nullopt;
  std::optional<int64_t> K = constantInt(V->getInit(), Ctx);
  if (!K || !Body)
    return std::nullopt;
  // The loop's statements: those of its block, or its one statement.
  ArrayRef<Stmt *> Statements;
  Stmt *One = const_cast<Stmt *>(Body);
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    Statements = ArrayRef<Stmt *>(Block->body_begin(), Block->body_end());
  else
    Statements = ArrayRef<Stmt *>(&One, 1);
  bool Reset = false;
  for (const Stmt *S : Statements)
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()); L && L->getDecl() == V) {
        std::optional<int64_t> R = constantInt(BO->getRHS(), Ctx);
        if (!R || !sameValue(*R, *K))
          return std::nullopt;
        Reset = true;
      }
  // Anywhere else in the loop, only the same constant.
  bool Other = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Other)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()); L && L->getDecl() == V) {
        std::optional<int64_t> R = constantInt(BO->getRHS(), Ctx);
        Other |= BO->getOpcode() != BO_Assign || !R || !sameValue(*R, *K);
      }
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      if (const auto *L = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()); L && L->getDecl() == V)
        Other = true;
    for (const Stmt *C : S->children())
      Visit(C);
  };
  Visit(Body);
  return Reset && !Other ? K : std::nullopt;
}

namespace {

/// One comparison of a value with a constant, or a truth test of it, under
/// any number of !: the value X, the condition VC under which the comparison
/// (without the !s) holds, whether the !s negate it, and the expression
/// under them.
struct Compared {
  const Expr *X;
  ValueCondition VC;
  bool Negated;
  const Expr *Whole;
};
std::optional<Compared> comparedIn(const Expr *Cond, const ASTContext &Ctx) {
  bool Negated = false;
  const Expr *E = Cond->IgnoreParenImpCasts();
  while (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() != UO_LNot)
      break;
    Negated = !Negated;
    E = U->getSubExpr()->IgnoreParenImpCasts();
  }
  ValueCondition VC{Comparison::NE, 0}; // a truth test
  const Expr *X = E;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
      return std::nullopt;
    VC.Op = BO->getOpcode() == BO_EQ ? Comparison::EQ : Comparison::NE;
    if (std::optional<int64_t> K = constantInt(BO->getRHS(), Ctx))
      X = BO->getLHS(), VC.C = *K;
    else if (std::optional<int64_t> K = constantInt(BO->getLHS(), Ctx))
      X = BO->getRHS(), VC.C = *K;
    else
      return std::nullopt;
  }
  return Compared{X, VC, Negated, E};
}

/// The loop whose condition calls the helper that holds \p A, where that
/// call's value is the condition (while (!tryLock(l)) {}) and the loop's body
/// has no way out of its own: the helper's returns decide whether the loop
/// goes on. Stays(K): the loop goes on when the helper returns K.
struct HelperLoop {
  const Stmt *Loop = nullptr;
  const CompoundStmt *Body = nullptr; ///< the helper's
  Compared Goes{};
  const ASTContext *Ctx = nullptr;
  bool stays(const ReturnStmt *R) const {
    std::optional<int64_t> K = R->getRetValue() ? constantInt(R->getRetValue(), *Ctx) : std::nullopt;
    return K && Goes.VC.holdsFor(*K) != Goes.Negated;
  }
  bool leaves(const ReturnStmt *R) const {
    std::optional<int64_t> K = R->getRetValue() ? constantInt(R->getRetValue(), *Ctx) : std::nullopt;
    return K && Goes.VC.holdsFor(*K) == Goes.Negated;
  }
  /// Every return in \p S meets \p Test.
  template <typename Pred> static bool allReturns(const Stmt *S, Pred Test) {
    if (!S)
      return true;
    if (const auto *R = dyn_cast<ReturnStmt>(S); R && !Test(R))
      return false;
    return all_of(S->children(), [&](const Stmt *C) { return allReturns(C, Test); });
  }
};

std::optional<HelperLoop> helperLoop(const ScopedAccess &A, const ASTContext &Ctx) {
  const auto *Body = A.Function ? dyn_cast_or_null<CompoundStmt>(A.Function->getBody()) : nullptr;
  if (!Body)
    return std::nullopt;
  // The call of the helper: the last call on the way to the access.
  const Expr *Call = nullptr;
  for (const auto &Entry : A.Arms)
    if (const auto *CE = dyn_cast<CallExpr>(Entry.first))
      Call = CE;
  if (!Call)
    return std::nullopt;
  const auto *Callee = cast<CallExpr>(Call)->getDirectCallee();
  if (!Callee || Callee->getDefinition() != A.Function->getDefinition())
    return std::nullopt;
  for (const auto &[Owner, Arm] : A.Arms) {
    if (!(Arm & ArmLoop))
      continue;
    const Expr *Cond = nullptr;
    const Stmt *LoopBody = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(Owner))
      Cond = W->getCond(), LoopBody = W->getBody();
    else if (const auto *D = dyn_cast<DoStmt>(Owner))
      Cond = D->getCond(), LoopBody = D->getBody();
    else if (const auto *F = dyn_cast<ForStmt>(Owner))
      Cond = F->getCond(), LoopBody = F->getBody();
    // while (auto failed = !tryLock(l)) {}: the variable's value is the test.
    if (const auto *W = dyn_cast<WhileStmt>(Owner); W && W->getConditionVariable())
      Cond = W->getConditionVariable()->getInit();
    std::optional<Compared> C = Cond ? comparedIn(Cond, Ctx) : std::nullopt;
    if (C && C->X->IgnoreParenCasts() == Call && exitsOf(LoopBody) == 0)
      return HelperLoop{Owner, Body, *C, &Ctx};
    // do got = tryLock(l); while (!got);: a do-while whose body only sets
    // the variable its condition tests from the call.
    const auto *Only = dyn_cast_or_null<CompoundStmt>(LoopBody);
    const Stmt *Set = Only && Only->size() == 1 ? Only->body_front() : LoopBody;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(Set);
    const auto *Var = C ? dyn_cast<DeclRefExpr>(C->X->IgnoreParenImpCasts()) : nullptr;
    const auto *Into = BO && BO->getOpcode() == BO_Assign ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())
                                                         : nullptr;
    if (isa<DoStmt>(Owner) && Var && Into && Into->getDecl() == Var->getDecl() &&
        BO->getRHS()->IgnoreParenCasts() == Call)
      return HelperLoop{Owner, Body, *C, &Ctx};
  }
  return std::nullopt;
}

/// The local variable, or the member of *this, that \p E names.
static const ValueDecl *namedVariable(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *R = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && V->hasLocalStorage() && !V->getType()->isReferenceType())
      return V;
  if (const auto *M = dyn_cast_or_null<MemberExpr>(E))
    if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(M->getMemberDecl());
  return nullptr;
}

/// helperExit's second form: \p If, at \p At of the helper's body, tests a
/// variable (a local or a member of *this) that the body's last statement
/// returns; nothing after the if assigns it or returns, and every return
/// before it stays in the loop. The loop is left on the if's outcome whose
/// value of the variable leaves it.
static std::optional<HelperExit> returnsTested(const HelperLoop &H, const IfStmt *If,
                                               CompoundStmt::const_body_iterator At, const ASTContext &Ctx) {
  const auto *Ret = dyn_cast<ReturnStmt>(H.Body->body_back());
  const ValueDecl *V = Ret ? namedVariable(Ret->getRetValue()) : nullptr;
  std::optional<Compared> C = V ? comparedIn(If->getCond(), Ctx) : std::nullopt;
  if (!C || namedVariable(C->X) != V)
    return std::nullopt;
  bool Touched = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Touched)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Touched |= namedVariable(BO->getLHS()) == V;
    if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
      Touched |= namedVariable(UO->getSubExpr()) == V;
    Touched |= isa<ReturnStmt, GotoStmt, CXXThrowExpr>(S) && S != Ret;
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  for (auto I = At; I != H.Body->body_end(); ++I)
    Visit(*I);
  if (Touched)
    return std::nullopt;
  // The variable's two truth values: the one on which the if's condition
  // holds, and whether the loop is left on each.
  auto Holds = [&](int64_t K) { return C->VC.holdsFor(K) != C->Negated; };
  auto Leaves = [&](int64_t K) { return H.Goes.VC.holdsFor(K) == H.Goes.Negated; };
  if (Holds(0) == Holds(1) || Leaves(0) == Leaves(1))
    return std::nullopt;
  return HelperExit{H.Loop, /*GoThen=*/Leaves(Holds(1) ? 1 : 0)};
}

/// An if in a helper that the condition of a loop calls, on every way out of
/// that loop (while (!tryLock(l)) {}, with if (!got) return false; in
/// tryLock): the if is a statement of the helper's body, one of its arms
/// ends in a return of a constant with which the loop goes on, and so does
/// every return before it. The loop is left only through the if's other
/// arm, as through an if whose arm breaks; the IR front end sees the same
/// branch once the helper is inlined (IrSpins' spinExit: the branch on
/// every way out of the loop).
std::optional<HelperExit> helperExit(const ScopedAccess &A, const ASTContext &Ctx) {
  const auto *If = dyn_cast_or_null<IfStmt>(A.TestGuard);
  std::optional<HelperLoop> H = If ? helperLoop(A, Ctx) : std::nullopt;
  if (!H)
    return std::nullopt;
  auto Stays = [&](const ReturnStmt *R) { return H->stays(R); };
  auto EndsInStay = [&](const Stmt *S) {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
      S = CS->body_empty() ? nullptr : CS->body_back();
    const auto *R = dyn_cast_or_null<ReturnStmt>(S);
    return R && H->stays(R);
  };
  auto At = find(H->Body->body(), If);
  if (At == H->Body->body_end())
    return std::nullopt;
  for (auto I = H->Body->body_begin(); I != At; ++I)
    if (!HelperLoop::allReturns(*I, Stays))
      return std::nullopt;
  const bool ThenStays = EndsInStay(If->getThen()), ElseStays = EndsInStay(If->getElse());
  if (ThenStays != ElseStays) {
    if (!HelperLoop::allReturns(ThenStays ? If->getThen() : If->getElse(), Stays))
      return std::nullopt;
    return HelperExit{H->Loop, /*GoThen=*/ElseStays};
  }
  // bool locked = ...; if (locked) __threadfence(); return locked;: the
  // helper's one return after the if gives back the variable the if tests,
  // unchanged since, so the loop is left on one of the if's outcomes, as the
  // IR's branch on it is once the helper is inlined.
  return returnsTested(*H, If, At, Ctx);
}
} // namespace

/// The loop the spinning read \p A is left by: the loop its test is the
/// condition of, the loop an if of its breaks out of, or the loop whose
/// condition calls a helper that tests it (helperExit). None where it does
/// not spin.
const Stmt *spinLoopOf(const ScopedAccess &A, const ASTContext &Ctx) {
  if (!spins(A, Ctx))
    return nullptr;
  if (isa_and_nonnull<WhileStmt, DoStmt, ForStmt>(A.TestGuard))
    return A.TestGuard;
  if (std::optional<HelperExit> H = helperExit(A, Ctx))
    return H->Loop;
  const Stmt *Innermost = nullptr;
  for (const auto &[Owner, Arm] : A.Arms)
    if (Arm & ArmLoop)
      Innermost = Owner;
  return Innermost;
}


/// \p A sits in a helper that a loop's condition calls (helperLoop), in a
/// statement of its body from which every return leaves the loop (the
/// section after the last return false, then return true): it runs once the
/// loop is left, as the IR's loops hold such a tail outside them (a block
/// that cannot reach the loop's header is not in the loop).
bool pastLoop(const ScopedAccess &A, const ASTContext &Ctx) {
  std::optional<HelperLoop> H = helperLoop(A, Ctx);

  if (!H || H->Body->body_empty() || !isa<ReturnStmt>(H->Body->body_back()))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation At = SM.getExpansionLoc(A.Loc);
  auto I = H->Body->body_begin();
  for (; I != H->Body->body_end(); ++I) {
    const SourceLocation E = SM.getExpansionLoc((*I)->getEndLoc());
    if (!SM.isBeforeInTranslationUnit(E, At))
      break;
  }
  if (I == H->Body->body_end() || SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc((*I)->getBeginLoc())))
    return false;
  for (; I != H->Body->body_end(); ++I)
    if (!HelperLoop::allReturns(*I, [&](const ReturnStmt *R) { return H->leaves(R); }))
      return false;
  return true;
}


/// The condition on the value a spinning read returns under which its loop
/// is left (MemOp::PassWhen): the loop's test, or an if whose arm breaks out
/// of a loop with no test of its own, is its one way out, and is one
/// comparison of the value with a constant (or a truth test of it) under
/// any number of !. The IR front end reads the same from the loop's one
/// exiting branch (IrRecords' spinExit).
std::optional<ValueCondition> spinExit(const ScopedAccess &A, const ASTContext &Ctx) {
  if (A.Waits || !A.TestGuard)
    return std::nullopt;
  const Stmt *Loop = A.TestGuard, *Body = nullptr;
  const Expr *Cond = nullptr;
  bool ExitWhenTrue = false;
  unsigned Allowed = 0;
  if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    Cond = W->getCond();
    Body = W->getBody();
  } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    Cond = D->getCond();
    Body = D->getBody();
  } else if (const auto *F = dyn_cast<ForStmt>(Loop)) {
    Cond = F->getCond();
    Body = F->getBody();
  } else if (std::optional<HelperExit> H = helperExit(A, Ctx)) {
    // while (!tryLock(l)) {}, with if (!got) return false; in tryLock.
    const auto *If = cast<IfStmt>(Loop);
    ExitWhenTrue = H->GoThen;
    Cond = If->getCond();
    Loop = H->Loop;
    Body = nullptr; // its body has no way out (helperExit)
  } else if (const auto *If = dyn_cast<IfStmt>(Loop)) {
    // for (;;) { ... if (atomicCAS(l, 0, 1) == 0) break; }
    const Stmt *Enclosing = nullptr;
    for (const auto &[Owner, Arm] : A.Arms)
      if (Arm & ArmLoop)
        Enclosing = Owner;
    if (!Enclosing)
      return std::nullopt;
    const Expr *LoopCond = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(Enclosing))
      LoopCond = W->getCond(), Body = W->getBody();
    else if (const auto *F = dyn_cast<ForStmt>(Enclosing))
      LoopCond = F->getCond(), Body = F->getBody();
    else
      return std::nullopt;
    if (LoopCond) {
      std::optional<int64_t> K = constantInt(LoopCond, Ctx);
      if (!K && LoopCond->getType()->isBooleanType()) {
        bool B;
        if (LoopCond->EvaluateAsBooleanCondition(B, Ctx) && B)
          K = 1;
      }
      if (!K || *K == 0)
        return std::nullopt;
    }
    const bool Then = exitsOf(If->getThen()) == 1;
    const bool Else = exitsOf(If->getElse()) == 1;
    if (Then == Else)
      return std::nullopt;
    ExitWhenTrue = Then;
    Cond = If->getCond();
    Loop = Enclosing;
    Allowed = 1; // the if's own break
  } else {
    return std::nullopt;
  }
  if (!Cond || (Body && exitsOf(Body) != Allowed))
    return std::nullopt;
  std::optional<Compared> C = comparedIn(Cond, Ctx);
  if (!C)
    return std::nullopt;
  const Expr *X = C->X, *E = C->Whole;
  ValueCondition VC = C->VC;
  const bool Negated = C->Negated;
  const bool Direct = isValueOf(X, A, Loop);
  const auto *Via = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
  if (!Direct && !(A.SetterIf && Via && Via->getDecl() == A.SetterVar))
    return std::nullopt;
  if (!Direct) {
    // Through the variable a setter sets: the loop is left on the values of
    // the variable VC names; the read lets it go where the arm its value
    // takes sets the variable to such a value and the other arm does not.
    if (ExitWhenTrue == Negated)
      VC.Op = VC.Op == Comparison::EQ ? Comparison::NE : Comparison::EQ;
    std::optional<Compared> R = comparedIn(A.SetterIf->getCond(), Ctx);
    if (!R || !isValueOf(R->X, A, A.SetterIf) || R->X->IgnoreParenCasts()->getType()->isBooleanType())
      return std::nullopt;
    ValueCondition Taken = R->VC; // the then arm runs on these values
    if (R->Negated)
      Taken.Op = Taken.Op == Comparison::EQ ? Comparison::NE : Comparison::EQ;
    auto Passes = [&](std::optional<int64_t> V) { return V && VC.holdsFor(*V); };
    const bool ThenPasses = Passes(A.SetterThen), ElsePasses = Passes(A.SetterElse);
    // An arm that leaves the variable alone leaves it at a value the loop
    // goes on with (the loop is still running).
    if (ThenPasses && !ElsePasses)
      return Taken;
    if (ElsePasses && !ThenPasses) {
      Taken.Op = Taken.Op == Comparison::EQ ? Comparison::NE : Comparison::EQ;
      return Taken;
    }
    return std::nullopt;
  }
  // A compare-exchange that returns whether it swapped (compare_exchange_strong,
  // __nv_atomic_compare_exchange_n) tests that, not the value: whether the
  // value read equals expected, known where the variable holds one constant
  // at every call (set to it before the loop and again in it).
  if (const Expr *Swap = X->IgnoreParenCasts(); Swap->getType()->isBooleanType() && A.What == OpKind::RMW &&
                                                  updateForm(A.Name) == UpdateForm::ComparesAndSwaps) {
    if (X != E || !Body)
      return std::nullopt;
    std::optional<int64_t> K = expectedConstant(Swap, Body, Ctx);
    if (!K)
      return std::nullopt;
    VC = {Comparison::EQ, *K};
  }
  // The condition, with its negations, leaves the loop when it holds (an
  // if's break) or when it fails (the loop's own test).
  if (ExitWhenTrue == Negated)
    VC.Op = VC.Op == Comparison::EQ ? Comparison::NE : Comparison::EQ;
  return VC;
}

} // namespace cuda_scope
