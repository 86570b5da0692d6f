// Mutants that the benchmark leaves out, one of each reason: equivalent by the text, dropped by the
// preprocessor or never generated, and no longer compiling.
#include <cstdio>

struct Pair {
  int lo, hi;
};

// The project's own overload of atomicAdd: there is no atomicAdd_block for it.
__device__ Pair atomicAdd(Pair *p, Pair v) {
  return Pair{atomicAdd_block(&p->lo, v.lo), atomicAdd_block(&p->hi, v.hi)};
}

__global__ void histogram(const int *in, int n, int *bins, Pair *sums) {
  __shared__ int local[16];
  if (threadIdx.x < 16)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] & 15], 1); // shared memory: block scope is all there is
  __syncthreads();
  if (threadIdx.x < 16)
    bins[blockIdx.x * 16 + threadIdx.x] = local[threadIdx.x];
  atomicAdd(sums, Pair{1, 2});
#ifdef LEFTOUT_TRACE
  __threadfence();
  printf("block %d done\n", blockIdx.x);
#endif
  __threadfence();
  __threadfence_system(); // the system fence orders all the device fence does
}

int main() {
  int *in, *bins;
  Pair *sums;
  cudaMalloc(&in, 1024 * sizeof(int));
  cudaMalloc(&bins, 4 * 16 * sizeof(int));
  cudaMalloc(&sums, sizeof(Pair));
  histogram<<<4, 256>>>(in, 1024, bins, sums);
  return cudaDeviceSynchronize() != cudaSuccess;
}

// An inline helper nothing in the file calls: neither side generates any code for it, so no mutant
// of it changes what runs (the same LLVM IR at -O0 on both sides).
inline __device__ void publishUnused(int *data, int *flag) {
  data[0] = 1;
  __threadfence();
  atomicExch(flag, 1);
}
