//===- WarpRaceCheck.cpp - lanes of a warp racing through shared memory ---===//
//
// The warp race rule of model/Hierarchy.h over the engine's records of the
// file (AstRecords): the accesses' lane offsets (s[tid + k]), the bounds
// their conditions put on threadIdx.x, and the barriers between them. The IR
// pass applies the same rule to the device IR after inlining.
//
//===----------------------------------------------------------------------===//
#include "WarpRaceCheck.h"
#include "AstRecords.h"
#include "Divergence.h"
#include "model/Hierarchy.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void WarpRaceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void WarpRaceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  std::shared_ptr<AstRecords> Records = AstRecords::get(Ctx);
  std::set<std::pair<unsigned, unsigned>> Places; // one finding per place, as the IR pass reports
  for (const WarpRace &W : Records->warpRaces()) {
    const ScopedAccess *At = Records->access(W.At);
    const ScopedAccess *Other = Records->access(W.Other);
    if (!At || !Other || At->Loc.isInvalid())
      continue;
    SourceLocation Loc = SM.getExpansionLoc(At->Loc);
    if (!Places.insert({SM.getFileOffset(Loc), SM.getFileID(Loc).getHashValue()}).second)
      continue;
    diag(At->Loc, "%0") << warpRaceMessage(At->What != OpKind::Load, Other->What != OpKind::Load, W.Lanes,
                                           placeOf(Other->Loc, SM));
  }
}

} // namespace cuda_scope
