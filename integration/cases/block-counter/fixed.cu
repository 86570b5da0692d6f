// block-counter, fixed: counters and the ticket shared by every block are incremented with device-scope atomics.
#include <cuda/atomic>

#include <vector>

#include "../../common/harness.cuh"

constexpr int kCounters = 1024;  // a histogram-like array of counters
constexpr int kSpread = 8;       // each thread adds 1 to kSpread of them

__global__ void count(unsigned long long* total, unsigned long long* counters, unsigned* ticket, unsigned* drawn) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  using counter = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;  // FIX: device scope; every block updates them
  counter(*total).fetch_add(1, cuda::memory_order_relaxed);
  for (int i = 0; i < kSpread; ++i) counter(counters[(g + i * 97) % kCounters]).fetch_add(1, cuda::memory_order_relaxed);
  if (threadIdx.x == 0) {  // each block draws a ticket that should be unique
    const unsigned t = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).fetch_add(1, cuda::memory_order_relaxed);  // FIX: device scope
    atomicAdd(&drawn[t % gridDim.x], 1u);  // test bookkeeping: how many blocks drew ticket t
  }
}

// Test bookkeeping, one thread per counter: adds up what one launch lost, then clears for the next launch.
__global__ void check_and_clear(unsigned long long* total, unsigned long long* counters, unsigned* ticket, unsigned* drawn,
                                const unsigned long long* expected, int blocks, unsigned long long* lost, unsigned long long* bad_tickets) {
  const int c = threadIdx.x;
  long long miss = (long long)expected[c] - (long long)counters[c];
  counters[c] = 0;
  if (c == 0) {
    const long long d = (long long)expected[kCounters] - (long long)*total;
    miss = (miss < 0 ? -miss : miss) + (d < 0 ? -d : d);
    *total = 0;
    *ticket = 0;
  }
  if (miss) atomicAdd(lost, (unsigned long long)(miss < 0 ? -miss : miss));
  for (int b = c; b < blocks; b += blockDim.x) {
    if (drawn[b] != 1) atomicAdd(bad_tickets, 1ull);
    drawn[b] = 0;
  }
}

int main(int argc, char** argv) {
  const char* name = "block-counter";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 20000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 12.0);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int threads = 512, blocks = 2 * p.multiProcessorCount, n = blocks * threads;

  std::vector<unsigned long long> expected(kCounters + 1, 0);  // per counter, then the total
  for (int g = 0; g < n; ++g)
    for (int i = 0; i < kSpread; ++i) ++expected[(g + i * 97) % kCounters];
  expected[kCounters] = n;

  unsigned long long *total, *counters, *dexpected, *lost, *bad_tickets;
  unsigned *ticket, *drawn;
  HARNESS_CHECK(cudaMalloc(&total, sizeof *total));
  HARNESS_CHECK(cudaMalloc(&counters, sizeof *counters * kCounters));
  HARNESS_CHECK(cudaMalloc(&dexpected, sizeof *dexpected * (kCounters + 1)));
  HARNESS_CHECK(cudaMalloc(&lost, sizeof *lost));
  HARNESS_CHECK(cudaMalloc(&bad_tickets, sizeof *bad_tickets));
  HARNESS_CHECK(cudaMalloc(&ticket, sizeof *ticket));
  HARNESS_CHECK(cudaMalloc(&drawn, sizeof *drawn * blocks));
  HARNESS_CHECK(cudaMemcpy(dexpected, expected.data(), sizeof *dexpected * (kCounters + 1), cudaMemcpyHostToDevice));
  HARNESS_CHECK(cudaMemset(total, 0, sizeof *total));
  HARNESS_CHECK(cudaMemset(counters, 0, sizeof *counters * kCounters));
  HARNESS_CHECK(cudaMemset(lost, 0, sizeof *lost));
  HARNESS_CHECK(cudaMemset(bad_tickets, 0, sizeof *bad_tickets));
  HARNESS_CHECK(cudaMemset(ticket, 0, sizeof *ticket));
  HARNESS_CHECK(cudaMemset(drawn, 0, sizeof *drawn * blocks));

  double seconds = 0;
  const long done = harness::launch_loop(
      launches, max_seconds,
      [&](long) {
        count<<<blocks, threads>>>(total, counters, ticket, drawn);
        check_and_clear<<<1, kCounters>>>(total, counters, ticket, drawn, dexpected, blocks, lost, bad_tickets);
      },
      &seconds);
  unsigned long long h_lost = 0, h_bad = 0;
  HARNESS_CHECK(cudaMemcpy(&h_lost, lost, sizeof h_lost, cudaMemcpyDeviceToHost));
  HARNESS_CHECK(cudaMemcpy(&h_bad, bad_tickets, sizeof h_bad, cudaMemcpyDeviceToHost));

  const long long updates = (long long)done * ((long long)n * (kSpread + 1) + blocks);
  printf("%lld atomic updates in %.2f s: lost %llu, wrong tickets %llu\n", updates, seconds, h_lost, h_bad);
  harness::result(name, variant, updates, (long long)(h_lost + h_bad))
      .num("lost_updates", (long long)h_lost)
      .num("ticket_errors", (long long)h_bad)
      .num("launches", done)
      .num("blocks", blocks)
      .num("threads", threads)
      .real("seconds", seconds)
      .print();
  return 0;
}
