//===- DivergentBarrierCheck.cpp - block barriers under thread-varying conditions ===//
//
// The divergent barrier rule of model/Hierarchy.h: each block barrier of a
// function that a condition threads of one block may decide differently
// decides (Divergence.h). A device function's parameters count as values the
// block shares (the IR pass, which sees the kernel inlined, follows them); a
// call of a function that runs a barrier is that barrier, reported where the
// pass reports it.
//
//===----------------------------------------------------------------------===//
#include "DivergentBarrierCheck.h"
#include "Divergence.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(deviceFunctionDefinitions(), this);
}

namespace {
StringRef identifierOf(const NamedDecl *D) {
  return D && D->getDeclName().isIdentifier() ? D->getName() : StringRef();
}

/// Whether \p CE is a barrier of the whole block; *Reduces for the
/// _count/_and/_or forms.
bool isWholeBlockBarrier(const Stmt *S, bool &Reduces) {
  Reduces = false;
  if (const auto *A = dyn_cast<GCCAsmStmt>(S))
    return isWholeBlockBarrierAsm(A->getAsmString());
  const auto *CE = dyn_cast<CallExpr>(S);
  if (!CE)
    return false;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  if (std::optional<DeviceBuiltin> B = parseDeviceBuiltin(identifierOf(FD));
      B && B->What == DeviceBuiltin::BlockBarrier) {
    Reduces = B->Operation != "__syncthreads";
    return true;
  }
  // cooperative groups' thread_block::sync() and cg::sync(block).
  std::string Name = FD->getQualifiedNameAsString();
  if (std::optional<BarrierFunction> BF = barrierFunction(Name); BF && BF->What == OpKind::BlockBarrier && !BF->OfTile)
    return true;
  if (plainFunctionName(Name) == "cooperative_groups::sync" && CE->getNumArgs() == 1) {
    QualType T = CE->getArg(0)->getType().getNonReferenceType();
    if (const auto *RD = T->getAsCXXRecordDecl())
      return RD->getName() == "thread_block";
  }
  return false;
}

SourceLocation barrierLoc(const Stmt *S) {
  return isa<CallExpr>(S) ? cast<CallExpr>(S)->getExprLoc() : S->getBeginLoc();
}

} // namespace

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("f");
  if (!F || !F->getBody() || F->isDependentContext())
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  // A block barrier, or a call of a function that runs one (a device
  // function's reduction called under if (threadIdx.x < n)), as the pass
  // sees the call inlined.
  bool Reduces = false;
  CalledTargets Called(Ctx, [&](const Stmt *S) { return isWholeBlockBarrier(S, Reduces); });
  auto Want = [&](const Stmt *S) {
    if (isWholeBlockBarrier(S, Reduces))
      return true;
    const auto *Call = dyn_cast<CallExpr>(S);
    return Call && !Called.of(Call).empty();
  };
  std::set<std::pair<SourceLocation::UIntTy, SourceLocation::UIntTy>> Reported; // (barrier, condition)
  for (const Decided &D : decidedByVarying(F, Ctx, VaryLevel::Block, Want)) {
    std::vector<ReachedPlace> Places;
    if (isWholeBlockBarrier(D.S, Reduces))
      Places.push_back({barrierLoc(D.S), D.S});
    else
      Places = Called.of(cast<CallExpr>(D.S));
    for (const ReachedPlace &P : Places) {
      if (!Reported.insert({SM.getExpansionLoc(P.At).getRawEncoding(), D.Cond->getBeginLoc().getRawEncoding()})
               .second)
        continue;
      isWholeBlockBarrier(P.S, Reduces);
      diag(P.At, "%0") << divergentBarrierMessage(Reduces, placeOf(D.Cond->getBeginLoc(), SM));
      if (P.At != barrierLoc(D.S))
        diag(barrierLoc(D.S), "the barrier is reached through this call", DiagnosticIDs::Note);
      diag(D.Cond->getBeginLoc(), "threads of one block may decide this condition differently", DiagnosticIDs::Note);
    }
  }
}

} // namespace cuda_scope
