//===- CallbackApiCheck.h - CUDA API calls reachable from host callbacks --===//
#ifndef CUDA_SCOPE_HOST_CALLBACKAPICHECK_H
#define CUDA_SCOPE_HOST_CALLBACKAPICHECK_H

#include "ast/TUCallGraph.h"
#include "TUFacts.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringSet.h"

namespace cuda_scope {

/// Flags CUDA API calls and kernel launches reachable from a host function that a stream or graph runs.
/// Documentation: docs/checks/callback-api.md
class CallbackApiCheck : public clang::tidy::ClangTidyCheck {
public:
  CallbackApiCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);
  // Host code that drives CUDA lives in .c and .cpp files too.
  bool isLanguageVersionSupported(const clang::LangOptions &) const override { return true; }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  struct ExtraRegistrar {
    std::string Name;
    unsigned Arg;
  };

  const std::string AllowedFunctionsOption;
  const std::string RegistrarsOption;
  const std::string CudaFunctionsOption;
  const std::string FactsFileOption;
  const std::string ThreadFunctionsOption;
  std::vector<std::pair<std::string, unsigned>> ThreadFunctions;
  llvm::StringSet<> Allowed, CudaFunctions;
  std::vector<ExtraRegistrar> Registrars;

  std::shared_ptr<TUCallGraph> Graph;
  std::shared_ptr<TUFacts> Facts;
  std::vector<Registration> UserRegistrations;
};

} // namespace cuda_scope

#endif
