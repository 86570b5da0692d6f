//===- GridSyncCheck.cpp - grid syncs in kernels not launched cooperatively ===//
//
// The grid sync rule of model/Hierarchy.h, with the file's own launches
// (KernelLaunches) and the grid barriers a kernel reaches through the
// functions the file defines (TUCallGraph; model/barrierFunction names the
// barriers). Launches in other files reach the IR pass through the host
// side's facts (docs/facts.md), so the cuda-scope command finds those too.
// And, on the host's code alone, each kernel's first cooperative launch whose
// grid grows with the input (model/Hierarchy.h,
// cooperativeLaunchPastResidency).
//
//===----------------------------------------------------------------------===//
#include "GridSyncCheck.h"
#include "Divergence.h"
#include "ast/KernelLaunches.h"
#include "ast/TUCallGraph.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <deque>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void GridSyncCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {
/// A grid barrier a kernel reaches: the call in the user's code that leads to
/// it (the innermost one outside system headers, as the IR pass reports the
/// inlined barrier), and the barrier's scope.
struct Reached {
  SourceLocation At;
  Scope S = Scope::Device;
};

/// The first grid barrier \p Kernel reaches, breadth first (the shortest
/// chain of calls).
std::optional<Reached> gridBarrierOf(const FunctionDecl *Kernel, TUCallGraph &Graph, const SourceManager &SM) {
  struct Item {
    const FunctionDecl *F;
    SourceLocation UserCall; // the last call made from the user's code
  };
  std::deque<Item> Work{{Kernel, SourceLocation()}};
  SmallPtrSet<const FunctionDecl *, 16> Seen{Kernel};
  while (!Work.empty()) {
    Item It = Work.front();
    Work.pop_front();
    const TUCallGraph::Summary *S = Graph.summary(It.F);
    if (!S)
      continue;
    const bool InUserCode = !SM.isInSystemHeader(SM.getExpansionLoc(It.F->getLocation()));
    for (const CallEdge &E : S->Calls) {
      if (E.How != CallEdge::Call || !E.Callee)
        continue;
      // Where the IR pass's remark for the inlined barrier lands: the
      // call's debug location, the callee's name.
      SourceLocation Call = InUserCode ? (E.Site ? E.Site->getExprLoc() : E.Loc) : It.UserCall;
      if (std::optional<BarrierFunction> B = barrierFunction(E.Callee->getQualifiedNameAsString()))
        if (B->What == OpKind::GridBarrier)
          return Reached{Call, B->S};
      // Into the project's own functions, and cooperative groups' free
      // cg::sync(group), which calls the group's own sync; not into a
      // library's dispatch over group kinds (thread_group::sync() picks the
      // grid's barrier only for a grid group).
      bool Follow = !SM.isInSystemHeader(SM.getExpansionLoc(E.Callee->getLocation())) ||
                    plainFunctionName(E.Callee->getQualifiedNameAsString()) == "cooperative_groups::sync";
      if (Follow && Seen.insert(E.Callee).second)
        Work.push_back({E.Callee, Call});
    }
  }
  return std::nullopt;
}

} // namespace

void GridSyncCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  std::shared_ptr<KernelLaunches> Launches = KernelLaunches::get(Ctx);
  std::shared_ptr<TUCallGraph> Graph = TUCallGraph::get(Ctx);
  for (const auto &[Kernel, Info] : Launches->kernels()) {
    SmallVector<KernelLaunch, 2> Facts;
    for (const KernelLaunches::Site &Site : Info.Sites)
      Facts.push_back({Site.How.str(), placeOf(Site.E->getBeginLoc(), SM), Site.Form, Site.Grid, Site.GrowsWith,
                       Site.Divides});
    // A cooperative launch that the runtime refuses once the input grows,
    // whatever the kernel does: reported at the launch.
    if (std::optional<unsigned> Big = cooperativeLaunchPastResidency(Facts)) {
      const FunctionDecl *Def = TUCallGraph::definitionOf(Kernel);
      diag(Info.Sites[*Big].E->getBeginLoc(), "%0")
          << cooperativeLaunchMessage((Def ? Def : Kernel)->getQualifiedNameAsString(), Facts[*Big]);
    }
    std::optional<unsigned> Plain = launchWithoutCooperation(Facts);
    if (!Plain)
      continue;
    const FunctionDecl *Def = TUCallGraph::definitionOf(Kernel);
    if (!Def)
      continue;
    std::optional<Reached> Barrier = gridBarrierOf(Def, *Graph, SM);
    if (!Barrier || Barrier->At.isInvalid())
      continue;
    diag(Barrier->At, "%0") << gridSyncMessage(Def->getQualifiedNameAsString(), gridBarrierName(Barrier->S), Facts[*Plain]);
    diag(Info.Sites[*Plain].E->getBeginLoc(), "launched here with %0", DiagnosticIDs::Note) << Facts[*Plain].How;
  }
}

} // namespace cuda_scope
