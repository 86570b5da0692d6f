//===- MismatchCheck.cpp - concurrent accesses with scopes that exclude each other ===//
//
// The engine's scope rule (model/EngineScopes.cpp) over the TU's records
// (AstRecords): an access whose scope is narrower than the threads that may
// access the object, while another access to it has a scope wide enough,
// races with that access.
//
//===----------------------------------------------------------------------===//
#include "MismatchCheck.h"
#include "ast/CheckUtils.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

MismatchCheck::MismatchCheck(StringRef Name, tidy::ClangTidyContext *Ctx)
    : DeviceRuleBase(Name, Ctx),
      AcrossKernels(parseBoolOption(Options.get("AcrossKernels", "false")).value_or(false)) {
  StringRef Value = Options.get("AcrossKernels", "false");
  if (!parseBoolOption(Value))
    configurationDiag("invalid value '%0' for option 'AcrossKernels' of check '%1': expected 'true' or "
                      "'false'",
                      DiagnosticIDs::Error)
        << Value << Name;
}

void MismatchCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AcrossKernels", AcrossKernels ? "true" : "false");
}

void MismatchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void MismatchCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu"))
    Records = AstRecords::get(*Result.Context);
}

namespace {
/// Where the other thread runs: "in other blocks of kernel 'k'", "in host
/// function 'main'", "in kernel 'k2'".
std::string whereOther(const ScopedAccess &A, const ScopedAccess &Other, const Finding &F) {
  if (Other.RootIs == ScopedAccess::Host || Other.Root != A.Root)
    return "in " + describeRoot(Other);
  if (F.Needed == Scope::System)
    return "elsewhere in " + describeRoot(Other) + ", while host code accesses it too";
  return "in other blocks of " + describeRoot(Other);
}
} // namespace

void MismatchCheck::onEndOfTranslationUnit() {
  if (!Records)
    return;
  std::set<std::pair<const Stmt *, std::string>> Reported;
  DenseSet<SourceLocation> Fixed;
  EngineOptions Opts;
  Opts.AcrossKernels = AcrossKernels;
  Opts.Rules = EngineOptions::Scopes;
  for (const Finding &F : Records->findings(Opts)) {
    if (F.What != Finding::ScopeMismatch)
      continue;
    const ScopedAccess *A = &Records->accessAt(F.At);
    const ScopedAccess *Wider = Records->access(F.Other);
    if (!Wider || !Reported.insert({A->Site, A->Name}).second)
      continue;
    const Scope Needed = F.Needed;
    // Widen to the narrowest scope that suffices: device, not system,
    // unless host threads take part.
    std::string Consider = libcuName(Needed).str();
    std::optional<FixItHint> Fix;
    SourceLocation At = A->ScopeSpelling.getBegin();
    if (A->Widen == ScopedAccess::BuiltinName) {
      if (std::optional<std::string> Name = deviceBuiltinName(A->BuiltinOperation, Needed)) {
        Consider = "'" + *Name + "'";
        Fix = FixItHint::CreateReplacement(CharSourceRange::getTokenRange(A->ScopeSpelling), *Name);
      }
    } else if (A->Widen == ScopedAccess::Enumerator) {
      Fix = FixItHint::CreateReplacement(CharSourceRange::getTokenRange(A->ScopeSpelling),
                                         libcuName(Needed));
    }
    {
      auto D = diag(A->reportLoc(), "%0 is %1 with %2 here but %3 with %4 %5; the scopes must include each "
                            "other; consider %6")
               << ScopedAccesses::describe(*A->Object) << accessVerb(A->What) << libcuName(A->S)
               << accessVerb(Wider->What) << libcuName(Wider->S) << whereOther(*A, *Wider, F) << Consider;
      // One fix per spelling: several accesses may share a declaration.
      if (Fix && Fixed.insert(At).second)
        D << *Fix;
    }
    diag(Wider->Loc, "the %0 %1 is here", DiagnosticIDs::Note)
        << libcuName(Wider->S) << opKindName(Wider->What);
    // One template, two instantiations: say which call brings each scope.
    if (Wider->Loc == A->Loc)
      for (const ScopedAccess *X : {A, Wider})
        if (!X->CallChain.empty())
          diag(X->CallChain.back()->getBeginLoc(), "%0 is called here, with %1", DiagnosticIDs::Note)
              << X->Function << libcuName(X->S);
  }
  Records.reset();
}

} // namespace cuda_scope
