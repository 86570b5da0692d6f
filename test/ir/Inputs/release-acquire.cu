// Source of ../release-acquire.ll (regenerate with the command in that file).
#include <cuda/atomic>

__device__ int data[1024];
__device__ int flag;
__device__ unsigned ticket;
__device__ int partial[1024];
__device__ unsigned long long events;

// Published with a relaxed flag and no fence; received with a relaxed spin and no fence.
__global__ void relaxedBoth(int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device>(flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(flag).load(cuda::memory_order_relaxed) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// Ordered by block-scope fences only, across blocks.
__global__ void blockFences(int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x;
    __threadfence_block();
    cuda::atomic_ref<int, cuda::thread_scope_device>(flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(flag).load(cuda::memory_order_relaxed) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// The last-block ticket without a fence on either side.
__global__ void lastBlock(int *out) {
  __shared__ bool last;
  partial[blockIdx.x] = threadIdx.x;
  if (threadIdx.x == 0)
    last = atomicAdd(&ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// Correct: the whole block writes, __syncthreads(), then one thread's fence and relaxed flag;
// cumulativity publishes every thread's write. The consumer fences after seeing the flag.
__global__ void cumulative(int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      cuda::atomic_ref<int, cuda::thread_scope_device>(flag).store(1, cuda::memory_order_relaxed);
    }
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(flag).load(cuda::memory_order_relaxed) == 0) {
    }
    __threadfence();
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// Correct: release store and acquire load.
__global__ void releaseAcquire(int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device>(flag).store(1, cuda::memory_order_release);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(flag).load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// Correct: a counter that publishes nothing, and a kernel that only reads its input.
__global__ void counter(const int *in, int *out) {
  if (in[threadIdx.x] > 0)
    atomicAdd(&events, 1ull);
  out[threadIdx.x] = in[threadIdx.x];
}

// A spin lock: the critical section's data is received after a relaxed atomicCAS and handed on by
// a relaxed atomicExch, with no fence on either side.
__device__ int lock;
__device__ int total;
__global__ void spinLock(int v) {
  while (atomicCAS(&lock, 0, 1) != 0) {
  }
  total += v;
  atomicExch(&lock, 0);
}

// Correct: the same lock with __threadfence() after taking it and before handing it on.
__global__ void fencedLock(int v) {
  while (atomicCAS(&lock, 0, 1) != 0) {
  }
  __threadfence();
  total += v;
  __threadfence();
  atomicExch(&lock, 0);
}
