//===- CaptureApiCheck.cpp - calls that break or escape a stream capture --===//
//
// A capture region is a set of paths through one function's CFG, from a
// begin-capture call to the end on the same stream. A forward may-dataflow
// over the CFG tracks which captures may be open at each call, in which mode,
// and whether the thread's capture mode was exchanged to relaxed; each call
// made while a capture may be open is classified with the API table, directly
// or through the functions the TU defines (TUCallGraph).
//
//===----------------------------------------------------------------------===//
#include "CaptureApiCheck.h"
#include "CheckUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include <deque>
#include <functional>
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

static constexpr StringRef SafeAnnotation = "cuda-scope:capture-safe";

namespace {

// The matcher macros define Finder and Builder parameters these predicates
// do not need.
AST_MATCHER_P(NamedDecl, beginsCaptureFor, const CaptureApiCheck *, Check) {
  (void)Finder;
  (void)Builder;
  return Check->beginsCapture(&Node);
}
AST_MATCHER(NamedDecl, createsStreamDecl) {
  (void)Finder;
  (void)Builder;
  return CaptureApiCheck::createsStream(&Node);
}
AST_MATCHER_P(FunctionDecl, declaredCaptureSafe, const CaptureApiCheck *, Check) {
  (void)Finder;
  (void)Builder;
  return Check->captureSafeDecl(&Node) != nullptr;
}


/// The name a call goes by: its callee's, or the pointer's it is made through.
StringRef calleeName(const CallExpr *CE) {
  if (const auto *ND = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl()))
    return identifierOf(ND);
  return {};
}

const Expr *argOrNull(const CallExpr *CE, int Index) {
  return Index >= 0 && static_cast<unsigned>(Index) < CE->getNumArgs() ? CE->getArg(Index)
                                                                       : nullptr;
}

std::optional<int64_t> constantValue(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The variable or field a stream expression names: s, &s, obj.s, s[i].
const Decl *identityDecl(const Expr *E) {
  for (unsigned Step = 0; E && Step < 8; ++Step) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl()->getCanonicalDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl()->getCanonicalDecl();
    return nullptr;
  }
  return nullptr;
}

/// 0, NULL, nullptr, a defaulted stream argument, or cudaStreamLegacy /
/// CU_STREAM_LEGACY, which the headers spell ((cudaStream_t)0x1).
/// cudaStreamPerThread / CU_STREAM_PER_THREAD, which the headers spell
/// ((cudaStream_t)0x2).
bool isPerThreadStream(const Expr *A) {
  if (!A)
    return false;
  const auto *IL = dyn_cast<IntegerLiteral>(A->IgnoreParenCasts());
  return IL && IL->getValue() == 2;
}

/// A stream key with a subscript by a local integer (Streams[I]): each pass of
/// a loop over I names another element (streamKey writes it "[v<name>]").
bool indexedByLocal(StringRef Key) { return Key.contains("[v"); }

bool isLegacyStream(const Expr *A) {
  if (!A)
    return false;
  A = A->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(A))
    A = D->getExpr();
  A = A->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(A))
    return true;
  if (const auto *IL = dyn_cast<IntegerLiteral>(A))
    return IL->getValue() == 0 || IL->getValue() == 1;
  return false;
}

bool launchIsOnLegacyStream(const Expr *E) {
  const auto *K = dyn_cast<CUDAKernelCallExpr>(E);
  if (!K || !K->getConfig())
    return false;
  const CallExpr *Config = K->getConfig();
  return Config->getNumArgs() < 4 || isLegacyStream(Config->getArg(3));
}

bool exitsScope(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && exitsScope(CS->body_back());
  return false;
}

/// Whether a condition's value tells that the stream is not capturing.
enum class NotCapturing : uint8_t { Unknown, IfTrue, IfFalse };
NotCapturing flip(NotCapturing N) {
  return N == NotCapturing::IfTrue    ? NotCapturing::IfFalse
         : N == NotCapturing::IfFalse ? NotCapturing::IfTrue
                                      : N;
}

enum class CaptureMode : uint8_t { Global, ThreadLocal, Relaxed };

enum class Finding : uint8_t { None, Unsafe, Sync, Unsupported, Legacy };

struct ErrorNames {
  StringRef Unsupported, Implicit, CapturedEvent, End, WaitEvent, HostFunc;
};
const ErrorNames &errorNames(ApiFamily F) {
  static const ErrorNames Runtime{"cudaErrorStreamCaptureUnsupported",
                                  "cudaErrorStreamCaptureImplicit",
                                  "cudaErrorCapturedEvent",
                                  "cudaStreamEndCapture",
                                  "cudaStreamWaitEvent",
                                  "cudaLaunchHostFunc"};
  static const ErrorNames Driver{"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
                                 "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
                                 "CUDA_ERROR_CAPTURED_EVENT",
                                 "cuStreamEndCapture",
                                 "cuStreamWaitEvent",
                                 "cuLaunchHostFunc"};
  return F == ApiFamily::Driver ? Driver : Runtime;
}

} // namespace

CaptureApiCheck::CaptureApiCheck(StringRef Name, tidy::ClangTidyContext *Ctx)
    : ClangTidyCheck(Name, Ctx),
      AllowedFunctionsOption(Options.get("AllowedFunctions", StatelessApiFunctions).str()),
      BeginOption(Options.get("BeginCaptureFunctions", "").str()),
      EndOption(Options.get("EndCaptureFunctions", "").str()),
      SafeOption(Options.get("CaptureSafeFunctions", "").str()),
      FactsFileOption(Options.getLocalOrGlobal("FactsFile", "").str()),
      ThreadFunctionsOption(Options.getLocalOrGlobal("ThreadFunctions", "").str()) {
  ThreadFunctions = threadFunctionsOption(*this, ThreadFunctionsOption, Name);
  for (const std::string &F : splitList(AllowedFunctionsOption))
    Allowed.insert(F);
  auto Wrappers = [&](StringRef Option, StringRef Value, std::vector<Wrapper> &Out) {
    std::vector<std::string> Bad;
    for (auto &[Fn, Arg] : parseNameIndexList(Value, Bad))
      Out.push_back({Fn, Arg});
    for (const std::string &B : Bad)
      configurationDiag("invalid entry '%0' in option '%1' of check '%2': expected "
                        "'function:stream-argument-index'",
                        DiagnosticIDs::Error)
          << B << Option << Name;
  };
  Wrappers("BeginCaptureFunctions", BeginOption, BeginWrappers);
  Wrappers("EndCaptureFunctions", EndOption, EndWrappers);
  for (const std::string &P : splitList(SafeOption)) {
    if (isFunctionPattern(P))
      SafePatterns.push_back(P);
    else
      configurationDiag(
          "invalid entry '%0' in option 'CaptureSafeFunctions' of check '%1': expected a "
          "function name, qualified or not, optionally ending in '*'",
          DiagnosticIDs::Error)
          << P << Name;
  }
}

void CaptureApiCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowedFunctions", AllowedFunctionsOption);
  Options.store(Opts, "BeginCaptureFunctions", BeginOption);
  Options.store(Opts, "EndCaptureFunctions", EndOption);
  Options.store(Opts, "CaptureSafeFunctions", SafeOption);
  Options.store(Opts, "FactsFile", FactsFileOption);
  Options.store(Opts, "ThreadFunctions", ThreadFunctionsOption);
}

