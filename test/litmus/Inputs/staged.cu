// Pointers a kernel stages in shared memory: one thread stores what the kernel was given (a
// pointer, or a copy of a whole plan) into a __shared__ variable, and after the block barrier
// every thread reads it from there. Where the kernel stores one value there, the same for every
// block, the pointer read back is that value: its object, in device memory. Where each block
// stores its own (&counts[blockIdx.x]), or the address of shared memory, it is not one object
// of every block. An instruction that names its state space (red.global) says where its object
// is, whatever the way to the address shows.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
using Blk = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

struct Comm {
  int *flag;
  int *data;
};

struct Plan {
  Comm comm;
  int n;
};

__shared__ Comm *stagedComm;

// LITMUS: allowed cuda-scope-release-acquire
// Message passing through a communicator pointer that thread 0 of each block stages in shared
// memory: the flag is relaxed on both sides, so block 1 can see it set and read the old data.
__global__ void stagedRelaxed(Comm *comm, int *out) {
  if (threadIdx.x == 0)
    stagedComm = comm;
  __syncthreads();
  Comm *c = stagedComm;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->data[0] = 42;
    Dev(*c->flag).store(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*c->flag).load(relaxed) == 0) {
    }
    out[0] = c->data[0];
  }
}

// LITMUS: forbidden
// The same with a release store and an acquire load.
__global__ void stagedOrdered(Comm *comm, int *out) {
  if (threadIdx.x == 0)
    stagedComm = comm;
  __syncthreads();
  Comm *c = stagedComm;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c->data[0] = 42;
    Dev(*c->flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*c->flag).load(acquire) == 0) {
    }
    out[0] = c->data[0];
  }
}

__shared__ Plan planCopy;

// LITMUS: allowed cuda-scope-release-acquire
// A copy of the whole plan in shared memory: its pointers are the plan's, so the relaxed flag
// and the data are the communicator's in device memory, one object for every block.
__global__ void copiedPlanRelaxed(Plan *plan, int *out) {
  if (threadIdx.x == 0)
    planCopy = *plan;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    planCopy.comm.data[0] = 42;
    Dev(*planCopy.comm.flag).store(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*planCopy.comm.flag).load(relaxed) == 0) {
    }
    out[0] = planCopy.comm.data[0];
  }
}

// LITMUS: forbidden
// The copied plan's flag with a release store and an acquire load.
__global__ void copiedPlanOrdered(Plan *plan, int *out) {
  if (threadIdx.x == 0)
    planCopy = *plan;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    planCopy.comm.data[0] = 42;
    Dev(*planCopy.comm.flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*planCopy.comm.flag).load(acquire) == 0) {
    }
    out[0] = planCopy.comm.data[0];
  }
}

__shared__ unsigned *ownCount;

// LITMUS: forbidden
// Each block stages its own counter (&counts[blockIdx.x]): only that block's threads touch it,
// and block scope includes them all.
__global__ void stagedPerBlock(unsigned *counts) {
  if (threadIdx.x == 0)
    ownCount = &counts[blockIdx.x];
  __syncthreads();
  Blk(*ownCount).fetch_add(1, relaxed);
}

__shared__ unsigned blockWord;
__shared__ unsigned *wordPtr;

// LITMUS: forbidden
// The staged pointer is the address of a __shared__ word: one per block, and block scope
// includes every thread that touches it.
__global__ void stagedSharedWord(unsigned *out) {
  if (threadIdx.x == 0) {
    blockWord = 0;
    wordPtr = &blockWord;
  }
  __syncthreads();
  Blk(*wordPtr).fetch_add(1, relaxed);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = blockWord;
}

struct Chan {
  unsigned long long *token;
};
struct Table {
  Chan *chans;
  int n;
  int pad;
};
extern __shared__ int4 tableWords[];
__shared__ Chan *chans;

#define RED_CTA(p) asm volatile("red.release.cta.global.add.u64 [%0], %1;" ::"l"(p), "l"(1ull) : "memory")
#define RED_SYS(p) asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(p), "l"(1ull) : "memory")

// LITMUS: allowed cuda-scope-mismatch
// The channel table is copied into shared memory word by word, a copy neither front end
// follows, so where the token is cannot be told from the way to it. The instruction says it:
// red.global updates global memory, which every block reaches, and block 0's block scope does
// not include block 1's system-scope update.
__global__ void spaceNamedMismatch(Table *table) {
  for (unsigned i = threadIdx.x; i < sizeof(Table) / sizeof(int4); i += blockDim.x)
    tableWords[i] = ((int4 *)table)[i];
  __syncthreads();
  chans = ((Table *)tableWords)->chans;
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0)
      RED_CTA(chans[0].token);
    else
      RED_SYS(chans[0].token);
  }
}

// LITMUS: forbidden
// Both updates at system scope.
__global__ void spaceNamedAlike(Table *table) {
  for (unsigned i = threadIdx.x; i < sizeof(Table) / sizeof(int4); i += blockDim.x)
    tableWords[i] = ((int4 *)table)[i];
  __syncthreads();
  chans = ((Table *)tableWords)->chans;
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0)
      RED_SYS(chans[0].token);
    else
      RED_SYS(chans[0].token);
  }
}
