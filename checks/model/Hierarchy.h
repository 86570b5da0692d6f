//===- Hierarchy.h - barriers at the right level of the hierarchy ----------===//
//
// CUDA synchronizes at four levels: a warp, a block, a grid, several grids.
// A barrier of one level is only correct where the threads of that level can
// all reach it. These are the rules about that, decided here once for the
// clang-tidy checks and the IR pass, with the words they report.
//
// The grid sync rule: a grid-wide barrier (cooperative groups' grid_group::
// sync, multi_grid_group::sync, or a function the user names as one) waits
// until every block of the grid has arrived, so every block must be resident
// at once. Only a cooperative launch guarantees that (and is refused where it
// cannot); under any other launch the blocks run as resources free up, and
// the kernel fails (H100: cudaErrorLaunchFailure, a sticky error that every
// later CUDA call of the process returns; RESULTS.md probe 1).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_HIERARCHY_H
#define CUDA_SCOPE_MODEL_HIERARCHY_H

#include "CudaApi.h"
#include "Engine.h"
#include "MemoryModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_scope {

/// One launch of a kernel, as a front end or the host facts show it.
struct KernelLaunch {
  std::string How;   ///< "<<<...>>>", "cudaLaunchKernel", "cudaLaunchCooperativeKernel"
  std::string Where; ///< "file:line", empty when not known
  LaunchForm Form = LaunchForm::Plain;
  GridSize Grid = GridSize::Unknown;
  std::string GrowsWith; ///< for Input: the value, as written ("n", "v.size()")
  /// For Input: the grid divides the input among its blocks ((n + 255) / 256,
  /// divUp(n, 256), n >> 8), one block for each share of it.
  bool Divides = false;
};

/// The grid sync rule: the first launch of a kernel that reaches a grid-wide
/// barrier under which that barrier cannot complete (a Plain launch), if any.
/// Attributes launches are neither: whether they are cooperative is in the
/// configuration, which the front ends do not read.
std::optional<unsigned> launchWithoutCooperation(llvm::ArrayRef<KernelLaunch> Launches);

/// The finding's words, at the grid sync: \p Kernel (its name as the user
/// wrote it), \p Barrier (what synchronizes the grid: "grid_group::sync()").
std::string gridSyncMessage(llvm::StringRef Kernel, llvm::StringRef Barrier, const KernelLaunch &Launch);

/// What a grid barrier of scope \p S is, in messages: cooperative groups'
/// grid_group::sync() (device) or multi_grid_group::sync() (system).
llvm::StringRef gridBarrierName(Scope S);

/// The check's name, for both front ends.
inline constexpr llvm::StringLiteral GridSyncCheckName = "cuda-scope-grid-sync";

/// The same rule's other half, on the host: a cooperative launch is refused
/// (cudaErrorCooperativeLaunchTooLarge: the kernel does not run) when its grid
/// is larger than what the GPU keeps resident. A grid that divides the input
/// among its blocks grows with the input and passes that bound once the input
/// is large enough; one computed from the occupancy query or the SM count
/// does not. The first cooperative launch whose grid so grows, if any.
std::optional<unsigned> cooperativeLaunchPastResidency(llvm::ArrayRef<KernelLaunch> Launches);
/// The finding's words, at that launch.
std::string cooperativeLaunchMessage(llvm::StringRef Kernel, const KernelLaunch &Launch);

// The grid barrier rule: a hand-written grid barrier (blocks count their
// arrivals on a word of global memory, then spin until the count reaches
// the grid's size, or until the last block to arrive flips a flag) needs,
// as the grid sync does, every block of the grid resident at once: a block
// that is not running cannot arrive, and the running ones spin forever
// without giving up their place. A launch that is not cooperative keeps
// that promise only for a grid bounded by what the GPU can keep resident;
// one whose grid grows with the input deadlocks once the input is large
// enough (H100: 133 of 528 blocks never saw every arrival at twice the
// co-resident grid, 398 of 1,056 at four times; RESULTS.md probe 2).
//
// A wait of the whole grid, from the records a front end made of a kernel:
// a read that every block may run, that spins, and either
//  - compares what it reads with the grid's size, on a word that the same
//    thread counts its arrival on before (a counting barrier), or
//  - waits on a word that is written only once a counting arrival has found
//    the grid's size (the last block to arrive flips a sense or bumps a
//    generation, and the others spin on it), or
//  - waits on a word that a master writes after it spun, in a loop over the
//    grid's blocks, on the word each waiting thread wrote before its wait
//    (Xiao and Feng's barrier: block 0 collects every block's arrival, then
//    releases each).
// A block that only waits (if (blockIdx.x == 0) while (count < gridDim.x))
// holds one place while the others arrive and leave: no deadlock, no wait of
// the grid. A cursor that counts (while (atomicAdd(&next, 1) < n)) is work,
// not a wait.
struct GridWait {
  unsigned Wait;    ///< the spinning read
  unsigned Arrival; ///< the counting arrival it waits for
};
std::vector<GridWait> gridWaits(llvm::ArrayRef<MemOp> Ops, const ProgramOrder &PO);

