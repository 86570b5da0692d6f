//===- TUThreads.cpp - which code runs on other threads, and under which locks
#include "TUThreads.h"
#include "ast/ProjectCode.h"
#include "ast/CheckUtils.h"
#include "ast/TUCallGraph.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

namespace {

bool isStd(const CXXRecordDecl *RD, std::initializer_list<StringRef> Names) {
  return RD && RD->isInStdNamespace() && RD->getDeclName().isIdentifier() &&
         is_contained(Names, RD->getName());
}

const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  return T->getAsCXXRecordDecl();
}

/// Strips what an initialisation wraps around the expression that made the value.
const Expr *made(const Expr *E) {
  for (unsigned Step = 0; E && Step < 8; ++Step) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor()) {
      E = CE->getArg(0);
      continue;
    }
    return E;
  }
  return E;
}

/// The function a callable argument runs: a function or a pointer to one, a
/// lambda (capturing or not) or a variable holding one, a function object's
/// operator(), the target of std::bind.
const FunctionDecl *callableOf(const Expr *E) {
  E = made(E);
  if (!E)
    return nullptr;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
    return TUCallGraph::definitionOf(Lambda->getCallOperator());
  // A wrapper made from a callable (std::function<void()> from a lambda).
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E); Construct && Construct->getNumArgs() == 1)
    if (const FunctionDecl *Inner = callableOf(Construct->getArg(0)))
      return Inner;
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Callee = CE->getDirectCallee();
        Callee && Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
        (Callee->getName() == "bind" || Callee->getName() == "bind_front") && CE->getNumArgs() > 0)
      return callableOf(CE->getArg(0));
  if (const FunctionDecl *F = TUCallGraph::namedFunction(E)) {
    const FunctionDecl *Def = TUCallGraph::definitionOf(F);
    return Def ? Def : F;
  }
  const CXXRecordDecl *RD = E->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  if (RD->isLambda())
    return TUCallGraph::definitionOf(RD->getLambdaCallOperator());
  const CXXMethodDecl *Call = nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call) {
      if (Call)
        return nullptr; // overloaded: which one runs is the arguments' business
      Call = M;
    }
  const FunctionDecl *Def = TUCallGraph::definitionOf(Call);
  return Def ? Def : Call;
}

const ValueDecl *referee(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return DRE->getDecl();
  return nullptr;
}

/// Every call in a body, in source order.
class CallLister : public RecursiveASTVisitor<CallLister> {
public:
  std::vector<const CallExpr *> Calls;
  bool VisitCallExpr(CallExpr *CE) {
    Calls.push_back(CE);
    return true;
  }
};

class StartFinder : public ProjectCodeVisitor<StartFinder> {
  using Base = ProjectCodeVisitor<StartFinder>;

public:
  StartFinder(ASTContext &Ctx, ArrayRef<std::pair<std::string, unsigned>> Pools,
              std::vector<ThreadStart> &Out)
      : Base(Ctx.getSourceManager()), Ctx(Ctx), Pools(Pools), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    Frames.push_back({F, {}});
    bool Result = Base::TraverseDecl(D);
    Frames.pop_back();
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    Frames.push_back({L->getCallOperator(), {}});
    bool Result = Base::TraverseLambdaExpr(L);
    Frames.pop_back();
    return Result;
  }
#define LOOP(Kind)                                                                                 \
  bool Traverse##Kind(Kind *S) {                                                                   \
    if (!Frames.empty())                                                                           \
      Frames.back().Loops.push_back(S);                                                            \
    bool Result = Base::Traverse##Kind(S);                                                         \
    if (!Frames.empty())                                                                           \
      Frames.back().Loops.pop_back();                                                              \
    return Result;                                                                                 \
  }
  LOOP(ForStmt)
  LOOP(WhileStmt)
  LOOP(DoStmt)
  LOOP(CXXForRangeStmt)
