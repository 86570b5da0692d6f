// An asm operand number past the operands (%2 of two), in a function nothing calls: nvcc generates
// no code for it and accepts the file; clang 22 checks the statement where it is written.
#include <cuda_runtime.h>
__device__ __forceinline__ unsigned laneMove(unsigned Y) {
  unsigned X;
  asm("mov.u32 %0, %2;" : "=r"(X) : "r"(Y));
  return X;
}
__global__ void fill(unsigned *P) { P[threadIdx.x] = threadIdx.x; }

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
