// Multicast memory (sm_90): multimem.st writes every device's copy of an object, multimem.red
// updates every copy, multimem.ld_reduce reads every copy and combines the values. Each is a
// memory access of its object like any other: weak unless it names a semantics, and a flag or
// data of a message as the code uses it. Both front ends read the PTX with the one parser.
#include <cuda/atomic>

using Sys = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;

__device__ __forceinline__ void mcStore(float *mc, float v) {
  asm volatile("multimem.st.global.f32 [%0], %1;" ::"l"(mc), "f"(v) : "memory");
}
__device__ __forceinline__ float mcLoadSum(const float *mc) {
  float v;
  asm volatile("multimem.ld_reduce.global.add.f32 %0, [%1];" : "=f"(v) : "l"(mc) : "memory");
  return v;
}

// LITMUS: allowed cuda-scope-release-acquire
// Data stored to every copy with multimem.st, then the flag set with a relaxed multimem.red: no
// release between, so a reader that sees the flag may read a copy not yet written.
__global__ void multimemRelaxedSignal(float *mc, unsigned *flag, float *out) {
  if (blockIdx.x == 0) {
    mcStore(mc + threadIdx.x, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0)
      asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], 1;" ::"l"(flag) : "memory");
  } else {
    if (threadIdx.x == 0)
      while (Sys(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = mcLoadSum(mc + threadIdx.x);
  }
}

// LITMUS: forbidden
// The flag set with multimem.red.release: the release orders the block's stores before it.
__global__ void multimemReleaseSignal(float *mc, unsigned *flag, float *out) {
  if (blockIdx.x == 0) {
    mcStore(mc + threadIdx.x, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0)
      asm volatile("multimem.red.release.sys.global.add.u32 [%0], 1;" ::"l"(flag) : "memory");
  } else {
    if (threadIdx.x == 0)
      while (Sys(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = mcLoadSum(mc + threadIdx.x);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The reader waits with a relaxed load and reads every copy with multimem.ld_reduce: no acquire
// between the flag and the data.
__global__ void multimemRelaxedWait(float *mc, unsigned *flag, float *out) {
  if (blockIdx.x == 0) {
    mcStore(mc + threadIdx.x, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0)
      asm volatile("multimem.red.release.sys.global.add.u32 [%0], 1;" ::"l"(flag) : "memory");
  } else {
    if (threadIdx.x == 0)
      while (Sys(*flag).load(cuda::memory_order_relaxed) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = mcLoadSum(mc + threadIdx.x);
  }
}
