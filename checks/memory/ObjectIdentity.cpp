//===- ObjectIdentity.cpp - what object an expression names --------------===//
#include "ScopedAccessesWalker.h"
#include "ast/CheckUtils.h"
#include "model/Ptx.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

//===----------------------------------------------------------------------===//
// Object identity
//===----------------------------------------------------------------------===//

namespace {
/// Collects the variables a body assigns, increments, takes the address of or
/// binds to a non-const reference: their initializer may not be their value.
/// For each, how many times, and the value of a plain assignment (Modification).
/// Not clang's ExprMutationAnalyzer, which the capture regions use: that says
/// whether a variable is written, and the device walk needs what each write
/// stores (the one assignment of an index, a grid-stride loop's steps).
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  explicit ModifiedVars(DenseMap<const VarDecl *, Modification> &Out) : Out(Out) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp()) // compound assignments too
      return true;
    const VarDecl *V = varOf(BO->getLHS());
    const Expr *Step = nullptr;
    if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
      Step = BO->getRHS();
    } else if (const auto *Sum = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
               V && BO->getOpcode() == BO_Assign && Sum && Sum->isAdditiveOp() && varOf(Sum->getLHS()) == V) {
      Step = Sum->getRHS(); // v = v + e
    }
    mark(BO->getLHS(), BO->getOpcode() == BO_Assign && !Step ? BO->getRHS() : nullptr);
    if (V && Out.count(V)) {
      Modification &M = Out[V];
      if (Step)
        M.Steps.push_back(Step);
      else if (BO->getOpcode() == BO_Assign)
        ++M.Plain;
      else
        ++M.Other;
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    // A non-const member function may change the object's fields; called
    // through a pointer (p->f()), the object is *p, and p stays as it was.
    const Expr *Object = MC->getImplicitObjectArgument();
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && !MD->isConst() && !MD->isStatic() && Object && !Object->getType()->isPointerType())
      mark(Object);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) {
      mark(UO->getSubExpr());
      if (const VarDecl *V = varOf(UO->getSubExpr()); V && Out.count(V))
        ++Out[V].Other;
    }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (!OC->isAssignmentOp() || OC->getNumArgs() == 0)
      return true;
    // A copy that the compiler writes (a struct's implicit operator=) is a
    // plain assignment of the whole value.
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getCalleeDecl());
    const bool Copy = MD && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
                      (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
                      (MD->isTrivial() || MD->isDefaulted());
    mark(OC->getArg(0), Copy ? OC->getArg(1) : nullptr);
    if (const VarDecl *V = varOf(OC->getArg(0)); Copy && V && Out.count(V))
      ++Out[V].Plain;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Shift; I < CE->getNumArgs() && I - Shift < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I - Shift)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        mark(CE->getArg(I));
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    // A non-const reference to a variable may change it.
    if (VD->getType()->isReferenceType() && !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit())
      mark(VD->getInit());
    return true;
  }

private:
  static const VarDecl *varOf(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }
  void mark(const Expr *E, const Expr *Value = nullptr) {
    const Expr *Whole = E->IgnoreParenCasts();
    // `a[i] = v`, a plain assignment of one element of a local array.
    const Expr *ElementValue = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Whole);
        Value && AS && isa<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()) &&
        AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      ElementValue = Value;
    for (unsigned Step = 0; E && Step < 8; ++Step) {
      E = E->IgnoreParenCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
        E = ME->getBase();
        continue;
      }
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E); AS && AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
        E = AS->getBase();
        continue;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
          Modification &M = Out[VD];
          ++M.Count;
          M.Sites.push_back(E->getExprLoc());
          if (Value) // a step or ++ leaves the plain assignment as it was
            M.Assigned = E == Whole ? Value : nullptr;
          if (Value && E == Whole)
            M.Values.push_back(Value);
          if (ElementValue)
            M.Elements.push_back(ElementValue);
        }
      return;
    }
  }
  DenseMap<const VarDecl *, Modification> &Out;
};
} // namespace

const ScopedAccesses::Walker::Modifications *ScopedAccesses::Walker::modificationsOf(const VarDecl *V) {
  return modificationsIn(dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()));
}

