//===- AccessValues.cpp - what a value compared with a read is ------------===//
//
// Part of ScopedAccesses::Walker: whether the other side of a comparison is
// the grid's size (MemOp::AgainstGrid) and whether it is the same at every
// run by one thread (MemOp::GoalVaries), as the grid barrier rules read them;
// values a call fixes (constant arguments), and the branches they decide.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"
#include "Divergence.h"
#include "ast/CheckUtils.h"
#include "model/Hierarchy.h"
#include "model/Engine.h"
#include "model/MemoryModel.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

bool ScopedAccesses::Walker::computesGridSize(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isGridSizeName(identifierOf(D)))
      return true;
    // A parameter is the argument its call passed; a local, what it holds.
    if (const auto *P = dyn_cast<ParmVarDecl>(D)) {
      if (auto Arg = argumentFor(P, Fr))
        return computesGridSize(Arg->first, Arg->second, Depth + 1);
      return false;
    }
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasLocalStorage()) {
      const Expr *Value = VD->getInit() ? VD->getInit() : singleAssignment(VD);
      return Value && computesGridSize(Value, Fr, Depth + 1);
    }
    return false;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && isGridSizeCall(plainFunctionName(FD->getQualifiedNameAsString())))
      return true;
  // gridDim.x is a property whose base the pseudo-object holds opaquely.
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return computesGridSize(OV->getSourceExpr(), Fr, Depth);
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child); C && computesGridSize(C, Fr, Depth))
      return true;
  return false;
}

bool ScopedAccesses::Walker::isGridWidth(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {
    const Expr *B = MP->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(B); OV && OV->getSourceExpr())
      B = OV->getSourceExpr()->IgnoreParenImpCasts();
    const auto *Base = dyn_cast<DeclRefExpr>(B);
    return Base && identifierOf(Base->getDecl()) == "gridDim" && MP->getPropertyDecl()->getName() == "x";
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (auto Arg = argumentFor(P, Fr))
        return isGridWidth(Arg->first, Arg->second, Depth + 1);
      return false;
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasLocalStorage()) {
      const Expr *Value = VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
      return Value && isGridWidth(Value, Fr, Depth + 1);
    }
  }
  return false;
}

bool ScopedAccesses::Walker::sameEveryUse(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenImpCasts();
  if (constantInt(E, Ctx) || builtinVariableRead(E))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && isGridSizeCall(plainFunctionName(FD->getQualifiedNameAsString()));
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A parameter is the argument its call passed (a kernel's: the same for
    // the whole launch); a local, what it holds if it is set once.
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (auto Arg = argumentFor(P, Fr))
        return sameEveryUse(Arg->first, Arg->second, Depth + 1);
      return !modified(P);
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasLocalStorage()) {
      const Expr *Value = VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
      return Value && sameEveryUse(Value, Fr, Depth + 1);
    }
    return isa<EnumConstantDecl>(DRE->getDecl());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) // a dim3 parameter's x; not what a pointer points to
    return !ME->isArrow() && sameEveryUse(ME->getBase(), Fr, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma && sameEveryUse(BO->getLHS(), Fr, Depth + 1) &&
           sameEveryUse(BO->getRHS(), Fr, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref && sameEveryUse(UO->getSubExpr(), Fr, Depth + 1);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return sameEveryUse(Cast->getSubExpr(), Fr, Depth + 1);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return sameEveryUse(CO->getCond(), Fr, Depth + 1) && sameEveryUse(CO->getTrueExpr(), Fr, Depth + 1) &&
           sameEveryUse(CO->getFalseExpr(), Fr, Depth + 1);
  return false;
}

std::optional<int64_t> ScopedAccesses::Walker::valueIn(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 8 || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (std::optional<int64_t> K = constantInt(E, Ctx))
    return K;
  E = E->IgnoreParenImpCasts();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return valueIn(Default->getExpr(), Fr, Depth + 1);
  // A choice the calls that led here decide (o == acquire ? relaxed : o),
  // and a function of such values that returns one expression, constexpr or
  // not (a library's releaseOrderOf(order)): inlining folds both.
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<bool> Cond = knownCondition(CO->getCond(), Fr);
    return Cond ? valueIn(*Cond ? CO->getTrueExpr() : CO->getFalseExpr(), Fr, Depth + 1) : std::nullopt;
  }
  // An operator that is a free function of its operands (a flag enum's
  // constexpr operator&: fence & ncclGinFenceLevel::Get) is such a function;
  // a member's reads its object, which may be memory.
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (isa<CXXMemberCallExpr>(CE) || (isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(CE->getDirectCallee())) ||
        !CE->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    if (auto Ret = returned(CE, Fr))
      return valueIn(Ret->first, Ret->second, Depth + 1);
    return std::nullopt;
  }
  // What such a function computes of them: integer casts and arithmetic.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    if (!Cast->getType()->isIntegralOrEnumerationType() ||
        !Cast->getSubExpr()->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    std::optional<int64_t> V = valueIn(Cast->getSubExpr(), Fr, Depth + 1);
    if (!V)
      return std::nullopt;
    if (Cast->getType()->isBooleanType())
      return *V != 0;
    // A narrower type keeps the low bits, sign-extended where it is signed.
    const unsigned Width = Ctx.getIntWidth(Cast->getType());
    if (Width == 0 || Width >= 64)
      return V;
    const uint64_t Low = uint64_t(*V) & ((uint64_t(1) << Width) - 1);
    if (Cast->getType()->isSignedIntegerOrEnumerationType() && (Low >> (Width - 1)))
      return int64_t(Low | ~((uint64_t(1) << Width) - 1));
    return int64_t(Low);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->getType()->isIntegralOrEnumerationType()) {
    std::optional<int64_t> L = valueIn(BO->getLHS(), Fr, Depth + 1);
    std::optional<int64_t> R = L ? valueIn(BO->getRHS(), Fr, Depth + 1) : std::nullopt;
    if (!L || !R)
      return std::nullopt;
    const uint64_t A = uint64_t(*L), B = uint64_t(*R);
    switch (BO->getOpcode()) {
    case BO_And: return int64_t(A & B);
    case BO_Or: return int64_t(A | B);
    case BO_Xor: return int64_t(A ^ B);
    case BO_Add: return int64_t(A + B);
    case BO_Sub: return int64_t(A - B);
    case BO_Mul: return int64_t(A * B);
    case BO_Shl: return B < 64 ? std::optional<int64_t>(int64_t(A << B)) : std::nullopt;
    default: return std::nullopt;
    }
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType() || modified(VD))
    return std::nullopt;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    if (auto Arg = argumentFor(P, Fr))
      return valueIn(Arg->first, Arg->second, Depth + 1);
    return std::nullopt;
  }
  if (!VD->getInit())
    return std::nullopt;
  return valueIn(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Depth + 1);
}

