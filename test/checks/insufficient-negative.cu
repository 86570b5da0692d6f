// Block scope where every thread that can reach the object is in one block,
// and scopes wide enough: no finding.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda_runtime.h>

// __shared__ memory belongs to one block.
__global__ void sharedCounter(int *Out) {
  __shared__ int Count;
  if (threadIdx.x == 0)
    Count = 0;
  __syncthreads();
  atomicAdd_block(&Count, 1); // no-warning: shared memory
  cuda::atomic_ref<int, cuda::thread_scope_block>(Count).load(); // no-warning: shared memory
  __syncthreads();
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Count;
}

// A block-scope barrier in shared memory.
__global__ void blockBarrier(int *Out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char Storage[sizeof(Barrier)];
  Barrier &Bar = *reinterpret_cast<Barrier *>(Storage);
  if (threadIdx.x == 0)
    init(&Bar, blockDim.x);
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  Bar.arrive_and_wait(); // no-warning: a barrier in shared memory
}

// Per-block data: each block updates only its own element.
__global__ void perBlock(unsigned *Partial, unsigned *Tiles) {
  atomicAdd_block(&Partial[blockIdx.x], 1u); // no-warning: only this block's threads reach Partial[blockIdx.x]
  unsigned *Mine = Tiles + blockIdx.x * blockDim.x;
  cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*Mine).fetch_max(threadIdx.x); // no-warning: this block's tile
}

// A kernel every launch of which runs one block.
__global__ void oneBlock(int *Total) {
  atomicAdd_block(Total, 1); // no-warning: every launch runs one block
}
void runOneBlock(int *Total) { oneBlock<<<1, 1024>>>(Total); }

// Wide enough scopes on memory every block reaches.
__device__ unsigned long long Done;
__global__ void wideEnough(int *Total) {
  atomicAdd(Total, 1); // no-warning: device scope
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Total).load(); // no-warning: device scope
  atomicAdd_system(&Done, 1ull); // no-warning: system scope
  cuda::std::atomic_ref<unsigned long long>(Done).load(); // no-warning: system scope
}

// One narrow and one wide access to the same object are cuda-scope-mismatch's.
__global__ void mixed(int *Flag) {
  atomicExch_block(Flag, 1); // no-warning: reported by cuda-scope-mismatch
  atomicAdd(Flag, 0);
}

// Memory the file does not show.
__device__ void anywhere(int *P) { atomicAdd_block(P, 1); } // no-warning: no kernel of the file calls it; P could be shared memory
__global__ void local() {
  int Mine = 0;
  atomicAdd_block(&Mine, 1); // no-warning: a thread's own variable
}