bool CaptureApiCheck::beginsCapture(const NamedDecl *Callee) const {
  StringRef Name = identifierOf(Callee);
  if (Name.empty())
    return false;
  if (const CudaApiInfo *Api = lookupCudaApi(Name);
      Api && Api->Capture == CaptureEffect::BeginCapture)
    return true;
  return any_of(BeginWrappers,
                [&](const Wrapper &W) { return matchesFunctionName(Callee, W.Name); });
}

bool CaptureApiCheck::createsStream(const NamedDecl *Callee) {
  const CudaApiInfo *Api = lookupCudaApi(identifierOf(Callee));
  return Api && Api->Capture == CaptureEffect::CreateStream;
}

const Decl *CaptureApiCheck::captureSafeDecl(const FunctionDecl *F) const {
  for (const FunctionDecl *R : F->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == SafeAnnotation)
        return R;
  for (const std::string &P : SafePatterns)
    if (matchesFunctionName(F, P))
      return F;
  return nullptr;
}

void CaptureApiCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  const auto Begins = callee(namedDecl(beginsCaptureFor(this)));
  // A call that begins a capture, or a call to a function that does (a
  // wrapper, recognised when the region is analysed).
  const auto BeginCall =
      callExpr(anyOf(Begins, callee(functionDecl(hasBody(hasDescendant(callExpr(Begins)))))));
  // Capture regions in system headers would be reported nowhere.
  Finder->addMatcher(functionDecl(isDefinition(), unless(isExpansionInSystemHeader()),
                                  hasBody(hasDescendant(BeginCall)))
                         .bind("region"),
                     this);
  Finder->addMatcher(functionDecl(isDefinition(), declaredCaptureSafe(this)).bind("safe"), this);
  Finder->addMatcher(callExpr(callee(namedDecl(createsStreamDecl()))).bind("create"), this);
}

void CaptureApiCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu")) {
    Graph = TUCallGraph::get(*Result.Context);
    Facts = TUFacts::get(*Result.Context);
    Facts->configure(FactsFileOption, ThreadFunctions);
    Roots.clear();
    RootSet.clear();
    Contracts.clear();
    Created.clear();
    return;
  }
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("create")) {
    const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
    const CudaApiInfo *Api = lookupCudaApi(identifierOf(Callee));
    const Decl *Stream = Api ? identityDecl(argOrNull(CE, Api->StreamArg)) : nullptr;
    if (!Stream)
      return;
    StreamFlags Flags = StreamFlags::Blocking;
    if (Api->ModeArg >= 0) {
      std::optional<int64_t> V = constantValue(argOrNull(CE, Api->ModeArg), *Result.Context);
      // cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are both 0x1.
      Flags = !V         ? StreamFlags::Unknown
              : (*V & 1) ? StreamFlags::NonBlocking
                         : StreamFlags::Blocking;
    }
    auto [It, New] = Created.try_emplace(Stream, Flags);
    if (!New && It->second != Flags)
      It->second = StreamFlags::Unknown;
    return;
  }
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("region");
  const auto *Safe = Result.Nodes.getNodeAs<FunctionDecl>("safe");
  if (Safe)
    F = Safe;
  if (!F || F->isDependentContext() || !F->hasBody())
    return;
  if (Safe)
    Contracts[F] = captureSafeDecl(F);
  if (RootSet.insert(F).second)
    Roots.push_back(F);
}

//===----------------------------------------------------------------------===//
// The analysis of one translation unit's roots
//===----------------------------------------------------------------------===//

class CaptureApiCheck::Analysis {
public:
  Analysis(CaptureApiCheck &Check, TUCallGraph &Graph, TUFacts *Program)
      : Check(Check), Graph(Graph), Ctx(Graph.context()), SM(Ctx.getSourceManager()),
        Program(Program) {}

  void root(const FunctionDecl *F, const Decl *Contract) {
    if (!analyse(F, Purpose::Check, Contract) && Contract)
      contractWithoutCfg(F, Contract);
  }

  /// For the whole program (TUFacts): what each function other files can
  /// call reaches here that breaks or escapes a capture, and the calls that
  /// leave the file.
  void exportFacts();

private:
  enum class Purpose : uint8_t { Check, CollectRelaxed };

  struct Capture {
    const Expr *Begin = nullptr; ///< null: the capture a capture-safe function assumes
    std::string Key, Name;
    CaptureMode Mode = CaptureMode::Global;
    StreamFlags Flags = StreamFlags::Unknown;
    SmallVector<std::pair<const void *, bool>, 2> Facts; ///< conditions known when it began
  };

  struct State {
    bool Reached = false;
    bool Relaxed = false; ///< the thread's mode was exchanged to relaxed
    SmallVector<unsigned, 2> Open;
    SmallVector<std::pair<const VarDecl *, int64_t>, 2> Values;
    /// Conditions known true or false here: a flag (its declaration) or a
    /// comparison of one with a constant (an interned key).
    SmallVector<std::pair<const void *, bool>, 2> Facts;
    /// The variables that hold a begin's status (capture id) on every path
    /// here: a later assignment makes the variable another call's status.
    SmallVector<std::pair<const VarDecl *, unsigned>, 1> StatusOf;
    bool operator==(const State &O) const {
      return Reached == O.Reached && Relaxed == O.Relaxed && Open == O.Open && Values == O.Values &&
             Facts == O.Facts && StatusOf == O.StatusOf;
    }
  };

  /// What the check remembers about a function it reached.
  struct FunctionFacts {
    bool GuardsDone = false, RelaxedDone = false;
    DenseSet<const VarDecl *> StatusVars;
    DenseMap<const VarDecl *, NotCapturing> Flags;
    SmallVector<std::pair<SourceLocation, SourceLocation>, 2> Guarded;
    DenseSet<const Expr *> RelaxedExprs;
    DenseSet<SourceLocation> RelaxedLocs;
  };

  /// A call that begins or ends a capture, and the stream as the caller sees it.
  struct Boundary {
    bool IsBegin;
    std::string Key, Stream; ///< streamKey and text of the stream
    const Decl *Identity;    ///< the stream's variable or field
    std::optional<int64_t> Mode;
    std::string Name; ///< the function called
  };
  Boundary boundaryOn(bool IsBegin, const Expr *Stream, std::optional<int64_t> Mode,
                      StringRef Name) const {
    return {IsBegin, streamKey(Stream), text(Stream), identityDecl(Stream), Mode, Name.str()};
  }

  struct Run {
    Run(const FunctionDecl *F, Purpose Why, const Decl *Contract)
        : F(F), Why(Why), Contract(Contract) {}
    const FunctionDecl *F;
    Purpose Why;
    const Decl *Contract;
    const TUCallGraph::Summary *Sum = nullptr;
    DenseMap<const Expr *, const CudaEvent *> EventAt;
    DenseMap<SourceLocation, SmallVector<const CallEdge *, 1>> EdgesAt;
    std::vector<Capture> Captures;
    DenseMap<const Expr *, unsigned> CaptureOf;
    DenseSet<unsigned> Ended;
    DenseSet<const ValueDecl *> Modified;
    bool Final = false;
    FunctionFacts *Collect = nullptr;
    bool reporting() const { return Final && Why == Purpose::Check; }
  };

  // The dataflow over one function.
  bool analyse(const FunctionDecl *F, Purpose Why, const Decl *Contract);
  State edgeState(Run &R, const CFGBlock *Pred, const CFGBlock *Succ, const State &Out);
  void transfer(Run &R, State &S, const CFGBlock &B);
  void statement(Run &R, State &S, const Stmt *St);
  void call(Run &R, State &S, const CallExpr *CE);
  void edgesAt(Run &R, State &S, SourceLocation Loc, function_ref<bool(const CallEdge &)> Matches);
  std::optional<Boundary> boundary(Run &R, const State &S, const CallExpr *CE);
  void begin(Run &R, State &S, const CallExpr *CE, const Boundary &B);
  void end(Run &R, State &S, const CallExpr *CE, const Boundary &B);
  void exchange(State &S, const CallExpr *CE);
  void reportUnended(Run &R, const std::vector<State> &Out, const CFG &Cfg);
  void contractWithoutCfg(const FunctionDecl *F, const Decl *Contract);

