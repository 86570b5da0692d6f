//===- ConstructedFields.cpp - pointers a constructor stores in an object ===//
//
// A kernel that makes an object from an address (cudaSpinlock lock(word);)
// and calls its methods reaches the address through the object's field: the
// methods read this->word, which the constructor set from its parameter. The
// field holds that one address as long as the object lives, when the
// constructor sets it once (an initializer, or one assignment in its body)
// and nothing else the class defines assigns it, and the object itself is
// never assigned. Then the field names what the constructor's argument
// points to, as the IR sees once the object's fields are promoted to
// registers. The same holds of a temporary whose method is called at once
// (a proxy that bits[n] returns, made as reference(blocks + n / 32, n % 32)).
// A placement new (construct_at, an allocator's construct) is a store of
// the value it makes into what its address points to.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

namespace {
/// The assignments to one field in a body (this->f = v, f = v, and f
/// changed any other way: ++, compound assignment, its address taken).
struct FieldWrites : RecursiveASTVisitor<FieldWrites> {
  const FieldDecl *Field;
  SmallVector<const Expr *, 2> Plain; ///< the values of plain assignments
  bool Other = false;
  explicit FieldWrites(const FieldDecl *F) : Field(F) {}
  static const MemberExpr *ofField(const Expr *E, const FieldDecl *F) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && ME->getMemberDecl() == F ? ME : nullptr;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && ofField(BO->getLHS(), Field)) {
      if (BO->getOpcode() == BO_Assign)
        Plain.push_back(BO->getRHS());
      else
        Other = true;
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && ofField(UO->getSubExpr(), Field))
      Other = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    // A record field assigned another record whole (ref = other, a copy or
    // move assignment): its fields change. Another operator= (a proxy's
    // `ref = true`, which sets the bit it refers to) leaves them.
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0 && ofField(OC->getArg(0), Field) &&
        (!MD || MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))
      Other = true;
    return true;
  }
};

/// Every use of the local \p VD in \p Body names one of its members (a field,
/// or a method it calls), or hands the object by reference to a function
/// whose body in turn only uses its members (a kernel passing its reclaimer
/// or allocator down): it is never assigned, passed or addressed whole.
/// With \p FD, the functions it is handed to never write that field either.
static bool usedThroughMembers(const VarDecl *VD, const Stmt *Body, const FieldDecl *FD = nullptr,
                               unsigned Depth = 0);

static bool keptByCallee(const CallExpr *CE, unsigned Arg, const FieldDecl *FD, unsigned Depth) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || Depth >= 4 || !Callee->hasBody(Def) || !Def->getBody())
    return false;
  unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  if (Arg < Shift || Arg - Shift >= Def->getNumParams())
    return false;
  const ParmVarDecl *P = Def->getParamDecl(Arg - Shift);
  if (!P->getType()->isReferenceType())
    return !P->getType()->isPointerType(); // a copy: the object itself is left as it was
  if (FD) {
    FieldWrites W(FD);
    W.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    if (W.Other || !W.Plain.empty())
      return false;
  }
  return usedThroughMembers(P, Def->getBody(), FD, Depth + 1);
}

static bool usedThroughMembers(const VarDecl *VD, const Stmt *Body, const FieldDecl *FD, unsigned Depth) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *Var;
    const FieldDecl *Field;
    unsigned Depth;
    unsigned All = 0, Members = 0;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      All += DRE->getDecl() == Var;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
      Members += !ME->isArrow() && Base && Base->getDecl() == Var;
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (const auto *Arg = dyn_cast<DeclRefExpr>(CE->getArg(I)->IgnoreParenImpCasts());
            Arg && Arg->getDecl() == Var && keptByCallee(CE, I, Field, Depth))
          ++Members;
      return true;
    }
  } U;
  U.Var = VD;
  U.Field = FD;
  U.Depth = Depth;
  U.TraverseStmt(const_cast<Stmt *>(Body));
  return U.All == U.Members;
}
} // namespace

bool impl::writesField(const Stmt *Body, const FieldDecl *FD) {
  FieldWrites W(FD);
  W.TraverseStmt(const_cast<Stmt *>(Body));
  return W.Other || !W.Plain.empty();
}

