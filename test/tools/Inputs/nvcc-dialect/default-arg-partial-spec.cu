// A default argument given only on the out-of-line definition of a member of a class template
// partial specialization, and a call that leaves it out: nvcc accepts both, clang 22 rejects both.
#include <cuda_runtime.h>
template <typename T, typename U> struct Tile { __device__ int width(int Pad); };
template <typename T> struct Tile<T, int> { __device__ int width(int Pad); };
template <typename T> __device__ int Tile<T, int>::width(int Pad = 4) { return 32 + Pad; }
__global__ void widths(int *Out) { Tile<float, int> T; Out[threadIdx.x] = T.width(); }

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
