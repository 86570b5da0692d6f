//===- DivergentBarrierCheck.cpp - block barriers under thread-varying conditions ===//
//
// The divergent barrier rule of model/Hierarchy.h over one function body at a
// time: which of its values threads of one block may see differently (the
// model's sources: the thread's index and lane, warp votes and shuffles, the
// clock; an atomic read-modify-write's result; and what is computed from them,
// through local variables, to a fixed point), then each block barrier whose
// enclosing condition is such a value, or that follows a return, break or
// continue taken under one. A device function's parameters count as values
// the block shares (the IR pass, which sees the kernel inlined, follows them).
//
//===----------------------------------------------------------------------===//
#include "DivergentBarrierCheck.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"
#include "clang/Basic/FileManager.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                   unless(isExpansionInSystemHeader()))
          .bind("f"),
      this);
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
  if (std::optional<BarrierFunction> BF = barrierFunction(Name); BF && BF->What == OpKind::BlockBarrier)
    return true;
  if (plainFunctionName(Name) == "cooperative_groups::sync" && CE->getNumArgs() == 1) {
    QualType T = CE->getArg(0)->getType().getNonReferenceType();
    if (const auto *RD = T->getAsCXXRecordDecl())
      return RD->getName() == "thread_block";
  }
  return false;
}