const Expr *impl::constructorValue(const CXXConstructorDecl *Ctor, const FieldDecl *FD) {
  const Expr *Value = nullptr;
  for (const CXXCtorInitializer *Init : Ctor->inits())
    if (Init->isWritten() && Init->getMember() == FD)
      Value = Init->getInit();
  FieldWrites W(FD);
  if (Ctor->getBody())
    W.TraverseStmt(Ctor->getBody());
  if (W.Other || W.Plain.size() + (Value ? 1 : 0) != 1)
    return nullptr;
  if (Value) {
    // A one-argument initializer (word(p)) is a construct or a paren list of it.
    if (const auto *PL = dyn_cast<ParenListExpr>(Value->IgnoreImplicit()); PL && PL->getNumExprs() == 1)
      return PL->getExpr(0);
    return Value;
  }
  return W.Plain.front();
}

/// Every use of the local object \p VD in \p Body names one of its members
/// (l.acquire(), l.word): the object is never assigned, passed or
/// address-taken whole, and \p FD is never written there.
static bool onlyMembersUsed(const VarDecl *VD, const FieldDecl *FD, Stmt *Body) {
  FieldWrites W(FD);
  W.TraverseStmt(Body);
  return usedThroughMembers(VD, Body, FD) && !W.Other && W.Plain.empty();
}

/// Some method of the class, other than its constructors, changes \p FD.
static bool changedOutsideConstructors(const CXXRecordDecl *RD, const FieldDecl *FD) {
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(M) || !M->hasBody(Def) || !Def->getBody())
      continue;
    FieldWrites W(FD);
    W.TraverseStmt(Def->getBody());
    if (W.Other || !W.Plain.empty())
      return true;
  }
  return false;
}

/// Every method of the class but its constructors leaves \p FD alone, or is
/// a copy or move assignment that copies it from the other object
/// (`ptr = other.ptr`): the field only ever holds what some constructor gave
/// an object of the class.
bool impl::onlyCopiedOutsideConstructors(const CXXRecordDecl *RD, const FieldDecl *FD) {
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(M) || !M->hasBody(Def) || !Def->getBody())
      continue;
    FieldWrites W(FD);
    W.TraverseStmt(Def->getBody());
    if (!W.Other && W.Plain.empty())
      continue;
    const auto *MD = cast<CXXMethodDecl>(Def);
    if (W.Other || !(MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) || MD->getNumParams() != 1)
      return false;
    // An implicit move assignment reads static_cast<T &&>(other).f.
    for (const Expr *V : W.Plain) {
      const auto *ME = dyn_cast<MemberExpr>(V->IgnoreParenImpCasts());
      const auto *Of = ME ? dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenCasts()) : nullptr;
      if (!Of || ME->getMemberDecl() != FD || Of->getDecl() != MD->getParamDecl(0))
        return false;
    }
  }
  return true;
}

/// A construction a handle is given, and the calls (each handing the handle
/// on by reference) that lead from the handle's own function to it.
struct HandleWay {
  const CXXConstructExpr *Made;
  SmallVector<const CallExpr *, 2> Calls;
};

