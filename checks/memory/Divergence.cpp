//===- Divergence.cpp - what threads of one block or warp may decide differently ===//
#include "Divergence.h"
#include "Varying.h"
#include "ast/CheckUtils.h"
#include "ast/KernelLaunches.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

/// A read of a builtin variable's component: threadIdx.x as the toolkit's
/// property (a pseudo-object whose base is an opaque value standing for the
/// variable) or as the NVVM builtin that reads its register
/// (__nvvm_read_ptx_sreg_tid_x): the variable's name and the component.
std::optional<std::pair<StringRef, char>> builtinVariableRead(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (const auto *P = dyn_cast<MSPropertyRefExpr>(E)) {
    const Expr *Base = P->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Base);
    if (!DRE || !P->getPropertyDecl() || P->getPropertyDecl()->getName().size() != 1)
      return std::nullopt;
    return std::make_pair(identifierOf(DRE->getDecl()), P->getPropertyDecl()->getName()[0]);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) { // a variable of a struct type with x, y, z
    const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    StringRef Member = identifierOf(ME->getMemberDecl());
    if (!DRE || Member.size() != 1)
      return std::nullopt;
    return std::make_pair(identifierOf(DRE->getDecl()), Member[0]);
  }
  const auto *CE = dyn_cast<CallExpr>(E);
  StringRef N = CE ? identifierOf(CE->getDirectCallee()) : StringRef();
  if (!N.consume_front("__nvvm_read_ptx_sreg_") || N.size() < 3 || N[N.size() - 2] != '_')
    return std::nullopt;
  StringRef Var = StringSwitch<StringRef>(N.drop_back(2))
                      .Case("tid", "threadIdx")
                      .Case("ntid", "blockDim")
                      .Case("ctaid", "blockIdx")
                      .Case("nctaid", "gridDim")
                      .Default("");
  if (Var.empty())
    return std::nullopt;
  return std::make_pair(Var, N.back());
}

bool isGridIndexSum(const Expr *E) {
  const auto *Add = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  auto Is = [](const Expr *V, StringRef Name) {
    std::optional<std::pair<StringRef, char>> B = builtinVariableRead(V);
    return B && B->first == Name && B->second == 'x';
  };
  auto Parts = [&](const Expr *Thread, const Expr *Block) {
    const auto *Mul = dyn_cast<BinaryOperator>(Block->IgnoreParenImpCasts());
    return Is(Thread, "threadIdx") && Mul && Mul->getOpcode() == BO_Mul &&
           ((Is(Mul->getLHS(), "blockIdx") && Is(Mul->getRHS(), "blockDim")) ||
            (Is(Mul->getRHS(), "blockIdx") && Is(Mul->getLHS(), "blockDim")));
  };
  return Parts(Add->getLHS(), Add->getRHS()) || Parts(Add->getRHS(), Add->getLHS());
}

std::optional<unsigned> tileSize(const CallExpr *CE) {
  const auto *M = CE ? dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee()) : nullptr;
  const auto *Tile = M ? dyn_cast<ClassTemplateSpecializationDecl>(M->getParent()) : nullptr;
  if (!Tile || !StringRef(Tile->getQualifiedNameAsString()).starts_with("cooperative_groups::") ||
      !Tile->getName().contains("tile") || Tile->getTemplateArgs().size() == 0)
    return std::nullopt;
  const TemplateArgument &Size = Tile->getTemplateArgs()[0];
  if (Size.getKind() != TemplateArgument::Integral || Size.getAsIntegral().getActiveBits() > 16)
    return std::nullopt;
  return static_cast<unsigned>(Size.getAsIntegral().getZExtValue());
}

