//===- KernelLaunches.cpp - how the translation unit launches its kernels -===//
#include "KernelLaunches.h"
#include "ProjectCode.h"
#include "PerTU.h"
#include "TUCallGraph.h"
#include "CheckUtils.h"
#include "model/CudaApi.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "clang/Basic/FileManager.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

bool isOneBlockGrid(const Expr *Grid, const ASTContext &Ctx) {
  for (unsigned Step = 0; Grid && Step < 8; ++Step) {
    Grid = stripWrappers(Grid);
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Grid)) {
      Grid = FC->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Grid)) {
      if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor()) {
        Grid = Construct->getArg(0);
        continue;
      }
      return Construct->getNumArgs() > 0 && all_of(Construct->arguments(), [&](const Expr *A) {
               return constantInt(A, Ctx) == 1;
             });
    }
    return constantInt(Grid, Ctx) == 1;
  }
  return false;
}


namespace {

/// What a launch's grid is computed from, by the host function's code:
/// bounded by residency where any part of it is an occupancy query or the
/// SM count (CudaApi.def's RESIDENCY rows); grown with the input where
/// arithmetic (n / 256 + 1, divUp(n, 256), dim3(n / 32)) takes a value the
/// program has at run time (a parameter, a field, a call's result, a
/// variable of the program); unknown otherwise: constants, or a value
/// passed in as the grid, which its caller decides.
class GridOrigin {
public:
  GridOrigin(const FunctionDecl *In, const ASTContext &Ctx) : In(In), Ctx(Ctx) {}

  /// Fills \p S's Grid, GrowsWith and Divides.
  void of(const Expr *Grid, KernelLaunches::Site &S) {
    visit(Grid, /*Arith=*/false, 0);
    S.Grid = Residency ? GridSize::Residency : !Input.empty() ? GridSize::Input : GridSize::Unknown;
    S.GrowsWith = S.Grid == GridSize::Input ? Input : "";
    S.Divides = S.Grid == GridSize::Input && Divides;
  }

private:
  const FunctionDecl *In;
  const ASTContext &Ctx;
  bool Residency = false;
  std::string Input;
  /// A division (or a shift right, or a function named for one: divUp,
  /// ceil_div) on the way: the grid shares something out among its blocks.
  bool Divides = false;
  /// Input names the value as the program holds it (a parameter, a field,
  /// v.size()), not an argument of the call that computed it.
  bool Named = false;
  bool InCallArguments = false;
  DenseSet<const VarDecl *> Followed;

  void runtimeValue(const Expr *E, bool Arith) {
    if (!Arith || !Input.empty())
      return;
    Named = !InCallArguments;
    SourceRange R = E->getSourceRange();
    const SourceManager &SM = Ctx.getSourceManager();
    Input = Lexer::getSourceText(CharSourceRange::getTokenRange(SM.getExpansionRange(R).getAsRange()), SM,
                                 Ctx.getLangOpts())
                .str();
    if (Input.empty() || Input.size() > 40)
      Input = "the input";
  }