ScopedAccesses::Walker::RelayKey ScopedAccesses::Walker::relayTarget(const Expr *LHS, const Frame *Fr,
                                                                    unsigned Depth) {
  const auto *DRE = LHS ? dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD)
    return LHS ? wordKey(LHS, Fr) : nullptr;
  if (Depth > 8)
    return VD;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD); P && P->getType()->isReferenceType())
    if (auto Arg = argumentFor(P, Fr))
      if (RelayKey Behind = relayTarget(Arg->first, Arg->second, Depth + 1))
        return Behind;
  return VD;
}

ScopedAccesses::Walker::RelayKey ScopedAccesses::Walker::wordKey(const Expr *E, const Frame *Fr) {
  E = E->IgnoreParenImpCasts();
  if (!isa<UnaryOperator, ArraySubscriptExpr, MemberExpr>(E) || !E->getType()->isScalarType())
    return nullptr;
  std::optional<ObjectRef> O = lvalue(E, Fr);
  if (!O || !O->Root || !O->sameForEveryThread())
    return nullptr;
  return RelayWords.insert(O->key() + '\0' + O->Index).first->getKey().data();
}

std::optional<bool> ScopedAccesses::Walker::knownCondition(const Expr *Cond, const Frame *Fr) {
  if (!Cond || Cond->isValueDependent() || Cond->isTypeDependent())
    return std::nullopt;
  if (std::optional<bool> Folded = foldedCondition(Cond, Ctx))
    return Folded;
  // What the calls that led here fix: a parameter's constant argument, and
  // a function of it that returns one expression (releaseOrderOf(order) !=
  // relaxed), as inlining folds it; valueIn follows no call whose value
  // depends on memory.
  const Expr *E = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = knownCondition(UO->getSubExpr(), Fr);
    return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isLogicalOp()) {
      std::optional<bool> L = knownCondition(BO->getLHS(), Fr), R = knownCondition(BO->getRHS(), Fr);
      bool And = BO->getOpcode() == BO_LAnd;
      if ((L && *L != And) || (R && *R != And))
        return !And; // false && x, true || x
      if (L && R)
        return And;
      return std::nullopt;
    }
    if (BO->isComparisonOp()) {
      std::optional<int64_t> L = valueIn(BO->getLHS(), Fr), R = valueIn(BO->getRHS(), Fr);
      if (!L || !R)
        return std::nullopt;
      bool Unsigned = BO->getLHS()->IgnoreImpCasts()->getType()->isUnsignedIntegerType();
      auto Less = [&](int64_t A, int64_t B) { return Unsigned ? uint64_t(A) < uint64_t(B) : A < B; };
      switch (BO->getOpcode()) {
      case BO_EQ: return *L == *R;
      case BO_NE: return *L != *R;
      case BO_LT: return Less(*L, *R);
      case BO_GT: return Less(*R, *L);
      case BO_LE: return !Less(*R, *L);
      case BO_GE: return !Less(*L, *R);
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }
  if (std::optional<int64_t> V = valueIn(E, Fr))
    return *V != 0;
  return std::nullopt;
}