const Stmt *droppedArm(const Stmt *S, const ASTContext &Ctx) {
  if (const auto *If = dyn_cast<IfStmt>(S); If && !If->isConsteval())
    if (std::optional<bool> Taken = foldedCondition(If->getCond(), Ctx))
      return *Taken ? If->getElse() : If->getThen();
  if (const auto *CO = dyn_cast<ConditionalOperator>(S))
    if (std::optional<bool> Taken = foldedCondition(CO->getCond(), Ctx))
      return *Taken ? CO->getFalseExpr() : CO->getTrueExpr();
  return nullptr;
}

namespace {
/// Places one function's reach keeps, past which the rest is left out (a
/// helper called from hundreds of places of a library's header).
constexpr size_t MaxReachedPlaces = 256;
} // namespace

bool changesVariable(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  auto Names = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl()->getCanonicalDecl() == VD->getCanonicalDecl();
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS()))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) && Names(UO->getSubExpr()))
    return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (D->getCanonicalDecl() == VD->getCanonicalDecl())
        return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) { return changesVariable(C, VD); });
}

bool isHandedOn(const ParmVarDecl *P) {
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  return F && !P->getType()->isReferenceType() && F->getBody() && !changesVariable(F->getBody(), P);
}

std::vector<ReachedPlace> CalledTargets::of(const CallExpr *Call) {
  std::vector<ReachedPlace> Out;
  // A kernel launched from the device runs in a grid of its own: its
  // barriers and collectives are its own blocks' and warps', not the
  // launching thread's (the pass sees a launch, cudaLaunchDevice, not a call).
  if (isa<CUDAKernelCallExpr>(Call))
    return Out;
  if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getDefinition())
    for (const ReachedPlace &Reached : reach(FD->getDefinition())) {
      // A place that still hangs on a parameter hangs on the function read's
      // own, which a caller outside it decides: it is no target here.
      std::optional<ReachedPlace> P = atCall(Reached, Call);
      if (!P || P->Param >= 0)
        continue;
      if (P->At.isInvalid())
        P->At = Call->getExprLoc();
      Out.push_back(*P);
    }
  return Out;
}

std::optional<ReachedPlace> CalledTargets::atCall(ReachedPlace P, const CallExpr *Call) const {
  if (P.Param < 0)
    return P;
  // A member operator's object is its call's first argument.
  if (isa<CXXOperatorCallExpr>(Call) || static_cast<unsigned>(P.Param) >= Call->getNumArgs())
    return std::nullopt;
  const Expr *Arg = Call->getArg(static_cast<unsigned>(P.Param));
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
    Arg = Default->getExpr();
  if (By.Makes(Arg)) {
    P.Param = -1;
    return P;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
    if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      P.Param = static_cast<int>(PVD->getFunctionScopeIndex());
      return P;
    }
  return std::nullopt;
}

const std::vector<ReachedPlace> &CalledTargets::reach(const FunctionDecl *F) {
  if (auto It = Known.find(F); It != Known.end())
    return It->second;
  static const std::vector<ReachedPlace> None;
  // A recursive call reaches what the outer reading of the function finds.
  if (!F->getBody() || F->isDependentContext() || !Active.insert(F).second)
    return None;
  std::vector<ReachedPlace> Out;
  walk(F->getBody(), Out);
  Active.erase(F);
  return Known[F] = std::move(Out);
}

SourceLocation targetLoc(const Stmt *S) {
  return isa<CallExpr>(S) ? cast<CallExpr>(S)->getExprLoc() : S->getBeginLoc();
}

