//===- ScopedAccesses.cpp - every scoped atomic, fence and barrier of a TU ===//
#include "ScopedAccesses.h"
#include "CheckUtils.h"
#include "PerTU.h"
#include "model/Ptx.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

std::shared_ptr<ScopedAccesses> ScopedAccesses::get(ASTContext &Ctx) { return sharedPerTU<ScopedAccesses>(Ctx); }

ScopedAccesses::ScopedAccesses(ASTContext &Ctx) : Ctx(Ctx) {}
ScopedAccesses::~ScopedAccesses() = default;

bool ScopedAccess::encloses(const Stmt *S) const { return S && is_contained(Enclosing, S); }

std::string ObjectRef::key() const {
  std::string K;
  auto Add = [&](const void *P) { K.append(reinterpret_cast<const char *>(&P), sizeof P); };
  Add(Root);
  for (const FieldDecl *F : Path)
    Add(F);
  return K;
}

struct ScopedAccesses::Launch {
  const FunctionDecl *Kernel = nullptr;
  /// What each argument points to (pointer parameters) or is (the others).
  SmallVector<std::optional<ObjectRef>, 4> Args;
  bool OneBlock = false;
};

namespace {

std::optional<int64_t> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  if (!E || E->isValueDependent() || E->isTypeDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 64)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

bool isMemoryOrderType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const EnumDecl *ED = T->getAsEnumDecl();
  return ED && identifierOf(ED) == "memory_order";
}

const FunctionDecl *definitionOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  return Def;
}

/// Strips what wraps an object expression without changing the object:
/// parentheses, implicit casts, temporaries and cleanups.
const Expr *stripWrappers(const Expr *E) {
  for (unsigned Step = 0; E && Step < 16; ++Step) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

/// The initializers of \p IL are the fields of \p FD's struct, in order: no
/// base classes come first, and it is not a union's single initializer.
bool initializesFields(const InitListExpr *IL, const FieldDecl *FD) {
  const RecordDecl *RD = FD->getParent();
  const RecordDecl *Built = IL->getType()->getAsRecordDecl();
  if (!Built || Built->getCanonicalDecl() != RD->getCanonicalDecl() || RD->isUnion())
    return false;
  const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
  return !CXX || CXX->getNumBases() == 0;
}

/// How a body modifies one of its variables: how many times, and the value
/// of a plain assignment.
struct Modification {
  unsigned Count = 0;
  const Expr *Assigned = nullptr; ///< the right-hand side of the last plain `v = ...`
};

constexpr unsigned MaxDepth = 12;      // calls followed down from a root
constexpr unsigned MaxResolve = 24;    // steps resolving one expression
constexpr unsigned WalkBudget = 200000; // statements walked per root

} // namespace

class ScopedAccesses::Walker {
public:
  /// What becomes of the value of the expression being walked: it decides a
  /// branch (Tested), or it is stored to a variable (RelayTo).
  struct ValueUse {
    bool Tested = false;
    const VarDecl *RelayTo = nullptr;
    /// How the value is compared on the way (none: a truth test, if any).
    ValueTest Compare = ValueTest::None;
  };

  /// A call into a function: its arguments bind the callee's parameters, and
  /// a member call's object binds 'this'.
  struct Frame {
    const FunctionDecl *F = nullptr;
    const Expr *Call = nullptr; ///< the CallExpr or CXXConstructExpr that entered F
    const Frame *Parent = nullptr;
    const Expr *This = nullptr; ///< the object of a member call, in Parent
    bool ThisIsPointer = false;
    unsigned Depth = 0;
    /// What the caller does with the call's value: the callee's return
    /// statements hand their values to it.
    ValueUse Result;
  };

  /// The frame of the function that declares a variable of \p DC, if it is
  /// on the walk's stack.
  static const Frame *frameOf(const DeclContext *DC, const Frame *Fr) {
    for (; Fr; Fr = Fr->Parent)
      if (Fr->F == DC)
        return Fr;
    return nullptr;
  }

  Walker(ScopedAccesses &Owner) : Owner(Owner), Ctx(Owner.Ctx), SM(Ctx.getSourceManager()) {}

  void walkRoot(const FunctionDecl *F, ScopedAccess::RootKind K) {
    Root = F;
    Kind = K;
    Seq = 0;
    Budget = WalkBudget;
    Enclosing.clear();
    Blocks.clear();
    OnlyBlock = -1;
    Chain.clear();
    Arms.clear();
    Use = ValueUse();
    Relays.clear();
    VarFlows.clear();
    Frame Top;
    Top.F = F;
    Active.insert(F);
    walkBody(F, &Top);
    Active.erase(F);
    resolveRelays();
  }

  DenseSet<const FunctionDecl *> Reached; ///< functions walked under a kernel
  DenseMap<const VarDecl *, Allocation> Allocations;

  // Object resolution; also used for launch arguments.
  std::optional<ObjectRef> lvalue(const Expr *E, const Frame *Fr, unsigned Steps = 0);
  std::optional<ObjectRef> pointee(const Expr *E, const Frame *Fr, unsigned Steps = 0);

private:
  struct BlockPos {
    const CompoundStmt *CS;
    unsigned Index;
  };

  void walkBody(const FunctionDecl *F, const Frame *Fr) {
    if (Kind != ScopedAccess::Host)
      Reached.insert(F);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        walk(Init->getInit(), Fr);
    walk(F->getBody(), Fr);
  }

  void walk(const Stmt *S, const Frame *Fr);
  void call(const CallExpr *CE, const Frame *Fr);
  bool recordCall(const CallExpr *CE, const Frame *Fr);
  bool libcuMember(const CallExpr *CE, const CXXMethodDecl *MD, const Expr *Obj, const Frame *Fr);
  void atomicExpr(const AtomicExpr *AE, const Frame *Fr);
  void inlineAsm(const GCCAsmStmt *A, const Frame *Fr);
  void launch(const CUDAKernelCallExpr *K, const Frame *Fr);
  void allocation(const CallExpr *CE);
  void record(ScopedAccess A, const Stmt *Site, const Frame *Fr, bool PlainList = false);
  void plainAccess(const Expr *E, OpKind K, const Stmt *Site, SourceLocation Loc, const Frame *Fr);
  bool control(const Stmt *S, const Frame *Fr);
  std::optional<int64_t> pinnedBlock(const Expr *Cond, bool WhenTrue) const;
  void walkWith(const Stmt *S, const Frame *Fr, ValueUse U);
  void walkArm(const Stmt *S, const Frame *Fr, const Stmt *Owner, unsigned Arm);
  void resolveRelays();

