//===- Hierarchy.cpp - barriers at the right level of the hierarchy --------===//
#include "Hierarchy.h"

using namespace llvm;

namespace cuda_scope {

std::optional<unsigned> launchWithoutCooperation(ArrayRef<KernelLaunch> Launches) {
  for (unsigned I = 0; I < Launches.size(); ++I)
    if (Launches[I].Form == LaunchForm::Plain)
      return I;
  return std::nullopt;
}

StringRef gridBarrierName(Scope S) {
  return S == Scope::System ? "multi_grid_group::sync()" : "grid_group::sync()";
}

std::string gridSyncMessage(StringRef Kernel, StringRef Barrier, const KernelLaunch &Launch) {
  std::string M = "kernel '" + Kernel.str() + "' synchronizes its whole grid here (" + Barrier.str() +
                  "), but is launched with " + Launch.How;
  if (!Launch.Where.empty())
    M += " at " + Launch.Where;
  M += ", which is not a cooperative launch: a grid sync needs every block of the grid resident at once, and "
       "under this launch the kernel fails with cudaErrorLaunchFailure, a sticky error every later CUDA call of "
       "the process returns; launch it with cudaLaunchCooperativeKernel, with a grid no larger than "
       "cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count";
  return M;
}

} // namespace cuda_scope
