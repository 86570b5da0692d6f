// The last-block ticket: each block writes its partial result, then draws a ticket; the block
// that draws the last one reads every partial. The ticket is a message from every block to the
// last: a fence before the draw releases the partial, a fence after it acquires the others'.
#include <cuda/atomic>

// LITMUS: forbidden
// Fences on both sides of the draw.
__global__ void lastBlockFenced(int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// No fence at all: the last block can read partials older than the tickets it counted.
__global__ void lastBlockUnfenced(int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// LITMUS: forbidden
// The last block sets the counter back to zero for the next launch after writing the result: no
// thread of this grid reads that zero, every other block's draw came before it.
__global__ void lastBlockReset(int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
    *count = 0;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// volatile partials, a fence before the draw and none after it: volatile is relaxed, not acquire.
__global__ void lastBlockVolatilePartials(volatile int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// LITMUS: forbidden
// A work-queue cursor: each thread takes a slot with atomicAdd and writes it; nothing waits on
// the cursor for data, so it is a counter, not a flag.
__global__ void workQueue(const int *in, int *queue, unsigned *tail, unsigned capacity) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) {
    unsigned slot = atomicAdd(tail, 1u);
    if (slot < capacity)
      queue[slot] = v;
  }
}