  // Findings.
  Finding classify(const CudaEvent &E) const;
  void report(Run &R, const State &S, const CudaEvent &E, ArrayRef<const CallEdge *> Chain,
              const FunctionDecl *Owner);
  void emit(Run &R, const Capture &Cite, Finding K, StreamFlags Flags, const CudaEvent &E,
            ArrayRef<const CallEdge *> Chain);
  std::string message(Finding K, StreamFlags Flags, const CudaEvent &E, StringRef Context,
                      StringRef Stream) const;
  /// Whether a branch that runs only when not capturing holds the event at
  /// the end of Chain (in Owner) or any call on the way to it.
  bool chainGuarded(ArrayRef<const CallEdge *> Chain, const FunctionDecl *Owner, const Expr *At);
  /// Whether an exchange to relaxed mode brackets the event on its way.
  bool chainRelaxed(ArrayRef<const CallEdge *> Chain, const FunctionDecl *Owner, const Expr *At);
  void captureCall(Run &R, const State &S, const CallEdge *Inside, const CudaEvent *Open);

  // Guards and relaxed brackets in the functions a region reaches.
  FunctionFacts &guards(const FunctionDecl *F);
  FunctionFacts &relaxed(const FunctionDecl *F);
  bool guarded(const FunctionDecl *F, SourceLocation Loc);
  NotCapturing notCapturingIf(const Expr *E, const FunctionFacts &FF, unsigned Depth);
  NotCapturing predicate(const FunctionDecl *F, unsigned Depth);

  // Small helpers.
  std::string text(const Expr *E) const;
  SourceLocation at(SourceLocation L) const;
  std::string streamKey(const Expr *E) const;
  static void setValue(State &S, const VarDecl *V, std::optional<int64_t> Value);
  static std::optional<int64_t> valueOf(const State &S, const VarDecl *V);
  static void merge(State &Into, const State &From);
  void collectModified(Run &R);
  /// \p Stream is a local variable of \p F that \p F creates a stream into.
  bool createdIn(const Expr *Stream, const FunctionDecl *F) const;
  bool configuration(Run &R, const VarDecl *V);
  static bool writes(const Stmt *S, const VarDecl *V);
  DenseMap<std::pair<const FunctionDecl *, const VarDecl *>, bool> Configuration;
  StringSet<> CondKeys; ///< the comparisons remembered as conditions (stable keys)

  CaptureApiCheck &Check;
  TUCallGraph &Graph;
  ASTContext &Ctx;
  const SourceManager &SM;
  // Filled while other entries are being filled (a guard calls a predicate):
  // the entries must not move.
  DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Facts;
  FunctionFacts &factsOf(const FunctionDecl *F) {
    std::unique_ptr<FunctionFacts> &Slot = Facts[F];
    if (!Slot)
      Slot = std::make_unique<FunctionFacts>();
    return *Slot;
  }
  DenseMap<const FunctionDecl *, NotCapturing> Predicates;
  DenseSet<const Expr *> Reported;
  TUFacts *Program; ///< the facts for the whole program; null when none are asked for
};

static const unsigned EventMask = (1u << CudaEvent::ApiCall) | (1u << CudaEvent::KernelLaunch);

