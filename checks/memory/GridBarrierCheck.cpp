//===- GridBarrierCheck.cpp - hand-written grid barriers: residency, reuse -===//
//
// The grid barrier rules of model/Hierarchy.h: the engine's records of the
// file (AstRecords) say which kernels wait for every block of their grid
// (gridWaits) and which of those waits a counting barrier reuses each round
// on the same goal (reusedGridBarriers); the file's launches (KernelLaunches)
// how each kernel is launched and what its grid is computed from. Launches in other files reach the IR pass
// through the host side's facts (docs/facts.md), so the cuda-scope command
// finds those too.
//
//===----------------------------------------------------------------------===//
#include "GridBarrierCheck.h"
#include "AstRecords.h"
#include "Divergence.h"
#include "ast/CheckUtils.h"
#include "ast/KernelLaunches.h"
#include "model/Hierarchy.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void GridBarrierCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void GridBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  std::shared_ptr<KernelLaunches> Launches = KernelLaunches::get(Ctx);
  // The kernels some launch of which is past residency, and that launch.
  DenseMap<const FunctionDecl *, std::pair<KernelLaunch, const Expr *>> Beyond;
  for (const auto &[Kernel, Info] : Launches->kernels()) {
    SmallVector<KernelLaunch, 2> Facts;
    for (const KernelLaunches::Site &Site : Info.Sites)
      Facts.push_back({Site.How.str(), placeOf(Site.E->getBeginLoc(), SM), Site.Form, Site.Grid, Site.GrowsWith});
    if (std::optional<unsigned> I = launchBeyondResidency(Facts))
      Beyond.try_emplace(Kernel, Facts[*I], Info.Sites[*I].E);
  }
  std::shared_ptr<AstRecords> Records = AstRecords::get(Ctx);
  std::vector<GridWait> Waits = Records->gridWaits();
  // A counting barrier used again on the same goal, however the kernel is
  // launched.
  DenseSet<SourceLocation> ReusePlaces; // one finding per place (a helper's wait reached twice)
  for (const ReusedGridBarrier &B : Records->reusedGridBarriers(Waits)) {
    const ScopedAccess *Wait = Records->access(B.Wait);
    const ScopedAccess *Again = Records->access(B.Again);
    if (!Wait || !Again || !Wait->Root || !ReusePlaces.insert(Wait->Loc).second)
      continue;
    diag(Wait->Loc, "%0") << reusedGridBarrierMessage(plainQualifiedName(Wait->Root), placeOf(Again->Loc, SM),
                                                      B.Second);
    diag(Again->Loc, B.Second ? "the barrier before it waits here" : "arrives again here", DiagnosticIDs::Note);
  }
  if (Beyond.empty())
    return;
  SmallPtrSet<const FunctionDecl *, 4> Reported; // one finding per kernel: its first wait
  for (const GridWait &W : Waits) {
    const ScopedAccess *Wait = Records->access(W.Wait);
    const ScopedAccess *Arrival = Records->access(W.Arrival);
    if (!Wait || !Arrival || !Wait->Root)
      continue;
    const FunctionDecl *Kernel = Wait->Root->getCanonicalDecl();
    auto It = Beyond.find(Kernel);
    if (It == Beyond.end() || !Reported.insert(Kernel).second)
      continue;
    const auto &[Launch, Site] = It->second;
    diag(Wait->Loc, "%0") << gridBarrierMessage(Kernel->getQualifiedNameAsString(), placeOf(Arrival->Loc, SM),
                                                Launch);
    diag(Site->getBeginLoc(), "launched here with %0", DiagnosticIDs::Note) << Launch.How;
  }
}

} // namespace cuda_scope
