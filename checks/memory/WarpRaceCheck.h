//===- WarpRaceCheck.h - lanes of a warp racing through shared memory -----===//
#ifndef CUDA_SCOPE_MEMORY_WARPRACECHECK_H
#define CUDA_SCOPE_MEMORY_WARPRACECHECK_H

#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags an access of shared memory that another lane of the same warp makes
/// to the same element with nothing between them that orders the two
/// (__syncwarp(), a warp *_sync call, __syncthreads()).
/// Documentation: docs/checks/warp-race.md
class WarpRaceCheck : public DeviceRuleBase {
public:
  WarpRaceCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) : DeviceRuleBase(Name, Ctx) {}
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace cuda_scope

#endif
