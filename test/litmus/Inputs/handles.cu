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