/// The constructions a local object of a handle class (or a reference
/// parameter to one) is given in \p Body: each whole assignment's
/// (`node = Node(next)`), and those of the functions it is handed to by
/// reference (`advance(node)`, which re-assigns it as it walks), when every
/// other use of it names a member or hands it on so. None where it is
/// used otherwise; an empty list where it is never re-assigned.
static std::optional<SmallVector<HandleWay, 4>> handleWays(const VarDecl *VD, Stmt *Body, unsigned Depth = 0) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *Var;
    const CXXRecordDecl *Class;
    unsigned Depth;
    unsigned All = 0, Counted = 0;
    SmallVector<HandleWay, 4> Made;
    bool Bad = false;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      All += DRE->getDecl() == Var;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
      Counted += !ME->isArrow() && Base && Base->getDecl() == Var;
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      if (isa<CXXOperatorCallExpr>(CE))
        return true;
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        const auto *Arg = dyn_cast<DeclRefExpr>(CE->getArg(I)->IgnoreParenImpCasts());
        if (!Arg || Arg->getDecl() != Var)
          continue;
        ++Counted;
        const FunctionDecl *Def = nullptr;
        if (!CE->getDirectCallee() || !CE->getDirectCallee()->hasBody(Def) || !Def->getBody() ||
            I >= Def->getNumParams() || Depth >= 4) {
          Bad = true;
          continue;
        }
        const ParmVarDecl *P = Def->getParamDecl(I);
        if (!P->getType()->isReferenceType()) {
          Bad |= P->getType()->isPointerType(); // a copy leaves the handle as it was
          continue;
        }
        std::optional<SmallVector<HandleWay, 4>> Sub =
            P->getType()->getPointeeType().isConstQualified()
                ? (usedThroughMembers(P, Def->getBody()) ? std::optional<SmallVector<HandleWay, 4>>(SmallVector<HandleWay, 4>())
                                                         : std::nullopt)
                : handleWays(P, Def->getBody(), Depth + 1);
        if (!Sub) {
          Bad = true;
          continue;
        }
        for (HandleWay &W : *Sub) {
          W.Calls.insert(W.Calls.begin(), CE);
          Made.push_back(std::move(W));
        }
      }
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      const auto *To = OC->getNumArgs() == 2 ? dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()) : nullptr;
      if (!To || To->getDecl() != Var)
        return true;
      ++Counted;
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      const auto *Made = dyn_cast<CXXConstructExpr>(stripWrappers(OC->getArg(1)));
      if (const auto *Cast = dyn_cast_or_null<CXXFunctionalCastExpr>(stripWrappers(OC->getArg(1))))
        Made = dyn_cast<CXXConstructExpr>(stripWrappers(Cast->getSubExpr()));
      if (OC->getOperator() != OO_Equal || !MD || MD->getParent() != Class ||
          !(MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) || !Made ||
          Made->getConstructor()->isCopyOrMoveConstructor())
        Bad = true;
      else
        this->Made.push_back({Made, {}});
      return true;
    }
  } U;
  U.Var = VD;
  U.Class = VD->getType().getNonReferenceType()->getAsCXXRecordDecl();
  U.Depth = Depth;
  U.TraverseStmt(Body);
  if (U.Bad || !U.Class || U.All != U.Counted)
    return std::nullopt;
  return U.Made;
}

std::optional<ObjectRef> ScopedAccesses::Walker::reassignedField(const VarDecl *VD, const CXXConstructExpr *Init,
                                                                  const FieldDecl *FD, const Frame *Fr,
                                                                  unsigned Steps) {
  const auto *Declarer = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  const CXXRecordDecl *Class = VD->getType()->getAsCXXRecordDecl();
  if (!Declarer || !Declarer->getBody() || !Class || !onlyCopiedOutsideConstructors(Class, FD))
    return std::nullopt;
  FieldWrites W(FD);
  W.TraverseStmt(Declarer->getBody());
  if (W.Other || !W.Plain.empty())
    return std::nullopt;
  std::optional<SmallVector<HandleWay, 4>> Ways = handleWays(VD, Declarer->getBody());
  if (!Ways || Ways->empty())
    return std::nullopt;
  Ways->push_back({Init, {}});
  const Frame *Own = frameOf(Declarer, Fr);
  std::optional<ObjectRef> First;
  for (const HandleWay &Way : *Ways) {
    const CXXConstructExpr *Made = Way.Made;
    const FunctionDecl *Def = nullptr;
    if (!Made->getConstructor()->hasBody(Def))
      return std::nullopt;
    // Through the functions the handle was handed to, as their calls enter them.
    const Frame *At = Own;
    for (const CallExpr *Call : Way.Calls) {
      const FunctionDecl *Callee = nullptr;
      Call->getDirectCallee()->hasBody(Callee);
      Frame *Sub = resolutionFrame(Callee, Call, At);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        Sub->This = MC->getImplicitObjectArgument();
        Sub->ThisIsPointer = Sub->This && Sub->This->getType()->isPointerType();
      }
      At = Sub;
    }
    const auto *Ctor = cast<CXXConstructorDecl>(Def);
    const Expr *Value = constructorValue(Ctor, FD);
    std::optional<ObjectRef> R = Value ? pointee(Value, resolutionFrame(Ctor, Made, At), Steps) : std::nullopt;
    if (!R || !R->Root || (First && (First->Root != R->Root || First->Path != R->Path)))
      return std::nullopt;
    if (!First)
      First = std::move(R);
  }
  // Which of the object's elements the handle holds changes as the loop
  // moves: the element is chosen at run time, as the IR's phi of the
  // addresses is.
  First->atElementChosenAtRunTime("(handle " + VD->getNameAsString() + ")");
  return First;
}

