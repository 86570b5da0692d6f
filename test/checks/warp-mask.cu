// cuda-scope-warp-mask: a warp-synchronous call whose constant mask names every lane, under a
// condition lanes of one warp may decide differently, against the real CUDA 13 headers; both
// clang-tidy sides, and the IR pass at the same places (the last RUN lines diff them).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-mask' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-mask' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-mask' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*warp-mask.cu:\([0-9]*\):\([0-9]*\): warning: .* at .*warp-mask.cu:\([0-9]*\) that .*\[\(cuda-scope-[a-z-]*\)\]$/\4 \1 \2 \3/p' \
// RUN:   | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*warp-mask.cu:\([0-9]*\):\([0-9]*\): remark: .* at .*warp-mask.cu:\([0-9]*\) that .*$/cuda-scope-warp-mask \1 \2 \3/p' \
// RUN:   | sort > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test -s %t.ir

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Positive: the probe's shape, a shuffle of the upper half's values under if (lane < 16).
__global__ void halfWarpShuffle(int *A) {
  int Lane = threadIdx.x % 32;
  int V = A[threadIdx.x];
  if (Lane < 16)
    V = __shfl_sync(0xffffffff, V, Lane + 1);
  // CHECK: :[[@LINE-1]]:9: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  A[threadIdx.x] = V;
}

// Positive: a warp reduction after an early return of the threads past the end.
__global__ void tailReduce(float *A, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float V = A[I];
  for (int O = 16; O > 0; O /= 2)
    V += __shfl_down_sync(0xffffffff, V, O);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_down_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-5]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-6]]:7: note: lanes of one warp may decide this condition differently
  A[I] = V;
}

// Positive: __syncwarp() (its default mask is the full one) and a 64-bit shuffle (two 32-bit ones,
// one finding) under a condition on the thread's parity.
__global__ void oddLanes(double *A) {
  double V = A[threadIdx.x];
  if (threadIdx.x & 1) {
    V += __shfl_down_sync(0xffffffff, V, 1);
    // CHECK: :[[@LINE-1]]:10: warning: this __shfl_down_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: warning: this __syncwarp names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-5]] that {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-6]]:7: note: lanes of one warp may decide this condition differently
  }
  A[threadIdx.x] = V;
}

// Positive: one past the grid-wide thread index, divided by 32, is not a warp's: lanes 31 and 0
// of the next warp share a quotient.
__global__ void offsetWarpIndex(const int *Queue, int *Out, unsigned N) {
  unsigned W = (blockIdx.x * blockDim.x + threadIdx.x + 1) / 32;
  if (W < N) {
    int V = __shfl_sync(0xffffffff, Queue[W], 0);
    // CHECK: :[[@LINE-1]]:13: warning: this __shfl_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
    Out[W] = V;
  }
}

