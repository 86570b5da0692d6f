// Two instances of one kernel that exchange through mirrored buffers: each GPU (or each of two
// grids) writes its part into `mine`, signals `arrivalMine`, waits on `arrivalOther`, then reads
// the partner's part from `other`. The host maps the buffers crosswise, so one instance's `mine`
// and `arrivalMine` are the other's `other` and `arrivalOther`: a message through one flag whose
// publish and receive the file shows in one kernel, under two names. The kernel waits on a word
// nothing in it writes, so its partner runs while it runs, outside it; it publishes a word
// nothing in it reads, so that word's reader is outside it too. Its partner runs the same code:
// what it writes into its `mine` before its signal is what this instance reads from `other`
// after its wait. Elements a thread owns in one grid are no one's own across two: the partner's
// thread of the same index writes them.

#include <cuda/atomic>

#define ST_RELEASE(p, v) asm volatile("st.global.release.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define ST_RELAXED(p, v) asm volatile("st.global.relaxed.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define LD_ACQUIRE(v, p) asm volatile("ld.global.acquire.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")
#define LD_RELAXED(v, p) asm volatile("ld.global.relaxed.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")

// LITMUS: allowed cuda-scope-release-acquire
// The signal is relaxed and no fence comes before it: the partner can see the token and read its
// `other` before this instance's writes of `mine` reach it.
__global__ void mirrorSignalRelaxed(float *mine, const float *other, unsigned *arrivalMine,
                                    const unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELAXED(arrivalMine + blockIdx.x, token);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: allowed cuda-scope-release-acquire
// The wait is relaxed and no fence follows it.
__global__ void mirrorWaitRelaxed(float *mine, const float *other, unsigned *arrivalMine,
                                  const unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELEASE(arrivalMine + blockIdx.x, token);
    unsigned seen;
    do {
      LD_RELAXED(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: forbidden
// A release signal and an acquire wait, extended to the block by its barriers.
__global__ void mirrorOrdered(float *mine, const float *other, unsigned *arrivalMine, const unsigned *arrivalOther,
                              float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELEASE(arrivalMine + blockIdx.x, token);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: forbidden
// System-scope fences around volatile tokens: a release pattern and an acquire pattern.
__global__ void mirrorFenced(float *mine, const float *other, volatile unsigned *arrivalMine,
                             const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    while (arrivalOther[blockIdx.x] != token) {
    }
  }
  __syncthreads();
  __threadfence_system();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: allowed cuda-scope-release-acquire
// The fence after the wait is missing.
__global__ void mirrorFenceDeleted(float *mine, const float *other, volatile unsigned *arrivalMine,
                                   const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    while (arrivalOther[blockIdx.x] != token) {
    }
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: allowed cuda-scope-release-acquire
// Block-scope fences: the partner is outside every block of this grid.
__global__ void mirrorBlockFences(float *mine, const float *other, volatile unsigned *arrivalMine,
                                  const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __threadfence_block();
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    while (arrivalOther[blockIdx.x] != token) {
    }
  }
  __syncthreads();
  __threadfence_block();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: forbidden
// The kernel waits for a go word and reports a done word, but what it reads after the wait it
// also read before it: input that was there before the launch, not something a partner wrote
// before its signal.
__global__ void mirrorInputOnly(const float *in, float *out, unsigned *done, const unsigned *go, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float first = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) {
    unsigned seen;
    do {
      LD_RELAXED(seen, go);
    } while (seen == 0);
  }
  __syncthreads();
  if (i < n)
    out[i] = first + in[(i + 1) % n];
  __syncthreads();
  if (threadIdx.x == 0)
    ST_RELAXED(done + blockIdx.x, 1u);
}

// LITMUS: forbidden
// A probe of a hash table the kernel was given loops on plain reads of words nothing in it
// writes, and the kernel bumps counters nothing in it reads: no wait on another thread (a plain
// read in a loop that another thread's write ends would be a data race), so no partner is shown.
__global__ void mirrorPlainProbe(const unsigned *keys, const unsigned *values, const unsigned *wanted,
                                 unsigned *found, unsigned *counts, int capacity, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = wanted[i];
  unsigned loc = key % capacity;
  while (true) {
    if (keys[loc] == key) {
      found[i] = values[loc];
      break;
    }
    if (keys[loc] == 0xffffffffu) {
      found[i] = 0;
      break;
    }
    loc = (loc + 1) % capacity;
  }
  atomicAdd(&counts[key % 64], 1u);
}

// LITMUS: forbidden
// A relaxed handshake first (each instance says it has started: execution, not data), then each
// reads its own input and writes into the partner's buffer, then a release signal and an
// acquire wait. What it reads after the first wait is its own input, which no partner writes;
// what it sends is written after that wait and handed over by the release at the end. No write
// the partner makes before a signal is read here after a wait: there is no exchange to mirror.
__global__ void mirrorHandshakeFirst(const float *in, float *theirs, unsigned *arrivalMine,
                                     const unsigned *arrivalOther, int n, unsigned token) {
  unsigned seen;
  if (threadIdx.x == 0) {
    ST_RELAXED(arrivalMine + blockIdx.x, token);
    do {
      LD_RELAXED(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    theirs[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELEASE(arrivalMine + blockIdx.x, token + 1);
    do {
      LD_ACQUIRE(seen, arrivalOther + blockIdx.x);
    } while (seen != token + 1);
  }
}

// LITMUS: forbidden
// An exchange of volatile tokens whose acquire fence comes after a grid barrier of this GPU's
// own: a __device__ structure of counters in turn, whose round number each call reads and
// writes. The second call reads the round after the wait; the first wrote it before the signal.
// But the partner never writes this GPU's barrier (it has its own): the flag carries `mine` to
// the partner's `other`, and nothing else.
struct OwnGridBarrier {
  unsigned count[3];
  unsigned round;
  __device__ void sync(unsigned blocks) {
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned idx = (round + 1) % 3;
      unsigned *c = &count[idx];
      count[(idx + 1) % 3] = 0;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>{*c}.fetch_add(1, cuda::memory_order_release);
      while (cuda::atomic_ref<unsigned, cuda::thread_scope_device>{*c}.load(cuda::memory_order_acquire) != blocks) {
      }
      round = idx;
    }
    __syncthreads();
  }
};
__device__ OwnGridBarrier exchangeBarrier;

__global__ void mirrorOwnBarrier(float *mine, const float *other, volatile unsigned *arrivalMine,
                                 const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  exchangeBarrier.sync(gridDim.x);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    while (arrivalOther[blockIdx.x] != token) {
    }
  }
  exchangeBarrier.sync(gridDim.x);
  __threadfence_system();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// LITMUS: allowed cuda-scope-release-acquire
// The exchange ends the kernel: each instance writes into the partner's buffer, signals, and waits
// with an acquire for the partner's signal; nothing after the wait reads in the kernel, the
// stream's later work does. The acquire says what the wait is for: the partner's writes before
// its signal, read after this kernel. The signal is relaxed, so the partner can pass its wait
// before these writes reach it (a relaxed handshake first, for execution only, as before).
__global__ void mirrorEndSignalRelaxed(const float *in, float *theirs, unsigned *arrivalMine,
                                       const unsigned *arrivalOther, int n, unsigned token) {
  unsigned seen;
  if (threadIdx.x == 0) {
    ST_RELAXED(arrivalMine + blockIdx.x, token);
    do {
      LD_RELAXED(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    theirs[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELAXED(arrivalMine + blockIdx.x, token + 1);
    do {
      LD_ACQUIRE(seen, arrivalOther + blockIdx.x);
    } while (seen != token + 1);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same exchange at the end with no handshake before it.
__global__ void mirrorEndOnlyRelaxed(const float *in, float *theirs, unsigned *arrivalMine,
                                     const unsigned *arrivalOther, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    theirs[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELAXED(arrivalMine + blockIdx.x, token);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
}

// LITMUS: forbidden
// Its fixed twin: the signal releases.
__global__ void mirrorEndOnlyReleased(const float *in, float *theirs, unsigned *arrivalMine,
                                      const unsigned *arrivalOther, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    theirs[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELEASE(arrivalMine + blockIdx.x, token);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
}

// LITMUS: forbidden
// A barrier of execution at the end: both the signal and the wait are relaxed. Nothing says the
// partner reads what this instance wrote (its own output, read by its own host), and a relaxed
// wait orders nothing after it either: the two instances only learn that both have finished.
__global__ void mirrorEndExecutionOnly(const float *in, float *out, unsigned *arrivalMine,
                                       const unsigned *arrivalOther, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    ST_RELAXED(arrivalMine + blockIdx.x, token);
    unsigned seen;
    do {
      LD_RELAXED(seen, arrivalOther + blockIdx.x);
    } while (seen != token);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Every block writes the partner's part, a barrier of the grid (release arrivals, an acquire
// spin) gathers them, and thread 0 of block 0 alone signals and waits at the end, as a
// collective's last step does. Only block 0 touches the words here, but across the two instances
// the partner's block 0 is another block: its wait sees the relaxed signal and nothing orders
// these writes before it (the barrier's acquire is no release of the signal).
__device__ unsigned endArrivals[2];
__global__ void mirrorEndPinnedRelaxed(const float *in, float *theirs, unsigned *arrivalMine,
                                       const unsigned *arrivalOther, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    theirs[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(endArrivals[0]);
    arrived.fetch_add(1, cuda::memory_order_release);
    while (arrived.load(cuda::memory_order_acquire) < gridDim.x) {
    }
  }
  __syncthreads();
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    ST_RELAXED(arrivalMine, token);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, arrivalOther);
    } while (seen != token);
  }
}

// LITMUS: forbidden
// Its fixed twin: the signal releases, and the barrier's acquire has brought every block's writes
// to thread 0 before it (cumulativity).
__global__ void mirrorEndPinnedReleased(const float *in, float *theirs, unsigned *arrivalMine,
                                        const unsigned *arrivalOther, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    theirs[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(endArrivals[1]);
    arrived.fetch_add(1, cuda::memory_order_release);
    while (arrived.load(cuda::memory_order_acquire) < gridDim.x) {
    }
  }
  __syncthreads();
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    ST_RELEASE(arrivalMine, token);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, arrivalOther);
    } while (seen != token);
  }
}

// A handshake of execution only: one thread signals its partner with a relaxed add and waits for
// the partner's signal with a relaxed read, in one loop (ping-pong). No datum travels, so no
// release is needed; but the partner reads the signal while this kernel runs, so the add must be
// atomic for the partner's thread too: a block-scope add and the partner's read race.
#define RED_RELAXED_SYS(p) asm volatile("red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(p) : "memory")
#define RED_RELAXED_CTA(p) asm volatile("red.relaxed.cta.global.add.u32 [%0], 1;" ::"l"(p) : "memory")

// LITMUS: allowed cuda-scope-insufficient
__global__ void pingPongSignalBlockScope(unsigned *outbound, const unsigned *inbound, int iterations) {
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    for (int i = 1; i <= iterations; ++i) {
      RED_RELAXED_CTA(outbound);
      unsigned seen;
      do {
        LD_RELAXED(seen, inbound);
      } while (seen < unsigned(i));
    }
  }
}

// LITMUS: forbidden
// Its fixed twin: the add has system scope, which includes the partner's thread.
__global__ void pingPongSignalSystemScope(unsigned *outbound, const unsigned *inbound, int iterations) {
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    for (int i = 1; i <= iterations; ++i) {
      RED_RELAXED_SYS(outbound);
      unsigned seen;
      do {
        LD_RELAXED(seen, inbound);
      } while (seen < unsigned(i));
    }
  }
}

// LITMUS: forbidden
// Not a handshake: block 0 counts, with a block-scope add, the work it did after the start signal
// came; nothing in the kernel reads the count and nothing waits after the add, so nothing shows
// a reader while the kernel runs (the host reads the count after it, which the kernel's end
// orders).
__global__ void countAfterStartBlockScope(unsigned *count, const unsigned *start, float *out, int n) {
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    unsigned seen;
    do {
      LD_RELAXED(seen, start);
    } while (seen == 0);
    RED_RELAXED_CTA(count);
  }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = 1.0f;
}
