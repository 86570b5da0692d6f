// Counters and flags that are not the message: a counter no read of which is tested hands nothing
// over (whatever fence stands next to it), and a write that comes before the release that
// publishes everything is data of that release, whatever other atomics it is mixed with.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

// LITMUS: forbidden
// A histogram: the bins are counters nothing in the kernel reads; the block-scope fence orders a
// warp's staging in shared memory, not the bins.
__global__ void histogramStaging(const int *in, int *bins) {
  __shared__ int stage[256];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  stage[warp * 32 + lane] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence_block();
  int v = stage[warp * 32 + (lane + 1) % 32];
  atomicAdd(&bins[v & 15], 1);
}

// LITMUS: forbidden
// The last block: its partial is stored, then the ticket with a fence before it and after it. The
// partial's volatile store is data, which the ticket publishes.
__global__ void lastBlockVolatilePartial(float *partial, unsigned *count, float *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    ((volatile float *)partial)[blockIdx.x] = blockIdx.x * 1.0f;
    __threadfence();
    unsigned t = atomicAdd(count, 1u);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    float best = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) {
      float v = ((volatile float *)partial)[i];
      if (v > best)
        best = v;
    }
    *out = best;
    *count = 0;
  }
}

// LITMUS: forbidden
// Data, a counter reset, then the release that publishes both: the reset is not the flag.
__global__ void resetThenRelease(int *data, int *pending, int *ready, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    Dev(*pending).store(0, relaxed);
    Dev(*ready).fetch_add(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*ready).load(acquire) == 0) {
    }
    if (Dev(*pending).load(relaxed) == 0)
      out[0] = data[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same with the increment relaxed: nothing releases the data, and the reader that sees the
// increment can read the old data.
__global__ void resetThenRelaxed(int *data, int *pending, int *ready, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    Dev(*pending).store(0, relaxed);
    Dev(*ready).fetch_add(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*ready).load(acquire) == 0) {
    }
    if (Dev(*pending).load(relaxed) == 0)
      out[0] = data[0];
  }
}

// LITMUS: allowed cuda-scope-insufficient
// The counter's reader tests a plain load of it: a thread whose next steps the value decides, so the
// block-scope fence before the increment is too narrow for it.
__global__ void counterReadPlain(unsigned *count, int *out) {
  __threadfence_block();
  atomicAdd(count, 1u);
  if (blockIdx.x == 0 && *count == gridDim.x)
    *out = 1;
}

// LITMUS: forbidden
// A decoupled look-back poll (CUB's before sm_70): the status word carries the value it announces,
// and the block-scope fence before each poll only delays it; nothing read after the wait was
// written by another thread, so no acquire pattern is needed, of any scope.
__global__ void pollWithBlockFence(unsigned long long *status, unsigned long long *out) {
  using Dev64 = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    Dev64(status[0]).store((1ull << 32) | 1ull, relaxed);
    return;
  }
  unsigned long long s = Dev64(status[blockIdx.x - 1]).load(relaxed);
  while ((s >> 32) == 0) {
    __threadfence_block();
    s = Dev64(status[blockIdx.x - 1]).load(relaxed);
  }
  Dev64(status[blockIdx.x]).store((1ull << 32) | ((s & 0xffffffffull) + 1), relaxed);
  out[blockIdx.x] = s & 0xffffffffull;
}

// LITMUS: forbidden
// The same poll, then a slot taken from a cursor every block bumps, and the cursor read again. The
// status words hand over only what a block writes before its own: the cursor is bumped after it,
// in every block, so no acquire of any scope would change what the later read of the cursor sees.
__global__ void pollThenCursor(unsigned long long *status, int *cursor, int *out) {
  using Dev64 = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  if (threadIdx.x != 0)
    return;
  unsigned long long s = 0;
  if (blockIdx.x > 0) {
    s = Dev64(status[blockIdx.x - 1]).load(relaxed);
    while ((s >> 32) == 0) {
      __threadfence_block();
      s = Dev64(status[blockIdx.x - 1]).load(relaxed);
    }
  }
  Dev64(status[blockIdx.x]).store((1ull << 32) | ((s & 0xffffffffull) + 1), relaxed);
  int slot = Dev(*cursor).fetch_add(1, relaxed);
  if (slot < Dev(*cursor).load(relaxed))
    out[slot] = static_cast<int>(s);
}

