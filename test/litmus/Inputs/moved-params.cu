// A kernel that moves its pointer parameters to the block's own part first (out += blockIdx.x *
// k;, one batch per block), then works through them: every access after the move is to that
// block's part, which no other block touches, so a block scope includes every thread that does.
// The device IR computes the moved address in SSA form; the AST front end must add the step to
// the parameter's accesses the same way, or it takes every block for one part.
#include <cuda/atomic>

// LITMUS: forbidden
// One block per batch: the block-scope and the device-scope atomics meet only this block's threads.
__global__ void movedToBlockPart(const int *in, int *out, int k) {
  in += blockIdx.x * k;
  out += blockIdx.x * k;
  cuda::atomic_ref<int, cuda::thread_scope_block> last(out[k - 1]);
  if (in[threadIdx.x] < last.load(cuda::memory_order_relaxed))
    atomicMin(&out[threadIdx.x % k], in[threadIdx.x]);
}

// LITMUS: allowed cuda-scope-mismatch
// The step does not depend on the block: every block works on the same part.
__global__ void movedByConstant(const int *in, int *out, int k) {
  out += k;
  cuda::atomic_ref<int, cuda::thread_scope_block> last(out[k - 1]);
  if (in[threadIdx.x] < last.load(cuda::memory_order_relaxed))
    atomicMin(&out[threadIdx.x % k], in[threadIdx.x]);
}

// LITMUS: allowed cuda-scope-mismatch
// The move comes after the block-scope read: that read is of the part every block shares.
__global__ void movedAfterUse(const int *in, int *out, int k) {
  cuda::atomic_ref<int, cuda::thread_scope_block> last(out[k - 1]);
  int bound = last.load(cuda::memory_order_relaxed);
  out += blockIdx.x * k;
  if (in[threadIdx.x] < bound)
    atomicMin(&out[threadIdx.x % k], in[threadIdx.x]);
}

// LITMUS: allowed cuda-scope-mismatch
// The move is made in a branch some blocks skip: those blocks share the base part.
__global__ void movedInBranch(const int *in, int *out, int k, int split) {
  if (blockIdx.x >= split)
    out += blockIdx.x * k;
  cuda::atomic_ref<int, cuda::thread_scope_block> last(out[k - 1]);
  if (in[threadIdx.x] < last.load(cuda::memory_order_relaxed))
    atomicMin(&out[threadIdx.x % k], in[threadIdx.x]);
}
