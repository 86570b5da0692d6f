//===- CudaScopePass.h - the device-IR analysis and its reporting passes --===//
#ifndef CUDA_SCOPE_IR_CUDASCOPEPASS_H
#define CUDA_SCOPE_IR_CUDASCOPEPASS_H

#include "BlockDivergence.h"
#include "IrRecords.h"
#include "model/Hierarchy.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_scope {

/// Every kernel's memory operations and what the engine found in them.
class CudaScopeAnalysis : public llvm::AnalysisInfoMixin<CudaScopeAnalysis> {
public:
  struct GridSync {
    unsigned At;        ///< the kernel's first grid barrier, an operation of Records
    std::string Kernel; ///< the kernel's name, as the host side's facts spell it
    KernelLaunch Launch;
  };
  struct GridBarrier {
    GridWait Wait;      ///< operations of Records
    std::string Kernel; ///< as the host side's facts spell it
    KernelLaunch Launch;
  };
  struct Result {
    std::unique_ptr<IrRecords> Records; ///< none outside device compilation
    std::vector<Finding> Findings;
    /// The grid sync rule (model/Hierarchy.h): a kernel's first grid barrier
    /// (an operation of Records) and the launch under which it cannot
    /// complete, from the host side's facts.
    std::vector<GridSync> GridSyncs;
    /// The grid barrier rule (model/Hierarchy.h): a kernel's first wait of
    /// the whole grid and the launch, from the host side's facts, whose grid
    /// grows past residency.
    std::vector<GridBarrier> GridBarriers;
    /// The same rule's reused counting barriers, however launched.
    std::vector<ReusedGridBarrier> ReusedBarriers;
    /// The warp race rule (model/Hierarchy.h), over every kernel's records.
    std::vector<WarpRace> WarpRaces;
    /// The divergent barrier rule (model/Hierarchy.h), per kernel.
    std::vector<DivergentBarrier> DivergentBarriers;
    /// The warp mask rule (model/Hierarchy.h), per kernel.
    std::vector<MaskedWarpCall> WarpMasks;
    /// Its shuffles that read a lane outside their mask, per kernel.
    std::vector<ShuffleOutside> ShuffleSources;
    /// At -O0 the kernels are analysed in an optimised copy of the module,
    /// which the findings point into; it lives as long as the result.
    std::shared_ptr<llvm::Module> OptimizedCopy;
  };
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  friend llvm::AnalysisInfoMixin<CudaScopeAnalysis>;
  static llvm::AnalysisKey Key;
};

/// Reports the findings as optimization remarks named after the rule.
class CudaScopeRemarkPass : public llvm::PassInfoMixin<CudaScopeRemarkPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; } // runs at -O0 too
};

/// print<cuda-scope>: every collected operation and finding, for tests.
class CudaScopePrinterPass : public llvm::PassInfoMixin<CudaScopePrinterPass> {
public:
  explicit CudaScopePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace cuda_scope

#endif
