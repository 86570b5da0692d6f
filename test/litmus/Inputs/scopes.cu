// Scopes: two atomic operations on one object are morally strong only when each one's scope
// includes the other thread. An object every block reaches needs device scope; one a block owns
// (shared memory, its own element, or a branch only one block takes) needs block scope.
#include <cuda/atomic>

// LITMUS: allowed cuda-scope-insufficient
// Every block counts on one global counter with block scope.
__global__ void blockScopeCounter(unsigned *count) { atomicAdd_block(count, 1u); }

// LITMUS: forbidden
__global__ void deviceScopeCounter(unsigned *count) { atomicAdd(count, 1u); }

// LITMUS: forbidden
// Each block counts in its own element.
__global__ void perBlockCounter(unsigned *counts) { atomicAdd_block(&counts[blockIdx.x], 1u); }

// LITMUS: forbidden
// Shared memory: every accessor is in the block.
__global__ void sharedCounter(unsigned *out) {
  __shared__ unsigned count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd_block(&count, 1u);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
}

// LITMUS: forbidden
// Only block 0 takes the branch: its threads are all in one block.
__global__ void blockZeroCounter(unsigned *count) {
  if (blockIdx.x == 0)
    atomicAdd_block(count, 1u);
}

// LITMUS: allowed cuda-scope-insufficient
// Blocks 0 and 1 both count: two blocks.
__global__ void twoBlockCounter(unsigned *count) {
  if (blockIdx.x == 0)
    atomicAdd_block(count, 1u);
  else if (blockIdx.x == 1)
    atomicAdd_block(count, 2u);
}

// LITMUS: allowed cuda-scope-mismatch
// Block-scope updates beside device-scope ones: the block-scope ones race with the others.
__global__ void mixedCounter(unsigned *count) {
  if (threadIdx.x == 0)
    atomicAdd(count, 1u);
  else
    atomicAdd_block(count, 1u);
}

// LITMUS: allowed cuda-scope-insufficient
// Blocks b and b + n share counts[b % n] (HeteroSync's per-SM locks). With the quotient used too,
// -O2 computes the remainder as b - (b / n) * n, which is still a remainder: several blocks per
// element.
__global__ void remainderGroupCounter(unsigned *counts, unsigned n, unsigned *out) {
  unsigned group = blockIdx.x % n, round = blockIdx.x / n;
  atomicAdd_block(&counts[group], round);
}

// LITMUS: forbidden
// The quotient and the block's own element: one block per element.
__global__ void remainderOwnCounter(unsigned *counts, unsigned n, unsigned *out) {
  unsigned round = blockIdx.x / n;
  atomicAdd_block(&counts[blockIdx.x], round);
}

// LITMUS: forbidden
// The thread's index in the grid equal to 0 is thread 0 of block 0 alone (no term of
// threadIdx.x + blockIdx.x * blockDim.x is negative, and blockDim.x is at least 1): one block.
__global__ void gridIndexZeroCounter(unsigned *count) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid == 0)
    atomicAdd_block(count, 1u);
}

// LITMUS: allowed cuda-scope-insufficient
// The first 64 threads of the grid are in as many blocks as 64 / blockDim.x: several, for small blocks.
__global__ void gridIndexFewCounter(unsigned *count) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < 64)
    atomicAdd_block(count, 1u);
}

// One kernel launched on several streams: its grids may run at once, and block 0 of each is a
// block of its own, so a word that only block 0 touches is shared by as many blocks as grids run
// (the CUDA Handbook's concurrency samples check each launch in this way).
// LITMUS: allowed cuda-scope-insufficient
__global__ void checkInEachGrid(int *mask, int kid) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicOr_block(mask, 1 << kid);
}

void launchOnEachStream(int *mask, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i)
    checkInEachGrid<<<4, 64, 0, streams[i]>>>(mask, i);
}

// LITMUS: forbidden
// The same launches on one stream run one after another: block 0 of one grid at a time.
__global__ void checkInOneGridAtATime(int *mask, int kid) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    atomicOr_block(mask, 1 << kid);
}

void launchOnOneStream(int *mask, cudaStream_t stream, int n) {
  for (int i = 0; i < n; ++i)
    checkInOneGridAtATime<<<4, 64, 0, stream>>>(mask, i);
}

// LITMUS: allowed cuda-scope-insufficient
// A one-block kernel on several streams: each grid's block is another block.
__global__ void oneBlockOnEachStream(unsigned *count) { atomicAdd_block(count, 1u); }

void launchOneBlockOnEachStream(unsigned *count, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i)
    oneBlockOnEachStream<<<1, 64, 0, streams[i]>>>(count);
}

// LITMUS: allowed cuda-scope-insufficient
// A tree walked up (index = parents[index]): the parent is any block's, so its arrival count is
// reached by every block. The index starts at the thread's own, which -O2 merges with the parents
// it loads in the loop; a merge that loads through itself keeps no block apart.
__global__ void walkUpBlockCount(const int *parents, int *count, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n)
    return;
  for (;;) {
    int parent = parents[index];
    if (parent < 0 || atomicAdd_block(&count[parent], 1) == 0)
      return;
    index = parent;
  }
}

// LITMUS: forbidden
// The same with device scope.
__global__ void walkUpDeviceCount(const int *parents, int *count, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n)
    return;
  for (;;) {
    int parent = parents[index];
    if (parent < 0 || atomicAdd(&count[parent], 1) == 0)
      return;
    index = parent;
  }
}
