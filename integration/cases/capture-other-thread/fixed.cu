// capture-other-thread, fixed: the worker and the capture hold one mutex, so the worker's calls never land inside a capture.
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "../../common/harness.cuh"

constexpr int kCaptures = 64;
constexpr int kLaunches = 8;

std::mutex device_lock;  // FIX: held by the worker's calls and by each capture

__global__ void add_one(int* counter) { atomicAdd(counter, 1); }

struct Churn {
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0}, failed{0};
  std::atomic<int> first{0};
};

// The worker: device memory comes and goes, then the device is drained.
static void churn(Churn* c) {
  while (!c->stop) {
    void* p = nullptr;
    cudaError_t e;
    {
      std::lock_guard<std::mutex> hold(device_lock);  // FIX: not while a capture is open
      e = cudaMalloc(&p, 1 << 20);
      if (e == cudaSuccess) e = cudaFree(p);
      if (e == cudaSuccess) e = cudaDeviceSynchronize();
    }
    c->calls++;
    if (e != cudaSuccess) {
      c->failed++;
      int zero = 0;
      c->first.compare_exchange_strong(zero, e);
      cudaGetLastError();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

int main() {
  const char* name = "capture-other-thread";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* counter;
  HARNESS_CHECK(cudaMalloc(&counter, sizeof(int)));
  Churn c;
  std::thread worker(churn, &c);
  int failures = 0, invalidated = 0, wrong = 0;
  cudaError_t first_end = cudaSuccess;
  for (int round = 0; round < kCaptures; ++round) {
    cudaGraph_t graph = nullptr;
    cudaError_t end;
    {
      std::lock_guard<std::mutex> hold(device_lock);  // FIX: the worker waits for the capture
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      cudaMemsetAsync(counter, 0, sizeof(int), s);
      for (int i = 0; i < kLaunches; ++i) {
        add_one<<<1, 1, 0, s>>>(counter);
        std::this_thread::sleep_for(std::chrono::microseconds(200));  // host work while recording
      }
      end = cudaStreamEndCapture(s, &graph);
    }
    int got = -1;
    cudaError_t run = end;
    if (end == cudaSuccess) {
      cudaGraphExec_t exec;
      run = cudaGraphInstantiate(&exec, graph, 0);
      if (run == cudaSuccess) run = cudaGraphLaunch(exec, s);
      if (run == cudaSuccess) run = cudaStreamSynchronize(s);
      if (run == cudaSuccess) run = cudaMemcpy(&got, counter, sizeof(int), cudaMemcpyDeviceToHost);
      cudaGraphExecDestroy(exec);
    } else {
      ++invalidated;
      if (first_end == cudaSuccess) first_end = end;
    }
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    if (run != cudaSuccess || got != kLaunches) {
      ++failures;
      wrong += run == cudaSuccess && got != kLaunches;
    }
  }
  c.stop = true;
  worker.join();
  printf("%d of %d captures failed (%d invalidated, first %s); worker: %d of %d rounds failed (first %s)\n", failures,
         kCaptures, invalidated, cudaGetErrorName(first_end), c.failed.load(), c.calls.load(),
         cudaGetErrorName(static_cast<cudaError_t>(c.first.load())));
  harness::Json codes;
  codes.num("end_capture", first_end);
  codes.num("worker_first", c.first.load());
  harness::result(name, variant, kCaptures, failures + c.failed.load())
      .obj("error_codes", codes)
      .num("invalidated", invalidated)
      .num("wrong_counts", wrong)
      .num("worker_rounds", c.calls.load())
      .num("worker_failed", c.failed.load())
      .print();
  return 0;
}