const ScopedAccesses::Walker::Modifications *ScopedAccesses::Walker::modificationsIn(const FunctionDecl *F) {
  if (!F || !F->getBody())
    return nullptr;
  std::unique_ptr<Modifications> &Map = Modified[F];
  if (!Map) {
    Map = std::make_unique<Modifications>();
    ModifiedVars(*Map).TraverseStmt(F->getBody());
  }
  return Map.get();
}

bool ScopedAccesses::Walker::modified(const VarDecl *V) {
  if (V->getType().isConstQualified())
    return false;
  const Modifications *Map = modificationsOf(V);
  return !Map || Map->count(V);
}

const Expr *ScopedAccesses::Walker::singleAssignment(const VarDecl *V) {
  // int tid; tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (V->getInit() || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
    return nullptr;
  const Modifications *Map = modificationsOf(V);
  auto It = Map ? Map->find(V) : Modifications::const_iterator();
  return Map && It != Map->end() && It->second.Count == 1 ? It->second.Assigned : nullptr;
}

std::optional<ObjectRef> ScopedAccesses::Walker::functorField(const FieldDecl *FD, const Frame *Fr) {
  // The walk's root is a functor's call operator that no kernel of the unit
  // calls: a library's kernel runs it (thrust::for_each, cub::DeviceFor),
  // which was given the functor by value as its argument. Its fields are a
  // kernel argument's: the pointers in them point to device memory unless
  // shown otherwise, as a kernel's parameters do.
  const auto *Call = dyn_cast_or_null<CXXMethodDecl>(Root);
  if (Kind != ScopedAccess::DeviceFunction || !Call || Call->isStatic() ||
      Call->getOverloadedOperator() != OO_Call || Call->getParent()->isLambda() ||
      FD->getParent() != Call->getParent())
    return std::nullopt;
  const Frame *Up = Fr;
  while (Up && !isa<CXXMethodDecl>(Up->F))
    Up = Up->Parent;
  if (!Up || Up->F != Root || Up->This)
    return std::nullopt;
  return rootRef(FD);
}

ObjectRef ScopedAccesses::Walker::rootRef(const ValueDecl *D) {
  ObjectRef R;
  R.Root = cast<ValueDecl>(D->getCanonicalDecl());
  R.Spelling = D->getNameAsString();
  return R;
}

std::optional<std::pair<const Expr *, const ScopedAccesses::Walker::Frame *>>
ScopedAccesses::Walker::argumentFor(const ParmVarDecl *P, const Frame *Fr) {
  const Frame *Owner = frameOf(P->getDeclContext(), Fr);
  if (!Owner || !Owner->Call)
    return std::nullopt;
  unsigned Index = P->getFunctionScopeIndex();
  if (const auto *CE = dyn_cast<CallExpr>(Owner->Call)) {
    if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Owner->F))
      ++Index; // the object is argument 0
    if (Index < CE->getNumArgs())
      return std::make_pair(CE->getArg(Index), Owner->Parent);
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Owner->Call)) {
    if (Index < Construct->getNumArgs())
      return std::make_pair(Construct->getArg(Index), Owner->Parent);
  }
  return std::nullopt;
}

std::optional<std::pair<const Expr *, const ScopedAccesses::Walker::Frame *>>
ScopedAccesses::Walker::returned(const CallExpr *CE, const Frame *Fr) {
  // A function whose body is declarations and one return computes its value
  // the same way every time; with branches, which value it returns depends
  // on them.
  const FunctionDecl *Def = definitionOf(CE->getDirectCallee());
  if (!Def || (Fr && Fr->Depth >= MaxResolveDepth) ||
      (inSystemHeader(Def->getLocation()) && !readsLibraryFunctionBody(plainQualifiedName(Def))))
    return std::nullopt;
  for (const Frame *Up = Fr; Up; Up = Up->Parent)
    if (Up->F == Def)
      return std::nullopt;
  if (!Def->getBody())
    return std::nullopt;
  Frame *Sub = resolutionFrame(Def, CE, Fr);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    Sub->This = MC->getImplicitObjectArgument();
    Sub->ThisIsPointer = Sub->This && Sub->This->getType()->isPointerType();
  } else if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) && CE->getNumArgs() > 0) {
    Sub->This = CE->getArg(0); // bits[n]: the object is the operator's first argument
  }
  const ReturnStmt *Ret = onlyReturn(Def->getBody(), Sub);
  if (!Ret || !Ret->getRetValue())
    return std::nullopt;
  return std::make_pair(Ret->getRetValue(), static_cast<const Frame *>(Sub));
}

