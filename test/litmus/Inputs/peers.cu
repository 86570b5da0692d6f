// Flags and buffers reached through arrays of pointers in a kernel argument, one entry per peer:
// the shape of a flag barrier between the blocks (or the GPUs) that share a reduction. Thread t
// of a block signals peer t's flag word for this rank, then waits on its own word for peer t, and
// after the block barrier every thread reads what the peers wrote into their buffers before
// they signalled. Every entry of `flags` and `bufs` is one object to the model: which entry a
// thread reaches is decided at run time, and the entries of the peers are the same memory.
#include <cuda/atomic>

constexpr int kPeers = 4;

struct Peers {
  unsigned *flags[kPeers];
  float *bufs[kPeers];
  float *out;
  int rank;
  unsigned epoch;
};

// The signals and waits are written inline, as the PTX a library's helper holds: the litmus
// harness tells kernels apart by their lines.
#define ST_RELEASE(p, v) asm volatile("st.global.release.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define ST_RELAXED(p, v) asm volatile("st.global.relaxed.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define LD_ACQUIRE(v, p) asm volatile("ld.global.acquire.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")
#define LD_RELAXED(v, p) asm volatile("ld.global.relaxed.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")

// LITMUS: allowed cuda-scope-release-acquire
// The signal is a release, but the wait is relaxed: a thread can see a peer's flag and still read
// that peer's buffer as it was before the peer wrote it.
__global__ void peerWaitRelaxed(Peers p) {
  int t = threadIdx.x;
  p.bufs[p.rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    ST_RELEASE(p.flags[t] + p.rank, p.epoch);
    unsigned seen;
    do {
      LD_RELAXED(seen, p.flags[p.rank] + t);
    } while (seen != p.epoch);
  }
  __syncthreads();
  p.out[t] = p.bufs[(p.rank + 1) % kPeers][t];
}

// LITMUS: allowed cuda-scope-release-acquire
// The wait is an acquire, but the signal is relaxed: the buffer's writes are not released.
__global__ void peerSignalRelaxed(Peers p) {
  int t = threadIdx.x;
  p.bufs[p.rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    ST_RELAXED(p.flags[t] + p.rank, p.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, p.flags[p.rank] + t);
    } while (seen != p.epoch);
  }
  __syncthreads();
  p.out[t] = p.bufs[(p.rank + 1) % kPeers][t];
}

// LITMUS: forbidden
// A release signal and an acquire wait. The block barrier before the signal makes the other
// threads' buffer writes part of what the release hands on (cumulativity), and the one after the
// wait extends the acquire to every thread of the block.
__global__ void peerOrdered(Peers p) {
  int t = threadIdx.x;
  p.bufs[p.rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    ST_RELEASE(p.flags[t] + p.rank, p.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, p.flags[p.rank] + t);
    } while (seen != p.epoch);
  }
  __syncthreads();
  p.out[t] = p.bufs[(p.rank + 1) % kPeers][t];
}

// LITMUS: allowed cuda-scope-release-acquire
// Volatile flags with no fence: volatile is relaxed at system scope, so neither side is a
// release or acquire pattern.
__global__ void peerVolatile(Peers p) {
  int t = threadIdx.x;
  p.bufs[p.rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    volatile unsigned *mine = p.flags[p.rank];
    p.flags[t][p.rank] = p.epoch;
    while (mine[t] < p.epoch) {
    }
  }
  __syncthreads();
  p.out[t] = p.bufs[(p.rank + 1) % kPeers][t];
}

// LITMUS: forbidden
// The same volatile flags between system-scope fences: a fence and a strong write make a release
// pattern, a strong read and a fence an acquire pattern.
__global__ void peerVolatileFenced(Peers p) {
  int t = threadIdx.x;
  p.bufs[p.rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    volatile unsigned *mine = p.flags[p.rank];
    __threadfence_system();
    *(volatile unsigned *)&p.flags[t][p.rank] = p.epoch;
    while (mine[t] < p.epoch) {
    }
    __threadfence_system();
  }
  __syncthreads();
  p.out[t] = p.bufs[(p.rank + 1) % kPeers][t];
}

