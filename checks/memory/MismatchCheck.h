//===- MismatchCheck.h - concurrent accesses with scopes that exclude each other ===//
#ifndef CUDA_SCOPE_MEMORY_MISMATCHCHECK_H
#define CUDA_SCOPE_MEMORY_MISMATCHCHECK_H

#include "AstRecords.h"
#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags atomic accesses to one object that can run concurrently but whose scopes do not include each other.
/// Documentation: docs/checks/mismatch.md
class MismatchCheck : public DeviceRuleBase {
public:
  MismatchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CUDA; // device-code rules; host-API checks run on C and C++ too
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  const bool AcrossKernels; // read once with Options.get, written back in storeOptions
  std::shared_ptr<AstRecords> Records;
};

} // namespace cuda_scope

#endif
