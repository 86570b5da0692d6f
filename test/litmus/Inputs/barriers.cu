// Barriers order everything before them for everything after them: __syncthreads() within a
// block, cooperative groups' grid sync across the grid (it is built of a release and an acquire
// on its own word, and base causality order is transitive). A flag that only barriers separate
// from its data carries nothing the barrier does not already order.
#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;
using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
using Blk = cuda::atomic_ref<int, cuda::thread_scope_block>;
constexpr auto relaxed = cuda::memory_order_relaxed;

// LITMUS: forbidden
// A relaxed flag set before a grid sync and read after it: the grid sync orders the data.
__global__ void gridSyncFlag(int *data, int *flag, int *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, relaxed);
  }
  grid.sync();
  if (blockIdx.x != 0 && Dev(*flag).load(relaxed) == 1)
    out[blockIdx.x] = data[threadIdx.x];
}

// LITMUS: forbidden
// The same with __syncthreads() and a flag per block.
__global__ void blockBarrierFlag(int *data, int *flags, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    Blk(flags[blockIdx.x]).store(1, relaxed);
  }
  __syncthreads();
  if (Blk(flags[blockIdx.x]).load(relaxed) == 1)
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[blockIdx.x];
}

// LITMUS: allowed cuda-scope-release-acquire
// __syncthreads() does not order other blocks: the flag is read by every block.
__global__ void blockBarrierAcrossBlocks(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 1;
    Dev(*flag).store(1, relaxed);
  }
  __syncthreads();
  if (blockIdx.x != 0 && Dev(*flag).load(relaxed) == 1)
    out[blockIdx.x] = data[0];
}

// LITMUS: forbidden
// Phases separated by grid syncs, as a conjugate gradient computes its dot products: the sum is
// reset, accumulated and read in different phases, and every publish of it is separated from every
// receive by a grid sync, so it carries nothing the syncs do not order.
__global__ void gridPhases(float *v, double *dot, int n, int iters) {
  cg::grid_group grid = cg::this_grid();
  double r = *dot;
  for (int k = 0; k < iters && r > 1e-6; ++k) {
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      v[i] = v[i] * 0.5f;
    grid.sync();
    if (grid.thread_rank() == 0)
      *dot = 0.0;
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      atomicAdd(dot, (double)v[i]);
    grid.sync();
    r = *dot;
  }
}
