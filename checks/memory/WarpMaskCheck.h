//===- WarpMaskCheck.h - full warp masks under lane-varying conditions -----===//
#ifndef CUDA_SCOPE_MEMORY_WARPMASKCHECK_H
#define CUDA_SCOPE_MEMORY_WARPMASKCHECK_H

#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags a warp-synchronous call (__shfl*_sync, __ballot_sync, __syncwarp, ...)
/// whose constant mask names every lane, under a condition that lanes of one
/// warp may decide differently. Documentation: docs/checks/warp-mask.md
class WarpMaskCheck : public DeviceRuleBase {
public:
  WarpMaskCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) : DeviceRuleBase(Name, Ctx) {}
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace cuda_scope

#endif