/// A counting grid barrier used again with the same goal: the thread arrives
/// on the count again after its wait (the arrival and the wait sit in one
/// loop: the same barrier each round), the wait compares the count with a goal
/// that does not grow between uses (GoalVaries is unset), and nothing but
/// arrivals writes the count. After the first use the count already holds the
/// goal, so every later wait is passed at once: blocks run into the next phase
/// while others are still in the last one, and read what is not yet written.
/// A goal that grows (gridDim.x * round), a generation or a sense that the
/// last arrival flips (not a counting wait), or a reset of the count is left
/// to the other rules.
///
/// Or a second barrier on the same count after the first one's wait, by the
/// same thread, whose wait is for the same goal: the grid's width itself in
/// both (GoalIsGrid). The first left the count at that goal, so the second is
/// passed at once. A second barrier that waits for a larger goal
/// (2 * gridDim.x) is right, and is not reported.
struct ReusedGridBarrier {
  unsigned Wait;    ///< the first use's wait; for a second barrier, its own wait
  unsigned Arrival; ///< its arrival
  /// The arrival of the next use (the same arrival, next round); for a
  /// second barrier, the first barrier's wait.
  unsigned Again;
  bool Second = false; ///< a second barrier, not a barrier in a loop
};
std::vector<ReusedGridBarrier> reusedGridBarriers(llvm::ArrayRef<MemOp> Ops, const ProgramOrder &PO,
                                                  llvm::ArrayRef<GridWait> Waits);

/// The finding's words, at the wait: \p Kernel as the user wrote it,
/// \p AgainWhere "file:line" of the next use's arrival.
std::string reusedGridBarrierMessage(llvm::StringRef Kernel, llvm::StringRef AgainWhere, bool Second = false);

/// The first launch under which a grid wait deadlocks: not cooperative,
/// with a grid that grows with the input.
std::optional<unsigned> launchBeyondResidency(llvm::ArrayRef<KernelLaunch> Launches);

/// The finding's words, at the wait: \p Kernel as the user wrote it,
/// \p ArrivalWhere "file:line" of the arrival.
std::string gridBarrierMessage(llvm::StringRef Kernel, llvm::StringRef ArrivalWhere, const KernelLaunch &Launch);
inline constexpr llvm::StringLiteral GridBarrierCheckName = "cuda-scope-grid-barrier";


/// A call that returns the grid's size, as a plain qualified name
/// (cooperative_groups::grid_group::num_blocks): what a front end that sees
/// calls before inlining counts as gridDim (the IR sees %nctaid).
bool isGridSizeCall(llvm::StringRef PlainName);

// The divergent barrier rule: a block barrier (__syncthreads() and its
// _count/_and/_or forms, bar.sync 0, thread_block::sync()) must be reached
// by every thread of the block or by none (CUDA programming guide; PTX
// barrier.sync.aligned: every thread of a warp must execute the same barrier
// instruction). Reached under a condition that threads of one block may
// decide differently (which includes an earlier return, break or continue
// under such a condition), it is undefined behaviour. On an H100 such a
// barrier completed once the skipping threads had exited, and neither
// compute-sanitizer tool reported it (RESULTS.md probe 3).
//
// What threads of one block may see differently, by name: the CUDA spelling
// a clang-tidy front end meets, or the NVVM intrinsic the IR pass meets.
// Returns what it is ("the thread's index"), or nothing for a value every
// thread of a block sees alike (blockIdx, blockDim, gridDim, a kernel
// argument, what is loaded from one address). An atomic read-modify-write's
// result varies too; the front ends know those by their own forms.
std::optional<llvm::StringRef> blockVaryingSource(llvm::StringRef Name);
/// The same for inline PTX: the special registers it reads (%tid, %laneid,
/// %warpid, %clock).
std::optional<llvm::StringRef> blockVaryingAsm(llvm::StringRef AsmText);
/// Inline PTX that reads the lane (%laneid) and no other varying register:
/// the thread's index in its warp (AMGX's utils::lane_id()).
bool isLaneAsm(llvm::StringRef AsmText);
/// Inline PTX that is a barrier of the whole block (bar.sync 0, barrier.sync
/// 0, with no thread count).
bool isWholeBlockBarrierAsm(llvm::StringRef AsmText);