void CalledTargets::walk(const Stmt *S, std::vector<ReachedPlace> &Out) {
  if (!S || isa<LambdaExpr>(S) || Out.size() >= MaxReachedPlaces)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Own = [&](SourceLocation At) {
    return SM.isInSystemHeader(SM.getExpansionLoc(At)) ? SourceLocation() : At;
  };
  auto Add = [&](ReachedPlace P) {
    if (Out.size() < MaxReachedPlaces &&
        llvm::none_of(Out, [&](const ReachedPlace &Q) { return Q.At == P.At && Q.S == P.S && Q.Param == P.Param; }))
      Out.push_back(P);
  };
  if (Is(S)) {
    Add({Own(targetLoc(S)), S});
    return;
  }
  if (By.Of)
    if (const ParmVarDecl *Param = By.Of(S)) {
      Add({Own(targetLoc(S)), S, static_cast<int>(Param->getFunctionScopeIndex())});
      return;
    }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isa<CUDAKernelCallExpr>(Call))
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getDefinition()) {
      // What the callee reaches in a library's header is named at this call,
      // where the call is the project's.
      const SourceLocation At = Own(Call->getExprLoc());
      for (const ReachedPlace &Reached : reach(FD->getDefinition())) {
        std::optional<ReachedPlace> P = atCall(Reached, Call);
        if (!P)
          continue;
        if (P->At.isInvalid())
          P->At = At;
        Add(*P);
      }
    }
  const Stmt *Dropped = droppedArm(S, Ctx);
  for (const Stmt *Child : S->children())
    if (Child != Dropped)
      walk(Child, Out);
}

const Expr *divergence::decidingCondition(const Stmt *S, const Stmt *Inside) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return Inside == If->getThen() || Inside == If->getElse() ? If->getCond() : nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return Inside == W->getBody() ? W->getCond() : nullptr;
  if (const auto *D = dyn_cast<DoStmt>(S))
    return Inside == D->getBody() ? D->getCond() : nullptr;
  if (const auto *For = dyn_cast<ForStmt>(S))
    return Inside == For->getBody() || Inside == For->getInc() ? For->getCond() : nullptr;
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Inside == Sw->getBody() ? Sw->getCond() : nullptr;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return Inside != CO->getCond() ? CO->getCond() : nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return Inside == BO->getRHS() ? BO->getLHS() : nullptr;
  return nullptr;
}

namespace {
using divergence::decidingCondition;
using divergence::Varying;

class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(const Varying &V, ASTContext &Ctx, function_ref<bool(const Stmt *)> Want) : V(V), Ctx(Ctx), Want(Want) {}
  bool shouldVisitLambdaExpr(LambdaExpr *) { return false; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  /// Every exit first, then the operations wanted: a break or return that
  /// comes after a barrier in the loop holding both skips the barrier of
  /// every later round.
  void run(Stmt *Body) {
    Collecting = true;
    TraverseStmt(Body);
    Collecting = false;
    TraverseStmt(Body);
  }

  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    if (!Collecting && Want(S)) {
      const BlockFacts Facts = factsOnPath(S);
      if (const Expr *Cond = firstVaryingCondition(S, Facts))
        Found.push_back({S, Cond});
      else if (const Expr *Exit = exitBefore(S, Facts))
        Found.push_back({S, Exit});
    }
    // The arm of a condition the compiler folds that it drops holds nothing
    // a thread runs (Z_COUNT > WARP_SZ ? __syncthreads() : __syncwarp()).
    if (const Stmt *Dropped = droppedArm(S, Ctx)) {
      Path.push_back(S);
      for (Stmt *Child : S->children())
        if (Child && Child != Dropped)
          TraverseStmt(Child);
      Path.pop_back();
      return true;
    }
    // A return, break or continue under a varying condition: the threads
    // that take it leave what follows.
    if (Collecting && isa<ReturnStmt, BreakStmt, ContinueStmt>(S)) {
      Exit E{S, factsOnPath(S), {}};
      forEachCondition(S, [&](const Expr *C, std::optional<bool>) {
        if (V.varies(C))
          E.Varying.insert(E.Varying.begin(), {C, blockCondition(C)});
      });
      if (!E.Varying.empty())
        Exits.push_back(std::move(E));
    }
    Path.push_back(S);
    bool R = RecursiveASTVisitor<Finder>::TraverseStmt(S);
    Path.pop_back();
    return R;
  }

  std::vector<Decided> Found;

private:
  /// A return, break or continue, what the block tests on its way tell of
  /// the block that takes it, and the varying conditions that decide it
  /// (outermost first).
  struct Exit {
    const Stmt *S;
    BlockFacts Facts;
    std::vector<std::pair<const Expr *, BlockCondition>> Varying;
  };