// Positive: a linear index moved on by one is no warp's index any more.
__global__ void bumpedWarpIndex(float *Out) {
  unsigned Tid = threadIdx.x + blockDim.x * threadIdx.y;
  ++Tid;
  float V = Out[Tid];
  if ((Tid >> 5) == 0)
    V += __shfl_down_sync(0xffffffff, V, 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_down_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  Out[Tid] = V;
}

// Negative cases.
static const int ThreadsPerBlock = 256, WarpLanes = 32;
// no-warning: the thread's index plus a multiple of 32 that lanes share (blockIdx.x * 256,
// blockIdx.x * blockDim.x), divided by 32, is the warp's index in the grid: a loop over a
// worklist by warp, or a bound on it, is the same for every lane of a warp.
__global__ void gridWarpIndex(const int *Queue, int *Out, int Start, int End, unsigned N) {
  const int From = (threadIdx.x + blockIdx.x * ThreadsPerBlock) / WarpLanes;
  const int Step = (gridDim.x * ThreadsPerBlock) / WarpLanes;
  for (int I = Start + From; I < End; I += Step)
    Out[I] = __shfl_sync(0xffffffff, Queue[I] + threadIdx.x % 32, 0);
  unsigned W = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (W < N)
    Out[W] = __shfl_sync(0xffffffff, Queue[W], 0);
}
// no-warning: the thread's linear index in a 2-D block (threadIdx.x + blockDim.x * threadIdx.y,
// or a width of 64 the code assumes), divided by 32, is its warp: warps are formed by it.
__global__ void blockWarpIndex(float *Out) {
  unsigned Tid = threadIdx.x + 64 * threadIdx.y;
  unsigned Warp = Tid >> 5, Lane = Tid % 32;
  float V = Out[Tid];
  if (Warp == 0)
    V += __shfl_down_sync(0xffffffff, V, 1);
  if ((threadIdx.x + blockDim.x * threadIdx.y) / 32 < 2)
    V += __shfl_down_sync(0xffffffff, V, 2);
  Out[Tid] = V + Lane;
}
__global__ void warpUniform(float *A) {
  int Warp = threadIdx.x / 32, Lane = threadIdx.x % 32;
  float V = A[threadIdx.x];
  if (Warp == 0)
    V += __shfl_xor_sync(0xffffffff, V, 1); // no-warning: every lane of a warp has the same warp index
  if (threadIdx.x < 64)
    V += __shfl_xor_sync(0xffffffff, V, 2); // no-warning: a multiple of the warp size splits whole warps
  if (__any_sync(0xffffffff, V > 0))
    V += __shfl_down_sync(0xffffffff, V, 2); // no-warning: a vote's result is the warp's
  unsigned Mask = __ballot_sync(0xffffffff, Lane < 16);
  if (Lane < 16)
    V += __shfl_down_sync(Mask, V, 1, 16); // no-warning: the mask names the lanes that take the branch
  for (int O = 16; O > 0; O /= 2)
    V += __shfl_down_sync(0xffffffff, V, O); // no-warning: every lane runs the loop alike
  if (blockIdx.x > 2)
    __syncwarp(); // no-warning: the block index is the warp's alike
  A[threadIdx.x] = V;
}

// Positive: what is taken away from the index holds only half the lane bits (t % 16): the
// two halves of a warp start at different places, and decide the bound apart.
__global__ void halfWarpStart(const int *Keys, int *Out, unsigned N) {
  unsigned T = threadIdx.x + blockIdx.x * blockDim.x;
  if (T - T % 16 >= N)
    return;
  Out[T] = __shfl_sync(0xffffffff, Keys[T], 0);
  // CHECK: :[[@LINE-1]]:12: warning: this __shfl_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-3]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-4]]:7: note: lanes of one warp may decide this condition differently
}

// Positive: a tile of 32 is the whole warp, so its collectives name every lane, as a constant
// full mask does: under the tile's half, or an odd thread, half the lanes are missing.
__global__ void tileHalves(const int *Keys, int *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  int V = Keys[threadIdx.x];
  if (Tile.thread_rank() < 16)
    V = Tile.shfl_down(V, 1);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_down_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  if (threadIdx.x % 2)
    Tile.sync();
  // CHECK: :[[@LINE-1]]:5: warning: this __syncwarp names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = V;
}

// no-warning: the thread's index less its lane bits (t - t % 32, t - (t & 31), or the grid
// index less the rank in a tile of 32) is the index of the warp's first thread, the same for
// every lane: a tile that returns when its first key is past the end returns whole.
__global__ void tileFirstThread(const int *Keys, int *Out, unsigned N) {
  unsigned T = threadIdx.x + blockIdx.x * blockDim.x;
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (T - Tile.thread_rank() >= N)
    return;
  int V = T < N ? Keys[T] : 0;
  unsigned Work = Tile.ballot(V != 0);
  if (T - T % 32 < N / 2)
    V += Tile.shfl(V, __ffs(Work) - 1);
  if (T - (T & 31) < N / 4)
    V += __shfl_xor_sync(0xffffffff, V, 1);
  if (Tile.meta_group_rank() == 0)
    V += __shfl_xor_sync(0xffffffff, V, 2); // a tile of 32 is one warp: its rank is the warp's
  Out[T] = V;
}

// no-warning: a shuffle of one lane's value to the whole warp (width 32, a source lane every lane
// names alike) gives every lane the same value: a lock one lane took, broadcast, decides alike.
__device__ bool tileTryLock(unsigned *Lock, cg::thread_block_tile<32> Tile) {
  unsigned Old;
  if (Tile.thread_rank() == 0)
    Old = atomicOr(Lock, 1u);
  Old = Tile.shfl(Old, 0);
  return (Old & 1u) == 0;
}
__global__ void broadcastDecides(unsigned *Lock, int *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  int V = Out[threadIdx.x];
  unsigned Won = 0;
  if (threadIdx.x % 32 == 0)
    Won = atomicAdd(Lock, 1u);
  if (__shfl_sync(0xffffffff, Won, 0) == 0)
    V += __shfl_xor_sync(0xffffffff, V, 1);
  if (tileTryLock(Lock, Tile))
    V += Tile.shfl_xor(V, 2);
  Out[threadIdx.x] = V;
}

// Positive: a shuffle whose source lane varies, or of width 16 (each half gets its own lane's
// value), is not the warp's alike.
__global__ void notBroadcasts(int *Out) {
  int V = Out[threadIdx.x];
  if (__shfl_sync(0xffffffff, V, threadIdx.x ^ 1) > 0)
    V += __shfl_xor_sync(0xffffffff, V, 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  if (__shfl_sync(0xffffffff, V, 0, 16) > 0)
    V += __shfl_xor_sync(0xffffffff, V, 2);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = V;
}

// no-warning: a loop over whole blocks' worth of threads (from the grid index, to a bound that is
// a multiple of blockDim.x, by blockDim.x times a block count): every lane of a warp runs it as
// often, as MVGpuBTree's concurrent kernels loop before their reclaimer's tile syncs.
__global__ void wholeBlocksLoop(const int *In, int *Out, unsigned Blocks) {
  auto BlockSize = blockDim.x;
  for (auto I = threadIdx.x + blockIdx.x * BlockSize; I < Blocks * BlockSize; I += BlockSize * gridDim.x)
    Out[I] = __shfl_sync(0xffffffff, In[I], 0);
}

// Positive: the same loop to n, which need not be a multiple of the warp size.
__global__ void partialBlocksLoop(const int *In, int *Out, unsigned N) {
  for (unsigned I = threadIdx.x + blockIdx.x * blockDim.x; I < N; I += blockDim.x * gridDim.x)
    Out[I] = __shfl_sync(0xffffffff, In[I], 0);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_sync names every lane {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:60: note: lanes of one warp may decide this condition differently
}

// no-warning: a thread's rank in 128 threads (threadIdx.x & 127, a tile of whole warps) is its
// lane plus a multiple of 32 its lanes share: a loop from it by 128, to a multiple of 128 (what
// -O2 makes of (n + 127) / 128 * 128), runs as often for every lane, and a vote in it is alike.
__global__ void tileRankLoop(const int *In, int *Out, unsigned N) {
  unsigned Rank = threadIdx.x & 127;
  for (unsigned I = Rank; I < (N + 127) / 128 * 128; I += 128)
    if (!__all_sync(0xffffffff, In[I] > 0))
      return;
  Out[threadIdx.x] = __shfl_sync(0xffffffff, In[threadIdx.x], 0);
}
// no-warning: the same, to a bound read from memory every lane reads at one address.
__global__ void tileRankLoopLoaded(const int *In, int *Out, const unsigned *Count) {
  for (unsigned I = threadIdx.x & 127; I < (*Count + 127) / 128 * 128; I += 128)
    if (!__all_sync(0xffffffff, In[I] > 0))
      return;
  Out[threadIdx.x] = In[threadIdx.x];
}

// no-warning: the block's rank (cg's thread_block::thread_rank(), the linear index) compared with
// 32 splits whole warps, and a tile of 32's vote (any) is the warp's: cuda-samples' reduction and
// cdpQuadtree loop so.
__global__ void blockRankAndTileVote(const int *In, int *Out, int N) {
  auto Cta = cg::this_thread_block();
  auto Tile = cg::tiled_partition<32>(Cta);
  int V = In[threadIdx.x];
  if (Cta.thread_rank() < 32)
    V += Tile.shfl_down(V, 1);
  for (int I = Tile.thread_rank(); Tile.any(I < N); I += 32)
    V += Tile.shfl_xor(V, 1);
  Out[threadIdx.x] = V;
}

// no-warning: one lane claims a slot and the warp takes its result at once (a slab allocator's
// loop): what the elected lane gave Result under its test is replaced by the broadcast before any
// lane reads it, so the loop runs alike for the warp.
__global__ void electedThenBroadcast(unsigned *Bitmap, unsigned *Out) {
  const unsigned Lane = threadIdx.x & 31;
  unsigned Result = 0xffffffffu;
  while (Result == 0xffffffffu) {
    unsigned Free = __ballot_sync(0xffffffff, Bitmap[Lane] != 0xffffffffu);
    unsigned Src = __ffs(Free) - 1;
    if (Src == Lane)
      Result = atomicOr(&Bitmap[Lane], 1u) | (Lane << 5);
    Result = __shfl_sync(0xffffffff, Result, Src);
  }
  Out[threadIdx.x] = Result;
}

// Positive: the elected lane's result tested before it is handed to the warp: the lanes that did
// not claim test their own value, and the shuffle runs in fewer lanes than its mask names.
__global__ void electedTestedBeforeBroadcast(unsigned *Bitmap, unsigned *Out) {
  const unsigned Lane = threadIdx.x & 31;
  unsigned Result = 0xffffffffu;
  unsigned Free = __ballot_sync(0xffffffff, Bitmap[Lane] != 0xffffffffu);
  unsigned Src = __ffs(Free) - 1;
  if (Src == Lane)
    Result = atomicOr(&Bitmap[Lane], 1u) | (Lane << 5);
  if (Result != 0xffffffffu)
    Out[Lane] = __shfl_sync(0xffffffff, Result, Src);
  // CHECK: :[[@LINE-1]]:17: warning: {{.*}} at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently{{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: {{.*}}
}

__device__ float warpSumOf(float V) {
  for (int O = 16; O > 0; O /= 2)
    V += __shfl_xor_sync(0xffffffff, V, O);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE+11]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE+11]]:9: note: the warp-synchronous call is reached through this call
  // CHECK: :[[@LINE+9]]:7: note: lanes of one warp may decide this condition differently
  return V;
}

