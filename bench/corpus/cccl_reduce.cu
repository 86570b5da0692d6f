// Benchmark corpus: block-level CUB primitives, a graph capture, libcu++ barriers.
#include <cub/block/block_reduce.cuh>
#include <cuda/barrier>
#include <cuda/std/atomic>
#include <cuda_runtime.h>

template <int Threads> __global__ void reduce(const float *In, float *Out, int N) {
  using Reduce = cub::BlockReduce<float, Threads>;
  __shared__ typename Reduce::TempStorage Temp;
  int I = blockIdx.x * Threads + threadIdx.x;
  float V = I < N ? In[I] : 0.0f;
  float Sum = Reduce(Temp).Sum(V);
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Sum;
}

void capture(cudaStream_t S, const float *In, float *Out, int N, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  reduce<256><<<(N + 255) / 256, 256, 0, S>>>(In, Out, N);
  cudaStreamEndCapture(S, G);
}