  std::optional<ObjectRef> pointerIn(const Expr *L, const Frame *Fr, unsigned Steps);
  std::optional<ObjectRef> atomicRefTarget(const Expr *E, const Frame *Fr, unsigned Steps = 0);
  std::optional<std::pair<const Expr *, const Frame *>> structValue(const Expr *E, const Frame *Fr,
                                                                    unsigned Steps);
  std::optional<std::pair<const Expr *, const Frame *>> argumentFor(const ParmVarDecl *P, const Frame *Fr);
  std::optional<std::pair<const Expr *, const Frame *>> returned(const CallExpr *CE, const Frame *Fr);
  /// Variables a value may be followed through: unmodified locals only, or any with an initializer.
  enum class Vars { UnmodifiedLocals, Initialized };
  /// One step back to where a value comes from: a parameter to its argument at the call, a call to
  /// what it returns, a variable to its initializer. False when the TU does not show it.
  bool stepToSource(const Expr *&E, const Frame *&Fr, Vars Which);
  void addIndex(ObjectRef &R, const Expr *Index, const Frame *Fr);
  struct IndexDeps {
    bool Block = false, Thread = false;
  };
  std::string canon(const Expr *E, const Frame *Fr, IndexDeps &Deps, unsigned Depth = 0);
  ObjectRef rootRef(const ValueDecl *D);
  bool modified(const VarDecl *V);
  bool inSystemHeader(SourceLocation L) const { return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L)); }
  void writtenScope(const Expr *Obj, int ScopeArg, ScopedAccess &A);

  ScopedAccesses &Owner;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *Root = nullptr;
  ScopedAccess::RootKind Kind = ScopedAccess::Kernel;
  unsigned Seq = 0, Budget = 0;
  SmallVector<const Stmt *, 16> Enclosing;
  SmallVector<BlockPos, 16> Blocks;
  SmallVector<const Expr *, 4> Chain;
  SmallVector<std::pair<const Stmt *, unsigned>, 8> Arms;
  /// The one block that runs what is walked now, under if (blockIdx.x == C); -1: any.
  int64_t OnlyBlock = -1;
  ValueUse Use;
  /// Accesses whose value is stored to a variable: which list, which entry, which variable.
  struct Relay {
    bool InPlain;
    size_t Index;
    const VarDecl *To;
    ValueTest Compare;
  };
  SmallVector<Relay, 8> Relays;
  /// Variables read where the value decides a branch (To null) or is stored to another (To).
  struct VarFlow {
    const VarDecl *From, *To;
    unsigned Seq;
    ValueTest Compare;
  };
  std::vector<VarFlow> VarFlows;
  DenseSet<const FunctionDecl *> Active;
  using Modifications = DenseMap<const VarDecl *, Modification>;
  DenseMap<const DeclContext *, std::unique_ptr<Modifications>> Modified;
  const Modifications *modificationsOf(const VarDecl *V);
  /// The value of a local declared without one and assigned exactly once.
  const Expr *singleAssignment(const VarDecl *V);
  std::vector<std::unique_ptr<Frame>> FramesKeepAlive;
};

//===----------------------------------------------------------------------===//
// Object identity
//===----------------------------------------------------------------------===//

namespace {
/// Collects the variables a body assigns, increments, takes the address of or
/// binds to a non-const reference: their initializer may not be their value.
/// For each, how many times, and the value of a plain assignment (Modification).
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  explicit ModifiedVars(DenseMap<const VarDecl *, Modification> &Out) : Out(Out) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp()) // compound assignments too
      mark(BO->getLHS(), BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    // A non-const member function may change the object's fields.
    if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && !MD->isConst() && !MD->isStatic())
      mark(MC->getImplicitObjectArgument());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      mark(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0)
      mark(OC->getArg(0));
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
  void mark(const Expr *E, const Expr *Value = nullptr) {
    const Expr *Whole = E->IgnoreParenCasts();
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
          M.Assigned = E == Whole ? Value : nullptr;
        }
      return;
    }
  }
  DenseMap<const VarDecl *, Modification> &Out;
};
} // namespace

const ScopedAccesses::Walker::Modifications *ScopedAccesses::Walker::modificationsOf(const VarDecl *V) {
  const DeclContext *DC = V->getParentFunctionOrMethod();
  const auto *F = dyn_cast_or_null<FunctionDecl>(DC);
  if (!F || !F->getBody())
    return nullptr;
  std::unique_ptr<Modifications> &Map = Modified[DC];
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
  if (!Def || inSystemHeader(Def->getLocation()) || (Fr && Fr->Depth >= MaxDepth))
    return std::nullopt;
  for (const Frame *Up = Fr; Up; Up = Up->Parent)
    if (Up->F == Def)
      return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return std::nullopt;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Ret || !Ret->getRetValue())
    return std::nullopt;
  for (const Stmt *S : Body->body())
    if (S != Ret && !isa<DeclStmt, NullStmt>(S))
      return std::nullopt;
  // The callee's frame lives as long as the walker: resolution results only
  // keep declarations, never frames.
  FramesKeepAlive.push_back(std::make_unique<Frame>());
  Frame *Sub = FramesKeepAlive.back().get();
  Sub->F = Def;
  Sub->Call = CE;
  Sub->Parent = Fr;
  Sub->Depth = Fr ? Fr->Depth + 1 : 1;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    Sub->This = MC->getImplicitObjectArgument();
    Sub->ThisIsPointer = Sub->This && Sub->This->getType()->isPointerType();
  }
  return std::make_pair(Ret->getRetValue(), static_cast<const Frame *>(Sub));
}