bool CaptureApiCheck::Analysis::analyse(const FunctionDecl *F, Purpose Why, const Decl *Contract) {
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
  if (Why == Purpose::CollectRelaxed)
    R.Collect = &factsOf(F);
  collectModified(R);

  State Init;
  Init.Reached = true;
  if (Contract) {
    Capture Assumed;
    Assumed.Name = F->getQualifiedNameAsString();
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
  if (R.Collect)
    R.Collect->RelaxedDone = true;
  return true;
}

void CaptureApiCheck::Analysis::merge(State &Into, const State &From) {
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

void CaptureApiCheck::Analysis::setValue(State &S, const VarDecl *V, std::optional<int64_t> Value) {
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

std::optional<int64_t> CaptureApiCheck::Analysis::valueOf(const State &S, const VarDecl *V) {
  for (const auto &[D, Value] : S.Values)
    if (D == V)
      return Value;
  return std::nullopt;
}

/// Flags tested by a branch are remembered along its edges, so that a capture
/// begun under `if (UseGraph)` is not open where `if (UseGraph)` was false.
/// Only local variables and parameters the function never modifies count.
CaptureApiCheck::Analysis::State CaptureApiCheck::Analysis::edgeState(Run &R, const CFGBlock *Pred,
                                                                      const CFGBlock *Succ,
                                                                      const State &Out) {
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
  if (Succ == Else && isa_and_nonnull<ForStmt, WhileStmt, CXXForRangeStmt>(Pred->getTerminatorStmt()) &&
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
      const Capture &C = R.Captures[Id];
      return C.Begin && (C.Begin == Status ||
                         (StatusRef && is_contained(S.StatusOf, std::make_pair(
                                                        dyn_cast<VarDecl>(StatusRef->getDecl()), Id))));
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
    std::optional<int64_t> C = L ? constantValue(BO->getRHS(), Ctx) : constantValue(BO->getLHS(), Ctx);
    const DeclRefExpr *Side = L ? L : R2;
    if (C && Side && (L == nullptr) != (R2 == nullptr))
      if (const auto *V = dyn_cast<VarDecl>(Side->getDecl())) {
        BinaryOperatorKind Op = L ? BO->getOpcode() : BinaryOperator::reverseComparisonOp(BO->getOpcode());
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
  if (Var && Key == Var && Var->isLocalVarDeclOrParm() && !R.Modified.count(Var))
    if (std::optional<int64_t> Known = valueOf(S, Var); Known && (*Known != 0) != Value) {
      State Dead;
      return Dead;
    }
  bool Stable = Var && (Var->isLocalVarDeclOrParm() ? !R.Modified.count(Var) : configuration(R, Var));
  if (!Stable)
    return S;
  erase_if(S.Open, [&](unsigned Id) { return is_contained(R.Captures[Id].Facts, std::make_pair(Key, !Value)); });
  erase_if(S.Facts, [&](const auto &F) { return F.first == Key; });
  S.Facts.insert(lower_bound(S.Facts, std::make_pair(Key, false)), {Key, Value});
  return S;
}

/// A variable with static storage that the function reads as configuration:
/// an integer, enumeration or flag, not volatile, that neither the function
/// nor anything it reaches in the file writes or takes the address of (a
/// setting parsed once from the command line). Functions of other files
/// are not seen.
bool CaptureApiCheck::Analysis::configuration(Run &R, const VarDecl *V) {
  if (!V->hasGlobalStorage() || V->getType().isVolatileQualified() ||
      !(V->getType()->isIntegralOrEnumerationType()) || R.Modified.count(V))
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

/// Calls \p Written with each expression \p S may write: the left side of an
/// assignment, the operand of ++, -- or &, an argument passed by non-const
/// reference. A lambda's body is not entered: \p Lambda gets the lambda.
static void forEachWrite(const Stmt *S, function_ref<void(const Expr *)> Written,
                         function_ref<void(const LambdaExpr *)> Lambda) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Written(BO->getLHS());
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
    Written(UO->getSubExpr());
  else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I) {
        QualType T = FD->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          Written(CE->getArg(I));
      }
  } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    Lambda(L);
    return;
  }
  for (const Stmt *Child : S->children())
    forEachWrite(Child, Written, Lambda);
}

static const ValueDecl *writtenDecl(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? DRE->getDecl() : nullptr;
}

bool CaptureApiCheck::Analysis::writes(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
    forEachWrite(
        St,
        [&](const Expr *E) {
          const ValueDecl *D = writtenDecl(E);
          Found |= D && D->getCanonicalDecl() == V->getCanonicalDecl();
        },
        [&](const LambdaExpr *L) { Walk(L->getBody()); });
  };
  Walk(S);
  return Found;
}

void CaptureApiCheck::Analysis::collectModified(Run &R) {
  forEachWrite(
      R.F->getBody(),
      [&](const Expr *E) {
        if (const ValueDecl *D = writtenDecl(E))
          R.Modified.insert(D);
      },
      [&](const LambdaExpr *L) {
        for (const LambdaCapture &C : L->captures())
          if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
            R.Modified.insert(C.getCapturedVar());
      });
}

void CaptureApiCheck::Analysis::transfer(Run &R, State &S, const CFGBlock &B) {
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

void CaptureApiCheck::Analysis::statement(Run &R, State &S, const Stmt *St) {
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

static bool overridesOrIs(const FunctionDecl *Callee, const CXXMethodDecl *MD) {
  const auto *M = dyn_cast<CXXMethodDecl>(Callee);
  SmallVector<const CXXMethodDecl *, 4> Work;
  if (M)
    Work.push_back(M);
  while (!Work.empty()) {
    const CXXMethodDecl *X = Work.pop_back_val();
    if (X->getCanonicalDecl() == MD->getCanonicalDecl())
      return true;
    append_range(Work, X->overridden_methods());
  }
  return false;
}

void CaptureApiCheck::Analysis::call(Run &R, State &S, const CallExpr *CE) {
  if (R.Collect && R.Final && S.Relaxed) {
    R.Collect->RelaxedExprs.insert(CE);
    R.Collect->RelaxedLocs.insert(CE->getBeginLoc());
  }
  if (std::optional<Boundary> B = boundary(R, S, CE)) {
    if (B->IsBegin)
      begin(R, S, CE, *B);
    else
      end(R, S, CE, *B);
    return;
  }
  if (const CudaEvent *Ev = R.EventAt.lookup(CE)) {
    if (Ev->What == CudaEvent::ExternalCall || Ev->What == CudaEvent::OpenCall) {
      // A call that leaves the file: the whole program follows it. A virtual
      // call also reaches the overriders this file defines, below.
      if (Program && Ev->What == CudaEvent::OpenCall && R.reporting() && !S.Open.empty() &&
          !guarded(R.F, CE->getBeginLoc()))
        captureCall(R, S, nullptr, Ev);
      if (!Ev->Virtual)
        return;
    } else {
      if (Ev->Api && Ev->Api->Capture == CaptureEffect::ExchangeMode)
        exchange(S, CE);
      else if (R.reporting() && !S.Open.empty() && !guarded(R.F, CE->getBeginLoc()))
        report(R, S, *Ev, {}, R.F);
      return;
    }
  }
  const FunctionDecl *Direct = CE->getDirectCallee();
  if (!Direct) {
    edgesAt(R, S, CE->getBeginLoc(), [](const CallEdge &E) { return E.How == CallEdge::Pointer; });
    return;
  }
  const FunctionDecl *Def = TUCallGraph::definitionOf(Direct);
  const auto *MD = dyn_cast<CXXMethodDecl>(Direct);
  edgesAt(R, S, CE->getBeginLoc(), [&](const CallEdge &E) {
    if (E.How == CallEdge::Call)
      return E.Callee == Def;
    return E.How == CallEdge::Virtual && MD && overridesOrIs(E.Callee, MD);
  });
}

void CaptureApiCheck::Analysis::edgesAt(Run &R, State &S, SourceLocation Loc,
                                        function_ref<bool(const CallEdge &)> Matches) {
  if (R.Collect && R.Final && S.Relaxed)
    R.Collect->RelaxedLocs.insert(Loc);
  if (!R.reporting() || S.Open.empty())
    return;
  auto It = R.EdgesAt.find(Loc);
  if (It == R.EdgesAt.end() || guarded(R.F, Loc))
    return;
  for (const CallEdge *Edge : It->second) {
    if (!Matches(*Edge))
      continue;
    Graph.forEachReachable(
        Edge->Callee, EventMask, [&](const CudaEvent &E) { return classify(E) != Finding::None; },
        [&](const TUCallGraph::Path &P) {
          SmallVector<const CallEdge *, 4> Chain{Edge};
          append_range(Chain, P.Chain);
          report(R, S, *P.Event, Chain, P.Owner);
        });
    if (Program)
      captureCall(R, S, Edge, nullptr);
  }
}

static StringRef modeName(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global: return "global";
  case CaptureMode::ThreadLocal: return "thread-local";
  case CaptureMode::Relaxed: return "relaxed";
  }
  return "global";
}

static StringRef flagsName(CaptureApiCheck::StreamFlags F) {
  switch (F) {
  case CaptureApiCheck::StreamFlags::Blocking: return "blocking";
  case CaptureApiCheck::StreamFlags::NonBlocking: return "nonblocking";
  case CaptureApiCheck::StreamFlags::Unknown: return "unknown";
  }
  return "unknown";
}

void CaptureApiCheck::Analysis::captureCall(Run &R, const State &S, const CallEdge *Inside,
                                            const CudaEvent *Open) {
  // The capture a finding would cite: one the file shows begin (a function
  // declared capture-safe is a contract of its own file).
  for (unsigned O : S.Open) {
    const Capture &C = R.Captures[O];
    if (!C.Begin)
      continue;
    json::Object Region{{"stream", C.Name}, // std::string: copied
                        {"mode", S.Relaxed ? StringRef("relaxed") : modeName(C.Mode)},
                        {"flags", flagsName(C.Begin ? C.Flags : StreamFlags::Unknown)}};
    Program->captureCall(C.Begin->getBeginLoc(), std::move(Region), Inside, Open);
    if (Inside)
      Program->include(Graph, Inside->Callee);
    return;
  }
  // Only the capture a capture-safe function assumes, its caller's: what it
  // calls in other files must be safe too.
  if (S.Open.empty() || !R.Contract)
    return;
  json::Object Region{{"stream", ""},
                      {"contract", R.Captures[S.Open.front()].Name},
                      {"mode", S.Relaxed ? "relaxed" : "global"},
                      {"flags", "unknown"}};
  Program->captureCall(R.Contract->getLocation(), std::move(Region), Inside, Open);
  if (Inside)
    Program->include(Graph, Inside->Callee);
}

bool CaptureApiCheck::Analysis::createdIn(const Expr *Stream, const FunctionDecl *F) const {
  const auto *Own = dyn_cast_or_null<VarDecl>(identityDecl(Stream));
  return Own && Own->hasLocalStorage() && !isa<ParmVarDecl>(Own) && Own->getDeclContext() == F &&
         Check.Created.count(Own);
}

void CaptureApiCheck::Analysis::exportFacts() {
  if (!Program)
    return;
  static const char *const KindNames[] = {"none", "unsafe", "sync", "unsupported", "legacy"};
  Program->include(Graph);
  for (const FunctionDecl *F : Program->functions()) {
    const TUCallGraph::Summary *Sum = Graph.summary(F);
    if (!Sum)
      continue;
    // A call behind a test that the stream is not capturing runs only when
    // nothing captures; one inside an exchange to relaxed mode runs relaxed.
    auto Mark = [&](SourceLocation Loc) {
      if (guarded(F, Loc))
        Program->markCalls(F, Loc, "guarded");
      if (relaxed(F).RelaxedLocs.count(Loc))
        Program->markCalls(F, Loc, "relaxed");
    };
    for (const CallEdge &E : Sum->Calls)
      Mark(E.Loc);
    for (const CudaEvent &E : Sum->Events) {
      if (E.What == CudaEvent::OpenCall)
        Mark(E.E->getBeginLoc());
      if (E.What == CudaEvent::ExternalCall || E.What == CudaEvent::OpenCall)
        continue;
      Finding K = classify(E);
      if (K == Finding::None)
        continue;
      // A synchronize of a stream the function creates itself, or of the
      // per-thread stream, is not of a caller's capture: to it, an unsafe call.
      unsigned Kind = static_cast<unsigned>(K);
      if (K == Finding::Sync && E.Api && E.Api->StreamArg >= 0)
        if (const auto *CE = dyn_cast<CallExpr>(E.E))
          if (const Expr *Arg = argOrNull(CE, E.Api->StreamArg);
              Arg && !isLegacyStream(Arg) && (isPerThreadStream(Arg) || createdIn(Arg, F)))
            Kind = static_cast<unsigned>(Finding::Unsafe);
      json::Object Event{{"kind", KindNames[Kind]}, {"api", E.Name}};
      if (E.Api && E.Api->Capture == CaptureEffect::DeviceSync)
        Event["device"] = true;
      if (E.What == CudaEvent::KernelLaunch)
        Event["launch"] = true;
      // The wording of the finding, with the capture's words left open.
      if (K == Finding::Legacy)
        Event["message"] = json::Object{
            {"blocking", message(K, StreamFlags::Blocking, E, "{context}", "{stream}")},
            {"nonblocking", message(K, StreamFlags::NonBlocking, E, "{context}", "{stream}")},
            {"unknown", message(K, StreamFlags::Unknown, E, "{context}", "{stream}")}};
      else
        Event["message"] = message(K, StreamFlags::Unknown, E, "{context}", "{stream}");
      if (guarded(F, E.E->getBeginLoc()))
        Event["guarded"] = true;
      if (relaxed(F).RelaxedExprs.count(E.E))
        Event["relaxed"] = true;
      Program->event(F, "capture", E.E->getBeginLoc(), std::move(Event));
    }
  }
}

std::optional<CaptureApiCheck::Analysis::Boundary>
CaptureApiCheck::Analysis::boundary(Run &R, const State &S, const CallExpr *CE) {
  auto ModeOf = [&](const Expr *E) -> std::optional<int64_t> {
    if (!E)
      return std::nullopt;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (std::optional<int64_t> Known = valueOf(S, V))
          return Known;
    return constantValue(E, Ctx);
  };
  if (const CudaEvent *Ev = R.EventAt.lookup(CE); Ev && Ev->Api) {
    CaptureEffect C = Ev->Api->Capture;
    if (C != CaptureEffect::BeginCapture && C != CaptureEffect::EndCapture)
      return std::nullopt;
    const Expr *Stream = argOrNull(CE, Ev->Api->StreamArg);
    if (!Stream)
      return std::nullopt;
    return boundaryOn(C == CaptureEffect::BeginCapture, Stream,
                      ModeOf(argOrNull(CE, Ev->Api->ModeArg)), Ev->Name);
  }
  const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
  if (!Callee)
    return std::nullopt;
  for (bool IsBegin : {true, false})
    for (const Wrapper &W : IsBegin ? Check.BeginWrappers : Check.EndWrappers)
      if (matchesFunctionName(Callee, W.Name))
        if (const Expr *Stream = argOrNull(CE, W.StreamArg))
          return boundaryOn(IsBegin, Stream, std::nullopt, identifierOf(Callee));

  // A function the TU defines that only begins, or only ends, a capture is
  // a wrapper when its stream is one of its parameters, a variable it
  // captures or a global (a lambda `finish` that ends the capture of `s`), or
  // a field of the object it is called on (Recorder::begin() capturing
  // this->Stream). Its body is not walked.
  const FunctionDecl *Def = TUCallGraph::definitionOf(CE->getDirectCallee());
  if (!Def || Def == R.F)
    return std::nullopt;
  const TUCallGraph::Summary *Sum = Graph.summary(Def);
  if (!Sum)
    return std::nullopt;
  const CudaEvent *Found = nullptr;
  bool Begins = false, Ends = false;
  for (const CudaEvent &E : Sum->Events) {
    if (!E.Api || (E.Api->Capture != CaptureEffect::BeginCapture &&
                   E.Api->Capture != CaptureEffect::EndCapture))
      continue;
    (E.Api->Capture == CaptureEffect::BeginCapture ? Begins : Ends) = true;
    Found = Found ? Found : &E;
  }
  if (!Found || Begins == Ends)
    return std::nullopt;
  // A member operator's object is the call's first argument.
  const unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(CE);
  const Expr *Object = MemberCall ? MemberCall->getImplicitObjectArgument() : nullptr;
  auto Param = [&](const Expr *Inner) -> const Expr * {
    const auto *DRE = Inner ? dyn_cast<DeclRefExpr>(Inner->IgnoreParenImpCasts()) : nullptr;
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!P || P->getDeclContext() != Def)
      return nullptr;
    unsigned I = P->getFunctionScopeIndex() + Shift;
    return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
  };
  const auto *Inner = cast<CallExpr>(Found->E);
  const Expr *InnerStream = argOrNull(Inner, Found->Api->StreamArg);
  const Expr *InnerMode = argOrNull(Inner, Found->Api->ModeArg);
  std::optional<int64_t> Mode =
      Param(InnerMode) ? ModeOf(Param(InnerMode)) : constantValue(InnerMode, Ctx);
  if (!InnerStream)
    return std::nullopt;
  const Expr *Bare = InnerStream->IgnoreParenImpCasts();
  if (const Expr *Arg = Param(InnerStream))
    return boundaryOn(Begins, Arg, Mode, identifierOf(Def));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Bare)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && (!V->isLocalVarDeclOrParm() || V->getParentFunctionOrMethod() != Def))
      return boundaryOn(Begins, InnerStream, Mode, identifierOf(Def));
    return std::nullopt;
  }
  // this->Stream in a method called on an object is Object.Stream here.
  const auto *ME = dyn_cast<MemberExpr>(Bare);
  if (!ME || !Object || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return std::nullopt;
  const Expr *Obj = Object->IgnoreParenImpCasts();
  const ValueDecl *Field = ME->getMemberDecl();
  std::string Key =
      streamKey(Obj) + ".m" + utohexstr(reinterpret_cast<uintptr_t>(Field->getCanonicalDecl()));
  std::string Name =
      isa<CXXThisExpr>(Obj)
          ? Field->getNameAsString()
          : text(Obj) + (Obj->getType()->isPointerType() ? "->" : ".") + Field->getNameAsString();
  return Boundary{Begins, Key, Name, Field->getCanonicalDecl(), Mode, identifierOf(Def).str()};
}

