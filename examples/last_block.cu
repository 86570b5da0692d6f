// The "last block" reduction, as it is often written: every block writes its partial sum, draws a
// ticket, and the block that draws the last one adds the partials up. With no __threadfence()
// before the ticket nor after it, the last block can read partials that are not visible to it yet
// (cuda-scope-release-acquire, from both the clang-tidy check and the device-IR pass). On an H100
// the integration twin of this program got 50,462 wrong totals in 20,480,000 sums.
#include <cuda_runtime.h>

__device__ unsigned Ticket;

__global__ void sum(const float *In, float *Partials, float *Total, int N) {
  __shared__ float Block[256];
  __shared__ bool IsLast;
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Block[threadIdx.x] = I < N ? In[I] : 0.0f;
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S /= 2) {
    if (threadIdx.x < S)
      Block[threadIdx.x] += Block[threadIdx.x + S];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Partials[blockIdx.x] = Block[0];
    // Missing here: __threadfence(), so that the partial is visible before the ticket is drawn.
    unsigned T = atomicAdd(&Ticket, 1u);
    IsLast = T == gridDim.x - 1;
  }
  __syncthreads();
  if (IsLast && threadIdx.x == 0) {
    // Missing here: __threadfence(), so that the partials are read after the last ticket.
    float Sum = 0;
    for (unsigned B = 0; B < gridDim.x; ++B)
      Sum += Partials[B];
    *Total = Sum;
    Ticket = 0;
  }
}

int main() {
  const int N = 1 << 20, Threads = 256, Blocks = (N + Threads - 1) / Threads;
  float *In, *Partials, *Total;
  cudaMalloc(&In, N * sizeof(float));
  cudaMalloc(&Partials, Blocks * sizeof(float));
  cudaMalloc(&Total, sizeof(float));
  cudaMemset(In, 0, N * sizeof(float));
  sum<<<Blocks, Threads>>>(In, Partials, Total, N);
  cudaDeviceSynchronize();
  cudaFree(In);
  cudaFree(Partials);
  cudaFree(Total);
  return 0;
}