std::optional<ObjectRef> ScopedAccesses::Walker::lvalue(const Expr *E, const Frame *Fr, unsigned Steps) {
  if (!E || ++Steps > MaxResolve)
    return std::nullopt;
  E = stripWrappers(E);
  // A copy passed by value holds the same pointers as the original.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor())
      return lvalue(Construct->getArg(0), Fr, Steps);
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
    for (const Frame *Up = Fr; Up; Up = Up->Parent)
      if (isa<CXXMethodDecl>(Up->F)) {
        if (!Up->This)
          return std::nullopt;
        return Up->ThisIsPointer ? pointee(Up->This, Up->Parent, Steps) : lvalue(Up->This, Up->Parent, Steps);
      }
    return std::nullopt;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
    std::optional<ObjectRef> A = pointee(CO->getTrueExpr(), Fr, Steps), B = pointee(CO->getFalseExpr(), Fr, Steps);
    if (A && B && A->sameObject(*B))
      return A;
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    if (auto Ret = returned(CE, Fr))
      return pointee(Ret->first, Ret->second, Steps);
    return std::nullopt;
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
      }
      return Deref(rootRef(P));
    }
    if (VD->hasLocalStorage()) {
      if (VD->getType()->isReferenceType() && VD->getInit())
        return pointerIn(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Steps);
      if (VD->getInit() && !modified(VD))
        if (std::optional<ObjectRef> R = pointee(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Steps))
          return R;
    }
    return Deref(rootRef(VD));
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
      if (!VD->getInit())
        return false;
      if (Which == Vars::UnmodifiedLocals && (!VD->hasLocalStorage() || modified(VD)))
        return false;
      Next = std::make_pair(VD->getInit(),
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

void ScopedAccesses::Walker::addIndex(ObjectRef &R, const Expr *Index, const Frame *Fr) {
  IndexDeps Deps;
  std::string Text = canon(Index, Fr, Deps);
  if (Text == "0")
    return; // p[0] is *p, and p + 0 is p
  R.Index += "[" + Text + "]";
  if (Deps.Block && !R.BlockDependent)
    R.BlockSegment = R.Index;
  R.BlockDependent |= Deps.Block;
  R.ThreadDependent |= Deps.Thread;
}

/// Canonical text of an index: equal text means the same computation, so the
/// same element for threads with the same block and thread indices. Locals
/// are replaced by their initializers and parameters by their arguments; what
/// cannot be followed is named uniquely. \p Deps says whether the value reads
/// blockIdx.x (threadIdx.x) through operations that keep distinct blocks
/// (threads) apart.
std::string ScopedAccesses::Walker::canon(const Expr *E, const Frame *Fr, IndexDeps &Deps, unsigned Depth) {
  auto Unique = [](const void *P, StringRef Name) { return (Name + "@" + utohexstr(reinterpret_cast<uintptr_t>(P))).str(); };
  if (!E)
    return "?";
  if (Depth > MaxResolve)
    return Unique(E, "?");
  E = E->IgnoreParenCasts();
  if (std::optional<int64_t> V = constantInt(E, Ctx))
    return std::to_string(*V);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isBlockIndexName(identifierOf(D)) || isThreadIndexName(identifierOf(D))) {
      (isBlockIndexName(identifierOf(D)) ? Deps.Block : Deps.Thread) = true;
      return identifierOf(D).str();
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      if (auto Arg = argumentFor(P, Fr))
        return canon(Arg->first, Arg->second, Deps, Depth + 1);
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD)) {
      if (VD->getInit() && !modified(VD))
        return canon(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Deps, Depth + 1);
      if (const Expr *Value = singleAssignment(VD))
        return canon(Value, frameOf(VD->getParentFunctionOrMethod(), Fr), Deps, Depth + 1);
    }
    return Unique(D, identifierOf(D));
  }
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return canon(OV->getSourceExpr(), Fr, Deps, Depth + 1);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return canon(PO->getSyntacticForm(), Fr, Deps, Depth + 1);
  // blockIdx.x keeps blocks apart, threadIdx.x a block's threads; .y or .z
  // alone does not (separatesBlocks).
  auto Member = [&](const Expr *Base, StringRef Name, StringRef Sep) {
    IndexDeps Sub;
    std::string Text = canon(Base, Fr, Sub, Depth + 1) + Sep.str() + Name.str();
    const Expr *B = Base->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(B); OV && OV->getSourceExpr())
      B = OV->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(B);
    StringRef BaseName = DRE ? identifierOf(DRE->getDecl()) : StringRef();
    bool Component = (isBlockIndexName(BaseName) || isThreadIndexName(BaseName)) && Name.size() == 1;
    bool Apart = !Component || separatesBlocks(Name[0]);
    Deps.Block |= Sub.Block && Apart;
    Deps.Thread |= Sub.Thread && Apart;
    return Text;
  };
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E))
    return Member(MP->getBaseExpr(), identifierOf(MP->getPropertyDecl()), ".");
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return Member(ME->getBase(), ME->getMemberDecl()->getNameAsString(), ME->isArrow() ? "->" : ".");
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return Unique(E, "?");
    // +, -, * and << keep distinct blocks on distinct elements; /, %, &, |,
    // ^ and >> can map several blocks to one element.
    bool Injective = BO->isAdditiveOp() || BO->getOpcode() == BO_Mul || BO->getOpcode() == BO_Shl;
    IndexDeps Ignored;
    IndexDeps &D = Injective ? Deps : Ignored;
    return "(" + canon(BO->getLHS(), Fr, D, Depth + 1) + BO->getOpcodeStr().str() +
           canon(BO->getRHS(), Fr, D, Depth + 1) + ")";
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp())
      return Unique(E, "?");
    return UnaryOperator::getOpcodeStr(UO->getOpcode()).str() + "(" + canon(UO->getSubExpr(), Fr, Deps, Depth + 1) +
           ")";
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return "(" + canon(CO->getCond(), Fr, Deps, Depth + 1) + "?" + canon(CO->getTrueExpr(), Fr, Deps, Depth + 1) +
           ":" + canon(CO->getFalseExpr(), Fr, Deps, Depth + 1) + ")";
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return canon(AS->getBase(), Fr, Deps, Depth + 1) + "[" + canon(AS->getIdx(), Fr, Deps, Depth + 1) + "]";
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && (isBlockIndexName(identifierOf(FD)) || isThreadIndexName(identifierOf(FD)))) {
      // __nvvm_read_ptx_sreg_ctaid_x, __nvvm_read_ptx_sreg_tid_x
      (isBlockIndexName(identifierOf(FD)) ? Deps.Block : Deps.Thread) |= separatesBlocks(identifierOf(FD).back());
      return identifierOf(FD).str();
    }
    if (auto Ret = returned(CE, Fr))
      return canon(Ret->first, Ret->second, Deps, Depth + 1);
    std::string Text = FD ? plainQualifiedName(FD) : Unique(E, "?");
    Text += "(";
    for (const Expr *Arg : CE->arguments())
      Text += canon(Arg, Fr, Deps, Depth + 1) + ",";
    return Text + ")";
  }
  return Unique(E, "?");
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

namespace {
/// blockIdx.x, as the builtin variable (a member, or the toolkit's property)
/// or the NVVM builtin that reads %ctaid.x.
bool isBlockIndexX(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  auto IsBlockIdx = [](const Expr *Base) {
    Base = Base->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(Base); OV && OV->getSourceExpr())
      Base = OV->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Base);
    return DRE && identifierOf(DRE->getDecl()) == "blockIdx";
  };
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E))
    return IsBlockIdx(MP->getBaseExpr()) && identifierOf(MP->getPropertyDecl()) == "x";
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return IsBlockIdx(ME->getBase()) && identifierOf(ME->getMemberDecl()) == "x";
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return CE->getDirectCallee() && identifierOf(CE->getDirectCallee()) == "__nvvm_read_ptx_sreg_ctaid_x";
  return false;
}

/// A statement that leaves the function: return, or a block ending in one.
bool returns(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && returns(CS->body_back());
  return isa_and_nonnull<ReturnStmt>(S);
}
} // namespace

