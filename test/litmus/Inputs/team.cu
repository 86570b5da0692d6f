// Messages between a kernel and the other GPUs of its team, through a communication library's
// symmetric windows: ncclGetLsaPointer(w, offset, peer) is the peer's slot of the window (another
// GPU's memory), ncclGetLocalPointer(w, offset) this GPU's own, ncclGetLsaMultimemPointer every
// GPU's copy at once. The functions below are written here as the library writes them; the front
// ends know them by name (model: returnsPeerAddress). A barrier across the GPUs is an arrival
// (a store into each peer's inbox, or a multicast add) and a wait on this GPU's inbox. Its other
// side may be outside the kernel: a peer reads what was written into its memory after its own
// kernel ends, and what a kernel reads from a peer the peer may have written before its kernel
// began. Only the signal orders those accesses for the two GPUs: it must release what was
// written before it, and the wait must acquire what is read after it.
#include <cstddef>
#include <cstdint>
#include <cuda/atomic>

using Sys = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;

struct Window {
  char *base;          // this GPU's view of the flat window: every GPU's slot, one stride apart
  char *mcBase;        // the multicast address of the window
  unsigned stride4G;   // how far apart two GPUs' slots are, in units of 4 GiB
  unsigned mcOffset4K; // where the window starts in the multicast range, in units of 4 KiB
  int rank;
};

__device__ __forceinline__ char *add4G(char *base, int delta) {
  return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(base) + (uint64_t(unsigned(delta)) << 32));
}
__device__ __forceinline__ void *ncclGetLsaPointer(const Window *w, size_t offset, int peer) {
  return add4G(w->base, peer * w->stride4G) + offset;
}
__device__ __forceinline__ void *ncclGetLocalPointer(const Window *w, size_t offset) {
  return add4G(w->base, w->rank * w->stride4G) + offset;
}
__device__ __forceinline__ void *ncclGetLsaMultimemPointer(const Window *w, size_t offset) {
  return w->mcBase + size_t(w->mcOffset4K) * 4096 + offset;
}

// LITMUS: allowed cuda-scope-release-acquire
// The last barrier of a fused kernel: every thread writes its part of the block's token into each
// peer's slot, then thread p signals peer p with a relaxed store and waits for the peers. A peer
// that sees the signal ends its kernel, and its stream's next work reads the token: nothing
// orders the writes before the signal.
__global__ void peerWritesRelaxedArrive(const Window *data, const Window *sig, const float *src, int nRanks,
                                        unsigned epoch) {
  for (int p = 0; p < nRanks; ++p) {
    float *dst = static_cast<float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p));
    dst[threadIdx.x] = src[blockIdx.x * blockDim.x + threadIdx.x];
  }
  __syncthreads();
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + data->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
  __syncthreads();
}

// LITMUS: forbidden
// The same with the release fence the barrier's arrival makes: the writes travel with the signal.
__global__ void peerWritesReleasedArrive(const Window *data, const Window *sig, const float *src, int nRanks,
                                         unsigned epoch) {
  for (int p = 0; p < nRanks; ++p) {
    float *dst = static_cast<float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p));
    dst[threadIdx.x] = src[blockIdx.x * blockDim.x + threadIdx.x];
  }
  __syncthreads();
  if (threadIdx.x < nRanks) {
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + data->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
  __syncthreads();
}

// LITMUS: forbidden
// A reduce-scatter's last barrier: the block writes only its own GPU's output, then arrives
// relaxed. This GPU's stream orders the kernel before its own later work, and a peer reads the
// output only after its next barrier's acquire, whose arrival here follows this kernel's end.
__global__ void localWritesRelaxedArrive(const Window *data, const Window *sig, const float *src, int nRanks,
                                         unsigned epoch) {
  float *dst = static_cast<float *>(ncclGetLocalPointer(data, blockIdx.x * 4096));
  dst[threadIdx.x] = src[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + data->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
  __syncthreads();
}

// LITMUS: forbidden
// Writes into the peers' slots and a relaxed count of them, but no wait: the kernel never
// synchronizes with the peers, which read the slots after the host has synchronized the GPUs.
__global__ void peerWritesCountedNoWait(const Window *data, const Window *sig, const float *src, int nRanks) {
  for (int p = 0; p < nRanks; ++p) {
    float *dst = static_cast<float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p));
    dst[threadIdx.x] = src[blockIdx.x * blockDim.x + threadIdx.x];
  }
  __syncthreads();
  if (threadIdx.x < nRanks) {
    unsigned *count = static_cast<unsigned *>(ncclGetLsaPointer(sig, 8192, threadIdx.x));
    Sys(*count).fetch_add(1, cuda::memory_order_relaxed);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The first barrier of a kernel that reads the peers' slots: each peer wrote its slot before its
// kernel began (its launch orders that before its arrival), and the wait here is relaxed, so the
// reads after it may return what the slots held before.
__global__ void relaxedWaitPeerReads(const Window *data, const Window *sig, float *out, int nRanks, unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + data->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
  __syncthreads();
  float sum = 0;
  for (int p = 0; p < nRanks; ++p)
    sum += static_cast<const float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// LITMUS: forbidden
// The same wait with acquire loads: the peers' earlier writes are visible after it.
__global__ void acquireWaitPeerReads(const Window *data, const Window *sig, float *out, int nRanks, unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + data->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) != epoch) {
    }
  }
  __syncthreads();
  float sum = 0;
  for (int p = 0; p < nRanks; ++p)
    sum += static_cast<const float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// LITMUS: forbidden
