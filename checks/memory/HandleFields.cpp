//===- HandleFields.cpp - what every object of a handle class points to ---===//
//
// A handle class keeps a pointer that only its constructors set and that its
// copy and move assignments copy from another handle (a tree's node handle,
// an allocator's block). Every handle of it then holds what some
// construction gave one: a handle assigned another handle whole (node =
// split.sibling), or handed to helpers by reference, still points where a
// construction pointed it. Where every construction the kernel's walk makes
// points into one object, and no handle comes from memory (where the host or
// another kernel may have put any pointer), an access through the field of
// any handle is an access to that object, at an element chosen at run time:
// what the IR sees once the handles are promoted to registers and their
// pointers traced to the one origin. Where the constructions point into
// different objects, or one cannot be followed, nothing changes.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include <functional>

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

namespace {
bool hasPointerField(const CXXRecordDecl *RD) {
  return RD && RD->hasDefinition() &&
         any_of(RD->fields(), [](const FieldDecl *FD) { return FD->getType()->isPointerType(); });
}

/// \p E names an object the kernel made itself (a local, a temporary, a
/// call's value, the object of the method being walked, or a member of one),
/// not one read from memory (through a pointer, an array's element, a
/// kernel's parameter, a variable outside any function).
bool madeByTheKernel(const Expr *E, unsigned Depth = 0) {
  E = stripWrappers(E);
  if (!E || Depth > 8)
    return false;
  if (isa<CXXConstructExpr, InitListExpr, CXXFunctionalCastExpr, CXXThisExpr>(E))
    return true;
  // static_cast<T &&>(other), std::move(other): the object itself (an
  // implicit move assignment reads its source's members so).
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return madeByTheKernel(Cast->getSubExpr(), Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Callee && Callee->isInStdNamespace() && CE->getNumArgs() == 1 && Callee->getIdentifier() &&
        (Callee->getName() == "move" || Callee->getName() == "forward"))
      return madeByTheKernel(CE->getArg(0), Depth + 1);
    return CE->isPRValue() && Callee && Callee->hasBody();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || VD->hasAttr<CUDASharedAttr>())
      return false;
    // A kernel's parameter is what the host gave it.
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      if (const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext()); F && F->hasAttr<CUDAGlobalAttr>())
        return false;
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())
                         : madeByTheKernel(ME->getBase(), Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref && isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return madeByTheKernel(CO->getTrueExpr(), Depth + 1) && madeByTheKernel(CO->getFalseExpr(), Depth + 1);
  return false;
}

/// The non-copy constructions of \p RD a body makes (its constructor's
/// member initializers included).
struct Constructions : RecursiveASTVisitor<Constructions> {
  const CXXRecordDecl *Class;
  SmallVector<const CXXConstructExpr *, 4> Found;
  /// Calls that hand back an object of the class by value (built in the callee).
  SmallVector<const CallExpr *, 2> Returned;
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (CE->getConstructor()->getParent() == Class && !CE->getConstructor()->isCopyOrMoveConstructor())
      Found.push_back(CE);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (CE->isPRValue() && CE->getType()->getAsCXXRecordDecl() == Class)
      Returned.push_back(CE);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
};
} // namespace

