//===- DecidedPaths.cpp - arms a test the path passed has closed -----------===//
#include "DecidedPaths.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
namespace {

using Fact = DecidedPaths::Fact;

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const APSInt &V = R.Val.getInt();
  if (V.getSignificantBits() > 64 || (V.isUnsigned() && V.getActiveBits() > 63))
    return std::nullopt;
  return V.getExtValue();
}

/// The variable \p E reads, where it reads nothing else: a local or a
/// by-value parameter of integral or enumeration type that no other thread
/// can write (not volatile, not a reference).
const VarDecl *variableOf(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || V->getType().isVolatileQualified() ||
      !V->getType()->isIntegralOrEnumerationType())
    return nullptr;
  return V;
}

/// The facts \p Cond gives where it evaluates to \p Holds: an equality of a
/// variable with a constant, a variable's truth, their negations, and the
/// parts of an && that held or an || that failed.
void factsOf(const Expr *Cond, bool Holds, const ASTContext &Ctx, SmallVectorImpl<Fact> &Out, unsigned Depth = 0) {
  if (!Cond || Depth > 8)
    return;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot)
    return factsOf(U->getSubExpr(), !Holds, Ctx, Out, Depth + 1);
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if ((B->getOpcode() == BO_LAnd && Holds) || (B->getOpcode() == BO_LOr && !Holds)) {
      factsOf(B->getLHS(), Holds, Ctx, Out, Depth + 1);
      factsOf(B->getRHS(), Holds, Ctx, Out, Depth + 1);
      return;
    }
    if (!B->isEqualityOp())
      return;
    const Expr *Subject = B->getLHS(), *Other = B->getRHS();
    if (!variableOf(Subject))
      std::swap(Subject, Other);
    const VarDecl *V = variableOf(Subject);
    // The constant as the comparison converts it (-1 against an unsigned).
    std::optional<int64_t> K = V ? constantOf(Other->IgnoreParens(), Ctx) : std::nullopt;
    if (!K)
      return;
    const bool Equal = (B->getOpcode() == BO_EQ) == Holds;
    Out.push_back({V, {Equal ? Comparison::EQ : Comparison::NE, *K}});
    return;
  }
  if (const VarDecl *V = variableOf(Cond))
    Out.push_back({V, {Holds ? Comparison::NE : Comparison::EQ, 0}});
}

/// The facts on the path into the arm \p A: the condition of an if (with no
/// declaration of its own) or ?: held for the first arm, failed for the
/// second. Loops and switches give none.
void armFacts(const DecidedPaths::Arm &A, const ASTContext &Ctx, SmallVectorImpl<Fact> &Out) {
  if (A.second & ArmLoop)
    return;
  const bool First = (A.second & ~(ArmReturns | ArmLoop | ArmLeavesIteration | ArmBreaks)) == 0;
  if (const auto *If = dyn_cast<IfStmt>(A.first); If && !If->getInit() && !If->getConditionVariable() &&
                                                   !If->isConsteval())
    factsOf(If->getCond(), First, Ctx, Out);
  else if (const auto *CO = dyn_cast<ConditionalOperator>(A.first))
    factsOf(CO->getCond(), First, Ctx, Out);
}

} // namespace

bool DecidedPaths::unchanged(const Stmt *Body, const VarDecl *V) const {
  auto [It, New] = Unchanged.try_emplace({Body, V}, false);
  if (New)
    It->second = !ExprMutationAnalyzer(*Body, Ctx).isMutated(V);
  return It->second;
}

/// The function a walk is in past the arms \p Calls: the callee of the
/// last call among them, or \p Root; its definition.
static const FunctionDecl *functionPast(ArrayRef<DecidedPaths::Arm> Calls, const FunctionDecl *Root) {
  const FunctionDecl *Fn = Root;
  for (const DecidedPaths::Arm &A : Calls)
    if (const auto *CE = dyn_cast<CallExpr>(A.first); CE && Fn)
      Fn = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  return Fn && Fn->hasBody(Def) && Def->getBody() ? Def : nullptr;
}

bool DecidedPaths::uniform(const VarDecl *V, ArrayRef<Arm> Calls, const FunctionDecl *Root, unsigned Depth) const {
  const FunctionDecl *Fn = functionPast(Calls, Root);
  if (!Fn || Depth > 8 || !unchanged(Fn->getBody(), V))
    return false;
  const auto *P = dyn_cast<ParmVarDecl>(V);
  if (!P)
    return V->getInit() && uniform(V->getInit(), Calls, Root, Depth + 1);
  if (P->getDeclContext() != Fn && P->getDeclContext() != Fn->getCanonicalDecl())
    if (!is_contained(Fn->parameters(), P))
      return false;
  // The call into Fn hands it the argument, in its caller.
  while (!Calls.empty() && !isa<CallExpr>(Calls.back().first))
    Calls = Calls.drop_back();
  if (Calls.empty())
    return Fn->hasAttr<CUDAGlobalAttr>();
  const auto *CE = cast<CallExpr>(Calls.back().first);
  unsigned Index = P->getFunctionScopeIndex();
  if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Fn) && !cast<CXXMethodDecl>(Fn)->isStatic())
    ++Index; // the object is the operator call's first argument
  return Index < CE->getNumArgs() && uniform(CE->getArg(Index), Calls.drop_back(), Root, Depth + 1);
}

bool DecidedPaths::uniform(const Expr *E, ArrayRef<Arm> Calls, const FunctionDecl *Root, unsigned Depth) const {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8)
    return false;
  if (constantOf(E, Ctx))
    return true;
  if (const VarDecl *V = variableOf(E))
    return uniform(V, Calls, Root, Depth + 1);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && !B->isCommaOp() && uniform(B->getLHS(), Calls, Root, Depth + 1) &&
           uniform(B->getRHS(), Calls, Root, Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && U->getOpcode() != UO_AddrOf && U->getOpcode() != UO_Deref &&
           uniform(U->getSubExpr(), Calls, Root, Depth + 1);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return uniform(CO->getCond(), Calls, Root, Depth + 1) && uniform(CO->getTrueExpr(), Calls, Root, Depth + 1) &&
           uniform(CO->getFalseExpr(), Calls, Root, Depth + 1);
  return false;
}

ArrayRef<Fact> DecidedPaths::factsOf(const Arm &A) const {
  auto [It, New] = ArmFacts.try_emplace(A);
  if (New)
    armFacts(A, Ctx, It->second);
  return It->second;
}

bool DecidedPaths::closed(const FunctionDecl *Root, ArrayRef<Arm> ArmsA, ArrayRef<Arm> ArmsB) const {
  size_t I = 0;
  while (I < ArmsA.size() && I < ArmsB.size() && ArmsA[I] == ArmsB[I])
    ++I;
  SmallVector<Fact, 4> Known, Needed;
  for (size_t J = I; J < ArmsA.size() && !isa<CallExpr>(ArmsA[J].first); ++J)
    append_range(Known, factsOf(ArmsA[J]));
  if (Known.empty())
    return false;
  for (size_t J = I; J < ArmsB.size() && !isa<CallExpr>(ArmsB[J].first); ++J)
    append_range(Needed, factsOf(ArmsB[J]));
  if (Needed.empty())
    return false;
  // The arms past the common ones, up to a call, are statements of the
  // function the walk is in there: one call of it runs both tests.
  for (const Fact &N : Needed)
    for (const Fact &K : Known)
      if (N.Var == K.Var && !consistentTests(K.Test, N.Test) && uniform(K.Var, ArmsA.take_front(I), Root, 0))
        return true;
  return false;
}

} // namespace cuda_scope
