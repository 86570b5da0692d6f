// capture-cross-file, bug: a capture calls reduce_sum (reduce.cu), which runs a CUB reduction, copies the sum to the host with cudaMemcpy and synchronizes the stream.
#include "../../../common/harness.cuh"
#include "reduce.h"

constexpr int kN = 1 << 20;
constexpr int kReplays = 10;

__global__ void ones(float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 1.0f;
}

int main() {
  const char* name = "capture-cross-file";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float* in;
  HARNESS_CHECK(cudaMalloc(&in, kN * sizeof(float)));
  ones<<<256, 256, 0, s>>>(in, kN);
  HARNESS_CHECK(cudaStreamSynchronize(s));
  Reducer r = make_reducer(in, kN);

  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  const cudaError_t code = reduce_sum(r, s);
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &graph);
  cudaGetLastError();
  int failures = (code != cudaSuccess) + (end != cudaSuccess);
  int replays = 0, missing = 0;
  if (end == cudaSuccess && graph) {
    cudaGraphExec_t exec;
    HARNESS_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < kReplays; ++i) {
      *r.host = -1.0f;
      HARNESS_CHECK(cudaGraphLaunch(exec, s));
      HARNESS_CHECK(cudaStreamSynchronize(s));
      ++replays;
      missing += *r.host != float(kN);
    }
    HARNESS_CHECK(cudaGraphExecDestroy(exec));
    HARNESS_CHECK(cudaGraphDestroy(graph));
  }
  failures += missing;
  printf("reduce_sum -> %s (%d); cudaStreamEndCapture -> %s (%d); %d of %d replays without the sum\n",
         cudaGetErrorName(code), code, cudaGetErrorName(end), end, missing, replays);
  harness::Json codes;
  codes.num("reduce_sum", code);
  harness::result(name, variant, 1 + replays, failures)
      .obj("error_codes", codes)
      .num("end_capture", end)
      .num("replays", replays)
      .num("replay_missing", missing)
      .print();
  return 0;
}
