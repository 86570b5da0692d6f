// capture-legacy-launch, fixed: every kernel of the captured work is launched on the capture stream.
#include "../../common/harness.cuh"

constexpr int kReplays = 10;

__global__ void add_one(int* counter) { atomicAdd(counter, 1); }

int main() {
  const char* name = "capture-legacy-launch";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreate(&s));  // a blocking stream: it synchronizes with the legacy default stream
  int* counter;
  HARNESS_CHECK(cudaMalloc(&counter, sizeof(int)));

  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 1, 0, s>>>(counter);
  add_one<<<1, 1, 0, s>>>(counter);  // FIX: launch on the capture stream
  const cudaError_t launch = cudaGetLastError();
  add_one<<<1, 1, 0, s>>>(counter);
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &graph);
  cudaGetLastError();

  int replays = 0, missing = 0;
  if (end == cudaSuccess && graph) {
    missing = harness::replay_and_count_missing(graph, s, counter, 3, kReplays);
    replays = kReplays;
  }
  printf("kernel launch during the capture -> %s (%d); cudaStreamEndCapture -> %s (%d); %d of %d replays missing work\n",
         cudaGetErrorName(launch), launch, cudaGetErrorName(end), end, missing, replays);
  harness::Json codes;
  codes.num("kernel launch", launch);
  harness::result(name, variant, 1, (launch != cudaSuccess) + (end != cudaSuccess) + missing)
      .obj("error_codes", codes)
      .num("end_capture", end)
      .num("replays", replays)
      .num("replay_missing", missing)
      .print();
  return 0;
}
