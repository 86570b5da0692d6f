// A value read once and tested more than once: what any of its tests guards runs on the value
// (PTX: the thread reads the data only on the outcome the flag's value chose), so a read after the
// second test is a receive's data even when the first test guards something else. And a test whose
// one effect is to set a word of shared memory through a pointer (a reclaimer's `*advance = true`,
// which the block tests after its barrier) decides what that later test guards.

#include <cuda/atomic>

// LITMUS: allowed cuda-scope-release-acquire
// Thread 0 compares the epoch with what its block announced (a test that guards only a note); every thread
// then tests the epoch again and reads the bag on 2, with no acquire between.
__global__ void secondTestGuardsTheRead(unsigned *epoch, unsigned *announce, unsigned *bags, unsigned *out,
                                        unsigned *changed) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      bags[0] = 42;
      __threadfence();
      atomicExch(epoch, 2u);
    }
  } else {
    unsigned e = atomicAdd(epoch, 0u);
    if (threadIdx.x == 0) {
      if (announce[blockIdx.x] != e)
        changed[blockIdx.x] = 1;
    }
    if (e == 2)
      out[blockIdx.x * blockDim.x + threadIdx.x] = bags[0];
  }
}

// LITMUS: forbidden
// The same, with the epoch read by an acquire: the bag read is ordered after it.
__global__ void secondTestAfterAcquire(unsigned *epoch, unsigned *announce, unsigned *bags, unsigned *out,
                                       unsigned *changed) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      bags[0] = 42;
      __threadfence();
      atomicExch(epoch, 2u);
    }
  } else {
    unsigned e = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*epoch).load(cuda::memory_order_acquire);
    if (threadIdx.x == 0) {
      if (announce[blockIdx.x] != e)
        changed[blockIdx.x] = 1;
    }
    if (e == 2)
      out[blockIdx.x * blockDim.x + threadIdx.x] = bags[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Thread 0's test of the epoch sets a shared word through the reclaimer's pointer; the block tests
// the word after its barrier and reads the bag another block wrote before its publish.
struct Reclaimer {
  unsigned *epoch, *announce, *bags;
  bool *advance; // a word of the block's shared memory
  __device__ void leave(unsigned *out) {
    unsigned e = atomicAdd(epoch, 0u);
    if (threadIdx.x == 0) {
      if (announce[blockIdx.x] != e)
        *advance = true;
    }
    __syncthreads();
    if (*advance)
      out[blockIdx.x * blockDim.x + threadIdx.x] = bags[0];
  }
};

__global__ void relayedThroughAWord(unsigned *epoch, unsigned *announce, unsigned *bags, unsigned *out) {
  __shared__ bool advance;
  if (threadIdx.x == 0)
    advance = false;
  __syncthreads();
  Reclaimer r{epoch, announce, bags, &advance};
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      bags[0] = 42;
      __threadfence();
      atomicExch(epoch, 2u);
    }
  } else {
    r.leave(out);
  }
}

// LITMUS: forbidden
// The same relay, with a fence after the epoch's read.
struct FencedReclaimer {
  unsigned *epoch, *announce, *bags;
  bool *advance; // a word of the block's shared memory
  __device__ void leave(unsigned *out) {
    unsigned e = atomicAdd(epoch, 0u);
    __threadfence();
    if (threadIdx.x == 0) {
      if (announce[blockIdx.x] != e)
        *advance = true;
    }
    __syncthreads();
    if (*advance)
      out[blockIdx.x * blockDim.x + threadIdx.x] = bags[0];
  }
};

__global__ void relayedThroughAWordFenced(unsigned *epoch, unsigned *announce, unsigned *bags, unsigned *out) {
  __shared__ bool advance;
  if (threadIdx.x == 0)
    advance = false;
  __syncthreads();
  FencedReclaimer r{epoch, announce, bags, &advance};
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      bags[0] = 42;
      __threadfence();
      atomicExch(epoch, 2u);
    }
  } else {
    r.leave(out);
  }
}

// LITMUS: forbidden
// Tested twice, and no test guards the bag's read: every thread reads it whatever the epoch says,
// so it is no message's data (the epoch's tests only guard notes).
__global__ void noTestGuardsTheRead(unsigned *epoch, unsigned *announce, unsigned *bags, unsigned *out,
                                    unsigned *changed) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      bags[0] = 42;
      __threadfence();
      atomicExch(epoch, 2u);
    }
  } else {
    unsigned e = atomicAdd(epoch, 0u);
    if (threadIdx.x == 0) {
      if (announce[blockIdx.x] != e)
        changed[blockIdx.x] = 1;
    }
    if (e == 2)
      changed[blockIdx.x] = 2;
    out[blockIdx.x * blockDim.x + threadIdx.x] = bags[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The count is drawn in either arm of an if (a tree build's left and right child) and tested after
// it: the draw in the other arm is not on this draw's path, and the test is this value's.
__global__ void drawnInEitherArm(int *node, unsigned *count, int *out, int right) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned seen;
  if (right) {
    node[2 * id + 1] = id;
    __threadfence();
    seen = atomicAdd(&count[id / 2], 1u);
  } else {
    node[2 * id] = id;
    __threadfence();
    seen = atomicAdd(&count[id / 2], 1u);
  }
  if (seen == 1)
    out[id] = node[2 * (id ^ 1)];
}

// LITMUS: allowed cuda-scope-release-acquire
// A reader waits until the generation word changes between two of its reads, then reads what the
// writer wrote before bumping it, with no acquire between. The loop compares the value just read
// with the one read before it, carried in a variable: that is a test of what other threads did
// (a value computed from the same read would not be), so the loop's read is a receive.
__global__ void waitsForAChange(unsigned *data, unsigned *gen, unsigned *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    atomicAdd(gen, 1u);
    return;
  }
  unsigned seen = atomicAdd(gen, 0u);
  unsigned prev;
  do {
    prev = seen;
    seen = atomicAdd(gen, 0u);
  } while (seen == prev);
  out[blockIdx.x] = data[0];
}

// LITMUS: forbidden
// The same with a fence on each side: the change the reader saw carries the data.
__global__ void waitsForAChangeFenced(unsigned *data, unsigned *gen, unsigned *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicAdd(gen, 1u);
    return;
  }
  unsigned seen = atomicAdd(gen, 0u);
  unsigned prev;
  do {
    prev = seen;
    seen = atomicAdd(gen, 0u);
  } while (seen == prev);
  __threadfence();
  out[blockIdx.x] = data[0];
}

// LITMUS: forbidden
// The flag's value decides only what an if gives a local, an if that holds no access; the data
// is read after it whatever the flag said, so nothing makes the flag the data's (AMGX's
// multi_pairwise picked its strongest neighbour so). clang-tidy took the test to guard everything
// after such an if.
__global__ void testSetsOnlyALocal(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    atomicExch(flag, 1);
    return;
  }
  int seen = 0;
  int f = atomicAdd(flag, 0);
  if (f == 1)
    seen = f + 7;
  out[blockIdx.x] = data[0] + seen;
}

// LITMUS: allowed cuda-scope-release-acquire
// The same if with the data read in its arm: the read runs on the flag's value.
__global__ void testGuardsTheRead(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    atomicExch(flag, 1);
    return;
  }
  int seen = 0;
  int f = atomicAdd(flag, 0);
  if (f == 1)
    seen = data[0];
  out[blockIdx.x] = seen;
}