/// The one block whose threads see \p Cond come out \p WhenTrue:
/// blockIdx.x == C (or C == blockIdx.x) when it holds, blockIdx.x != C or
/// blockIdx.x > 0 when it fails, and the same through !, && and ||.
std::optional<int64_t> ScopedAccesses::Walker::pinnedBlock(const Expr *Cond, bool WhenTrue) const {
  if (!Cond)
    return std::nullopt;
  Cond = Cond->IgnoreParenImpCasts();
  if (isBlockIndexX(Cond)) // if (blockIdx.x) fails in block 0 alone
    return WhenTrue ? std::nullopt : std::optional<int64_t>(0);
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return pinnedBlock(UO->getSubExpr(), !WhenTrue);
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr) {
    // Both sides of && hold when it does; both of || fail when it does.
    if ((BO->getOpcode() == BO_LAnd) != WhenTrue)
      return std::nullopt;
    if (std::optional<int64_t> C = pinnedBlock(BO->getLHS(), WhenTrue))
      return C;
    return pinnedBlock(BO->getRHS(), WhenTrue);
  }
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (!isBlockIndexX(L))
    std::swap(L, R);
  std::optional<int64_t> C = constantInt(R, Ctx);
  if (!isBlockIndexX(L) || !C || *C < 0)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_EQ: return WhenTrue ? C : std::nullopt;
  case BO_NE: return WhenTrue ? std::nullopt : C;
  case BO_GT: // blockIdx.x > 0 fails in block 0 alone (written either way round)
    return !WhenTrue && *C == 0 && BO->getLHS()->IgnoreParenImpCasts() == L ? C : std::nullopt;
  default: return std::nullopt;
  }
}

void ScopedAccesses::Walker::walk(const Stmt *S, const Frame *Fr) {
  if (!S || Budget == 0)
    return;
  --Budget;
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
    unsigned Index = 0;
    const int64_t Saved = OnlyBlock;
    for (const Stmt *Child : CS->body()) {
      Blocks.push_back({CS, Index++});
      Enclosing.push_back(Child);
      walk(Child, Fr);
      Enclosing.pop_back();
      Blocks.pop_back();
      // if (blockIdx.x != C) return; what follows runs in block C alone.
      if (const auto *If = dyn_cast<IfStmt>(Child); If && !If->getElse() && returns(If->getThen()))
        if (std::optional<int64_t> C = pinnedBlock(If->getCond(), /*WhenTrue=*/false))
          OnlyBlock = *C;
    }
    OnlyBlock = Saved;
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
  if (control(S, Fr))
    return;
  for (const Stmt *Child : S->children())
    walk(Child, Fr);
  if (const auto *AE = dyn_cast<AtomicExpr>(S)) {
    atomicExpr(AE, Fr);
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    call(CE, Fr);
  } else if (Kind != ScopedAccess::Host) {
    // Plain loads and stores, after what they are computed from.
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(S); IC && IC->getCastKind() == CK_LValueToRValue) {
      plainAccess(IC->getSubExpr(), OpKind::Load, IC, IC->getSubExpr()->getExprLoc(), Fr);
    } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S)) {
      plainAccess(CA->getLHS(), OpKind::Load, CA, CA->getOperatorLoc(), Fr);
      plainAccess(CA->getLHS(), OpKind::Store, CA, CA->getOperatorLoc(), Fr);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp()) {
      plainAccess(UO->getSubExpr(), OpKind::Load, UO, UO->getOperatorLoc(), Fr);
      plainAccess(UO->getSubExpr(), OpKind::Store, UO, UO->getOperatorLoc(), Fr);
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      // A struct copied whole (float3 p = partial[b]) reads it.
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (Construct->getNumArgs() == 1 && Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial())
        plainAccess(Construct->getArg(0), OpKind::Load, Construct, Construct->getArg(0)->getExprLoc(), Fr);
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
  Arms.push_back({Owner, Arm | (returns(S) ? ArmReturns : 0)});
  walk(S, Fr);
  Arms.pop_back();
}

/// Statements whose parts run conditionally, or whose values go somewhere the
/// rules follow: conditions (tested values), the arms of if and ?:, loops
/// (whose condition runs again after the body), assignments and
/// initializations of variables (relays), returns (to the caller's use).
bool ScopedAccesses::Walker::control(const Stmt *S, const Frame *Fr) {
  const ValueUse Test{true, nullptr};
  // A loop's condition runs again after the body: what it tests then is
  // tested after the body's accesses too.
  auto Loop = [&](const Stmt *CondVar, const Expr *Cond, const Stmt *Body, const Stmt *Inc, bool CondFirst) {
    size_t First = VarFlows.size();
    if (CondFirst) {
      walk(CondVar, Fr);
      walkWith(Cond, Fr, Test);
    }
    size_t Last = VarFlows.size();
    walk(Body, Fr);
    walk(Inc, Fr);
    if (!CondFirst) {
      walk(CondVar, Fr);
      walkWith(Cond, Fr, Test);
      return;
    }
    for (size_t I = First; I < Last; ++I)
      VarFlows.push_back({VarFlows[I].From, VarFlows[I].To, Seq, VarFlows[I].Compare});
  };
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getInit(), Fr);
    walk(If->getConditionVariableDeclStmt(), Fr);
    walkWith(If->getCond(), Fr, Test);
    const int64_t Saved = OnlyBlock;
    if (std::optional<int64_t> C = pinnedBlock(If->getCond(), /*WhenTrue=*/true))
      OnlyBlock = *C;
    walkArm(If->getThen(), Fr, If, 0);
    OnlyBlock = Saved;
    if (std::optional<int64_t> C = pinnedBlock(If->getCond(), /*WhenTrue=*/false))
      OnlyBlock = *C;
    walkArm(If->getElse(), Fr, If, 1);
    OnlyBlock = Saved;
    return true;
  }
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    Loop(W->getConditionVariableDeclStmt(), W->getCond(), W->getBody(), nullptr, true);
    return true;
  }
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    Loop(nullptr, D->getCond(), D->getBody(), nullptr, false);
    return true;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    walk(For->getInit(), Fr);
    Loop(For->getConditionVariableDeclStmt(), For->getCond(), For->getBody(), For->getInc(), true);
    return true;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    walk(Sw->getInit(), Fr);
    walk(Sw->getConditionVariableDeclStmt(), Fr);
    walkWith(Sw->getCond(), Fr, Test);
    walk(Sw->getBody(), Fr);
    return true;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    walkWith(CO->getCond(), Fr, Test);
    walkArm(CO->getTrueExpr(), Fr, CO, 0);
    walkArm(CO->getFalseExpr(), Fr, CO, 1);
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isLogicalOp()) {
      walkWith(BO->getLHS(), Fr, Test);
      walk(BO->getRHS(), Fr);
      return true;
    }
    if (BO->isComparisonOp() && (Use.Tested || Use.RelayTo)) {
      ValueUse U = Use;
      U.Compare = BO->isEqualityOp() ? ValueTest::Equality : ValueTest::Bound;
      walkWith(BO->getLHS(), Fr, U);
      walkWith(BO->getRHS(), Fr, U);
      return true;
    }
    if (BO->getOpcode() != BO_Assign)
      return false;
    // The value assigned is the assignment's value too: the use around it
    // stays, and a variable assigned to relays it.
    ValueUse U = Use;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        U.RelayTo = VD;
    walkWith(BO->getRHS(), Fr, U);
    walkWith(BO->getLHS(), Fr, ValueUse());
    if (Kind != ScopedAccess::Host)
      plainAccess(BO->getLHS(), OpKind::Store, BO, BO->getOperatorLoc(), Fr);
    return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
        walkWith(VD->getInit(), Fr, ValueUse{false, VD});
    return true;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    walkWith(R->getRetValue(), Fr, Fr->Result);
    return true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (Use.Tested)
        VarFlows.push_back({VD, nullptr, Seq, Use.Compare});
      else if (Use.RelayTo && Use.RelayTo != VD)
        VarFlows.push_back({VD, Use.RelayTo, Seq, Use.Compare});
    }
    return true;
  }
  return false;
}

