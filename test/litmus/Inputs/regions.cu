// One block's region of a flat array: base + blockIdx.x * pitch + column. Each block writes and
// reads only its own region, and what a block keeps to itself travels through its own barriers,
// not through a flag the whole grid shares (an epoch, a ticket). A region another block writes
// (a neighbour's: pitch * (blockIdx.x + 1)), or a read the block's barrier does not order after
// its own write, is still a message the flag must carry. The ownership rules assume a column
// stays within its pitch, as they do for a row pointer.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;

struct Reclaimer {
  unsigned *announce; // per block: its epoch, then its region of retired addresses
  unsigned *epoch;    // the grid's epoch
  unsigned blocks, size;
};

// LITMUS: forbidden
// A reclaimer: each block retires into its own region (at a slot an atomic hands out), reads the
// epoch relaxed, frees what its own region holds, and advances the epoch with a relaxed CAS.
// Only the block writes its region, and its barrier orders the write before the read.
__global__ void ownRegionAfterRelaxedEpoch(Reclaimer r, unsigned *freed) {
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
  }
  __syncthreads();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
  if (threadIdx.x == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: allowed cuda-scope-release-acquire
// The same, but each block frees its neighbour's region once the epoch says the neighbour has
// retired: another block's write, published by its relaxed CAS, read after a relaxed load.
__global__ void neighbourRegionAfterRelaxedEpoch(Reclaimer r, unsigned *freed) {
  unsigned pitch = r.size / gridDim.x;
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[r.blocks + pitch * blockIdx.x + slot] = blockIdx.x + 7;
  }
  __syncthreads();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e > 2 * blockIdx.x) {
    unsigned a = r.announce[r.blocks + pitch * (blockIdx.x + 1) + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
  if (threadIdx.x == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: allowed cuda-scope-release-acquire
// Its own region, but no barrier between thread 0's write and the other threads' reads: they
// learn of the write only from the relaxed epoch, which orders nothing.
__global__ void ownRegionWithoutBarrier(Reclaimer r, unsigned *freed) {
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (threadIdx.x == 0) {
    r.announce[region + 5] = blockIdx.x + 7;
    Dev(*r.epoch).store(2 * blockIdx.x + 2, relaxed);
  } else if (Dev(*r.epoch).load(relaxed) == 2 * blockIdx.x + 2) {
    unsigned a = r.announce[region + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Windows that overlap: block b writes a[b + t], and a[b + t] is also block b + 1's a[(b + 1) +
// (t - 1)]. The block index is not scaled by a pitch, so there is no region of its own: a block
// reads what its neighbour wrote, learning of it from a relaxed count, barrier or not.
__global__ void overlappingWindows(unsigned *a, unsigned *count, unsigned *out) {
  a[blockIdx.x + threadIdx.x] = blockIdx.x + 1;
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(count, 1u);
  if (Dev(*count).load(relaxed) == gridDim.x)
    out[blockIdx.x * blockDim.x + threadIdx.x] = a[blockIdx.x + (threadIdx.x ^ 1)];
}

// LITMUS: forbidden
// A constant offset within a block's region whose pitch is a value: the slot an atomic hands out
// less a constant (the first slots live elsewhere), as the column does, stays in the block's own
// region, written by thread 0 before the barrier and read by the block after it.
__global__ void ownRegionConstantOffset(Reclaimer r, unsigned *freed) {
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    if (slot >= 4)
      r.announce[region + slot - 4] = blockIdx.x + 7;
  }
  __syncthreads();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
  if (threadIdx.x == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: allowed cuda-scope-release-acquire
// A constant pitch and an offset of a whole pitch: 256 * blockIdx.x + 256 is the neighbour's
// region, written by the neighbour and published by its relaxed CAS.
__global__ void neighbourRegionConstantPitch(unsigned *a, unsigned *epoch, unsigned *freed) {
  if (threadIdx.x == 0)
    a[256 * blockIdx.x + 3] = blockIdx.x + 7;
  __syncthreads();
  unsigned e = Dev(*epoch).load(relaxed);
  if (threadIdx.x == 0)
    atomicCAS(epoch, e, e + 2);
  if (e > 2 * blockIdx.x) {
    unsigned v = a[256 * blockIdx.x + 256 + threadIdx.x];
    if (v != 0)
      freed[v] = 1;
  }
}

// LITMUS: forbidden
// The region's pitch is read only where the block reclaims, and used only there: -O2 merges it with
// an undefined value on the other path, and the merge is the pitch.
__global__ void ownRegionPitchReadWhereUsed(Reclaimer r, unsigned *freed, bool reclaim) {
  unsigned pitch;
  if (reclaim)
    pitch = r.size / gridDim.x;
  if (reclaim && threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[r.blocks + pitch * blockIdx.x + slot] = blockIdx.x + 7;
  }
  __syncthreads();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (reclaim && e % 2 == 0) {
    unsigned a = r.announce[r.blocks + pitch * blockIdx.x + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
  if (threadIdx.x == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: forbidden
// The grid's first blocks retire into their own regions, the others free from theirs. A block's
// threads all take the same arm (the block's index decides it) and no loop runs both: what one
// block writes in its region, no other block reads, whatever the epoch says.
__global__ void regionsOfBlocksApart(Reclaimer r, unsigned *freed, unsigned writers) {
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (blockIdx.x < writers) {
    if (threadIdx.x == 0) {
      unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
      r.announce[region + slot] = blockIdx.x + 7;
      unsigned e = Dev(*r.epoch).load(relaxed);
      atomicCAS(r.epoch, e, e + 2);
    }
  } else {
    unsigned e = Dev(*r.epoch).load(relaxed);
    if (e % 2 == 0) {
      unsigned a = r.announce[region + threadIdx.x];
      if (a != 0)
        freed[a] = 1;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The arms split the block's threads instead: thread 0 writes the block's region and the others
// read it, learning of the write from the relaxed epoch alone.
__global__ void regionsOfThreadsApart(Reclaimer r, unsigned *freed) {
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
    unsigned e = Dev(*r.epoch).load(relaxed);
    atomicCAS(r.epoch, e, e + 2);
  } else {
    unsigned e = Dev(*r.epoch).load(relaxed);
    if (e % 2 == 0) {
      unsigned a = r.announce[region + threadIdx.x];
      if (a != 0)
        freed[a] = 1;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A block's arm changes from round to round: in one round it writes its region, in the next it
// reads it, with no barrier between the rounds.
__global__ void regionsOfRoundsApart(Reclaimer r, unsigned *freed, unsigned rounds) {
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  for (unsigned round = 0; round < rounds; ++round) {
    if ((blockIdx.x + round) % 2 == 0) {
      if (threadIdx.x == 0) {
        unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
        r.announce[region + slot] = blockIdx.x + 7;
        unsigned e = Dev(*r.epoch).load(relaxed);
        atomicCAS(r.epoch, e, e + 2);
      }
    } else {
      unsigned e = Dev(*r.epoch).load(relaxed);
      if (e % 2 == 0) {
        unsigned a = r.announce[region + threadIdx.x];
        if (a != 0)
          freed[a] = 1;
      }
    }
  }
}