// The wait acquires on the inbox and also polls a relaxed abort flag: the loop's acquire read is
// the wait's order (a read after an abort is the abort's business, not a message).
__global__ void acquireWaitPollsAbort(const Window *data, const Window *sig, const unsigned *abortFlag, float *out,
                                      int nRanks, unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + data->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (true) {
      if (Sys(*mine).load(cuda::memory_order_acquire) == epoch)
        break;
      if (cuda::atomic_ref<const unsigned, cuda::thread_scope_system>(*abortFlag).load(cuda::memory_order_relaxed))
        break;
    }
  }
  __syncthreads();
  float sum = 0;
  for (int p = 0; p < nRanks; ++p)
    sum += static_cast<const float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// LITMUS: forbidden
// Reads of the peers' slots with no wait at all: the host synchronized the GPUs before the
// launch, and the kernel signals nobody.
__global__ void peerReadsNoWait(const Window *data, float *out, int nRanks) {
  float sum = 0;
  for (int p = 0; p < nRanks; ++p)
    sum += static_cast<const float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// LITMUS: allowed cuda-scope-release-acquire
// A multicast barrier: one relaxed multimem.red arrives at every GPU's inbox, the wait reads this
// GPU's inbox relaxed, and the block then reads every GPU's copy with multimem.ld_reduce.
__global__ void multimemRelaxedWaitReads(const Window *data, const Window *sig, float *out, unsigned epoch) {
  if (threadIdx.x == 0) {
    unsigned *mc = static_cast<unsigned *>(ncclGetLsaMultimemPointer(sig, blockIdx.x * 4));
    asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(mc) : "memory");
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, blockIdx.x * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) < epoch) {
    }
  }
  __syncthreads();
  const float *all = static_cast<const float *>(ncclGetLsaMultimemPointer(data, blockIdx.x * 4096));
  float v;
  asm volatile("multimem.ld_reduce.global.add.f32 %0, [%1];" : "=f"(v) : "l"(all + threadIdx.x) : "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// LITMUS: forbidden
// The multicast arrival with release and the wait with acquire: both sides ordered.
__global__ void multimemOrderedBarrierReads(const Window *data, const Window *sig, float *out, unsigned epoch) {
  if (threadIdx.x == 0) {
    unsigned *mc = static_cast<unsigned *>(ncclGetLsaMultimemPointer(sig, blockIdx.x * 4));
    asm volatile("multimem.red.release.sys.global.add.u32 [%0], 1;" ::"l"(mc) : "memory");
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, blockIdx.x * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) < epoch) {
    }
  }
  __syncthreads();
  const float *all = static_cast<const float *>(ncclGetLsaMultimemPointer(data, blockIdx.x * 4096));
  float v;
  asm volatile("multimem.ld_reduce.global.add.f32 %0, [%1];" : "=f"(v) : "l"(all + threadIdx.x) : "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A barrier that takes its order as an argument and picks its arrival by a function of it, as
// NCCL's does (releaseOrderOf): inlining folds the choice, and the AST front end decides the
// branch from the argument the same way, so only the arrival the call picks is an access.
__device__ __forceinline__ cuda::memory_order releaseOrderOf(cuda::memory_order o) {
  return o == cuda::memory_order_acquire ? cuda::memory_order_relaxed : o;
}

// LITMUS: forbidden
// Writes into every GPU's copy, then the arrival asked for with release: the release arm.
__device__ __forceinline__ void arriveReleased(unsigned *mc, cuda::memory_order order) {
  if (releaseOrderOf(order) != cuda::memory_order_relaxed)
    asm volatile("multimem.red.release.sys.global.add.u32 [%0], 1;" ::"l"(mc) : "memory");
  else
    asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(mc) : "memory");
}
__global__ void multimemWritesOrderedArrive(const Window *data, const Window *sig, const float *src, unsigned epoch) {
  float *all = static_cast<float *>(ncclGetLsaMultimemPointer(data, blockIdx.x * 4096));
  asm volatile("multimem.st.global.f32 [%0], %1;" ::"l"(all + threadIdx.x), "f"(src[threadIdx.x]) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    arriveReleased(static_cast<unsigned *>(ncclGetLsaMultimemPointer(sig, blockIdx.x * 4)), cuda::memory_order_release);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, blockIdx.x * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) < epoch) {
    }
  }
  __syncthreads();
}