void CaptureApiCheck::Analysis::begin(Run &R, State &S, const CallExpr *CE, const Boundary &B) {
  auto [It, New] = R.CaptureOf.try_emplace(CE, R.Captures.size());
  if (New) {
    Capture C;
    C.Begin = CE;
    C.Key = B.Key;
    C.Name = B.Stream;
    C.Mode = B.Mode == 2   ? CaptureMode::Relaxed
             : B.Mode == 1 ? CaptureMode::ThreadLocal
                           : CaptureMode::Global;
    auto Flags = Check.Created.find(B.Identity);
    C.Flags = Flags == Check.Created.end() ? StreamFlags::Unknown : Flags->second;
    C.Facts = S.Facts;
    R.Captures.push_back(std::move(C));
  }
  unsigned Id = It->second;
  const Capture &Mine = R.Captures[Id];
  // Every capture, for the rule on what other threads may do meanwhile.
  if (Program && R.reporting())
    Program->region(Graph, R.F, CE->getBeginLoc(),
                    json::Object{{"stream", Mine.Name},
                                 {"mode", B.Mode ? modeName(Mine.Mode) : StringRef("unknown")},
                                 {"flags", flagsName(Mine.Flags)}});
  if (R.reporting()) {
    for (unsigned O : S.Open) {
      const Capture &Other = R.Captures[O];
      // The same begin again, on Streams[I] in a loop over I: another element.
      if (!Other.Begin || Other.Key != Mine.Key || (O == Id && indexedByLocal(Mine.Key)) ||
          !Reported.insert(CE).second)
        continue;
      Check.diag(at(CE->getBeginLoc()),
                 "capture of '%0' begun while '%0' is already being captured; a stream "
                 "that is capturing cannot begin another capture, so this call fails; "
                 "consider ending the first capture before beginning another")
          << Mine.Name;
      Check.diag(at(Other.Begin->getBeginLoc()), "the first capture of '%0' begins here",
                 DiagnosticIDs::Note)
          << Other.Name;
      break;
    }
  }
  S.Open.insert(lower_bound(S.Open, Id), Id);
  S.Open.erase(std::unique(S.Open.begin(), S.Open.end()), S.Open.end());
}

