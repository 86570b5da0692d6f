//===- GridBarrierCheck.h - hand-written grid barriers: residency, reuse ---===//
#ifndef CUDA_SCOPE_MEMORY_GRIDBARRIERCHECK_H
#define CUDA_SCOPE_MEMORY_GRIDBARRIERCHECK_H

#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags the wait of a hand-written grid barrier (blocks count arrivals,
/// then spin until all have come) in a kernel that the file launches, not
/// cooperatively, on a grid that grows with the input; and a counting grid
/// barrier used again each round on a goal that does not grow.
/// Documentation: docs/checks/grid-barrier.md
class GridBarrierCheck : public DeviceRuleBase {
public:
  GridBarrierCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) : DeviceRuleBase(Name, Ctx) {}
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace cuda_scope

#endif