/// The one return statement that every run of \p Body reaches, at its end:
/// the body runs straight to it through declarations, expressions and loops
/// with no return in them, and through branches whose condition the
/// compiler knows (if (alignof(T) == 8), as the IR folds it). Null for a
/// return that depends on a branch taken at run time.
const ReturnStmt *ScopedAccesses::Walker::onlyReturn(const Stmt *Body, const Frame *Fr, unsigned Depth) {
  if (!Body || Depth > 8)
    return nullptr;
  if (const auto *Ret = dyn_cast<ReturnStmt>(Body))
    return Ret;
  if (const auto *If = dyn_cast<IfStmt>(Body)) {
    std::optional<bool> Known = If->isConsteval() || If->getConditionVariable() || If->getInit()
                                    ? std::nullopt
                                    : knownCondition(If->getCond(), Fr);
    if (!Known)
      return nullptr;
    return onlyReturn(*Known ? If->getThen() : If->getElse(), Fr, Depth + 1);
  }
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  if (!Block || Block->body_empty())
    return nullptr;
  // Every statement before the last runs and falls through to the next one.
  struct Returns : RecursiveASTVisitor<Returns> {
    bool Found = false;
    bool VisitReturnStmt(ReturnStmt *) { return !(Found = true); }
    bool VisitGotoStmt(GotoStmt *) { return !(Found = true); }
  };
  for (const Stmt *S : Block->body()) {
    if (S == Block->body_back())
      break;
    if (isa<DeclStmt, NullStmt, Expr>(S))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(S); If && !If->getConditionVariable() && !If->getInit())
      if (std::optional<bool> Known = knownCondition(If->getCond(), Fr)) {
        const Stmt *Taken = *Known ? If->getThen() : If->getElse();
        Returns R;
        R.TraverseStmt(const_cast<Stmt *>(Taken));
        if (!R.Found)
          continue;
        return onlyReturn(Taken, Fr, Depth + 1); // the branch ends in the return
      }
    if (isa<ForStmt, WhileStmt, DoStmt>(S)) {
      Returns R;
      R.TraverseStmt(const_cast<Stmt *>(S));
      if (!R.Found)
        continue;
    }
    return nullptr;
  }
  return onlyReturn(Block->body_back(), Fr, Depth + 1);
}

std::optional<ObjectRef> ScopedAccesses::Walker::lvalue(const Expr *E, const Frame *Fr, unsigned Steps) {
  if (!E || ++Steps > MaxResolve)
    return std::nullopt;
  E = stripWrappers(E);
  // A copy passed by value holds the same pointers as the original.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor())
      return lvalue(Construct->getArg(0), Fr, Steps);
  // The same memory seen as another type ((vec3 &)node): the object the
  // operand names.
  if (const Expr *Same = sameMemory(E); Same != E)
    return lvalue(Same, Fr, Steps);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      // A reference parameter, or a struct passed by value, is (a copy of)
      // what the caller passed.
      if (auto Arg = argumentFor(P, Fr)) {
        if (P->getType()->isReferenceType() || P->getType()->isRecordType())
          if (std::optional<ObjectRef> R = lvalue(Arg->first, Arg->second, Steps))
            return R;
      }
      return rootRef(P);
    }
    if (VD->getType()->isReferenceType() && VD->hasLocalStorage() && VD->getInit())
      return lvalue(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Steps);
    return rootRef(VD);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return pointee(UO->getSubExpr(), Fr, Steps);
    return std::nullopt;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = AS->getBase();
    std::optional<ObjectRef> R;
    if (Base->IgnoreParenImpCasts()->getType()->isArrayType())
      R = lvalue(Base->IgnoreParenImpCasts(), Fr, Steps);
    else
      R = pointee(Base, Fr, Steps);
    if (R)
      addIndex(*R, AS->getIdx(), Fr);
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD) {
      if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
        return rootRef(VD); // a static member
      return std::nullopt;
    }
    if (ME->isArrow() && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (std::optional<ObjectRef> R = functorField(FD, Fr))
        return R;
    std::optional<ObjectRef> R = ME->isArrow() ? pointee(ME->getBase(), Fr, Steps) : lvalue(ME->getBase(), Fr, Steps);
    if (!R)
      return std::nullopt;
    R->Spelling += (!R->Path.empty() && R->Path.back() == nullptr) ? "->" : ".";
    R->Spelling += FD->getName();
    R->Path.push_back(FD);
    return R;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<ObjectRef> A = lvalue(CO->getTrueExpr(), Fr, Steps), B = lvalue(CO->getFalseExpr(), Fr, Steps);
    if (A && B && A->sameObject(*B))
      return A;
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A function returning a reference to an object.
    if (CE->getType()->isReferenceType() || E->isGLValue())
      if (auto Ret = returned(CE, Fr))
        return lvalue(Ret->first, Ret->second, Steps);
  }
  return std::nullopt;
}

