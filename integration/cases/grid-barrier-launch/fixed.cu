// grid-barrier-launch, fixed: the same barrier, on a grid no larger than the occupancy query allows; the kernel loops over the input.
#include "../../common/harness.cuh"
#include <vector>

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Every block's thread 0 counts its arrival and spins until every block of the grid has arrived.
// The fences make the barrier order the data (release before the arrival, acquire after the wait);
// what it cannot make is the blocks that are not running arrive. The spin gives up after
// timeout_ns, so that a block that would wait forever is counted instead.
__device__ void grid_barrier(unsigned* arrived, unsigned* stuck, unsigned long long timeout_ns) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(arrived, 1u);
    const unsigned long long start = now_ns();
    while (atomicAdd(arrived, 0u) < gridDim.x) {
      if (now_ns() - start > timeout_ns) {
        atomicAdd(stuck, 1u);
        break;
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// Doubles x, waits for the grid, then reads a neighbour's element, which another block wrote.
__global__ void double_then_shift(float* x, float* y, long n, unsigned* arrived, unsigned* stuck,
                                  unsigned long long timeout_ns) {
  const long stride = (long)gridDim.x * blockDim.x;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) x[i] = 2.0f * (float)(i % 1000);
  grid_barrier(arrived, stuck, timeout_ns);
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = x[(i + 1024) % n];
}

int main(int argc, char** argv) {
  const char* name = "grid-barrier-launch";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  // The input: its size is what the program is given (argv[1]), as a real one reads its data.
  const long n = harness::arg_long(argc, argv, 1, 1L << 22);
  const int rounds = (int)harness::arg_long(argc, argv, 2, 3);
  const unsigned long long timeout_ns = 200ull * 1000 * 1000;
  int sms = 0, per_sm = 0;
  HARNESS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  HARNESS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, double_then_shift, 1024, 0));
  float *x, *y;
  unsigned *arrived, *stuck;
  HARNESS_CHECK(cudaMalloc(&x, n * sizeof(float)));
  HARNESS_CHECK(cudaMalloc(&y, n * sizeof(float)));
  HARNESS_CHECK(cudaMalloc(&arrived, sizeof(unsigned)));
  HARNESS_CHECK(cudaMalloc(&stuck, sizeof(unsigned)));
  std::vector<float> host(n);
  long long failed = 0, stuck_total = 0, wrong_total = 0;
  unsigned blocks = 0;
  for (int r = 0; r < rounds; ++r) {
    HARNESS_CHECK(cudaMemset(arrived, 0, sizeof(unsigned)));
    HARNESS_CHECK(cudaMemset(stuck, 0, sizeof(unsigned)));
    blocks = (unsigned)(sms * per_sm);
    double_then_shift<<<sms * per_sm, 1024>>>(x, y, n, arrived, stuck, timeout_ns);  // FIX: a resident grid
    HARNESS_CHECK(cudaGetLastError());
    HARNESS_CHECK(cudaDeviceSynchronize());
    unsigned stuck_host = 0;
    HARNESS_CHECK(cudaMemcpy(&stuck_host, stuck, sizeof(unsigned), cudaMemcpyDeviceToHost));
    HARNESS_CHECK(cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (long i = 0; i < n; ++i)
      if (host[i] != 2.0f * (float)(((i + 1024) % n) % 1000)) ++wrong;
    stuck_total += stuck_host;
    wrong_total += wrong;
    failed += stuck_host != 0 || wrong != 0;
  }
  printf("n = %ld: %u blocks per launch, %d x %d co-resident; %d rounds: %lld blocks gave up waiting, "
         "%lld elements read stale; %lld rounds failed\n",
         n, blocks, sms, per_sm, rounds, stuck_total, wrong_total, failed);
  harness::result(name, variant, rounds, failed)
      .num("blocks", blocks)
      .num("resident", (long long)sms * per_sm)
      .num("stuck_blocks", stuck_total)
      .num("stale_reads", wrong_total)
      .print();
  return 0;
}