void CaptureApiCheck::Analysis::end(Run &R, State &S, const CallExpr *CE, const Boundary &B) {
  const std::string &Key = B.Key;
  bool Matched = false;
  const Capture *Other = nullptr;
  SmallVector<unsigned, 2> Keep;
  for (unsigned O : S.Open) {
    const Capture &C = R.Captures[O];
    if (C.Begin && C.Key == Key) {
      Matched = true;
      if (R.Final)
        R.Ended.insert(O);
      continue;
    }
    if (C.Begin && !Other)
      Other = &C;
    Keep.push_back(O);
  }
  S.Open = std::move(Keep);
  if (Matched || !Other || !R.reporting() || !Reported.insert(CE).second)
    return;
  Check.diag(at(CE->getBeginLoc()),
             "'%0' on '%1' while only '%2' is being captured; a capture must be ended on "
             "the stream that began it, so '%2' stays in capture mode; consider ending "
             "the capture on '%2'")
      << B.Name << B.Stream << Other->Name;
  Check.diag(at(Other->Begin->getBeginLoc()), "capture of '%0' begins here", DiagnosticIDs::Note)
      << Other->Name;
}

/// cudaThreadExchangeStreamCaptureMode(&M) switches the thread to relaxed when
/// M was last set to relaxed; the next exchange, the push-pop partner the
/// documentation recommends, switches it back.
void CaptureApiCheck::Analysis::exchange(State &S, const CallExpr *CE) {
  const VarDecl *V = nullptr;
  if (const Expr *Arg = argOrNull(CE, 0))
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
        UO && UO->getOpcode() == UO_AddrOf)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        V = dyn_cast<VarDecl>(DRE->getDecl());
  if (S.Relaxed)
    S.Relaxed = false;
  else if (V && valueOf(S, V) == 2)
    S.Relaxed = true;
  if (V)
    setValue(S, V, std::nullopt);
}

void CaptureApiCheck::Analysis::reportUnended(Run &R, const std::vector<State> &Out,
                                              const CFG &Cfg) {
  // Captures that no path ends are left to the caller (a begin wrapper, or a
  // class whose methods begin and end): only a capture ended on some paths
  // and still open on others is reported.
  MapVector<unsigned, SmallVector<const CFGBlock *, 2>> Leaks;
  const CFGBlock &Exit = Cfg.getExit();
  for (const CFGBlock *P : Exit.preds()) {
    if (!P || !Out[P->getBlockID()].Reached || P->hasNoReturnElement() ||
        isa_and_nonnull<CXXThrowExpr>(P->getTerminatorStmt()))
      continue;
    State S = edgeState(R, P, &Exit, Out[P->getBlockID()]);
    for (unsigned O : S.Open)
      if (R.Captures[O].Begin && R.Ended.count(O))
        Leaks[O].push_back(P);
  }
  for (auto &[Id, Blocks] : Leaks) {
    const Capture &C = R.Captures[Id];
    if (!Reported.insert(C.Begin).second)
      continue;
    Check.diag(
        at(C.Begin->getBeginLoc()),
        "capture of '%0' begun here is not ended on every path; where the function returns early "
        "the stream stays in capture mode, so later work on it is recorded instead of run and "
        "synchronizing on it fails; consider ending the capture before every return")
        << C.Name;
    SmallVector<SourceLocation, 4> Returns;
    for (const CFGBlock *B : Blocks) {
      SourceLocation At;
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
          if (isa<ReturnStmt>(CS->getStmt()))
            At = CS->getStmt()->getBeginLoc();
      if (At.isInvalid())
        if (const auto *Body = dyn_cast_or_null<CompoundStmt>(R.F->getBody()))
          At = Body->getRBracLoc();
      if (At.isValid())
        Returns.push_back(At);
    }
    llvm::sort(Returns, [&](SourceLocation A, SourceLocation B) {
      return SM.isBeforeInTranslationUnit(A, B);
    });
    // A few returns say enough; error-checking macros make dozens.
    for (SourceLocation At : ArrayRef(Returns).take_front(3))
      Check.diag(at(At), "the function returns here with '%0' still being captured",
                 DiagnosticIDs::Note)
          << C.Name;
  }
}

void CaptureApiCheck::Analysis::contractWithoutCfg(const FunctionDecl *F, const Decl *Contract) {
  Run R(F, Purpose::Check, Contract);
  R.Final = true;
  Capture Assumed;
  Assumed.Name = F->getQualifiedNameAsString();
  R.Captures.push_back(std::move(Assumed));
  State S;
  S.Reached = true;
  S.Open.push_back(0);
  Graph.forEachReachable(
      F, EventMask, [&](const CudaEvent &E) { return classify(E) != Finding::None; },
      [&](const TUCallGraph::Path &P) { report(R, S, *P.Event, P.Chain, P.Owner); });
}

Finding CaptureApiCheck::Analysis::classify(const CudaEvent &E) const {
  if (E.What == CudaEvent::KernelLaunch)
    return launchIsOnLegacyStream(E.E) ? Finding::Legacy : Finding::None;
  if (E.What != CudaEvent::ApiCall || !E.Api || Check.Allowed.contains(E.Name))
    return Finding::None;
  switch (E.Api->Capture) {
  case CaptureEffect::UnsafeInCapture:
    return Finding::Unsafe;
  case CaptureEffect::Sync:
  case CaptureEffect::DeviceSync:
    return Finding::Sync;
  case CaptureEffect::Unsupported:
    return Finding::Unsupported;
  case CaptureEffect::LegacyWork:
    return Finding::Legacy;
  case CaptureEffect::StreamOrdered:
    if (const auto *CE = dyn_cast<CallExpr>(E.E))
      if (isLegacyStream(argOrNull(CE, E.Api->StreamArg)))
        return Finding::Legacy;
    return Finding::None;
  default:
    return Finding::None;
  }
}