std::optional<ObjectRef> ScopedAccesses::Walker::pointee(const Expr *P, const Frame *Fr, unsigned Steps) {
  if (!P || ++Steps > MaxResolve)
    return std::nullopt;
  P = P->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(P)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalue(Cast->getSubExpr(), Fr, Steps);
    case CK_LValueToRValue:
      return pointerIn(Cast->getSubExpr(), Fr, Steps);
    case CK_NoOp:
    case CK_BitCast:
    case CK_UncheckedDerivedToBase:
    case CK_DerivedToBase:
    case CK_BaseToDerived:
    case CK_AddressSpaceConversion:
      return pointee(Cast->getSubExpr(), Fr, Steps);
    case CK_IntegralToPointer:
      return throughInteger(Cast->getSubExpr(), Fr, Steps);
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf)
      return lvalue(UO->getSubExpr(), Fr, Steps);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *Ptr = BO->getLHS(), *Offset = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Offset);
    if (!Ptr->getType()->isPointerType() || Offset->getType()->isPointerType())
      return std::nullopt;
    std::optional<ObjectRef> R = pointee(Ptr, Fr, Steps);
    if (R)
      addIndex(*R, Offset, Fr);
    return R;
  }
  if (isa<CXXThisExpr>(P)) {
    // The object of the innermost member call. In a lambda's body, 'this' is
    // the enclosing member function's, which the lambda captured: the frame
    // of the function that wrote the lambda (in turn, for a lambda in one).
    const Frame *Up = Fr;
    while (Up) {
      const auto *MD = dyn_cast<CXXMethodDecl>(Up->F);
      if (!MD) {
        Up = Up->Parent;
        continue;
      }
      if (!MD->getParent()->isLambda())
        break;
      Up = frameOf(MD->getParent()->getDeclContext(), Up);
    }
    if (!Up || !Up->This)
      return std::nullopt;
    return Up->ThisIsPointer ? pointee(Up->This, Up->Parent, Steps) : lvalue(Up->This, Up->Parent, Steps);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
    std::optional<ObjectRef> A = pointee(CO->getTrueExpr(), Fr, Steps), B = pointee(CO->getFalseExpr(), Fr, Steps);
    if (A && B && A->sameObject(*B))
      return A;
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    std::optional<ObjectRef> R;
    if (auto Ret = returned(CE, Fr))
      R = pointee(Ret->first, Ret->second, Steps);
    // Another GPU's memory, whatever object the body's arithmetic names.
    if (R && CE->getDirectCallee() && returnsPeerAddress(plainQualifiedName(CE->getDirectCallee())))
      R->Peer = true;
    return R;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(P))
    return pointerIn(DRE, Fr, Steps); // an array parameter's value, say
  return std::nullopt;
}

