// A cooperative groups tile of several warps syncs with CTA-scope acquire/release atomics on a
// shared word and __syncwarp: a barrier of the tile's threads. Where the tile is the whole block,
// its sync is the block's barrier, and what a block keeps to its own region travels through it as
// through __syncthreads(). A tile is the whole block where the block has at most the tile's
// threads: block_tile_memory<N> (the block's maximum, by its contract) or __launch_bounds__(N)
// says so. A tile of part of a block orders only its own threads: another tile's write is not
// ordered before the read, and learning of it from a relaxed epoch orders nothing.
#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;
using Dev = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;

struct Reclaimer {
  unsigned *announce; // per block: its epoch, then its region of retired addresses
  unsigned *epoch;    // the grid's epoch
  unsigned blocks, size;
};

// LITMUS: forbidden
// The block's maximum is the tile's size (block_tile_memory<128>): the tile is the block, and its
// sync orders thread 0's write in the block's region before every thread's read of it.
__global__ void wholeBlockTileByMemory(Reclaimer r, unsigned *freed) {
  __shared__ cg::block_tile_memory<128> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<128>(block);
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (tile.thread_rank() == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
  }
  tile.sync();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + tile.thread_rank()];
    if (a != 0)
      freed[a] = 1;
  }
  if (tile.thread_rank() == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: forbidden
// The launch bound says the same: at most 128 threads a block, one tile of 128.
__global__ void __launch_bounds__(128) wholeBlockTileByBounds(Reclaimer r, unsigned *freed) {
  auto tile = cg::tiled_partition<128>(cg::this_thread_block());
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (tile.thread_rank() == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
  }
  tile.sync();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + tile.thread_rank()];
    if (a != 0)
      freed[a] = 1;
  }
  if (tile.thread_rank() == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: allowed cuda-scope-release-acquire
// A block of up to 256 threads in tiles of 128: the second tile's threads read what the first
// tile's rank 0 wrote, and the first tile's sync does not order them.
__global__ void halfBlockTile(Reclaimer r, unsigned *freed) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<128>(block);
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
  }
  tile.sync();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
  if (threadIdx.x == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: allowed cuda-scope-release-acquire
// Nothing bounds the block: a launch of 256 threads makes two tiles, as above.
__global__ void unboundedBlockTile(Reclaimer r, unsigned *freed) {
  auto tile = cg::tiled_partition<128>(cg::this_thread_block());
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
  }
  tile.sync();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + threadIdx.x];
    if (a != 0)
      freed[a] = 1;
  }
  if (threadIdx.x == 0)
    atomicCAS(r.epoch, e, e + 2);
}

// LITMUS: forbidden; pass-differs: after -O2 the pass cannot tell which tile a sync is of, and takes the kernel's smallest tile of several warps (64) for all of them
// The block is at most 128 threads and the sync is the 128-thread tile's: the block's barrier. The
// kernel also makes tiles of 64, whose sync would order only half the block.
__global__ void __launch_bounds__(128) wholeBlockTileBesideHalves(Reclaimer r, unsigned *freed, unsigned *halves) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<128>(block);
  auto half = cg::tiled_partition<64>(block);
  halves[blockIdx.x * 128 + threadIdx.x] = half.thread_rank();
  half.sync();
  unsigned region = r.blocks + (r.size / gridDim.x) * blockIdx.x;
  if (tile.thread_rank() == 0) {
    unsigned slot = atomicAdd(&r.announce[blockIdx.x], 1u);
    r.announce[region + slot] = blockIdx.x + 7;
  }
  tile.sync();
  unsigned e = Dev(*r.epoch).load(relaxed);
  if (e % 2 == 0) {
    unsigned a = r.announce[region + tile.thread_rank()];
    if (a != 0)
      freed[a] = 1;
  }
  if (tile.thread_rank() == 0)
    atomicCAS(r.epoch, e, e + 2);
}
