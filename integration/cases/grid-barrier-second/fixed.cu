// grid-barrier-second, fixed: the second barrier waits for both barriers' arrivals, 2 * gridDim.x.
#include "../../common/harness.cuh"
#include <vector>

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One arrival and one spin on the count; the spin gives up after timeout_ns and counts itself.
__device__ void arrive_and_wait(unsigned* arrived, unsigned goal, unsigned* stuck, unsigned long long timeout_ns) {
  __threadfence();
  atomicAdd(arrived, 1u);
  const unsigned long long start = now_ns();
  while (atomicAdd(arrived, 0u) < goal) {
    if (now_ns() - start > timeout_ns) {
      atomicAdd(stuck, 1u);
      break;
    }
  }
  __threadfence();
}

// Two phases: each block writes its element, waits for the grid, and reads its neighbour's element
// of the same phase. Block b idles (b % 8) microseconds before the second phase's write, so that
// blocks reach the second barrier at different times.
__global__ void two_phases(int* data, int* seen, unsigned* arrived, unsigned* stuck, unsigned long long timeout_ns) {
  const unsigned g = gridDim.x, b = blockIdx.x;
  if (threadIdx.x == 0) {
    data[b] = 1;
    arrive_and_wait(arrived, g, stuck, timeout_ns);
    seen[b] = data[(b + 1) % g];
    const unsigned long long until = now_ns() + 1000ull * (b % 8);
    while (now_ns() < until) {
    }
    data[g + b] = 2;
    arrive_and_wait(arrived, 2 * g, stuck, timeout_ns);  // FIX: the count of both barriers' arrivals
    seen[g + b] = data[g + (b + 1) % g];
  }
}

int main(int argc, char** argv) {
  const char* name = "grid-barrier-second";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  const int launches = (int)harness::arg_long(argc, argv, 1, 200);
  const unsigned long long timeout_ns = 200ull * 1000 * 1000;
  int sms = 0, per_sm = 0;
  HARNESS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  HARNESS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, two_phases, 128, 0));
  const unsigned blocks = (unsigned)(sms * per_sm);  // every block resident: residency is not the bug
  int *data, *seen;
  unsigned *arrived, *stuck;
  HARNESS_CHECK(cudaMalloc(&data, 2 * blocks * sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&seen, 2 * blocks * sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&arrived, sizeof(unsigned)));
  HARNESS_CHECK(cudaMalloc(&stuck, sizeof(unsigned)));
  std::vector<int> host(2 * blocks);
  long long stale = 0, stuck_total = 0;
  long failed = 0;
  for (int l = 0; l < launches; ++l) {
    HARNESS_CHECK(cudaMemset(data, 0, 2 * blocks * sizeof(int)));
    HARNESS_CHECK(cudaMemset(arrived, 0, sizeof(unsigned)));
    HARNESS_CHECK(cudaMemset(stuck, 0, sizeof(unsigned)));
    two_phases<<<blocks, 128>>>(data, seen, arrived, stuck, timeout_ns);
    HARNESS_CHECK(cudaDeviceSynchronize());
    HARNESS_CHECK(cudaMemcpy(host.data(), seen, 2 * blocks * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned stuck_host = 0;
    HARNESS_CHECK(cudaMemcpy(&stuck_host, stuck, sizeof(unsigned), cudaMemcpyDeviceToHost));
    long long stale_here = 0;
    for (unsigned b = 0; b < blocks; ++b) stale_here += (host[b] != 1) + (host[blocks + b] != 2);
    stale += stale_here;
    stuck_total += stuck_host;
    failed += stale_here != 0 || stuck_host != 0;
  }
  printf("%d launches of %u blocks: %ld failed; %lld of %lld reads after a barrier were stale; %lld waits gave up\n",
         launches, blocks, failed, stale, 2LL * launches * blocks, stuck_total);
  harness::result(name, variant, launches, failed)
      .num("blocks", blocks)
      .num("stale_reads", stale)
      .num("reads", 2LL * launches * blocks)
      .num("stuck", stuck_total)
      .print();
  return 0;
}
