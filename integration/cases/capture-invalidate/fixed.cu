// capture-invalidate, fixed: stream-ordered allocation inside the capture, and no synchronization until the graph is launched.
#include "../../common/harness.cuh"

constexpr int kReplays = 10;

__global__ void add_one(int* counter) { atomicAdd(counter, 1); }

int main() {
  const char* name = "capture-invalidate";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* counter;
  HARNESS_CHECK(cudaMalloc(&counter, sizeof(int)));
  harness::Json codes, ends;
  int failures = 0, captures = 0, replays = 0, missing = 0;
  // Ends capture `step`; if a graph came back, replays it and checks that each replay added 2 to the counter.
  // `call` is the API call made inside the capture (none: nullptr) and `code` what it returned.
  auto finish = [&](const char* step, const char* call, cudaError_t code) {
    cudaGraph_t graph = nullptr;
    const cudaError_t end = cudaStreamEndCapture(s, &graph);
    cudaGetLastError();
    if (call) codes.num(call, code);
    ends.num(step, end);
    failures += (code != cudaSuccess) + (end != cudaSuccess);
    ++captures;
    if (end == cudaSuccess && graph) {
      missing += harness::replay_and_count_missing(graph, s, counter, 2, kReplays);
      replays += kReplays;
      HARNESS_CHECK(cudaGraphDestroy(graph));
    }
    printf("%-12s %-22s -> %s (%d); cudaStreamEndCapture -> %s (%d)\n", step, call ? call : "(no call)",
           cudaGetErrorName(code), code, cudaGetErrorName(end), end);
  };

  // 1. allocating memory for the captured work
  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 1, 0, s>>>(counter);
  int* scratch = nullptr;
  cudaError_t code = cudaMallocAsync(&scratch, 1 << 20, s);  // FIX: stream-ordered allocation, captured as a graph node
  add_one<<<1, 1, 0, s>>>(counter);
  HARNESS_CHECK(cudaFreeAsync(scratch, s));  // FIX: freed in the graph too
  finish("alloc", "cudaMallocAsync", code);

  // 2. waiting for the captured stream
  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 1, 0, s>>>(counter);
  // FIX: no cudaStreamSynchronize inside the capture: the host waits after launching the graph
  add_one<<<1, 1, 0, s>>>(counter);
  finish("stream-sync", nullptr, cudaSuccess);

  // 3. waiting for the device
  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 1, 0, s>>>(counter);
  // FIX: no cudaDeviceSynchronize inside the capture: the host waits after launching the graph
  add_one<<<1, 1, 0, s>>>(counter);
  finish("device-sync", nullptr, cudaSuccess);

  harness::result(name, variant, captures, failures)
      .obj("error_codes", codes)
      .obj("end_capture", ends)
      .num("replays", replays)
      .num("replay_missing", missing)
      .print();
  return 0;
}
