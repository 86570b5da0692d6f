// Source of ../cluster-wait.ll (regenerate with the command in that file).
// Each block of a 2-block cluster publishes a value in its shared memory, arrives on the cluster
// barrier, and reads its neighbour's value through distributed shared memory.
__device__ __forceinline__ unsigned neighbourAddress(const int *local, unsigned rank) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(local)), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(s), "r"(rank));
  return remote;
}
__device__ __forceinline__ int readRemote(unsigned addr) {
  int v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}

__global__ void __cluster_dims__(2, 1, 1) noWait(int *out) {
  __shared__ int slot;
  if (threadIdx.x == 0)
    slot = blockIdx.x;
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  int v = readRemote(neighbourAddress(&slot, blockIdx.x ^ 1));
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void __cluster_dims__(2, 1, 1) waited(int *out) {
  __shared__ int slot;
  if (threadIdx.x == 0)
    slot = blockIdx.x;
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
  int v = readRemote(neighbourAddress(&slot, blockIdx.x ^ 1));
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
