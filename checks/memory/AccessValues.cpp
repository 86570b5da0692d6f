//===- AccessValues.cpp - what a value compared with a read is ------------===//
//
// Part of ScopedAccesses::Walker: whether the other side of a comparison is
// the grid's size (MemOp::AgainstGrid) and whether it is the same at every
// run by one thread (MemOp::GoalVaries), as the grid barrier rules read them.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"
#include "Divergence.h"
#include "ast/CheckUtils.h"
#include "model/Hierarchy.h"
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

} // namespace cuda_scope
