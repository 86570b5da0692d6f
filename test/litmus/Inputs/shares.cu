// A buffer split evenly among the grid's blocks, and words past its end. Block b's share of an
// extent X is [b * (X / gridDim.x), (b + 1) * (X / gridDim.x)), and every share lies below X,
// since b < gridDim.x. An address base + b * (X / gridDim.x) + what the block adds within its share
// (the column, and a bag of the share: (X / gridDim.x / k) * (v % k)) never meets base + X + k for
// a k that is not negative: a word past every share (the statistics a reclaimer keeps behind its
// blocks' retire lists) is not what any block reads in its own share, whatever the epoch says. The
// rules assume what a block adds stays within its share, as they assume of a column and its pitch.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;

struct Reclaimer {
  unsigned *announce; // per block: its epoch; then each block's share of retired addresses; then statistics
  unsigned *epoch;    // the grid's epoch
  unsigned blocks, size, parts;
};

// LITMUS: forbidden
// Each round a block retires into its own share and frees from it after its barrier; the block
// whose CAS advances the epoch records a statistic past every share, before its next round's CAS.
// The statistic is written before a publish of the epoch, but no block reads it: each reads only
// its own share, which its own barrier orders.
__global__ void statisticsPastEveryShare(Reclaimer r, unsigned *freed, unsigned rounds) {
  unsigned share = r.size / gridDim.x;
  unsigned region = r.blocks + share * blockIdx.x;
  for (unsigned round = 0; round < rounds; ++round) {
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
    if (threadIdx.x == 0 && atomicCAS(r.epoch, e, e + 2) == e)
      r.announce[r.blocks + r.size + (e >> 1)] = round;
    __syncthreads();
  }
}

// LITMUS: forbidden
// The same with bags: a share holds three bags, and the block reads the bag it retired into, at
// (share / 3) * (bag % 3) within its share. A bag stays within the share.
__global__ void statisticsPastEveryBag(Reclaimer r, unsigned *freed, unsigned rounds) {
  __shared__ unsigned bag;
  unsigned share = r.size / gridDim.x;
  unsigned region = r.blocks + share * blockIdx.x;
  if (threadIdx.x == 0)
    bag = 0;
  __syncthreads();
  for (unsigned round = 0; round < rounds; ++round) {
    if (threadIdx.x == 0) {
      unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
      r.announce[region + (share / 3) * (bag % 3) + slot] = blockIdx.x + 7;
    }
    __syncthreads();
    unsigned e = Dev(*r.epoch).load(relaxed);
    if (e % 2 == 0) {
      unsigned a = r.announce[region + (share / 3) * (bag % 3) + threadIdx.x];
      if (a != 0)
        freed[a] = 1;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      bag = bag + 1;
      if (atomicCAS(r.epoch, e, e + 2) == e)
        r.announce[r.blocks + r.size + (e >> 1)] = round;
    }
    __syncthreads();
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The statistic is written inside the last share (size - 1 - k): the last block reads it there, a
// write of another block that the relaxed epoch does not order before the read.
__global__ void statisticsInTheLastShare(Reclaimer r, unsigned *freed, unsigned rounds) {
  unsigned share = r.size / gridDim.x;
  unsigned region = r.blocks + share * blockIdx.x;
  for (unsigned round = 0; round < rounds; ++round) {
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
    if (threadIdx.x == 0 && atomicCAS(r.epoch, e, e + 2) == e)
      r.announce[r.blocks + r.size - 1 - (e >> 1)] = round;
    __syncthreads();
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The buffer is split into parts the host chose, not into the grid's blocks: a block whose index
// is past the parts has its share past the end, where the statistics are.
__global__ void statisticsPastSharesOfAnotherSplit(Reclaimer r, unsigned *freed, unsigned rounds) {
  unsigned share = r.size / r.parts;
  unsigned region = r.blocks + share * blockIdx.x;
  for (unsigned round = 0; round < rounds; ++round) {
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
    if (threadIdx.x == 0 && atomicCAS(r.epoch, e, e + 2) == e)
      r.announce[r.blocks + r.size + (e >> 1)] = round;
    __syncthreads();
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Bags that nothing bounds: (share / 3) * bag for a bag the block keeps in memory and only
// increments reaches past the share, and past the last share to the statistics.
__global__ void statisticsPastUnboundedBags(Reclaimer r, unsigned *bags, unsigned *freed, unsigned rounds) {
  unsigned share = r.size / gridDim.x;
  unsigned region = r.blocks + share * blockIdx.x;
  for (unsigned round = 0; round < rounds; ++round) {
    if (threadIdx.x == 0) {
      unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
      r.announce[region + (share / 3) * bags[blockIdx.x] + slot] = blockIdx.x + 7;
    }
    __syncthreads();
    unsigned e = Dev(*r.epoch).load(relaxed);
    if (e % 2 == 0) {
      unsigned a = r.announce[region + (share / 3) * bags[blockIdx.x] + threadIdx.x];
      if (a != 0)
        freed[a] = 1;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      bags[blockIdx.x] += 1;
      if (atomicCAS(r.epoch, e, e + 2) == e)
        r.announce[r.blocks + r.size + (e >> 1)] = round;
    }
    __syncthreads();
  }
}
