//===- PassPlugin.cpp - registers the cuda-scope device-IR pass -----------===//
// USAGE: opt -load-pass-plugin=libCudaScopePass.so -passes=cuda-scope -pass-remarks-analysis=cuda-scope in.ll
//        clang++ -x cuda --cuda-device-only -fpass-plugin=libCudaScopePass.so -Rpass-analysis=cuda-scope in.cu
#include "ir/CudaScopePass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

static void registerCudaScopePasses(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback(
      [](ModuleAnalysisManager &MAM) { MAM.registerPass([] { return cuda_scope::CudaScopeAnalysis(); }); });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "cuda-scope") {
          MPM.addPass(cuda_scope::CudaScopeRemarkPass());
          return true;
        }
        if (Name == "print<cuda-scope>") {
          MPM.addPass(cuda_scope::CudaScopePrinterPass(errs()));
          return true;
        }
        return false;
      });
  // From clang's -fpass-plugin: after inlining at -O1 and above, and at the
  // end of the -O0 pipeline, which calls the same extension point.
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
    MPM.addPass(cuda_scope::CudaScopeRemarkPass());
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "cuda-scope", "0.1.0", registerCudaScopePasses};
}
