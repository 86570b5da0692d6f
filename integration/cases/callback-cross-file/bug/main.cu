// callback-cross-file, bug: a host callback releases its buffer through Allocator::release, whose override in allocator.cpp calls cudaFree.
#include <atomic>

#include "../../../common/harness.cuh"
#include "allocator.h"

constexpr int kBuffers = 32;
constexpr size_t kBytes = size_t(16) << 20;  // 16 MiB each

struct Job {
  Allocator* alloc;
  void* buffer;
  cudaError_t err;
  std::atomic<bool> released;
};

// Runs on the stream's callback thread once the kernel that used the buffer is done.
static void CUDART_CB on_done(void* arg) {
  Job* job = static_cast<Job*>(arg);
  job->err = job->alloc->release(job->buffer);  // BUG: a virtual call whose override (another file) calls cudaFree
  job->released = true;                         // BUG: released by the callback
}

__global__ void fill(int* buf, size_t n, int value) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) buf[i] = value;
}

int main() {
  const char* name = "callback-cross-file";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  HARNESS_CHECK(cudaFree(nullptr));  // create the context before measuring memory
  size_t free_before, free_after, total;
  HARNESS_CHECK(cudaMemGetInfo(&free_before, &total));
  Allocator* alloc = device_allocator();
  static Job jobs[kBuffers];
  for (int i = 0; i < kBuffers; ++i) {
    jobs[i].alloc = alloc;
    jobs[i].buffer = alloc->acquire(kBytes);
    jobs[i].err = cudaSuccess;
    jobs[i].released = false;
    if (!jobs[i].buffer) HARNESS_CHECK(cudaErrorMemoryAllocation);
    fill<<<64, 256, 0, s>>>(static_cast<int*>(jobs[i].buffer), kBytes / sizeof(int), i);
    HARNESS_CHECK(cudaLaunchHostFunc(s, on_done, &jobs[i]));
  }
  HARNESS_CHECK(cudaStreamSynchronize(s));
  // What the callbacks did not release, this thread (which may call the CUDA API) releases.
  for (Job& j : jobs)
    if (!j.released) {
      j.err = alloc->release(j.buffer);
      j.released = true;
    }
  HARNESS_CHECK(cudaDeviceSynchronize());
  HARNESS_CHECK(cudaMemGetInfo(&free_after, &total));
  int failures = 0;
  cudaError_t first = cudaSuccess;
  for (Job& j : jobs)
    if (j.err != cudaSuccess) {
      ++failures;
      if (first == cudaSuccess) first = j.err;
    }
  long long leaked = free_before > free_after ? (long long)(free_before - free_after) : 0;
  harness::Json codes;
  codes.num("release", first);
  printf("%d of %d releases failed (first: %s); %lld bytes not returned\n", failures, kBuffers,
         cudaGetErrorName(first), leaked);
  harness::result(name, variant, kBuffers, failures)
      .obj("error_codes", codes)
      .num("failed_frees", failures)
      .num("leaked_bytes", leaked)
      .num("buffer_bytes", (long long)kBytes)
      .print();
  return 0;
}