// Positive: a warp reduction helper called under a condition on the lane (ggml's warp_reduce_sum
// called by some lanes): the pass sees the call inlined; clang-tidy reports the helper's shuffle
// with the caller's condition.
__global__ void warpHelperUnderLaneTest(const float *A, float *Out, int N) {
  float V = A[threadIdx.x];
  if (threadIdx.x < N)
    V = warpSumOf(V);
  Out[threadIdx.x] = V;
}

// no-warning: the helper called by every lane, and under a test whole warps decide alike.
__global__ void warpHelperForWholeWarps(const float *A, float *Out, int N) {
  float V = warpSumOf(A[threadIdx.x]);
  if (threadIdx.x / 32 < N)
    V = warpSumOf(V);
  Out[threadIdx.x] = V;
}

// no-warning: the lock's old value one lane took, handed to the tile by tile.shfl(Old, 0) (which
// takes Old by reference and only reads it), is the warp's alike.
__global__ void broadcastOfLocalDecides(unsigned *Lock, int *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  int V = Out[threadIdx.x];
  unsigned Old;
  if (Tile.thread_rank() == 0)
    Old = atomicOr(Lock, 1u);
  Old = Tile.shfl(Old, 0);
  bool Got = (Old & 1u) == 0;
  if (Got)
    V += Tile.shfl_xor(V, 2);
  Out[threadIdx.x] = V;
}