void ScopedAccesses::Walker::noteConstruction(const CXXConstructExpr *CE, const Frame *Fr, unsigned Depth) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (Ctor->isCopyOrMoveConstructor() || Depth > 4)
    return;
  NotedConstructions.insert(CE);
  const CXXRecordDecl *RD = Ctor->getParent();
  if (inSystemHeader(RD->getLocation())) // a library's classes: their handles are not followed
    return;
  const auto *CtorDef = Ctor->hasBody(Def) ? cast<CXXConstructorDecl>(Def) : nullptr;
  Frame *Inside = CtorDef ? resolutionFrame(CtorDef, CE, Fr) : nullptr;
  for (const FieldDecl *FD : RD->fields()) {
    if (!FD->getType()->isPointerType())
      continue;
    FieldPointee &P = HandleFields[FD];
    if (P.Mixed)
      continue;
    // A constructor that leaves the field unset (a defaulted one, or one
    // that never names it) leaves its default member initializer there, or
    // nothing anyone may read through it; one that sets it in a way the walk
    // cannot follow ends the fact.
    const Expr *Value = CtorDef ? constructorValue(CtorDef, FD) : nullptr;
    if (!Value) {
      const bool Named = CtorDef && (any_of(CtorDef->inits(),
                                            [&](const CXXCtorInitializer *I) {
                                              return I->getMember() == FD && I->isWritten();
                                            }) ||
                                     (CtorDef->getBody() && writesField(CtorDef->getBody(), FD)));
      if (Named || (!CtorDef && !Ctor->isDefaulted())) {
        P.Mixed = true;
        continue;
      }
      Value = FD->getInClassInitializer();
      if (!Value)
        continue;
    }
    if (Value->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    std::optional<ObjectRef> R = pointee(Value, Inside, 0);
    if (!R || !R->Root || P.Ways.size() >= 8) {
      P.Mixed = true;
      continue;
    }
    if (none_of(P.Ways, [&](const ObjectRef &W) { return W.sameObject(*R); }))
      P.Ways.push_back(std::move(*R));
  }
  // The members the constructor builds are constructions too.
  if (!CtorDef)
    return;
  RootReached.insert(CtorDef);
  for (const CXXCtorInitializer *Init : CtorDef->inits())
    if (const auto *Member = dyn_cast_or_null<CXXConstructExpr>(stripWrappers(Init->getInit())))
      noteConstruction(Member, Inside, Depth + 1);
  if (CtorDef->getBody()) {
    Constructions Body;
    for (const FieldDecl *FD : RD->fields())
      if (const CXXRecordDecl *Sub = FD->getType()->getAsCXXRecordDecl(); hasPointerField(Sub)) {
        Body.Class = Sub;
        Body.Found.clear();
        Body.TraverseStmt(CtorDef->getBody());
        for (const CXXConstructExpr *Made : Body.Found)
          noteConstruction(Made, Inside, Depth + 1);
      }
  }
}

void ScopedAccesses::Walker::noteHandedObject(const Expr *Source, const CXXRecordDecl *RD) {
  if (!RD || madeByTheKernel(Source))
    return;
  // The object and the records it holds (an allocator copied from the
  // kernel's parameter holds its blocks as the host left them).
  SmallVector<const CXXRecordDecl *, 4> Work{RD};
  while (!Work.empty()) {
    const CXXRecordDecl *C = Work.pop_back_val();
    if (!C || !C->hasDefinition() || !HandedFromMemory.insert(C).second)
      continue;
    for (const FieldDecl *FD : C->fields())
      Work.push_back(FD->getType()->getAsCXXRecordDecl());
    for (const CXXBaseSpecifier &B : C->bases())
      Work.push_back(B.getType()->getAsCXXRecordDecl());
  }
}

void ScopedAccesses::Walker::noteHandedObjects(const Expr *S) {
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    if (Construct->getConstructor()->isCopyOrMoveConstructor() && Construct->getNumArgs() >= 1)
      noteHandedObject(Construct->getArg(0), Construct->getConstructor()->getParent());
    return;
  }
  const auto *CE = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  // A handle a call returns whose body the TU does not show was made by
  // nothing the walk saw.
  if (CE && (!Callee || !Callee->hasBody()))
    if (const CXXRecordDecl *Made = CE->getType()->getAsCXXRecordDecl(); hasPointerField(Made))
      noteHandedObject(/*Source=*/nullptr, Made);
  if (!Callee)
    return;
  unsigned Shift = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (const Expr *Obj = MC->getImplicitObjectArgument(); Obj && !Obj->getType()->isPointerType())
      noteHandedObject(Obj, MC->getRecordDecl());
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE); OC && isa<CXXMethodDecl>(Callee)) {
    Shift = 1;
    noteHandedObject(OC->getArg(0), cast<CXXMethodDecl>(Callee)->getParent());
  }
  for (unsigned I = Shift; I < CE->getNumArgs() && I - Shift < Callee->getNumParams(); ++I) {
    QualType T = Callee->getParamDecl(I - Shift)->getType();
    if (T->isReferenceType() || T->isRecordType())
      noteHandedObject(CE->getArg(I), T.getNonReferenceType()->getAsCXXRecordDecl());
  }
}

