//===- ScopedAccesses.cpp - every scoped atomic, fence and barrier of a TU ===//
#include "ast/ProjectCode.h"
#include "ScopedAccessesWalker.h"
#include "ast/CheckUtils.h"
#include "ast/KernelLaunches.h"
#include "ast/PerTU.h"
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


std::string ObjectRef::key() const {
  std::string K;
  auto Add = [&](const void *P) { K.append(reinterpret_cast<const char *>(&P), sizeof P); };
  Add(Root);
  for (const FieldDecl *F : Path)
    Add(F);
  if (!Carve.empty())
    K += "\0carve:" + Carve;
  return K;
}

namespace impl {

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
} // namespace impl

using namespace impl;

void ScopedAccesses::Walker::launch(const CUDAKernelCallExpr *K, const Frame *Fr) {
  const FunctionDecl *Kernel = definitionOf(K->getDirectCallee());
  if (!Kernel)
    return;
  auto L = std::make_unique<Launch>();
  L->Kernel = Kernel;
  const CallExpr *Config = K->getConfig();
  L->OneBlock = Config && Config->getNumArgs() > 0 && isOneBlockGrid(Config->getArg(0), Ctx);
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
class RootFinder : public ProjectCodeVisitor<RootFinder> {
public:
  RootFinder(const SourceManager &SM) : ProjectCodeVisitor(SM) {}
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
  // A root whose walk met code with errors is not analysed: what it does to
  // memory cannot be read from a broken AST (the compiler reports the errors).
  if (!Unanalysed.empty()) {
    auto IsBroken = [&](const FunctionDecl *Root) { return Unanalysed.contains(Root); };
    llvm::erase_if(All, [&](const ScopedAccess &A) { return IsBroken(A.Root); });
    llvm::erase_if(Plain, [&](const ScopedAccess &A) { return IsBroken(A.Root); });
    llvm::erase_if(Calls, [&](const CallSite &C) { return IsBroken(C.Root); });
  }
  bindLaunches();
}

ObjectHome ScopedAccesses::homeOf(const ObjectRef &O, bool FromLaunch) const {
  // What a kernel is given points to device memory unless shown otherwise.
  ObjectHome H = homeOfRoot(O);
  if (H == ObjectHome::Unknown)
    H = O.WaysHome;
  return FromLaunch && H == ObjectHome::Unknown ? ObjectHome::Global : H;
}

ObjectHome ScopedAccesses::homeOfRoot(const ObjectRef &O) const {
  bool Deref = is_contained(O.Path, nullptr);
  // A field of a functor a library kernel runs (Walker::functorField): a
  // kernel argument's copy, whose pointers point to device memory.
  if (isa_and_nonnull<FieldDecl>(O.Root))
    return Deref ? pointeeHome(PointerKeeper::KernelParameter) : ObjectHome::Local;
  const auto *VD = dyn_cast_or_null<VarDecl>(O.Root);
  if (!VD)
    return ObjectHome::Unknown;
  if (VD->hasAttr<CUDASharedAttr>())
    return Deref ? pointeeHome(PointerKeeper::SharedVariable) : ObjectHome::Shared;
  if (VD->hasAttr<HIPManagedAttr>())
    return Deref ? ObjectHome::Global : ObjectHome::Managed;
  // Pointers kept in device memory or passed to a kernel point to device
  // memory (the model's pointeeHome).
  if (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>())
    return Deref ? pointeeHome(PointerKeeper::DeviceVariable) : ObjectHome::Global;
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
      return Deref ? pointeeHome(PointerKeeper::KernelParameter) : ObjectHome::Local;
    return Deref ? pointeeHome(PointerKeeper::Other) : ObjectHome::Local;
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
  DenseMap<const ParmVarDecl *, std::string> Carved;
  std::shared_ptr<KernelLaunches> TULaunches = ByKernel.empty() ? nullptr : KernelLaunches::get(Ctx);
  for (auto &[Kernel, List] : ByKernel) {
    // A kernel also launched where the file does not show how (cudaLaunchKernel,
    // a pointer to it) may run any grid: the same rule the IR pass is given.
    OneBlock[Kernel] = all_of(List, [](const Launch *L) { return L->OneBlock; }) &&
                       !TULaunches->of(Kernel).Escapes && !TULaunches->of(Kernel).Overlaps;
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
    // Parameters given parts of one host object at different offsets (one
    // allocation carved into a flag array and data arrays) are arrays of
    // their own: the part's offset names each.
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I)
      for (unsigned J = 0; J < Kernel->getNumParams(); ++J) {
        auto X = Bound.find(Kernel->getParamDecl(I)), Y = Bound.find(Kernel->getParamDecl(J));
        if (I != J && X != Bound.end() && Y != Bound.end() && X->second->sameObject(*Y->second) &&
            X->second->Index != Y->second->Index && !X->second->Index.empty())
          Carved[Kernel->getParamDecl(I)] = X->second->Index;
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
        O.Carve = Carved.lookup(P);
        O.Index = B.Index + O.Index;
        if (!B.Index.empty())
          O.Flat.reset();
        if (!O.BlockSegment.empty())
          O.BlockSegment = B.Index + O.BlockSegment;
        if (!O.BlockPart.empty())
          O.BlockPart = B.Index + O.BlockPart;
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
    // An arm that ends the iteration of its loop (break, continue) reaches
    // nothing after it inside that loop; B is inside when the loop's entry is
    // one both share. (A break in a switch leaves the switch: not followed.)
    if (ArmsA[J].second & ArmLeavesIteration)
      for (size_t K = J; K-- > 0;) {
        if (isa<SwitchStmt>(ArmsA[K].first))
          break;
        if (ArmsA[K].second == ArmLoop) {
          if (K < I)
            return false;
          break;
        }
      }
  }
  return true;
}
} // namespace

bool inCommonLoop(ArmList ArmsA, ArmList ArmsB) {
  // Whether what sits in Arms leaves the loop at Arms[Loop] once it has run.
  auto Leaves = [](ArmList Arms, size_t Loop) {
    bool InnerLoop = false; // a break inside an inner loop leaves that one
    for (size_t J = Loop + 1; J < Arms.size(); ++J) {
      if (isa<CallExpr>(Arms[J].first))
        return false; // a callee's return and breaks stay in the callee
      if (Arms[J].second & ArmLoop)
        InnerLoop = true;
      else if ((Arms[J].second & ArmReturns) || (!InnerLoop && (Arms[J].second & ArmBreaks)))
        return true;
    }
    return false;
  };
  for (size_t I = 0; I < ArmsA.size() && I < ArmsB.size() && ArmsA[I] == ArmsB[I]; ++I)
    if ((ArmsA[I].second & ArmLoop) && !Leaves(ArmsA, I) && !Leaves(ArmsB, I))
      return true;
  return false;
}

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
  if (const auto *MD = dyn_cast<CXXMethodDecl>(A.Root);
      MD && A.RootIs == ScopedAccess::DeviceFunction && MD->getOverloadedOperator() == OO_Call)
    return "the call operator of '" + MD->getParent()->getNameAsString() + "'";
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