  /// Each condition that decides \p S (innermost first), with the arm \p S
  /// lies in where a thread there has passed (true) or failed (false) it.
  void forEachCondition(const Stmt *S, function_ref<void(const Expr *, std::optional<bool>)> Each) const {
    const Stmt *Inside = S;
    for (auto It = Path.rbegin(); It != Path.rend(); ++It) {
      if (const Expr *C = decidingCondition(*It, Inside))
        Each(C, armOf(*It, Inside));
      Inside = *It;
    }
  }
  /// Whether the threads in \p Inside, a part of \p Parent, passed its
  /// condition (a loop's body: the test held; a do's first round had none).
  static std::optional<bool> armOf(const Stmt *Parent, const Stmt *Inside) {
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return Inside == If->getThen();
    if (isa<WhileStmt, ForStmt>(Parent))
      return true;
    if (const auto *CO = dyn_cast<ConditionalOperator>(Parent))
      return Inside == CO->getTrueExpr();
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
      return BO->getOpcode() == BO_LAnd;
    return std::nullopt;
  }
  BlockCondition blockCondition(const Expr *C) const {
    return blockConditionOf(
        C, Ctx, [&](const VarDecl *D) { return V.onlyValue(D); }, [&](const Expr *E) { return V.varies(E); });
  }
  /// What the block tests on the way to \p S say of a block whose threads
  /// get there.
  BlockFacts factsOnPath(const Stmt *S) const {
    BlockFacts Facts;
    forEachCondition(S, [&](const Expr *C, std::optional<bool> Arm) {
      if (Arm)
        Facts.note(blockCondition(C), *Arm);
    });
    return Facts;
  }
  /// The outermost enclosing condition (source order: the one a thread meets
  /// first) that varies and decides \p S, other than those \p Facts (the
  /// block tests on the way) decide for every block that gets there.
  const Expr *firstVaryingCondition(const Stmt *S, const BlockFacts &Facts) const {
    const Expr *Outermost = nullptr;
    forEachCondition(S, [&](const Expr *C, std::optional<bool>) {
      if (V.varies(C) && !decidedForBlock(blockCondition(C), Facts))
        Outermost = C;
    });
    return Outermost;
  }
  /// A return, break or continue under a varying condition whose leaving
  /// skips \p Barrier: a return anywhere before it, or in a loop that holds
  /// the barrier too; a break in such a loop; a continue in such a loop
  /// before the barrier in the round. An exit whose
  /// block tests no block that reaches the barrier passes (\p Facts: those
  /// on the barrier's way), or whose varying tests such a block decides for
  /// all its threads, skips it for a whole block or for none.
  const Expr *exitBefore(const Stmt *Barrier, const BlockFacts &Facts) const {
    for (const Exit &E : Exits) {
      if (!isa<ReturnStmt>(E.S)) {
        // The loop the break or continue leaves is on the barrier's path: a
        // break skips the barrier in every later iteration; a continue, when
        // it comes before the barrier in the iteration.
        if (llvm::none_of(Path, [&](const Stmt *P) {
              return isa<ForStmt, WhileStmt, DoStmt>(P) && contains(P, E.S) && innermostLoop(E.S) == P &&
                     (isa<BreakStmt>(E.S) || precedes(E.S, Barrier));
            }))
          continue;
      } else if (!precedes(E.S, Barrier) && llvm::none_of(Path, [&](const Stmt *P) {
                   return isa<ForStmt, WhileStmt, DoStmt>(P) && contains(P, E.S);
                 })) {
        continue;
      }
      BlockFacts Both = E.Facts;
      Both.add(Facts);
      for (const auto &[Cond, Block] : E.Varying)
        if (!decidedForBlock(Block, Both))
          return Cond;
    }
    return nullptr;
  }
  /// \p Exit comes before \p Barrier in one compound statement, the nearest
  /// that holds both (in exclusive arms of a branch, it never does).
  bool precedes(const Stmt *Exit, const Stmt *Barrier) const {
    const Stmt *Child = Exit;
    DynTypedNodeList Parents = Ctx.getParents(*Exit);
    while (!Parents.empty()) {
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        return false;
      if (auto It = llvm::find(Path, P); It != Path.end()) {
        const Stmt *BarrierChild = std::next(It) != Path.end() ? *std::next(It) : Barrier;
        const auto *CS = dyn_cast<CompoundStmt>(P);
        if (!CS)
          return false;
        int AtExit = -1, AtBarrier = -1, N = 0;
        for (const Stmt *C : CS->body()) {
          if (C == Child)
            AtExit = N;
          if (C == BarrierChild)
            AtBarrier = N;
          ++N;
        }
        return AtExit >= 0 && AtBarrier >= 0 && AtExit < AtBarrier;
      }
      Child = P;
      Parents = Ctx.getParents(*P);
    }
    return false;
  }
  static bool contains(const Stmt *Outer, const Stmt *Inner) {
    if (Outer == Inner)
      return true;
    for (const Stmt *C : Outer->children())
      if (C && contains(C, Inner))
        return true;
    return false;
  }
  const Stmt *innermostLoop(const Stmt *Exit) const {
    const Stmt *Loop = nullptr;
    DynTypedNodeList Parents = Ctx.getParents(*Exit);
    while (!Parents.empty()) {
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        break;
      if (isa<ForStmt, WhileStmt, DoStmt>(P))
        return P;
      if (isa<SwitchStmt>(P) && isa<BreakStmt>(Exit))
        return nullptr; // a break of a switch leaves the switch only
      Parents = Ctx.getParents(*P);
    }
    return Loop;
  }