// no-warning: the thread's index less its lane, read through a helper with no parameters
// (HeCBench btree's lane_id()): the warp's first thread, so whole warps return together.
__device__ __forceinline__ unsigned laneOfThread() { return threadIdx.x & 0x1F; }
__global__ void wholeWarpsThroughLaneHelper(unsigned *Out, unsigned N) {
  unsigned Tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned Lane = laneOfThread();
  if ((Tid - Lane) >= N)
    return;
  Out[Tid] = __shfl_sync(0xffffffff, Tid, 0);
}

// no-warning: a helper handed a lane's own data returns what the warp's shuffles agree on (HeCBench
// btree's split_node1: whether the node was full, read from lane 31's word), so the branch on its
// result is the warp's, as the pass sees it inlined.
__device__ bool nodeIsFull(unsigned LaneWord) { return __shfl_sync(0xffffffff, LaneWord, 31) != 0; }
__global__ void helperAgreesWhateverItIsHanded(unsigned *Nodes, unsigned *Out) {
  unsigned Word = Nodes[threadIdx.x];
  if (nodeIsFull(Word))
    Word = __shfl_sync(0xffffffff, Word, 0);
  Out[threadIdx.x] = Word;
}

// Positive: the same helper returning the lane's own comparison: its result varies with the word
// it is handed, so the branch on it divides the warp.
__device__ bool laneIsFull(unsigned LaneWord) { return LaneWord != 0; }
__global__ void helperPassesTheLanesWordOn(unsigned *Nodes, unsigned *Out) {
  unsigned Word = Nodes[threadIdx.x];
  if (laneIsFull(Word))
    Word = __shfl_sync(0xffffffff, Word, 0);
  // CHECK: :[[@LINE-1]]:12: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = Word;
}

// no-warning: the row's size is taken from the cursor's first value, before the loop moves it by a
// lane's own step (ginkgo's par_ict merge: llh_size = llh_end - llh_begin, then llh_begin +=
// advance): the size, and the loop's exit with it, are the warp's.
__global__ void sizeReadBeforeTheCursorMoves(const int *Ptrs, int *Out) {
  int Row = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  int Lane = threadIdx.x % 32;
  int Begin = Ptrs[Row];
  int Size = Ptrs[Row + 1] - Begin;
  int Done = 0;
  int V = Out[threadIdx.x];
  while (Done < Size) {
    V = __shfl_sync(0xffffffff, V, 1);
    Begin += Lane;
    Done += 32;
  }
  Out[threadIdx.x] = V + Begin;
}

// no-warning: the bound is rounded down to whole warps by a helper that returns one expression
// (faiss's roundDown(n, kWarpSize), through divDown), read with its arguments in place of its
// parameters as the pass reads it inlined: a block-stride index's lanes agree on i < limit.
template <typename U, typename V> __device__ auto divDownHelper(U A, V B) -> decltype(A + B) { return A / B; }
template <typename U, typename V> __device__ auto roundDownHelper(U A, V B) -> decltype(A + B) {
  return divDownHelper(A, B) * B;
}
__global__ void boundRoundedDownByAHelper(const float *In, float *Out, int N) {
  int Limit = roundDownHelper(N, 32);
  int I = threadIdx.x;
  float V = 0;
  for (; I < Limit; I += blockDim.x)
    V += __shfl_xor_sync(0xffffffff, In[I], 1);
  Out[threadIdx.x] = V;
}

