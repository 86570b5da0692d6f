// Barriers order everything before them for everything after them: __syncthreads() within a
// block, cooperative groups' grid sync across the grid (it is built of a release and an acquire
// on its own word, and base causality order is transitive). A flag that only barriers separate
// from its data carries nothing the barrier does not already order.
#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;
using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
using Blk = cuda::atomic_ref<int, cuda::thread_scope_block>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

// LITMUS: forbidden
// A relaxed flag set before a grid sync and read after it: the grid sync orders the data.
__global__ void gridSyncFlag(int *data, int *flag, int *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, relaxed);
  }
  grid.sync();
  if (blockIdx.x != 0 && Dev(*flag).load(relaxed) == 1)
    out[blockIdx.x] = data[threadIdx.x];
}

// LITMUS: forbidden
// The same with __syncthreads() and a flag per block.
__global__ void blockBarrierFlag(int *data, int *flags, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    Blk(flags[blockIdx.x]).store(1, relaxed);
  }
  __syncthreads();
  if (Blk(flags[blockIdx.x]).load(relaxed) == 1)
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[blockIdx.x];
}

// LITMUS: allowed cuda-scope-release-acquire
// __syncthreads() does not order other blocks: the flag is read by every block.
__global__ void blockBarrierAcrossBlocks(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 1;
    Dev(*flag).store(1, relaxed);
  }
  __syncthreads();
  if (blockIdx.x != 0 && Dev(*flag).load(relaxed) == 1)
    out[blockIdx.x] = data[0];
}

// LITMUS: forbidden
// Phases separated by grid syncs, as a conjugate gradient computes its dot products: the sum is
// reset, accumulated and read in different phases, and every publish of it is separated from every
// receive by a grid sync, so it carries nothing the syncs do not order.
__global__ void gridPhases(float *v, double *dot, int n, int iters) {
  cg::grid_group grid = cg::this_grid();
  double r = *dot;
  for (int k = 0; k < iters && r > 1e-6; ++k) {
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      v[i] = v[i] * 0.5f;
    grid.sync();
    if (grid.thread_rank() == 0)
      *dot = 0.0;
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      atomicAdd(dot, (double)v[i]);
    grid.sync();
    r = *dot;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Xiao and Feng's inter-block barrier with relaxed flags: block 0 collects every arrival, then
// lets each block go; the data written before it is read by another block after it.
__global__ void xfBarrierRelaxed(int *arrive, int *go, int *data, int *out) {
  if (threadIdx.x == 0)
    data[blockIdx.x] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      for (unsigned i = 1; i < gridDim.x; ++i)
        while (Dev(arrive[i]).load(relaxed) != 1) {
        }
      for (unsigned i = 1; i < gridDim.x; ++i)
        Dev(go[i]).store(1, relaxed);
    } else {
      Dev(arrive[blockIdx.x]).store(1, relaxed);
      while (Dev(go[blockIdx.x]).load(relaxed) != 1) {
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}

// LITMUS: forbidden
// The same barrier with acquire and release.
__global__ void xfBarrierOrdered(int *arrive, int *go, int *data, int *out) {
  if (threadIdx.x == 0)
    data[blockIdx.x] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      for (unsigned i = 1; i < gridDim.x; ++i)
        while (Dev(arrive[i]).load(acquire) != 1) {
        }
      for (unsigned i = 1; i < gridDim.x; ++i)
        Dev(go[i]).store(1, release);
    } else {
      Dev(arrive[blockIdx.x]).store(1, release);
      while (Dev(go[blockIdx.x]).load(acquire) != 1) {
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}

// LITMUS: allowed cuda-scope-release-acquire
// A counting grid barrier with relaxed arrivals and a relaxed wait.
__global__ void countBarrierRelaxed(unsigned *count, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) {
    }
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
  }
}

// LITMUS: forbidden
// The same with a fence on either side.
__global__ void countBarrierFenced(unsigned *count, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    __threadfence();
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) {
    }
    __threadfence();
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
  }
}