/// The object that the pointer stored in the object \p L points to.
std::optional<ObjectRef> ScopedAccesses::Walker::pointerIn(const Expr *L, const Frame *Fr, unsigned Steps) {
  if (!L || ++Steps > MaxResolve)
    return std::nullopt;
  L = stripWrappers(L);
  auto Deref = [](std::optional<ObjectRef> R) {
    if (R)
      R->Path.push_back(nullptr);
    return R;
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      if (auto Arg = argumentFor(P, Fr)) {
        if (P->getType()->isReferenceType())
          return pointerIn(Arg->first, Arg->second, Steps);
        if (std::optional<ObjectRef> R = pointee(Arg->first, Arg->second, Steps))
          return R;
      } else if (std::optional<ObjectRef> R = movedParameter(P, DRE, Fr)) {
        return R;
      }
      return Deref(rootRef(P));
    }
    if (VD->hasLocalStorage()) {
      if (VD->getType()->isReferenceType() && VD->getInit())
        return pointerIn(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Steps);
      // Set where it is declared and never again, or declared bare and set
      // once (int *p; p = &a[i];): the one value it ever has, as in SSA.
      const Expr *Value = VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
      if (Value)
        if (std::optional<ObjectRef> R = pointee(Value, frameOf(VD->getParentFunctionOrMethod(), Fr), Steps))
          return R;
      if (!Value && VD->getType()->isPointerType())
        if (std::optional<ObjectRef> R = mergedPointee(VD, Fr, Steps))
          return R;
    }
    if (std::optional<ObjectRef> R = stagedPointee(VD, Fr, Steps))
      return R;
    return Deref(rootRef(VD));
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
    if (std::optional<ObjectRef> R = storedInElements(AS, Fr, Steps))
      return R;
  if (const auto *ME = dyn_cast<MemberExpr>(L)) {
    if (std::optional<ObjectRef> R = constructedField(ME, Fr, Steps))
      return R;
    if (std::optional<ObjectRef> R = unionPointer(ME, Fr, Steps))
      return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(L); ME && !ME->isArrow()) {
    // A pointer field of a struct value the TU shows being built: an
    // aggregate initializer, or a function returning one.
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      if (auto Value = structValue(ME->getBase(), Fr, Steps))
        if (const auto *IL = dyn_cast<InitListExpr>(Value->first))
          if (initializesFields(IL, FD) && FD->getFieldIndex() < IL->getNumInits())
            if (std::optional<ObjectRef> R = pointee(IL->getInit(FD->getFieldIndex()), Value->second, Steps))
              return R;
  }
  return Deref(lvalue(L, Fr, Steps));
}

void ObjectRef::atElementChosenAtRunTime(std::string At) {
  Index = std::move(At);
  BlockDependent = ThreadDependent = false;
  BlockSegment.clear();
  BlockPart.clear();
  Flat.reset();
  WarpSegment = false;
  LaneOffset.reset();
  LaneBase.clear();
}

const Expr *ScopedAccesses::Walker::stagedValue(const VarDecl *VD) {
  if (!VD || !VD->hasAttr<CUDASharedAttr>())
    return nullptr;
  const Modifications *Map = modificationsIn(Root);
  auto It = Map ? Map->find(VD) : Modifications::const_iterator();
  if (!Map || It == Map->end() || It->second.Count != 1 || It->second.Plain != 1)
    return nullptr;
  return It->second.Assigned;
}

/// A pointer the kernel stages in shared memory (`if (threadIdx.x == 0) p =
/// args->queue; __syncthreads();`): what the one assignment of the kernel's
/// body points to, where that is the same for every block, as the IR names
/// the pointer stored (DeviceMemoryOps' stagedPointer).
std::optional<ObjectRef> ScopedAccesses::Walker::stagedPointee(const VarDecl *VD, const Frame *Fr, unsigned Steps) {
  if (!VD->getType()->isPointerType())
    return std::nullopt;
  const Expr *Value = stagedValue(VD);
  if (!Value)
    return std::nullopt;
  const Frame *Top = Fr;
  while (Top && Top->Parent)
    Top = Top->Parent;
  std::optional<ObjectRef> R = pointee(Value, Top && Top->F == Root ? Top : nullptr, Steps);
  if (!R || !R->Root || R->BlockDependent)
    return std::nullopt;
  return R;
}

std::optional<ObjectRef> ScopedAccesses::Walker::movedParameter(const ParmVarDecl *P, const Expr *Use,
                                                                const Frame *Fr) {
  const Modifications *Map = P->getType()->isPointerType() ? modificationsOf(P) : nullptr;
  auto It = Map ? Map->find(P) : Modifications::const_iterator();
  if (!Map || It == Map->end() || It->second.Other || It->second.Plain || It->second.Steps.empty())
    return std::nullopt;
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body)
    return std::nullopt;
  // Every step is a statement of the body's top level that ends before the use.
  unsigned Found = 0;
  for (const Stmt *S : Body->body()) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    const auto *DRE = BO && BO->isCompoundAssignmentOp() ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())
                                                         : nullptr;
    if (!DRE || DRE->getDecl() != P)
      continue;
    if (!SM.isBeforeInTranslationUnit(BO->getEndLoc(), Use->getBeginLoc()))
      return std::nullopt;
    ++Found;
  }
  if (Found != It->second.Steps.size())
    return std::nullopt;
  ObjectRef R = rootRef(P);
  R.Path.push_back(nullptr);
  const Frame *Own = frameOf(F, Fr);
  for (const Expr *Step : It->second.Steps)
    addIndex(R, Step, Own);
  return R;
}