// Positive: the same helper rounding to 16 leaves half-warps apart.
__global__ void boundRoundedDownToHalfWarps(const float *In, float *Out, int N) {
  int Limit = roundDownHelper(N, 16);
  int I = threadIdx.x;
  float V = 0;
  for (; I < Limit; I += blockDim.x)
    V += __shfl_xor_sync(0xffffffff, In[I], 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:10: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = V;
}

// no-warning: faiss's IVFUtilsSelect1.cu: the bound is the block's list length rounded down to whole
// warps, read at the block's slice end (the last block takes the rest: a choice between the block's
// values) in a loop over the grid's queries (a counter that starts at blockIdx.y and steps by
// gridDim.y; compared with a long, -O2 keeps a 64-bit twin of it that steps through the 32-bit
// one). Each value the bound is made of is one for the warp, in every round of the loop.
struct QueryLists {
  const long *Data;
  long Stride, Count;
};
__global__ void boundFromTheBlocksSlice(QueryLists Offsets, const float *In, float *Out, int NProbe) {
  for (int Q = blockIdx.y; Q < Offsets.Count; Q += gridDim.y) {
    int SliceSize = NProbe / gridDim.x;
    int SliceStart = SliceSize * blockIdx.x;
    int SliceEnd = blockIdx.x == gridDim.x - 1 ? NProbe : SliceStart + SliceSize;
    const long *Offs = Offsets.Data + Q * Offsets.Stride;
    long Start = Offs[SliceStart];
    long Limit = (Offs[SliceEnd] - Start) / 32 * 32;
    long I = threadIdx.x;
    float V = 0;
    for (; I < Limit; I += blockDim.x)
      V += __shfl_xor_sync(0xffffffff, In[Start + I], 1);
    Out[Q * blockDim.x + threadIdx.x] = V;
  }
}

// Positive: the same, with a cursor that steps by the lane's own parity in a loop all lanes run
// alike: lanes of one warp read different bounds in one round.
__global__ void boundAtALaneSteppedCursor(const long *Offsets, const float *In, float *Out) {
  long Cursor = blockIdx.x;
  for (int R = 0; R < 4; ++R) {
    Cursor += 1 + (threadIdx.x & 1);
    long Start = Offsets[Cursor];
    long Limit = (Offsets[Cursor + 1] - Start) / 32 * 32;
    long I = threadIdx.x;
    float V = 0;
    for (; I < Limit; I += blockDim.x)
      V += __shfl_xor_sync(0xffffffff, In[Start + I], 1);
    // CHECK: :[[@LINE-1]]:12: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-3]]:12: note: lanes of one warp may decide this condition differently
    Out[R * blockDim.x + threadIdx.x] = V;
  }
}

// Positive: a bound that joins two arms' values, the arm chosen by the lane's parity (a phi that is
// at no loop's head): lanes of one warp read different bounds.
__global__ void boundJoinedFromLaneArms(const long *Offsets, const float *In, float *Out) {
  long Start;
  if (threadIdx.x & 1) {
    Start = Offsets[blockIdx.x];
    Out[blockIdx.x] = 1.0f;
  } else {
    Start = Offsets[blockIdx.x + 1];
  }
  long Limit = (Offsets[blockIdx.x + 2] - Start) / 32 * 32;
  float V = 0;
  for (long I = threadIdx.x; I < Limit; I += blockDim.x)
    V += __shfl_xor_sync(0xffffffff, In[Start + I], 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:30: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = V;
}

// no-warning: ginkgo's syncfree_scheduler: thread 0 stores the block's first row, a multiple of the
// block size, in shared memory; after the barrier every thread reads it, and its warp's rows are
// (offset + threadIdx.x) / 32, one for the warp. Nothing else writes the offset (the status array
// beside it is another member).
struct SchedulerStorage {
  int Status[16];
  int BlockOffset;
};
__global__ void rowsFromAStagedOffset(int *Counter, const int *Rows, float *Out, int NumRows) {
  __shared__ SchedulerStorage Shared;
  if (threadIdx.x == 0)
    Shared.BlockOffset = atomicAdd(Counter, 1) * 512;
  if (threadIdx.x < 16)
    Shared.Status[threadIdx.x] = 0;
  __syncthreads();
  int Row = (Shared.BlockOffset + (int)threadIdx.x) / 32;
  if (Row >= NumRows)
    return;
  Out[Row] = __shfl_xor_sync(0xffffffff, (float)Rows[Row], 1);
}

// Positive: the offset staged is a multiple of 16 only: half-warps of one warp get different rows.
__global__ void rowsFromAHalfWarpOffset(int *Counter, const int *Rows, float *Out, int NumRows) {
  __shared__ SchedulerStorage Shared;
  if (threadIdx.x == 0)
    Shared.BlockOffset = atomicAdd(Counter, 1) * 16;
  __syncthreads();
  int Row = (Shared.BlockOffset + (int)threadIdx.x) / 32;
  if (Row >= NumRows)
    return;
  Out[Row] = __shfl_xor_sync(0xffffffff, (float)Rows[Row], 1);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-3]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-4]]:7: note: lanes of one warp may decide this condition differently
}

// Positive: the offset is also bumped by an atomic, whose value neither front end follows.
__global__ void rowsFromAnOffsetAnAtomicMoves(int *Counter, const int *Rows, float *Out, int NumRows) {
  __shared__ SchedulerStorage Shared;
  if (threadIdx.x == 0)
    Shared.BlockOffset = atomicAdd(Counter, 1) * 512;
  __syncthreads();
  if (threadIdx.x == 1)
    atomicAdd(&Shared.BlockOffset, 3);
  __syncthreads();
  int Row = (Shared.BlockOffset + (int)threadIdx.x) / 32;
  if (Row >= NumRows)
    return;
  Out[Row] = __shfl_xor_sync(0xffffffff, (float)Rows[Row], 1);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-3]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-4]]:7: note: lanes of one warp may decide this condition differently
}

// no-warning: AMGX's multicolor DILU: each warp stages its row's column ids in shared memory at its
// own first lane's place (threadIdx.x less the lane, read from %laneid by a helper), then every
// lane reads id k of the warp's row: one address, one value for the warp, so the early exit is
// the warp's.
static __device__ __forceinline__ int laneFromRegister() {
  int Id;
  asm("mov.u32 %0, %%laneid;" : "=r"(Id));
  return Id;
}
__global__ void columnsFromAWarpRow(const int *Cols, float *Out) {
  __shared__ volatile int Ids[256];
  int Lane = laneFromRegister();
  volatile int *Mine = &Ids[threadIdx.x - Lane];
  Mine[Lane] = Cols[blockIdx.x * 256 + threadIdx.x];
  __syncwarp();
  float V = 0;
  for (int K = 0; K < 32; ++K) {
    const int Col = Mine[K];
    if (Col == -1)
      break;
    V += __shfl_xor_sync(0xffffffff, (float)Col, 1);
  }
  Out[threadIdx.x] = V;
}

