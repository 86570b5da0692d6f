// Objects reached through pointers loaded from memory: a communicator's or a pool's fields. Every
// load of the same field of the same kernel argument (or device variable) gives the same pointer,
// so the accesses through it are one object, as the accesses through the argument itself are.
// What a kernel is given, or keeps in device memory, points to device memory: every block reaches
// it.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

struct Comm {
  int *flag;
  int *data;
};

struct Pool {
  unsigned *nodes;
  unsigned *locks;
};

__device__ Comm deviceComm;

// LITMUS: allowed cuda-scope-release-acquire
// Message passing through a communicator the kernel is given a pointer to: the flag is relaxed on
// both sides, so block 1 can see it set and still read the old data.
__global__ void commRelaxed(Comm *comm, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    comm->data[0] = 42;
    Dev(*comm->flag).store(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*comm->flag).load(relaxed) == 0) {
    }
    out[0] = comm->data[0];
  }
}

// LITMUS: forbidden
// The same with a release store and an acquire load.
__global__ void commOrdered(Comm *comm, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    comm->data[0] = 42;
    Dev(*comm->flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*comm->flag).load(acquire) == 0) {
    }
    out[0] = comm->data[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The communicator is a device variable: the same, relaxed.
__global__ void deviceCommRelaxed(int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    deviceComm.data[0] = 42;
    Dev(*deviceComm.flag).store(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*deviceComm.flag).load(relaxed) == 0) {
    }
    out[0] = deviceComm.data[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A pool passed by value: each warp locks a node with a device-scope atomicOr, fenced on both
// sides, and updates it under the lock; with no __syncwarp() before lane 1's unlock, its release
// orders only lane 1's own write of the node.
__global__ void poolLockFenced(Pool pool, unsigned *out) {
  unsigned lane = threadIdx.x % 32, node = blockIdx.x % 4;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr(pool.locks + node, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  __threadfence();
  unsigned v = pool.nodes[node * 32 + lane];
  pool.nodes[node * 32 + lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  __threadfence();
  if (lane == 1)
    atomicAnd(pool.locks + node, 0x7fffffffu);
}

// LITMUS: forbidden
// The same with __syncwarp() before the unlock: every lane's write is lane 1's to release.
__global__ void poolLockFencedSynced(Pool pool, unsigned *out) {
  unsigned lane = threadIdx.x % 32, node = blockIdx.x % 4;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr(pool.locks + node, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  __threadfence();
  unsigned v = pool.nodes[node * 32 + lane];
  pool.nodes[node * 32 + lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  __syncwarp();
  __threadfence();
  if (lane == 1)
    atomicAnd(pool.locks + node, 0x7fffffffu);
}

// LITMUS: allowed cuda-scope-mismatch
// The same lock taken with a block-scope atomicOr: blocks contend for one node's lock word, and a
// .cta atomic is not atomic with another block's release.
__global__ void poolLockBlockScope(Pool pool, unsigned *out) {
  unsigned lane = threadIdx.x % 32, node = blockIdx.x % 4;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr_block(pool.locks + node, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  __threadfence();
  unsigned v = pool.nodes[node * 32 + lane];
  pool.nodes[node * 32 + lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  __syncwarp();
  __threadfence();
  if (lane == 1)
    atomicAnd(pool.locks + node, 0x7fffffffu);
}

// LITMUS: allowed cuda-scope-release-acquire
// The lock handed on after a block-scope fence: the next holder, in another block, can read the
// node before this holder's update.
__global__ void poolLockNarrowRelease(Pool pool, unsigned *out) {
  unsigned lane = threadIdx.x % 32, node = blockIdx.x % 4;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr(pool.locks + node, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  __threadfence();
  unsigned v = pool.nodes[node * 32 + lane];
  pool.nodes[node * 32 + lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  __threadfence_block();
  if (lane == 1)
    atomicAnd(pool.locks + node, 0x7fffffffu);
}

// LITMUS: allowed cuda-scope-mismatch
// A local pointer declared bare and set once (refCounter's shape): every use is through that one
// value, as in SSA. Blocks of a group share counters[group + threadIdx.x], counted at block scope by
// one update and device scope by the other.
__global__ void pointerSetOnce(unsigned *counters, unsigned groups, unsigned *out) {
  unsigned *counter;
  counter = &counters[(blockIdx.x % groups) * blockDim.x + threadIdx.x];
  atomicAdd_block(counter, 1u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = atomicDec(counter, 1000u);
}

// LITMUS: forbidden
// The same with both updates at device scope.
__global__ void pointerSetOnceDevice(unsigned *counters, unsigned groups, unsigned *out) {
  unsigned *counter;
  counter = &counters[(blockIdx.x % groups) * blockDim.x + threadIdx.x];
  atomicAdd(counter, 1u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = atomicDec(counter, 1000u);
}

// LITMUS: allowed cuda-scope-insufficient
// A pointer loaded from a table in a branch of a few threads and used after a barrier by one of
// them (userbuffers' myptr): -O2 merges it with undef from the threads that never set it. Every
// block still counts on the one word with block scope.
__global__ void pointerSetInOneBranch(void **tables, int which, int *out) {
  __shared__ int last;
  int *counter;
  if (threadIdx.x < 2) {
    counter = (int *)tables[which];
    out[threadIdx.x] = *counter;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd_block(counter + 16, 1) == 99;
  __syncthreads();
  if (last)
    out[threadIdx.x] = 1;
}

// LITMUS: forbidden
// The same with device scope.
__global__ void pointerSetInOneBranchDevice(void **tables, int which, int *out) {
  __shared__ int last;
  int *counter;
  if (threadIdx.x < 2) {
    counter = (int *)tables[which];
    out[threadIdx.x] = *counter;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd(counter + 16, 1) == 99;
  __syncthreads();
  if (last)
    out[threadIdx.x] = 1;
}

// A per-warp table made once from the warp's first row (AMGX's Hash_map in csr_multiply): the row
// variable draws the next rows from a work list later, but the table's pointers were taken from its
// first value, the warp's own slice of the global arrays. Only that warp's lanes touch the slice.
struct WarpSlice {
  int *keys, *vals;
  __device__ WarpSlice(int *k, int *v) : keys(k), vals(v) {}
  __device__ int insertAndRead(int slot, int key);
};

// LITMUS: forbidden
__global__ void warpSliceFromFirstRow(int *keys, int *vals, const int *next, int *out, int n, int size) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = blockIdx.x * (blockDim.x / 32) + warp;
  WarpSlice table(&keys[row * size], &vals[row * size]);
  int sum = 0;
  for (; row < n; row = next[row])
    sum += table.insertAndRead(lane, row);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__device__ int WarpSlice::insertAndRead(int slot, int key) {
  vals[slot] = key;
  atomicCAS(&keys[slot], -1, key);
  return keys[(slot + 1) % 32] != -1 ? vals[(slot + 1) % 32] : 0;
}

// A pointer set in two branches to one of two buffers the kernel is given (ping-pong sorting: the
// direction picks which buffer this pass writes). The blocks of one sequence write their elements
// through it, then count down a counter they share, and the last one reads the others' elements
// back through the same pointer. Whichever buffer it is, it is device memory every block reaches.
struct Sequence {
  unsigned remaining;
};

// LITMUS: allowed cuda-scope-release-acquire
// No fence on either side of the count: the last block can read elements the others wrote before
// their decrement and see the old values.
__global__ void pingPongLastBlock(float *a, float *b, const int *direction, Sequence *seq, float *out) {
  float *dst;
  if (direction[0] == 1)
    dst = b;
  else
    dst = a;
  if (threadIdx.x == 0) {
    dst[blockIdx.x] = blockIdx.x * 2.0f;
    if (atomicSub(&seq->remaining, 1u) == 1u) {
      float sum = 0;
      for (unsigned i = 0; i < gridDim.x; ++i)
        sum += dst[i];
      out[0] = sum;
    }
  }
}

// LITMUS: forbidden
// The same with a fence before the decrement (release) and after it (acquire).
__global__ void pingPongLastBlockFenced(float *a, float *b, const int *direction, Sequence *seq, float *out) {
  float *dst;
  if (direction[0] == 1)
    dst = b;
  else
    dst = a;
  if (threadIdx.x == 0) {
    dst[blockIdx.x] = blockIdx.x * 2.0f;
    __threadfence();
    if (atomicSub(&seq->remaining, 1u) == 1u) {
      __threadfence();
      float sum = 0;
      for (unsigned i = 0; i < gridDim.x; ++i)
        sum += dst[i];
      out[0] = sum;
    }
  }
}


// LITMUS: allowed cuda-scope-insufficient
// A channel reached through a local pointer to this block's element (Channel *ch = channels +
// blockIdx.x), whose methods are called through it: a call through a pointer changes what it
// points to, not the pointer, so ch still points into the kernel's argument. The signal's word
// is one nothing in the kernel reads, and the kernel waits on another that nothing in it writes:
// the reader runs outside the kernel, outside every block, and a block scope leaves it out.
struct Channel {
  unsigned *outbound;
  unsigned *inbound;
  __device__ void signalBlock() {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block>{*outbound}.fetch_add(1, release);
  }
  __device__ void signalSystem() {
    cuda::atomic_ref<unsigned, cuda::thread_scope_system>{*outbound}.fetch_add(1, release);
  }
  __device__ void wait(unsigned goal) {
    while (cuda::atomic_ref<unsigned, cuda::thread_scope_system>{*inbound}.load(acquire) < goal) {
    }
  }
};

__global__ void channelThroughLocalPointer(Channel *channels, unsigned goal) {
  if (threadIdx.x == 0) {
    Channel *ch = channels + blockIdx.x;
    ch->signalBlock();
    ch->wait(goal);
  }
}

// LITMUS: forbidden
// Its fixed twin: the signal has system scope.
__global__ void channelThroughLocalPointerSystem(Channel *channels, unsigned goal) {
  if (threadIdx.x == 0) {
    Channel *ch = channels + blockIdx.x;
    ch->signalSystem();
    ch->wait(goal);
  }
}

// LITMUS: allowed cuda-scope-insufficient
// A channel handle copied from the kernel's array into a local and used through its methods (a
// port channel's handle, whose put calls its base class's method, which pushes a trigger through
// the FIFO it keeps as a field): the copy holds the pointers it was copied from, as long as
// nothing writes those fields. The trigger is published for a reader outside the kernel (the
// host's proxy, which the kernel then waits on), so block scope cannot include it.
struct TriggerFifo {
  unsigned long long *triggers;
  __device__ void pushCta(unsigned long long v) {
    asm volatile("st.global.release.cta.u64 [%0], %1;" ::"l"(triggers), "l"(v) : "memory");
  }
  __device__ void pushSys(unsigned long long v) {
    asm volatile("st.global.release.sys.u64 [%0], %1;" ::"l"(triggers), "l"(v) : "memory");
  }
};
struct BaseHandle {
  TriggerFifo fifo;
  unsigned long long *inbound;
  __device__ void putCta() { fifo.pushCta(1); }
  __device__ void putSys() { fifo.pushSys(1); }
  __device__ void wait() {
    unsigned long long v;
    do {
      asm volatile("ld.global.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(inbound) : "memory");
    } while (v == 0);
  }
};
struct PortHandle : BaseHandle {
  __device__ void putThenWaitCta() {
    BaseHandle::putCta();
    wait();
  }
  __device__ void putThenWaitSys() {
    BaseHandle::putSys();
    wait();
  }
};

__global__ void keptCopyTriggerBlockScope(PortHandle *handles) {
  if (threadIdx.x % 32 == 0) {
    PortHandle h = handles[threadIdx.x / 32];
    h.putThenWaitCta();
  }
}

// LITMUS: forbidden
// Its fixed twin: the trigger is stored at system scope.
__global__ void keptCopyTriggerSystemScope(PortHandle *handles) {
  if (threadIdx.x % 32 == 0) {
    PortHandle h = handles[threadIdx.x / 32];
    h.putThenWaitSys();
  }
}
