//===- DivergentBarrierCheck.h - block barriers under thread-varying conditions ===//
#ifndef CUDA_SCOPE_MEMORY_DIVERGENTBARRIERCHECK_H
#define CUDA_SCOPE_MEMORY_DIVERGENTBARRIERCHECK_H

#include "DeviceRuleBase.h"

namespace cuda_scope {

/// Flags a block barrier (__syncthreads and its forms) that threads of one
/// block may not all reach: under a condition on the thread's index, a lane,
/// a per-thread value or an atomic's result, or after a return, break or
/// continue under one. Documentation: docs/checks/divergent-barrier.md
class DivergentBarrierCheck : public DeviceRuleBase {
public:
  DivergentBarrierCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) : DeviceRuleBase(Name, Ctx) {}
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace cuda_scope

#endif