// Positive: the same, each lane reading at its own place less its lane: lanes read different ids.
__global__ void columnsFromALaneRow(const int *Cols, float *Out) {
  __shared__ volatile int Ids[256];
  int Lane = laneFromRegister();
  volatile int *Mine = &Ids[threadIdx.x];
  Mine[0] = Cols[blockIdx.x * 256 + threadIdx.x];
  __syncwarp();
  float V = 0;
  for (int K = 0; K < 32; ++K) {
    const int Col = Mine[K - Lane];
    if (Col == -1)
      break;
    V += __shfl_xor_sync(0xffffffff, (float)Col, 1);
    // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-3]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-4]]:9: note: lanes of one warp may decide this condition differently
  }
  Out[threadIdx.x] = V;
}

// Positive: a __shared__ variable declared outside the kernel, which another function also
// writes (here a multiple of 16): neither front end reads it as the kernel's own.
__shared__ int SharedOffset;
__device__ void moveSharedOffset(int *Counter) { SharedOffset = atomicAdd(Counter, 1) * 16; }
__global__ void rowsFromAFileScopeOffset(int *Counter, const int *Rows, float *Out, int NumRows) {
  if (threadIdx.x == 0)
    SharedOffset = atomicAdd(Counter, 1) * 512;
  __syncthreads();
  if (threadIdx.x == 1)
    moveSharedOffset(Counter);
  __syncthreads();
  int Row = (SharedOffset + (int)threadIdx.x) / 32;
  if (Row >= NumRows)
    return;
  Out[Row] = __shfl_xor_sync(0xffffffff, (float)Rows[Row], 1);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-3]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-4]]:7: note: lanes of one warp may decide this condition differently
}

// Positive: inline PTX stores to the offset through its address: neither front end reads what
// the PTX stores, so neither takes the offset for the kernel's multiple.
__global__ void rowsFromAnOffsetPtxMoves(int *Counter, const int *Rows, float *Out, int NumRows) {
  __shared__ SchedulerStorage Shared;
  if (threadIdx.x == 0)
    Shared.BlockOffset = atomicAdd(Counter, 1) * 512;
  __syncthreads();
  if (threadIdx.x == 1)
    asm volatile("st.shared.s32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&Shared.BlockOffset)), "r"(3)
                 : "memory");
  __syncthreads();
  int Row = (Shared.BlockOffset + (int)threadIdx.x) / 32;
  if (Row >= NumRows)
    return;
  Out[Row] = __shfl_xor_sync(0xffffffff, (float)Rows[Row], 1);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-3]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-4]]:7: note: lanes of one warp may decide this condition differently
}

// Positive: the whole storage is cleared through its address after the offset is staged (a
// memset from its first byte reaches the offset): neither front end takes the offset for the
// kernel's multiple.
__global__ void rowsFromAnOffsetAMemsetClears(int *Counter, const int *Rows, float *Out, int NumRows) {
  __shared__ SchedulerStorage Shared;
  if (threadIdx.x == 0)
    Shared.BlockOffset = atomicAdd(Counter, 1) * 512;
  __syncthreads();
  if (threadIdx.x == 1)
    memset(&Shared, 1, sizeof(Shared));
  __syncthreads();
  int Row = (Shared.BlockOffset + (int)threadIdx.x) / 32;
  if (Row >= NumRows)
    return;
  Out[Row] = __shfl_xor_sync(0xffffffff, (float)Rows[Row], 1);
  // CHECK: :[[@LINE-1]]:14: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-3]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-4]]:7: note: lanes of one warp may decide this condition differently
}

// A helper whose mask is a parameter with the full mask for default (AMGX's utils::shfl and
// utils::any): the mask the call runs with is the caller's argument, as the pass sees the call
// inlined.
__device__ __forceinline__ int shflOf(int V, int Src, int Width = warpSize, unsigned Mask = 0xffffffff) {
  return __shfl_sync(Mask, V, Src, Width);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE+18]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE+18]]:16: note: the warp-synchronous call is reached through this call
  // CHECK: :[[@LINE+16]]:10: note: lanes of one warp may decide this condition differently
}
__device__ __forceinline__ int shflMasked(int V, int Src, unsigned Mask) {
  return __shfl_sync(Mask, V, Src);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE+20]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE+20]]:9: note: the warp-synchronous call is reached through this call
  // CHECK: :[[@LINE+18]]:7: note: lanes of one warp may decide this condition differently
}
__device__ __forceinline__ int shflThrough(int V, int Src, unsigned Mask) { return shflMasked(V, Src, Mask); }

// Positive: rows of four lanes each (AMGX's multicolor DILU for 2x2 blocks), in a grid-stride loop
// whose bound the lanes of one warp may reach in different rounds; the default mask is the full one.
template <int N>
__global__ void rowGroupsDefaultMask(const int *Cols, int *Out, int Rows) {
  const int Lane = threadIdx.x % 32;
  int Row = blockIdx.x * (blockDim.x / (N * N)) + threadIdx.x / (N * N);
  for (; Row < Rows; Row += gridDim.x * (blockDim.x / (N * N)))
    Out[Row] = shflOf(Cols[Row], Lane - Lane % (N * N));
}
template __global__ void rowGroupsDefaultMask<2>(const int *, int *, int);

// Positive: the full mask handed down through a second helper's parameter.
__global__ void fullMaskThroughTwoHelpers(const int *A, int *Out) {
  int V = A[threadIdx.x];
  if (threadIdx.x % 32 < 8)
    V = shflThrough(V, 0, 0xffffffffu);
  Out[threadIdx.x] = V;
}

