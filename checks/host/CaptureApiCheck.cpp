//===- CaptureApiCheck.cpp - calls that break or escape a stream capture --===//
//
// The check: its options, the functions it analyses (those that begin a
// capture, and those declared capture-safe), and the findings of the
// capture-region analysis (CaptureRegions.h) reported as diagnostics. What a
// call does to a capture is the model's (model/Capture.h); the words are
// model/Wording.h's; what the whole program needs is CaptureFacts.h's.
//
//===----------------------------------------------------------------------===//
#include "CaptureApiCheck.h"
#include "CaptureFacts.h"
#include "CaptureRegions.h"
#include "CallChains.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

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
  auto Wrappers = [&](StringRef Option, StringRef Value, std::vector<CaptureWrapper> &Out) {
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
  for (const std::string &Entry : splitList(SafeOption)) {
    // name=mode: the capture mode the function promises safety in.
    auto [P, ModeName] = StringRef(Entry).split('=');
    std::optional<CaptureMode> Mode = ModeName.empty() ? CaptureMode::Global : captureModeFromName(ModeName.trim());
    if (isFunctionPattern(P.trim().str()) && Mode)
      SafePatterns.push_back({P.trim().str(), *Mode});
    else if (!Mode)
      configurationDiag("invalid capture mode '%0' in option 'CaptureSafeFunctions' of check '%1': expected "
                        "'global', 'thread-local' or 'relaxed'",
                        DiagnosticIDs::Error)
          << ModeName << Name;
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
                [&](const CaptureWrapper &W) { return matchesFunctionName(Callee, W.Name); });
}

bool CaptureApiCheck::createsStream(const NamedDecl *Callee) {
  const CudaApiInfo *Api = lookupCudaApi(identifierOf(Callee));
  return Api && Api->Capture == CaptureEffect::CreateStream;
}

const Decl *CaptureApiCheck::captureSafeDecl(const FunctionDecl *F) const {
  for (const FunctionDecl *R : F->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == CaptureSafeAnnotation)
        return R;
  for (const auto &[P, Mode] : SafePatterns)
    if (matchesFunctionName(F, P))
      return F;
  return nullptr;
}

CaptureMode CaptureApiCheck::contractMode(const FunctionDecl *F, const Decl *Contract) {
  if (!Contract)
    return CaptureMode::Global;
  for (const auto *A : Contract->specific_attrs<AnnotateAttr>()) {
    if (A->getAnnotation() != CaptureSafeAnnotation || A->args_size() == 0)
      continue;
    const auto *Word = dyn_cast<clang::StringLiteral>((*A->args_begin())->IgnoreParenImpCasts());
    if (const auto *CE = dyn_cast<ConstantExpr>(*A->args_begin()))
      Word = dyn_cast<clang::StringLiteral>(CE->getSubExpr()->IgnoreParenImpCasts());
    if (std::optional<CaptureMode> M = Word ? captureModeFromName(Word->getString()) : std::nullopt)
      return *M;
    diag(A->getLocation(), "the capture mode a capture-safe contract names must be 'global', 'thread-local' or "
                           "'relaxed'; taken as global");
    return CaptureMode::Global;
  }
  for (const auto &[P, Mode] : SafePatterns)
    if (matchesFunctionName(F, P))
      return Mode;
  return CaptureMode::Global;
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
    ContractModes.clear();
    Created.clear();
    return;
  }
  if (const auto *CE = Result.Nodes.getNodeAs<CallExpr>("create")) {
    Created.add(CE, *Result.Context);
    return;
  }
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("region");
  const auto *Safe = Result.Nodes.getNodeAs<FunctionDecl>("safe");
  if (Safe)
    F = Safe;
  if (!F || F->isDependentContext() || !F->hasBody())
    return;
  if (Safe) {
    Contracts[F] = captureSafeDecl(F);
    ContractModes[F] = contractMode(F, Contracts[F]);
  }
  if (RootSet.insert(F).second)
    Roots.push_back(F);
}

void CaptureApiCheck::onEndOfTranslationUnit() {
  if (Graph) {
    std::optional<CaptureFacts> Out;
    if (Facts && Facts->enabled())
      Out.emplace(*Facts, *Graph);
    CaptureOptions Opts;
    Opts.Allowed = &Allowed;
    Opts.BeginWrappers = BeginWrappers;
    Opts.EndWrappers = EndWrappers;
    Opts.Created = &Created;
    CaptureAnalysis A(Opts, *Graph, Out ? &*Out : nullptr);
    for (const FunctionDecl *F : Roots)
      A.root(F, Contracts.lookup(F), ContractModes.lookup(F));
    if (Out)
      Out->exportFunctions(A);
    for (const CaptureFinding &F : A.findings()) {
      diag(F.At, "%0") << F.Message;
      for (const auto &[At, Text] : F.Notes)
        diag(At, "%0", DiagnosticIDs::Note) << Text;
    }
  }
  Graph.reset();
  Facts.reset();
  Roots.clear();
  RootSet.clear();
  Contracts.clear();
  ContractModes.clear();
  Created.clear();
}

} // namespace cuda_scope
