// The toolkit's own CCCL headers (CUB, Thrust, libcu++) are correct code: a TU
// that uses them for a histogram and a scan gives no cuda-scope finding, on
// either side.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/latch>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

// A histogram in shared memory, merged into global bins with device scope.
__global__ void histogram(const unsigned char *In, int N, unsigned *Bins) {
  __shared__ unsigned Local[256];
  for (int I = threadIdx.x; I < 256; I += blockDim.x)
    Local[I] = 0;
  __syncthreads();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N; I += gridDim.x * blockDim.x)
    cuda::atomic_ref<unsigned, cuda::thread_scope_block>(Local[In[I]]).fetch_add(1, cuda::memory_order_relaxed);
  __syncthreads();
  for (int I = threadIdx.x; I < 256; I += blockDim.x)
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(Bins[I]).fetch_add(Local[I], cuda::memory_order_relaxed);
}

// A block-wide scan with CUB, each block writing its own total.
__global__ void scan(const int *In, int *Out, int *BlockTotals) {
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Scan::TempStorage Temp;
  int Total;
  int V = In[blockIdx.x * 128 + threadIdx.x];
  Scan(Temp).ExclusiveSum(V, V, Total);
  Out[blockIdx.x * 128 + threadIdx.x] = V;
  if (threadIdx.x == 0)
    cuda::atomic_ref<int, cuda::thread_scope_block>(BlockTotals[blockIdx.x]).store(Total, cuda::memory_order_relaxed);
}

long long evens(int N) {
  thrust::device_vector<int> V(N);
  thrust::sequence(V.begin(), V.end());
  return thrust::count_if(V.begin(), V.end(), [] __device__(int X) { return X % 2 == 0; });
}

void run(const unsigned char *In, int N, unsigned *Bins, const int *Ints, int *Out, int *Totals) {
  histogram<<<64, 256>>>(In, N, Bins);
  scan<<<N / 128, 128>>>(Ints, Out, Totals);
}
