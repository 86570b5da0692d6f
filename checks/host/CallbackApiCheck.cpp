//===- CallbackApiCheck.cpp - CUDA API calls reachable from host callbacks ===//
#include "CallbackApiCheck.h"
#include "CallChains.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {


CallbackApiCheck::CallbackApiCheck(StringRef Name, tidy::ClangTidyContext *Ctx)
    : ClangTidyCheck(Name, Ctx),
      AllowedFunctionsOption(Options.get("AllowedFunctions", StatelessApiFunctions).str()),
      RegistrarsOption(Options.get("Registrars", "").str()),
      CudaFunctionsOption(Options.get("CudaFunctions", "").str()),
      FactsFileOption(Options.getLocalOrGlobal("FactsFile", "").str()),
      ThreadFunctionsOption(Options.getLocalOrGlobal("ThreadFunctions", "").str()) {
  ThreadFunctions = threadFunctionsOption(*this, ThreadFunctionsOption, Name);
  for (const std::string &F : splitList(AllowedFunctionsOption))
    Allowed.insert(F);
  for (const std::string &F : splitList(CudaFunctionsOption))
    CudaFunctions.insert(F);
  std::vector<std::string> Bad;
  for (auto &[RegName, Arg] : parseNameIndexList(RegistrarsOption, Bad))
    Registrars.push_back({RegName, Arg});
  for (const std::string &B : Bad)
    configurationDiag("invalid entry '%0' in option 'Registrars' of check '%1': expected "
                      "'function:callback-argument-index'",
                      DiagnosticIDs::Error)
        << B << Name;
}

void CallbackApiCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowedFunctions", AllowedFunctionsOption);
  Options.store(Opts, "Registrars", RegistrarsOption);
  Options.store(Opts, "CudaFunctions", CudaFunctionsOption);
  Options.store(Opts, "FactsFile", FactsFileOption);
  Options.store(Opts, "ThreadFunctions", ThreadFunctionsOption);
}

void CallbackApiCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  if (Registrars.empty())
    return;
  std::vector<StringRef> Names;
  for (const ExtraRegistrar &R : Registrars)
    Names.push_back(R.Name);
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(Names)).bind("registrar"))).bind("call"),
                     this);
}

void CallbackApiCheck::check(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>("tu")) {
    Graph = TUCallGraph::get(*Result.Context);
    Facts = TUFacts::get(*Result.Context);
    Facts->configure(FactsFileOption, ThreadFunctions);
    UserRegistrations.clear();
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Registrar = Result.Nodes.getNodeAs<FunctionDecl>("registrar");
  if (!Call || !Registrar)
    return;
  for (const ExtraRegistrar &R : Registrars) {
    if (Registrar->getQualifiedNameAsString() != R.Name && Registrar->getName() != R.Name)
      continue;
    if (R.Arg >= Call->getNumArgs())
      continue;
    const Expr *Arg = Call->getArg(R.Arg);
    if (const FunctionDecl *F = TUCallGraph::resolveFunction(Arg))
      UserRegistrations.push_back({F, Arg, Registrar->getName()});
  }
}

void CallbackApiCheck::onEndOfTranslationUnit() {
  if (!Graph)
    return;
  std::vector<Registration> All(Graph->registrations().begin(), Graph->registrations().end());
  All.insert(All.end(), UserRegistrations.begin(), UserRegistrations.end());

  unsigned Mask = (1u << CudaEvent::ApiCall) | (1u << CudaEvent::KernelLaunch);
  if (!CudaFunctions.empty())
    Mask |= (1u << CudaEvent::ExternalCall) | (1u << CudaEvent::OpenCall);
  auto Wanted = [&](const CudaEvent &E) {
    switch (E.What) {
    case CudaEvent::ApiCall: return !Allowed.contains(E.Name);
    case CudaEvent::KernelLaunch: return true;
    case CudaEvent::ExternalCall:
    case CudaEvent::OpenCall: return !E.Virtual && CudaFunctions.contains(E.Name);
    }
    return false;
  };

  DenseSet<const FunctionDecl *> DoneCallbacks;
  DenseSet<const Expr *> Reported;
  for (const Registration &R : All) {
    if (!DoneCallbacks.insert(R.Callback).second)
      continue;
    Graph->forEachReachable(R.Callback, Mask, Wanted, [&](const TUCallGraph::Path &P) {
      if (!Reported.insert(P.Event->E).second)
        return;
      diag(P.Event->E->getBeginLoc(), "%0") << callbackMessage(*P.Event);
      diag(R.Site->getBeginLoc(), "%0 is registered as a host callback here, through '%1'",
           DiagnosticIDs::Note)
          << R.Callback << R.Registrar;
      noteCallChain(*this, P.Chain);
    });
  }

  // For the whole program: what each function other files can call reaches
  // here, the calls that leave the file, and the callbacks registered here.
  if (Facts && Facts->enabled()) {
    for (const Registration &R : All) {
      Facts->callback(R);
      Facts->include(*Graph, R.Callback);
    }
    for (const Registration &R : Graph->openRegistrations())
      Facts->callback(R);
    Facts->include(*Graph);
    for (const FunctionDecl *F : Facts->functions())
      if (const TUCallGraph::Summary *S = Graph->summary(F))
        for (const CudaEvent &E : S->Events)
          if ((E.mask() & Mask) && Wanted(E))
            Facts->event(F, "callback", E.E->getBeginLoc(),
                         json::Object{{"message", callbackMessage(E)}});
  }
  Graph.reset();
  Facts.reset();
  UserRegistrations.clear();
}

} // namespace cuda_scope
