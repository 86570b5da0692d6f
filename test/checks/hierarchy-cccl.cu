// The hierarchy rules stay silent on CCCL's own kernels, in both front ends: CUB's reduce-by-key
// and segmented radix sort (whose barriers and conditions are wholly inside the toolkit's headers;
// neither front end analyses a library's functions), a cooperative-groups user, and a kernel of the
// user's own built of CUB's warp and block collectives (whose shared-memory exchanges, inlined into
// the user's kernel in the IR, are ordered by CUB's own __syncwarp and __syncthreads).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask,cuda-scope-grid-sync,cuda-scope-grid-barrier,cuda-scope-warp-race' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask,cuda-scope-grid-sync,cuda-scope-grid-barrier,cuda-scope-warp-race' %s -- %toolkit_device_flags \
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

__global__ void collectives(const int *In, int *Out) {
  using WarpReduce = cub::WarpReduce<int>;
  using WarpScan = cub::WarpScan<int>;
  using BlockReduce = cub::BlockReduce<int, 128>;
  __shared__ typename WarpReduce::TempStorage Reduce[4];
  __shared__ typename WarpScan::TempStorage Scan[4];
  __shared__ typename BlockReduce::TempStorage Block;
  const int Warp = threadIdx.x / 32;
  int V = In[blockIdx.x * 128 + threadIdx.x];
  int Sum = WarpReduce(Reduce[Warp]).Sum(V);
  int Prefix = 0;
  WarpScan(Scan[Warp]).ExclusiveSum(V, Prefix);
  int Total = BlockReduce(Block).Sum(V);
  Out[blockIdx.x * 128 + threadIdx.x] = Sum + Prefix + Total;
}
