//===- WarpMaskCheck.cpp - full warp masks under lane-varying conditions ---===//
//
// The warp mask rule of model/Hierarchy.h: each warp-synchronous call with a
// constant full mask (0xffffffff; __syncwarp() with none) that a condition
// lanes of one warp may decide differently decides (Divergence.h, at the
// warp's level: a vote's result and the thread's index divided by the warp
// size are the warp's alike).
//
//===----------------------------------------------------------------------===//
#include "WarpMaskCheck.h"
#include "Divergence.h"
#include "model/Hierarchy.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void WarpMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(deviceFunctionDefinitions(), this);
}

namespace {
/// The call's CUDA name when it is warp-synchronous with a constant full mask.
std::optional<StringRef> fullMaskCall(const Stmt *S, const ASTContext &Ctx) {
  const auto *CE = dyn_cast<CallExpr>(S);
  if (!CE || !CE->getDirectCallee() || !CE->getDirectCallee()->getDeclName().isIdentifier())
    return std::nullopt;
  std::optional<WarpSyncCall> W = warpSyncCall(CE->getDirectCallee()->getName());
  if (!W || W->MaskArg >= CE->getNumArgs())
    return std::nullopt;
  const Expr *Mask = CE->getArg(W->MaskArg);
  // __syncwarp()'s default argument is the full mask.
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Mask))
    Mask = Default->getExpr();
  std::optional<APSInt> V = Mask->getIntegerConstantExpr(Ctx);
  if (!V || V->getZExtValue() != 0xffffffffu)
    return std::nullopt;
  return W->Name;
}
} // namespace

void WarpMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("f");
  if (!F || !F->getBody() || F->isDependentContext())
    return;
  ASTContext &Ctx = *Result.Context;
  for (const Decided &D : decidedByVarying(F, Ctx, VaryLevel::Warp,
                                           [&](const Stmt *S) { return fullMaskCall(S, Ctx).has_value(); })) {
    const auto *CE = cast<CallExpr>(D.S);
    diag(CE->getExprLoc(), "%0") << warpMaskMessage(*fullMaskCall(CE, Ctx),
                                                     placeOf(D.Cond->getBeginLoc(), Ctx.getSourceManager()));
    diag(D.Cond->getBeginLoc(), "lanes of one warp may decide this condition differently", DiagnosticIDs::Note);
  }
}

} // namespace cuda_scope
