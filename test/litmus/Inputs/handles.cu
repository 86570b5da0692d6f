// Node handles a traversal re-assigns in its loop (MVGpuBTree's btree_versioned_node): the handle's
// pointer field is set by its constructor and copied by its operator=, so every value it has is a
// node of the pool the kernel was given, whichever node the loop moved to.
struct Pool {
  unsigned *words;
  __device__ unsigned *address(unsigned index) const { return words + index * 32; }
};

// LITMUS: allowed cuda-scope-release-acquire
// The lock's acquire fence is block scope, but warps of every block take the same node's lock.
struct NarrowNode {
  unsigned *ptr;
  __device__ NarrowNode(unsigned *p) : ptr(p) {}
  __device__ NarrowNode &operator=(const NarrowNode &other) {
    ptr = other.ptr;
    return *this;
  }
  __device__ void lock() {
    while ((atomicOr(&ptr[31], 1u) & 1u) != 0) {
    }
    __threadfence_block();
  }
  __device__ void unlock() {
    __threadfence();
    atomicAnd(&ptr[31], ~1u);
  }
};
__global__ void handleNarrowFence(Pool pool, unsigned start, unsigned *out) {
  unsigned index = start;
  NarrowNode node(pool.address(index));
  for (int step = 0; step < 4; step++) {
    node.lock();
    out[index] += 1;
    index = node.ptr[0];
    node.unlock();
    node = NarrowNode(pool.address(index));
  }
}