void ScopedAccesses::Walker::resolveRelays() {
  // A value stored to a variable is tested where the variable, or one it is
  // stored to in turn, decides a branch later in the walk; the first
  // comparison on the way says how.
  struct Step {
    const VarDecl *Var;
    unsigned After;
    ValueTest Compare;
  };
  for (const Relay &R : Relays) {
    ScopedAccess &A = (R.InPlain ? Owner.Plain : Owner.All)[R.Index];
    if (A.TestSeq)
      continue;
    SmallVector<Step, 4> Work{{R.To, A.Seq, R.Compare}};
    std::optional<unsigned> Best;
    ValueTest How = ValueTest::Bound;
    for (unsigned Round = 0; Round < 4 && !Work.empty(); ++Round) {
      SmallVector<Step, 4> Next;
      for (const Step &W : Work)
        for (const VarFlow &F : VarFlows) {
          if (F.From != W.Var || F.Seq <= W.After)
            continue;
          ValueTest Compare = W.Compare != ValueTest::None ? W.Compare : F.Compare;
          if (!F.To) {
            // The first test says where; any test for equality says how (as
            // the IR front end reads it).
            ValueTest T = Compare == ValueTest::None ? ValueTest::Equality : Compare;
            if (!Best || T == ValueTest::Equality)
              How = T;
            if (!Best || F.Seq < *Best)
              Best = F.Seq;
          } else if (Next.size() < 16) {
            Next.push_back({F.To, F.Seq, Compare});
          }
        }
      Work = std::move(Next);
    }
    A.TestSeq = Best;
    if (Best)
      A.Test = How;
  }
}

void ScopedAccesses::Walker::plainAccess(const Expr *E, OpKind K, const Stmt *Site, SourceLocation Loc,
                                         const Frame *Fr) {
  E = E->IgnoreParenImpCasts();
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
  ScopedAccess A;
  A.What = K;
  A.Ord = E->getType().isVolatileQualified() ? Order::Volatile : Order::Plain;
  A.S = Scope::System; // volatile is a relaxed system-scope access in PTX; plain has no scope
  A.How = ScopedAccess::Plain;
  A.Object = std::move(O);
  A.Name = A.Ord == Order::Volatile ? "volatile " : "";
  A.Name += K == OpKind::Load ? "load" : "store";
  A.Loc = Loc;
  record(std::move(A), Site, Fr, /*PlainList=*/true);
}

void ScopedAccesses::Walker::call(const CallExpr *CE, const Frame *Fr) {
  if (recordCall(CE, Fr))
    return;
  // A struct assigned whole (partial[k] = p) writes it.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE); Op && Kind != ScopedAccess::Host && Op->isAssignmentOp())
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && MD->isTrivial() && (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
        Op->getNumArgs() == 2)
      plainAccess(Op->getArg(0), OpKind::Store, Op, Op->getOperatorLoc(), Fr);
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
  const FunctionDecl *Def = definitionOf(CE->getDirectCallee());
  if (!Def || inSystemHeader(Def->getLocation()) || Active.contains(Def) || Fr->Depth >= MaxDepth)
    return;
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
  A.Site = Site;
  A.Function = Fr->F;
  A.Root = Root;
  A.RootIs = Kind;
  A.Seq = Seq++;
  // The call chain (for notes) and enclosing statements (for pairing fences)
  // serve the atomic rules; plain accesses, many more, keep neither.
  if (!PlainList) {
    A.CallChain.assign(Chain.begin(), Chain.end());
    A.Enclosing.assign(Enclosing.begin(), Enclosing.end());
  }
  if (!A.isMemoryAccess() && !Blocks.empty()) {
    // The statement is the fence itself (not a larger expression holding it).
    const BlockPos &B = Blocks.back();
    const Stmt *Here = B.CS->body_begin()[B.Index];
    if (const auto *E = dyn_cast<Expr>(Here))
      Here = E->IgnoreImplicit();
    const Stmt *Bare = isa<Expr>(Site) ? cast<Expr>(Site)->IgnoreImplicit() : Site;
    if (Here == Site || Here == Bare) {
      if (B.Index > 0)
        A.Before = B.CS->body_begin()[B.Index - 1];
      if (B.Index + 1 < B.CS->size())
        A.After = B.CS->body_begin()[B.Index + 1];
    }
  }
  A.Arms.assign(Arms.begin(), Arms.end());
  A.OnlyBlock = OnlyBlock;
  bool Reads = A.What == OpKind::Load || A.What == OpKind::RMW;
  if (Reads && Use.Tested) {
    A.TestSeq = A.Seq;
    A.Test = Use.Compare == ValueTest::None ? ValueTest::Equality : Use.Compare;
  }
  std::vector<ScopedAccess> &List = PlainList ? Owner.Plain : Owner.All;
  if (Reads && Use.RelayTo && Kind != ScopedAccess::Host)
    Relays.push_back({PlainList, List.size(), Use.RelayTo, Use.Compare});
  List.push_back(std::move(A));
}

void ScopedAccesses::Walker::writtenScope(const Expr *Obj, int ScopeArg, ScopedAccess &A) {
  // Where the access's type is spelled: a functional cast or temporary
  // (cuda::atomic_ref<int, S>(x)), or the declaration of the variable or
  // field holding it. Aliases and deduced types spell it elsewhere.
  const TypeSourceInfo *TSI = nullptr;
  const Expr *E = stripWrappers(Obj);
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    TSI = FC->getTypeInfoAsWritten();
  else if (const auto *TO = dyn_cast<CXXTemporaryObjectExpr>(E))
    TSI = TO->getTypeSourceInfo();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    TSI = isa<VarDecl>(DRE->getDecl()) && !isa<ParmVarDecl>(DRE->getDecl())
              ? cast<VarDecl>(DRE->getDecl())->getTypeSourceInfo()
              : nullptr;
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      TSI = FD->getTypeSourceInfo();
  if (!TSI)
    return;
  auto TST = TSI->getTypeLoc().getUnqualifiedLoc().getAs<TemplateSpecializationTypeLoc>();
  if (!TST || ScopeArg < 0 || static_cast<unsigned>(ScopeArg) >= TST.getNumArgs())
    return;
  TemplateArgumentLoc Arg = TST.getArgLoc(ScopeArg);
  if (Arg.getArgument().getKind() != TemplateArgument::Expression)
    return;
  const Expr *Written = Arg.getSourceExpression();
  if (!Written || isa<SubstNonTypeTemplateParmExpr>(Written))
    return;
  const auto *DRE = dyn_cast<DeclRefExpr>(Written->IgnoreParenImpCasts());
  if (!DRE || !isa<EnumConstantDecl>(DRE->getDecl()) || !scopeFromLibcuName(identifierOf(DRE->getDecl())))
    return;
  SourceLocation L = DRE->getLocation();
  if (L.isInvalid() || L.isMacroID() || inSystemHeader(L))
    return;
  A.Widen = ScopedAccess::Enumerator;
  A.ScopeSpelling = SourceRange(L, L);
}

