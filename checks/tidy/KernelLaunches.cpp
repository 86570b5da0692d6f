//===- KernelLaunches.cpp - how the translation unit launches its kernels -===//
#include "KernelLaunches.h"
#include "PerTU.h"
#include "ScopedAccesses.h"
#include "TUCallGraph.h"
#include "model/CudaApi.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "clang/Basic/FileManager.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

namespace {

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  using Map = MapVector<const FunctionDecl *, KernelLaunches::Kernel>;
  LaunchFinder(const ASTContext &Ctx, Map &Out) : Ctx(Ctx), SM(Ctx.getSourceManager()), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  // A library's own launches (CUB's, Thrust's) are of its own kernels: the
  // system headers are not walked (they are most of a CUDA file's AST).
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor<LaunchFinder>::TraverseDecl(D);
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
    const FunctionDecl *F = K->getDirectCallee();
    if (!F)
      return true;
    KernelLaunches::Kernel &Info = Out[F->getCanonicalDecl()];
    ++Info.Launches;
    Info.Sites.push_back({K, TripleChevronLaunch, LaunchForm::Plain});
    const CallExpr *Config = K->getConfig();
    if (Config && Config->getNumArgs() > 0 && isOneBlockGrid(Config->getArg(0), Ctx))
      ++Info.OneBlock;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(K->getCallee()->IgnoreParenImpCasts()))
      NotEscaping.insert(DRE);
    return true;
  }
  // A kernel handed to an API that only reads its attributes
  // (cudaFuncGetAttributes, cudaOccupancy...) is not launched there.
  bool VisitCallExpr(CallExpr *CE) {
    const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return true;
    // A launch through the runtime: the kernel is its argument, which still
    // escapes (the grid is not read here, so one-block stays unknown).
    if (const LaunchApiInfo *L = lookupLaunchApi(Callee->getName())) {
      if (L->KernelArg >= 0 && static_cast<unsigned>(L->KernelArg) < CE->getNumArgs())
        if (const FunctionDecl *F = TUCallGraph::namedFunction(CE->getArg(L->KernelArg)))
          if (F->hasAttr<CUDAGlobalAttr>())
            Out[F->getCanonicalDecl()].Sites.push_back({CE, L->Name, L->Form});
      return true;
    }
    if (!readsKernelAttributesOnly(Callee->getName()))
      return true;
    for (const Expr *Arg : CE->arguments())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts()))
        NotEscaping.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl());
    if (F && F->hasAttr<CUDAGlobalAttr>())
      References.push_back(DRE);
    return true;
  }

  void finish() {
    // Visited before their call is (the callee of a call is its child), so
    // decided at the end.
    for (const DeclRefExpr *DRE : References)
      if (!NotEscaping.count(DRE))
        Out[cast<FunctionDecl>(DRE->getDecl())->getCanonicalDecl()].Escapes = true;
  }

private:
  const ASTContext &Ctx;
  const SourceManager &SM;
  Map &Out;
  DenseSet<const DeclRefExpr *> NotEscaping;
  std::vector<const DeclRefExpr *> References;
};

} // namespace

std::shared_ptr<KernelLaunches> KernelLaunches::get(ASTContext &Ctx) { return sharedPerTU<KernelLaunches>(Ctx); }

KernelLaunches::KernelLaunches(ASTContext &Ctx) : Ctx(Ctx) {}

const MapVector<const FunctionDecl *, KernelLaunches::Kernel> &KernelLaunches::kernels() {
  if (!Found) {
    Found = std::make_unique<MapVector<const FunctionDecl *, Kernel>>();
    LaunchFinder LF(Ctx, *Found);
    LF.TraverseAST(Ctx);
    LF.finish();
  }
  return *Found;
}

std::string launchPlace(StringRef File, unsigned Line, FileManager &FM) {
  SmallString<256> Path(File);
  FM.makeAbsolutePath(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return (Path + ":" + Twine(Line)).str();
}

KernelLaunches::Kernel KernelLaunches::of(const FunctionDecl *F) {
  return kernels().lookup(F->getCanonicalDecl());
}

} // namespace cuda_scope
