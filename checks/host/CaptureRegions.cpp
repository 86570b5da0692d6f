//===- CaptureRegions.cpp - the dataflow of which captures are open -------===//
//
// The forward may-dataflow over one function's CFG: its lattice (the open
// captures, the constants and conditions known, the begins' statuses) and
// its transfer over statements. What a call does is CaptureRegionCalls.cpp's.
//
//===----------------------------------------------------------------------===//
#include "CaptureRegions.h"
#include "CaptureFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <deque>
#include <functional>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

CaptureAnalysis::CaptureAnalysis(const CaptureOptions &Opts, TUCallGraph &Graph,
                                 CaptureFacts *Facts)
    : Opts(Opts), Graph(Graph), Ctx(Graph.context()), SM(Ctx.getSourceManager()),
      Guards(Graph,
             [this](const FunctionDecl *F, RelaxedCalls &Into) {
               analyse(F, Purpose::CollectRelaxed, nullptr, &Into);
             }),
      Facts(Facts) {}

CaptureAnalysis::~CaptureAnalysis() = default;

void CaptureAnalysis::root(const FunctionDecl *F, const Decl *Contract, CaptureMode Mode) {
  ContractMode = Mode;
  if (!analyse(F, Purpose::Check, Contract) && Contract)
    contractWithoutCfg(F, Contract);
}

bool CaptureAnalysis::analyse(const FunctionDecl *F, Purpose Why, const Decl *Contract,
                              RelaxedCalls *Collect) {
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Opts.AddImplicitDtors = true;
  Opts.AddTemporaryDtors = true;
  std::unique_ptr<CFG> Cfg = CFG::buildCFG(F, F->getBody(), &Ctx, Opts);
  if (!Cfg)
    return false;

  Run R(F, Why, Contract);
  R.Sum = Graph.summary(F);
  if (R.Sum) {
    for (const CudaEvent &E : R.Sum->Events)
      R.EventAt[E.E] = &E;
    for (const CallEdge &E : R.Sum->Calls)
      R.EdgesAt[E.Loc].push_back(&E);
  }
  R.Collect = Collect;

  State Init;
  Init.Reached = true;
  if (Contract) {
    OpenCapture Assumed;
    Assumed.Name = F->getQualifiedNameAsString();
    Assumed.Mode = ContractMode;
    R.Captures.push_back(std::move(Assumed));
    Init.Open.push_back(0);
  }

  const unsigned N = Cfg->getNumBlockIDs();
  std::vector<State> In(N), Out(N);
  std::vector<bool> Queued(N, false), Visited(N, false);
  std::deque<const CFGBlock *> Work{&Cfg->getEntry()};
  Queued[Cfg->getEntry().getBlockID()] = true;
  // The lattice is finite; the bound only guards against the exchange toggle.
  for (unsigned Steps = 0; !Work.empty() && Steps < 64 * N + 64; ++Steps) {
    const CFGBlock *B = Work.front();
    Work.pop_front();
    Queued[B->getBlockID()] = false;
    State S;
    if (B == &Cfg->getEntry())
      S = Init;
    else
      for (const CFGBlock *P : B->preds())
        if (P && Out[P->getBlockID()].Reached)
          merge(S, edgeState(R, P, B, Out[P->getBlockID()]));
    if (!S.Reached)
      continue;
    In[B->getBlockID()] = S;
    transfer(R, S, *B);
    if (Visited[B->getBlockID()] && S == Out[B->getBlockID()])
      continue;
    Visited[B->getBlockID()] = true;
    Out[B->getBlockID()] = std::move(S);
    for (const CFGBlock *Succ : B->succs())
      if (Succ && !Queued[Succ->getBlockID()]) {
        Queued[Succ->getBlockID()] = true;
        Work.push_back(Succ);
      }
  }

  R.Final = true;
  for (const CFGBlock *B : *Cfg) {
    State S = In[B->getBlockID()];
    if (S.Reached)
      transfer(R, S, *B);
  }
  if (R.reporting())
    reportUnended(R, Out, *Cfg);
  return true;
}

