// proxy-fence, bug: a tile staged in shared memory by ordinary stores is copied out by a bulk copy with no fence.proxy.async.
#include "../../common/harness.cuh"

constexpr int kThreads = 256, kTile = 4 * kThreads, kTilesPerBlock = 16;  // a tile is 4 KiB

// Bulk copy (async proxy) of `bytes` from shared memory to global memory, waited for.
__device__ void bulk_copy_to_global(void* dst, const void* src, unsigned bytes) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(src));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(s), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// out = in * factor, tile by tile: each tile is loaded and scaled by the block's threads, staged in
// shared memory, and stored to global memory with one bulk copy.
__global__ void scale_tiles(const unsigned* in, unsigned* out, unsigned factor) {
  __shared__ __align__(128) unsigned tile[kTile];
  for (int t = 0; t < kTilesPerBlock; ++t) {
    const size_t first = ((size_t)blockIdx.x * kTilesPerBlock + t) * kTile;
    for (int k = threadIdx.x; k < kTile; k += kThreads) tile[k] = in[first + k] * factor;  // generic-proxy writes
    // BUG: no fence.proxy.async.shared::cta: the bulk copy below (async proxy) may not see the writes above
    __syncthreads();
    if (threadIdx.x == 0) bulk_copy_to_global(out + first, tile, sizeof tile);
    __syncthreads();  // the copy has read the tile before it is overwritten
  }
}

// Test bookkeeping, one block per tile: counts the elements, and the tiles, that do not hold in * factor.
__global__ void count_stale(const unsigned* in, const unsigned* out, unsigned tiles, unsigned factor, unsigned long long* stale,
                            unsigned long long* stale_tiles) {
  for (unsigned tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int bad = 0;
    for (int k = threadIdx.x; k < kTile; k += kThreads) {
      const size_t i = (size_t)tile * kTile + k;
      bad += out[i] != in[i] * factor;
    }
    bad = harness::block_sum<int, kThreads>(bad);
    if (bad && threadIdx.x == 0) {
      atomicAdd(stale, (unsigned long long)bad);
      atomicAdd(stale_tiles, 1ull);
    }
  }
}

__global__ void make_input(unsigned* in, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    in[i] = (unsigned)(i * 2654435761u) ^ (unsigned)(i >> 11);
}

int main(int argc, char** argv) {
  const char* name = "proxy-fence";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 10000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 12.0);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = 8 * p.multiProcessorCount;
  const unsigned tiles_per_launch = blocks * kTilesPerBlock;
  const size_t n = (size_t)tiles_per_launch * kTile;

  unsigned *in, *out;
  unsigned long long *stale, *stale_tiles;
  HARNESS_CHECK(cudaMalloc(&in, sizeof *in * n));
  HARNESS_CHECK(cudaMalloc(&out, sizeof *out * n));
  HARNESS_CHECK(cudaMalloc(&stale, sizeof *stale));
  HARNESS_CHECK(cudaMalloc(&stale_tiles, sizeof *stale_tiles));
  make_input<<<4 * p.multiProcessorCount, 512>>>(in, n);
  HARNESS_CHECK(cudaMemset(out, 0, sizeof *out * n));
  HARNESS_CHECK(cudaMemset(stale, 0, sizeof *stale));
  HARNESS_CHECK(cudaMemset(stale_tiles, 0, sizeof *stale_tiles));

  double seconds = 0;
  const long done = harness::launch_loop(
      launches, max_seconds,
      [&](long i) {
        const unsigned factor = 2 * (unsigned)i + 3;  // odd, and new in every launch
        scale_tiles<<<blocks, kThreads>>>(in, out, factor);
        count_stale<<<8 * p.multiProcessorCount, kThreads>>>(in, out, tiles_per_launch, factor, stale, stale_tiles);
      },
      &seconds);
  unsigned long long h_stale = 0, h_tiles = 0;
  HARNESS_CHECK(cudaMemcpy(&h_stale, stale, sizeof h_stale, cudaMemcpyDeviceToHost));
  HARNESS_CHECK(cudaMemcpy(&h_tiles, stale_tiles, sizeof h_tiles, cudaMemcpyDeviceToHost));

  const long long tiles = (long long)done * tiles_per_launch;
  printf("%lld tiles (%lld elements) in %.2f s: stale tiles %llu, stale elements %llu\n", tiles, tiles * kTile, seconds,
         h_tiles, h_stale);
  harness::result(name, variant, tiles, (long long)h_tiles)
      .num("stale_tiles", (long long)h_tiles)
      .num("stale", (long long)h_stale)
      .num("elements", tiles * kTile)
      .num("launches", done)
      .num("blocks", blocks)
      .real("seconds", seconds)
      .print();
  return 0;
}