/// The values of one function that threads of one block may see differently.
class Varying {
public:
  Varying(const FunctionDecl *F, ASTContext &Ctx) : Ctx(Ctx) {
    // Local variables, to a fixed point: a variable varies when a value it
    // is given does (its initializer, an assignment, a compound one).
    collect(F->getBody());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &[V, E] : Assigned)
        if (!Vars.count(V) && varies(E))
          Changed |= Vars.insert(V).second;
      for (const VarDecl *V : AsmOutputs)
        Changed |= Vars.insert(V).second;
    }
  }

  bool varies(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 32)
      return false;
    E = E->IgnoreParenImpCasts();
    // threadIdx.x is a property: a pseudo-object whose base is an opaque
    // value standing for the builtin variable.
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
      return varies(OVE->getSourceExpr(), Depth + 1);
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
      return varies(PO->getSyntacticForm(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return Vars.count(V->getCanonicalDecl()) || blockVaryingSource(identifierOf(V)).has_value();
      return false;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // threadIdx.x: the builtin variable's member (a call to its getter).
      if (const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (blockVaryingSource(identifierOf(Base->getDecl())))
          return true;
      return varies(ME->getBase(), Depth + 1);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      StringRef Name = identifierOf(FD);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        // threadIdx.x is __cuda_builtin_threadIdx_t::__fetch_builtin_x().
        if (const auto *Base = dyn_cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
          if (blockVaryingSource(identifierOf(Base->getDecl())))
            return true;
      }
      // A cooperative group's thread_rank(), thread_index() (the thread's
      // index) and meta_group_rank() (its tile's): static members, called
      // through a group object or not.
      if ((Name == "thread_rank" || Name == "thread_index" || Name == "meta_group_rank") && FD &&
          StringRef(FD->getQualifiedNameAsString()).starts_with("cooperative_groups::"))
        return true;
      if (!Name.empty() && blockVaryingSource(Name))
        return true;
      if (std::optional<DeviceBuiltin> B = parseDeviceBuiltin(Name);
          B && (B->What == DeviceBuiltin::AtomicRMW || B->What == DeviceBuiltin::AtomicCAS ||
                B->What == DeviceBuiltin::AtomicExchange))
        return true;
      // libcu++ and std atomics' read-modify-writes.
      if (isa<CXXMemberCallExpr>(Call) && (Name.starts_with("fetch_") || Name == "exchange" ||
                                           Name.starts_with("compare_exchange")))
        return true;
      for (const Expr *Arg : Call->arguments())
        if (varies(Arg, Depth + 1))
          return true;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
        return varies(MC->getImplicitObjectArgument(), Depth + 1);
      return false;
    }
    if (isa<AtomicExpr>(E))
      return true;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (varies(CE, Depth + 1))
          return true;
    return false;
  }

private:
  void collect(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          Assigned.push_back({V->getCanonicalDecl(), V->getInit()});
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          Assigned.push_back({V->getCanonicalDecl(), BO->getRHS()});
    if (const auto *A = dyn_cast<GCCAsmStmt>(S); A && blockVaryingAsm(A->getAsmString()))
      for (unsigned I = 0; I < A->getNumOutputs(); ++I)
        if (const auto *DRE = dyn_cast<DeclRefExpr>(A->getOutputExpr(I)->IgnoreParenImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
            AsmOutputs.push_back(V->getCanonicalDecl());
    for (const Stmt *Child : S->children())
      collect(Child);
  }

  ASTContext &Ctx;
  std::vector<std::pair<const VarDecl *, const Expr *>> Assigned;
  std::vector<const VarDecl *> AsmOutputs;
  DenseSet<const VarDecl *> Vars;
};

/// The condition of \p S that decides whether (or how often) \p Inside runs,
/// when \p Inside is in the part \p S decides.
const Expr *decidingCondition(const Stmt *S, const Stmt *Inside) {
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

class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(const Varying &V, ASTContext &Ctx) : V(V), Ctx(Ctx) {}
  bool shouldVisitLambdaExpr(LambdaExpr *) { return false; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    bool Reduces;
    if (isWholeBlockBarrier(S, Reduces)) {
      if (const Expr *Cond = firstVaryingCondition(S))
        Found.push_back({S, Cond, Reduces});
      else if (const Expr *Exit = exitBefore(S))
        Found.push_back({S, Exit, Reduces});
    }
    // A return, break or continue under a varying condition: the threads
    // that take it leave what follows.
    if (isa<ReturnStmt, BreakStmt, ContinueStmt>(S))
      if (const Expr *Cond = firstVaryingCondition(S))
        Exits.push_back({S, Cond});
    Path.push_back(S);
    bool R = RecursiveASTVisitor<Finder>::TraverseStmt(S);
    Path.pop_back();
    return R;
  }

  struct Hit {
    const Stmt *Barrier;
    const Expr *Cond;
    bool Reduces;
  };
  std::vector<Hit> Found;

private:
  /// The outermost enclosing condition (source order: the one a thread meets
  /// first) that varies and decides \p S.
  const Expr *firstVaryingCondition(const Stmt *S) const {
    const Stmt *Inside = S;
    const Expr *Outermost = nullptr;
    for (auto It = Path.rbegin(); It != Path.rend(); ++It) {
      if (const Expr *C = decidingCondition(*It, Inside); C && V.varies(C))
        Outermost = C;
      Inside = *It;
    }
    return Outermost;
  }
  /// A return, break or continue met before \p Barrier under a varying
  /// condition, whose leaving skips the barrier: a return anywhere before it;
  /// a break or continue in a loop that holds the barrier too.
  const Expr *exitBefore(const Stmt *Barrier) const {
    for (const auto &[Exit, Cond] : Exits) {
      if (isa<ReturnStmt>(Exit))
        return Cond;
      // The loop the break or continue leaves is on the barrier's path.
      for (const Stmt *P : Path)
        if (isa<ForStmt, WhileStmt, DoStmt>(P) && contains(P, Exit) && innermostLoop(Exit) == P)
          return Cond;
    }
    return nullptr;
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
  std::vector<const Stmt *> Path;
  std::vector<std::pair<const Stmt *, const Expr *>> Exits;
};

std::string placeOf(SourceLocation L, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isInvalid())
    return std::string();
  SmallString<256> Path(P.getFilename());
  SM.getFileManager().makeAbsolutePath(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return (Path + ":" + Twine(P.getLine())).str();
}
} // namespace

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("f");
  if (!F || !F->getBody() || F->isDependentContext())
    return;
  ASTContext &Ctx = *Result.Context;
  Varying V(F, Ctx);
  Finder Walk(V, Ctx);
  Walk.TraverseStmt(F->getBody());
  for (const Finder::Hit &H : Walk.Found) {
    SourceLocation At = isa<CallExpr>(H.Barrier) ? cast<CallExpr>(H.Barrier)->getExprLoc() : H.Barrier->getBeginLoc();
    diag(At, "%0") << divergentBarrierMessage(H.Reduces, placeOf(H.Cond->getBeginLoc(), Ctx.getSourceManager()));
    diag(H.Cond->getBeginLoc(), "threads of one block may decide this condition differently", DiagnosticIDs::Note);
  }
}

} // namespace cuda_scope
