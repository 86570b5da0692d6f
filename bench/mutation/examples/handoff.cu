// Message passing between two blocks, synchronized three correct ways (the mutation benchmark's
// end-to-end example: the analyzer is silent here, and the mutants break each handoff).
#include <cuda/atomic>
#include <cstdio>

#include "handoff.cuh"

__device__ int data[64];
__device__ unsigned int ready;

// A fence before the relaxed publish, a fence after the relaxed receive.
__global__ void fenced(int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (int i = 0; i < 64; ++i)
      data[i] = i;
    __threadfence();
    atomicExch(&ready, 1u);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(&ready, 0u) == 0u) {
    }
    __threadfence();
    int sum = 0;
    for (int i = 0; i < 64; ++i)
      sum += data[i];
    out[0] = sum; // "a string with __threadfence() and memory_order_release stays"
  }
}

// Release and acquire on a device-scope atomic_ref.
__global__ void ordered(int *buf, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (int i = 0; i < 64; ++i)
      buf[i] = 2 * i;
    f.store(1, cuda::memory_order_release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    int sum = 0;
    for (int i = 0; i < 64; ++i)
      sum += buf[i];
    out[1] = sum;
  }
}

// The same in PTX, through the helpers in handoff.cuh.
__global__ void ptx(int *buf, unsigned int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (int i = 0; i < 64; ++i)
      buf[i] = 3 * i;
    store_release(flag, 1u);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (load_acquire(flag) == 0u) {
    }
    int sum = 0;
    for (int i = 0; i < 64; ++i)
      sum += buf[i];
    out[2] = sum;
  }
}

int main() {
  int *buf, *out, *flag;
  cudaMalloc(&buf, 64 * sizeof(int));
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  fenced<<<2, 32>>>(out);
  ordered<<<2, 32>>>(buf, flag, out);
  cudaMemset(flag, 0, sizeof(int));
  ptx<<<2, 32>>>(buf, reinterpret_cast<unsigned int *>(flag), out);
  int host[3];
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  std::printf("%d %d %d\n", host[0], host[1], host[2]);
  return 0;
}