  void visit(const Expr *E, bool Arith, unsigned Depth) {
    if (!E || Depth > 8 || Residency)
      return;
    E = E->IgnoreParenImpCasts();
    if (E->isValueDependent() || E->isTypeDependent())
      return;
    if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr, UnaryExprOrTypeTraitExpr>(E))
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (isa<EnumConstantDecl>(D)) {
        if (residencyName(D->getName()) == ResidencyName::Enumerator)
          Residency = true;
        return;
      }
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        return;
      if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage()) {
        // A constant of the program is a constant; anything else is the input.
        if (VD->getType().isConstQualified() && VD->getInit() && !isa<ParmVarDecl>(VD))
          return visit(VD->getInit(), Arith, Depth + 1);
        return runtimeValue(E, Arith);
      }
      if (!Followed.insert(VD).second)
        return;
      // Named by the variable the launch reads, not by what it came from.
      // Where the value comes from a call's arguments (n = parse(argv)),
      // it is named by the variable that holds it.
      bool Before = Input.empty();
      local(VD, Arith, Depth);
      if (Before && !Input.empty() && !Named) {
        Input = VD->getName().str();
        Named = true;
      }
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (residencyName(ME->getMemberDecl()->getName()) == ResidencyName::Field) {
        Residency = true;
        return;
      }
      // dim3's x, y, z are the grid variable's own; any other field is a
      // value the program holds.
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (const auto *Rec = Base->getType()->getAsCXXRecordDecl(); Rec && Rec->getName() == "dim3")
        return visit(Base, Arith, Depth + 1);
      return runtimeValue(E, Arith);
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (FD && FD->getDeclName().isIdentifier() && residencyName(FD->getName()) == ResidencyName::Api) {
        Residency = true;
        return;
      }
      // Named for a division: divUp, iDivUp, ceil_div, cdiv, div_round_up
      // (not individual(), dividend()).
      if (FD && FD->getDeclName().isIdentifier()) {
        std::string Name = FD->getName().lower();
        llvm::erase(Name, '_');
        StringRef N(Name);
        if (N.ends_with("div") || N.starts_with("divup") || N.starts_with("divround") || N.starts_with("divide") ||
            N.contains("divup") || N.contains("ceildiv"))
          Divides = true;
      }
      // A method's result (v.size()) is the object's; a function's (divUp,
      // std::min) is computed from its arguments.
      if (isa<CXXMemberCallExpr>(CE))
        return runtimeValue(E, Arith);
      bool Saved = InCallArguments;
      InCallArguments = true;
      for (const Expr *Arg : CE->arguments())
        visit(Arg, true, Depth + 1);
      InCallArguments = Saved;
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      bool Math = BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp();
      if (BO->getOpcode() == BO_Div || BO->getOpcode() == BO_Shr || BO->getOpcode() == BO_DivAssign ||
          BO->getOpcode() == BO_ShrAssign)
        Divides = true;
      visit(BO->getLHS(), Arith || Math, Depth + 1);
      visit(BO->getRHS(), Arith || Math, Depth + 1);
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *C = dyn_cast_or_null<Expr>(Child))
        visit(C, Arith, Depth + 1);
  }

  /// A local: its initializer, what is assigned to it or its fields, and
  /// the calls it is handed to by address (an occupancy query's output).
  void local(const VarDecl *V, bool Arith, unsigned Depth) {
    visit(V->getInit(), Arith, Depth + 1);
    if (!In || !In->hasBody())
      return;
    struct Uses : RecursiveASTVisitor<Uses> {
      const VarDecl *V;
      SmallVector<const Expr *, 4> Assigned;
      SmallVector<const CallExpr *, 2> HandedTo;
      bool refersToV(const Expr *E) {
        E = E->IgnoreParenImpCasts();
        if (const auto *ME = dyn_cast<MemberExpr>(E))
          return refersToV(ME->getBase());
        const auto *DRE = dyn_cast<DeclRefExpr>(E);
        return DRE && DRE->getDecl() == V;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (BO->isAssignmentOp() && refersToV(BO->getLHS()))
          Assigned.push_back(BO->getRHS());
        return true;
      }
      bool VisitCallExpr(CallExpr *CE) {
        for (const Expr *Arg : CE->arguments())
          if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
              UO && UO->getOpcode() == UO_AddrOf && refersToV(UO->getSubExpr()))
            HandedTo.push_back(CE);
        return true;
      }
    } U;
    U.V = V;
    U.TraverseStmt(In->getBody());
    for (const Expr *A : U.Assigned)
      visit(A, Arith, Depth + 1);
    for (const CallExpr *CE : U.HandedTo)
      if (const FunctionDecl *FD = CE->getDirectCallee();
          FD && FD->getDeclName().isIdentifier() && residencyName(FD->getName()) == ResidencyName::Api)
        Residency = true;
      else
        for (const Expr *Arg : CE->arguments()) // the attribute a query names
          if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
              DRE && isa<EnumConstantDecl>(DRE->getDecl()) &&
              residencyName(DRE->getDecl()->getName()) == ResidencyName::Enumerator)
            Residency = true;
  }
};

