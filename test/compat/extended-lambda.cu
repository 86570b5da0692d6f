// Layer entry [extended-lambda]: under --extended-lambda nvcc's cuda_runtime.h includes <functional>,
// and libstdc++'s <functional> brings <vector>, <unordered_map> and std::sort. A header that names
// them with no include of its own builds with nvcc and the flag:
//   MVGpuBTree include/gpu_blink_tree.hpp:882     std::sort(...)  (<algorithm> is included later)
//   MVGpuBTree include/memory_reclaimer.hpp:114   std::vector<...> (never included)
// The cuda-scope command turns the flag into -D__CUDA_SCOPE_EXTENDED_LAMBDA=1 (nvcc-translate.test).
// REQUIRES: cuda-toolkit
// Without the flag's macro clang rejects it, with the layer or not:
// RUN: not %clang -fsyntax-only %toolkit_host_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: error: no member named 'sort' in namespace 'std'
// CLANG-DAG: error: no template named 'vector' in namespace 'std'
// With it, both sides parse:
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags -D__CUDA_SCOPE_EXTENDED_LAMBDA=1 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags -D__CUDA_SCOPE_EXTENDED_LAMBDA=1 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
#include <cuda_runtime.h>
#include <utility>

template <typename Pair> void sortPairs(Pair *First, Pair *Last) { std::sort(First, Last); }

struct Reclaimer {
  std::vector<std::pair<unsigned, unsigned>> Retired;
};

__global__ void touch(unsigned *Out) { Out[threadIdx.x] = threadIdx.x; }
