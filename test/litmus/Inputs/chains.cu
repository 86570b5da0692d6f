// Chains of synchronization: base causality order is transitive (shared/seeds/
// ptx-causality-order.md), so a release in one thread, an acquire then a release in a second and
// an acquire in a third order the first thread's writes for the third (ISA2); a barrier of the
// block, then one thread's fence and flag, publish every thread's writes (cumulativity). A link
// without its release or acquire breaks the chain.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

// LITMUS: forbidden
// ISA2: block 0 publishes to block 1, which passes the message on to block 2.
__global__ void isa2(int *data, int *first, int *second, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*first).store(1, release);
  } else if (blockIdx.x == 1) {
    while (Dev(*first).load(acquire) == 0) {
    }
    Dev(*second).store(1, release);
  } else {
    while (Dev(*second).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// ISA2 with a relaxed middle link: block 1 receives the data's flag, then passes a flag on with
// no release, so block 2 can see the second flag and still read the old data.
__global__ void isa2RelaxedRelay(int *data, int *first, int *second, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*first).store(1, release);
  } else if (blockIdx.x == 1) {
    while (Dev(*first).load(acquire) == 0) {
    }
    Dev(*second).store(1, relaxed);
  } else {
    while (Dev(*second).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The middle link ordered by a fence instead: a relaxed receive, a fence, a relaxed publish.
__global__ void isa2FencedRelay(int *data, int *first, int *second, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*first).store(1, release);
  } else if (blockIdx.x == 1) {
    while (Dev(*first).load(relaxed) == 0) {
    }
    __threadfence();
    Dev(*second).store(1, relaxed);
  } else {
    while (Dev(*second).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// Cumulativity: every thread of block 0 writes, __syncthreads(), then one thread fences and sets
// the flag; the fence releases the whole block's writes.
__global__ void barrierThenFence(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      Dev(*flag).store(1, relaxed);
    }
  } else {
    while (Dev(*flag).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The barrier without the fence: thread 0's relaxed flag releases nothing.
__global__ void barrierNoFence(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0)
      Dev(*flag).store(1, relaxed);
  } else {
    while (Dev(*flag).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}