void CaptureAnalysis::merge(State &Into, const State &From) {
  if (!From.Reached)
    return;
  if (!Into.Reached) {
    Into = From;
    return;
  }
  SmallVector<unsigned, 2> Open;
  std::set_union(Into.Open.begin(), Into.Open.end(), From.Open.begin(), From.Open.end(),
                 std::back_inserter(Open));
  Into.Open = std::move(Open);
  Into.Relaxed = Into.Relaxed && From.Relaxed;
  erase_if(Into.Values, [&](const auto &V) { return !is_contained(From.Values, V); });
  erase_if(Into.Facts, [&](const auto &F) { return !is_contained(From.Facts, F); });
  erase_if(Into.StatusOf, [&](const auto &V) { return !is_contained(From.StatusOf, V); });
}

void CaptureAnalysis::setValue(State &S, const VarDecl *V, std::optional<int64_t> Value) {
  auto It = lower_bound(S.Values, std::make_pair(V, INT64_MIN));
  if (It != S.Values.end() && It->first == V) {
    if (Value)
      It->second = *Value;
    else
      S.Values.erase(It);
  } else if (Value) {
    S.Values.insert(It, {V, *Value});
  }
}

std::optional<int64_t> CaptureAnalysis::valueOf(const State &S, const VarDecl *V) {
  for (const auto &[D, Value] : S.Values)
    if (D == V)
      return Value;
  return std::nullopt;
}

