// Two scope bugs the device-IR pass finds after inlining libcu++:
//  - a counter every block bumps with thread_scope_block (cannot include the
//    other blocks: cuda-scope-insufficient);
//  - a flag released with block scope in one block and acquired with device
//    scope in another (the scopes do not include each other: cuda-scope-mismatch).
#include <cuda/atomic>

__device__ unsigned long long Hits;
__device__ int Ready;
__device__ int Payload;

__global__ void countHits() {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> H(Hits);
  H.fetch_add(1, cuda::memory_order_relaxed);
}

__global__ void handOff(int *Out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Payload = 42;
    cuda::atomic_ref<int, cuda::thread_scope_block>(Ready).store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> R(Ready);
    while (R.load(cuda::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = Payload;
  }
}

int main() {
  int *Out;
  cudaMalloc(&Out, 64 * sizeof(int));
  countHits<<<64, 256>>>();
  handOff<<<64, 32>>>(Out);
  cudaDeviceSynchronize();
}
