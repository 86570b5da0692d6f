// An empty braced list assigned to a type with several assignment operators (cuda_fp16.h's half2):
// nvcc takes the copy assignment, clang 22 finds the call ambiguous.
#include <cuda_fp16.h>
__global__ void clear(half2 *Out) {
  half2 R;
  R = {};
  Out[threadIdx.x] = R;
}

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