bool ScopedAccesses::Walker::libcuMember(const CallExpr *CE, const CXXMethodDecl *MD, const Expr *Obj,
                                         const Frame *Fr) {
  QualType T = Obj->IgnoreImpCasts()->getType();
  bool ThroughPointer = T->isPointerType();
  if (ThroughPointer)
    T = T->getPointeeType();
  // cuda::atomic_ref<T, S> is a template; cuda::std::latch is a class.
  const CXXRecordDecl *Class = T->getAsCXXRecordDecl();
  if (!Class)
    return false;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Class);
  std::optional<SyncType> Type = parseSyncType(plainQualifiedName(Class));
  if (!Type)
    return false;
  std::string Member = isa<CXXConversionDecl>(MD) ? "operator T" : MD->getNameAsString();
  std::optional<SyncMember> M = parseSyncMember(Type->What, Member);
  if (!M)
    return true; // notify_one, is_lock_free: no ordering, nothing to follow
  ScopedAccess A;
  A.What = M->What;
  A.Ord = M->DefaultOrder;
  A.How = ScopedAccess::LibcuType;
  if (Type->ScopeArg >= 0 && Spec) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (static_cast<unsigned>(Type->ScopeArg) < Args.size()) {
      const TemplateArgument &Arg = Args[Type->ScopeArg];
      if (Arg.getKind() != TemplateArgument::Integral)
        return true;
      std::optional<Scope> S = scopeFromLibcuValue(Arg.getAsIntegral().getExtValue());
      if (!S)
        return true;
      A.S = *S;
    }
  }
  for (const Expr *Arg : CE->arguments())
    if (isMemoryOrderType(Arg->getType())) {
      if (std::optional<int64_t> V = constantInt(Arg, Ctx))
        if (std::optional<Order> O = orderFromC11Value(*V))
          A.Ord = *O;
      // cuda::memory_order_relaxed, cuda::std::memory_order::relaxed: the
      // name as written, for a fix that changes the order.
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts())) {
        SourceLocation L = DRE->getLocation();
        if (L.isValid() && L.isFileID() && !inSystemHeader(L))
          A.OrderSpelling = SourceRange(L, L);
      }
      break;
    }
  const Expr *ObjE = Obj->IgnoreImpCasts();
  if (Type->What == SyncType::AtomicRef && !ThroughPointer)
    A.Object = atomicRefTarget(ObjE, Fr);
  else
    A.Object = ThroughPointer ? pointee(ObjE, Fr) : lvalue(ObjE, Fr);
  A.Name = (Class->getName() + "::" + Member).str();
  A.Loc = CE->getExprLoc();
  if (Type->ScopeArg >= 0 && !ThroughPointer)
    writtenScope(ObjE, Type->ScopeArg, A);
  record(std::move(A), CE, Fr);
  // wait(old) returns once the value differs from old: a spin of its own.
  if (Member == "wait" && Owner.All.back().What == OpKind::Load) {
    Owner.All.back().TestSeq = Owner.All.back().Seq;
    Owner.All.back().Test = ValueTest::Equality;
  }
  return true;
}

bool ScopedAccesses::Walker::recordCall(const CallExpr *CE, const Frame *Fr) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const Expr *Obj = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      Obj = MC->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 0)
      Obj = CE->getArg(0);
    return Obj && !MD->isStatic() && libcuMember(CE, MD, Obj, Fr);
  }
  StringRef Name = identifierOf(FD);
  if (Name.empty())
    return false;
  auto Arg = [&](int I) -> const Expr * {
    return I >= 0 && static_cast<unsigned>(I) < CE->getNumArgs() ? CE->getArg(I) : nullptr;
  };
  ScopedAccess A;
  A.Name = Name.str();
  A.Loc = CE->getBeginLoc();
  if (std::optional<DeviceBuiltin> B = parseDeviceBuiltin(Name)) {
    A.How = ScopedAccess::DeviceBuiltin;
    A.S = B->S;
    switch (B->What) {
    case DeviceBuiltin::AtomicRMW:
    case DeviceBuiltin::AtomicCAS:
    case DeviceBuiltin::AtomicExchange: {
      A.What = OpKind::RMW;
      A.Ord = Order::Relaxed;
      A.Object = pointee(Arg(0), Fr);
      A.BuiltinOperation = B->Operation;
      const auto *Callee = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
      if (Callee && Callee->getLocation().isFileID() && !inSystemHeader(Callee->getLocation())) {
        A.Widen = ScopedAccess::BuiltinName;
        A.ScopeSpelling = SourceRange(Callee->getLocation(), Callee->getLocation());
      }
      break;
    }
    case DeviceBuiltin::Fence:
      A.What = OpKind::Fence;
      A.Ord = Order::SeqCst;
      break;
    case DeviceBuiltin::BlockBarrier:
      A.What = OpKind::BlockBarrier;
      A.Ord = Order::AcqRel;
      break;
    case DeviceBuiltin::WarpBarrier:
      return true; // orders a warp's threads: no scope of the lattice
    }
    record(std::move(A), CE, Fr);
    return true;
  }
  if (std::optional<ScopedAtomicBuiltin> B = parseScopedAtomicBuiltin(Name)) {
    A.How = ScopedAccess::ScopeArgument;
    A.What = B->What;
    if (const Expr *ScopeArg = Arg(B->ScopeArg)) {
      std::optional<int64_t> V = constantInt(ScopeArg, Ctx);
      std::optional<Scope> S = V ? scopeFromBuiltinValue(B->From, *V) : std::nullopt;
      if (!S)
        return true; // a scope the TU computes at run time
      A.S = *S;
    }
    if (std::optional<int64_t> V = constantInt(Arg(B->OrderArg), Ctx))
      if (std::optional<Order> O = orderFromC11Value(*V))
        A.Ord = *O;
    if (B->PointerArg >= 0)
      A.Object = pointee(Arg(B->PointerArg), Fr);
    record(std::move(A), CE, Fr);
    return true;
  }
  if (std::optional<FenceFunction> F = parseFenceFunction(plainQualifiedName(FD))) {
    A.How = ScopedAccess::ScopeArgument;
    A.What = OpKind::Fence;
    A.Name = plainQualifiedName(FD);
    if (std::optional<int64_t> V = constantInt(Arg(F->OrderArg), Ctx))
      if (std::optional<Order> O = orderFromC11Value(*V))
        A.Ord = *O;
    if (const Expr *ScopeArg = Arg(F->ScopeArg)) {
      std::optional<int64_t> V = constantInt(ScopeArg, Ctx);
      std::optional<Scope> S = V ? scopeFromLibcuValue(*V) : std::nullopt;
      if (!S)
        return true;
      A.S = *S;
    }
    record(std::move(A), CE, Fr);
    return true;
  }
  return false;
}

