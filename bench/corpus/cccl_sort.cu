// Benchmark corpus: a TU that uses CUB, Thrust and libcu++ the way library code does.
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <cuda_runtime.h>

__global__ void histogram(const int *In, unsigned *Bins, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(Bins[In[I] & 255]).fetch_add(1);
}

void CUDART_CB logDone(void *P) { *static_cast<int *>(P) = 1; }

void sortAndCount(cudaStream_t S, thrust::device_vector<int> &Keys, unsigned *Bins, int *Flag) {
  thrust::sort(thrust::cuda::par.on(S), Keys.begin(), Keys.end());
  size_t Bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, Bytes, thrust::raw_pointer_cast(Keys.data()),
                                 thrust::raw_pointer_cast(Keys.data()), static_cast<int>(Keys.size()), 0,
                                 32, S);
  histogram<<<64, 256, 0, S>>>(thrust::raw_pointer_cast(Keys.data()), Bins, static_cast<int>(Keys.size()));
  cudaLaunchHostFunc(S, logDone, Flag);
}
