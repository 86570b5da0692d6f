//===- TUCallGraph.cpp - the per-TU call graph the host-API checks share --===//
#include "TUCallGraph.h"
#include "ProjectCode.h"
#include "PerTU.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SCCIterator.h"
#include <deque>

using namespace clang;
using namespace llvm;

namespace cuda_scope {
/// The call graph as llvm::scc_iterator walks it from one root, for
/// TUCallGraph::computeReach: a function's successors are the definitions it
/// transfers control to whose reach no earlier query has found.
struct ReachGraph {
  TUCallGraph *G;
  const FunctionDecl *Root;
  struct Node {
    TUCallGraph *G;
    const FunctionDecl *F;
    bool operator==(const Node &O) const { return F == O.F; }
    bool operator!=(const Node &O) const { return F != O.F; }
  };
  struct CalleeOf {
    TUCallGraph *G;
    Node operator()(const CallEdge &E) const { return {G, E.Callee}; }
  };
  struct Unfinished {
    bool operator()(const Node &N) const { return !N.G->reachKnown(N.F); }
  };
  using Callees = mapped_iterator<const CallEdge *, CalleeOf>;
  using Children = filter_iterator<Callees, Unfinished>;
  static iterator_range<Children> children(const Node &N) {
    const TUCallGraph::Summary *S = N.G->summary(N.F);
    const CallEdge *Begin = S ? S->Calls.begin() : nullptr, *End = S ? S->Calls.end() : nullptr;
    return make_filter_range(make_range(Callees(Begin, CalleeOf{N.G}), Callees(End, CalleeOf{N.G})),
                             Unfinished());
  }
};
} // namespace cuda_scope

namespace llvm {
template <> struct DenseMapInfo<cuda_scope::ReachGraph::Node> {
  using Node = cuda_scope::ReachGraph::Node;
  static Node getEmptyKey() { return {nullptr, DenseMapInfo<const clang::FunctionDecl *>::getEmptyKey()}; }
  static Node getTombstoneKey() { return {nullptr, DenseMapInfo<const clang::FunctionDecl *>::getTombstoneKey()}; }
  static unsigned getHashValue(const Node &N) { return DenseMapInfo<const clang::FunctionDecl *>::getHashValue(N.F); }
  static bool isEqual(const Node &A, const Node &B) { return A.F == B.F; }
};
template <> struct GraphTraits<cuda_scope::ReachGraph> {
  using NodeRef = cuda_scope::ReachGraph::Node;
  using ChildIteratorType = cuda_scope::ReachGraph::Children;
  static NodeRef getEntryNode(const cuda_scope::ReachGraph &R) { return {R.G, R.Root}; }
  static ChildIteratorType child_begin(NodeRef N) { return cuda_scope::ReachGraph::children(N).begin(); }
  static ChildIteratorType child_end(NodeRef N) { return cuda_scope::ReachGraph::children(N).end(); }
};
} // namespace llvm

namespace cuda_scope {

std::shared_ptr<TUCallGraph> TUCallGraph::get(ASTContext &Ctx) { return sharedPerTU<TUCallGraph>(Ctx); }

TUCallGraph::TUCallGraph(ASTContext &Ctx) : Ctx(Ctx) {}
TUCallGraph::~TUCallGraph() = default;

const FunctionDecl *TUCallGraph::definitionOf(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  return Def;
}

static StringRef identifierOf(const NamedDecl *D) {
  return D && D->getDeclName().isIdentifier() ? D->getName() : StringRef();
}

const FunctionDecl *TUCallGraph::resolveFunction(const Expr *E) {
  return definitionOf(namedFunction(E));
}

const FunctionDecl *TUCallGraph::namedFunction(const Expr *E) {
  // Few steps suffice for every form we accept; the bound stops cycles
  // through self-referential initializers.
  for (unsigned Step = 0; E && Step < 8; ++Step) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Plus || UO->getOpcode() == UO_Deref) {
        E = UO->getSubExpr();
        continue;
      }
      return nullptr;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
      return Lambda->capture_size() == 0 ? Lambda->getCallOperator() : nullptr;
    if (const auto *Conv = dyn_cast<CXXMemberCallExpr>(E)) {
      // A lambda's conversion to a function pointer.
      E = Conv->getImplicitObjectArgument();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        return FD;
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        E = VD->getAnyInitializer();
        continue;
      }
      return nullptr;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return dyn_cast<FunctionDecl>(ME->getMemberDecl());
    return nullptr;
  }
  return nullptr;
}

namespace {

/// The name a call goes by when it has no direct callee: the field or
/// variable holding the pointer ("syms->cuMemFree" is "cuMemFree").
StringRef pointerName(const Expr *Callee) {
  Callee = Callee->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Callee); UO && UO->getOpcode() == UO_Deref)
    Callee = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    return identifierOf(ME->getMemberDecl());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    return identifierOf(DRE->getDecl());
  return {};
}