void ScopedAccesses::Walker::atomicExpr(const AtomicExpr *AE, const Frame *Fr) {
  std::optional<ScopedAtomicBuiltin> B = parseScopedAtomicBuiltin(AE->getOpAsString());
  if (!B || !AE->getScopeModel())
    return;
  ScopedAccess A;
  A.How = ScopedAccess::ScopeArgument;
  A.What = B->What;
  A.Name = AE->getOpAsString().str();
  A.Loc = AE->getBuiltinLoc();
  std::optional<int64_t> V = constantInt(AE->getScope(), Ctx);
  std::optional<Scope> S = V ? scopeFromBuiltinValue(B->From, *V) : std::nullopt;
  if (!S)
    return;
  A.S = *S;
  if (std::optional<int64_t> O = constantInt(AE->getOrder(), Ctx))
    if (std::optional<Order> Ord = orderFromC11Value(*O))
      A.Ord = *Ord;
  A.Object = pointee(AE->getPtr(), Fr);
  record(std::move(A), AE, Fr);
}

void ScopedAccesses::Walker::inlineAsm(const GCCAsmStmt *Asm, const Frame *Fr) {
  for (const PtxInstr &P : parsePtx(Asm->getAsmString())) {
    ScopedAccess A;
    // The rules of the clang-tidy checks are about accesses, fences and
    // barriers; the async proxy and the cluster barrier are the IR pass's.
    std::optional<OpKind> Kind = opKindOf(P);
    if (!Kind || (!isAccessKind(*Kind) && *Kind != OpKind::Fence && *Kind != OpKind::BlockBarrier))
      continue;
    A.What = *Kind;
    // Plain ld and st do not synchronize.
    if (!P.ScopeQual || !isStrong(P.Sem))
      continue;
    A.S = *P.ScopeQual;
    A.Ord = P.Sem;
    A.How = ScopedAccess::InlinePtx;
    A.Name = P.Mnemonic;
    A.Loc = Asm->getAsmLoc();
    // %N counts the outputs first, then the inputs.
    if (std::optional<unsigned> N = P.addressOperandNumber()) {
      const Expr *Address = nullptr;
      if (*N < Asm->getNumOutputs())
        Address = Asm->getOutputExpr(*N);
      else if (*N - Asm->getNumOutputs() < Asm->getNumInputs())
        Address = Asm->getInputExpr(*N - Asm->getNumOutputs());
      if (Address && Address->getType()->isPointerType())
        A.Object = pointee(Address, Fr);
    }
    // The value a load or atomic reads lands in the first output: a variable
    // the code then tests relays it.
    ValueUse Saved = Use;
    if (A.What == OpKind::Load || A.What == OpKind::RMW)
      if (Asm->getNumOutputs() > 0)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Asm->getOutputExpr(0)->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            Use = ValueUse{false, VD};
    record(std::move(A), Asm, Fr);
    Use = Saved;
  }
}

namespace {
/// <<<1, N>>>, <<<dim3(1), N>>>, <<<dim3(1, 1, 1), N>>>.
bool isOneBlock(const Expr *Grid, const ASTContext &Ctx) {
  for (unsigned Step = 0; Grid && Step < 8; ++Step) {
    Grid = stripWrappers(Grid);
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Grid)) {
      Grid = FC->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Grid)) {
      if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor()) {
        Grid = Construct->getArg(0);
        continue;
      }
      return Construct->getNumArgs() > 0 && all_of(Construct->arguments(), [&](const Expr *A) {
               return constantInt(A, Ctx) == 1;
             });
    }
    return constantInt(Grid, Ctx) == 1;
  }
  return false;
}
} // namespace

void ScopedAccesses::Walker::launch(const CUDAKernelCallExpr *K, const Frame *Fr) {
  const FunctionDecl *Kernel = definitionOf(K->getDirectCallee());
  if (!Kernel)
    return;
  auto L = std::make_unique<Launch>();
  L->Kernel = Kernel;
  const CallExpr *Config = K->getConfig();
  L->OneBlock = Config && Config->getNumArgs() > 0 && isOneBlock(Config->getArg(0), Ctx);
  for (unsigned I = 0; I < K->getNumArgs() && I < Kernel->getNumParams(); ++I) {
    QualType T = Kernel->getParamDecl(I)->getType();
    if (T->isPointerType())
      L->Args.push_back(pointee(K->getArg(I), Fr));
    else if (T->isRecordType() || T->isReferenceType())
      L->Args.push_back(lvalue(K->getArg(I), Fr));
    else
      L->Args.push_back(std::nullopt);
  }
  Owner.Launches.push_back(std::move(L));
}

