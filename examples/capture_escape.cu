// A CUDA graph captured from a non-blocking stream: the synchronous cudaMemset
// inside the capture returns success, runs once, now, and is not part of the
// graph, so every replay accumulates onto stale sums; cudaMalloc inside the
// capture invalidates it. Flagged by cuda-scope-capture-api.
#include <cuda_runtime.h>

__global__ void accumulate(const float *X, float *Sum, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(Sum, X[I]);
}

void buildGraph(cudaStream_t S, const float *X, float *Sum, int N, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemset(Sum, 0, sizeof(float));
  float *Scratch;
  cudaMalloc(&Scratch, N * sizeof(float));
  accumulate<<<(N + 255) / 256, 256, 0, S>>>(X, Sum, N);
  cudaStreamEndCapture(S, G);
}

int main() {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  float *X, *Sum;
  cudaMalloc(&X, 1024 * sizeof(float));
  cudaMalloc(&Sum, sizeof(float));
  cudaGraph_t G;
  buildGraph(S, X, Sum, 1024, &G);
}
