//===- CaptureGuards.cpp - code that runs only when not capturing, or relaxed ===//
#include "CaptureGuards.h"
#include "ast/CheckUtils.h"
#include "StreamIdentity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

struct CaptureGuards::FunctionFacts {
  bool GuardsDone = false, RelaxedDone = false;
  DenseSet<const VarDecl *> StatusVars;
  DenseMap<const VarDecl *, NotCapturing> Flags;
  SmallVector<std::pair<SourceLocation, SourceLocation>, 2> Guarded;
  RelaxedCalls Relaxed;
};

CaptureGuards::CaptureGuards(TUCallGraph &Graph, Collector CollectRelaxed)
    : Graph(Graph), Ctx(Graph.context()), SM(Ctx.getSourceManager()),
      CollectRelaxed(std::move(CollectRelaxed)) {}

CaptureGuards::~CaptureGuards() = default;

CaptureGuards::NotCapturing CaptureGuards::flip(NotCapturing N) {
  return N == NotCapturing::IfTrue    ? NotCapturing::IfFalse
         : N == NotCapturing::IfFalse ? NotCapturing::IfTrue
                                      : N;
}

CaptureGuards::FunctionFacts &CaptureGuards::factsOf(const FunctionDecl *F) {
  std::unique_ptr<FunctionFacts> &Slot = Facts[F];
  if (!Slot)
    Slot = std::make_unique<FunctionFacts>();
  return *Slot;
}

static bool exitsScope(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && exitsScope(CS->body_back());
  return false;
}

bool CaptureGuards::guarded(const FunctionDecl *F, SourceLocation Loc) {
  const FunctionFacts &FF = guards(F);
  if (FF.Guarded.empty())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  for (const auto &[From, To] : FF.Guarded)
    if (!SM.isBeforeInTranslationUnit(Loc, From) && !SM.isBeforeInTranslationUnit(To, Loc))
      return true;
  return false;
}

CaptureGuards::FunctionFacts &CaptureGuards::guards(const FunctionDecl *F) {
  FunctionFacts &FF = factsOf(F);
  if (FF.GuardsDone)
    return FF;
  FF.GuardsDone = true;
  const Stmt *Body = F->getBody();
  if (!Body)
    return FF;
  // The variables the capture queries write the status into.
  std::function<void(const Stmt *)> Statuses = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
      const CudaApiInfo *Api = lookupCudaApi(identifierOf(Callee));
      if (Api && Api->Capture == CaptureEffect::CaptureQuery)
        if (const Expr *Out = argOrNull(CE, 1))
          if (const auto *UO = dyn_cast<UnaryOperator>(Out->IgnoreParenImpCasts());
              UO && UO->getOpcode() == UO_AddrOf)
            if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
              if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
                FF.StatusVars.insert(V);
    }
    for (const Stmt *Child : S->children())
      Statuses(Child);
  };
  Statuses(Body);

  auto Range = [&](SourceLocation From, SourceLocation To) {
    FF.Guarded.push_back({SM.getExpansionLoc(From), SM.getExpansionLoc(To)});
  };
  // Flags derived from a status, then the branches that run only when not
  // capturing, in source order.
  std::function<void(const Stmt *, const CompoundStmt *)> Walk = [&](const Stmt *S,
                                                                     const CompoundStmt *Parent) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          if (NotCapturing N = notCapturingIf(V->getInit(), FF, 0); N != NotCapturing::Unknown)
            FF.Flags[V] = N;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
      // A flag assigned later (`bool Capturing = false; ...; Capturing =
      // St != cudaStreamCaptureStatusNone;`) means what its last assignment
      // before the test says.
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          if (NotCapturing N = notCapturingIf(BO->getRHS(), FF, 0); N != NotCapturing::Unknown)
            FF.Flags[V] = N;
          else
            FF.Flags.erase(V);
        }
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      NotCapturing N = notCapturingIf(If->getCond(), FF, 0);
      if (N == NotCapturing::IfTrue && If->getThen())
        Range(If->getThen()->getBeginLoc(), If->getThen()->getEndLoc());
      if (N == NotCapturing::IfFalse) {
        if (const Stmt *Else = If->getElse())
          Range(Else->getBeginLoc(), Else->getEndLoc());
        else if (Parent && exitsScope(If->getThen()))
          Range(If->getEndLoc(), Parent->getRBracLoc());
      }
    }
    const auto *CS = dyn_cast<CompoundStmt>(S);
    for (const Stmt *Child : S->children())
      Walk(Child, CS ? CS : nullptr);
  };
  Walk(Body, nullptr);
  return FF;
}