// no-warning: the helper given the mask of the lanes that take part.
__global__ void helperGivenTheLanesMask(const int *A, int *Out) {
  int V = A[threadIdx.x];
  if (threadIdx.x % 32 < 8)
    V = shflOf(V, 0, 8, 0xffu);
  Out[threadIdx.x] = V;
}

// no-warning: a mask the kernel is handed is not known to be the full one.
__global__ void helperGivenAnUnknownMask(const int *A, int *Out, unsigned Mask) {
  int V = A[threadIdx.x];
  if (threadIdx.x % 32 < 8)
    V = shflThrough(V, 0, Mask);
  Out[threadIdx.x] = V;
}

// no-warning: a work queue's slot taken by lane 0 and broadcast to the warp, before the loop and at
// the end of each round (HeCBench cc's compute2, ECL-CC): lane 0's own value is replaced unread in
// the block that declares it, so the loop's test reads the broadcast only.
static __device__ int QueueHead, QueueTop;
__global__ void workQueueBroadcastEachRound(const int *Work, int *Out) {
  const int Lane = threadIdx.x % 32;
  int Idx;
  if (Lane == 0)
    Idx = atomicAdd(&QueueHead, 1);
  Idx = __shfl_sync(0xffffffff, Idx, 0);
  while (Idx < QueueTop) {
    Out[Work[Idx] + Lane] = Lane;
    if (Lane == 0)
      Idx = atomicAdd(&QueueHead, 1);
    Idx = __shfl_sync(0xffffffff, Idx, 0);
  }
}

// Positive: the same queue with no broadcast before the loop: lane 0's slot, and the other lanes'
// unset value, reach the first test.
__global__ void workQueueUnbroadcastFirstRound(const int *Work, int *Out) {
  const int Lane = threadIdx.x % 32;
  int Idx = 0;
  if (Lane == 0)
    Idx = atomicAdd(&QueueHead, 1);
  while (Idx < QueueTop) {
    Out[Work[Idx] + Lane] = Lane;
    if (Lane == 0)
      Idx = atomicAdd(&QueueHead, 1);
    Idx = __shfl_sync(0xffffffff, Idx, 0);
    // CHECK: :[[@LINE-1]]:11: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-5]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-6]]:10: note: lanes of one warp may decide this condition differently
  }
}

// no-warning: a loop over whole warps from the lane, read from %laneid by a helper (faiss's
// WarpSelect: getLaneId(), to the row length rounded down to whole warps; laneFromRegister above),
// or written as the thread's index % 32: every lane of a warp runs it as often.
__global__ void wholeWarpsFromTheLaneRegister(const float *In, float *Out, int N) {
  int Limit = (N / 32) * 32;
  float V = 0;
  for (int I = laneFromRegister(); I < Limit; I += 32)
    V += __shfl_xor_sync(0xffffffff, In[I], 1);
  Out[threadIdx.x] = V;
}
__global__ void wholeWarpsFromTheLaneRemainder(const float *In, float *Out, int N) {
  int Limit = (N / 32) * 32;
  float V = 0;
  for (int I = threadIdx.x % 32; I < Limit; I += 32)
    V += __shfl_xor_sync(0xffffffff, In[I], 1);
  Out[threadIdx.x] = V;
}

