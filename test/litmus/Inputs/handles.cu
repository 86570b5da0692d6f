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