// LITMUS: forbidden
// A counting barrier used twice, its second wait on twice the grid's size (no reset to race with),
// fenced on both sides each time: data written before each barrier is read after it by another block.
__global__ void countBarrierTwice(unsigned *count, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    __threadfence();
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) {
    }
    __threadfence();
    int seen = data[(blockIdx.x + 1) % gridDim.x];
    data[gridDim.x + blockIdx.x] = seen + 1;
    __threadfence();
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < 2 * gridDim.x) {
    }
    __threadfence();
    out[blockIdx.x] = data[gridDim.x + (blockIdx.x + 1) % gridDim.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A sense-reversing barrier whose last block flips the sense with a relaxed store and whose waiters
// spin on it relaxed: the data written before it may be stale after it.
__global__ void senseBarrierRelaxed(unsigned *count, int *sense, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    int old = Dev(*sense).load(relaxed);
    if (atomicAdd(count, 1u) == gridDim.x - 1) {
      Dev(*reinterpret_cast<int *>(count)).store(0, relaxed);
      Dev(*sense).store(1 - old, relaxed);
    } else {
      while (Dev(*sense).load(relaxed) == old) {
      }
    }
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A master-collects barrier whose polls are updates that change nothing (atomicXor(p, 0)), with no
// fence anywhere: the arrivals publish nothing and the polls acquire nothing. The polls are reads:
// the findings are at the arrivals, the release and the polls as receives, not at the polls as
// publishes.
__global__ void pollByXorRelaxed(unsigned *in, unsigned *out, int *data, int *res) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    atomicExch(&in[blockIdx.x], 1u);
    if (blockIdx.x == 0) {
      for (unsigned b = 0; b < gridDim.x; ++b)
        while (atomicXor(&in[b], 0u) != 1u) {
        }
      for (unsigned b = 0; b < gridDim.x; ++b)
        atomicExch(&out[b], 1u);
    }
    while (atomicXor(&out[blockIdx.x], 0u) != 1u) {
    }
    res[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
  }
}

// LITMUS: forbidden
// The same barrier with a fence before each arrival and release and after each poll.
__global__ void pollByXorFenced(unsigned *in, unsigned *out, int *data, int *res) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    __threadfence();
    atomicExch(&in[blockIdx.x], 1u);
    if (blockIdx.x == 0) {
      for (unsigned b = 0; b < gridDim.x; ++b)
        while (atomicXor(&in[b], 0u) != 1u) {
        }
      __threadfence();
      for (unsigned b = 0; b < gridDim.x; ++b)
        atomicExch(&out[b], 1u);
    }
    while (atomicXor(&out[blockIdx.x], 0u) != 1u) {
    }
    __threadfence();
    res[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
  }
}

// A master-collects barrier in a device function that a kernel calls twice per round. After each
// wait a block clears its own out-flag, and the master the in-flags, for the next use: resets, which
// hand nothing on. Each call's waits guard what follows that call (the function's loops are walked
// once per call).
__device__ void barrierTwiceOnce(unsigned *in, unsigned *out);

// LITMUS: allowed cuda-scope-release-acquire
// With no fence: the arrivals and the master's releases publish nothing, its polls and the blocks'
// waits acquire nothing.
__global__ void barrierCalledTwiceRelaxed(unsigned *in, unsigned *out, int *data, int *res, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    data[blockIdx.x * blockDim.x + threadIdx.x] = r;
    barrierTwiceOnce(in, out);
    res[blockIdx.x * blockDim.x + threadIdx.x] = data[((blockIdx.x + 1) % gridDim.x) * blockDim.x + threadIdx.x];
    barrierTwiceOnce(in, out);
  }
}

__device__ void barrierTwiceOnce(unsigned *in, unsigned *out) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicExch(&in[blockIdx.x], 1u);
    if (blockIdx.x == 0) {
      for (unsigned b = 0; b < gridDim.x; ++b)
        while (atomicAdd(&in[b], 0u) != 1u) {
        }
      for (unsigned b = 0; b < gridDim.x; ++b) {
        atomicExch(&in[b], 0u);
        atomicExch(&out[b], 1u);
      }
    }
    while (atomicAdd(&out[blockIdx.x], 0u) != 1u) {
    }
    atomicExch(&out[blockIdx.x], 0u);
  }
  __syncthreads();
}