std::optional<ObjectRef> ScopedAccesses::Walker::temporaryField(const Expr *Object, const FieldDecl *FD,
                                                               const Frame *Fr, unsigned Steps) {
  Object = stripWrappers(Object);
  if (const auto *CE = dyn_cast<CallExpr>(Object)) {
    auto Ret = returned(CE, Fr);
    if (!Ret)
      return std::nullopt;
    Object = stripWrappers(Ret->first);
    Fr = Ret->second;
  }
  const auto *Construct = dyn_cast<CXXConstructExpr>(Object);
  if (!Construct || Construct->getConstructor()->isCopyOrMoveConstructor())
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!Construct->getConstructor()->hasBody(Def))
    return std::nullopt;
  const auto *Ctor = cast<CXXConstructorDecl>(Def);
  const Expr *Value = constructorValue(Ctor, FD);
  if (!Value || changedOutsideConstructors(Ctor->getParent(), FD))
    return std::nullopt;
  return pointee(Value, resolutionFrame(Ctor, Construct, Fr), Steps);
}

/// The object 'this' names in the method \p Fr runs in (or is inside): the
/// member call's object, where the walk shows it as a value. A call on
/// 'this' itself (a derived handle's method calling its base's) names the
/// caller's object in turn, and in a lambda's body 'this' is the enclosing
/// member function's (as pointee reads CXXThisExpr).
static std::optional<std::pair<const Expr *, const ScopedAccesses::Walker::Frame *>>
thisObject(const ScopedAccesses::Walker::Frame *Fr) {
  const ScopedAccesses::Walker::Frame *Up = Fr;
  for (unsigned Step = 0; Up && Step < 16; ++Step) {
    while (Up && !isa<CXXMethodDecl>(Up->F))
      Up = Up->Parent;
    if (!Up)
      return std::nullopt;
    const auto *MD = cast<CXXMethodDecl>(Up->F);
    if (MD->getParent()->isLambda()) {
      Up = ScopedAccesses::Walker::frameOf(MD->getParent()->getDeclContext(), Up);
      continue;
    }
    if (!Up->This)
      return std::nullopt;
    if (isa<CXXThisExpr>(Up->This->IgnoreParenImpCasts())) {
      Up = Up->Parent;
      continue;
    }
    if (Up->ThisIsPointer)
      return std::nullopt;
    return std::make_pair(Up->This, Up->Parent);
  }
  return std::nullopt;
}

/// Something writes a field of the chain \p Src reads through its kept
/// copies, then \p FD: the copies' functions, or a method of a class on the
/// way (the copy's, and each record field's).
bool ScopedAccesses::Walker::fieldsChanged(const RecordSource &Src, const FieldDecl *FD) {
  SmallVector<const FieldDecl *, 4> Chain(Src.Fields.begin(), Src.Fields.end());
  Chain.push_back(FD);
  SmallVector<const CXXRecordDecl *, 4> Classes;
  for (const VarDecl *VD : Src.KeptCopies) {
    if (const auto *RD = VD->getType()->getAsCXXRecordDecl())
      Classes.push_back(RD);
    const auto *Declarer = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    for (const FieldDecl *F : Chain) {
      FieldWrites W(F);
      if (Declarer && Declarer->getBody())
        W.TraverseStmt(Declarer->getBody());
      if (W.Other || !W.Plain.empty())
        return true;
    }
  }
  for (const FieldDecl *F : Src.Fields)
    if (const auto *RD = F->getType()->getAsCXXRecordDecl())
      Classes.push_back(RD);
  for (const CXXRecordDecl *RD : Classes)
    for (const FieldDecl *F : Chain)
      if (changedOutsideConstructors(RD, F))
        return true;
  return false;
}