/// The statement a case label stands for, past the labels stacked on it
/// (case 1: case 2: f();).
static const Stmt *labelled(const Stmt *S) {
  while (const auto *SC = dyn_cast_or_null<SwitchCase>(S))
    S = SC->getSubStmt();
  return S;
}

void ScopedAccesses::Walker::walkSwitch(const SwitchStmt *Sw, const Frame *Fr) {
  // Only a body whose labels are its own statements is split; anything else
  // (a label inside a loop, Duff's device) is walked as written.
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  SmallVector<unsigned, 8> Starts;
  if (Body)
    for (unsigned I = 0; I < Body->size(); ++I)
      if (isa<SwitchCase>(Body->body_begin()[I]))
        Starts.push_back(I);
  if (Starts.empty() || Starts.front() != 0) {
    walk(Sw->getBody(), Fr);
    return;
  }
  // A case runs from its label to the first break, falling through labels.
  auto RunFrom = [&](unsigned First) {
    for (unsigned I = First; I < Body->size(); ++I) {
      const Stmt *S = labelled(Body->body_begin()[I]);
      if (isa<BreakStmt>(S))
        return;
      walk(S, Fr);
      if (isa<ReturnStmt, ContinueStmt, GotoStmt>(S))
        return;
    }
  };
  auto Matches = [&](const Stmt *S, int64_t V) {
    while (const auto *SC = dyn_cast_or_null<SwitchCase>(S)) {
      if (const auto *Case = dyn_cast<CaseStmt>(SC)) {
        std::optional<int64_t> Lo = constantInt(Case->getLHS(), Ctx);
        std::optional<int64_t> Hi = Case->getRHS() ? constantInt(Case->getRHS(), Ctx) : Lo;
        if (Lo && Hi && *Lo <= V && V <= *Hi)
          return true;
      }
      S = SC->getSubStmt();
    }
    return false;
  };
  auto IsDefault = [&](const Stmt *S) {
    while (const auto *SC = dyn_cast_or_null<SwitchCase>(S)) {
      if (isa<DefaultStmt>(SC))
        return true;
      S = SC->getSubStmt();
    }
    return false;
  };
  if (std::optional<int64_t> V = valueIn(Sw->getCond(), Fr)) {
    std::optional<unsigned> Taken;
    for (unsigned I : Starts)
      if (Matches(Body->body_begin()[I], *V))
        Taken = I;
    for (unsigned I : Starts)
      if (!Taken && IsDefault(Body->body_begin()[I]))
        Taken = I;
    if (Taken)
      RunFrom(*Taken);
    return;
  }
  for (unsigned K = 0; K < Starts.size(); ++K) {
    // The case's own statements, to the next label: an arm of the switch.
    unsigned End = K + 1 < Starts.size() ? Starts[K + 1] : Body->size();
    const Stmt *Last = labelled(Body->body_begin()[End - 1]);
    Arms.push_back({Sw, K | (isa<ReturnStmt>(Last) ? ArmReturns : 0)});
    for (unsigned I = Starts[K]; I < End; ++I) {
      const Stmt *S = labelled(Body->body_begin()[I]);
      if (isa<BreakStmt>(S))
        break;
      walk(S, Fr);
    }
    Arms.pop_back();
  }
}

//===----------------------------------------------------------------------===//
// Who runs what an arm holds: a pinned block, an elected one
//===----------------------------------------------------------------------===//

void ScopedAccesses::Walker::narrowTo(const Expr *Cond, bool WhenTrue, const Frame *Fr) {
  if (std::optional<int64_t> C = pinnedBlock(Cond, WhenTrue))
    OnlyBlock = *C;
  if (const Expr *Ticket = electingTicket(Cond, WhenTrue, Fr))
    ElectedBy = Ticket;
}

