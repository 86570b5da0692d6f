//===- WideScopeCheck.h - a scope wider than any thread that can see the memory -===//
#ifndef CUDA_SCOPE_MEMORY_WIDESCOPECHECK_H
#define CUDA_SCOPE_MEMORY_WIDESCOPECHECK_H

#include "AstRecords.h"
#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags fences and ordering atomics whose scope is wider than every thread
/// that can see the memory they order: a cost, not a bug (off by default).
/// Documentation: docs/checks/wide-scope.md
class WideScopeCheck : public DeviceRuleBase {
public:
  WideScopeCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// Option FixIts: offer the narrower scope as a fix-it (default true).
  const bool FixIts;
  std::shared_ptr<AstRecords> Records;
};

} // namespace cuda_scope

#endif