// LITMUS: allowed cuda-scope-release-acquire
// The same barrier asked for relaxed: the relaxed arm, after the writes into every copy.
__device__ __forceinline__ void arriveRelaxed(unsigned *mc, cuda::memory_order order) {
  if (releaseOrderOf(order) != cuda::memory_order_relaxed)
    asm volatile("multimem.red.release.sys.global.add.u32 [%0], 1;" ::"l"(mc) : "memory");
  else
    asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(mc) : "memory");
}
__global__ void multimemWritesRelaxedArrive(const Window *data, const Window *sig, const float *src, unsigned epoch) {
  float *all = static_cast<float *>(ncclGetLsaMultimemPointer(data, blockIdx.x * 4096));
  asm volatile("multimem.st.global.f32 [%0], %1;" ::"l"(all + threadIdx.x), "f"(src[threadIdx.x]) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    arriveRelaxed(static_cast<unsigned *>(ncclGetLsaMultimemPointer(sig, blockIdx.x * 4)), cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, blockIdx.x * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) < epoch) {
    }
  }
  __syncthreads();
}

// LITMUS: allowed cuda-scope-release-acquire
// An all-to-all's first barrier, then stores into each peer's receive slot: the peer read that
// slot in its previous kernel, before it arrived. With a relaxed wait the stores are not ordered
// after that read (load buffering), and may land while the peer still uses what the slot held.
__global__ void relaxedWaitPeerWrites(const Window *recv, const Window *sig, const float *src, int nRanks,
                                      unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + recv->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
  __syncthreads();
  for (int p = 0; p < nRanks; ++p) {
    float *slot = static_cast<float *>(ncclGetLsaPointer(recv, (recv->rank * gridDim.x + blockIdx.x) * 4096, p));
    slot[threadIdx.x] = src[p * blockDim.x + threadIdx.x];
  }
}

// LITMUS: forbidden
// The same with the wait's acquire: the stores follow the peers' earlier reads.
__global__ void acquireWaitPeerWrites(const Window *recv, const Window *sig, const float *src, int nRanks,
                                      unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + recv->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) != epoch) {
    }
  }
  __syncthreads();
  for (int p = 0; p < nRanks; ++p) {
    float *slot = static_cast<float *>(ncclGetLsaPointer(recv, (recv->rank * gridDim.x + blockIdx.x) * 4096, p));
    slot[threadIdx.x] = src[p * blockDim.x + threadIdx.x];
  }
}

// LITMUS: forbidden
// The acquiring barrier, then a slot claimed in a host proxy's queue (a relaxed add to its
// producer count, in host memory) and a relaxed wait for the proxy's credit, then the stores into
// the peers' slots. The relaxed wait answers the claim, not the peers: the barrier's acquire
// already orders the stores after the peers' reads.
__global__ void proxyCreditThenPeerWrites(const Window *recv, const Window *sig, unsigned *proxyPi,
                                          const unsigned *proxyCi, const float *src, int nRanks, unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + recv->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) != epoch) {
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned idx = Sys(*proxyPi).fetch_add(1, cuda::memory_order_relaxed);
    while (1024u <= idx - Sys(*const_cast<unsigned *>(proxyCi)).load(cuda::memory_order_relaxed)) {
    }
  }
  for (int p = 0; p < nRanks; ++p) {
    float *slot = static_cast<float *>(ncclGetLsaPointer(recv, (recv->rank * gridDim.x + blockIdx.x) * 4096, p));
    slot[threadIdx.x] = src[p * blockDim.x + threadIdx.x];
  }
}
