// A macro that expands to #pragma unroll: nvcc preprocesses to text first, where the expansion is a
// directive again; clang 22 reads a '#' where an expression should be.
#include <cuda_runtime.h>
#define UNROLL #pragma unroll
__global__ void scale(float *P) {
  UNROLL
  for (int I = 0; I < 4; ++I)
    P[threadIdx.x * 4 + I] *= 2.0f;
}

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
