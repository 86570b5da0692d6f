//===- IndexRows.cpp - the row of an offsets array an index lies in --------===//
//
// An array a function reads at an owner's item v and at v + 1 is an offsets
// array: its v's row runs from X[v] to X[v + 1] (model: rowOf). An index
// made of one of the row's bounds and of columns lies in the row, and so
// does a cursor that moves in it (model: rowCursor): a partition's two
// cursors, and a lane's index the warp shuffles. The access's owner part is
// then the row, whatever the column, as for a range walk (rangeRow).
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"
#include "model/Hierarchy.h"
#include "llvm/ADT/ScopeExit.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

namespace {
/// v of v + 1 (or 1 + v); null for anything else.
const Expr *lessOne(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Add)
    return nullptr;
  auto IsOne = [](const Expr *X) {
    const auto *L = dyn_cast<IntegerLiteral>(X->IgnoreParenImpCasts());
    return L && L->getValue() == 1;
  };
  return IsOne(BO->getRHS()) ? BO->getLHS() : IsOne(BO->getLHS()) ? BO->getRHS() : nullptr;
}

const ValueDecl *arrayOf(const ArraySubscriptExpr *S) {
  const auto *DRE = dyn_cast<DeclRefExpr>(S->getBase()->IgnoreParenImpCasts());
  return DRE ? DRE->getDecl() : nullptr;
}

void collectSubscripts(const Stmt *S, std::vector<const ArraySubscriptExpr *> &Out) {
  if (!S)
    return;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    Out.push_back(AS);
  for (const Stmt *C : S->children())
    collectSubscripts(C, Out);
}

/// The value argument of a shuffle (__shfl_sync(mask, v, src) and its
/// forms); null for other calls.
const Expr *shuffled(const CallExpr *CE) {
  const auto *Callee = CE->getDirectCallee();
  std::optional<unsigned> Arg = Callee ? shuffledValueArg(Callee->getName()) : std::nullopt;
  return Arg && CE->getNumArgs() > *Arg ? CE->getArg(*Arg) : nullptr;
}

/// The two operands of max(a, b), min(a, b), c ? a : b.
std::optional<std::pair<const Expr *, const Expr *>> pickedOperands(const Expr *E) {
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return std::make_pair(CO->getTrueExpr(), CO->getFalseExpr());
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Callee = CE->getDirectCallee(); Callee && CE->getNumArgs() == 2)
      if (picksAnOperand(Callee->getQualifiedNameAsString()) || picksAnOperand(Callee->getName()))
        return std::make_pair(CE->getArg(0), CE->getArg(1));
  return std::nullopt;
}
} // namespace

std::optional<std::string> ScopedAccesses::Walker::indexRow(const Expr *Index, const Frame *Fr,
                                                            IndexDeps &Owner, unsigned Depth) {
  return termsRow({{Index, Fr, false}}, Owner, Depth);
}

void ScopedAccesses::Walker::rowRoots(const Expr *E, const Frame *Fr, bool Negated,
                                      SmallVectorImpl<RowRoot> &Out, unsigned Steps) {
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && Steps < 8 && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    rowRoots(BO->getLHS(), Fr, Negated, Out, Steps + 1);
    rowRoots(BO->getRHS(), Fr, BO->getOpcode() == BO_Sub ? !Negated : Negated, Out, Steps + 1);
    return;
  }
  const Frame *Source = Fr;
  if (const Expr *Followed = followed(E, Source); Followed != E && Steps < 8)
    return rowRoots(Followed, Source, Negated, Out, Steps + 1);
  Out.push_back({E, Fr, Negated});
}

bool ScopedAccesses::Walker::rowColumnPart(const Expr *E, const Frame *Fr, unsigned Depth) {
  SmallVector<RowRoot, 6> Terms;
  rowRoots(E, Fr, false, Terms, 0);
  SmallVector<RowTerm, 6> Rows;
  IndexDeps Ignored;
  for (const RowRoot &T : Terms)
    Rows.push_back(rowTerm(T.E, T.Fr, T.Negated, Ignored, Depth + 1));
  return rowColumn(Rows);
}