__device__ unsigned *peerFlags[kPeers];
__device__ float *peerBufs[kPeers];

// LITMUS: allowed cuda-scope-release-acquire
// The arrays of pointers are device variables, and one side names an entry by a constant: every
// entry is still the array, the wait is relaxed.
__global__ void peerDeviceArrays(float *out, int rank, unsigned epoch) {
  int t = threadIdx.x;
  peerBufs[rank][t] = 1.0f;
  __syncthreads();
  if (t == 0) {
    ST_RELEASE(peerFlags[0] + rank, epoch);
    unsigned seen;
    do {
      LD_RELAXED(seen, peerFlags[rank]);
    } while (seen != epoch);
  }
  __syncthreads();
  out[t] = peerBufs[0][t];
}

// LITMUS: allowed cuda-scope-release-acquire
// The kernel is given a pointer to the table rather than the table: the wait is relaxed.
__global__ void peerTablePointer(Peers *p) {
  int t = threadIdx.x;
  p->bufs[p->rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    ST_RELEASE(p->flags[t] + p->rank, p->epoch);
    unsigned seen;
    do {
      LD_RELAXED(seen, p->flags[p->rank] + t);
    } while (seen != p->epoch);
  }
  __syncthreads();
  p->out[t] = p->bufs[(p->rank + 1) % kPeers][t];
}

// LITMUS: forbidden
// The same through the pointer, with an acquire wait.
__global__ void peerTablePointerOrdered(Peers *p) {
  int t = threadIdx.x;
  p->bufs[p->rank][t] = 1.0f;
  __syncthreads();
  if (t < kPeers) {
    ST_RELEASE(p->flags[t] + p->rank, p->epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, p->flags[p->rank] + t);
    } while (seen != p->epoch);
  }
  __syncthreads();
  p->out[t] = p->bufs[(p->rank + 1) % kPeers][t];
}

// LITMUS: allowed cuda-scope-release-acquire
// Each thread reaches the peers' buffers through a local array it fills from the table: every
// element holds a peer's buffer, so the reads after the volatile wait read what the peers wrote.
__global__ void peerGatherThroughLocals(Peers p) {
  int t = threadIdx.x;
  float *src[kPeers];
  for (int k = 0; k < kPeers; ++k)
    src[k] = p.bufs[(p.rank + k) % kPeers];
  src[0][t] = 2.0f;
  __syncthreads();
  if (t < kPeers) {
    volatile unsigned *mine = p.flags[p.rank];
    p.flags[t][p.rank] = p.epoch;
    while (mine[t] < p.epoch) {
    }
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = 1; k < kPeers; ++k)
    sum += src[k][t];
  p.out[t] = sum;
}

// LITMUS: forbidden
// The same between system-scope fences.
__global__ void peerGatherThroughLocalsFenced(Peers p) {
  int t = threadIdx.x;
  float *src[kPeers];
  for (int k = 0; k < kPeers; ++k)
    src[k] = p.bufs[(p.rank + k) % kPeers];
  src[0][t] = 2.0f;
  __syncthreads();
  if (t < kPeers) {
    volatile unsigned *mine = p.flags[p.rank];
    __threadfence_system();
    *(volatile unsigned *)&p.flags[t][p.rank] = p.epoch;
    while (mine[t] < p.epoch) {
    }
    __threadfence_system();
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = 1; k < kPeers; ++k)
    sum += src[k][t];
  p.out[t] = sum;
}

// LITMUS: allowed cuda-scope-release-acquire
// The data moves 16 bytes at a time, as a uint4 copied whole: the copy reads the peer's buffer.
__global__ void peerVectorCopy(Peers p) {
  int t = threadIdx.x;
  reinterpret_cast<uint4 *>(p.bufs[p.rank])[t] = make_uint4(t, t, t, t);
  __syncthreads();
  if (t < kPeers) {
    ST_RELEASE(p.flags[t] + p.rank, p.epoch);
    unsigned seen;
    do {
      LD_RELAXED(seen, p.flags[p.rank] + t);
    } while (seen != p.epoch);
  }
  __syncthreads();
  uint4 v;
  v = reinterpret_cast<const uint4 *>(p.bufs[(p.rank + 1) % kPeers])[t];
  p.out[t] = float(v.x + v.y + v.z + v.w);
}

