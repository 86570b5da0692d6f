//===- EngineFlags.h - what is a flag and what is data, per kernel --------===//
//
// The message rules' view of one kernel (or, across kernels, of the unit):
// its flags (objects some access treats as shared, published and received)
// and its data (what it both writes and reads with plain or volatile
// accesses), grouped by EngineFlags.cpp for EngineMessages.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_ENGINEFLAGS_H
#define CUDA_SCOPE_MODEL_ENGINEFLAGS_H

#include "EngineImpl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace cuda_scope {
namespace engine {

using llvm::DenseMap;
using llvm::SmallVector;

/// An access that may carry data: plain, or volatile (relaxed, which orders nothing).
inline bool isData(const MemOp &Op) { return Op.isAccess() && (Op.Ord == Order::Plain || Op.Ord == Order::Volatile); }

/// A read that receives: its value decides a branch. A counting update
/// (atomicAdd) that is only checked against a bound (idx < capacity) claims a
/// slot or a work item, and says nothing of what other threads did before
/// theirs: with evidence, it must be tested for a value (== gridDim.x - 1).
inline bool isReceive(const State &St, const MemOp &Op) {
  if (!Op.Tested)
    return false;
  return St.Opts.Net == Strictness::Wide || Op.Test != ValueTest::Bound || !Op.Counts;
}

struct Flag {
  int Object = -1;
  SmallVector<unsigned, 4> Publishes, Receives;
  /// Every read of the flag, tested or not (for acquire patterns).
  SmallVector<unsigned, 4> Reads;
  /// Publishes that only reset the flag after receiving it.
  SmallVector<unsigned, 2> Resets;
  Scope Needed = Scope::Device;
};

/// The messages of one kernel (or, across kernels, of the unit).
struct MessageGroup {
  std::vector<Flag> Flags;
  /// Writes and reads of data objects.
  SmallVector<unsigned, 8> DataStores, DataLoads;
  /// The writes of objects that are only written (with plain or volatile
  /// stores): on the receiving side they take a read's place.
  SmallVector<unsigned, 8> OnlyWrites;
  /// What a receive may be followed by: DataLoads, then OnlyWrites.
  SmallVector<unsigned, 8> DataUses;
  DenseMap<int, SmallVector<unsigned, 4>> StoresOf;
  SmallVector<unsigned, 8> Fences, Barriers;
};

/// The message groups of \p St: per kernel (or one across kernels), with
/// their flags, data, fences and barriers; kernels with no flag have none.
std::vector<MessageGroup> messageGroups(const State &St);

} // namespace engine
} // namespace cuda_scope

#endif