const Expr *ScopedAccesses::Walker::electingTicket(const Expr *Cond, bool WhenTrue, const Frame *Fr,
                                                   unsigned Depth) {
  if (!Cond || Depth > 6)
    return nullptr;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return electingTicket(UO->getSubExpr(), !WhenTrue, Fr, Depth + 1);
  // __syncthreads_or(last): some thread of the block holds last.
  if (const auto *CE = dyn_cast<CallExpr>(Cond)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return WhenTrue && FD && identifierOf(FD) == "__syncthreads_or" && CE->getNumArgs() == 1
               ? electingTicket(CE->getArg(0), true, Fr, Depth + 1)
               : nullptr;
  }
  // A local that holds such a test, or false: bool last = false; if (tid == 0) last = t == n - 1;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Cond)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!WhenTrue || !VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
      return nullptr;
    const Modifications *Map = modificationsOf(VD);
    auto It = Map ? Map->find(VD) : Modifications::const_iterator();
    const bool Modified = !Map || It != Map->end();
    if (Modified && (!Map || It->second.Other || It->second.Plain != It->second.Count))
      return nullptr;
    SmallVector<const Expr *, 3> Values;
    if (const Expr *Init = VD->getInit())
      Values.push_back(Init);
    if (Modified)
      Values.append(It->second.Values.begin(), It->second.Values.end());
    const Expr *Ticket = nullptr;
    for (const Expr *V : Values) {
      if (std::optional<int64_t> C = constantInt(V, Ctx); C && *C == 0)
        continue;
      const Expr *T = electingTicket(V, true, Fr, Depth + 1);
      if (!T || (Ticket && T != Ticket))
        return nullptr;
      Ticket = T;
    }
    return Ticket;
  }
  // ticket == value, the same value for every thread (gridDim.x - 1).
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE) || (BO->getOpcode() == BO_EQ) != WhenTrue)
    return nullptr;
  for (auto [T, Value] : {std::pair(BO->getLHS(), BO->getRHS()), std::pair(BO->getRHS(), BO->getLHS())})
    if (sameEveryUse(Value, Fr))
      if (const Expr *Ticket = ticketDrawn(T, Fr, Depth + 1))
        return Ticket;
  return nullptr;
}