void CaptureApiCheck::Analysis::report(Run &R, const State &S, const CudaEvent &E,
                                       ArrayRef<const CallEdge *> Chain,
                                       const FunctionDecl *Owner) {
  Finding K = classify(E);
  if (K == Finding::None || S.Open.empty())
    return;
  // The call sites inside the functions the region reaches, and the call
  // itself, may sit in a branch that runs only when not capturing.
  if (!Chain.empty() && chainGuarded(Chain, Owner, E.E))
    return;
  // Synchronizing a stream that no open capture records is prohibited only
  // where unsafe calls are: measured on an H100 (docs/facts.md), a private
  // stream's or cudaStreamPerThread's synchronize fails in global and
  // thread-local capture and succeeds in relaxed, where the captured
  // stream's fails in every mode. A stream named in another function is not
  // known to differ.
  if (K == Finding::Sync && E.Api && E.Api->StreamArg >= 0)
    if (const auto *CE = dyn_cast<CallExpr>(E.E))
      if (const Expr *Arg = argOrNull(CE, E.Api->StreamArg); Arg && !isLegacyStream(Arg)) {
        bool PerThread = isPerThreadStream(Arg);
        std::string Key = streamKey(Arg);
        // The capture a capture-safe function assumes is its caller's, of a
        // stream it cannot name: the per-thread stream, or a stream the
        // function creates itself, is another one.
        bool CreatedHere = createdIn(Arg, R.F);
        bool Other = (Chain.empty() || PerThread) && all_of(S.Open, [&](unsigned O) {
                       const Capture &C = R.Captures[O];
                       return C.Begin ? C.Key != Key : PerThread || CreatedHere;
                     });
        if (Other) {
          if (S.Relaxed || all_of(S.Open, [&](unsigned O) {
                return R.Captures[O].Mode == CaptureMode::Relaxed;
              }))
            return;
          if (!Chain.empty() && chainRelaxed(Chain, Owner, E.E))
            return;
        }
      }
  auto Prefer = [](const Capture *Have, const Capture &C) {
    return !Have || (!Have->Begin && C.Begin);
  };
  const Capture *Cite = nullptr;
  StreamFlags Flags = StreamFlags::Unknown;
  if (K == Finding::Unsafe) {
    if (S.Relaxed)
      return;
    for (unsigned O : S.Open)
      if (R.Captures[O].Mode != CaptureMode::Relaxed && Prefer(Cite, R.Captures[O]))
        Cite = &R.Captures[O];
    if (!Cite)
      return;
    if (!Chain.empty() && chainRelaxed(Chain, Owner, E.E))
      return;
  } else if (K == Finding::Legacy) {
    // One blocking capture stream makes legacy work invalidate; only when
    // every capture stream is known non-blocking does the work escape.
    const Capture *Blocking = nullptr, *NonBlocking = nullptr, *Unknown = nullptr;
    for (unsigned O : S.Open) {
      const Capture &C = R.Captures[O];
      StreamFlags F = C.Begin ? C.Flags : StreamFlags::Unknown;
      const Capture *&Slot = F == StreamFlags::Blocking      ? Blocking
                             : F == StreamFlags::NonBlocking ? NonBlocking
                                                             : Unknown;
      if (Prefer(Slot, C))
        Slot = &C;
    }
    Cite = Blocking ? Blocking : Unknown ? Unknown : NonBlocking;
    Flags = Blocking  ? StreamFlags::Blocking
            : Unknown ? StreamFlags::Unknown
                      : StreamFlags::NonBlocking;
  } else {
    for (unsigned O : S.Open)
      if (Prefer(Cite, R.Captures[O]))
        Cite = &R.Captures[O];
  }
  if (!Cite || !Reported.insert(E.E).second)
    return;
  emit(R, *Cite, K, Flags, E, Chain);
}

bool CaptureApiCheck::Analysis::chainGuarded(ArrayRef<const CallEdge *> Chain,
                                             const FunctionDecl *Owner, const Expr *At) {
  if (guarded(Owner, At->getBeginLoc()))
    return true;
  for (size_t I = 1; I < Chain.size(); ++I)
    if (guarded(Chain[I - 1]->Callee, Chain[I]->Loc))
      return true;
  return false;
}

bool CaptureApiCheck::Analysis::chainRelaxed(ArrayRef<const CallEdge *> Chain,
                                             const FunctionDecl *Owner, const Expr *At) {
  if (relaxed(Owner).RelaxedExprs.count(At))
    return true;
  for (size_t I = 1; I < Chain.size(); ++I)
    if (relaxed(Chain[I - 1]->Callee).RelaxedLocs.count(Chain[I]->Loc))
      return true;
  return false;
}

std::string CaptureApiCheck::Analysis::message(Finding K, StreamFlags Flags, const CudaEvent &E,
                                               StringRef Context, StringRef Stream) const {
  const ErrorNames &Names = errorNames(E.Api ? E.Api->Family : ApiFamily::Runtime);
  std::string What = describeEvent(E);
  bool OnLegacy = K == Finding::Legacy && (E.What == CudaEvent::KernelLaunch ||
                                           E.Api->Capture == CaptureEffect::StreamOrdered);
  if (OnLegacy)
    What += " on the legacy stream";
  StringRef Name = E.Name;
  std::string Async = (Name + "Async").str();
  const CudaApiInfo *AsyncApi = lookupCudaApi(Async);
  bool HasAsync = AsyncApi && AsyncApi->Capture == CaptureEffect::StreamOrdered;

  std::string Why, Fix;
  switch (K) {
  case Finding::Unsafe: {
    bool Frees = Name.contains("Free") || Name.contains("Unregister");
    Why = ("(the call returns " + Names.Unsupported + " and " + Names.End + " fails)").str();
    if (HasAsync)
      Fix = Async + " on the capture stream or " + (Frees ? "freeing after" : "allocating before") +
            " the capture";
    else
      Fix = Frees ? "calling it after the capture" : "calling it before the capture";
    break;
  }
  case Finding::Sync:
    if (Name.contains("Event")) {
      Why = ("(the call returns " + Names.CapturedEvent +
             " for an event recorded in the capture and " + Names.End + " fails)")
                .str();
      Fix = ("waiting on the event after " + Names.End + ", or " + Names.WaitEvent +
             " to order work inside the graph")
                .str();
    } else {
      Why = ("(the call returns " + Names.Unsupported + " and " + Names.End + " fails)").str();
      Fix = ("synchronizing after " + Names.End).str();
    }
    break;
  case Finding::Unsupported:
    Why = ("(the call returns " + Names.Unsupported + " and " + Names.End + " fails)").str();
    Fix = Name.contains("AddCallback")
              ? (Names.HostFunc + ", which the capture records as a host node").str()
              : ("calling it after " + Names.End).str();
    break;
  case Finding::Legacy:
    Fix = E.What == CudaEvent::KernelLaunch                ? "launching it on the capture stream"
          : E.Api->Capture == CaptureEffect::StreamOrdered ? "passing the capture stream"
          : HasAsync                                       ? Async + " on the capture stream"
                     : "a stream-ordered form on the capture stream";
    break;
  case Finding::None:
    return "";
  }
  // A library's handle call fails with the library's own status, or succeeds
  // and leaves the capture invalidated (cublasDestroy): measured, not named.
  if (E.Api && E.Api->Family == ApiFamily::Library && (K == Finding::Unsafe || K == Finding::Sync)) {
    bool Destroys = Name.contains("Destroy");
    Why = Destroys
              ? "(the call returns success, but cudaStreamEndCapture fails with "
                "cudaErrorStreamCaptureInvalidated)"
              : "(the call fails with the library's error status and cudaStreamEndCapture fails)";
    Fix = Destroys ? "destroying it after the capture" : "creating it before the capture";
  }

  if (K != Finding::Legacy)
    return What + " " + Context.str() + " invalidates the capture " + Why + "; consider " + Fix;
  if (Flags == StreamFlags::NonBlocking)
    return What + " " + Context.str() +
           " is not captured: it runs now, once, and every replay of the graph skips it; "
           "consider " +
           Fix;
  if (Flags == StreamFlags::Blocking)
    return What + " " + Context.str() +
           " runs on the legacy stream, which invalidates the capture (" + Names.Implicit.str() +
           "); consider " + Fix;
  return What + " " + Context.str() + " runs on the legacy stream: if " + Stream.str() +
         " is non-blocking it is not captured (it runs now, once, and every replay of the graph "
         "skips it), otherwise it invalidates the capture (" +
         Names.Implicit.str() + "); consider " + Fix;
}