/// Walks one function body and records what it does. Lambda bodies are
/// functions of their own and are summarised when something calls them.
class BodyWalker {
public:
  BodyWalker(ASTContext &Ctx, TUCallGraph::Summary &S,
             function_ref<ArrayRef<const CXXMethodDecl *>(const CXXMethodDecl *)> Overriders)
      : Ctx(Ctx), S(S), Overriders(Overriders) {}

  void walk(const Stmt *St) {
    if (!St)
      return;
    if (isa<LambdaExpr>(St))
      return;
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(St)) {
      S.Events.push_back({CudaEvent::KernelLaunch, K, identifierOf(K->getDirectCallee()), nullptr});
      // The launch configuration is the compiler's own call; skip it.
      for (const Expr *Arg : K->arguments())
        walk(Arg);
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(St))
      call(CE);
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(St))
      edge(CallEdge::Construct, Construct->getConstructor(), Construct->getBeginLoc());
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(St))
      edge(CallEdge::Destroy, Bind->getTemporary()->getDestructor(), Bind->getBeginLoc());
    else if (const auto *Del = dyn_cast<CXXDeleteExpr>(St))
      deleteExpr(Del);
    else if (const auto *New = dyn_cast<CXXNewExpr>(St))
      edge(CallEdge::Call, New->getOperatorNew(), New->getBeginLoc());
    else if (const auto *DS = dyn_cast<DeclStmt>(St))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasLocalStorage())
          destroyAtScopeExit(VD);
    for (const Stmt *Child : St->children())
      walk(Child);
  }

  void destructorBody(const CXXDestructorDecl *D) {
    const CXXRecordDecl *RD = D->getParent();
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        edge(CallEdge::Destroy, Base->getDestructor(), D->getLocation());
    for (const FieldDecl *FD : RD->fields())
      if (const CXXRecordDecl *Member = Ctx.getBaseElementType(FD->getType())->getAsCXXRecordDecl())
        edge(CallEdge::Destroy, Member->getDestructor(), FD->getLocation());
  }

private:
  void call(const CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee) {
      StringRef Name = pointerName(CE->getCallee());
      if (isCudaCallName(Name)) {
        CudaEvent Ev{CudaEvent::ApiCall, CE, normalizeApiName(Name), lookupCudaApi(Name)};
        Ev.ThroughPointer = true;
        S.Events.push_back(Ev);
      } else if (const FunctionDecl *Target = TUCallGraph::resolveFunction(CE->getCallee())) {
        edge(CallEdge::Pointer, Target, CE->getBeginLoc());
      }
      return;
    }
    StringRef Name = identifierOf(Callee);
    const FunctionDecl *Def = TUCallGraph::definitionOf(Callee);
    // The toolkit's own inline wrappers (the cudaMalloc<T> template) are the
    // API as far as a user is concerned.
    if (isCudaCallName(Name) &&
        (!Def || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))) {
      S.Events.push_back({CudaEvent::ApiCall, CE, normalizeApiName(Name), lookupCudaApi(Name)});
      return;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && MD->isVirtual() && !devirtualized(CE, MD)) {
      edge(CallEdge::Virtual, MD, CE->getBeginLoc());
      for (const CXXMethodDecl *O : Overriders(MD))
        edge(CallEdge::Virtual, O, CE->getBeginLoc());
      openCall(CE, MD, Name, /*Virtual=*/true);
      return;
    }
    if (Def)
      edge(CallEdge::Call, Def, CE->getBeginLoc(), CE);
    else
      openCall(CE, Callee, Name, /*Virtual=*/false);
  }

  /// A call whose body this TU does not hold all of: other files may.
  void openCall(const Expr *E, const FunctionDecl *Target, StringRef Name, bool Virtual) {
    if (Name.empty() && !Virtual)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    bool Library = !Virtual && (Target->getBuiltinID() != 0 ||
                                SM.isInSystemHeader(SM.getExpansionLoc(Target->getLocation())));
    CudaEvent Ev{Library ? CudaEvent::ExternalCall : CudaEvent::OpenCall, E, Name, nullptr};
    Ev.Target = Target;
    Ev.Virtual = Virtual;
    S.Events.push_back(Ev);
  }

  static bool devirtualized(const CallExpr *CE, const CXXMethodDecl *MD) {
    if (MD->hasAttr<FinalAttr>() || MD->getParent()->hasAttr<FinalAttr>())
      return true;
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
      if (const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens()))
        return ME->hasQualifier(); // Base::f() calls exactly Base::f
    return false;
  }

  void deleteExpr(const CXXDeleteExpr *Del) {
    QualType T = Del->getDestroyedType();
    if (!T.isNull())
      if (const CXXRecordDecl *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl())
        if (const CXXDestructorDecl *D = RD->getDestructor()) {
          edge(CallEdge::Delete, D, Del->getBeginLoc());
          if (D->isVirtual()) {
            for (const CXXMethodDecl *O : Overriders(D))
              edge(CallEdge::Delete, O, Del->getBeginLoc());
            openCall(Del, D, StringRef(), /*Virtual=*/true);
          }
        }
    edge(CallEdge::Call, Del->getOperatorDelete(), Del->getBeginLoc());
  }

  void destroyAtScopeExit(const VarDecl *VD) {
    QualType T = VD->getType();
    if (T->isReferenceType())
      return;
    if (const CXXRecordDecl *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl())
      edge(CallEdge::Destroy, RD->getDestructor(), VD->getLocation());
  }

  void edge(CallEdge::Kind How, const FunctionDecl *Callee, SourceLocation Loc, const Expr *Site = nullptr) {
    if (const FunctionDecl *Def = TUCallGraph::definitionOf(Callee))
      S.Calls.push_back({How, Def, Loc, Site});
  }

  ASTContext &Ctx;
  TUCallGraph::Summary &S;
  function_ref<ArrayRef<const CXXMethodDecl *>(const CXXMethodDecl *)> Overriders;
};