/// Flags tested by a branch are remembered along its edges, so that a capture
/// begun under `if (UseGraph)` is not open where `if (UseGraph)` was false.
/// Only local variables and parameters the function never modifies count.
CaptureAnalysis::State CaptureAnalysis::edgeState(Run &R, const CFGBlock *Pred,
                                                  const CFGBlock *Succ, const State &Out) {
  if (Pred->succ_size() != 2)
    return Out;
  const auto *Cond = dyn_cast_or_null<Expr>(Pred->getTerminatorCondition());
  if (!Cond)
    return Out;
  const CFGBlock *Then = Pred->succ_begin()->getReachableBlock();
  const CFGBlock *Else = (Pred->succ_begin() + 1)->getReachableBlock();
  if (Then == Else || (Succ != Then && Succ != Else))
    return Out;
  bool Value = Succ == Then;
  Cond = Cond->IgnoreParenImpCasts();
  while (const auto *UO = dyn_cast<UnaryOperator>(Cond)) {
    if (UO->getOpcode() != UO_LNot)
      return Out;
    Value = !Value;
    Cond = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  State S = Out;
  // Leaving a loop whose body ends the capture of Streams[I] (I the loop's
  // index): the loop that began them ran as many times, so every element's
  // capture is ended, also on the path that runs the body no time.
  if (Succ == Else &&
      isa_and_nonnull<ForStmt, WhileStmt, CXXForRangeStmt>(Pred->getTerminatorStmt()) &&
      !S.Open.empty()) {
    const Stmt *Loop = Pred->getTerminatorStmt();
    const Stmt *Body = isa<ForStmt>(Loop)     ? cast<ForStmt>(Loop)->getBody()
                       : isa<WhileStmt>(Loop) ? cast<WhileStmt>(Loop)->getBody()
                                              : cast<CXXForRangeStmt>(Loop)->getBody();
    SmallVector<std::string, 2> Ended;
    std::function<void(const Stmt *)> Find = [&](const Stmt *St) {
      if (!St || isa<LambdaExpr>(St))
        return;
      if (const auto *CE = dyn_cast<CallExpr>(St))
        if (std::optional<Boundary> B = boundary(R, S, CE); B && !B->IsBegin)
          Ended.push_back(B->Key);
      for (const Stmt *Child : St->children())
        Find(Child);
    };
    Find(Body);
    erase_if(S.Open, [&](unsigned Id) {
      StringRef K = R.Captures[Id].Key;
      return R.Captures[Id].Begin && indexedByLocal(K) && is_contained(Ended, K);
    });
  }
  // A begin whose status is tested and found failing opened nothing: the
  // status is the begin itself or the variable it was stored in, compared
  // with 0 (cudaSuccess, CUDA_SUCCESS) or read as a truth value.
  const Expr *Status = Cond;
  bool FailsWhen = true;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->isEqualityOp()) {
    Status = constantValue(BO->getRHS(), Ctx) == 0   ? BO->getLHS()
             : constantValue(BO->getLHS(), Ctx) == 0 ? BO->getRHS()
                                                     : nullptr;
    FailsWhen = BO->getOpcode() == BO_NE;
  }
  if (Status && Value == FailsWhen) {
    Status = Status->IgnoreParenImpCasts();
    const auto *StatusRef = dyn_cast<DeclRefExpr>(Status);
    erase_if(S.Open, [&](unsigned Id) {
      const OpenCapture &C = R.Captures[Id];
      return C.Begin &&
             (C.Begin == Status ||
              (StatusRef &&
               is_contained(S.StatusOf,
                            std::make_pair(dyn_cast<VarDecl>(StatusRef->getDecl()), Id))));
    });
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Cond);
  const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // A comparison of a variable with a constant (`GraphLaunches >= 1`) is a
  // condition of its own, remembered like a flag.
  const void *Key = Var;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->isComparisonOp()) {
    const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *R2 = dyn_cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts());
    std::optional<int64_t> C =
        L ? constantValue(BO->getRHS(), Ctx) : constantValue(BO->getLHS(), Ctx);
    const DeclRefExpr *Side = L ? L : R2;
    if (C && Side && (L == nullptr) != (R2 == nullptr))
      if (const auto *V = dyn_cast<VarDecl>(Side->getDecl())) {
        BinaryOperatorKind Op =
            L ? BO->getOpcode() : BinaryOperator::reverseComparisonOp(BO->getOpcode());
        std::string Text = utohexstr(reinterpret_cast<uintptr_t>(V->getCanonicalDecl())) + " " +
                           BinaryOperator::getOpcodeStr(Op).str() + " " + std::to_string(*C);
        Var = V;
        Key = CondKeys.insert(Text).first->getKey().data();
      }
  }
  // A branch on a local whose value is known here and that nothing else can
  // write (`bool UseGraph = false;`, assigned only under an #ifdef this build
  // leaves out) takes one way only: the other is not reached, and a capture
  // begun there is not open. A local whose address is taken, passed by
  // reference or captured by reference may change behind the dataflow's back.
  if (Var && Key == Var && Var->isLocalVarDeclOrParm() && !modified(R, Var))
    if (std::optional<int64_t> Known = valueOf(S, Var); Known && (*Known != 0) != Value) {
      State Dead;
      return Dead;
    }
  bool Stable =
      Var && (Var->isLocalVarDeclOrParm() ? !modified(R, Var) : configuration(R, Var));
  if (!Stable)
    return S;
  erase_if(S.Open, [&](unsigned Id) {
    return is_contained(R.Captures[Id].Facts, std::make_pair(Key, !Value));
  });
  erase_if(S.Facts, [&](const auto &F) { return F.first == Key; });
  S.Facts.insert(lower_bound(S.Facts, std::make_pair(Key, false)), {Key, Value});
  return S;
}

/// A variable with static storage that the function reads as configuration:
/// an integer, enumeration or flag, not volatile, that neither the function
/// nor anything it reaches in the file writes or takes the address of (a
/// setting parsed once from the command line). Functions of other files
/// are not seen.
bool CaptureAnalysis::configuration(Run &R, const VarDecl *V) {
  if (!V->hasGlobalStorage() || V->getType().isVolatileQualified() ||
      !(V->getType()->isIntegralOrEnumerationType()) || modified(R, V))
    return false;
  auto [It, New] = Configuration.try_emplace({R.F, V->getCanonicalDecl()}, true);
  if (!New)
    return It->second;
  SmallVector<const FunctionDecl *, 8> Work{R.F};
  DenseSet<const FunctionDecl *> Seen{R.F};
  while (!Work.empty() && It->second) {
    const FunctionDecl *F = Work.pop_back_val();
    if (F != R.F && writes(F->getBody(), V)) {
      It->second = false;
      break;
    }
    if (const TUCallGraph::Summary *Sum = Graph.summary(F))
      for (const CallEdge &E : Sum->Calls)
        if (Seen.insert(E.Callee).second)
          Work.push_back(E.Callee);
  }
  return It->second;
}