// LITMUS: allowed cuda-scope-grid-barrier
// A counting barrier in a loop, each round waiting for the same gridDim.x arrivals, fenced on both
// sides, and never reset: from the second round on the count already holds gridDim.x, so the wait
// is passed at once and a block reads its neighbour's data before the neighbour wrote it.
__global__ void countBarrierReused(unsigned *count, int *data, int *out, int rounds) {
  if (threadIdx.x == 0) {
    for (int r = 0; r < rounds; ++r) {
      data[r * gridDim.x + blockIdx.x] = r;
      __threadfence();
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < gridDim.x) {
      }
      __threadfence();
      out[r * gridDim.x + blockIdx.x] = data[r * gridDim.x + (blockIdx.x + 1) % gridDim.x];
    }
  }
}

// LITMUS: forbidden
// The same loop waiting for a goal that grows with the round: each round waits for its own
// gridDim.x arrivals.
__global__ void countBarrierReusedGrowing(unsigned *count, int *data, int *out, int rounds) {
  if (threadIdx.x == 0) {
    for (int r = 0; r < rounds; ++r) {
      data[r * gridDim.x + blockIdx.x] = r;
      __threadfence();
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < gridDim.x * (r + 1)) {
      }
      __threadfence();
      out[r * gridDim.x + blockIdx.x] = data[r * gridDim.x + (blockIdx.x + 1) % gridDim.x];
    }
  }
}

// LITMUS: forbidden
// The goal taken from the ticket the arrival returns: the next multiple of gridDim.x, a generation
// of its own each round.
__global__ void countBarrierReusedTicket(unsigned *count, int *data, int *out, int rounds) {
  if (threadIdx.x == 0) {
    for (int r = 0; r < rounds; ++r) {
      data[r * gridDim.x + blockIdx.x] = r;
      __threadfence();
      unsigned ticket = atomicAdd(count, 1u);
      unsigned goal = (ticket / gridDim.x + 1) * gridDim.x;
      while (atomicAdd(count, 0u) < goal) {
      }
      __threadfence();
      out[r * gridDim.x + blockIdx.x] = data[r * gridDim.x + (blockIdx.x + 1) % gridDim.x];
    }
  }
}

__device__ void arriveAndWait(unsigned *count, unsigned goal);

// LITMUS: allowed cuda-scope-grid-barrier
// Two counting barriers one after the other on one count, each waiting for gridDim.x: the first
// leaves the count at gridDim.x, so the second is passed at once and a block reads what its
// neighbour writes in the second phase before the neighbour wrote it.
__global__ void countBarrierSameGoalTwice(unsigned *count, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    arriveAndWait(count, gridDim.x);
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
    data[gridDim.x + blockIdx.x] = 2;
    arriveAndWait(count, gridDim.x);
    out[gridDim.x + blockIdx.x] = data[gridDim.x + (blockIdx.x + 1) % gridDim.x];
  }
}
__device__ void arriveAndWait(unsigned *count, unsigned goal) {
  __threadfence();
  atomicAdd(count, 1u);
  while (atomicAdd(count, 0u) < goal) {
  }
  __threadfence();
}

// LITMUS: forbidden
// The second barrier waits for both barriers' arrivals: the goal the count reaches only once every
// block has arrived twice.
__global__ void countBarrierHelperTwiceCounted(unsigned *count, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    arriveAndWait(count, gridDim.x);
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
    data[gridDim.x + blockIdx.x] = 2;
    arriveAndWait(count, 2 * gridDim.x);
    out[gridDim.x + blockIdx.x] = data[gridDim.x + (blockIdx.x + 1) % gridDim.x];
  }
}

// LITMUS: forbidden
// Two barriers one after the other, each on its own count (two elements of one array), each
// waiting for gridDim.x: each count reaches the goal only once every block has arrived on it.
__global__ void countBarrierTwoCounts(unsigned *counts, int *data, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    arriveAndWait(&counts[0], gridDim.x);
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
    data[gridDim.x + blockIdx.x] = 2;
    arriveAndWait(&counts[1], gridDim.x);
    out[gridDim.x + blockIdx.x] = data[gridDim.x + (blockIdx.x + 1) % gridDim.x];
  }
}