// LITMUS: allowed cuda-scope-insufficient
// The twin where each block bumps the cursor before its status word: the block that sees the
// status word of the block before it may still read a cursor without that block's bump, since a
// block-scope fence makes no acquire pattern with another block's write.
__global__ void pollThenPublishedCursor(unsigned long long *status, int *cursor, int *out) {
  using Dev64 = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  if (threadIdx.x != 0)
    return;
  unsigned long long s = 0;
  if (blockIdx.x > 0) {
    s = Dev64(status[blockIdx.x - 1]).load(relaxed);
    while ((s >> 32) == 0) {
      __threadfence_block();
      s = Dev64(status[blockIdx.x - 1]).load(relaxed);
    }
  }
  int slot = Dev(*cursor).fetch_add(1, relaxed);
  __threadfence();
  Dev64(status[blockIdx.x]).store((1ull << 32) | ((s & 0xffffffffull) + 1), relaxed);
  if (static_cast<int>(blockIdx.x) > Dev(*cursor).load(relaxed))
    out[slot] = -1;
}

// LITMUS: forbidden
// The twin's cursor, taken after the poll only by a read-modify-write: an atomic update reads the
// write just before its own in the cursor's coherence order, whatever fence stands before it, so
// the poll's block-scope fence hides nothing from it.
__global__ void pollThenBump(unsigned long long *status, int *cursor, int *out) {
  using Dev64 = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  if (threadIdx.x != 0)
    return;
  unsigned long long s = 0;
  if (blockIdx.x > 0) {
    s = Dev64(status[blockIdx.x - 1]).load(relaxed);
    while ((s >> 32) == 0) {
      __threadfence_block();
      s = Dev64(status[blockIdx.x - 1]).load(relaxed);
    }
  }
  Dev(*cursor).fetch_add(1, relaxed);
  __threadfence();
  Dev64(status[blockIdx.x]).store((1ull << 32) | ((s & 0xffffffffull) + 1), relaxed);
  int slot = Dev(*cursor).fetch_add(1, relaxed);
  out[slot] = static_cast<int>(s);
}

// LITMUS: allowed cuda-scope-release-acquire
// Bins every block adds to (reductions: no thread uses the old value), then a ticket; the last
// block reads the bins. The bins are data however they are written: the fence before the ticket
// releases them, but the last block reads them after a relaxed ticket with no fence, so it can
// miss another block's additions.
__global__ void binsLastBlockNoAcquire(const int *in, unsigned *bins, unsigned *count, unsigned *out) {
  __shared__ bool last;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x < 16)
    out[threadIdx.x] = bins[threadIdx.x];
}