#undef LOOP

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasLocalStorage() && V->getInit())
      HeldIn[made(V->getInit())] = V;
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    if (!isStd(RD, {"thread", "jthread"}) || CE->getNumArgs() == 0 ||
        isStd(recordOf(CE->getArg(0)->getType()), {"thread", "jthread"}))
      return true;
    start(CE, CE->getArg(0), ("std::" + RD->getName()).str());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return true;
    StringRef Name = Callee->getName();
    if (Name == "pthread_create" && CE->getNumArgs() >= 3) {
      start(CE, CE->getArg(2), "pthread_create");
      return true;
    }
    if (Name == "async" && Callee->isInStdNamespace() && CE->getNumArgs() > 0) {
      unsigned First = 0;
      if (const auto *ED = CE->getArg(0)->getType()->getAsTagDecl(); ED && ED->getName() == "launch") {
        // std::launch::deferred runs on the thread that waits for the result.
        std::optional<int64_t> Policy;
        if (auto V = CE->getArg(0)->getIntegerConstantExpr(Ctx))
          Policy = V->getExtValue();
        if (Policy && !(*Policy & 1))
          return true;
        First = 1;
      }
      if (First < CE->getNumArgs())
        start(CE, CE->getArg(First), "std::async");
      return true;
    }
    // Emplacing a thread into a container constructs it from these arguments.
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
        MCE && (Name == "emplace_back" || Name == "emplace" || Name == "emplace_front") &&
        CE->getNumArgs() > 0 && !isStd(recordOf(CE->getArg(0)->getType()), {"thread", "jthread"})) {
      const auto *Container = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          recordOf(MCE->getImplicitObjectArgument()->getType()));
      if (Container && Container->getTemplateArgs().size() > 0 &&
          Container->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
          isStd(recordOf(Container->getTemplateArgs()[0].getAsType()), {"thread", "jthread"}))
        start(CE, CE->getArg(0), "std::thread");
      return true;
    }
    for (const auto &[Pattern, Index] : Pools)
      if (Index < CE->getNumArgs() && matchesFunctionName(Callee, Pattern))
        start(CE, CE->getArg(Index), plainQualifiedName(Callee));
    return true;
  }

private:
  void start(const Expr *Site, const Expr *Callable, std::string How) {
    if (Frames.empty() || Frames.back().F->isDependentContext() ||
        SM.isInSystemHeader(SM.getExpansionLoc(Site->getBeginLoc())))
      return;
    const FunctionDecl *Entry = callableOf(Callable);
    if (!Entry)
      return;
    ThreadStart T{Entry, Frames.back().F, Site, std::move(How), false, SourceLocation()};
    T.Joined = joined(T);
    // Started in a loop, several may run at once: unless each is waited for
    // in the same pass of the innermost loop.
    if (!Frames.back().Loops.empty()) {
      SourceRange Loop = Frames.back().Loops.back()->getSourceRange();
      SourceLocation End = SM.getExpansionLoc(Loop.getEnd());
      T.Many = T.Joined.isInvalid() || SM.isBeforeInTranslationUnit(End, T.Joined);
    }
    Out.push_back(std::move(T));
  }

  /// Where the spawner waits for the thread: t.join() of the std::thread it
  /// initialised, the end of the spawner for a std::jthread, f.get() or
  /// f.wait() of the future std::async returned, pthread_join of the
  /// pthread_t it filled in, and for a thread emplaced into a container the
  /// first join of any thread after it. Invalid where it does not wait.
  SourceLocation joined(const ThreadStart &T) {
    const Stmt *Body = T.Spawner->getBody();
    if (!Body)
      return {};
    const VarDecl *Var = HeldIn.lookup(made(T.Site));
    // A thread emplaced into a container (a pool's own start is a member call too).
    bool Emplaced = T.How == "std::thread" && isa<CXXMemberCallExpr>(T.Site);
    if (T.How == "pthread_create")
      Var = dyn_cast_or_null<VarDecl>(referee(cast<CallExpr>(T.Site)->getArg(0)));
    if (!Var && !Emplaced)
      return {};
    CallLister L;
    L.TraverseStmt(const_cast<Stmt *>(Body));
    SourceLocation After = SM.getExpansionLoc(T.Site->getEndLoc());
    for (const CallExpr *CE : L.Calls) {
      SourceLocation At = SM.getExpansionLoc(CE->getBeginLoc());
      if (!SM.isBeforeInTranslationUnit(After, At))
        continue;
      const auto *Callee = CE->getDirectCallee();
      StringRef Name = Callee && Callee->getDeclName().isIdentifier() ? Callee->getName() : "";
      if (T.How == "pthread_create") {
        if (Name == "pthread_join" && CE->getNumArgs() > 0 && referee(CE->getArg(0)) == Var)
          return At;
        continue;
      }
      const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
      if (!MCE)
        continue;
      const Expr *Object = MCE->getImplicitObjectArgument();
      bool Waits = T.How == "std::async" ? (Name == "get" || Name == "wait") : Name == "join";
      if (!Waits)
        continue;
      if (Emplaced ? isStd(recordOf(Object->getType()), {"thread", "jthread"})
                   : referee(Object) == Var)
        return At;
    }
    // A jthread joins when it goes, and a future from std::async waits when
    // it goes: at the latest, the end of the spawner.
    if (Var && (T.How == "std::jthread" || T.How == "std::async"))
      return SM.getExpansionLoc(Body->getEndLoc());
    return {};
  }

  struct Frame {
    const FunctionDecl *F;
    SmallVector<const Stmt *, 2> Loops; ///< the loops around the walk, innermost last
  };
  ASTContext &Ctx;
  ArrayRef<std::pair<std::string, unsigned>> Pools;
  std::vector<ThreadStart> &Out;
  SmallVector<Frame, 4> Frames;
  DenseMap<const Expr *, const VarDecl *> HeldIn;
};