std::optional<std::string> ScopedAccesses::Walker::termsRow(ArrayRef<RowRoot> Roots,
                                                            IndexDeps &Owner, unsigned Depth) {
  if (Depth > 6)
    return std::nullopt;
  SmallVector<RowRoot, 6> Terms;
  for (const RowRoot &R : Roots)
    rowRoots(R.E, R.Fr, R.Negated, Terms, 0);
  // A choice between two indices (beg + (right ? len - 1 - k : k)) is in a
  // row where both of them are.
  for (unsigned I = 0; I < Terms.size(); ++I) {
    const auto *CO = dyn_cast<ConditionalOperator>(Terms[I].E);
    IndexDeps Deps;
    if (!CO || (canon(CO, Terms[I].Fr, Deps), !Deps.Block))
      continue;
    auto ArmRow = [&](const Expr *Arm) {
      SmallVector<RowRoot, 6> With(Terms.begin(), Terms.end());
      With[I].E = Arm;
      return termsRow(With, Owner, Depth + 1);
    };
    const auto [True, False] = std::make_pair(CO->getTrueExpr(), CO->getFalseExpr());
    return choiceRow(ArmRow(True), ArmRow(False));
  }
  SmallVector<RowTerm, 6> Rows;
  for (const RowRoot &T : Terms)
    Rows.push_back(rowTerm(T.E, T.Fr, T.Negated, Owner, Depth));
  return rowOf(Rows);
}

RowTerm ScopedAccesses::Walker::rowTerm(const Expr *E, const Frame *Fr, bool Negated,
                                        IndexDeps &Owner, unsigned Depth) {
  RowTerm T;
  T.Negated = Negated;
  IndexDeps Deps;
  canon(E, Fr, Deps);
  if (!Deps.Block)
    T.Kind = RowTermKind::Column;
  // A local that moves in one row, or a lane's index in the warp's row
  // that a shuffle or a max hands on.
  auto InRow = [&](std::optional<std::string> Row) {
    if (Row) {
      T.Kind = RowTermKind::Cursor;
      T.Row = std::move(*Row);
    }
    return T;
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasLocalStorage() && !isa<ParmVarDecl>(V)) {
      if (std::optional<std::string> Row = cursorRow(V, Fr, Owner, Depth + 1))
        return InRow(Row);
      return T;
    }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const Expr *Value = shuffled(CE)) {
      IndexDeps Lane;
      std::optional<std::string> Row = indexRow(Value, Fr, Lane, Depth + 1);
      if (Row && shuffleKeepsRow(Lane)) {
        Owner |= Lane;
        return InRow(Row);
      }
      return T;
    }
  if (auto Picked = pickedOperands(E)) {
    IndexDeps A, B;
    std::optional<std::string> RowA = indexRow(Picked->first, Fr, A, Depth + 1);
    if (std::optional<std::string> Both = RowA ? choiceRow(RowA, indexRow(Picked->second, Fr, B, Depth + 1)) : std::nullopt) {
      Owner |= A;
      return InRow(Both);
    }
    // The smaller of two distances in the row is one (min(32, end - beg)).
    if (!RowA && Depth < 6 && rowColumnPart(Picked->first, Fr, Depth) &&
        rowColumnPart(Picked->second, Fr, Depth))
      T.Kind = RowTermKind::Column;
    return T;
  }
  // X[v] or X[v + 1], v the owner's, where the function reads X at both.
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
  const ValueDecl *X = AS ? arrayOf(AS) : nullptr;
  if (!X || !Deps.Block)
    return T;
  const Expr *V = AS->getIdx();
  const Expr *Below = lessOne(V);
  IndexDeps VDeps;
  std::string Item = canon(Below ? Below : V, Fr, VDeps);
  if (!VDeps.Block)
    return T;
  const FunctionDecl *Fn = dyn_cast<FunctionDecl>(X->getDeclContext());
  if (!Fn && Fr)
    Fn = Fr->F;
  if (!Fn || !Fn->getBody())
    return T;
  auto [It, New] = Subscripts.try_emplace(Fn);
  if (New)
    collectSubscripts(Fn->getBody(), It->second);
  const std::vector<const ArraySubscriptExpr *> Reads =
      It->second; // a copy: canon may read another body
  const Frame *InFn = frameOf(Fn, Fr);
  if (!InFn)
    InFn = Fr;
  const ArraySubscriptExpr *Start = nullptr;
  bool HasEnd = false;
  for (const ArraySubscriptExpr *S : Reads) {
    if (arrayOf(S) != X)
      continue;
    IndexDeps Ignored;
    if (const Expr *L = lessOne(S->getIdx()))
      HasEnd |= canon(L, InFn, Ignored) == Item;
    else if (!Start && canon(S->getIdx(), InFn, Ignored) == Item)
      Start = S;
  }
  if (!Start || !HasEnd)
    return T;
  IndexDeps Ignored;
  T.Kind = Below ? RowTermKind::End : RowTermKind::Start;
  T.Row = canon(Start, InFn, Ignored);
  Owner |= VDeps;
  return T;
}

