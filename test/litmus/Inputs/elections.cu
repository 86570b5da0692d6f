// The last block to arrive: each block draws a ticket once (thread 0's atomicInc on a counter,
// or atomicAdd), and the block that draws the last one, gridDim.x - 1, finishes the work alone
// (a reduction's last step, a top-k's last filter). A ticket is drawn once per block and launch,
// and only one block draws the chosen value: what that branch holds runs in one block. Its
// atomics meet only threads of that block, so a block scope includes every thread that touches
// them, as in a kernel launched with one block. A ticket drawn in a loop elects a block per
// round, a different one each time, and so elects no one block.
#include <cuda/atomic>

// LITMUS: forbidden
// The last block bumps a global total with block scope and device scope alike: only it runs them.
__global__ void electedLastBlock(const int *in, int *partial, unsigned *arrived, int *total) {
  partial[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence();
  bool isLastBlock = false;
  if (threadIdx.x == 0) {
    unsigned ticket = atomicInc(arrived, gridDim.x - 1);
    isLastBlock = ticket == gridDim.x - 1;
  }
  if (__syncthreads_or(isLastBlock)) {
    __threadfence(); // the other blocks' partials, fenced before their tickets
    cuda::atomic_ref<int, cuda::thread_scope_block> sum(*total);
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
      sum.fetch_add(partial[b], cuda::memory_order_relaxed);
    atomicMax(total + 1, partial[threadIdx.x % gridDim.x]);
    cuda::atomic_ref<int, cuda::thread_scope_block>{total[1]}.fetch_add(1, cuda::memory_order_relaxed);
  }
}

// LITMUS: forbidden
// The same through an early return, with the ticket drawn by atomicAdd.
__global__ void electedEarlyReturn(const int *in, int *partial, unsigned *arrived, int *total) {
  partial[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence();
  bool last = false;
  if (threadIdx.x == 0)
    last = atomicAdd(arrived, 1u) == gridDim.x - 1;
  if (!__syncthreads_or(last))
    return;
  __threadfence();
  atomicMax(total, partial[threadIdx.x % gridDim.x]);
  cuda::atomic_ref<int, cuda::thread_scope_block>{*total}.fetch_add(1, cuda::memory_order_relaxed);
}

// LITMUS: allowed cuda-scope-mismatch
// Every block adds with device scope; the last one adds with block scope: other blocks touch the
// same word at the same time, and the block scope leaves them out.
__global__ void electedOneSide(const int *in, unsigned *arrived, int *total) {
  atomicAdd(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  bool isLastBlock = false;
  if (threadIdx.x == 0)
    isLastBlock = atomicInc(arrived, gridDim.x - 1) == gridDim.x - 1;
  if (__syncthreads_or(isLastBlock))
    cuda::atomic_ref<int, cuda::thread_scope_block>{*total}.fetch_add(1, cuda::memory_order_relaxed);
}

// LITMUS: allowed cuda-scope-mismatch
// The ticket is drawn each round: round r's last block and round r + 1's may differ, and both
// touch the total, the second while the first may still be at it.
__global__ void electedEachRound(const int *in, unsigned *arrived, int *total, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    bool isLastBlock = false;
    if (threadIdx.x == 0)
      isLastBlock = atomicInc(arrived, gridDim.x - 1) == gridDim.x - 1;
    if (__syncthreads_or(isLastBlock)) {
      atomicMax(total, in[r * blockDim.x + threadIdx.x]);
      cuda::atomic_ref<int, cuda::thread_scope_block>{*total}.fetch_add(1, cuda::memory_order_relaxed);
    }
  }
}

// LITMUS: allowed cuda-scope-mismatch
// A block that did not draw the last ticket: every block but one runs the arm.
__global__ void electedElseArm(const int *in, unsigned *arrived, int *total) {
  bool isLastBlock = false;
  if (threadIdx.x == 0)
    isLastBlock = atomicInc(arrived, gridDim.x - 1) == gridDim.x - 1;
  if (!__syncthreads_or(isLastBlock)) {
    atomicMax(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
    cuda::atomic_ref<int, cuda::thread_scope_block>{*total}.fetch_add(1, cuda::memory_order_relaxed);
  }
}

// LITMUS: allowed cuda-scope-mismatch
// The ticket adds what each block found (a compaction's count), which may be 0: two blocks can
// draw the same value, and both run the arm.
__global__ void electedByVariableAddend(const int *in, unsigned *found, int *total) {
  bool first = false;
  if (threadIdx.x == 0)
    first = atomicAdd(found, unsigned(in[blockIdx.x] > 0)) == 0;
  if (__syncthreads_or(first)) {
    atomicMax(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
    cuda::atomic_ref<int, cuda::thread_scope_block>{*total}.fetch_add(1, cuda::memory_order_relaxed);
  }
}
