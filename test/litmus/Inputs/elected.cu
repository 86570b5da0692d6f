// One thread publishes for its group: the threads of a block (or the lanes of a warp) each write
// their part of the data, and one of them, chosen by its index, sets the flag. A release, by a
// fence or by the flag's own order, orders only its own thread's earlier writes and what that
// thread has observed (PTX: causality order runs through the releasing thread). The other
// threads' writes reach the publisher only through a barrier they all pass before the publish
// (__syncthreads(), or __syncwarp() for one warp's lanes); without it, a reader that sees the
// flag may read their parts stale, or before they are written at all: a warp of the block that
// has not yet run its store.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;

// LITMUS: allowed cuda-scope-release-acquire
// Every thread of block 0 writes its element and fences; thread 0 alone publishes, with no
// barrier between: threads of the other warps need not have written yet.
__global__ void electedPublishNoBarrier(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    __threadfence();
    if (threadIdx.x == 0)
      atomicExch(flag, 1);
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same with __syncthreads() before the publish: every thread's write is before the barrier,
// thread 0's fence and flag after it.
__global__ void electedPublishAfterBarrier(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(flag, 1);
    }
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The flag's own release, by thread 0 only, after every thread's write and no barrier.
__global__ void electedReleaseStoreNoBarrier(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// Thread 0 writes every element itself, then releases: its own writes.
__global__ void electedWritesAllItself(int *data, int *flag, int *out, int n) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      for (int i = 0; i < n; ++i)
        data[i] = i + 1;
      Dev(*flag).store(1, cuda::memory_order_release);
    }
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// One warp's lanes write, lane 0 releases with no __syncwarp() between: under independent thread
// scheduling the other lanes' stores need not come first.
__global__ void electedLaneNoSyncwarp(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x < 32) {
      data[threadIdx.x] = threadIdx.x + 1;
      if (threadIdx.x == 0)
        Dev(*flag).store(1, cuda::memory_order_release);
    }
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    if (threadIdx.x < 32)
      out[threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same lanes with __syncwarp() before lane 0's release.
__global__ void electedLaneAfterSyncwarp(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x < 32) {
      data[threadIdx.x] = threadIdx.x + 1;
      __syncwarp();
      if (threadIdx.x == 0)
        Dev(*flag).store(1, cuda::memory_order_release);
    }
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    if (threadIdx.x < 32)
      out[threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The receiving side: thread 0 waits with an acquire, the block's other threads read with no
// barrier after the wait; they do not wait at all, and read the data whenever they run.
__global__ void electedWaitNoBarrier(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden; pass-differs: the pass reads no op from the mbarrier asm that cuda::barrier lowers to, so it sees no barrier and reports the publish
// A cuda::barrier every thread of the block arrives at and waits on, between the writes and thread
// 0's release: it orders them as __syncthreads() does.
#include <cuda/barrier>
__global__ void electedAfterBarrierObject(int *data, int *flag, int *out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    bar.arrive_and_wait();
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}