/// A branch's condition as the block tests in it read: && and || of tests,
/// each either of one of the block's coordinates against a constant
/// (blockIdx.x == 1, blockIdx.y < 2: one value for every thread of a block,
/// fixed for the launch), of the thread's index in a one-dimensional grid
/// (threadIdx.x + blockIdx.x * blockDim.x == 0: thread 0 of block 0), or any
/// other test, which threads of one block may or may not decide alike.
/// -O2's forms come to the same: (blockIdx.x | threadIdx.x) == 0 is
/// blockIdx.x == 0 && threadIdx.x == 0. Both front ends build one from a
/// condition; the divergent barrier rule asks what it decides for a block
/// (BlockFacts), the memory rules which block it pins (pinnedBlock).
class BlockCondition {
public:
  /// blockIdx.x (\p Axis 0), .y (1) or .z (2) compared with \p C. == and
  /// != read a negative \p C as the 32-bit value (-1 is 0xffffffff); an
  /// ordering with one, or a constant past 32 bits, tests no block.
  static BlockCondition coordinate(unsigned Axis, IndexCompare Op, int64_t C);
  /// threadIdx.x + blockIdx.x * blockDim.x compared with \p C.
  static BlockCondition gridIndex(IndexCompare Op, int64_t C);
  /// Any other test; \p Varies: threads of one block may decide it differently.
  static BlockCondition other(bool Varies);
  static BlockCondition both(BlockCondition A, BlockCondition B);
  static BlockCondition either(BlockCondition A, BlockCondition B);
  BlockCondition negated() const;
  /// The one block (its blockIdx.x) whose threads see this come out
  /// \p WhenTrue, if only one does (blockPinnedBy, through !, && and ||).
  std::optional<int64_t> pinnedBlock(bool WhenTrue) const;

private:
  friend class BlockFacts;
  enum Kind : uint8_t { Coordinate, GridIndex, Other, And, Or } K = Other;
  unsigned Axis = 0;
  IndexCompare Op = IndexCompare::EQ;
  int64_t C = 0;
  bool Varies = true;
  std::vector<BlockCondition> Operands;
};

/// What the tests on a path say of the block's coordinates: every thread
/// that passed `blockIdx.x == 1` runs in block 1, every one that passed
/// `blockIdx.y < 2` in a block of rows 0 and 1. Each axis holds one value
/// for all the block's threads, so a test of another thread's path that
/// these facts decide is decided alike for the whole block.
class BlockFacts {
public:
  /// What passing (\p Taken) or failing \p C tells: what every thread on
  /// that arm knows of its block (a && passed: each operand; a || failed:
  /// each operand failed).
  void note(const BlockCondition &C, bool Taken);
  void add(const BlockFacts &Other);
  /// No block passes them all (blockIdx.x == 0 and blockIdx.x == 1).
  bool contradict() const;
  /// \p C's outcome for every thread of a block these facts hold in, where
  /// they decide it.
  std::optional<bool> decide(const BlockCondition &C) const;
  /// The one value they leave blockIdx's \p Axis, if one.
  std::optional<int64_t> only(unsigned Axis) const;

private:
  void force(const BlockCondition &C);
  void force(unsigned Axis, IndexCompare Op, int64_t C);
  std::optional<bool> decide(unsigned Axis, IndexCompare Op, int64_t C) const;
  /// The values an axis may hold: [Lo, Hi] but NotEqual.
  struct Range {
    int64_t Lo = 0;
    int64_t Hi = UINT32_MAX;
    std::vector<int64_t> NotEqual;
  };
  Range Axes[3];
};

/// A condition threads of one block may decide differently (\p Test, passed
/// or failed on the way to a barrier) leaves the barrier to every thread of
/// a block or to none, for each block that passes \p Facts (the block tests
/// on the barrier's path and on the condition's): the facts decide it, or no
/// block passes them.
bool decidedForBlock(const BlockCondition &Test, const BlockFacts &Facts);