// LITMUS: forbidden
// The same with an acquire wait.
__global__ void peerVectorCopyOrdered(Peers p) {
  int t = threadIdx.x;
  reinterpret_cast<uint4 *>(p.bufs[p.rank])[t] = make_uint4(t, t, t, t);
  __syncthreads();
  if (t < kPeers) {
    ST_RELEASE(p.flags[t] + p.rank, p.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, p.flags[p.rank] + t);
    } while (seen != p.epoch);
  }
  __syncthreads();
  uint4 v;
  v = reinterpret_cast<const uint4 *>(p.bufs[(p.rank + 1) % kPeers])[t];
  p.out[t] = float(v.x + v.y + v.z + v.w);
}

// A semaphore per channel, one channel per (block, peer): thread t of block b signals its peer by
// adding to the peer's inbound counter (which nothing in this kernel reads: the peer's GPU does)
// and waits for the peer's signal on its own inbound counter (which nothing in this kernel
// writes). The wait shows the kernel's partners run while it runs, outside it; the signal's reader
// is such a partner, outside every block of this grid, so block scope cannot include it.
struct Channel {
  unsigned long long *inbound;
  unsigned long long *remoteInbound;
};

#define RED_RELEASE_CTA(p) asm volatile("red.release.cta.global.add.u64 [%0], 1;" ::"l"(p) : "memory")
#define RED_RELEASE_SYS(p) asm volatile("red.release.sys.global.add.u64 [%0], 1;" ::"l"(p) : "memory")
#define LD_ACQUIRE_U64(v, p) asm volatile("ld.global.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory")

// LITMUS: allowed cuda-scope-insufficient
__global__ void channelSignalBlockScope(Channel *channels, int nPeers, float *data, const float *in) {
  Channel *mine = channels + nPeers * blockIdx.x;
  data[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < nPeers) {
    RED_RELEASE_CTA(mine[threadIdx.x].remoteInbound);
    unsigned long long v;
    do {
      LD_ACQUIRE_U64(v, mine[threadIdx.x].inbound);
    } while (v < 1);
  }
}

// LITMUS: forbidden
// The same signal at system scope: it includes the peer.
__global__ void channelSignalSystemScope(Channel *channels, int nPeers, float *data, const float *in) {
  Channel *mine = channels + nPeers * blockIdx.x;
  data[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < nPeers) {
    RED_RELEASE_SYS(mine[threadIdx.x].remoteInbound);
    unsigned long long v;
    do {
      LD_ACQUIRE_U64(v, mine[threadIdx.x].inbound);
    } while (v < 1);
  }
}

// LITMUS: forbidden
// A block-scope release on the block's own word with no wait on anything from outside: its reader
// may be a later kernel, which the end of this one orders (a pointless release, not a race).
__global__ void blockReleaseNoOutsideWait(Channel *channels, int nPeers) {
  Channel *mine = channels + nPeers * blockIdx.x;
  if (threadIdx.x < nPeers)
    RED_RELEASE_CTA(mine[threadIdx.x].remoteInbound);
}

// LITMUS: forbidden
// The block waits for outside partners, but its block-scope release has its reader in the block:
// thread 0 reads the word after the barrier. Block scope includes that reader.
__global__ void blockReleaseReadInBlock(Channel *channels, float *out) {
  Channel *mine = channels + blockIdx.x;
  if (threadIdx.x == 0) {
    unsigned long long v;
    do {
      LD_ACQUIRE_U64(v, mine->inbound);
    } while (v < 1);
  }
  if (threadIdx.x == 1)
    RED_RELEASE_CTA(mine->remoteInbound);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = cuda::atomic_ref<unsigned long long, cuda::thread_scope_block>(*mine->remoteInbound)
                          .load(cuda::memory_order_acquire);
}