bool hasMethod(const CXXRecordDecl *RD, StringRef A, StringRef B) {
  if (!RD || !RD->hasDefinition())
    return false;
  bool HasA = false, HasB = false;
  auto Look = [&](const CXXRecordDecl *R) {
    for (const CXXMethodDecl *M : R->methods())
      if (M->getDeclName().isIdentifier()) {
        HasA |= M->getName() == A;
        HasB |= M->getName() == B;
      }
    return true;
  };
  Look(RD);
  RD->forallBases(Look);
  return HasA && HasB;
}

bool lockable(const CXXRecordDecl *RD) {
  return hasMethod(RD, "lock", "unlock") || hasMethod(RD, "Lock", "Unlock");
}

/// Collects the locks of one function body.
class LockWalker {
public:
  LockWalker(ASTContext &Ctx, std::vector<LockRange> &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Out(Out) {}

  void body(const Stmt *Body) {
    SourceLocation End = SM.getExpansionLoc(Body->getEndLoc());
    walk(Body, End);
    for (auto &[Lock, Begin] : Pending)
      Out.push_back({Begin, End, Lock});
  }

private:
  void walk(const Stmt *S, SourceLocation BlockEnd) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *C = dyn_cast<CompoundStmt>(S)) {
      SourceLocation End = SM.getExpansionLoc(C->getRBracLoc());
      for (const Stmt *Child : C->body())
        walk(Child, End);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          guard(V, BlockEnd);
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S))
      explicitLock(MCE);
    for (const Stmt *Child : S->children())
      walk(Child, BlockEnd);
  }

  void guard(const VarDecl *V, SourceLocation BlockEnd) {
    if (!V->hasLocalStorage() || V->getType()->isReferenceType())
      return;
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(made(V->getInit()));
    if (!CE || CE->getNumArgs() == 0)
      return;
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    SourceLocation Begin = SM.getExpansionLoc(V->getBeginLoc());
    if (isStd(RD, {"lock_guard", "scoped_lock"})) {
      for (const Expr *Arg : CE->arguments())
        if (lockable(recordOf(Arg->getType())))
          Out.push_back({Begin, BlockEnd, lockId(Arg)});
      return;
    }
    if (isStd(RD, {"unique_lock"})) {
      // defer_lock and try_to_lock do not hold the mutex for certain.
      if (CE->getNumArgs() > 1)
        if (const CXXRecordDecl *Tag = recordOf(CE->getArg(1)->getType());
            isStd(Tag, {"defer_lock_t", "try_to_lock_t"}))
          return;
      Out.push_back({Begin, BlockEnd, lockId(CE->getArg(0))});
      return;
    }
    if (isStd(RD, {"shared_lock"}) || RD->isInStdNamespace())
      return; // shared holders do not exclude each other
    // A project's own guard: constructed from a lockable object, released
    // when it goes.
    if (RD->hasNonTrivialDestructor() && lockable(recordOf(CE->getArg(0)->getType())))
      Out.push_back({Begin, BlockEnd, lockId(CE->getArg(0))});
  }

  void explicitLock(const CXXMemberCallExpr *MCE) {
    const CXXMethodDecl *M = MCE->getMethodDecl();
    if (!M || !M->getDeclName().isIdentifier())
      return;
    const Expr *Object = MCE->getImplicitObjectArgument();
    const CXXRecordDecl *RD = recordOf(Object->getType());
    if (!lockable(RD) || isStd(RD, {"unique_lock", "shared_lock"}))
      return;
    StringRef Name = M->getName();
    std::string Id = lockId(Object);
    SourceLocation At = SM.getExpansionLoc(MCE->getBeginLoc());
    if (Name == "lock" || Name == "Lock") {
      Pending.emplace(Id, At);
    } else if (Name == "unlock" || Name == "Unlock") {
      auto It = Pending.find(Id);
      if (It != Pending.end()) {
        Out.push_back({It->second, At, Id});
        Pending.erase(It);
      }
    }
  }

  /// The identity of a mutex across translation units: a global one by its
  /// name, a member by its class and field (every object's alike), a local
  /// one (shared with a thread's lambda by reference) by its place. Any
  /// other is "?": some lock, which may be the other side's.
  std::string lockId(const Expr *M) {
    M = M->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(M);
        UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
      M = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(M))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && !V->getType()->isReferenceType() &&
                                                             !V->getType()->isPointerType()) {
        if (V->hasGlobalStorage() && V->isExternallyVisible())
          return "var:" + plainQualifiedName(V);
        PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(V->getLocation()));
        return (Twine(V->hasGlobalStorage() ? "var:" : "local:") + (P.isValid() ? P.getFilename() : "?") +
                ":" + Twine(P.isValid() ? P.getLine() : 0) + ":" + plainQualifiedName(V))
            .str();
      }
    if (const auto *ME = dyn_cast<MemberExpr>(M))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
          FD && !FD->getType()->isReferenceType() && !FD->getType()->isPointerType())
        return "field:" + plainQualifiedName(FD);
    return "?";
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<LockRange> &Out;
  std::map<std::string, SourceLocation> Pending;
};

} // namespace

TUThreads::TUThreads(ASTContext &Ctx, ArrayRef<std::pair<std::string, unsigned>> Pools)
    : Ctx(Ctx), Pools(Pools.begin(), Pools.end()) {}
TUThreads::~TUThreads() = default;

ArrayRef<ThreadStart> TUThreads::starts() {
  if (!Starts) {
    Starts = std::make_unique<std::vector<ThreadStart>>();
    StartFinder(Ctx, Pools, *Starts).TraverseAST(Ctx);
  }
  return *Starts;
}

ArrayRef<LockRange> TUThreads::ranges(const FunctionDecl *F) {
  auto [It, New] = Ranges.try_emplace(F);
  if (New && F->getBody())
    LockWalker(Ctx, It->second).body(F->getBody());
  return It->second;
}

SmallVector<std::string, 1> TUThreads::locksAt(const FunctionDecl *F, SourceLocation Loc) {
  SmallVector<std::string, 1> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  for (const LockRange &R : ranges(F))
    if (!SM.isBeforeInTranslationUnit(Loc, R.Begin) && !SM.isBeforeInTranslationUnit(R.End, Loc) &&
        !is_contained(Out, R.Lock))
      Out.push_back(R.Lock);
  return Out;
}

} // namespace cuda_scope