  const Varying &V;
  ASTContext &Ctx;
  function_ref<bool(const Stmt *)> Want;
  std::vector<const Stmt *> Path;
  std::vector<Exit> Exits;
  bool Collecting = false;
};

} // namespace

ast_matchers::DeclarationMatcher deviceFunctionDefinitions() {
  using namespace ast_matchers;
  return functionDecl(isDefinition(), anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                      unless(isExpansionInSystemHeader()))
      .bind("f");
}

std::string placeOf(SourceLocation L, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  return P.isValid() ? launchPlace(P.getFilename(), P.getLine(), SM.getFileManager()) : std::string();
}

std::vector<Decided> decidedByVarying(const FunctionDecl *F, ASTContext &Ctx, VaryLevel Level,
                                      function_ref<bool(const Stmt *)> Want) {
  Varying V(F, Ctx, Level);
  Finder Walk(V, Ctx, Want);
  Walk.run(F->getBody());
  return std::move(Walk.Found);
}

std::vector<DecidedPlace> decidedPlaces(const FunctionDecl *F, ASTContext &Ctx, VaryLevel Level,
                                        std::function<bool(const Stmt *)> IsTarget, CalledTargets::ByParameter By) {
  CalledTargets Called(Ctx, IsTarget, std::move(By));
  auto Want = [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    return IsTarget(S) || (Call && !Called.of(Call).empty());
  };
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<std::pair<SourceLocation::UIntTy, SourceLocation::UIntTy>> Seen; // (place, condition)
  std::vector<DecidedPlace> Out;
  for (const Decided &D : decidedByVarying(F, Ctx, Level, Want)) {
    std::vector<ReachedPlace> Places;
    if (IsTarget(D.S))
      Places.push_back({targetLoc(D.S), D.S});
    else
      Places = Called.of(cast<CallExpr>(D.S));
    for (const ReachedPlace &P : Places)
      if (Seen.insert({SM.getExpansionLoc(P.At).getRawEncoding(), D.Cond->getBeginLoc().getRawEncoding()}).second)
        Out.push_back({P, D.S, D.Cond});
  }
  return Out;
}

} // namespace cuda_scope
