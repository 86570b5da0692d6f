//===- GridSyncCheck.h - grid syncs in kernels not launched cooperatively --===//
#ifndef CUDA_SCOPE_MEMORY_GRIDSYNCCHECK_H
#define CUDA_SCOPE_MEMORY_GRIDSYNCCHECK_H

#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags a grid-wide barrier (cooperative groups' grid sync) in a kernel that
/// the file launches with <<<...>>> or cudaLaunchKernel, not cooperatively.
/// Documentation: docs/checks/grid-sync.md
class GridSyncCheck : public DeviceRuleBase {
public:
  GridSyncCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) : DeviceRuleBase(Name, Ctx) {}
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace cuda_scope

#endif
