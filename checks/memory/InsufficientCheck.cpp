//===- InsufficientCheck.cpp - one scope that cannot include every accessor ===//
//
// The engine's scope rules (model/EngineScopes.cpp) over the TU's records
// (AstRecords): an object that other blocks (or host threads) also access,
// reached only through scopes too narrow for them; and a fence too narrow for
// the relaxed access it orders (unless it orders a message: data and a flag,
// which cuda-scope-release-acquire reports).
//
//===----------------------------------------------------------------------===//
#include "InsufficientCheck.h"
#include "ast/CheckUtils.h"
#include "model/Wording.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

InsufficientCheck::InsufficientCheck(StringRef Name, tidy::ClangTidyContext *Ctx)
    : DeviceRuleBase(Name, Ctx), StrictnessOption(Options.get("Strictness", "evidence").str()) {
  std::optional<Strictness> Parsed = strictnessFromName(StrictnessOption);
  if (!Parsed)
    configurationDiag(invalidOptionMessage("Strictness", "'evidence' or 'wide'"), DiagnosticIDs::Error)
        << StrictnessOption << Name;
  Net = Parsed.value_or(Strictness::Evidence);
}

void InsufficientCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Strictness", strictnessName(Net));
}

void InsufficientCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void InsufficientCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu"))
    Records = AstRecords::get(*Result.Context);
}

void InsufficientCheck::onEndOfTranslationUnit() {
  if (!Records)
    return;
  EngineOptions Opts;
  Opts.Rules = EngineOptions::Scopes | EngineOptions::Fences;
  Opts.Net = Net;
  std::set<std::pair<const Stmt *, std::string>> Reported;
  for (const Finding &F : Records->findings(Opts)) {
    if (F.What != Finding::ScopeInsufficient && F.What != Finding::FenceTooNarrow)
      continue;
    const ScopedAccess &A = Records->accessAt(F.At);
    if (!Reported.insert({A.Site, F.What == Finding::FenceTooNarrow ? std::string() : A.Name}).second)
      continue;
    if (F.What == Finding::FenceTooNarrow)
      reportFence(F);
    else
      reportAccess(F);
  }
  Records.reset();
}

void InsufficientCheck::reportAccess(const Finding &F) {
  const ScopedAccess &A = Records->accessAt(F.At);
  std::string Object = ScopedAccesses::describe(*A.Object);
  if (F.WithHost) {
    diag(A.reportLoc(), "%0 is %1 with %2 here, and both host and device threads access it; %2 cannot "
                "include them all; consider %3")
        << Object << accessVerb(A.What) << libcuName(A.S) << libcuName(Scope::System);
    if (const ScopedAccess *Other = Records->access(F.Other))
      diag(Other->Loc, "%0 accesses %1 here", DiagnosticIDs::Note) << describeRoot(*Other) << Object;
    return;
  }
  if (F.OutsideKernel) {
    diag(A.reportLoc(), "%0 is %1 with %2 here, but nothing in %3 reads it and %3 waits on writes from outside it: its "
                "reader runs outside the kernel, while it runs, and %2 cannot include it; consider %4 (%5 where the "
                "reader is the host or another GPU)")
        << Object << accessVerb(A.What) << libcuName(A.S) << describeRoot(A) << libcuName(F.Needed)
        << libcuName(Scope::System);
    return;
  }
  diag(A.reportLoc(), "%0 is %1 with %2 by every block that runs %3; %2 cannot include the other blocks; "
              "consider %4")
      << Object << accessVerb(A.What) << libcuName(A.S) << describeRoot(A) << libcuName(F.Needed);
}

void InsufficientCheck::reportFence(const Finding &F) {
  const ScopedAccess &Fence = Records->accessAt(F.At);
  const ScopedAccess &A = Records->accessAt(F.Other);
  std::string Object = ScopedAccesses::describe(*A.Object);
  std::string Who = F.WithHost ? "host threads access " + Object + " too"
                               : "every block that runs " + describeRoot(A) + " accesses it";
  std::string Consider = widerFenceAdvice(F.Needed, Fence.How == ScopedAccess::DeviceBuiltin);
  diag(Fence.reportLoc(), "'%0' orders the relaxed %1 of %2 with %3, but %4; a fence's scope must include the "
                  "threads it synchronizes with; consider %5")
      << Fence.Name << opKindName(A.What) << Object << libcuName(Fence.S) << Who << Consider;
  diag(A.Loc, "the relaxed %0 is here", DiagnosticIDs::Note) << opKindName(A.What);
}

} // namespace cuda_scope
