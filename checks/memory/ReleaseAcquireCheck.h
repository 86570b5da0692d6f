//===- ReleaseAcquireCheck.h - messages with no release/acquire pair ------===//
#ifndef CUDA_SCOPE_MEMORY_RELEASEACQUIRECHECK_H
#define CUDA_SCOPE_MEMORY_RELEASEACQUIRECHECK_H

#include "AstRecords.h"
#include "DeviceRuleBase.h"
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace cuda_scope {

/// Flags data published through a flag with no release, received with no
/// acquire, or ordered by a fence narrower than the threads on the other side.
/// Documentation: docs/checks/release-acquire.md
class ReleaseAcquireCheck : public DeviceRuleBase {
public:
  ReleaseAcquireCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CUDA; // device-code rules; host-API checks run on C and C++ too
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void report(const Finding &F);
  /// Notes for the calls from the kernel down to the helper that holds \p A.
  void noteCalls(const ScopedAccess &A);
  static constexpr unsigned MaxCallNotes = 6;

  const std::string FenceFunctionsOption, AcrossKernelsOption, StrictnessOption;
  std::vector<std::string> FenceFunctions;
  bool AcrossKernels = false;
  Strictness Net = Strictness::Evidence;
  std::shared_ptr<AstRecords> Records;
  const clang::SourceManager *SM = nullptr;
  const clang::LangOptions *LangOpts = nullptr;
  /// The findings shown at a project's call into a library's code, by that
  /// call, the data and the kind: the library's other paths to the same
  /// message (both arms of a branch on a field its constructor set) say it
  /// once.
  std::set<std::tuple<unsigned, unsigned, int>> ShownAtCall;
};

} // namespace cuda_scope

#endif
