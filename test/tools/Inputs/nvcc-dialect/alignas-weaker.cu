// alignas(64) on CUDA 13's CUtensorMap, which cuda.h aligns to 128: nvcc ignores the weaker alignas
// with a warning, clang 22 rejects it.
#include <cuda.h>
#include <cuda_runtime.h>
struct Params { alignas(64) CUtensorMap Map; int N; };
__global__ void useMap(const __grid_constant__ Params P, int *Out) { Out[0] = P.N; }

// The rest of the file: a host callback that calls the CUDA API.
void CUDART_CB release(void *P) { cudaFree(P); }
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, release, P); }