const Expr *ScopedAccesses::Walker::ticketDrawn(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
      return nullptr;
    const Expr *Value = VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
    return ticketDrawn(Value, Fr, Depth + 1);
  }
  if (!isa<CallExpr>(E))
    return nullptr;
  // The draw this walk recorded for the call: distinct draws, in no loop.
  for (const ScopedAccess &A : llvm::reverse(Owner.All)) {
    if (A.Root != Root)
      break;
    if (A.Site != E)
      continue;
    bool InLoop = any_of(A.Arms, [](const std::pair<const Stmt *, unsigned> &Arm) { return Arm.second & ArmLoop; });
    return A.What == OpKind::RMW && drawsDistinctTickets(A.Name, A.Operand) && !InLoop ? E : nullptr;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The two sides of a comparison
//===----------------------------------------------------------------------===//

namespace {
/// comparisonTest for the side of \p BO (a comparison) that holds the read
/// value: the operator as seen from that side, in the type both sides are
/// compared in.
ValueTest astComparisonTest(const BinaryOperator *BO, bool Left) {
  Comparison C;
  switch (BO->getOpcode()) {
  case BO_EQ: C = Comparison::EQ; break;
  case BO_NE: C = Comparison::NE; break;
  case BO_LT: C = Left ? Comparison::LT : Comparison::GT; break;
  case BO_LE: C = Left ? Comparison::LE : Comparison::GE; break;
  case BO_GT: C = Left ? Comparison::GT : Comparison::LT; break;
  case BO_GE: C = Left ? Comparison::GE : Comparison::LE; break;
  default: return ValueTest::Bound;
  }
  const Expr *Other = (Left ? BO->getRHS() : BO->getLHS())->IgnoreParenImpCasts();
  std::optional<int64_t> K;
  if (const auto *IL = dyn_cast<IntegerLiteral>(Other); IL && IL->getValue().getActiveBits() <= 63)
    K = IL->getValue().getZExtValue();
  return comparisonTest(C, BO->getLHS()->getType()->isUnsignedIntegerType(), K);
}
} // namespace


ScopedAccesses::Walker::ValueUse ScopedAccesses::Walker::comparedUse(const BinaryOperator *BO, bool Left,
                                                                     const Frame *Fr) {
  const Expr *Self = Left ? BO->getLHS() : BO->getRHS(), *Other = Left ? BO->getRHS() : BO->getLHS();
  // A local holds one value; two reads of a word hold one where nothing can
  // come between them, as the IR's value numbering merges them: not in a
  // loop's test, which reads the word again on each pass (a spin on a sense
  // word compared with the sense read before it waits for it to change).
  const bool Rereads = Use.Guard && isa<WhileStmt, ForStmt, DoStmt>(Use.Guard);
  auto KeyOf = [&](const Expr *E) -> RelayKey {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    if (DRE && isa<VarDecl>(DRE->getDecl()))
      return DRE->getDecl();
    return Rereads ? nullptr : wordKey(E, Fr);
  };
  // Either side computed from the other: next == f(value), or f(value) == value.
  if (RelayKey Key = KeyOf(Self); Key && computedFrom(Other, Key, Fr, BO->getSourceRange()))
    return ValueUse();
  if (RelayKey Key = KeyOf(Other); Key && computedFrom(Self, Key, Fr, BO->getSourceRange()))
    return ValueUse();
  ValueUse U = Use;
  U.Compare = astComparisonTest(BO, Left);
  U.AgainstGrid = Use.AgainstGrid || computesGridSize(Other, Fr);
  U.GoalVaries = Use.GoalVaries || (U.AgainstGrid && !sameEveryUse(Other, Fr));
  U.GoalIsGrid = Use.GoalIsGrid || isGridWidth(Other, Fr);
  return U;
}

bool ScopedAccesses::Walker::computedFrom(const Expr *E, RelayKey Key, const Frame *Fr, SourceRange At,
                                          unsigned Depth) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenCasts();
  auto Next = [&](const Expr *X) { return computedFrom(X, Key, Fr, At, Depth + 1); };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    // Taken in the comparison itself (x == f(x)), or where a local took it
    // and nothing gave it another value since.
    if (RelayKey(VD) == Key) {
      const SourceManager &SM = Ctx.getSourceManager();
      const SourceLocation Taken = SM.getExpansionLoc(DRE->getBeginLoc());
      const bool InComparison = !SM.isBeforeInTranslationUnit(Taken, SM.getExpansionLoc(At.getBegin())) &&
                                !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(At.getEnd()), Taken);
      return InComparison || !VD->hasLocalStorage() || !changedBetween(VD, DRE->getBeginLoc(), At.getBegin());
    }
    if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
      return false;
    // Any value the local is given, as the IR's phi of them.
    SmallVector<const Expr *, 4> Values;
    if (VD->getInit())
      Values.push_back(VD->getInit());
    if (const Modifications *Map = modificationsOf(VD))
      if (auto It = Map->find(VD); It != Map->end())
        Values.append(It->second.Values.begin(), It->second.Values.end());
    return any_of(Values, Next);
  }
  if (isa<ArraySubscriptExpr, MemberExpr>(E) || (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    return wordKey(E, Fr) == Key;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && (Next(BO->getLHS()) || Next(BO->getRHS()));
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && Next(UO->getSubExpr());
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return Next(CO->getTrueExpr()) || Next(CO->getFalseExpr());
  return false;
}

bool ScopedAccesses::Walker::changedBetween(const VarDecl *K, SourceLocation From, SourceLocation To) {
  const Modifications *Map = modificationsOf(K);
  auto It = Map ? Map->find(K) : Modifications::const_iterator();
  if (!Map || It == Map->end())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  From = SM.getExpansionLoc(From);
  To = SM.getExpansionLoc(To);
  auto Before = [&](SourceLocation A, SourceLocation B) { return SM.isBeforeInTranslationUnit(A, B); };
  // The innermost loop the walk is in that holds where the value was taken.
  SourceRange Loop;
  for (const auto &[Owner, Arm] : llvm::reverse(Arms)) {
    if (!(Arm & ArmLoop))
      continue;
    SourceRange R(SM.getExpansionLoc(Owner->getBeginLoc()), SM.getExpansionLoc(Owner->getEndLoc()));
    if (!Before(From, R.getBegin()) && !Before(R.getEnd(), From)) {
      Loop = R;
      break;
    }
  }
  const bool RoundLoop = Loop.isValid() && Before(To, From);
  return any_of(It->second.Sites, [&](SourceLocation S) {
    S = SM.getExpansionLoc(S);
    if (!RoundLoop)
      return Before(From, S) && Before(S, To);
    const bool InLoop = !Before(S, Loop.getBegin()) && !Before(Loop.getEnd(), S);
    return InLoop && (Before(From, S) || Before(S, To));
  });
}

} // namespace cuda_scope