/// A record the kernel stages in shared memory (`if (threadIdx.x == 0) plan =
/// *plans; __syncthreads();`): what the one assignment of the kernel's body
/// copies, where that is the same for every block, as the IR
/// follows the copy into the variable (DeviceMemoryOps' origins).
std::optional<ScopedAccesses::Walker::RecordSource> ScopedAccesses::Walker::stagedRecord(const VarDecl *VD,
                                                                                          unsigned Steps) {
  if (!VD || !VD->getType()->isRecordType())
    return std::nullopt;
  const Expr *Value = stagedValue(VD);
  if (!Value)
    return std::nullopt;
  const Frame *Top = nullptr; // the kernel's own parameters, unbound
  std::optional<ObjectRef> Copied = lvalue(Value, Top, Steps);
  if (!Copied || !Copied->Root || Copied->BlockDependent)
    return std::nullopt;
  // The one assignment is the only change the body makes (stagedValue): the
  // copy holds what it copied, and no kept copy's check of writes applies
  // (the copy's own operator= writes every field).
  return recordSource(Value, Top, Steps);
}

std::optional<ScopedAccesses::Walker::RecordSource>
ScopedAccesses::Walker::recordSource(const Expr *E, const Frame *Fr, unsigned Steps) {
  for (; E && ++Steps <= MaxResolve;) {
    E = stripWrappers(E);
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor()) {
        E = Construct->getArg(0);
        continue;
      }
      return RecordSource{E, Fr, {}, {}};
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      if (!IL->isSemanticForm() && IL->getSemanticForm())
        IL = IL->getSemanticForm();
      return RecordSource{IL, Fr, {}, {}};
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const Expr *Here = E;
      const Frame *HereFr = Fr;
      if (stepToSource(E, Fr, Vars::UnmodifiedLocals))
        continue;
      // A local copy whose methods are called (a channel handle copied from
      // the kernel's array, then used): it holds what it was copied from as
      // long as nothing writes the fields the consumer reads (KeptCopy).
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (std::optional<RecordSource> Of = stagedRecord(VD, Steps))
        return Of;
      const auto *Declarer = VD ? dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()) : nullptr;
      if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || VD->getType()->isReferenceType() ||
          !VD->getType()->isRecordType() || !VD->getInit() || !Declarer || !Declarer->getBody() ||
          !usedThroughMembers(VD, Declarer->getBody()))
        return RecordSource{Here, HereFr, {}, {}};
      std::optional<RecordSource> Of =
          recordSource(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), HereFr), Steps);
      if (Of)
        Of->KeptCopies.push_back(VD);
      return Of;
    }
    if (isa<CallExpr>(E)) {
      if (!E->getType()->isRecordType() || !stepToSource(E, Fr, Vars::UnmodifiedLocals))
        return std::nullopt;
      continue;
    }
    const auto *ME = dyn_cast<MemberExpr>(E);
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!FD || !FD->getType()->isRecordType())
      return RecordSource{E, Fr, {}, {}};
    // A record field: what the object it belongs to was built with.
    const Expr *Object = ME->getBase();
    const Frame *ObjectFrame = Fr;
    if (ME->isArrow()) {
      if (!isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
        return RecordSource{E, Fr, {}, {}};
      auto Of = thisObject(Fr);
      if (!Of)
        return RecordSource{E, Fr, {}, {}};
      std::tie(Object, ObjectFrame) = *Of;
    }
    std::optional<RecordSource> Of = recordSource(Object, ObjectFrame, Steps);
    if (!Of)
      return std::nullopt;
    if (!Of->KeptCopies.empty()) {
      // Through a kept copy: the fields are read as they were copied.
      Of->Fields.push_back(FD);
      return Of;
    }
    if (!Of->Fields.empty() || !isa<InitListExpr, CXXConstructExpr>(Of->E)) {
      // A field of a value the walk cannot see built (a kernel's parameter).
      Of->Fields.push_back(FD);
      return Of;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(Of->E)) {
      if (!initializesFields(IL, FD) || FD->getFieldIndex() >= IL->getNumInits())
        return RecordSource{E, Fr, {}, {}};
      E = IL->getInit(FD->getFieldIndex());
      Fr = Of->Fr;
      continue;
    }
    const auto *Construct = cast<CXXConstructExpr>(Of->E);
    const FunctionDecl *Def = nullptr;
    if (!Construct->getConstructor()->hasBody(Def))
      return RecordSource{E, Fr, {}, {}};
    const auto *Ctor = cast<CXXConstructorDecl>(Def);
    const Expr *Value = constructorValue(Ctor, FD);
    if (!Value || changedOutsideConstructors(Ctor->getParent(), FD))
      return RecordSource{E, Fr, {}, {}};
    E = Value;
    Fr = resolutionFrame(Ctor, Construct, Of->Fr);
  }
  return std::nullopt;
}

