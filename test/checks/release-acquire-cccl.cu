// The toolkit's CCCL headers are correct code: CUB's decoupled look-back (the single-pass scan,
// whose tile status and value travel in one atomic word), the onesweep radix sort, libcu++'s
// barrier and latch, and cooperative groups' grid sync give no finding, on either side, next to
// user kernels that pass messages correctly.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// With AcrossKernels the TU's kernels are read together: still nothing.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' \
// RUN:   -config="{CheckOptions: {cuda-scope-release-acquire.AcrossKernels: true}}" %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/latch>
#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

namespace cg = cooperative_groups;

// A persistent producer/consumer pair through a device-scope flag, with CUB's block reduction on
// each side: release and acquire, no finding.
__global__ void produceConsume(const int *In, int *Buffer, int *Flag, int *Out) {
  using Reduce = cub::BlockReduce<int, 128>;
  __shared__ typename Reduce::TempStorage Temp;
  int Sum = Reduce(Temp).Sum(In[blockIdx.x * blockDim.x + threadIdx.x]);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      Buffer[0] = Sum;
      cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_release);
    }
  } else if (threadIdx.x == 0) {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = Buffer[0] + Sum;
  }
}

// A cooperative kernel: every block writes, the grid syncs, every block reads another's.
__global__ void gridSync(int *Data, int *Out) {
  Data[blockIdx.x] = blockIdx.x;
  cg::this_grid().sync();
  Out[blockIdx.x] = Data[(blockIdx.x + 1) % gridDim.x];
}

// A device-scope barrier and a latch between writes and reads of other blocks' data.
__global__ void barrierAndLatch(int *Data, int *Out, cuda::barrier<cuda::thread_scope_device> *Bar,
                                cuda::std::latch *Latch) {
  Data[blockIdx.x] = 1;
  Bar->arrive_and_wait();
  Out[blockIdx.x] = Data[(blockIdx.x + 1) % gridDim.x];
  Latch->count_down();
  Latch->wait();
  Data[blockIdx.x] = Out[blockIdx.x];
}

// CUB's single-pass scan (decoupled look-back) and onesweep sort, instantiated from host code.
void scanAndSort(const int *In, int *Out, unsigned *Keys, unsigned *SortedKeys, int N, void *Temp, size_t Bytes) {
  cub::DeviceScan::InclusiveSum(Temp, Bytes, In, Out, N);
  cub::DeviceScan::ExclusiveSum(Temp, Bytes, In, Out, N);
  cub::DeviceRadixSort::SortKeys(Temp, Bytes, Keys, SortedKeys, N);
}

int prefix(thrust::device_vector<int> &V) {
  thrust::inclusive_scan(V.begin(), V.end(), V.begin());
  thrust::sort(V.begin(), V.end());
  return V.back();
}
