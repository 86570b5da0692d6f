// Source of ../proxy-fence.ll (regenerate with the command in that file).
// Threads fill a shared tile with generic stores; one thread copies it to
// global memory with a bulk copy, which reads shared memory through the
// async proxy.
__device__ __forceinline__ void bulkStore(float *dst, const float *src, unsigned bytes) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(src));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(s), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

__global__ void noFence(float *out) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    bulkStore(out + blockIdx.x * 256, tile, sizeof tile);
}

__global__ void fenced(float *out) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = threadIdx.x;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    bulkStore(out + blockIdx.x * 256, tile, sizeof tile);
}
