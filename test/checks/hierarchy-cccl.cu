// The hierarchy rules stay silent on CCCL's own kernels, in both front ends: CUB's reduce-by-key
// and segmented radix sort (whose barriers and conditions are wholly inside the toolkit's headers;
// neither front end analyses a library's functions) and a cooperative-groups user.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask,cuda-scope-grid-sync' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask,cuda-scope-grid-sync' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='remark:'
#include <cub/cub.cuh>

void reduceByKey(int *K, int *UK, int *V, int *Agg, int *NR, int N) {
  void *Tmp = nullptr;
  size_t Bytes = 0;
  cub::DeviceReduce::ReduceByKey(Tmp, Bytes, K, UK, V, Agg, NR, cuda::std::plus<>{}, N);
}

void segmentedSort(int *K, int *O, int *Off, int N, int Segs) {
  void *Tmp = nullptr;
  size_t Bytes = 0;
  cub::DeviceSegmentedRadixSort::SortKeys(Tmp, Bytes, K, O, N, Segs, Off, Off + 1);
  cub::DeviceSegmentedSort::SortKeys(Tmp, Bytes, K, O, N, Segs, Off, Off + 1);
}