class LaunchFinder : public ProjectCodeVisitor<LaunchFinder> {
public:
  using Map = MapVector<const FunctionDecl *, KernelLaunches::Kernel>;
  LaunchFinder(const ASTContext &Ctx, Map &Out) : ProjectCodeVisitor(Ctx.getSourceManager()), Ctx(Ctx), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  // A library's own launches (CUB's, Thrust's) are of its own kernels: the
  // system headers are not walked (they are most of a CUDA file's AST).
  bool TraverseDecl(Decl *D) {
    // The function whose code a launch is in: its grid is computed there.
    const FunctionDecl *Outer = Current;
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D); FD && FD->doesThisDeclarationHaveABody())
      Current = FD;
    bool Go = ProjectCodeVisitor<LaunchFinder>::TraverseDecl(D);
    Current = Outer;
    return Go;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
    const FunctionDecl *F = K->getDirectCallee();
    if (!F)
      return true;
    KernelLaunches::Kernel &Info = Out[F->getCanonicalDecl()];
    ++Info.Launches;
    Info.Sites.push_back({K, TripleChevronLaunch, LaunchForm::Plain, GridSize::Unknown, ""});
    const CallExpr *Config = K->getConfig();
    if (Config && Config->getNumArgs() > 0)
      GridOrigin(Current, Ctx).of(Config->getArg(0), Info.Sites.back());
    if (Config && Config->getNumArgs() > 0 && isOneBlockGrid(Config->getArg(0), Ctx))
      ++Info.OneBlock;
    if (Config && Config->getNumArgs() > 3 && onStreamOfSeveral(Config->getArg(3)))
      Info.Overlaps = true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(K->getCallee()->IgnoreParenImpCasts()))
      NotEscaping.insert(DRE);
    return true;
  }
  // A kernel handed to an API that only reads its attributes
  // (cudaFuncGetAttributes, cudaOccupancy...) is not launched there.
  bool VisitCallExpr(CallExpr *CE) {
    const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return true;
    // A launch through the runtime: the kernel is its argument, which still
    // escapes (the grid is not read here, so one-block stays unknown).
    if (const LaunchApiInfo *L = lookupLaunchApi(Callee->getName())) {
      if (L->KernelArg >= 0 && static_cast<unsigned>(L->KernelArg) < CE->getNumArgs())
        if (const FunctionDecl *F = TUCallGraph::namedFunction(CE->getArg(L->KernelArg)))
          if (F->hasAttr<CUDAGlobalAttr>()) {
            KernelLaunches::Site Site{CE, L->Name, L->Form, GridSize::Unknown, ""};
            if (L->GridArg >= 0 && static_cast<unsigned>(L->GridArg) < CE->getNumArgs())
              GridOrigin(Current, Ctx).of(CE->getArg(L->GridArg), Site);
            Out[F->getCanonicalDecl()].Sites.push_back(std::move(Site));
          }
      return true;
    }
    if (!readsKernelAttributesOnly(Callee->getName()))
      return true;
    for (const Expr *Arg : CE->arguments())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts()))
        NotEscaping.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl());
    if (F && F->hasAttr<CUDAGlobalAttr>())
      References.push_back(DRE);
    if (const auto *E = dyn_cast<EnumConstantDecl>(DRE->getDecl()); E && isCooperativeAttribute(E->getName()))
      AsksCooperation = true;
    return true;
  }
  // A graph's kernel node: its parameters' func set to a kernel
  // (params.func = (void *)kernel). Each launch of the graph runs it.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    const auto *ME = BO->getOpcode() == BO_Assign ? dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()) : nullptr;
    const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!Field || !Field->getDeclName().isIdentifier() || !Field->getParent()->getDeclName().isIdentifier() ||
        !isGraphKernelNodeFunc(Field->getParent()->getName(), Field->getName()))
      return true;
    if (const FunctionDecl *F = TUCallGraph::namedFunction(BO->getRHS()); F && F->hasAttr<CUDAGlobalAttr>()) {
      KernelLaunches::Kernel &Info = Out[F->getCanonicalDecl()];
      ++Info.Launches;
      Info.Sites.push_back({BO, GraphKernelNodeLaunch, LaunchForm::Plain, GridSize::Unknown, ""});
      GraphNodes.push_back({F->getCanonicalDecl(), Info.Sites.size() - 1});
    }
    return true;
  }

  void finish() {
    // A file that asks for cooperation by attribute may ask it of its graph
    // nodes (cudaGraphKernelNodeSetAttribute): which node is not followed,
    // so none of them is taken as plain.
    if (AsksCooperation)
      for (const auto &[F, I] : GraphNodes)
        Out[F].Sites[I].Form = LaunchForm::Attributes;
    // Visited before their call is (the callee of a call is its child), so
    // decided at the end.
    for (const DeclRefExpr *DRE : References)
      if (!NotEscaping.count(DRE))
        Out[cast<FunctionDecl>(DRE->getDecl())->getCanonicalDecl()].Escapes = true;
  }

private:
  /// The launch's stream is an element of several, picked at run time
  /// (streams[i], streams.at(i) aside): launches of one kernel made so may
  /// run at once, one grid on each stream.
  bool onStreamOfSeveral(const Expr *Stream) const {
    if (isa<CXXDefaultArgExpr>(Stream))
      return false;
    Stream = Stream->IgnoreParenImpCasts();
    const Expr *Index = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Stream))
      Index = AS->getIdx();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Stream);
             OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      Index = OC->getArg(1);
    return Index && !Index->isValueDependent() && !Index->isIntegerConstantExpr(Ctx);
  }

  const ASTContext &Ctx;
  Map &Out;
  const FunctionDecl *Current = nullptr;
  DenseSet<const DeclRefExpr *> NotEscaping;
  std::vector<const DeclRefExpr *> References;
  bool AsksCooperation = false;
  std::vector<std::pair<const FunctionDecl *, size_t>> GraphNodes;
};

} // namespace

std::shared_ptr<KernelLaunches> KernelLaunches::get(ASTContext &Ctx) { return sharedPerTU<KernelLaunches>(Ctx); }

KernelLaunches::KernelLaunches(ASTContext &Ctx) : Ctx(Ctx) {}

const MapVector<const FunctionDecl *, KernelLaunches::Kernel> &KernelLaunches::kernels() {
  if (!Found) {
    Found = std::make_unique<MapVector<const FunctionDecl *, Kernel>>();
    LaunchFinder LF(Ctx, *Found);
    LF.TraverseAST(Ctx);
    LF.finish();
  }
  return *Found;
}

std::string launchPlace(StringRef File, unsigned Line, FileManager &FM) {
  SmallString<256> Path(File);
  FM.makeAbsolutePath(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return (Path + ":" + Twine(Line)).str();
}

KernelLaunches::Kernel KernelLaunches::of(const FunctionDecl *F) {
  return kernels().lookup(F->getCanonicalDecl());
}

} // namespace cuda_scope
