// The toolkit's own CCCL headers (CUB, Thrust, libcu++) are correct code: a TU
// that uses them normally gives no cuda-scope finding, on either side.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch,cuda-scope-insufficient' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch,cuda-scope-insufficient' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/latch>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

// A block-wide reduction with CUB, a block barrier in shared memory, and a
// device-scope counter of finished blocks.
__global__ void blockSums(const int *In, int *Sums, unsigned *Done) {
  using Reduce = cub::BlockReduce<int, 128>;
  __shared__ typename Reduce::TempStorage Temp;
  // clang rejects a __shared__ object with a constructor; the barrier is
  // built in shared storage instead.
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char BarStorage[sizeof(Barrier)];
  Barrier &Bar = *reinterpret_cast<Barrier *>(BarStorage);
  if (threadIdx.x == 0)
    init(&Bar, blockDim.x);
  __syncthreads();
  int Sum = Reduce(Temp).Sum(In[blockIdx.x * blockDim.x + threadIdx.x]);
  Bar.arrive_and_wait();
  if (threadIdx.x == 0) {
    Sums[blockIdx.x] = Sum;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*Done).fetch_add(1, cuda::memory_order_release);
  }
}

// A latch in shared memory, counted down by each thread of the block.
__global__ void latched(int *Out) {
  __shared__ cuda::std::latch *L;
  __shared__ alignas(cuda::std::latch) unsigned char Storage[sizeof(cuda::std::latch)];
  if (threadIdx.x == 0)
    L = new (Storage) cuda::std::latch(blockDim.x);
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  L->arrive_and_wait();
}

int total(thrust::device_vector<int> &Keys) {
  thrust::sort(Keys.begin(), Keys.end());
  return thrust::reduce(Keys.begin(), Keys.end());
}

void launch(const int *In, int *Sums, unsigned *Done, int *Out, int Blocks) {
  blockSums<<<Blocks, 128>>>(In, Sums, Done);
  latched<<<Blocks, 128>>>(Out);
  size_t Bytes = 0;
  cub::DeviceReduce::Sum(nullptr, Bytes, In, Sums, Blocks);
}
