// The same cases against the real CUDA 13 headers.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda/barrier>
#include <cstdint>

// A global counter bumped by every block through a block-scope atomic_ref.
__global__ void countAll(int64_t *Total) {
  cuda::atomic_ref<int64_t, cuda::thread_scope_block>(*Total).fetch_add(1, cuda::memory_order_relaxed);
  // CHECK: :[[@LINE-1]]:63: warning: 'Total' is updated with thread_scope_block by every block that runs kernel 'countAll'; thread_scope_block cannot include the other blocks; consider thread_scope_device [cuda-scope-insufficient]
}

// The toolkit's _block builtins and fences.
__device__ unsigned Ticket;
__global__ void draw(unsigned *Out) {
  Out[blockIdx.x] = atomicInc_block(&Ticket, ~0u);
  // CHECK: :[[@LINE-1]]:21: warning: 'Ticket' is updated with thread_scope_block by every block that runs kernel 'draw'; {{.*}} [cuda-scope-insufficient]
}
__global__ void signal(int *Data, int *Flag) {
  Data[blockIdx.x] = 1;
  __threadfence_block();
  // CHECK: :[[@LINE-1]]:3: warning: '__threadfence_block' orders the relaxed store of 'Flag' with thread_scope_block, {{.*}} [cuda-scope-insufficient]
  // CHECK: :[[@LINE+1]]:59: note: the relaxed store is here
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_relaxed);
  if (blockIdx.x == 0) // block 0 waits for the flag: a thread of the kernel that synchronizes
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
}

// Correct: shared memory, per-block elements, device scope.
__global__ void fine(int *Partial, int *Total) {
  __shared__ int Count;
  if (threadIdx.x == 0)
    Count = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block>(Count).fetch_add(1); // no-warning: shared memory
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_block>(Partial[blockIdx.x]).store(Count); // no-warning: this block's element
    cuda::atomic_ref<int, cuda::thread_scope_device>(*Total).fetch_add(Count); // no-warning: device scope
  }
}