std::optional<ObjectRef> ScopedAccesses::Walker::fieldInOwnConstructor(const MemberExpr *ME, const FieldDecl *FD,
                                                                      const Frame *Fr, unsigned Steps) {
  // In the constructor being run (a construction the walk follows, whose
  // frame binds its parameters), the field holds what the constructor set it
  // to before this read: its initializer, or its one assignment above it.
  const Frame *Own = Fr;
  while (Own && !isa<CXXConstructorDecl>(Own->F))
    Own = Own->Parent;
  const auto *Ctor = Own ? cast<CXXConstructorDecl>(Own->F) : nullptr;
  if (!Ctor || Ctor->getParent() != FD->getParent() || !isa_and_nonnull<CXXConstructExpr>(Own->Call) ||
      Own->F != Fr->F)
    return std::nullopt;
  const Expr *Value = constructorValue(Ctor, FD);
  if (!Value || !SM.isBeforeInTranslationUnit(Value->getEndLoc(), ME->getBeginLoc()))
    return std::nullopt;
  return pointee(Value, Own, Steps);
}

std::optional<ObjectRef> ScopedAccesses::Walker::constructedField(const MemberExpr *ME, const Frame *Fr,
                                                                 unsigned Steps) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !FD->getType()->isPointerType())
    return std::nullopt;
  // The object: a local variable or a temporary, named directly or as the
  // object of the method being walked (this->word).
  const Expr *Object = ME->getBase();
  const Frame *ObjectFrame = Fr;
  if (ME->isArrow()) {
    if (!isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
      return std::nullopt;
    auto Of = thisObject(Fr);
    if (!Of)
      return fieldInOwnConstructor(ME, FD, Fr, Steps);
    std::tie(Object, ObjectFrame) = *Of;
  }
  // A temporary whose method is called at once, made there or returned by a
  // call (bits[n] handing back a proxy made as reference(blocks + n / 32,
  // n % 32)): the field is what the constructor that makes it sets it to.
  const Expr *Made = stripWrappers(Object);
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Made)) // Word(*p): a one-argument construction
    Made = stripWrappers(Cast->getSubExpr());
  if (isa<CXXConstructExpr>(Made) || (isa<CallExpr>(Made) && Made->getType()->isRecordType()))
    return temporaryField(Made, FD, ObjectFrame, Steps);
  // A record field of an object built in view: a copy of the functor an
  // aggregate was given (agent.op, as a launcher keeps it), the proxy a
  // constructor stored (this->ref, made from what bits[n] returned).
  if (isa<MemberExpr>(Made)) {
    std::optional<RecordSource> Src = recordSource(Made, ObjectFrame, Steps);
    if (!Src || Src->E == Made)
      return std::nullopt;
    if (!Src->KeptCopies.empty() && fieldsChanged(*Src, FD))
      return std::nullopt;
    if (Src->Fields.empty() && isa<CXXConstructExpr>(Src->E))
      return temporaryField(Src->E, FD, Src->Fr, Steps);
    if (const auto *IL = dyn_cast<InitListExpr>(Src->E)) {
      if (!Src->Fields.empty() || !initializesFields(IL, FD) || FD->getFieldIndex() >= IL->getNumInits())
        return std::nullopt;
      return pointee(IL->getInit(FD->getFieldIndex()), Src->Fr, Steps);
    }
    // A field of a value the walk reads as it is (the kernel's parameter).
    std::optional<ObjectRef> R = lvalue(Src->E, Src->Fr, Steps);
    if (!R)
      return std::nullopt;
    Src->Fields.push_back(FD);
    for (const FieldDecl *Field : Src->Fields) {
      R->Spelling += "." + Field->getName().str();
      R->Path.push_back(Field);
    }
    R->Path.push_back(nullptr);
    return R;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(stripWrappers(Object));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // A reference parameter is the object the call hands it (a helper given
  // the kernel's local handle by reference), as far as the walk's calls go.
  for (unsigned Step = 0; Step < MaxDepth && VD && isa<ParmVarDecl>(VD) && VD->getType()->isReferenceType(); ++Step) {
    auto Arg = argumentFor(cast<ParmVarDecl>(VD), ObjectFrame);
    if (!Arg)
      return std::nullopt;
    ObjectFrame = Arg->second;
    DRE = dyn_cast<DeclRefExpr>(stripWrappers(Arg->first));
    VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || VD->getType()->isReferenceType())
    return std::nullopt;
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(VD->getInit() ? stripWrappers(VD->getInit()) : nullptr);
  // An aggregate built in place (WarpLock l{lock, false};): the field is
  // its initializer's, where nothing but the aggregate's own methods use the
  // variable and none of them assigns the field, as for a constructor's.
  if (const auto *IL = dyn_cast_or_null<InitListExpr>(VD->getInit() ? stripWrappers(VD->getInit()) : nullptr)) {
    if (!IL->isSemanticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    const auto *Declarer = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    const auto *Record = FD->getParent();
    if (!initializesFields(IL, FD) || FD->getFieldIndex() >= IL->getNumInits() || !Declarer ||
        !Declarer->getBody() || !onlyMembersUsed(VD, FD, Declarer->getBody()) ||
        !isa<CXXRecordDecl>(Record) || changedOutsideConstructors(cast<CXXRecordDecl>(Record), FD))
      return std::nullopt;
    return pointee(IL->getInit(FD->getFieldIndex()), frameOf(Declarer, ObjectFrame), Steps);
  }
  if (!Construct || Construct->getConstructor()->isCopyOrMoveConstructor())
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!Construct->getConstructor()->hasBody(Def))
    return std::nullopt;
  const auto *Ctor = cast<CXXConstructorDecl>(Def);
  auto [It, New] = ConstructedValues.try_emplace({VD, FD}, nullptr);
  if (New) {
    const auto *Declarer = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    const Expr *Value = constructorValue(Ctor, FD);
    if (Value && Declarer && Declarer->getBody() && onlyMembersUsed(VD, FD, Declarer->getBody()) &&
        !changedOutsideConstructors(Ctor->getParent(), FD))
      It->second = Value;
  }
  const Expr *Value = It->second;
  if (!Value)
    // A handle the function re-assigns as it walks (node = Node(next)).
    return reassignedField(VD, Construct, FD, ObjectFrame, Steps);
  // The constructor's frame binds its parameters to the construction's
  // arguments, in the frame that declares the object.
  const Frame *Declarer = frameOf(VD->getParentFunctionOrMethod(), ObjectFrame);
  return pointee(Value, resolutionFrame(Ctor, Construct, Declarer), Steps);
}

void ScopedAccesses::Walker::placementNew(const CXXNewExpr *New, const Frame *Fr) {
  // new (p) T(v), as construct_at and allocators write it, stores the new
  // value into what p points to (each scalar field of a struct).
  const QualType T = New->getAllocatedType();
  if (New->getNumPlacementArgs() != 1 || New->isArray() || !(T->isScalarType() || T->isRecordType()))
    return;
  if (std::optional<ObjectRef> O = pointee(New->getPlacementArg(0), Fr); O && O->Root)
    plainAccessAt(std::move(*O), T, New, OpKind::Store, New, New->getBeginLoc(), Fr);
}

} // namespace cuda_scope
