//===- InsufficientCheck.h - one scope that cannot include every accessor -===//
#ifndef CUDA_SCOPE_MEMORY_INSUFFICIENTCHECK_H
#define CUDA_SCOPE_MEMORY_INSUFFICIENTCHECK_H

#include "AstRecords.h"
#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags atomics, barriers and fences whose scope cannot include every thread that accesses the object.
/// Documentation: docs/checks/insufficient.md
class InsufficientCheck : public DeviceRuleBase {
public:
  InsufficientCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CUDA; // device-code rules; host-API checks run on C and C++ too
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void reportAccess(const Finding &F);
  void reportFence(const Finding &F);

  std::shared_ptr<AstRecords> Records;
  /// Option Strictness: evidence (a fence counts only where some read of the
  /// object in the kernel is tested) or wide.
  std::string StrictnessOption;
  Strictness Net = Strictness::Evidence;
};

} // namespace cuda_scope

#endif
