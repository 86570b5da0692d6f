// blockIdx.x and threadIdx.x (unsigned) narrowed to int in braced initializers: nvcc warns,
// clang 22 rejects it unless -Wno-c++11-narrowing.
#include <cuda_runtime.h>
__global__ void coords(int2 *Out) {
  int2 P{blockIdx.x, threadIdx.y};
  int Lane[] = {threadIdx.x};
  Out[Lane[0]] = P;
}

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
