// Correct message passing, and what is not message passing at all: no finding.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;
using BlockRef = cuda::atomic_ref<int, cuda::thread_scope_block>;

// no-warning: a release store and an acquire load.
__global__ void releaseAcquire(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).store(1, cuda::memory_order_release);
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// no-warning: libcu++'s default order is seq_cst, which releases and acquires.
__global__ void defaults(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).store(1);
  } else {
    while (DeviceRef(*Flag).load() == 0) {
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// no-warning: relaxed flag accesses ordered by device-scope fences on both sides.
__global__ void fences(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    __threadfence();
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// no-warning: cumulativity. Every thread of block 0 writes, __syncthreads(), then one thread's
// fence and relaxed flag publish the whole block's writes.
__global__ void cumulative(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
    }
  } else {
    if (threadIdx.x == 0)
      while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
      }
    __syncthreads();
    __threadfence();
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// no-warning: the last-block reduction with both fences, and the ticket reset.
__device__ unsigned Ticket;
__device__ int Partial[1024];
__global__ void lastBlock(int *Out) {
  __shared__ bool Last;
  Partial[blockIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) {
    __threadfence();
    Last = atomicAdd(&Ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!Last)
    return;
  __threadfence();
  int Sum = 0;
  for (unsigned B = 0; B < gridDim.x; ++B)
    Sum += Partial[B];
  *Out = Sum;
  Ticket = 0;
}

// no-warning: the lock with a fence after taking it and before handing it on.
__device__ int Lock;
__device__ int Total;
__global__ void fencedLock(int V) {
  while (atomicCAS(&Lock, 0, 1) != 0) {
  }
  __threadfence();
  Total += V;
  __threadfence();
  atomicExch(&Lock, 0);
}

// no-warning: a counter that publishes nothing (its value is never tested), and a kernel that
// only reads its input and only writes its output.
__device__ unsigned long long Events;
__global__ void counter(const int *In, int *Out) {
  if (In[threadIdx.x] > 0)
    atomicAdd(&Events, 1ull);
  Out[threadIdx.x] = In[threadIdx.x];
}

// no-warning: the data is itself read with acquire (and written with release): the flag needs no
// order of its own.
__global__ void dataAcquired(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    DeviceRef(*Data).store(42, cuda::memory_order_release);
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    *Out = DeviceRef(*Data).load(cuda::memory_order_acquire);
  }
}

// no-warning: the data write and the flag are in different arms of one if: no thread does both.
__global__ void otherArms(int *Data, int *Flag, int *Out) {
  if (threadIdx.x == 0)
    Data[blockIdx.x] = 1;
  else
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  if (threadIdx.x == 1)
    while (DeviceRef(*Flag).load(cuda::memory_order_acquire) == 0) {
    }
  else
    Out[blockIdx.x] = Data[blockIdx.x];
}

// no-warning: per-block flags and data (one element per block, the same index everywhere): block
// fences include both sides.
__global__ void perBlock(int *Data, int *Flags, int *Out) {
  if (threadIdx.x == 0) {
    Data[blockIdx.x] = 42;
    __threadfence_block();
    DeviceRef(Flags[blockIdx.x]).store(1, cuda::memory_order_relaxed);
  } else if (threadIdx.x == 32) {
    while (DeviceRef(Flags[blockIdx.x]).load(cuda::memory_order_relaxed) == 0) {
    }
    __threadfence_block();
    Out[blockIdx.x] = Data[blockIdx.x];
  }
}

// no-warning: a kernel launched with one block: block fences include every thread.
__global__ void oneBlock(int *Data, int *Flag, int *Out) {
  if (threadIdx.x == 0) {
    Data[0] = 42;
    __threadfence_block();
    BlockRef(*Flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (BlockRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    __threadfence_block();
    Out[threadIdx.x] = Data[0];
  }
}
void launchOneBlock(int *Data, int *Flag, int *Out) { oneBlock<<<1, 64>>>(Data, Flag, Out); }

// no-warning: shared memory is the block's own; __syncthreads() orders it.
__global__ void sharedFlag(int *Out) {
  __shared__ int Tile[256];
  __shared__ int Ready;
  Tile[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0)
    BlockRef(Ready).store(1, cuda::memory_order_relaxed);
  __syncthreads();
  if (BlockRef(Ready).load(cuda::memory_order_relaxed) == 1)
    Out[threadIdx.x] = Tile[255 - threadIdx.x];
}

// no-warning: a flag that is only plain memory (no atomic, no volatile access) is a kernel's own
// bookkeeping, not a flag between threads.
__global__ void plainState(int *State, int *Buf, int *Out) {
  if (State[blockIdx.x] == 0) {
    Buf[blockIdx.x] = 1;
    State[blockIdx.x] = 1;
  }
  Out[blockIdx.x] = Buf[blockIdx.x];
}

// no-warning: after the receive each thread reads back only the element it wrote itself, which
// program order already gives it.
__global__ void ownElement(int *Buf, int *Flag, int *Out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Buf[I] = I;
  DeviceRef(*Flag).fetch_add(1, cuda::memory_order_release);
  while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) < gridDim.x * blockDim.x) {
  }
  Out[I] = Buf[I] * 2;
}

// no-warning: producer and consumer in different kernels; without AcrossKernels the check reads
// each kernel alone (see release-acquire-options.cu).
__global__ void producer(int *Data, int *Flag) {
  Data[0] = 42;
  DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
}
__global__ void consumer(int *Data, int *Flag, int *Out) {
  while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
  }
  *Out = Data[0];
}

// no-warning: a work cursor (an in-place transposition's next cycle to move). Each block draws an
// item and compares it with the item's successor in the cycle, a value computed from the item
// itself: arithmetic on what the block drew, not a test of what other blocks did before drawing
// theirs. Checked only against its end, the cursor hands nothing over (the moves are claimed
// through finished[], read back by an atomic).
__global__ void cursorComparedWithItself(const int A, const int B, const int b, float *input, int *finished,
                                         int *head) {
  __shared__ int lmem[2];
  const int tid = threadIdx.x;
  int m = A * B - 1;
  if (tid == 0)
    lmem[1] = atomicAdd(&head[0], 1);
  __syncthreads();
  while (lmem[1] < m) {
    int next_in_cycle = (lmem[1] * A) - m * (lmem[1] / B);
    if (next_in_cycle == lmem[1]) {
      __syncthreads();
      if (tid == 0)
        lmem[1] = atomicAdd(&head[0], 1);
      __syncthreads();
      continue;
    }
    float data1 = 0;
    if (tid < b)
      data1 = input[lmem[1] * b + tid];
    if (tid == 0)
      lmem[0] = atomicAdd(&finished[lmem[1]], 0);
    __syncthreads();
    for (; lmem[0] == 0; next_in_cycle = (next_in_cycle * A) - m * (next_in_cycle / B)) {
      float backup1 = 0;
      if (tid < b)
        backup1 = input[next_in_cycle * b + tid];
      __syncthreads();
      if (tid == 0)
        lmem[0] = atomicExch(&finished[next_in_cycle], 1);
      __syncthreads();
      if (!lmem[0] && tid < b)
        input[next_in_cycle * b + tid] = data1;
      data1 = backup1;
    }
    if (tid == 0)
      lmem[1] = atomicAdd(&head[0], 1);
    __syncthreads();
  }
}

// no-warning: the flag's read is a library wrapper's twelve calls below the kernel, and the fence
// after it one call further down. clang-tidy's walk follows calls twelve deep: the fence's call is
// one it does not enter, so it may fence (the IR pass, which inlines it, sees the fence), and no
// missing acquire is claimed across it.
__device__ __noinline__ void fenceHere() { __threadfence(); }
__device__ int readAt0(int *f) { int v = *(volatile int *)f; fenceHere(); return v; }
__device__ int readAt1(int *f) { return readAt0(f); }
__device__ int readAt2(int *f) { return readAt1(f); }
__device__ int readAt3(int *f) { return readAt2(f); }
__device__ int readAt4(int *f) { return readAt3(f); }
__device__ int readAt5(int *f) { return readAt4(f); }
__device__ int readAt6(int *f) { return readAt5(f); }
__device__ int readAt7(int *f) { return readAt6(f); }
__device__ int readAt8(int *f) { return readAt7(f); }
__device__ int readAt9(int *f) { return readAt8(f); }
__device__ int readAt10(int *f) { return readAt9(f); }
__device__ int readAt11(int *f) { return readAt10(f); }
__global__ void readTwelveCallsDown(int *flag, int *data, int *out) {
  if (blockIdx.x == 0) { data[threadIdx.x] = 1; __threadfence(); atomicExch(flag, 1); }
  else if (readAt11(flag)) out[threadIdx.x] = data[threadIdx.x];
}
