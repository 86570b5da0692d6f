// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
// CCCL used normally, with no capture anywhere: thousands of header functions,
// none of which the check may report or trip over.
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

__global__ void bump(cuda::atomic<int, cuda::thread_scope_device> *Counter) {
  Counter->fetch_add(1, cuda::memory_order_relaxed);
}

int sum(int N) {
  thrust::device_vector<int> V(N);           // no-warning: no capture
  thrust::sequence(V.begin(), V.end());      // no-warning: no capture
  int *In = thrust::raw_pointer_cast(V.data());
  thrust::device_vector<int> Out(1);
  void *Temp = nullptr;
  size_t Bytes = 0;
  cub::DeviceReduce::Sum(Temp, Bytes, In, Out.data().get(), N); // no-warning: no capture
  cudaMalloc(&Temp, Bytes);                  // no-warning: no capture
  cub::DeviceReduce::Sum(Temp, Bytes, In, Out.data().get(), N); // no-warning: no capture
  cudaFree(Temp);                            // no-warning: no capture
  return thrust::reduce(V.begin(), V.end()) + Out[0]; // no-warning: no capture
}
