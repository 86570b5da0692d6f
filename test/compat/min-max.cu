// Layer entry [min-max]: nvcc declares min and max __host__ __device__ for every pair of integer
// types and for float and double; clang's are __device__ only, so host code has no candidate.
//   cuda-samples threadFenceReduction.cu:183   blocks = max(1, n / (threads * 2));
//   faiss gpu/GpuDistance.cu:443               min(shard_size, args.numVectors - i)   (long)
//   gunrock framework/experimental/async/enactor.hxx:41   max(single_queue_t(1024), ...)
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only %toolkit_host_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: no matching function for call to 'max'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
#include <cuda_runtime.h>
#include <cstdint>
#include <type_traits>

// The overloads nvcc's crt/math_functions.hpp declares, with its result types.
static_assert(std::is_same<decltype(max(1, 2)), int>::value, "");
static_assert(std::is_same<decltype(max(1u, 2)), unsigned int>::value, "");
static_assert(std::is_same<decltype(min(1, 2u)), unsigned int>::value, "");
static_assert(std::is_same<decltype(min(1L, 2L)), long>::value, "");
static_assert(std::is_same<decltype(max(1L, 2UL)), unsigned long>::value, "");
static_assert(std::is_same<decltype(max(1LL, 2LL)), long long>::value, "");
static_assert(std::is_same<decltype(min(1ULL, 2LL)), unsigned long long>::value, "");
static_assert(std::is_same<decltype(max(1.0f, 2.0f)), float>::value, "");
static_assert(std::is_same<decltype(min(1.0f, 2.0)), double>::value, "");

int blocksFor(int N, int Threads) { return max(1, N / (Threads * 2)); }
long shard(long ShardSize, long NumVectors, long I) { return min(ShardSize, NumVectors - I); }
uint64_t capacity(uint64_t Vertices, uint64_t Factor) {
  return min(uint64_t(1) << 30, max(uint64_t(1024), Vertices * Factor));
}
// Device code keeps clang's and CUDA's __device__ overloads.
__global__ void clamp(int *Out, unsigned N) { Out[threadIdx.x] = max(threadIdx.x, 3) + min(N, 7u); }
