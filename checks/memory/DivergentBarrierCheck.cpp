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
  for (const DecidedPlace &D :
       decidedPlaces(F, Ctx, VaryLevel::Block, [&](const Stmt *S) { return isWholeBlockBarrier(S, Reduces); })) {
    isWholeBlockBarrier(D.Place.S, Reduces);
    diag(D.Place.At, "%0") << divergentBarrierMessage(Reduces, placeOf(D.Cond->getBeginLoc(), SM));
    if (D.Place.At != targetLoc(D.Met))
      diag(targetLoc(D.Met), "the barrier is reached through this call", DiagnosticIDs::Note);
    diag(D.Cond->getBeginLoc(), "threads of one block may decide this condition differently", DiagnosticIDs::Note);
  }
}

} // namespace cuda_scope