void ScopedAccesses::Walker::allocation(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  std::optional<Allocation> Kind = FD ? allocationByApi(identifierOf(FD)) : std::nullopt;
  if (!Kind || CE->getNumArgs() == 0)
    return;
  const auto *Addr = dyn_cast<UnaryOperator>(CE->getArg(0)->IgnoreParenCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Allocations[cast<VarDecl>(VD->getCanonicalDecl())] = *Kind;
}

//===----------------------------------------------------------------------===//
// Collection, launch bindings and homes
//===----------------------------------------------------------------------===//

namespace {
/// The TU's kernels, host functions and device functions, in TU order.
class RootFinder : public RecursiveASTVisitor<RootFinder> {
public:
  RootFinder(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || F->isDependentContext() || F->isImplicit() || F->isDefaulted())
      return true;
    if (SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      return true;
    // A lambda is walked where it is defined (host) or called (device); a
    // device lambda handed to code the walk does not follow (a CCCL
    // algorithm) is a device function of its own (VisitLambdaExpr).
    if (const auto *MD = dyn_cast<CXXMethodDecl>(F); MD && MD->getParent()->isLambda())
      return true;
    if (F->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back(F);
    else if (F->hasAttr<CUDADeviceAttr>())
      Device.push_back(F);
    else
      Host.push_back(F);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    const CXXMethodDecl *F = L->getCallOperator();
    if (F && F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>() && F->getBody() &&
        !F->isDependentContext() && !SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      Device.push_back(F);
    return true;
  }
  std::vector<const FunctionDecl *> Kernels, Device, Host;

private:
  const SourceManager &SM;
};
} // namespace

void ScopedAccesses::collect() {
  if (Collected)
    return;
  Collected = true;
  RootFinder Roots(Ctx.getSourceManager());
  Roots.TraverseAST(Ctx);
  Walker W(*this);
  for (const FunctionDecl *F : Roots.Host)
    W.walkRoot(F, ScopedAccess::Host);
  for (const FunctionDecl *F : Roots.Kernels)
    W.walkRoot(F, ScopedAccess::Kernel);
  for (const FunctionDecl *F : Roots.Device)
    if (!W.Reached.contains(F))
      W.walkRoot(F, ScopedAccess::DeviceFunction);
  Allocations = std::move(W.Allocations);
  bindLaunches();
}

ObjectHome ScopedAccesses::homeOf(const ObjectRef &O, bool FromLaunch) const {
  // What a kernel is given points to device memory unless shown otherwise.
  ObjectHome H = homeOfRoot(O);
  return FromLaunch && H == ObjectHome::Unknown ? ObjectHome::Global : H;
}

ObjectHome ScopedAccesses::homeOfRoot(const ObjectRef &O) const {
  const auto *VD = dyn_cast_or_null<VarDecl>(O.Root);
  if (!VD)
    return ObjectHome::Unknown;
  bool Deref = is_contained(O.Path, nullptr);
  if (VD->hasAttr<CUDASharedAttr>())
    return Deref ? ObjectHome::Unknown : ObjectHome::Shared;
  if (VD->hasAttr<HIPManagedAttr>())
    return Deref ? ObjectHome::Global : ObjectHome::Managed;
  // Pointers kept in device memory or passed to a kernel point to device
  // memory (a kernel cannot be given a pointer to shared memory).
  if (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>())
    return ObjectHome::Global;
  if (Deref && O.Path.front() == nullptr) {
    auto It = Allocations.find(cast<VarDecl>(VD->getCanonicalDecl()));
    if (It != Allocations.end())
      return It->second == Allocation::Managed      ? ObjectHome::Managed
             : It->second == Allocation::MappedHost ? ObjectHome::MappedHost
                                                    : ObjectHome::Global;
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
    if (F && F->hasAttr<CUDAGlobalAttr>())
      return Deref ? ObjectHome::Global : ObjectHome::Local;
    return Deref ? ObjectHome::Unknown : ObjectHome::Local;
  }
  if (!Deref)
    return VD->hasLocalStorage() ? ObjectHome::Local : ObjectHome::Host;
  return ObjectHome::Unknown;
}

void ScopedAccesses::bindLaunches() {
  // A kernel parameter that every launch in the TU binds to the same host
  // object is that object: two kernels given the same pointer share it.
  MapVector<const FunctionDecl *, SmallVector<const Launch *, 2>> ByKernel;
  for (const std::unique_ptr<Launch> &L : Launches)
    ByKernel[L->Kernel].push_back(L.get());
  DenseMap<const ParmVarDecl *, const ObjectRef *> Bound;
  for (auto &[Kernel, List] : ByKernel) {
    OneBlock[Kernel] = all_of(List, [](const Launch *L) { return L->OneBlock; });
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
      const ObjectRef *Common = nullptr;
      bool Same = true;
      for (const Launch *L : List) {
        const ObjectRef *Arg = I < L->Args.size() && L->Args[I] && L->Args[I]->Root ? &*L->Args[I] : nullptr;
        if (!Arg || (Common && (!Common->sameObject(*Arg) || Common->Index != Arg->Index))) {
          Same = false;
          break;
        }
        Common = Arg;
      }
      if (Same && Common)
        Bound[Kernel->getParamDecl(I)] = Common;
    }
  }
  for (ScopedAccess &A : concat<ScopedAccess>(All, Plain)) {
    if (!A.Object)
      continue;
    ObjectRef &O = *A.Object;
    bool FromLaunch = false;
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(O.Root); P && A.RootIs != ScopedAccess::Host) {
      auto It = Bound.find(P);
      bool Pointer = P->getType()->isPointerType();
      if (It != Bound.end() && !O.Path.empty() && (!Pointer || O.Path.front() == nullptr)) {
        const ObjectRef &B = *It->second;
        SmallVector<const FieldDecl *, 2> Path(B.Path.begin(), B.Path.end());
        Path.append(O.Path.begin() + (Pointer ? 1 : 0), O.Path.end());
        O.Root = B.Root;
        O.Path = std::move(Path);
        O.Index = B.Index + O.Index;
        if (!O.BlockSegment.empty())
          O.BlockSegment = B.Index + O.BlockSegment;
        FromLaunch = true;
      }
    }
    O.Home = homeOf(O, FromLaunch);
  }
}

ArrayRef<ScopedAccess> ScopedAccesses::accesses() {
  collect();
  return All;
}

ArrayRef<ScopedAccess> ScopedAccesses::plainAccesses() {
  collect();
  return Plain;
}

ArrayRef<CallSite> ScopedAccesses::calls() {
  collect();
  return Calls;
}

namespace {
using ArmList = ArrayRef<std::pair<const Stmt *, unsigned>>;
bool precedes(const FunctionDecl *RootA, unsigned SeqA, ArmList ArmsA, const FunctionDecl *RootB, unsigned SeqB,
              ArmList ArmsB) {
  if (RootA != RootB || SeqA >= SeqB)
    return false;
  size_t I = 0;
  while (I < ArmsA.size() && I < ArmsB.size() && ArmsA[I] == ArmsB[I])
    ++I;
  if (I < ArmsA.size() && I < ArmsB.size() && ArmsA[I].first == ArmsB[I].first)
    return false; // one statement, two arms: one or the other runs
  // A sits in arms B is not in: if one of them returns from its function
  // (not from a callee B is outside of), A never reaches B.
  for (size_t J = I; J < ArmsA.size(); ++J) {
    if (isa<CallExpr>(ArmsA[J].first))
      break;
    if (ArmsA[J].second & ArmReturns)
      return false;
  }
  return true;
}
} // namespace

bool mayPrecede(const ScopedAccess &A, const ScopedAccess &B) {
  return precedes(A.Root, A.Seq, A.Arms, B.Root, B.Seq, B.Arms);
}
bool mayPrecede(const ScopedAccess &A, const CallSite &B) {
  return precedes(A.Root, A.Seq, A.Arms, B.Root, B.Seq, B.Arms);
}
bool mayPrecede(const CallSite &A, const ScopedAccess &B) {
  return precedes(A.Root, A.Seq, A.Arms, B.Root, B.Seq, B.Arms);
}

bool ScopedAccesses::runsOneBlock(const FunctionDecl *Kernel) const { return OneBlock.lookup(Kernel); }

std::string ScopedAccesses::describe(const ObjectRef &O) { return "'" + O.Spelling + "'"; }

std::string describeRoot(const ScopedAccess &A) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(A.Root); MD && MD->getParent()->isLambda())
    return A.RootIs == ScopedAccess::Host ? "a host lambda" : "a device lambda";
  const char *What = A.RootIs == ScopedAccess::Kernel ? "kernel '"
                     : A.RootIs == ScopedAccess::Host ? "host function '"
                                                      : "device function '";
  return What + A.Root->getNameAsString() + "'";
}

StringRef accessVerb(OpKind K) {
  switch (K) {
  case OpKind::Load: return "loaded";
  case OpKind::Store: return "stored";
  case OpKind::RMW: return "updated";
  case OpKind::Fence: return "fenced";
  case OpKind::BlockBarrier: return "used as a barrier";
  default: return "accessed";
  }
}

} // namespace cuda_scope