namespace {
/// Ways followed by one resolution, in all. MaxResolve bounds each chain of
/// steps; but a pointer merged from several ways, whose ways are merged
/// pointers again, multiplies the chains: nested merges in NCCL's device API
/// examples made one resolution run for over a quarter of an hour, where the
/// file's whole analysis had taken seconds. Past this budget the object is not
/// named (as when a chain runs out of steps). One count per thread: clangd
/// runs checks on several.
constexpr unsigned MaxWays = 512;
thread_local unsigned WaysUsed = 0, WaysNesting = 0;
/// Takes \p N ways from the budget of the outermost resolution in progress.
class WaysTaken {
public:
  explicit WaysTaken(size_t N) {
    if (WaysNesting++ == 0)
      WaysUsed = 0;
    WaysUsed += N;
  }
  ~WaysTaken() { --WaysNesting; }
  bool withinBudget() const { return WaysUsed <= MaxWays; }
};
} // namespace

/// A local pointer set more than once, where its initializer and every plain
/// assignment point into one object (node = &nodes[i]; ... node =
/// &nodes[parent]; a tree walked up): that object, at an element chosen at run
/// time, as the IR's phi of those addresses is based on it. Nothing else may
/// change it (no ++, no address taken). Where the ways point into a few
/// different objects of one home, the pointer itself names the object, in
/// that home.
std::optional<ObjectRef> ScopedAccesses::Walker::mergedPointee(const VarDecl *VD, const Frame *Fr, unsigned Steps) {
  const Modifications *Map = modificationsOf(VD);
  auto It = Map ? Map->find(VD) : Modifications::const_iterator();
  if (!Map || It == Map->end() || It->second.Other || !It->second.Steps.empty() ||
      It->second.Values.size() != It->second.Count)
    return std::nullopt;
  SmallVector<const Expr *, 4> Ways(It->second.Values.begin(), It->second.Values.end());
  if (VD->getInit())
    Ways.push_back(VD->getInit());
  if (Ways.size() < 2)
    return std::nullopt;
  // A way that names the variable itself (p = p->next) is not followed.
  for (const Expr *Way : Ways)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Way->IgnoreParenImpCasts()); DRE && DRE->getDecl() == VD)
      return std::nullopt;
  const Frame *Own = frameOf(VD->getParentFunctionOrMethod(), Fr);
  if (std::optional<ObjectRef> R = oneObjectOf(
          Ways, Own, Steps,
          "<merged in " + VD->getName().str() + " at " + std::to_string(reinterpret_cast<uintptr_t>(VD)) + ">"))
    return R;
  // Ways into a few different objects of one home (dst = b or a, by the
  // pass's direction): the pointer names what it points to, which is one of
  // them, and lives where they all live. The IR's phi of those addresses is
  // an access to each of them (IROp::OtherObjects).
  if (Ways.size() > 4)
    return std::nullopt;
  WaysTaken Taken(Ways.size());
  if (!Taken.withinBudget())
    return std::nullopt;
  ObjectHome Common = ObjectHome::Unknown;
  for (const Expr *Way : Ways) {
    std::optional<ObjectRef> R = pointee(Way, Own, Steps);
    ObjectHome H = R && R->Root ? Owner.homeOf(*R, /*FromLaunch=*/false) : ObjectHome::Unknown;
    if (H == ObjectHome::Unknown || (Common != ObjectHome::Unknown && H != Common))
      return std::nullopt;
    Common = H;
  }
  ObjectRef R = rootRef(VD);
  R.Path.push_back(nullptr);
  R.WaysHome = Common;
  return R;
}

