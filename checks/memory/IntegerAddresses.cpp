//===- IntegerAddresses.cpp - addresses a program makes through integers ==//
//
// A collective library reaches a peer's memory through one flat window: every
// GPU's buffer is mapped one stride apart, and a peer's address is the base
// moved by the peer's stride. The move is made on an integer: the pointer
// cast to an integer, added to and cast back, or its high word bumped
// through a union. The address moves, the object stays: it points into the
// object of the one pointer it was made from, at an element the integer
// picks, as every entry of an array of peer pointers is that array. The IR
// front end reads ptrtoint and inttoptr the same way (ir::underlyingObject).
//
// Not followed, in either front end: a pointer read from memory as an
// integer (a 64-bit load handed back through a union). nccl's device API
// reads its network queues that way, and naming them made its
// device-to-NIC doorbells look like messages between threads.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"
#include "ast/CheckUtils.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

/// Collects the pointers the integer \p E is made from (a pointer cast to
/// an integer), through arithmetic, casts and locals set once; every other
/// leaf is an offset (a literal, a parameter, a value read from memory, a
/// call's value). False where it cannot be followed (a local changed more
/// than once).
static bool collectPointers(const Expr *E, SmallVectorImpl<const Expr *> &Pointers, unsigned &Seen,
                            function_ref<const Expr *(const VarDecl *)> ValueOf) {
  if (!E || ++Seen > 48)
    return false;
  E = E->IgnoreParens();
  if (E->isValueDependent())
    return false;
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getCastKind() == CK_PointerToIntegral) {
      Pointers.push_back(Cast->getSubExpr());
      return true;
    }
    if (Cast->getCastKind() == CK_LValueToRValue) {
      const auto *DRE = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
        return true; // read from memory, or a parameter: an offset
      const Expr *Value = ValueOf(VD);
      return Value && collectPointers(Value, Pointers, Seen, ValueOf);
    }
    return collectPointers(Cast->getSubExpr(), Pointers, Seen, ValueOf);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() && collectPointers(BO->getLHS(), Pointers, Seen, ValueOf) &&
           collectPointers(BO->getRHS(), Pointers, Seen, ValueOf);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && collectPointers(UO->getSubExpr(), Pointers, Seen, ValueOf);
  return true; // a literal, a call's value, threadIdx.x: offsets
}

std::optional<ObjectRef> ScopedAccesses::Walker::throughInteger(const Expr *Int, const Frame *Fr, unsigned Steps) {
  if (!Int || ++Steps > MaxResolve)
    return std::nullopt;
  SmallVector<const Expr *, 2> Pointers;
  unsigned Seen = 0;
  auto ValueOf = [&](const VarDecl *VD) -> const Expr * {
    return VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
  };
  if (!collectPointers(Int, Pointers, Seen, ValueOf) || Pointers.empty())
    return std::nullopt;
  // Made from pointers that all point into one object (one pointer, read
  // twice: the high and the low word).
  std::optional<ObjectRef> R;
  for (const Expr *P : Pointers) {
    std::optional<ObjectRef> One = pointee(P, Fr, Steps);
    if (!One || (R && !R->sameObject(*One)))
      return std::nullopt;
    if (!R)
      R = One;
  }
  // The integer picks the element, at run time.
  if (Int->IgnoreParenImpCasts() != Pointers.front()->IgnoreParenImpCasts())
    addIndex(*R, Int, Fr);
  return R;
}

std::optional<ObjectRef> ScopedAccesses::Walker::unionPointer(const MemberExpr *ME, const Frame *Fr, unsigned Steps) {
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const RecordDecl *RD = VD ? VD->getType()->getAsRecordDecl() : nullptr;
  const auto *Owner = VD ? dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()) : nullptr;
  if (ME->isArrow() || !RD || !RD->isUnion() || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !Owner ||
      !Owner->getBody())
    return std::nullopt;
  // Every write of the union: plain assignments of its members (or of their
  // elements) store a source; compound ones move the bits it holds. Taking
  // its address, or passing it whole, hides what is written.
  struct Writes : RecursiveASTVisitor<Writes> {
    const VarDecl *Var;
    SmallVector<const Expr *, 2> Sources, Moves;
    unsigned Uses = 0, Named = 0;
    bool Hidden = false;
    const DeclRefExpr *of(const Expr *E) const {
      E = E->IgnoreParenImpCasts();
      while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase()->IgnoreParenImpCasts();
      const auto *M = dyn_cast<MemberExpr>(E);
      const auto *D = M && !M->isArrow() ? dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts()) : nullptr;
      return D && D->getDecl() == Var ? D : nullptr;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp() && of(BO->getLHS()))
        (BO->getOpcode() == BO_Assign ? Sources : Moves).push_back(BO->getRHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Hidden |= UO->getOpcode() == UO_AddrOf && of(UO->getSubExpr());
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      Uses += D->getDecl() == Var;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *M) {
      Named += !M->isArrow() && of(M);
      return true;
    }
  } W;
  W.Var = VD;
  W.TraverseStmt(Owner->getBody());
  // Declared bare (an anonymous union's variable is default-constructed).
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
  if (W.Hidden || W.Uses != W.Named || W.Sources.size() != 1 || (VD->getInit() && (!Init || Init->getNumArgs())))
    return std::nullopt;
  const Frame *Own = frameOf(Owner, Fr);
  const Expr *Source = W.Sources.front();
  std::optional<ObjectRef> R = Source->getType()->isPointerType() ? pointee(Source, Own, Steps)
                                                                   : throughInteger(Source, Own, Steps);

  // What the other members add moves the address: an element the moves pick.
  if (R)
    for (const Expr *Move : W.Moves)
      addIndex(*R, Move, Own);
  return R;
}

} // namespace cuda_scope