bool isHostNodeParams(const RecordDecl *RD) {
  StringRef Name = identifierOf(RD);
  return Name.starts_with("cudaHostNodeParams") || Name.starts_with("CUDA_HOST_NODE_PARAMS");
}

/// Finds every registration of a host callback in the TU.
class RegistrationFinder : public ProjectCodeVisitor<RegistrationFinder> {
public:
  RegistrationFinder(const SourceManager &SM, std::vector<Registration> &Out) : ProjectCodeVisitor(SM), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  // The semantic form of a designated initializer list is implicit code.
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitCallExpr(const CallExpr *CE) {
    StringRef Name = CE->getDirectCallee() ? identifierOf(CE->getDirectCallee()) : pointerName(CE->getCallee());
    const CudaApiInfo *Api = lookupCudaApi(Name);
    if (!Api || Api->Callback != CallbackForm::Function || Api->CallbackArg < 0 ||
        static_cast<unsigned>(Api->CallbackArg) >= CE->getNumArgs())
      return true;
    const Expr *Arg = CE->getArg(Api->CallbackArg);
    if (const FunctionDecl *F = TUCallGraph::namedFunction(Arg))
      Out.push_back({F, Arg, Api->Name});
    return true;
  }

  bool VisitBinaryOperator(const BinaryOperator *BO) {
    if (BO->getOpcode() != BO_Assign)
      return true;
    const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (!ME)
      return true;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (FD && FD->getName() == "fn" && isHostNodeParams(FD->getParent()))
      add(BO->getRHS(), FD->getParent());
    return true;
  }

  bool VisitInitListExpr(const InitListExpr *ILE) {
    // A list with designators has a syntactic and a semantic form; read the
    // semantic one, whose inits follow the field order.
    if (!ILE->isSemanticForm() && ILE->getSemanticForm())
      return true;
    const RecordDecl *RD = ILE->getType()->getAsRecordDecl();
    if (RD)
      RD = RD->getDefinition();
    if (!RD || !isHostNodeParams(RD))
      return true;
    unsigned Index = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (Index >= ILE->getNumInits())
        break;
      if (FD->getName() == "fn")
        add(ILE->getInit(Index), RD);
      ++Index;
    }
    return true;
  }

private:
  void add(const Expr *E, const RecordDecl *RD) {
    if (const FunctionDecl *F = TUCallGraph::namedFunction(E))
      Out.push_back({F, E, RD->getName().starts_with("cuda") ? "cudaHostNodeParams::fn"
                                                              : "CUDA_HOST_NODE_PARAMS::fn"});
  }
  std::vector<Registration> &Out;
};

class OverrideCollector : public ProjectCodeVisitor<OverrideCollector> {
public:
  using Map = DenseMap<const CXXMethodDecl *, SmallVector<const CXXMethodDecl *, 2>>;
  OverrideCollector(const SourceManager &SM, Map &M) : ProjectCodeVisitor(SM), M(M) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCXXMethodDecl(const CXXMethodDecl *MD) {
    if (!MD->isVirtual() || !TUCallGraph::definitionOf(MD))
      return true;
    SmallVector<const CXXMethodDecl *, 4> Work(MD->overridden_methods());
    DenseSet<const CXXMethodDecl *> Seen;
    while (!Work.empty()) {
      const CXXMethodDecl *O = Work.pop_back_val()->getCanonicalDecl();
      if (!Seen.insert(O).second)
        continue;
      M[O].push_back(cast<CXXMethodDecl>(TUCallGraph::definitionOf(MD)));
      for (const CXXMethodDecl *Up : O->overridden_methods())
        Work.push_back(Up);
    }
    return true;
  }

private:
  Map &M;
};

} // namespace

