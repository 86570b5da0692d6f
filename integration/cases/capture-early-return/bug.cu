// capture-early-return, bug: a function that records work into a graph returns early on an error with the capture still open; the stream stays in capture mode, and the caller's fallback on it fails.
#include "../../common/harness.cuh"

constexpr int kMaxWork = 4;
constexpr int kRounds = 16;

__global__ void add_one(int* counter) { atomicAdd(counter, 1); }

// Records `work` launches into *graph; refuses more than kMaxWork.
cudaError_t record(cudaStream_t s, int* counter, int work, cudaGraph_t* graph) {
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess) return err;
  for (int i = 0; i < work && i < kMaxWork; ++i) add_one<<<1, 1, 0, s>>>(counter);
  if (work > kMaxWork) {
    return cudaErrorInvalidValue;  // BUG: returns with the capture of s still open
  }
  return cudaStreamEndCapture(s, graph);
}

int main() {
  const char* name = "capture-early-return";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* counter;
  HARNESS_CHECK(cudaMalloc(&counter, sizeof(int)));
  int failures = 0, fallbacks = 0, wrong = 0;
  cudaError_t first = cudaSuccess;
  for (int round = 0; round < kRounds; ++round) {
    const int work = round % 2 ? kMaxWork + 1 : kMaxWork;  // every other round asks for too much
    cudaMemsetAsync(counter, 0, sizeof(int), s);
    cudaGraph_t graph = nullptr;
    cudaError_t err = record(s, counter, work, &graph);
    cudaError_t run = cudaSuccess;
    if (err == cudaSuccess) {
      cudaGraphExec_t exec;
      run = cudaGraphInstantiate(&exec, graph, 0);
      if (run == cudaSuccess) run = cudaGraphLaunch(exec, s);
      if (run == cudaSuccess) run = cudaStreamSynchronize(s);
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
    } else {
      // The fallback: run the work directly on the stream.
      ++fallbacks;
      for (int i = 0; i < work; ++i) add_one<<<1, 1, 0, s>>>(counter);
      run = cudaStreamSynchronize(s);
    }
    int got = -1;
    cudaError_t copy = cudaMemcpy(&got, counter, sizeof(int), cudaMemcpyDeviceToHost);
    const bool bad = run != cudaSuccess || copy != cudaSuccess || got != work;
    if (bad) {
      ++failures;
      wrong += got != work;
      if (first == cudaSuccess) first = run != cudaSuccess ? run : copy;
    }
    cudaGetLastError();
  }
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(s, &status);
  printf("%d of %d rounds failed (first error %s); %d fallbacks; stream still capturing at the end: %s\n", failures,
         kRounds, cudaGetErrorName(first), fallbacks, status == cudaStreamCaptureStatusActive ? "yes" : "no");
  harness::Json codes;
  codes.num("first_error", first);
  harness::result(name, variant, kRounds, failures)
      .obj("error_codes", codes)
      .num("fallbacks", fallbacks)
      .num("wrong_counts", wrong)
      .num("capturing_at_end", status == cudaStreamCaptureStatusActive)
      .print();
  return 0;
}
