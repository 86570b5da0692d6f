// Accesses with different scopes that cannot race: no finding.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

// The libcu++ documentation's correct message passing: both sides use device scope.
__global__ void messagePassing(int *X, int *F) {
  if (blockIdx.x == 0) {
    *X = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device> Flag(*F);
    Flag.store(1, cuda::memory_order_release); // no-warning: device scope includes block 1
  } else if (blockIdx.x == 1) {
    cuda::atomic_ref<int, cuda::thread_scope_device> Flag(*F);
    while (Flag.load(cuda::memory_order_acquire) != 1) { // no-warning: device scope includes block 0
    }
  }
}

// __shared__ memory: every thread that can reach it is in the block.
__global__ void sharedMemory(int *Out) {
  __shared__ int Count;
  if (threadIdx.x == 0)
    cuda::atomic_ref<int, cuda::thread_scope_device>(Count).store(0);
  __syncthreads();
  atomicAdd_block(&Count, 1); // no-warning: shared memory, block scope includes every accessor
  __syncthreads();
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Count;
}

// Per-block data: every access uses the same block-indexed element.
__global__ void perBlock(int *Partial) {
  atomicAdd_block(&Partial[blockIdx.x], 1); // no-warning: only this block's threads reach the element
  __syncthreads();
  int *Mine = Partial + blockIdx.x;
  if (threadIdx.x == 0)
    atomicExch(Mine, 0); // no-warning: the same element, through a local pointer
}

// Block scope in one kernel, device scope in a later one: not concurrent.
__global__ void countInBlock(int *Hist) { atomicAdd_block(&Hist[0], 1); } // no-warning: kernels in one stream run one after the other
__global__ void countInGrid(int *Hist) { atomicAdd(&Hist[0], 1); }
void histogram(int *Hist) {
  countInBlock<<<1, 256>>>(Hist);
  countInGrid<<<64, 256>>>(Hist);
}

// A kernel every launch of which runs one block.
__global__ void singleBlock(int *Flag) {
  atomicExch_block(Flag, 1); // no-warning: every launch runs one block
  atomicAdd(Flag, 0);
}
void launchSingle(int *F) {
  singleBlock<<<1, 128>>>(F);
  singleBlock<<<dim3(1), dim3(128)>>>(F);
}

// Different objects. Each block-scope access alone on memory every block
// reaches is cuda-scope-insufficient's finding, not this check's.
struct Stats {
  int Blocks;
  int Total;
};
__device__ int First, Second;
__global__ void differentObjects(Stats *S, int *A, int *B) {
  cuda::atomic_ref<int, cuda::thread_scope_block>(S->Blocks).fetch_add(1); // no-warning: another field than Total
  atomicAdd(&S->Total, 1);
  atomicAdd_block(&First, 1); // no-warning: another variable than Second
  atomicAdd(&Second, 1);
  atomicAdd_block(A, 1); // no-warning: no launch shows A and B to be the same memory
  atomicAdd(B, 1);
}

// What the file does not show.
__device__ void bumpAnything(int *P) {
  atomicAdd_block(P, 1); // no-warning: no kernel of the file calls this; P could point anywhere
  atomicAdd(P, 1);
}
__global__ void reassigned(int *A, int *B) {
  int *P = A;
  if (threadIdx.x == 0)
    P = B;
  atomicAdd_block(P, 1); // no-warning: P is assigned; its initializer is not its value
  atomicAdd(A, 1);
}