void CaptureApiCheck::Analysis::emit(Run &R, const Capture &Cite, Finding K, StreamFlags Flags,
                                     const CudaEvent &E, ArrayRef<const CallEdge *> Chain) {
  std::string Context = Cite.Begin ? "while stream '" + Cite.Name + "' is being captured"
                                   : "from '" + Cite.Name + "', which is declared capture-safe,";
  // Report at the call in the user's code when the call itself is in a
  // system header (header-only library code): diagnostics there are dropped.
  SourceLocation Loc = E.E->getBeginLoc();
  bool Moved = false;
  if (SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
    for (size_t I = Chain.size(); I-- > 0;)
      if (!SM.isInSystemHeader(SM.getExpansionLoc(Chain[I]->Loc))) {
        Loc = Chain[I]->Loc;
        Moved = true;
        break;
      }
  std::string Text = message(K, Flags, E, Context,
                             Cite.Begin ? "'" + Cite.Name + "'" : std::string("the capture stream"));
  if (Text.empty())
    return;
  Check.diag(at(Loc), "%0") << Text;

  if (Cite.Begin) {
    Check.diag(at(Cite.Begin->getBeginLoc()), "capture of '%0' begins here", DiagnosticIDs::Note)
        << Cite.Name;
  } else {
    bool Annotated = any_of(R.Contract->specific_attrs<AnnotateAttr>(), [](const AnnotateAttr *A) {
      return A->getAnnotation() == SafeAnnotation;
    });
    Check.diag(R.Contract->getLocation(),
               Annotated ? "'%0' is declared capture-safe here"
                         : "'%0' is declared capture-safe by the option 'CaptureSafeFunctions'",
               DiagnosticIDs::Note)
        << Cite.Name;
  }
  noteCallChain(Check, Chain);
  if (Moved)
    Check.diag(at(E.E->getBeginLoc()),
               E.What == CudaEvent::KernelLaunch ? "kernel '%0' is launched here"
                                                 : "'%0' is called here",
               DiagnosticIDs::Note)
        << E.Name;
}

//===----------------------------------------------------------------------===//
// Guards and relaxed brackets
//===----------------------------------------------------------------------===//

bool CaptureApiCheck::Analysis::guarded(const FunctionDecl *F, SourceLocation Loc) {
  const FunctionFacts &FF = guards(F);
  if (FF.Guarded.empty())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  for (const auto &[From, To] : FF.Guarded)
    if (!SM.isBeforeInTranslationUnit(Loc, From) && !SM.isBeforeInTranslationUnit(To, Loc))
      return true;
  return false;
}

CaptureApiCheck::Analysis::FunctionFacts &CaptureApiCheck::Analysis::guards(const FunctionDecl *F) {
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
      const CudaApiInfo *Api = lookupCudaApi(calleeName(CE));
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
NotCapturing CaptureApiCheck::Analysis::notCapturingIf(const Expr *E, const FunctionFacts &FF,
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
      // Status None is 0, Active 1; Invalidated (2) says nothing usable.
      NotCapturing N = !V        ? NotCapturing::Unknown
                       : *V == 0 ? NotCapturing::IfTrue
                       : *V == 1 ? NotCapturing::IfFalse
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

NotCapturing CaptureApiCheck::Analysis::predicate(const FunctionDecl *F, unsigned Depth) {
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

CaptureApiCheck::Analysis::FunctionFacts &
CaptureApiCheck::Analysis::relaxed(const FunctionDecl *F) {
  FunctionFacts &FF = factsOf(F);
  if (FF.RelaxedDone)
    return FF;
  FF.RelaxedDone = true;
  const TUCallGraph::Summary *Sum = Graph.summary(F);
  bool Exchanges = Sum && any_of(Sum->Events, [](const CudaEvent &E) {
                     return E.Api && E.Api->Capture == CaptureEffect::ExchangeMode;
                   });
  if (Exchanges)
    analyse(F, Purpose::CollectRelaxed, nullptr);
  return FF;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// clang-tidy drops a diagnostic inside a system header's macro (cuMemAlloc
/// is cuMemAlloc_v2) unless a note lands in user code: point at the
/// macro's use instead.
SourceLocation CaptureApiCheck::Analysis::at(SourceLocation L) const {
  return L.isMacroID() && SM.isInSystemMacro(L) ? SM.getExpansionLoc(L) : L;
}

std::string CaptureApiCheck::Analysis::text(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  const LangOptions &LO = Ctx.getLangOpts();
  StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (T.empty())
    T = Lexer::getSourceText(SM.getExpansionRange(E->getSourceRange()), SM, LO);
  return T.empty() ? std::string("the stream") : T.str();
}

/// Two stream expressions are the same stream when they name the same
/// variable through the same member chain, or else read the same.
std::string CaptureApiCheck::Analysis::streamKey(const Expr *E) const {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return "d" + utohexstr(reinterpret_cast<uintptr_t>(DRE->getDecl()->getCanonicalDecl()));
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return streamKey(ME->getBase()) + ".m" +
           utohexstr(reinterpret_cast<uintptr_t>(ME->getMemberDecl()->getCanonicalDecl()));
  if (isa<CXXThisExpr>(E))
    return "this";
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // Streams[I] in two loops over I (begin every capture, then end every
    // one) is the same stream: a local integer index counts by its name.
    const auto *Idx = dyn_cast<DeclRefExpr>(AS->getIdx()->IgnoreParenImpCasts());
    const auto *IV = Idx ? dyn_cast<VarDecl>(Idx->getDecl()) : nullptr;
    if (IV && IV->hasLocalStorage() && !isa<ParmVarDecl>(IV) && IV->getType()->isIntegerType())
      return streamKey(AS->getBase()) + "[v" + IV->getName().str() + "]";
    return streamKey(AS->getBase()) + "[" + streamKey(AS->getIdx()) + "]";
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return "*" + streamKey(UO->getSubExpr());
  std::string T = text(E);
  erase_if(T, [](char C) { return isSpace(C); });
  return "t" + T;
}

void CaptureApiCheck::onEndOfTranslationUnit() {
  if (Graph) {
    Analysis A(*this, *Graph, Facts && Facts->enabled() ? Facts.get() : nullptr);
    for (const FunctionDecl *F : Roots)
      A.root(F, Contracts.lookup(F));
    A.exportFacts();
  }
  Graph.reset();
  Facts.reset();
  Roots.clear();
  RootSet.clear();
  Contracts.clear();
  Created.clear();
}

} // namespace cuda_scope
