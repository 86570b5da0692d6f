//===- BlockDivergence.h - what threads of one block may decide differently ===//
//
// The IR front end of the divergent barrier rule (model/Hierarchy.h): which
// values threads of one block may see differently, seeded by the model's
// sources (the thread's index and lane, warp votes and shuffles, the clock)
// and by atomic read-modify-writes, followed through every use and through
// the joins of branches they decide; then the block barriers that a branch
// on such a value decides whether (or how often) a thread reaches.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_BLOCKDIVERGENCE_H
#define CUDA_SCOPE_IR_BLOCKDIVERGENCE_H

#include "model/Hierarchy.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include <vector>

namespace cuda_scope {

struct DivergentBarrier {
  const llvm::Instruction *Barrier; ///< the barrier intrinsic or inline PTX
  const llvm::Instruction *Branch;  ///< the terminator whose condition threads may decide differently
  bool Reduces;                     ///< __syncthreads_count/_and/_or
};

/// The block barriers of kernel \p F that a thread-varying branch decides
/// whether (or how often) a thread reaches, each once, with the first such
/// branch in the function's order.
std::vector<DivergentBarrier> divergentBarriers(const llvm::Function &F);

struct MaskedWarpCall {
  const llvm::Instruction *Call;   ///< the warp-synchronous intrinsic
  const llvm::Instruction *Branch; ///< the branch lanes of one warp may decide differently
  llvm::StringRef Name;            ///< its CUDA name
};
/// The warp-synchronous calls of kernel \p F with a constant full mask that
/// a branch lanes of one warp may decide differently decides whether (or how
/// often) a lane reaches: the warp mask rule (model/Hierarchy.h).
std::vector<MaskedWarpCall> fullMaskCallsUnderDivergence(const llvm::Function &F);

/// A shuffle of kernel \p F whose constant mask leaves out the lane some lane
/// of the mask reads (model/Hierarchy.h, shuffleReadsOutsideMask): its mask,
/// offset or lane and clamp operands constant, as inlining and unrolling
/// leave them.
struct ShuffleOutside {
  const llvm::Instruction *Call;
  llvm::StringRef Name; ///< its CUDA name
  uint32_t Mask;
  ShuffleOutsideMask Read;
};
std::vector<ShuffleOutside> shufflesOutsideMask(const llvm::Function &F);

} // namespace cuda_scope

#endif
