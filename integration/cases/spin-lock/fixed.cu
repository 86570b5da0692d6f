// spin-lock, fixed: __threadfence() after taking the lock and before handing it on.
#include <vector>

#include "../../common/harness.cuh"

constexpr int kLocks = 64;  // each lock guards one counter

// One thread per block takes locks in turn and adds 1 to the counter each guards, with plain loads and stores.
__global__ void locked_add(int* counters, int* locks, int iters, unsigned salt) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < iters; ++i) {
    const int l = (blockIdx.x * 7 + i * 13 + salt) % kLocks;
    while (atomicCAS(&locks[l], 0, 1) != 0) {
    }
    __threadfence();  // FIX: the counter is read after the lock is taken
    counters[l] += 1;
    __threadfence();  // FIX: the counter is written before the lock is handed on
    atomicExch(&locks[l], 0);
  }
}

// Test bookkeeping, one thread per counter: adds up what one launch lost, then clears for the next launch.
__global__ void check_and_clear(int* counters, const int* expected, unsigned long long* lost) {
  const int c = threadIdx.x;
  const int miss = expected[c] - counters[c];
  if (miss) atomicAdd(lost, (unsigned long long)(miss < 0 ? -miss : miss));
  counters[c] = 0;
}

int main(int argc, char** argv) {
  const char* name = "spin-lock";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 2000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 12.0);
  const int iters = (int)harness::arg_long(argc, argv, 3, 64);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = 2 * p.multiProcessorCount;

  int *counters, *locks, *dexpected;
  unsigned long long* lost;
  HARNESS_CHECK(cudaMalloc(&counters, sizeof *counters * kLocks));
  HARNESS_CHECK(cudaMalloc(&locks, sizeof *locks * kLocks));
  HARNESS_CHECK(cudaMalloc(&dexpected, sizeof *dexpected * kLocks));
  HARNESS_CHECK(cudaMalloc(&lost, sizeof *lost));
  HARNESS_CHECK(cudaMemset(counters, 0, sizeof *counters * kLocks));
  HARNESS_CHECK(cudaMemset(locks, 0, sizeof *locks * kLocks));
  HARNESS_CHECK(cudaMemset(lost, 0, sizeof *lost));

  double seconds = 0;
  std::vector<int> expected(kLocks);
  const long done = harness::launch_loop(
      launches, max_seconds,
      [&](long i) {
        const unsigned salt = (unsigned)(i % kLocks);
        std::fill(expected.begin(), expected.end(), 0);
        for (int b = 0; b < blocks; ++b)
          for (int k = 0; k < iters; ++k) ++expected[(b * 7 + k * 13 + salt) % kLocks];
        HARNESS_CHECK(cudaMemcpy(dexpected, expected.data(), sizeof *dexpected * kLocks, cudaMemcpyHostToDevice));
        locked_add<<<blocks, 32>>>(counters, locks, iters, salt);
        check_and_clear<<<1, kLocks>>>(counters, dexpected, lost);
      },
      &seconds);
  unsigned long long h_lost = 0;
  HARNESS_CHECK(cudaMemcpy(&h_lost, lost, sizeof h_lost, cudaMemcpyDeviceToHost));

  const long long sections = (long long)done * blocks * iters;
  printf("%lld critical sections in %.2f s: lost updates %llu\n", sections, seconds, h_lost);
  harness::result(name, variant, sections, (long long)h_lost)
      .num("lost_updates", (long long)h_lost)
      .num("launches", done)
      .num("blocks", blocks)
      .num("sections_per_block", iters)
      .real("seconds", seconds)
      .print();
  return 0;
}
