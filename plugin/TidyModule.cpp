//===- TidyModule.cpp - registers the cuda-scope-* clang-tidy checks ------===//
// USAGE: clang-tidy -load=libCudaScopeTidy.so -checks='-*,cuda-scope-*' file.cu -- <flags>
#include "tidy/CallbackApiCheck.h"
#include "tidy/CaptureApiCheck.h"
#include "tidy/InsufficientCheck.h"
#include "tidy/MismatchCheck.h"
#include "tidy/ReleaseAcquireCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace cuda_scope {

class CudaScopeModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<CallbackApiCheck>("cuda-scope-callback-api");
    Factories.registerCheck<CaptureApiCheck>("cuda-scope-capture-api");
    Factories.registerCheck<InsufficientCheck>("cuda-scope-insufficient");
    Factories.registerCheck<MismatchCheck>("cuda-scope-mismatch");
    Factories.registerCheck<ReleaseAcquireCheck>("cuda-scope-release-acquire");
  }
};

} // namespace cuda_scope

static clang::tidy::ClangTidyModuleRegistry::Add<cuda_scope::CudaScopeModule>
    Registration("cuda-scope-module", "Checks for CUDA synchronization bugs.");
