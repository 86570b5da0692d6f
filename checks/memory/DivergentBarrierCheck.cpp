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
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
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

/// The block barriers a call of a function the TU defines runs, where the
/// IR pass, which sees the call inlined, reports them: the barrier itself in
/// the project's code, else the innermost call on the way that is (a
/// library's block reduction named at the project's call of it).
class CalledBarriers {
public:
  explicit CalledBarriers(const ASTContext &Ctx) : Ctx(Ctx) {}
  struct Place {
    SourceLocation At;
    bool Reduces;
  };
  /// What \p Call reaches; empty for a call of no function with a body.
  std::vector<Place> of(const CallExpr *Call) {
    std::vector<Place> Out;
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getDefinition()) {
      SmallPtrSet<const FunctionDecl *, 8> Active;
      collect(FD->getDefinition(), Call->getExprLoc(), Active, 0, Out);
    }
    return Out;
  }

private:
  void collect(const FunctionDecl *F, SourceLocation Fallback, SmallPtrSetImpl<const FunctionDecl *> &Active,
               unsigned Depth, std::vector<Place> &Out) {
    if (Depth > 6 || !F->getBody() || F->isDependentContext() || !Active.insert(F).second)
      return;
    walk(F->getBody(), Fallback, Active, Depth, Out);
    Active.erase(F);
  }
  void walk(const Stmt *S, SourceLocation Fallback, SmallPtrSetImpl<const FunctionDecl *> &Active, unsigned Depth,
            std::vector<Place> &Out) {
    if (!S || isa<LambdaExpr>(S))
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    bool Reduces = false;
    if (isWholeBlockBarrier(S, Reduces)) {
      SourceLocation At = barrierLoc(S);
      Out.push_back({SM.isInSystemHeader(SM.getExpansionLoc(At)) ? Fallback : At, Reduces});
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getDefinition()) {
        SourceLocation At = Call->getExprLoc();
        collect(FD->getDefinition(), SM.isInSystemHeader(SM.getExpansionLoc(At)) ? Fallback : At, Active, Depth + 1,
                Out);
      }
    const Stmt *Dropped = droppedArm(S, Ctx);
    for (const Stmt *Child : S->children())
      if (Child != Dropped)
        walk(Child, Fallback, Active, Depth, Out);
  }
  const ASTContext &Ctx;
};

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
  CalledBarriers Called(Ctx);
  DenseMap<const Stmt *, std::vector<CalledBarriers::Place>> Reached;
  auto Want = [&](const Stmt *S) {
    bool Reduces = false;
    if (isWholeBlockBarrier(S, Reduces))
      return true;
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return false;
    auto [It, New] = Reached.try_emplace(S);
    if (New)
      It->second = Called.of(Call);
    return !It->second.empty();
  };
  std::set<std::pair<SourceLocation::UIntTy, SourceLocation::UIntTy>> Reported; // (barrier, condition)
  for (const Decided &D : decidedByVarying(F, Ctx, VaryLevel::Block, Want)) {
    std::vector<CalledBarriers::Place> Places;
    bool Reduces = false;
    if (isWholeBlockBarrier(D.S, Reduces))
      Places.push_back({barrierLoc(D.S), Reduces});
    else
      Places = Reached.lookup(D.S);
    for (const CalledBarriers::Place &P : Places) {
      if (!Reported.insert({SM.getExpansionLoc(P.At).getRawEncoding(), D.Cond->getBeginLoc().getRawEncoding()})
               .second)
        continue;
      diag(P.At, "%0") << divergentBarrierMessage(P.Reduces, placeOf(D.Cond->getBeginLoc(), SM));
      if (P.At != barrierLoc(D.S))
        diag(barrierLoc(D.S), "the barrier is reached through this call", DiagnosticIDs::Note);
      diag(D.Cond->getBeginLoc(), "threads of one block may decide this condition differently", DiagnosticIDs::Note);
    }
  }
}

} // namespace cuda_scope