std::optional<std::string> ScopedAccesses::Walker::cursorRow(const VarDecl *V, const Frame *Fr,
                                                             IndexDeps &Owner, unsigned Depth) {
  const Modifications *Map = modificationsOf(V);
  auto It = Map ? Map->find(V) : Modifications::const_iterator();
  if (!Map || It == Map->end() || It->second.Other || Depth > 6 || !CursorWalks.insert(V).second)
    return std::nullopt;
  llvm::scope_exit Done([&] { CursorWalks.erase(V); });
  const Modification &M = It->second;
  const Frame *Own = frameOf(V->getParentFunctionOrMethod(), Fr);
  bool StepsAreColumns = true;
  for (const Expr *Step : M.Steps) {
    IndexDeps D;
    canon(Step, Own, D);
    StepsAreColumns &= !D.Block;
  }
  bool Shuffled = false;
  // What one value says: the local's own (through a max or a shuffle), a
  // sentinel, or an index in a row.
  std::function<CursorValue(const Expr *)> ValueOf = [&](const Expr *E) -> CursorValue {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E); DRE && DRE->getDecl() == V)
      return {CursorValueKind::Self, ""};
    if (std::optional<APSInt> C = E->getIntegerConstantExpr(Ctx); C && C->isNegative())
      return {CursorValueKind::Sentinel, ""};
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const Expr *Value = shuffled(CE)) {
        Shuffled = true;
        return ValueOf(Value);
      }
    if (auto Picked = pickedOperands(E)) {
      CursorValue A = ValueOf(Picked->first), B = ValueOf(Picked->second);
      if (A.Kind == CursorValueKind::Self)
        return B;
      if (B.Kind == CursorValueKind::Self || (A.Kind == B.Kind && A.Row == B.Row))
        return A;
      return {};
    }
    if (std::optional<std::string> Row = indexRow(E, Own, Owner, Depth + 1))
      return {CursorValueKind::Row, *Row};
    return {};
  };
  SmallVector<CursorValue, 4> Values;
  if (V->getInit())
    Values.push_back(ValueOf(V->getInit()));
  for (const Expr *Value : M.Values)
    Values.push_back(ValueOf(Value));
  std::optional<std::string> Row = rowCursor(Values, StepsAreColumns);
  // A lane's value shuffled to the others is in their row only where the
  // row is the whole warp's.
  if (Row && Shuffled && !shuffleKeepsRow(Owner))
    return std::nullopt;
  return Row;
}

} // namespace cuda_scope