/// A pointer read from a local array whose every element the function sets
/// by a plain assignment, and every assignment stores a pointer to the same
/// object (`src[k] = comm->buffers[(rank + k) % n]`): that object, as the IR
/// sees after the array is promoted to registers. Which element is left
/// unknown.
std::optional<ObjectRef> ScopedAccesses::Walker::storedInElements(const ArraySubscriptExpr *AS, const Frame *Fr,
                                                                  unsigned Steps) {
  const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getType()->isArrayType() || VD->hasInit())
    return std::nullopt;
  const Modifications *Map = modificationsOf(VD);
  auto It = Map ? Map->find(VD) : Modifications::const_iterator();
  if (!Map || It == Map->end() || It->second.Elements.empty() || It->second.Count != It->second.Elements.size())
    return std::nullopt;
  // Named uniquely: the element stored is chosen at run time.
  return oneObjectOf(It->second.Elements, frameOf(VD->getParentFunctionOrMethod(), Fr), Steps,
                     "<stored in " + VD->getName().str() + " at " + std::to_string(reinterpret_cast<uintptr_t>(AS)) +
                         ">");
}

/// The one object every value of \p Ways points into (the same root and
/// path), at an element chosen at run time and named \p Index: the IR's phi
/// or promoted array of those addresses is based on it. None where a way
/// points elsewhere or nowhere known. Which block, warp or lane the element
/// is is left unknown.
std::optional<ObjectRef> ScopedAccesses::Walker::oneObjectOf(ArrayRef<const Expr *> Ways, const Frame *Own,
                                                             unsigned Steps, std::string Index) {
  WaysTaken Taken(Ways.size());
  if (!Taken.withinBudget())
    return std::nullopt;
  std::optional<ObjectRef> First;
  for (const Expr *Way : Ways) {
    std::optional<ObjectRef> R = pointee(Way, Own, Steps);
    if (!R || !R->Root || (First && (First->Root != R->Root || First->Path != R->Path)))
      return std::nullopt;
    if (!First)
      First = std::move(R);
  }
  if (!First)
    return std::nullopt;
  First->atElementChosenAtRunTime(std::move(Index));
  return First;
}

bool ScopedAccesses::Walker::stepToSource(const Expr *&E, const Frame *&Fr, Vars Which) {
  std::optional<std::pair<const Expr *, const Frame *>> Next;
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    Next = returned(CE, Fr);
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      Next = argumentFor(P, Fr);
    } else {
      const Expr *Value = VD->getInit();
      if (!Value && !(Value = singleAssignment(VD)))
        return false;
      if (Which == Vars::UnmodifiedLocals && (!VD->hasLocalStorage() || (VD->getInit() && modified(VD))))
        return false;
      Next = std::make_pair(Value,
                            VD->hasLocalStorage() ? frameOf(VD->getParentFunctionOrMethod(), Fr) : Fr);
    }
  }
  if (!Next)
    return false;
  E = Next->first;
  Fr = Next->second;
  return true;
}

std::optional<std::pair<const Expr *, const ScopedAccesses::Walker::Frame *>>
ScopedAccesses::Walker::structValue(const Expr *E, const Frame *Fr, unsigned Steps) {
  for (; E && Steps < MaxResolve; ++Steps) {
    E = stripWrappers(E);
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      if (!IL->isSemanticForm() && IL->getSemanticForm())
        IL = IL->getSemanticForm();
      return std::make_pair(static_cast<const Expr *>(IL), Fr);
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      // A copy or move of another value.
      if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor()) {
        E = Construct->getArg(0);
        continue;
      }
      return std::nullopt;
    }
    if (isa<DeclRefExpr>(E) || isa<CallExpr>(E)) {
      if (!stepToSource(E, Fr, Vars::UnmodifiedLocals))
        return std::nullopt;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ObjectRef> ScopedAccesses::Walker::atomicRefTarget(const Expr *E, const Frame *Fr, unsigned Steps) {
  // An atomic_ref names the object it was constructed from; copies of it,
  // variables holding it and parameters it was passed to name the same.
  for (; E && Steps < MaxResolve; ++Steps) {
    E = stripWrappers(E);
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() < 1)
        return std::nullopt;
      const Expr *Arg = Construct->getArg(0);
      if (Construct->getConstructor()->isCopyOrMoveConstructor()) {
        E = Arg;
        continue;
      }
      return lvalue(Arg, Fr, Steps);
    }
    if (isa<DeclRefExpr>(E) || isa<CallExpr>(E)) {
      if (!stepToSource(E, Fr, Vars::Initialized))
        return std::nullopt;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace cuda_scope