/// A use names one declaration of a global (`extern int x;` or its
/// definition), so each is asked for.
static bool mutatedIn(ExprMutationAnalyzer &A, const VarDecl *V) {
  return any_of(V->redecls(), [&](const VarDecl *D) { return A.isMutated(D); });
}

bool CaptureAnalysis::writes(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  ExprMutationAnalyzer A(*S, Ctx);
  return mutatedIn(A, V);
}

bool CaptureAnalysis::modified(Run &R, const VarDecl *V) {
  V = V->getCanonicalDecl();
  auto [It, New] = R.Mutated.try_emplace(V, false);
  if (New && R.F->getBody()) {
    if (!R.Mutations)
      R.Mutations = std::make_unique<ExprMutationAnalyzer>(*R.F->getBody(), Ctx);
    It->second = mutatedIn(*R.Mutations, V);
  }
  return It->second;
}

void CaptureAnalysis::transfer(Run &R, State &S, const CFGBlock &B) {
  for (const CFGElement &E : B) {
    if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>()) {
      statement(R, S, CS->getStmt());
    } else if (std::optional<CFGAutomaticObjDtor> D = E.getAs<CFGAutomaticObjDtor>()) {
      const FunctionDecl *Def = TUCallGraph::definitionOf(D->getDestructorDecl(Ctx));
      edgesAt(R, S, D->getVarDecl()->getLocation(),
              [&](const CallEdge &Ed) { return Ed.How == CallEdge::Destroy && Ed.Callee == Def; });
    } else if (std::optional<CFGTemporaryDtor> T = E.getAs<CFGTemporaryDtor>()) {
      const CXXBindTemporaryExpr *Bind = T->getBindTemporaryExpr();
      const FunctionDecl *Def = TUCallGraph::definitionOf(Bind->getTemporary()->getDestructor());
      edgesAt(R, S, Bind->getBeginLoc(),
              [&](const CallEdge &Ed) { return Ed.How == CallEdge::Destroy && Ed.Callee == Def; });
    }
  }
}

void CaptureAnalysis::statement(Run &R, State &S, const Stmt *St) {
  auto Assign = [&](const VarDecl *V, const Expr *Value) {
    if (V->getType()->isIntegralOrEnumerationType())
      setValue(S, V, constantValue(Value, Ctx));
  };
  auto Status = [&](const VarDecl *V, const Expr *Value) {
    erase_if(S.StatusOf, [&](const auto &P) { return P.first == V; });
    if (auto It = R.CaptureOf.find(Value->IgnoreParenImpCasts()); It != R.CaptureOf.end())
      S.StatusOf.push_back({V, It->second});
  };
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit()) {
        Assign(V, V->getInit());
        Status(V, V->getInit());
      }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          Assign(V, BO->getRHS());
          Status(V, BO->getRHS());
        }
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(St)) {
    call(R, S, CE);
    return;
  }
  if (const auto *C = dyn_cast<CXXConstructExpr>(St)) {
    const FunctionDecl *Def = TUCallGraph::definitionOf(C->getConstructor());
    edgesAt(R, S, C->getBeginLoc(),
            [&](const CallEdge &E) { return E.How == CallEdge::Construct && E.Callee == Def; });
    return;
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(St)) {
    const FunctionDecl *Def = TUCallGraph::definitionOf(New->getOperatorNew());
    edgesAt(R, S, New->getBeginLoc(),
            [&](const CallEdge &E) { return E.How == CallEdge::Call && E.Callee == Def; });
    return;
  }
  if (const auto *Del = dyn_cast<CXXDeleteExpr>(St)) {
    const FunctionDecl *Def = TUCallGraph::definitionOf(Del->getOperatorDelete());
    edgesAt(R, S, Del->getBeginLoc(), [&](const CallEdge &E) {
      return E.How == CallEdge::Delete || (E.How == CallEdge::Call && E.Callee == Def);
    });
  }
}

} // namespace cuda_scope