// LITMUS: forbidden
// The same with a fence after the ticket in the last block: an acquire pattern.
__global__ void binsLastBlockFenced(const int *in, unsigned *bins, unsigned *count, unsigned *out) {
  __shared__ bool last;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x < 16) {
    __threadfence();
    out[threadIdx.x] = bins[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// No fence before the ticket: the relaxed additions are not released by it.
__global__ void binsLastBlockNoRelease(const int *in, unsigned *bins, unsigned *count, unsigned *out) {
  __shared__ bool last;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x < 16) {
    __threadfence();
    out[threadIdx.x] = bins[threadIdx.x];
  }
}

// LITMUS: forbidden
// The last block, correctly fenced on both sides, reads the bins, writes its choice and clears the
// bins for the next round. The bins are counters, not flags: their reset is not a publish of the
// choice, and their plain reads are not receives.
__global__ void binsChooseAndReset(const int *in, unsigned *bins, unsigned *count, unsigned *choice) {
  __shared__ bool last;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    __threadfence();
    if (threadIdx.x < 15 && bins[threadIdx.x] < 4 && bins[threadIdx.x + 1] >= 4)
      *choice = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < 16)
      bins[threadIdx.x] = 0;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The ticket reaches the block through __syncthreads_or rather than a shared flag: the last block
// still reads the bins after a relaxed ticket, with no fence after it.
__global__ void binsVoteNoAcquire(const int *in, unsigned *bins, unsigned *count, unsigned *out) {
  bool last = false;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __threadfence();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  if (__syncthreads_or(last) && threadIdx.x < 16)
    out[threadIdx.x] = bins[threadIdx.x];
}

// LITMUS: allowed cuda-scope-release-acquire
// The same with the fence after the vote: the last block acquires, but each block's ticket is
// drawn by thread 0 with no barrier after the other threads' increments. Thread 0's fence and
// ticket release only its own; another warp's increment may not even have run yet.
__global__ void binsVoteFenced(const int *in, unsigned *bins, unsigned *count, unsigned *out) {
  bool last = false;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __threadfence();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  if (__syncthreads_or(last)) {
    __threadfence();
    if (threadIdx.x < 16)
      out[threadIdx.x] = bins[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same with __syncthreads() before thread 0 draws the ticket: every thread's increment is
// before the barrier, the ticket after it.
__global__ void binsVoteSynced(const int *in, unsigned *bins, unsigned *count, unsigned *out) {
  bool last = false;
  atomicAdd(&bins[in[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1u);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  if (__syncthreads_or(last)) {
    __threadfence();
    if (threadIdx.x < 16)
      out[threadIdx.x] = bins[threadIdx.x];
  }
}

// LITMUS: forbidden
// A grid barrier over three rotating counters: each round sets the counter after next back to 0
// with a plain store, then arrives with a release and waits for the caller's goal with an acquire.
// The arrivals raise the count the wait reads, so the reset lets no wait go on: it hands nothing
// over, and what the round wrote travels through the release that follows it.
struct Syncer {
  unsigned count[3];
  unsigned current;
};
__device__ void gridSync(Syncer *s, unsigned blocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned idx = (s->current + 1) % 3;
    unsigned next = (idx + 1) % 3;
    s->count[next] = 0;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(s->count[idx]);
    c.fetch_add(1, cuda::memory_order_release);
    while (c.load(cuda::memory_order_acquire) != blocks) {
    }
    s->current = idx;
  }
  __syncthreads();
}
__global__ void rotatingCounters(Syncer *s, int *data, int *out, int rounds, unsigned blocks) {
  for (int r = 0; r < rounds; ++r) {
    data[blockIdx.x * blockDim.x + threadIdx.x] = r;
    gridSync(s, blocks);
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[((blockIdx.x + 1) % gridDim.x) * blockDim.x + threadIdx.x];
    gridSync(s, blocks);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same barrier with relaxed arrivals and waits: the data of the round can be read stale.
__device__ void gridSyncRelaxed(Syncer *s, unsigned blocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned idx = (s->current + 1) % 3;
    unsigned next = (idx + 1) % 3;
    s->count[next] = 0;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(s->count[idx]);
    c.fetch_add(1, cuda::memory_order_relaxed);
    while (c.load(cuda::memory_order_relaxed) != blocks) {
    }
    s->current = idx;
  }
  __syncthreads();
}
__global__ void rotatingCountersRelaxed(Syncer *s, int *data, int *out, int rounds, unsigned blocks) {
  for (int r = 0; r < rounds; ++r) {
    data[blockIdx.x * blockDim.x + threadIdx.x] = r;
    gridSyncRelaxed(s, blocks);
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[((blockIdx.x + 1) % gridDim.x) * blockDim.x + threadIdx.x];
    gridSyncRelaxed(s, blocks);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The last block to arrive writes the result and releases the others by setting the count back
// to 0, which is what they wait for: that store hands the result over, and it is plain.
__global__ void resetReleases(unsigned *count, int *result, int *out) {
  if (threadIdx.x == 0) {
    unsigned old = atomicAdd(count, 1u);
    if (old == gridDim.x - 1) {
      *result = 42;
      *count = 0;
    } else {
      while (atomicAdd(count, 0u) != 0) {
      }
      out[blockIdx.x] = *result;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// One scratch buffer holds every block's partials and, past them, the ticket the blocks draw. The
// last block reads the partials after its relaxed ticket with no fence: the ticket is a word of its
// own, apart from the partials, and the receive lacks an acquire.
__global__ void ticketPastPartials(float *scratch, const float *in, float *out, int n) {
  __shared__ bool last;
  float *partials = scratch;
  unsigned *ticket = (unsigned *)(scratch + n * gridDim.x);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    partials[i + n * blockIdx.x] = in[i + n * blockIdx.x] * 2.0f;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float sum = 0.0f;
      for (int b = 0; b < gridDim.x; ++b)
        sum += partials[i + n * b];
      out[i] = sum;
    }
  }
}

// LITMUS: forbidden
// The same with a fence after the ticket in the last block: an acquire pattern.
__global__ void ticketPastPartialsFenced(float *scratch, const float *in, float *out, int n) {
  __shared__ bool last;
  float *partials = scratch;
  unsigned *ticket = (unsigned *)(scratch + n * gridDim.x);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    partials[i + n * blockIdx.x] = in[i + n * blockIdx.x] * 2.0f;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    __threadfence();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float sum = 0.0f;
      for (int b = 0; b < gridDim.x; ++b)
        sum += partials[i + n * b];
      out[i] = sum;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The count sits in the slot past the blocks' results, indexed by the grid's width; no fence
// before the ticket, so the last block can read a result before it is written.
__global__ void countPastResults(int *results, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    results[blockIdx.x] = blockIdx.x * 3;
    unsigned v = atomicInc((unsigned *)(results + gridDim.x), gridDim.x);
    last = v == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int sum = 0;
    for (int b = 0; b < gridDim.x; ++b)
      sum += results[b];
    *out = sum;
  }
}
