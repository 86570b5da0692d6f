// capture-silent-escape, fixed: the memset and the copy are stream-ordered on the capture stream, so every replay runs them.
#include "../../common/harness.cuh"

constexpr int kN = 1024, kReplays = 100;

__global__ void count_replay(int* replays) { ++*replays; }
__global__ void accumulate(int* acc, const int* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += in[i];
}

int main() {
  const char* name = "capture-silent-escape";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *acc, *in, *replays_seen, *host_in;
  HARNESS_CHECK(cudaMalloc(&acc, sizeof(int) * kN));
  HARNESS_CHECK(cudaMalloc(&in, sizeof(int) * kN));
  HARNESS_CHECK(cudaMalloc(&replays_seen, sizeof(int)));
  HARNESS_CHECK(cudaMemset(replays_seen, 0, sizeof(int)));
  HARNESS_CHECK(cudaMallocHost(&host_in, sizeof(int) * kN));
  for (int i = 0; i < kN; ++i) host_in[i] = -1;  // no input yet

  // The graph: count the replay, clear the accumulator, copy the input in, add the input to the accumulator.
  HARNESS_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  count_replay<<<1, 1, 0, s>>>(replays_seen);
  const cudaError_t memset_code = cudaMemsetAsync(acc, 0, sizeof(int) * kN, s);  // FIX: captured as a graph node
  const cudaError_t copy_code = cudaMemcpyAsync(in, host_in, sizeof(int) * kN, cudaMemcpyHostToDevice, s);  // FIX: captured as a graph node
  accumulate<<<(kN + 255) / 256, 256, 0, s>>>(acc, in, kN);
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &graph);
  cudaGetLastError();

  // Replay r feeds the input r: afterwards `in` must hold r (copied) and `acc` must hold r (cleared, then added).
  int replays = 0, missing = 0, copy_missing = 0, reset_missing = 0, seen = 0;
  if (end == cudaSuccess && graph) {
    cudaGraphExec_t exec;
    HARNESS_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    static int h_acc[kN], h_in[kN];
    for (int r = 1; r <= kReplays; ++r, ++replays) {
      for (int i = 0; i < kN; ++i) host_in[i] = r;
      HARNESS_CHECK(cudaGraphLaunch(exec, s));
      HARNESS_CHECK(cudaStreamSynchronize(s));
      HARNESS_CHECK(cudaMemcpy(h_acc, acc, sizeof h_acc, cudaMemcpyDeviceToHost));
      HARNESS_CHECK(cudaMemcpy(h_in, in, sizeof h_in, cudaMemcpyDeviceToHost));
      bool copied = true, reset = true;
      for (int i = 0; i < kN; ++i) {
        copied &= h_in[i] == r;
        reset &= h_acc[i] == h_in[i];
      }
      copy_missing += !copied;
      reset_missing += !reset;
      missing += !(copied && reset);
    }
    HARNESS_CHECK(cudaGraphExecDestroy(exec));
    HARNESS_CHECK(cudaMemcpy(&seen, replays_seen, sizeof seen, cudaMemcpyDeviceToHost));
  }
  printf("cudaMemset -> %d, cudaMemcpy -> %d, cudaStreamEndCapture -> %d; the graph ran %d times; "
         "%d of %d replays missing work (copy missing %d, reset missing %d)\n",
         memset_code, copy_code, end, seen, missing, replays, copy_missing, reset_missing);
  harness::Json codes;
  codes.num("cudaMemsetAsync", memset_code).num("cudaMemcpyAsync", copy_code);
  harness::result(name, variant, replays, missing + (memset_code != cudaSuccess) + (copy_code != cudaSuccess) + (end != cudaSuccess))
      .obj("error_codes", codes)
      .num("end_capture", end)
      .num("replays", replays)
      .num("replays_run", seen)
      .num("replay_missing", missing)
      .num("copy_missing", copy_missing)
      .num("reset_missing", reset_missing)
      .print();
  return 0;
}
