// Layer entry [managed]: clang 22 ignores the managed attribute in CUDA (it is HIP's), so a
// __managed__ variable is a host variable and device code may not use it. The layer declares it
// __device__: device and host code both use it, as with nvcc.
//   gunrock include/gunrock/framework/benchmark.hxx:54   (a __managed__ counter read in device code)
//   HeCBench logic-rewrite-cuda/rewrite.cu:335
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only %toolkit_device_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: reference to __host__ variable 'Counter' in __global__ function
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
#include <cuda_runtime.h>

__managed__ unsigned long long Counter;

__global__ void count() { atomicAdd(&Counter, 1ULL); }

unsigned long long run(int Blocks) {
  Counter = 0;
  count<<<Blocks, 32>>>();
  cudaDeviceSynchronize();
  return Counter;
}
