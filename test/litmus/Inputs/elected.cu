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

// LITMUS: forbidden
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

// LITMUS: allowed cuda-scope-release-acquire
// The barrier's arrive alone before the publish, its wait after: arriving waits for no one, so
// thread 0 may publish before the other warps have written.
__global__ void electedAfterArriveOnly(int *data, int *flag, int *out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    Barrier::arrival_token token = bar.arrive();
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
    bar.wait(static_cast<Barrier::arrival_token &&>(token));
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// Hand-written mbarrier PTX, as pipelines that drive the tensor memory accelerator write it: the
// barrier's shared-window address in an integer, an arrive, then try_wait until the phase flips.
__device__ unsigned long long mbarArrive(unsigned addr) {
  unsigned long long token;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(token) : "r"(addr) : "memory");
  return token;
}
__device__ void mbarWait(unsigned addr, unsigned long long token) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(addr), "l"(token)
                 : "memory");
}

// LITMUS: forbidden
// Every thread arrives at the hand-written mbarrier and waits for the phase to complete before
// thread 0 publishes: as __syncthreads() does, the wait orders the others' writes before it.
__global__ void electedAfterMbarrierPtx(int *data, int *flag, int *out) {
  __shared__ unsigned long long mbar;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(blockDim.x) : "memory");
  __syncthreads();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    mbarWait(addr, mbarArrive(addr));
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

// LITMUS: allowed cuda-scope-release-acquire
// The same arrive with its wait after the publish: thread 0 waits for no one before it.
__global__ void electedBeforeMbarrierWait(int *data, int *flag, int *out) {
  __shared__ unsigned long long mbar;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(blockDim.x) : "memory");
  __syncthreads();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x + 1;
    unsigned long long token = mbarArrive(addr);
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
    mbarWait(addr, token);
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}
