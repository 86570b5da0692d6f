//===- DeviceRuleBase.h - what every check of the device rules shares ------===//
//
// The checks of the device rules read the same walk of the device code
// (ScopedAccesses, AstRecords). On a host-side compilation that walk leaves
// out the arms of #if __CUDA_ARCH__ the host took only because the macro is
// not defined there (ast/ArchRegions.h); each check has the preprocessor
// record them, so any one of them enabled is enough.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_DEVICERULEBASE_H
#define CUDA_SCOPE_MEMORY_DEVICERULEBASE_H

#include "ast/ArchRegions.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace cuda_scope {

class DeviceRuleBase : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP, clang::Preprocessor *) override {
    ArchRegions::track(SM, PP);
  }
};

} // namespace cuda_scope

#endif
