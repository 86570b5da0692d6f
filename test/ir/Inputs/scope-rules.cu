// Source of ../scope-rules.ll (regenerate with the command in that file).
#include <cuda/atomic>

__device__ int flag;
__device__ int data;
__device__ unsigned long long counter;
__device__ int hits;

// Producer and consumer in one kernel, different blocks, different scopes.
__global__ void publish(int *out) {
  if (blockIdx.x == 0) {
    data = 42;
    cuda::atomic_ref<int, cuda::thread_scope_block>(flag).store(1, cuda::memory_order_release);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(flag).load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x] = data;
  }
}

// Every block bumps one counter with block scope.
__global__ void count() {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_block>(counter).fetch_add(1, cuda::memory_order_relaxed);
}

// The same through the builtins: atomicAdd_block against atomicAdd.
__global__ void builtins() {
  atomicAdd_block(&hits, 1);
  atomicAdd(&hits, 1);
}

// Correct: per-block slots, shared memory, device scope everywhere.
__global__ void perBlock(int *slots) {
  cuda::atomic_ref<int, cuda::thread_scope_block>(slots[blockIdx.x]).fetch_add(1, cuda::memory_order_relaxed);
}
__global__ void sharedOnly(int *out) {
  __shared__ int tile;
  cuda::atomic_ref<int, cuda::thread_scope_block>(tile).fetch_add(1, cuda::memory_order_relaxed);
  __syncthreads();
  out[blockIdx.x] = tile;
}
__global__ void deviceScope() {
  cuda::atomic_ref<int, cuda::thread_scope_device>(flag).store(1, cuda::memory_order_release);
  cuda::atomic_ref<int, cuda::thread_scope_device>(data).fetch_add(1, cuda::memory_order_relaxed);
}