/// The finding's words, at the barrier: \p Reduces for the _count/_and/_or
/// forms; \p ConditionWhere "file:line" of the deciding condition.
std::string divergentBarrierMessage(bool Reduces, llvm::StringRef ConditionWhere);
inline constexpr llvm::StringLiteral DivergentBarrierCheckName = "cuda-scope-divergent-barrier";

// The warp mask rule: a warp-synchronous call (__shfl*_sync, __ballot_sync,
// __any/__all/__uni_sync, __match*_sync, __reduce_*_sync, __syncwarp) must be
// executed by every lane its mask names. A constant full mask under a
// condition that lanes of one warp may decide differently (or after an exit
// under one) names lanes that do not execute it: undefined behaviour. On an
// H100, __shfl_sync(0xffffffff, v, lane + 1) under if (lane < 16) gave lane 15
// 0 instead of lane 16's value, and neither compute-sanitizer tool reported it
// (RESULTS.md probe 4).
//
// A value every lane of a warp sees alike, though threads of a block may not:
// a warp vote's or match's result, the warp's id. (The thread's index divided
// by the warp size is the warp's too: the front ends know that form.)
bool sameAcrossWarp(llvm::StringRef Name);
/// A value every thread of a block sees alike, whatever it is computed
/// from: a block barrier's reduction (__syncthreads_count/_and/_or, NVVM's
/// barrier.cta.red.*).
bool sameAcrossBlock(llvm::StringRef Name);
/// A block-stride value (a loop's variable that starts at threadIdx.x and
/// steps by blockDim.x) is threadIdx.x plus a whole number of blockDim.x
/// that is not negative. Since threadIdx.x < blockDim.x, such a value
/// divided by a whole positive number of blockDim.x, or less its remainder
/// by one, is the same for every thread of a block: which round it is in
/// ((pos / blockDim.x) * blockDim.x < n, which -O2 writes pos - pos % ntid).
/// The front ends read a value's form from its parts with these.
enum class StrideForm : uint8_t {
  Other,
  BlockSizes,       ///< blockDim.x times a constant >= 1
  ThreadPlusBlocks, ///< threadIdx.x plus BlockSizes (or nothing)
};
/// The form of a sum of two values of forms \p A and \p B.
StrideForm strideSum(StrideForm A, StrideForm B);
/// The form of a value of form \p A times the constant \p Factor.
StrideForm strideScaled(StrideForm A, std::optional<int64_t> Factor);
/// A quotient (or the value less its remainder) that is the same for every
/// thread of a block.
inline bool strideRoundAlike(StrideForm Dividend, StrideForm Divisor) {
  return Dividend == StrideForm::ThreadPlusBlocks && Divisor == StrideForm::BlockSizes;
}
/// The CUDA name of a warp-synchronous call, from its CUDA or NVVM spelling
/// ("__shfl_down_sync" for llvm.nvvm.shfl.sync.down.i32), and the index of
/// its mask argument; none for other calls.
struct WarpSyncCall {
  llvm::StringRef Name;
  unsigned MaskArg;
};
std::optional<WarpSyncCall> warpSyncCall(llvm::StringRef Name);
/// A cooperative groups tile's collective (thread_block_tile<32>::shfl,
/// ballot, any, sync...), by its method's name: the warp-synchronous call it
/// makes, with the tile's lanes as its mask (the full mask for a tile of 32).
/// What the IR pass sees once the tile's code is inlined.
std::optional<llvm::StringRef> tileCollective(llvm::StringRef Method);
/// The finding's words, at the call.
std::string warpMaskMessage(llvm::StringRef Call, llvm::StringRef ConditionWhere);
inline constexpr llvm::StringLiteral WarpMaskCheckName = "cuda-scope-warp-mask";