/// Reads conditions such as `St == cudaStreamCaptureStatusNone`, `!Capturing`
/// (a flag set from such a test), `St != ...Active`, `!isCapturing(S)` (a
/// function whose return statements are such tests), and && / || of them.
CaptureGuards::NotCapturing CaptureGuards::notCapturingIf(const Expr *E, const FunctionFacts &FF,
                                                          unsigned Depth) {
  if (!E || Depth > 8)
    return NotCapturing::Unknown;
  E = E->IgnoreParenImpCasts();
  auto IsStatus = [&](const Expr *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && FF.StatusVars.count(V);
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot)
    return flip(notCapturingIf(UO->getSubExpr(), FF, Depth + 1));
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_LAnd: {
      NotCapturing L = notCapturingIf(BO->getLHS(), FF, Depth + 1),
                   R = notCapturingIf(BO->getRHS(), FF, Depth + 1);
      return L == NotCapturing::IfTrue || R == NotCapturing::IfTrue ? NotCapturing::IfTrue
                                                                    : NotCapturing::Unknown;
    }
    case BO_LOr: {
      NotCapturing L = notCapturingIf(BO->getLHS(), FF, Depth + 1),
                   R = notCapturingIf(BO->getRHS(), FF, Depth + 1);
      return L == NotCapturing::IfFalse || R == NotCapturing::IfFalse ? NotCapturing::IfFalse
                                                                      : NotCapturing::Unknown;
    }
    case BO_EQ:
    case BO_NE: {
      const Expr *Other = IsStatus(BO->getLHS())   ? BO->getRHS()
                          : IsStatus(BO->getRHS()) ? BO->getLHS()
                                                   : nullptr;
      std::optional<int64_t> V = Other ? constantValue(Other, Ctx) : std::nullopt;
      // An invalidated capture says nothing usable.
      CaptureStatus St = V ? captureStatusFromValue(*V) : CaptureStatus::Other;
      NotCapturing N = St == CaptureStatus::None     ? NotCapturing::IfTrue
                       : St == CaptureStatus::Active ? NotCapturing::IfFalse
                                                     : NotCapturing::Unknown;
      return BO->getOpcode() == BO_EQ ? N : flip(N);
    }
    default:
      return NotCapturing::Unknown;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (FF.StatusVars.count(V))
        return NotCapturing::IfFalse;
      if (auto It = FF.Flags.find(V); It != FF.Flags.end())
        return It->second;
    }
    return NotCapturing::Unknown;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Def = TUCallGraph::definitionOf(CE->getDirectCallee()))
      return predicate(Def, Depth + 1);
  return NotCapturing::Unknown;
}

CaptureGuards::NotCapturing CaptureGuards::predicate(const FunctionDecl *F, unsigned Depth) {
  auto [It, New] = Predicates.try_emplace(F, NotCapturing::Unknown);
  if (!New)
    return It->second;
  if (!F->getReturnType()->isIntegralOrEnumerationType() || Depth > 4)
    return NotCapturing::Unknown;
  bool Queries = false;
  Graph.forEachReachable(
      F, 1u << CudaEvent::ApiCall,
      [](const CudaEvent &E) { return E.Api && E.Api->Capture == CaptureEffect::CaptureQuery; },
      [&](const TUCallGraph::Path &) { Queries = true; });
  if (!Queries)
    return NotCapturing::Unknown;
  const FunctionFacts &FF = guards(F);
  std::optional<NotCapturing> Agreed;
  std::function<void(const Stmt *)> Returns = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      NotCapturing N = notCapturingIf(Ret->getRetValue(), FF, Depth + 1);
      Agreed = !Agreed || *Agreed == N ? N : NotCapturing::Unknown;
    }
    for (const Stmt *Child : S->children())
      Returns(Child);
  };
  Returns(F->getBody());
  NotCapturing Result = Agreed.value_or(NotCapturing::Unknown);
  Predicates[F] = Result;
  return Result;
}

const RelaxedCalls &CaptureGuards::relaxed(const FunctionDecl *F) {
  FunctionFacts &FF = factsOf(F);
  if (FF.RelaxedDone)
    return FF.Relaxed;
  FF.RelaxedDone = true;
  const TUCallGraph::Summary *Sum = Graph.summary(F);
  bool Exchanges = Sum && any_of(Sum->Events, [](const CudaEvent &E) {
                     return E.Api && E.Api->Capture == CaptureEffect::ExchangeMode;
                   });
  if (Exchanges)
    CollectRelaxed(F, FF.Relaxed);
  return FF.Relaxed;
}

bool CaptureGuards::chainGuarded(ArrayRef<const CallEdge *> Chain, const FunctionDecl *Owner,
                                 const Expr *At) {
  if (guarded(Owner, At->getBeginLoc()))
    return true;
  for (size_t I = 1; I < Chain.size(); ++I)
    if (guarded(Chain[I - 1]->Callee, Chain[I]->Loc))
      return true;
  return false;
}

bool CaptureGuards::chainRelaxed(ArrayRef<const CallEdge *> Chain, const FunctionDecl *Owner,
                                 const Expr *At) {
  if (relaxed(Owner).Exprs.count(At))
    return true;
  for (size_t I = 1; I < Chain.size(); ++I)
    if (relaxed(Chain[I - 1]->Callee).Locs.count(Chain[I]->Loc))
      return true;
  return false;
}

} // namespace cuda_scope
