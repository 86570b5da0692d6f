// Message passing (MP), the first litmus test of the PTX memory model: a producer in one block
// writes data, then a flag; a consumer in another block waits on the flag, then reads the data.
// The data is only received when a release pattern on the producer's side synchronizes with an
// acquire pattern on the consumer's (shared/seeds/ptx-memory-synchronization.md, item 4), and
// both are morally strong: each scope includes the other thread.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
using Blk = cuda::atomic_ref<int, cuda::thread_scope_block>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

// LITMUS: allowed cuda-scope-release-acquire
// Relaxed on both sides: no release pattern, no acquire pattern.
__global__ void mpRelaxed(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, relaxed);
  } else {
    while (Dev(*flag).load(relaxed) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// A release store synchronizes with the acquire load that reads it.
__global__ void mpReleaseAcquire(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, release);
  } else {
    while (Dev(*flag).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// A fence then a relaxed write is a release pattern; a relaxed read then a fence an acquire one.
__global__ void mpFences(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    __threadfence();
    Dev(*flag).store(1, relaxed);
  } else {
    while (Dev(*flag).load(relaxed) == 0) {
    }
    __threadfence();
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same with libcu++ fences of device scope.
__global__ void mpThreadFences(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_thread_fence(release, cuda::thread_scope_device);
    Dev(*flag).store(1, relaxed);
  } else {
    while (Dev(*flag).load(relaxed) == 0) {
    }
    cuda::atomic_thread_fence(acquire, cuda::thread_scope_device);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Block-scope fences: the patterns are not morally strong with a thread of another block.
__global__ void mpBlockFences(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    __threadfence_block();
    Dev(*flag).store(1, relaxed);
  } else {
    while (Dev(*flag).load(relaxed) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-mismatch
// A block-scope release: the store and the load are not morally strong.
__global__ void mpNarrowRelease(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Blk(*flag).store(1, release);
  } else {
    while (Dev(*flag).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-mismatch
// A block-scope acquire, likewise (on an H100 it can spin forever on its SM's stale copy).
__global__ void mpNarrowAcquire(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, release);
  } else {
    while (Blk(*flag).load(acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Legacy CUDA: a volatile flag is a relaxed system-scope access, no release or acquire.
__global__ void mpVolatile(int *data, volatile int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The volatile flag with __threadfence() on both sides: the patterns of legacy CUDA code.
__global__ void mpVolatileFenced(int *data, volatile int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    __threadfence();
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// A release pattern: a release store followed by a strong write to the same location still
// releases what came before the first (the consumer waits for the second value).
__global__ void mpReleasePattern(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, release);
    Dev(*flag).store(2, relaxed);
  } else {
    while (Dev(*flag).load(acquire) != 2) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// An acquire pattern: a strong read followed by an acquire read of the same location.
__global__ void mpAcquirePattern(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, release);
  } else {
    while (Dev(*flag).load(relaxed) == 0) {
    }
    (void)Dev(*flag).load(acquire);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// One flag per block, set by thread 0 and waited on by the block's other threads: every thread on
// either side is in the block, so block-scope fences are morally strong.
__global__ void mpPerBlockFlag(int *data, int *flags, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    __threadfence_block();
    Blk(flags[blockIdx.x]).store(1, relaxed);
  } else {
    while (Blk(flags[blockIdx.x]).load(relaxed) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[blockIdx.x];
  }
}

// LITMUS: forbidden
// Block 0 alone, its thread 0 publishing to its other threads: block scope is enough.
__global__ void mpInBlockZero(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 1;
      __threadfence_block();
      Blk(*flag).store(1, relaxed);
    } else {
      while (Blk(*flag).load(relaxed) == 0) {
      }
      __threadfence_block();
      out[threadIdx.x] = data[0];
    }
  }
}

// LITMUS: forbidden
// Each block works in its own row of a pitched array (row = base + blockIdx.x * pitch): the row's
// flag and data are the block's, and block-scope fences are enough whichever column is used.
__global__ void mpPerBlockRow(char *base, size_t pitch, int *out) {
  int *row = (int *)(base + blockIdx.x * pitch);
  if (threadIdx.x == 0) {
    row[1] = 42;
    __threadfence_block();
    Blk(row[0]).store(1, relaxed);
  } else {
    while (Blk(row[0]).load(relaxed) == 0) {
    }
    __threadfence_block();
    out[blockIdx.x * blockDim.x + threadIdx.x] = row[1];
  }
}

// LITMUS: forbidden
// Thread 0 publishes to the other threads of the one block the host launches: block scope is
// enough. The device IR does not show the launch; the IR pass learns it from the host side's
// facts (the kernels every launch of which runs one block), as the cuda-scope command gives them.
__global__ void mpOneBlockLaunch(int *data, int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[0] = 1;
    __threadfence_block();
    Blk(*flag).store(1, relaxed);
  } else {
    while (Blk(*flag).load(relaxed) == 0) {
    }
    __threadfence_block();
    out[threadIdx.x] = data[0];
  }
}
void launchOneBlock(int *data, int *flag, int *out) { mpOneBlockLaunch<<<1, 128>>>(data, flag, out); }

// Which block runs each side, however the condition is written: both threads picked in block 0
// (blockIdx.x == 0 && threadIdx.x == N, which -O2 folds into (ctaid | tid) == 0 for N = 0), an
// early return of every other block, blockIdx.x < 1. Block scope includes both sides there.
// LITMUS: forbidden
// Both threads in block 0: block scope includes both sides.
__global__ void mpBlockZeroThreads(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    Blk(*flag).store(1, release);
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    while (Blk(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
// LITMUS: forbidden
__global__ void mpBlockZeroFence(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    __threadfence_block();
    Dev(*flag).store(1, relaxed);
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    while (Dev(*flag).load(relaxed) != 1) {
    }
    __threadfence_block();
    *out = *data;
  }
}
// LITMUS: allowed cuda-scope-release-acquire
__global__ void mpTwoBlocksFence(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    __threadfence_block();
    Dev(*flag).store(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*flag).load(relaxed) != 1) {
    }
    __threadfence_block();
    *out = *data;
  }
}
// LITMUS: forbidden
__global__ void mpBlockZeroNotEqual(int *data, int *flag, int *out) {
  if (blockIdx.x != 0)
    return;
  if (threadIdx.x == 0) {
    *data = 1;
    Blk(*flag).store(1, release);
  } else if (threadIdx.x == 32) {
    while (Blk(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
// LITMUS: forbidden
__global__ void mpBlockLessThanOne(int *data, int *flag, int *out) {
  if (blockIdx.x < 1 && threadIdx.x == 0) {
    *data = 1;
    Blk(*flag).store(1, release);
  } else if (blockIdx.x < 1 && threadIdx.x == 32) {
    while (Blk(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
// LITMUS: forbidden
// Block 2 alone, named by a range of one block on each side: both threads are in block 2, and
// block scope includes them both.
__global__ void mpBlockRangeOfOne(int *data, int *flag, int *out) {
  if (blockIdx.x >= 2 && blockIdx.x < 3 && threadIdx.x == 0) {
    *data = 1;
    Blk(*flag).store(1, release);
  } else if (blockIdx.x > 1 && blockIdx.x <= 2 && threadIdx.x == 32) {
    while (Blk(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
// LITMUS: forbidden
// The tests kept in locals that hold them throughout: both threads are in block 3.
__global__ void mpBlockTestsInLocals(int *data, int *flag, int *out) {
  const bool producer = blockIdx.x == 3 && threadIdx.x == 0;
  const bool consumer = blockIdx.x == 3 && threadIdx.x == 32;
  if (producer) {
    *data = 1;
    Blk(*flag).store(1, release);
  } else if (consumer) {
    while (Blk(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
// LITMUS: allowed cuda-scope-insufficient
// A range of two blocks: thread 0 of block 0 and thread 32 of block 1 both pass, and block scope
// leaves the other block out.
__global__ void mpBlockRangeOfTwo(int *data, int *flag, int *out) {
  if (blockIdx.x < 2 && threadIdx.x == 0) {
    *data = 1;
    Blk(*flag).store(1, release);
  } else if (blockIdx.x < 2 && threadIdx.x == 32) {
    while (Blk(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The consumer reads the data in the body of the loop whose test reads the flag: the loop runs its
// body while the flag is set, so the producer's 1 leads the consumer to the read, with no acquire
// on either side. The loop's test guards its own body as much as what follows the loop.
__global__ void mpReadInLoopBody(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, relaxed);
  } else {
    while (Dev(*flag).load(relaxed) != 0) {
      out[blockIdx.x] = data[threadIdx.x];
    }
  }
}

// LITMUS: forbidden
// The same loop with the release and the acquire: the read in the body is ordered after the data.
__global__ void mpReadInLoopBodyAcquire(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Dev(*flag).store(1, release);
  } else {
    while (Dev(*flag).load(acquire) != 0) {
      out[blockIdx.x] = data[threadIdx.x];
    }
  }
}

// A tree refit: each child writes its node's bounds, then counts on its parent; the second child to
// arrive reads its sibling's bounds and goes on up. Bounds are written and read as whole structs,
// through a cast to another struct type ((Box &)nodes[i], as warp's BVH refit does): -O2 makes both
// copies memcpy, clang-tidy sees a trivial assignment and a trivial copy.
struct Box {
  float lo, hi;
};
struct Node {
  float lo, hi;
  int left, right;
};

// LITMUS: allowed cuda-scope-release-acquire
// The arrival's fence is a release; nothing after the count is an acquire.
__global__ void refitStructCopy(Node *nodes, const int *parents, int *count, const Box *leaves, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  (Box &)nodes[i] = leaves[i];
  for (int parent = parents[i]; parent >= 0; parent = parents[parent]) {
    __threadfence();
    if (atomicAdd(&count[parent], 1) == 0)
      return;
    Box l = (Box &)nodes[nodes[parent].left];
    Box r = (Box &)nodes[nodes[parent].right];
    (Box &)nodes[parent] = Box{fminf(l.lo, r.lo), fmaxf(l.hi, r.hi)};
  }
}

// LITMUS: forbidden
// A fence after the count makes it an acquire pattern.
__global__ void refitStructCopyAcquire(Node *nodes, const int *parents, int *count, const Box *leaves, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  (Box &)nodes[i] = leaves[i];
  for (int parent = parents[i]; parent >= 0; parent = parents[parent]) {
    __threadfence();
    if (atomicAdd(&count[parent], 1) == 0)
      return;
    __threadfence();
    Box l = (Box &)nodes[nodes[parent].left];
    Box r = (Box &)nodes[nodes[parent].right];
    (Box &)nodes[parent] = Box{fminf(l.lo, r.lo), fmaxf(l.hi, r.hi)};
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The refit walking up through one node pointer (cuBQL's refit_run): node = &nodes[i], then
// node = &nodes[parent] each round. Every value the pointer takes points into nodes, so every access
// through it is to nodes, as the IR's phi of those addresses is. No fence before the count: the
// parent's reader may see the count and an old child.
__global__ void refitMovingPointer(Node *nodes, const int *parents, int *count, const Box *leaves, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Node *node = &nodes[i];
  Box b = leaves[i];
  for (int parent = parents[i]; parent >= 0; parent = parents[parent]) {
    node->lo = b.lo;
    node->hi = b.hi;
    if (atomicAdd(&count[parent], 1) == 0)
      return;
    __threadfence();
    node = &nodes[parent];
    b = Box{fminf(nodes[node->left].lo, nodes[node->right].lo), fmaxf(nodes[node->left].hi, nodes[node->right].hi)};
  }
}

// One allocation carved by the host into a flag array and data arrays, given to the kernel as
// three parameters: each is an array of its own, as the kernel indexes each from its start. A
// block publishes its aggregate and the next block reads it after seeing the flag (a look-back).
// LITMUS: allowed cuda-scope-release-acquire
__global__ void carvedLookBack(volatile int *status, int *agg, int *out) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    agg[b] = b;
    status[b] = 1;
    if (b > 0) {
      while (status[b - 1] == 0) {
      }
      out[b] = agg[b - 1];
    }
  }
}

void launchCarved(char *base, unsigned n) {
  carvedLookBack<<<n, 32>>>((volatile int *)base, (int *)(base + n * sizeof(int)),
                            (int *)(base + 2 * n * sizeof(int)));
}

// LITMUS: forbidden
// The same with a fence before the flag and after the wait.
__global__ void carvedLookBackFenced(volatile int *status, int *agg, int *out) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    agg[b] = b;
    __threadfence();
    status[b] = 1;
    if (b > 0) {
      while (status[b - 1] == 0) {
      }
      __threadfence();
      out[b] = agg[b - 1];
    }
  }
}

void launchCarvedFenced(char *base, unsigned n) {
  carvedLookBackFenced<<<n, 32>>>((volatile int *)base, (int *)(base + n * sizeof(int)),
                                  (int *)(base + 2 * n * sizeof(int)));
}

// A look-back that reads one of two arrays by the flag's value: -O2 merges the two reads into one
// through a select of their addresses, which is a read of either array, as the source wrote it.
// LITMUS: allowed cuda-scope-release-acquire
__global__ void lookBackEitherArray(volatile int *status, int *agg, int *pref, int *out) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    agg[b] = b;
    pref[b] = 2 * b;
    status[b] = 2;
    if (b > 0) {
      int st;
      while ((st = status[b - 1]) == 0) {
      }
      __threadfence();
      out[b] = st == 2 ? pref[b - 1] : agg[b - 1];
    }
  }
}

// LITMUS: forbidden
// The same with the release fence before the flag.
__global__ void lookBackEitherArrayFenced(volatile int *status, int *agg, int *pref, int *out) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    agg[b] = b;
    pref[b] = 2 * b;
    __threadfence();
    status[b] = 2;
    if (b > 0) {
      int st;
      while ((st = status[b - 1]) == 0) {
      }
      __threadfence();
      out[b] = st == 2 ? pref[b - 1] : agg[b - 1];
    }
  }
}

// The refit of the issue's unseen tree code (cuBQL's refit_run): one word per node holds the
// parent's index above an arrival bit; each child writes its node's bounds field, fences, and adds
// 1; the second to arrive (the bit was set) copies both children whole, as the same struct type,
// with no fence after the add. The copies read the bounds fields the other child wrote. (Each
// leaf's bounds come from its input, as cuBQL's come from its primitives.)
struct RefitNode {
  float lo, hi;
  int first, count;
};

// LITMUS: allowed cuda-scope-release-acquire
__global__ void refitWholeCopies(RefitNode *nodes, unsigned *links, const float2 *leaves, int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id == 0 || id >= n)
    return;
  RefitNode *node = &nodes[id];
  float lo = leaves[id].x, hi = leaves[id].y;
  int parent = links[id] >> 1;
  while (true) {
    node->lo = lo;
    node->hi = hi;
    __threadfence();
    if (node == nodes)
      break;
    unsigned bits = atomicAdd(&links[parent], 1u);
    if ((bits & 1) == 0)
      break;
    node = &nodes[parent];
    parent = bits >> 1;
    RefitNode l = nodes[node->first];
    RefitNode r = nodes[node->first + 1];
    lo = fminf(l.lo, r.lo);
    hi = fmaxf(l.hi, r.hi);
  }
}

// LITMUS: forbidden
// The same with a fence after the add: the copies are acquired.
__global__ void refitWholeCopiesAcquire(RefitNode *nodes, unsigned *links, const float2 *leaves, int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id == 0 || id >= n)
    return;
  RefitNode *node = &nodes[id];
  float lo = leaves[id].x, hi = leaves[id].y;
  int parent = links[id] >> 1;
  while (true) {
    node->lo = lo;
    node->hi = hi;
    __threadfence();
    if (node == nodes)
      break;
    unsigned bits = atomicAdd(&links[parent], 1u);
    if ((bits & 1) == 0)
      break;
    __threadfence();
    node = &nodes[parent];
    parent = bits >> 1;
    RefitNode l = nodes[node->first];
    RefitNode r = nodes[node->first + 1];
    lo = fminf(l.lo, r.lo);
    hi = fmaxf(l.hi, r.hi);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Block 1 waits with a compare-and-swap that writes back the value it finds. Block 0 wrote the
// data, not block 1: the wait is a receive with no acquire, and no publish of block 1's.
__global__ void casWaitNoPublish(unsigned *flag, int *data, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 42;
    atomicExch(flag, 1u);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicCAS(flag, 1u, 1u) == 0) {
    }
    *out = *data;
  }
}

// A node's bounds are a box of two vectors, and the refit copies whole boxes: the copy reads each
// vector's fields, as the writes of the other child name them.
struct RefitVec {
  float x, y, z;
};
struct RefitBox {
  RefitVec lo, hi;
};

// LITMUS: allowed cuda-scope-release-acquire
// The fence before the count is deleted: the other child's bounds can be read before they land.
__global__ void refitNestedNoRelease(RefitBox *bounds, const int *firsts, const int *parents, unsigned *counts, const RefitBox *leaves,
                                     int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id == 0 || id >= n)
    return;
  int node = id;
  RefitBox box = leaves[id];
  while (true) {
    bounds[node].lo.x = box.lo.x;
    bounds[node].lo.y = box.lo.y;
    bounds[node].lo.z = box.lo.z;
    bounds[node].hi.x = box.hi.x;
    bounds[node].hi.y = box.hi.y;
    bounds[node].hi.z = box.hi.z;
    if (node == 0)
      break;
    int parent = parents[node];
    if (atomicAdd(&counts[parent], 1u) == 0)
      break;
    __threadfence();
    node = parent;
    RefitBox l = bounds[firsts[node]];
    RefitBox r = bounds[firsts[node] + 1];
    box.lo.x = fminf(l.lo.x, r.lo.x);
    box.lo.y = fminf(l.lo.y, r.lo.y);
    box.lo.z = fminf(l.lo.z, r.lo.z);
    box.hi.x = fmaxf(l.hi.x, r.hi.x);
    box.hi.y = fmaxf(l.hi.y, r.hi.y);
    box.hi.z = fmaxf(l.hi.z, r.hi.z);
  }
}

// LITMUS: forbidden
// Fenced on both sides of the count: the copies of the boxes are ordered.
__global__ void refitNestedFenced(RefitBox *bounds, const int *firsts, const int *parents, unsigned *counts, const RefitBox *leaves,
                                  int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id == 0 || id >= n)
    return;
  int node = id;
  RefitBox box = leaves[id];
  while (true) {
    bounds[node].lo.x = box.lo.x;
    bounds[node].lo.y = box.lo.y;
    bounds[node].lo.z = box.lo.z;
    bounds[node].hi.x = box.hi.x;
    bounds[node].hi.y = box.hi.y;
    bounds[node].hi.z = box.hi.z;
    __threadfence();
    if (node == 0)
      break;
    int parent = parents[node];
    if (atomicAdd(&counts[parent], 1u) == 0)
      break;
    __threadfence();
    node = parent;
    RefitBox l = bounds[firsts[node]];
    RefitBox r = bounds[firsts[node] + 1];
    box.lo.x = fminf(l.lo.x, r.lo.x);
    box.lo.y = fminf(l.lo.y, r.lo.y);
    box.lo.z = fminf(l.lo.z, r.lo.z);
    box.hi.x = fmaxf(l.hi.x, r.hi.x);
    box.hi.y = fmaxf(l.hi.y, r.hi.y);
    box.hi.z = fmaxf(l.hi.z, r.hi.z);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// cuBQL's refit: a node holds a box of two vectors and its bookkeeping in bit-fields; the child
// assigns its box whole, and the parent copies whole nodes. The fence before the count is missing.
struct RefitAdmin {
  unsigned long long offset : 48;
  unsigned long long count : 16;
};
struct RefitBvhNode {
  RefitBox bounds;
  RefitAdmin admin;
};
__global__ void refitNodeCopiesNoRelease(RefitBvhNode *nodes, unsigned *refit, const RefitBox *leaves, int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id == 0 || id >= n)
    return;
  RefitBvhNode *node = &nodes[id];
  RefitBox box = leaves[id];
  int parent = refit[id] >> 1;
  while (true) {
    node->bounds = box;
    if (node == nodes)
      break;
    unsigned bits = atomicAdd(&refit[parent], 1u);
    if ((bits & 1) == 0)
      break;
    __threadfence();
    node = &nodes[parent];
    parent = bits >> 1;
    RefitBvhNode l = nodes[node->admin.offset];
    RefitBvhNode r = nodes[node->admin.offset + 1];
    box.lo.x = fminf(l.bounds.lo.x, r.bounds.lo.x);
    box.lo.y = fminf(l.bounds.lo.y, r.bounds.lo.y);
    box.lo.z = fminf(l.bounds.lo.z, r.bounds.lo.z);
    box.hi.x = fmaxf(l.bounds.hi.x, r.bounds.hi.x);
    box.hi.y = fmaxf(l.bounds.hi.y, r.bounds.hi.y);
    box.hi.z = fmaxf(l.bounds.hi.z, r.bounds.hi.z);
  }
}