// Part of the warp mask rule: a shuffle's source lane must be in its mask.
// PTX shfl.sync gives lane i the value of lane j, j computed from the mode,
// the lane or offset operand b and the clamp and segment operand c (the
// pseudo-code of the PTX ISA's shfl.sync, where j may be i itself: then lane
// i keeps its own value). A lane j that the mask does not name takes no part
// in the shuffle (the CUDA programming guide: a value read from a thread that
// does not take part is undefined), so lane i's result is undefined. Every
// lane of the mask executes the call (what the rule above asks), so each of
// them is tried; a mask, b and c known as constants are needed.
enum class ShuffleMode { Idx, Up, Down, Bfly };
/// The mode of a shuffle from its CUDA name ("__shfl_down_sync", as
/// warpSyncCall gives it for both spellings); none for other calls.
std::optional<ShuffleMode> shuffleMode(llvm::StringRef CudaName);
/// The c operand CUDA's __shfl*_sync passes for \p Width (a power of two,
/// 1 to 32): ((32 - Width) << 8), or'ed with 0x1f but for up.
unsigned shuffleClamp(ShuffleMode M, unsigned Width);
/// Whether a shuffle (its CUDA name, and the c operand it passes) gives
/// every lane of the warp one lane's value: the index form over the whole
/// warp (__shfl_sync(mask, v, src), width 32, c = 0x1f; a tile of 32's
/// shfl(v, src)). Its result is then the same for every lane of the warp
/// where the source lane (operand 2 in both spellings) is, whatever the
/// value shuffled: a broadcast of what one lane read or won.
bool isWarpBroadcast(llvm::StringRef CudaName, unsigned C);
inline constexpr unsigned ShuffleSourceArg = 2;
/// The argument that holds the value a shuffle hands on, in both spellings
/// (__shfl_sync(mask, v, src), llvm.nvvm.shfl.sync.idx.i32(mask, v, src, c)):
/// the one after the mask; none for calls that are no shuffle.
inline std::optional<unsigned> shuffledValueArg(llvm::StringRef Name) {
  std::optional<WarpSyncCall> W = warpSyncCall(Name);
  return W && shuffleMode(W->Name) ? std::optional<unsigned>(W->MaskArg + 1) : std::nullopt;
}
/// The lane lane \p Lane reads, or none where it keeps its own value.
std::optional<unsigned> shuffleSource(ShuffleMode M, unsigned Lane, unsigned B, unsigned C);
/// The first lane of \p Mask (in lane order) whose source lane is not in it.
struct ShuffleOutsideMask {
  unsigned Lane;
  unsigned Source;
};
std::optional<ShuffleOutsideMask> shuffleReadsOutsideMask(ShuffleMode M, uint32_t Mask, unsigned B, unsigned C);
/// The finding's words, at the call.
std::string shuffleSourceMessage(llvm::StringRef Call, uint32_t Mask, ShuffleOutsideMask Read);

// The warp race rule: lanes of one warp are threads like any others (PTX
// memory model; CUDA C++'s volatile is not atomic). One lane writing an
// element of shared memory and another lane reading or writing it, with
// nothing between them that orders the two (__syncwarp(), a warp *_sync
// call, __syncthreads()), is a data race: undefined behaviour, and since
// Volta's independent thread scheduling nothing keeps a warp's lanes in step,
// so the read may see the element from before the other lane's write. The
// common case is the pre-Volta warp-synchronous reduction in volatile
// __shared__ memory (s[tid] += s[tid + 16]; s[tid] += s[tid + 8]; ...). On an
// H100 its sums were never wrong, and racecheck reported about a million
// hazards per step (RESULTS.md probe 5).
//
// From the records of a kernel: two plain or volatile accesses of one shared
// object, at least one a write, each at the thread's own index (or lane)
// plus a constant (s[tid + k]) from the same base that every lane of a warp
// computes alike (s = slots + warp * 64), whose constants differ by less
// than a warp, so that
// some lane's access and another lane's of the same warp touch one element;
// both run by those lanes (their threadIdx.x bounds, where the code shows
// them, admit both); one before the other in program order with no barrier
// of the warp or the block between them (nor, in a loop, anywhere in it).
struct WarpRace {
  unsigned At;    ///< the later access, where it is reported
  unsigned Other; ///< the earlier access, which another lane runs on the same element
  int Lanes;      ///< the other lane is this lane plus Lanes
};
std::vector<WarpRace> warpRaces(llvm::ArrayRef<MemOp> Ops, const ProgramOrder &PO);

/// The finding's words, at the later access: \p AtWrites, \p OtherWrites
/// what each does; \p OtherWhere "file:line" of the earlier one.
std::string warpRaceMessage(bool AtWrites, bool OtherWrites, int Lanes, llvm::StringRef OtherWhere);
inline constexpr llvm::StringLiteral WarpRaceCheckName = "cuda-scope-warp-race";

/// The lanes of a warp (warpSize).
inline constexpr int WarpLanes = 32;

} // namespace cuda_scope

#endif
