// grid-barrier-reuse, fixed: the same barrier waiting for a goal that grows with the round (gridDim.x * (r + 1)).
// Each round waits for its own gridDim.x arrivals; nothing else changes.
#include "../../common/harness.cuh"
#include <vector>

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Each round, every block writes its element of the round, waits for the grid, then reads its
// neighbour's element of the same round. Block b first idles (b % 8) microseconds, so that blocks
// reach the barrier at different times. The fences order the data, and the goal the rounds: in
// round r the count reaches gridDim.x * (r + 1) only once every block has arrived in that round.
__global__ void rounds_kernel(int* data, int* seen, int rounds, unsigned* arrived, unsigned* stuck,
                              unsigned long long timeout_ns) {
  const unsigned g = gridDim.x, b = blockIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      const unsigned long long until = now_ns() + 1000ull * (b % 8);
      while (now_ns() < until) {
      }
      data[r * g + b] = r;
      __threadfence();
      atomicAdd(arrived, 1u);
      const unsigned long long start = now_ns();
      while (atomicAdd(arrived, 0u) < g * (unsigned)(r + 1)) {
        if (now_ns() - start > timeout_ns) {
          atomicAdd(stuck, 1u);
          break;
        }
      }
      __threadfence();
      seen[r * g + b] = data[r * g + (b + 1) % g];
    }
    __syncthreads();
  }
}

int main(int argc, char** argv) {
  const char* name = "grid-barrier-reuse";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  const int rounds = (int)harness::arg_long(argc, argv, 1, 100);
  const int launches = (int)harness::arg_long(argc, argv, 2, 20);
  const unsigned long long timeout_ns = 200ull * 1000 * 1000;
  int sms = 0, per_sm = 0;
  HARNESS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  HARNESS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rounds_kernel, 128, 0));
  const unsigned blocks = (unsigned)(sms * per_sm);  // every block resident: residency is not the bug
  const long cells = (long)rounds * blocks;
  int *data, *seen;
  unsigned *arrived, *stuck;
  HARNESS_CHECK(cudaMalloc(&data, cells * sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&seen, cells * sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&arrived, sizeof(unsigned)));
  HARNESS_CHECK(cudaMalloc(&stuck, sizeof(unsigned)));
  std::vector<int> host(cells);
  long long stale = 0, stuck_total = 0, failed = 0;
  for (int l = 0; l < launches; ++l) {
    HARNESS_CHECK(cudaMemset(data, 0xff, cells * sizeof(int)));  // -1: not written yet
    HARNESS_CHECK(cudaMemset(arrived, 0, sizeof(unsigned)));
    HARNESS_CHECK(cudaMemset(stuck, 0, sizeof(unsigned)));
    rounds_kernel<<<blocks, 128>>>(data, seen, rounds, arrived, stuck, timeout_ns);
    HARNESS_CHECK(cudaGetLastError());
    HARNESS_CHECK(cudaDeviceSynchronize());
    unsigned stuck_host = 0;
    HARNESS_CHECK(cudaMemcpy(&stuck_host, stuck, sizeof(unsigned), cudaMemcpyDeviceToHost));
    HARNESS_CHECK(cudaMemcpy(host.data(), seen, cells * sizeof(int), cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (int r = 0; r < rounds; ++r)
      for (unsigned b = 0; b < blocks; ++b)
        if (host[(long)r * blocks + b] != r) ++wrong;
    stale += wrong;
    stuck_total += stuck_host;
    failed += wrong != 0 || stuck_host != 0;
  }
  printf("%u blocks (all resident), %d rounds per launch, %d launches: %lld neighbour reads stale, "
         "%lld waits gave up; %lld launches failed\n",
         blocks, rounds, launches, stale, stuck_total, failed);
  harness::result(name, variant, launches, failed)
      .num("blocks", blocks)
      .num("reads", (long long)launches * cells)
      .num("stale_reads", stale)
      .num("stuck_waits", stuck_total)
      .print();
  return 0;
}