// LITMUS: forbidden
// The same lock with device-scope fences on both sides.
struct Node {
  unsigned *ptr;
  __device__ Node(unsigned *p) : ptr(p) {}
  __device__ Node &operator=(const Node &other) {
    ptr = other.ptr;
    return *this;
  }
  __device__ void lock() {
    while ((atomicOr(&ptr[31], 1u) & 1u) != 0) {
    }
    __threadfence();
  }
  __device__ void unlock() {
    __threadfence();
    atomicAnd(&ptr[31], ~1u);
  }
};
__global__ void handleFenced(Pool pool, unsigned start, unsigned *out) {
  unsigned index = start;
  Node node(pool.address(index));
  for (int step = 0; step < 4; step++) {
    node.lock();
    out[index] += 1;
    index = node.ptr[0];
    node.unlock();
    node = Node(pool.address(index));
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The narrow lock fence again, on a handle a helper moved by reference: a tree whose traversal
// hands its node handle to a helper that moves it along the side links (MVGpuBTree's
// traverse_side_links(node_type&)). Every node the handle holds is still one of the pool's,
// whichever function re-assigned it.
struct NarrowLinkNode {
  unsigned *ptr;
  __device__ NarrowLinkNode(unsigned *p) : ptr(p) {}
  __device__ NarrowLinkNode &operator=(const NarrowLinkNode &other) {
    ptr = other.ptr;
    return *this;
  }
  __device__ void lock() {
    while ((atomicOr(&ptr[31], 1u) & 1u) != 0) {
    }
    __threadfence_block();
  }
  __device__ void unlock() {
    __threadfence();
    atomicAnd(&ptr[31], ~1u);
  }
};
template <typename N> struct Tree {
  Pool pool;
  __device__ bool followLinks(N &node, unsigned &index, unsigned key) {
    bool moved = false;
    while (key >= node.ptr[1]) {
      index = node.ptr[2];
      node = N(pool.address(index));
      moved = true;
    }
    return moved;
  }
  __device__ void visit(unsigned start, unsigned key, unsigned *out) {
    unsigned index = start;
    N node(pool.address(index));
    for (int step = 0; step < 4; step++) {
      followLinks(node, index, key);
      node.lock();
      out[index] += 1;
      index = node.ptr[0];
      node.unlock();
      node = N(pool.address(index));
    }
  }
};

__global__ void handleMovedByHelperNarrowFence(Tree<NarrowLinkNode> tree, unsigned key, unsigned *out) {
  tree.visit(blockIdx.x, key, out);
}

// LITMUS: forbidden
// Device-scope fences on both sides, on a handle the helper moved by reference.
__global__ void handleMovedByHelperFenced(Tree<Node> tree, unsigned key, unsigned *out) {
  tree.visit(blockIdx.x, key, out);
}

// LITMUS: allowed cuda-scope-release-acquire
// The narrow lock fence on a handle that is also assigned other handles whole: a split hands back
// the new sibling as a handle of its own, and the traversal moves on to it (MVGpuBTree's
// `current_node = split_result.sibling`). The class sets its pointer only in its constructor and
// copies it in operator=, so every handle of it holds what some construction gave it; every
// construction the kernel makes points into the pool, so the handle does too.
struct SplitNode {
  unsigned *ptr;
  __device__ SplitNode(unsigned *p) : ptr(p) {}
  __device__ SplitNode &operator=(const SplitNode &other) {
    ptr = other.ptr;
    return *this;
  }
  __device__ void lock() {
    while ((atomicOr(&ptr[31], 1u) & 1u) != 0) {
    }
    __threadfence_block();
  }
  __device__ void unlock() {
    __threadfence();
    atomicAnd(&ptr[31], ~1u);
  }
};
struct SplitPair {
  SplitNode left, right;
};
template <typename N> struct SplitTree {
  Pool pool;
  __device__ SplitPair split(N &node, unsigned fresh) { return SplitPair{node, N(pool.address(fresh))}; }
  __device__ void insert(unsigned start, unsigned fresh, unsigned *out) {
    unsigned index = start;
    N node(pool.address(index));
    for (int step = 0; step < 4; step++) {
      node.lock();
      out[index] += 1;
      index = node.ptr[0];
      if (index == 0) {
        SplitPair halves = split(node, fresh + step);
        node.unlock();
        node = halves.right;
        continue;
      }
      node.unlock();
      node = N(pool.address(index));
    }
  }
};
__global__ void handleCopiedNarrowFence(SplitTree<SplitNode> tree, const unsigned *root, unsigned fresh,
                                        unsigned *out) {
  tree.insert(*root, fresh, out);
}

// LITMUS: forbidden
// The same handles over a pool the block keeps in shared memory: every construction points into
// the block's own array, so only the block's threads take the lock and a block-scope fence is
// enough (the handles copied from the split's pair included).
struct SharedPool {
  unsigned *words;
  __device__ unsigned *address(unsigned index) const { return words + index * 32; }
};
template <typename N> struct SharedTree {
  SharedPool pool;
  __device__ SplitPair split(N &node, unsigned fresh) { return SplitPair{node, N(pool.address(fresh))}; }
  __device__ void insert(unsigned start, unsigned fresh) {
    unsigned index = start;
    N node(pool.address(index));
    for (int step = 0; step < 4; step++) {
      node.lock();
      node.ptr[4] += 1;
      index = node.ptr[0];
      if (index == 0) {
        SplitPair halves = split(node, fresh + step);
        node.unlock();
        node = halves.right;
        continue;
      }
      node.unlock();
      node = N(pool.address(index));
    }
  }
};
__global__ void handleCopiedSharedPool(unsigned fresh) {
  __shared__ unsigned words[32 * 8];
  SharedTree<SplitNode> tree{SharedPool{words}};
  tree.insert(threadIdx.x / 32, fresh);
}

// LITMUS: allowed cuda-scope-release-acquire
// The narrow lock fence on nodes a levelled slab allocator hands out (MVGpuBTree's SlabAllocLight):
// a node's address is computed down three levels of static helpers, each adding its level's
// offset to the base the level above passed it. Every address is still in the pool the kernel
// was given, however many calls compute it.
struct SlabNode {
  unsigned *ptr;
  __device__ SlabNode(unsigned *p) : ptr(p) {}
  __device__ SlabNode &operator=(const SlabNode &other) {
    ptr = other.ptr;
    return *this;
  }
  __device__ void lock() {
    while ((atomicOr(&ptr[31], 1u) & 1u) != 0) {
    }
    __threadfence_block();
  }
  __device__ void unlock() {
    __threadfence();
    atomicAnd(&ptr[31], ~1u);
  }
};
struct SlabLeaf {
  static __device__ unsigned char *address(unsigned p, unsigned char *level_start) {
    unsigned char *slabs = level_start + 128;
    unsigned char *slab = &slabs[(p >> 6) * 128];
    return slab;
  }
};
template <class Level> struct SlabLevels {
  static __device__ unsigned char *address(unsigned p, unsigned char *base) {
    unsigned index = p & 7;
    unsigned char *level_start = start(index, base);
    return Level::sublevel::address(p, level_start);
  }
  static __device__ unsigned char *start(unsigned index, unsigned char *base) {
    unsigned char *level_start = base + index * 4096;
    return level_start;
  }
};
struct SlabMiddle {
  using sublevel = SlabLeaf;
  static __device__ unsigned char *address(unsigned p, unsigned char *s) { return SlabLevels<SlabMiddle>::address(p, s); }
};
struct SlabTop {
  using sublevel = SlabMiddle;
  static __device__ unsigned char *address(unsigned p, unsigned char *s) { return SlabLevels<SlabTop>::address(p, s); }
};
struct SlabPool {
  void *pool;
};
struct SlabContext {
  unsigned char *pool_;
  __device__ SlabContext(const SlabPool &host) : pool_(reinterpret_cast<unsigned char *>(host.pool)) {}
  __device__ unsigned *address(unsigned p) const { return reinterpret_cast<unsigned *>(SlabTop::address(p, pool_)); }
};
__global__ void handleFromNestedAllocator(SlabPool pool, const unsigned *root, unsigned *out) {
  SlabContext allocator(pool);
  unsigned index = *root;
  SlabNode node(allocator.address(index));
  for (int step = 0; step < 4; step++) {
    node.lock();
    out[index] += 1;
    index = node.ptr[0];
    node.unlock();
    node = SlabNode(allocator.address(index));
  }
}

// LITMUS: allowed cuda-scope-insufficient
// A block-scope CAS on an allocator's bitmap words that every block claims from (MVGpuBTree's
// slab allocator): the bitmap handle is built from its level's start, itself a handle's field that
// the level's constructor set from the kernel's pool. Each of the two handles only ever holds what
// some construction gave it, so the words are the pool's, whichever level the tile rehashed to.
struct ChainBits {
  unsigned *words;
  ChainBits() = default;
  __device__ ChainBits(unsigned char *start) { words = reinterpret_cast<unsigned *>(start); }
  __device__ unsigned claim(unsigned lane) { return atomicCAS_block(words + lane, 0u, 1u); }
};
struct ChainLevel {
  unsigned char *start_;
  ChainBits bits_;
  __device__ ChainLevel(unsigned char *start) : start_(start) { bits_ = ChainBits(start_ + 64); }
  __device__ void rehash(unsigned i) { bits_ = ChainBits(start_ + i * 4096); }
};
__global__ void handleChainedBlockClaim(void *pool, unsigned *won) {
  ChainLevel level(reinterpret_cast<unsigned char *>(pool));
  unsigned lane = threadIdx.x % 32;
  for (unsigned attempt = 0; attempt < 4; attempt++) {
    if (level.bits_.claim(lane) == 0u) {
      won[blockIdx.x * blockDim.x + threadIdx.x] = attempt;
      return;
    }
    level.rehash(attempt + 1);
  }
}

// LITMUS: forbidden
// The same claims at device scope.
struct ChainBitsDevice {
  unsigned *words;
  ChainBitsDevice() = default;
  __device__ ChainBitsDevice(unsigned char *start) { words = reinterpret_cast<unsigned *>(start); }
  __device__ unsigned claim(unsigned lane) { return atomicCAS(words + lane, 0u, 1u); }
};
struct ChainLevelDevice {
  unsigned char *start_;
  ChainBitsDevice bits_;
  __device__ ChainLevelDevice(unsigned char *start) : start_(start) { bits_ = ChainBitsDevice(start_ + 64); }
  __device__ void rehash(unsigned i) { bits_ = ChainBitsDevice(start_ + i * 4096); }
};
__global__ void handleChainedDeviceClaim(void *pool, unsigned *won) {
  ChainLevelDevice level(reinterpret_cast<unsigned char *>(pool));
  unsigned lane = threadIdx.x % 32;
  for (unsigned attempt = 0; attempt < 4; attempt++) {
    if (level.bits_.claim(lane) == 0u) {
      won[blockIdx.x * blockDim.x + threadIdx.x] = attempt;
      return;
    }
    level.rehash(attempt + 1);
  }
}