// Positive: the same loop to the row length itself, which need not be a multiple of 32.
__global__ void lanesFromTheRegisterToTheLength(const float *In, float *Out, int N) {
  float V = 0;
  for (int I = laneFromRegister(); I < N; I += 32)
    V += __shfl_xor_sync(0xffffffff, In[I], 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:36: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = V;
}

// no-warning: the first tile of 32 of the block, by its meta_group_rank(), in a helper handed the
// block (the CUDA samples' conjugateGradientMultiBlockCG gpuDotProduct): cooperative groups keep the
// rank in a packed word's high half, which -O2 leaves as (linear << 11) < 65536.
#include <cooperative_groups/reduce.h>
__device__ void blockSumByTiles(const float *A, int N, double *Result, const cg::thread_block &Cta) {
  extern __shared__ double Partial[];
  double Sum = 0.0;
  for (int I = Cta.thread_rank(); I < N; I += Cta.size())
    Sum += A[I];
  cg::thread_block_tile<32> Tile = cg::tiled_partition<32>(Cta);
  Sum = cg::reduce(Tile, Sum, cg::plus<double>());
  if (Tile.thread_rank() == 0)
    Partial[Tile.meta_group_rank()] = Sum;
  cg::sync(Cta);
  if (Tile.meta_group_rank() == 0) {
    Sum = Tile.thread_rank() < Tile.meta_group_size() ? Partial[Tile.thread_rank()] : 0.0;
    Sum = cg::reduce(Tile, Sum, cg::plus<double>());
    if (Tile.thread_rank() == 0)
      atomicAdd(Result, Sum);
  }
}
__global__ void firstTileSumsTheBlock(const float *A, int N, double *Result) {
  cg::thread_block Cta = cg::this_thread_block();
  blockSumByTiles(A, N, Result, Cta);
}

// no-warning: the index shifted left against a multiple of 32 shifted alike, as above.
__global__ void shiftedIndexAgainstShiftedWarps(const int *A, int *Out) {
  int V = A[threadIdx.x];
  if ((threadIdx.x << 11) < 64u * 2048u)
    V = __shfl_xor_sync(0xffffffff, V, 1);
  Out[threadIdx.x] = V;
}

// Positive: against 20 shifted alike, which splits the first warp.
__global__ void shiftedIndexAgainstShiftedLanes(const int *A, int *Out) {
  int V = A[threadIdx.x];
  if ((threadIdx.x << 11) < 20u * 2048u)
    V = __shfl_xor_sync(0xffffffff, V, 1);
  // CHECK: :[[@LINE-1]]:9: warning: this __shfl_xor_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  Out[threadIdx.x] = V;
}

// no-warning: a work queue's next row, taken by lane 0 and broadcast by a helper whose width is a
// parameter with warpSize for default (AMGX's get_work through utils::shfl(offset, 0)): the row is
// the warp's alike, as the pass sees the helpers inlined.
__device__ __forceinline__ int nextRowOf(int *Queue, int Width = warpSize) {
  int Offset = -1;
  if (threadIdx.x % 32 == 0)
    Offset = atomicAdd(Queue, 1);
  return shflOf(Offset, 0, Width);
}
__global__ void rowsFromAQueueBroadcast(int N, int *Queue, int *Out) {
  for (int Row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; Row < N; Row = nextRowOf(Queue))
    Out[Row] = shflOf(Row, 0);
}

// Positive: the same queue broadcast to half-warps (a helper handed width 16): lanes 16 to 31 get
// lane 16's -1, so the loop's test splits the warp; the helper's own shuffle, in the loop's step,
// is under it too.
__device__ __forceinline__ int shflWidthOf(int V, int Src, int Width) {
  return __shfl_sync(0xffffffff, V, Src, Width);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE+7]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE+6]]:25: note: the warp-synchronous call is reached through this call
  // CHECK: :[[@LINE+5]]:10: note: lanes of one warp may decide this condition differently
}
__global__ void rowsFromAQueueHalfBroadcast(int N, int *Queue, int *Out) {
  int Row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int Offset = -1;
  for (; Row < N; Row = shflWidthOf(Offset, 0, 16)) {
    Out[Row] = __shfl_sync(0xffffffff, Row, 0);
    // CHECK: :[[@LINE-1]]:16: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
    // CHECK: :[[@LINE-3]]:10: note: lanes of one warp may decide this condition differently
    if (threadIdx.x % 32 == 0)
      Offset = atomicAdd(Queue, 1);
  }
}

// no-warning: the thread's index read through a static member that returns it (HeCBench's
// rowwiseMoments Block1D::Tid()), divided by 32: the first warp, whole.
struct LinearBlock {
  static __device__ __forceinline__ int tid() { return threadIdx.x; }
};
template <typename B = LinearBlock> __device__ float firstWarpReduces(float V) {
  const int Tid = B::tid();
  const int Wid = Tid / 32;
  if (Wid == 0)
    V += __shfl_down_sync(0xffffffff, V, 1);
  return V;
}
__global__ void staticMemberIndexByWarps(float *A) { A[threadIdx.x] = firstWarpReduces(A[threadIdx.x]); }

// Positive: the same index against 16, which splits the first warp.
template <typename B = LinearBlock> __device__ float halfWarpReduces(float V) {
  if (B::tid() < 16)
    V += __shfl_down_sync(0xffffffff, V, 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_down_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:7: note: lanes of one warp may decide this condition differently
  return V;
}
__global__ void staticMemberIndexByHalves(float *A) {
  A[threadIdx.x] = halfWarpReduces(A[threadIdx.x]);
}

// no-warning: a helper that replaces the mask it is handed before it uses it: the shuffle runs with
// the lanes active there, whatever the caller gave (a parameter changed in the helper is not its
// caller's argument).
__device__ __forceinline__ int shflWithActive(int V, unsigned Mask = 0xffffffff) {
  Mask = __activemask();
  return __shfl_sync(Mask, V, 0);
}
__global__ void helperReplacesItsMask(const int *A, int *Out) {
  int V = A[threadIdx.x];
  if (threadIdx.x % 32 < 8)
    V = shflWithActive(V);
  Out[threadIdx.x] = V;
}

// Positive: a queue helper that halves the width it is handed before the broadcast: lanes 16 to 31
// get lane 16's -1, so the loop's test splits the warp.
__device__ __forceinline__ int nextRowHalved(int *Queue, int Width = warpSize) {
  int Offset = -1;
  if (threadIdx.x % 32 == 0)
    Offset = atomicAdd(Queue, 1);
  Width /= 2;
  return __shfl_sync(0xffffffff, Offset, 0, Width);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE+5]] that {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE+4]]:84: note: the warp-synchronous call is reached through this call
  // CHECK: :[[@LINE+3]]:69: note: lanes of one warp may decide this condition differently
}
__global__ void rowsFromAHalvedWidth(int N, int *Queue, int *Out) {
  for (int Row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; Row < N; Row = nextRowHalved(Queue))
    Out[Row] = __shfl_sync(0xffffffff, Row, 0);
  // CHECK: :[[@LINE-1]]:16: warning: this __shfl_sync names every lane of the warp in its mask (0xffffffff), but is reached under a condition at {{.*}}warp-mask.cu:[[#@LINE-2]] that lanes of one warp may decide differently: {{.*}} [cuda-scope-warp-mask]
  // CHECK: :[[@LINE-3]]:69: note: lanes of one warp may decide this condition differently
}
