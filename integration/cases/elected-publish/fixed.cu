// elected-publish, fixed: the block passes __syncthreads() after every thread's write, before thread 0 publishes.
#include <cuda/atomic>

#include "../../common/harness.cuh"

// Blocks come in pairs: block 2r produces row r, block 2r + 1 consumes it. Every producer thread
// writes its element of the block's row and fences; thread 0 then sets the row's flag. Warps other
// than the first wait `ticks` cycles before writing, as warps with more work before a hand-off do,
// so nothing keeps them ahead of thread 0. The consumer's thread 0 waits for the flag (acquire, a
// bounded spin), the block passes __syncthreads(), and every thread checks its element.
__global__ void elected_publish(int* rows, int* flags, int* wrong, int* timeouts, int epoch, long long ticks, int spin) {
  const bool producer = blockIdx.x % 2 == 0;
  const int row = blockIdx.x / 2;
  int* data = rows + row * blockDim.x;
  if (producer) {
    if (threadIdx.x >= 32) {
      const long long start = clock64();
      while (clock64() - start < ticks) {
      }
    }
    data[threadIdx.x] = epoch;
    __threadfence();
    __syncthreads();  // FIX: every thread's write is before the barrier, thread 0's release after it
    if (threadIdx.x == 0)
      cuda::atomic_ref<int, cuda::thread_scope_device>(flags[row]).store(epoch, cuda::memory_order_release);
  } else {
    __shared__ int seen;
    if (threadIdx.x == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> ready(flags[row]);
      int v = 0;
      for (int i = 0; i < spin && (v = ready.load(cuda::memory_order_acquire)) != epoch; ++i) {
      }
      seen = v;
      if (v != epoch)
        atomicAdd(timeouts, 1);
    }
    __syncthreads();
    if (seen == epoch && data[threadIdx.x] != epoch)
      atomicAdd(wrong, 1);
  }
}

int main(int argc, char** argv) {
  const char* name = "elected-publish";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 20000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 10.0);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  // One producer and one consumer block per SM: every block is resident, so no spin waits on a
  // block that cannot run.
  const int half = p.multiProcessorCount, threads = 256;
  int *rows, *flags, *wrong, *timeouts;
  HARNESS_CHECK(cudaMalloc(&rows, sizeof(int) * half * threads));
  HARNESS_CHECK(cudaMalloc(&flags, sizeof(int) * half));
  HARNESS_CHECK(cudaMalloc(&wrong, sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&timeouts, sizeof(int)));
  HARNESS_CHECK(cudaMemset(rows, 0, sizeof(int) * half * threads));
  HARNESS_CHECK(cudaMemset(flags, 0, sizeof(int) * half));
  HARNESS_CHECK(cudaMemset(wrong, 0, sizeof(int)));
  HARNESS_CHECK(cudaMemset(timeouts, 0, sizeof(int)));
  double seconds = 0;
  const long done = harness::launch_loop(
      launches, max_seconds,
      [&](long i) { elected_publish<<<2 * half, threads>>>(rows, flags, wrong, timeouts, int(i + 1), 2000, 1 << 22); },
      &seconds);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong_host = 0, timeouts_host = 0;
  HARNESS_CHECK(cudaMemcpy(&wrong_host, wrong, sizeof(int), cudaMemcpyDeviceToHost));
  HARNESS_CHECK(cudaMemcpy(&timeouts_host, timeouts, sizeof(int), cudaMemcpyDeviceToHost));
  const long long reads = (long long)done * half * threads;
  printf("%ld launches of %d block pairs in %.1f s: %d of %lld reads after the flag were stale; %d spins gave up; %s\n",
         done, half, seconds, wrong_host, reads, timeouts_host, cudaGetErrorName(err));
  harness::result(name, variant, reads, wrong_host + timeouts_host + (err != cudaSuccess))
      .num("launches", done)
      .num("stale_reads", wrong_host)
      .num("timeouts", timeouts_host)
      .num("error", err)
      .print();
  return 0;
}
