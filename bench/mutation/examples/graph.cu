// Host API example for the mutation benchmark: a stream capture made only of capture-safe calls,
// and a host callback that calls no CUDA API. The analyzer is silent here.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

static void CUDART_CB report(void *user) {
  std::printf("replay %d done\n", *static_cast<int *>(user));
}

int main() {
  const int n = 1 << 16;
  float *host = nullptr, *dev = nullptr;
  cudaMallocHost(&host, n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&dev, n * sizeof(float), s);
  cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<n / 256, 256, 0, s>>>(dev, n);
  cudaMemsetAsync(dev, 0, 16 * sizeof(float), s);
  cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(dev, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  int replay = 0;
  for (replay = 0; replay < 3; ++replay) {
    cudaGraphLaunch(exec, s);
    cudaLaunchHostFunc(s, report, &replay);
    cudaStreamSynchronize(s);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  cudaFreeHost(host);
  return 0;
}
