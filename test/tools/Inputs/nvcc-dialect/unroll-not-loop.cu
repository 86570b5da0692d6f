// #pragma unroll before a statement that is not a loop: nvcc ignores the pragma with a warning,
// clang 22 rejects it.
#include <cuda_runtime.h>
__global__ void scale(float *P) {
#pragma unroll 4
  { P[threadIdx.x] *= 2.0f; }
}

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
