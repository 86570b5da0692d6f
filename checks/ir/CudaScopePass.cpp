//===- CudaScopePass.cpp - the device-IR analysis and its reporting passes ===//
#include "CudaScopePass.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace cuda_scope {

AnalysisKey CudaScopeAnalysis::Key;

/// At -O0 every address sits behind a stack slot and every call is a call, so
/// no access names its object. Analyse a copy instead, optimised as at -O2
/// (inlining, SROA); debug locations survive, so remarks keep their lines.
static std::shared_ptr<Module> optimizedCopy(const Module &M) {
  std::shared_ptr<Module> Copy = CloneModule(M);
  for (Function &F : *Copy) {
    F.removeFnAttr(Attribute::OptimizeNone);
    if (!F.hasFnAttribute(Attribute::AlwaysInline))
      F.removeFnAttr(Attribute::NoInline);
  }
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(*Copy, MAM);
  return Copy;
}

CudaScopeAnalysis::Result CudaScopeAnalysis::run(Module &M, ModuleAnalysisManager &) {
  Result R;
  if (!M.getTargetTriple().isNVPTX())
    return R; // device compilation only
  const Module *Analysed = &M;
  if (any_of(M, [](const Function &F) { return isKernel(F) && F.hasOptNone(); })) {
    R.OptimizedCopy = optimizedCopy(M);
    Analysed = R.OptimizedCopy.get();
  }
  for (const Function &F : *Analysed)
    if (isKernel(F)) {
      KernelResult K{&F, collectDeviceOps(F), {}};
      K.Findings = checkKernelOps(K.Ops);
      R.Kernels.push_back(std::move(K));
    }
  return R;
}

/// Where the user wrote the operation: after inlining, an access inside
/// libcu++ or a wrapper carries the header's line, inlined at the user's call;
/// the outermost inlined-at location is in the kernel's own code.
static DebugLoc userLoc(const Instruction *I) {
  const DILocation *L = I->getDebugLoc().get();
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return DebugLoc(const_cast<DILocation *>(L));
}

static StringRef scopeWord(const IROp &Op) {
  return Op.ScopeQual ? shortName(*Op.ScopeQual) : StringRef("no");
}

PreservedAnalyses CudaScopeRemarkPass::run(Module &M, ModuleAnalysisManager &AM) {
  for (const CudaScopeAnalysis::KernelResult &K : AM.getResult<CudaScopeAnalysis>(M).Kernels) {
    std::string Kernel = demangle(K.Kernel->getName().str());
    for (const IRFinding &F : K.Findings) {
      const Instruction *I = F.At->I;
      OptimizationRemarkEmitter ORE(I->getFunction());
      ORE.emit([&] {
        OptimizationRemarkAnalysis R("cuda-scope", F.Check, userLoc(I), I->getParent());
        if (F.Check == "cuda-scope-release-acquire") {
          switch (F.What) {
          case IRFinding::NoRelease:
            R << ore::NV("Flag", F.Object) << " is published here (" << ore::NV("Access", F.At->Spelling)
              << ", " << orderName(F.At->Ord) << ") after plain writes to " << ore::NV("Data", F.Data)
              << " at " << ore::NV("OtherLocation", userLoc(F.Other->I))
              << " with no release between them, and kernel " << ore::NV("Kernel", Kernel)
              << " waits on it; a consumer can see the flag before the data; consider a release "
                 "store, or __threadfence() before it";
            break;
          case IRFinding::NoAcquire:
            R << ore::NV("Flag", F.Object) << " is received here (" << ore::NV("Access", F.At->Spelling)
              << ", " << orderName(F.At->Ord) << ") and " << ore::NV("Data", F.Data) << " is read after it at "
              << ore::NV("OtherLocation", userLoc(F.Other->I))
              << " with no acquire between them; the read can return stale data; consider an acquire "
                 "load, or __threadfence() after it";
            break;
          default:
            R << "the " << ore::NV("Scope", scopeWord(*F.At)) << "-scope fence ("
              << ore::NV("Access", F.At->Spelling) << ") orders the message through " << ore::NV("Flag", F.Object)
              << " (at " << ore::NV("OtherLocation", userLoc(F.Other->I))
              << ") and " << ore::NV("Data", F.Data)
              << ", but the other side may be in another block; consider __threadfence() (device scope)";
            break;
          }
          return R;
        }
        if (F.Check == "cuda-scope-cluster-wait") {
          R << ore::NV("Access", F.At->Spelling) << " reads " << ore::NV("Object", F.Object)
            << " after barrier.cluster.arrive (" << ore::NV("OtherLocation", userLoc(F.Other->I))
            << ") but before the matching barrier.cluster.wait; the other block may not have written it "
               "yet; consider barrier.cluster.wait (cluster.sync()) before the read";
          return R;
        }
        if (F.Check == "cuda-scope-proxy-fence") {
          R << ore::NV("Access", F.At->Spelling)
            << " reads shared memory through the async proxy after generic-proxy writes to "
            << ore::NV("Object", F.Object) << " with no fence.proxy.async between them";
          if (F.Other)
            R << "; the write is at " << ore::NV("OtherLocation", userLoc(F.Other->I));
          R << "; consider fence.proxy.async.shared::cta after the writes";
          return R;
        }
        R << ore::NV("Object", F.Object) << " is accessed with " << ore::NV("Scope", scopeWord(*F.At))
          << " scope (" << ore::NV("Access", F.At->Spelling) << ") in kernel "
          << ore::NV("Kernel", Kernel);
        if (F.Other)
          R << ", and with " << ore::NV("OtherScope", scopeWord(*F.Other)) << " scope ("
            << ore::NV("OtherAccess", F.Other->Spelling) << ") at "
            << ore::NV("OtherLocation", userLoc(F.Other->I))
            << "; every block reaches it, so the scopes must include each other";
        else
          R << ", but every block reaches it; block scope cannot include the other blocks";
        R << "; consider device scope";
        return R;
      });
    }
  }
  return PreservedAnalyses::all();
}

PreservedAnalyses CudaScopePrinterPass::run(Module &M, ModuleAnalysisManager &AM) {
  for (const CudaScopeAnalysis::KernelResult &K : AM.getResult<CudaScopeAnalysis>(M).Kernels) {
    OS << "kernel " << K.Kernel->getName() << "\n";
    for (const IROp &Op : K.Ops) {
      OS << "  " << kindName(Op.What) << " " << orderName(Op.Ord) << " scope="
         << (Op.ScopeQual ? shortName(*Op.ScopeQual) : StringRef("-")) << " object="
         << (Op.Object ? describeObject(Op.Object) : std::string("-"))
         << (Op.PerBlock ? " per-block" : "") << " [" << Op.Spelling << "]\n";
    }
    for (const IRFinding &F : K.Findings)
      OS << "  finding " << F.Check << " at [" << F.At->Spelling << "] on " << F.Object << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace cuda_scope
