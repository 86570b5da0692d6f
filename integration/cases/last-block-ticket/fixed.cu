// last-block-ticket, fixed: the "last block" reduction with __threadfence() before the ticket and after the last one.
#include "../../common/harness.cuh"

constexpr int kThreads = 128, kPerThread = 4, kElems = kThreads * kPerThread;  // elements per block

// The input, made on the fly: element i of part `part` of sum `sum`, in launch `epoch`.
__device__ int element(int epoch, int sum, int part, int i) { return epoch + ((sum * 31 + part * 7 + i) & 15); }

// Many sums in one launch: blockIdx.y picks the sum, blockIdx.x the part of it this block adds up.
// Each block writes its partial sum, then draws a ticket; the block that draws the last ticket of
// its sum adds the partials up, writes the total and resets the ticket.
__global__ void batched_sum(int* partials, unsigned* tickets, long long* totals, int epoch) {
  __shared__ bool last;
  const int part = blockIdx.x, parts = gridDim.x, sum = blockIdx.y, sums = gridDim.y;
  int v = 0;
  for (int k = 0; k < kPerThread; ++k) v += element(epoch, sum, part, threadIdx.x * kPerThread + k);
  const int partial = harness::block_sum<int, kThreads>(v);
  if (threadIdx.x == 0) {
    partials[part * sums + sum] = partial;  // partials[part][sum]
    __threadfence();  // FIX: the partial is visible to every block before the ticket is drawn
    last = atomicAdd(&tickets[sum], 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();  // FIX: the partials are read after the last ticket, not from an older cached copy
  long long total = 0;
  for (int p = threadIdx.x; p < parts; p += kThreads) total += partials[p * sums + sum];
  total = harness::block_sum<long long, kThreads>(total);
  if (threadIdx.x == 0) {
    totals[sum] = total;
    tickets[sum] = 0;
  }
}

// Test bookkeeping: counts the sums whose total is wrong. Every partial is kElems * epoch plus
// 120 for each 16 consecutive elements, whatever the sum and part.
__global__ void count_wrong(const long long* totals, int sums, int parts, int epoch, unsigned long long* wrong) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  const long long expected = (long long)parts * ((long long)kElems * epoch + kElems / 16 * 120);
  if (s < sums && totals[s] != expected) atomicAdd(wrong, 1ull);
}

int main(int argc, char** argv) {
  const char* name = "last-block-ticket";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 20000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 12.0);
  const int sums = (int)harness::arg_long(argc, argv, 3, 1024), parts = (int)harness::arg_long(argc, argv, 4, 32);
  harness::print_device(name, variant);

  int* partials;
  unsigned* tickets;
  long long* totals;
  unsigned long long* wrong;
  HARNESS_CHECK(cudaMalloc(&partials, sizeof *partials * sums * parts));
  HARNESS_CHECK(cudaMalloc(&tickets, sizeof *tickets * sums));
  HARNESS_CHECK(cudaMalloc(&totals, sizeof *totals * sums));
  HARNESS_CHECK(cudaMalloc(&wrong, sizeof *wrong));
  HARNESS_CHECK(cudaMemset(partials, 0, sizeof *partials * sums * parts));
  HARNESS_CHECK(cudaMemset(tickets, 0, sizeof *tickets * sums));
  HARNESS_CHECK(cudaMemset(wrong, 0, sizeof *wrong));

  double seconds = 0;
  const long done = harness::launch_loop(
      launches, max_seconds,
      [&](long i) {
        const int epoch = 1 + (int)(i % 65536);
        batched_sum<<<dim3(parts, sums), kThreads>>>(partials, tickets, totals, epoch);
        count_wrong<<<(sums + 255) / 256, 256>>>(totals, sums, parts, epoch, wrong);
      },
      &seconds);
  unsigned long long h_wrong = 0;
  HARNESS_CHECK(cudaMemcpy(&h_wrong, wrong, sizeof h_wrong, cudaMemcpyDeviceToHost));

  const long long instances = (long long)done * sums;
  printf("%lld sums of %d blocks in %.2f s: wrong totals %llu\n", instances, parts, seconds, h_wrong);
  harness::result(name, variant, instances, (long long)h_wrong)
      .num("wrong_totals", (long long)h_wrong)
      .num("launches", done)
      .num("sums_per_launch", sums)
      .num("blocks_per_sum", parts)
      .real("seconds", seconds)
      .print();
  return 0;
}