ArrayRef<const CXXMethodDecl *> TUCallGraph::overriders(const CXXMethodDecl *M) {
  if (!Overriders) {
    Overriders = std::make_unique<OverrideCollector::Map>();
    OverrideCollector(Ctx.getSourceManager(), *Overriders).TraverseAST(Ctx);
  }
  auto It = Overriders->find(M->getCanonicalDecl());
  return It == Overriders->end() ? ArrayRef<const CXXMethodDecl *>() : It->second;
}

ArrayRef<Registration> TUCallGraph::registrations() {
  if (!Registrations) {
    std::vector<Registration> All;
    RegistrationFinder(Ctx.getSourceManager(), All).TraverseAST(Ctx);
    Registrations = std::make_unique<std::vector<Registration>>();
    OpenRegistrations = std::make_unique<std::vector<Registration>>();
    for (Registration &R : All) {
      if (const FunctionDecl *Def = definitionOf(R.Callback))
        Registrations->push_back({Def, R.Site, R.Registrar});
      else
        OpenRegistrations->push_back(R);
    }
  }
  return *Registrations;
}

ArrayRef<Registration> TUCallGraph::openRegistrations() {
  (void)registrations(); // builds both lists
  return *OpenRegistrations;
}

void TUCallGraph::summarize(const FunctionDecl *F, Summary &S) {
  auto Overriders = [this](const CXXMethodDecl *M) { return overriders(M); };
  BodyWalker W(Ctx, S, Overriders);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      W.walk(Init->getInit());
  W.walk(F->getBody());
  if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(F))
    W.destructorBody(Dtor);
}

const TUCallGraph::Summary *TUCallGraph::summary(const FunctionDecl *F) {
  auto It = Summaries.find(F);
  if (It != Summaries.end())
    return It->second.get();
  if (!F || !F->hasBody())
    return nullptr;
  auto S = std::make_unique<Summary>();
  Summary *Raw = S.get();
  Summaries[F] = std::move(S);
  summarize(F, *Raw);
  return Raw;
}

void TUCallGraph::computeReach(const FunctionDecl *Root) {
  if (Reach.count(Root))
    return;
  // Components come bottom-up, callees' before their callers', and
  // scc_iterator keeps its own stack, so call chains thousands deep and
  // recursion cost no native stack. Each component gets the union of its
  // members' events and of the components below it; a component an earlier
  // query finished is a leaf here (ReachGraph leaves it out of the walk).
  for (auto Component = scc_begin(ReachGraph{this, Root}); !Component.isAtEnd(); ++Component) {
    unsigned Mask = 0;
    for (ReachGraph::Node M : *Component)
      if (const Summary *MS = summary(M.F)) {
        for (const CudaEvent &E : MS->Events)
          Mask |= E.mask();
        for (const CallEdge &E : MS->Calls)
          if (auto R = Reach.find(E.Callee); R != Reach.end())
            Mask |= R->second;
      }
    for (ReachGraph::Node M : *Component)
      Reach[M.F] = Mask;
  }
}

unsigned TUCallGraph::reachableEvents(const FunctionDecl *F) {
  computeReach(F);
  return Reach.lookup(F);
}

void TUCallGraph::forEachReachable(const FunctionDecl *Root, unsigned Mask,
                                   function_ref<bool(const CudaEvent &)> Want,
                                   function_ref<void(const Path &)> Visit) {
  if (!(reachableEvents(Root) & Mask))
    return;
  DenseMap<const FunctionDecl *, std::pair<const FunctionDecl *, const CallEdge *>> Parent;
  std::deque<const FunctionDecl *> Queue{Root};
  Parent[Root] = {nullptr, nullptr};
  while (!Queue.empty()) {
    const FunctionDecl *F = Queue.front();
    Queue.pop_front();
    const Summary *S = summary(F);
    if (!S)
      continue;
    for (const CudaEvent &E : S->Events) {
      if (!(E.mask() & Mask) || !Want(E))
        continue;
      Path P{&E, F, {}};
      for (const FunctionDecl *At = F; Parent[At].second; At = Parent[At].first)
        P.Chain.push_back(Parent[At].second);
      std::reverse(P.Chain.begin(), P.Chain.end());
      Visit(P);
    }
    for (const CallEdge &E : S->Calls) {
      if (Parent.count(E.Callee) || !(reachableEvents(E.Callee) & Mask))
        continue;
      Parent[E.Callee] = {F, &E};
      Queue.push_back(E.Callee);
    }
  }
}

} // namespace cuda_scope
