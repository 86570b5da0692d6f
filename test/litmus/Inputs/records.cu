// Records copied whole, as a tree's nodes are: a node read by value after a flag is a read of
// every field the writer stored before its release, whatever the record's shape. The IR copies
// the bytes; the AST front end must name the same fields: those a base class declares, and the
// members of a union (which all name its bytes).

struct Pod {
  float lo, hi;
};
struct Bounds : Pod {
  __device__ Bounds() {}
};
struct TreeNode {
  Bounds bounds;
  union {
    struct {
      unsigned long long offset : 48;
      unsigned long long count : 16;
    };
    unsigned long long bits;
  } admin;
};

// LITMUS: allowed cuda-scope-release-acquire
// A bottom-up refit of a heap-ordered tree: each child writes its node's bounds (fields of the base class), fences, then
// counts itself in at the parent; the second to arrive copies both children whole, with no fence
// after its count.
__global__ void refitCopyNoAcquire(TreeNode *nodes, unsigned *arrivals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1 || i >= n)
    return;
  nodes[i].bounds.lo = i;
  nodes[i].bounds.hi = i + 1;
  __threadfence();
  int p = (i - 1) / 2; // a heap's parent: two children share it
  if (atomicAdd(&arrivals[p], 1u) == 1) {
    TreeNode left = nodes[2 * p + 1];
    TreeNode right = nodes[2 * p + 2];
    nodes[p].bounds.lo = fminf(left.bounds.lo, right.bounds.lo);
  }
}

// LITMUS: forbidden
// The same refit with a fence after the count: the copies read what the children released.
__global__ void refitCopyOrdered(TreeNode *nodes, unsigned *arrivals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1 || i >= n)
    return;
  nodes[i].bounds.lo = i;
  nodes[i].bounds.hi = i + 1;
  __threadfence();
  int p = (i - 1) / 2; // a heap's parent: two children share it
  if (atomicAdd(&arrivals[p], 1u) == 1) {
    __threadfence();
    TreeNode left = nodes[2 * p + 1];
    TreeNode right = nodes[2 * p + 2];
    nodes[p].bounds.lo = fminf(left.bounds.lo, right.bounds.lo);
  }
}