void ScopedAccesses::Walker::resolveHandleFields(size_t FirstAll, size_t FirstPlain) {
  if (HandleFields.empty())
    return;
  // Per class: every construction in what the walk entered was noted, so
  // the constructions seen are all there are.
  DenseMap<const CXXRecordDecl *, bool> AllSeen;
  auto Complete = [&](const CXXRecordDecl *RD) {
    auto [It, New] = AllSeen.try_emplace(RD, true);
    if (!New)
      return It->second;
    Constructions Made;
    Made.Class = RD;
    for (const FunctionDecl *F : RootReached) {
      Made.Found.clear();
      Made.Returned.clear();
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          Made.TraverseStmt(Init->getInit());
      Made.TraverseStmt(F->getBody());
      if (any_of(Made.Found, [&](const CXXConstructExpr *CE) { return !NotedConstructions.count(CE); }))
        return It->second = false;
      // A callee the walk did not enter (past its depth) built what it returns unseen.
      if (any_of(Made.Returned, [&](const CallExpr *CE) {
            const FunctionDecl *Def = CE->getDirectCallee() ? definitionOf(CE->getDirectCallee()) : nullptr;
            return !Def || !RootReached.count(Def);
          }))
        return It->second = false;
    }
    // Nothing outside the class's methods changes the field (node.ptr = p).
    for (const FunctionDecl *F : RootReached) {
      const auto *MD = dyn_cast<CXXMethodDecl>(F);
      if ((!MD || MD->getParent() != RD) && F->getBody() && any_of(RD->fields(), [&](const FieldDecl *FD) {
            return FD->getType()->isPointerType() && writesField(F->getBody(), FD);
          }))
        return It->second = false;
    }
    return true;
  };
  // The pointer field just before \p O's first dereference, if any.
  auto HandleOf = [](const ObjectRef &O) -> std::pair<const FieldDecl *, const FieldDecl *const *> {
    auto Deref = llvm::find(O.Path, nullptr);
    if (Deref == O.Path.begin() || Deref == O.Path.end())
      return {nullptr, nullptr};
    return {*(Deref - 1), Deref};
  };
  auto Through = [&](const ObjectRef &O, const ObjectRef &To, const FieldDecl *FD) {
    const FieldDecl *const *Deref = HandleOf(O).second;
    ObjectRef New = O;
    New.Root = To.Root;
    New.Path.assign(To.Path.begin(), To.Path.end());
    New.Path.append(Deref + 1, O.Path.end());
    New.Carve = To.Carve;
    New.WaysHome = ObjectHome::Unknown;
    New.Index = "(handle " + FD->getParent()->getNameAsString() + "::" + FD->getNameAsString() + ")" + O.Index;
    return New;
  };
  // The one object every handle's \p FD points into: each construction's
  // value, or where it is itself read through another handle's field (a
  // block's bitmap made from its level's start), that field's object.
  DenseMap<const FieldDecl *, std::optional<ObjectRef>> Targets;
  std::function<std::optional<ObjectRef>(const FieldDecl *, unsigned)> Target = [&](const FieldDecl *FD,
                                                                                     unsigned Depth) {
    auto [Known, New] = Targets.try_emplace(FD, std::nullopt);
    if (!New || Depth > 4)
      return Known->second;
    auto It = HandleFields.find(FD);
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (It == HandleFields.end() || It->second.Mixed || It->second.Ways.empty() || !RD ||
        HandedFromMemory.count(RD) || !onlyCopiedOutsideConstructors(RD, FD) || !Complete(RD))
      return std::optional<ObjectRef>();
    std::optional<ObjectRef> One;
    for (const ObjectRef &Way : It->second.Ways) {
      std::optional<ObjectRef> At = Way;
      if (Owner.homeOf(Way, /*FromLaunch=*/false) == ObjectHome::Unknown) {
        const FieldDecl *Via = HandleOf(Way).first;
        std::optional<ObjectRef> To = Via && Via != FD ? Target(Via, Depth + 1) : std::nullopt;
        At = To ? std::optional<ObjectRef>(Through(Way, *To, Via)) : std::nullopt;
      }
      if (!At || (One && !One->sameObject(*At)))
        return std::optional<ObjectRef>();
      if (!One)
        One = std::move(At);
    }
    One->atElementChosenAtRunTime("(handle)");
    Targets[FD] = One;
    return One;
  };
  auto Rename = [&](ScopedAccess &A) {
    if (!A.Object || !A.Object->Root || Owner.homeOf(*A.Object, /*FromLaunch=*/false) != ObjectHome::Unknown)
      return;
    const FieldDecl *FD = HandleOf(*A.Object).first;
    if (!FD || !HandleFields.count(FD))
      return;
    if (std::optional<ObjectRef> To = Target(FD, 0))
      *A.Object = Through(*A.Object, *To, FD);
  };
  for (size_t I = FirstAll; I < Owner.All.size(); ++I)
    Rename(Owner.All[I]);
  for (size_t I = FirstPlain; I < Owner.Plain.size(); ++I)
    Rename(Owner.Plain[I]);
}

} // namespace cuda_scope
