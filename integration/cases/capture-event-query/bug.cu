// capture-event-query, bug: cudaEventQuery on an event recorded inside the stream capture.
#include "../../common/harness.cuh"

constexpr int kReplays = 10;

__global__ void add_one(int* counter) { atomicAdd(counter, 1); }

int main() {
  const char* name = "capture-event-query";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t done;
  HARNESS_CHECK(cudaEventCreate(&done));
  int* counter;
  HARNESS_CHECK(cudaMalloc(&counter, sizeof(int)));

  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 1, 0, s>>>(counter);
  HARNESS_CHECK(cudaEventRecord(done, s));
  cudaError_t query = cudaEventQuery(done);  // BUG: the event was recorded in the capture: it marks no real work yet
  add_one<<<1, 1, 0, s>>>(counter);
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &graph);
  cudaGetLastError();

  int replays = 0, missing = 0;
  if (end == cudaSuccess && graph) {
    missing = harness::replay_and_count_missing(graph, s, counter, 2, kReplays);
    replays = kReplays;
  }
  printf("cudaEventQuery -> %s (%d); cudaStreamEndCapture -> %s (%d); %d of %d replays missing work\n",
         cudaGetErrorName(query), query, cudaGetErrorName(end), end, missing, replays);
  harness::Json codes;
  codes.num("cudaEventQuery", query);
  harness::result(name, variant, 1, (query != cudaSuccess) + (end != cudaSuccess) + missing)
      .obj("error_codes", codes)
      .num("end_capture", end)
      .num("replays", replays)
      .num("replay_missing", missing)
      .print();
  return 0;
}
