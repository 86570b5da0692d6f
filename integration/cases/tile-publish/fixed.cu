// tile-publish, fixed: the tile syncs after every rank's write, before rank 15 publishes.
#include <cooperative_groups.h>
#include <cuda/atomic>

#include "../../common/harness.cuh"

namespace cg = cooperative_groups;

// Blocks come in pairs: block 2r produces row r, block 2r + 1 consumes it, one 16-thread tile of
// each per slice of 16 elements. Every producer rank writes its element of the tile's slice and
// fences; rank 15, on its own branch, writes its element and sets the slice's flag. Ranks other
// than 15 wait `ticks` cycles before writing, as ranks with more work before a hand-off do: the
// warp's lanes run the two branches apart, and nothing keeps the others' writes ahead of rank 15's
// release. The consumer tile's rank 15 waits for the flag (acquire, a bounded
// spin), the tile syncs, and every rank checks its element.
__global__ void tile_publish(int* rows, int* flags, int* wrong, int* timeouts, int epoch, long long ticks, int spin) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const bool producer = blockIdx.x % 2 == 0;
  const int row = blockIdx.x / 2;
  const int slice = row * (blockDim.x / 16) + threadIdx.x / 16;
  int* data = rows + slice * 16;
  if (producer) {
    if (tile.thread_rank() != 15) {
      const long long start = clock64();
      while (clock64() - start < ticks) {
      }
      data[tile.thread_rank()] = epoch;
      __threadfence();
    } else {
      data[15] = epoch;
      __threadfence();
    }
    tile.sync();  // FIX: every rank's write is before the tile's barrier, rank 15's release after it
    if (tile.thread_rank() == 15)
      cuda::atomic_ref<int, cuda::thread_scope_device>(flags[slice]).store(epoch, cuda::memory_order_release);
  } else {
    int v = 0;
    if (tile.thread_rank() == 15) {
      cuda::atomic_ref<int, cuda::thread_scope_device> ready(flags[slice]);
      for (int i = 0; i < spin && (v = ready.load(cuda::memory_order_acquire)) != epoch; ++i) {
      }
      if (v != epoch)
        atomicAdd(timeouts, 1);
    }
    v = tile.shfl(v, 15);
    tile.sync();  // rank 15's acquire before the other ranks' reads
    if (v == epoch && data[tile.thread_rank()] != epoch)
      atomicAdd(wrong, 1);
  }
}

int main(int argc, char** argv) {
  const char* name = "tile-publish";
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
  HARNESS_CHECK(cudaMalloc(&flags, sizeof(int) * half * (threads / 16)));  // one flag per tile
  HARNESS_CHECK(cudaMalloc(&wrong, sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&timeouts, sizeof(int)));
  HARNESS_CHECK(cudaMemset(rows, 0, sizeof(int) * half * threads));
  HARNESS_CHECK(cudaMemset(flags, 0, sizeof(int) * half * (threads / 16)));
  HARNESS_CHECK(cudaMemset(wrong, 0, sizeof(int)));
  HARNESS_CHECK(cudaMemset(timeouts, 0, sizeof(int)));
  double seconds = 0;
  const long done = harness::launch_loop(
      launches, max_seconds,
      [&](long i) { tile_publish<<<2 * half, threads>>>(rows, flags, wrong, timeouts, int(i + 1), 2000, 1 << 22); },
      &seconds);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong_host = 0, timeouts_host = 0;
  HARNESS_CHECK(cudaMemcpy(&wrong_host, wrong, sizeof(int), cudaMemcpyDeviceToHost));
  HARNESS_CHECK(cudaMemcpy(&timeouts_host, timeouts, sizeof(int), cudaMemcpyDeviceToHost));
  const long long reads = (long long)done * half * threads;
  printf("%ld launches of %d block pairs (16-thread tiles) in %.1f s: %d of %lld reads after the flag were stale; %d spins gave up; %s\n",
         done, half, seconds, wrong_host, reads, timeouts_host, cudaGetErrorName(err));
  harness::result(name, variant, reads, wrong_host + timeouts_host + (err != cudaSuccess))
      .num("launches", done)
      .num("stale_reads", wrong_host)
      .num("timeouts", timeouts_host)
      .num("error", err)
      .print();
  return 0;
}
