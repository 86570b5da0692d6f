//===- TidyModule.cpp - registers the cuda-scope-* clang-tidy checks ------===//
// USAGE: clang-tidy -load=libCudaScopeTidy.so -checks='-*,cuda-scope-*' file.cu -- <flags>
// It also adds the nvcc-compatibility layer (-include include/cuda-scope-nvcc.h beside it) to
// every file's flags.
#include "host/CallbackApiCheck.h"
#include "host/CaptureApiCheck.h"
#include "model/Hierarchy.h"
#include "memory/DivergentBarrierCheck.h"
#include "memory/GridBarrierCheck.h"
#include "memory/GridSyncCheck.h"
#include "memory/WarpRaceCheck.h"
#include "memory/InsufficientCheck.h"
#include "memory/WideScopeCheck.h"
#include "model/Wording.h"
#include "memory/MismatchCheck.h"
#include "memory/ReleaseAcquireCheck.h"
#include "memory/WarpMaskCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <dlfcn.h>

namespace cuda_scope {

/// The nvcc-compatibility header (compat/cuda-scope-nvcc.h), which the build and the install put
/// in include/ beside this module; empty when it is not there (a module copied elsewhere, or
/// linked into cuda-scope-clangd, which does not take -include from clang-tidy options anyway).
static std::string nvccCompatHeader() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&nvccCompatHeader), &Info) || !Info.dli_fname)
    return "";
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(Info.dli_fname));
  llvm::sys::path::append(Path, "include", "cuda-scope-nvcc.h");
  return llvm::sys::fs::exists(Path) ? std::string(Path) : "";
}

class CudaScopeModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<CallbackApiCheck>("cuda-scope-callback-api");
    Factories.registerCheck<CaptureApiCheck>("cuda-scope-capture-api");
    Factories.registerCheck<DivergentBarrierCheck>(DivergentBarrierCheckName);
    Factories.registerCheck<GridSyncCheck>(GridSyncCheckName);
    Factories.registerCheck<GridBarrierCheck>(GridBarrierCheckName);
    Factories.registerCheck<WarpRaceCheck>(WarpRaceCheckName);
    Factories.registerCheck<InsufficientCheck>("cuda-scope-insufficient");
    Factories.registerCheck<MismatchCheck>("cuda-scope-mismatch");
    Factories.registerCheck<ReleaseAcquireCheck>("cuda-scope-release-acquire");
    Factories.registerCheck<WarpMaskCheck>(WarpMaskCheckName);
    Factories.registerCheck<WideScopeCheck>(WideScopeCheckName);
  }

  // Every file clang-tidy analyses with the module loaded is compiled with the nvcc-compatibility
  // layer, so that what nvcc builds parses without flags of the user's own (docs/compatibility.md).
  // Before the user's flags: like nvcc's own forced include, it precedes the user's -include.
  clang::tidy::ClangTidyOptions getModuleOptions() override {
    clang::tidy::ClangTidyOptions Options;
    std::string Header = nvccCompatHeader();
    if (!Header.empty())
      Options.ExtraArgsBefore = std::vector<std::string>{"-include", Header};
    return Options;
  }
};

} // namespace cuda_scope

static clang::tidy::ClangTidyModuleRegistry::Add<cuda_scope::CudaScopeModule>
    Registration("cuda-scope-module", "Checks for CUDA synchronization bugs.");
