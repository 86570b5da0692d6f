// A thread's rank in a cooperative group names it as its index does: thread_block::thread_rank()
// is the block's linear index, and a tile's thread_rank() is that index within aligned groups of
// the tile's size (index & 15 for 16-thread tiles). One rank of each tile that publishes for the
// tile (rank == 15) releases only its own writes and what it has observed (PTX: causality order
// runs through the releasing thread): the tile's other threads' writes reach it only through a
// barrier they all pass first, the tile's sync() (__syncwarp of the tile's lanes) or the block's.
#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;
using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;

// LITMUS: allowed cuda-scope-release-acquire
// Every thread of a 16-thread tile writes its element and fences; rank 15 alone sets the tile's
// flag, with no sync of the tile between: the other ranks' writes need not be visible yet.
__global__ void tileRankPublishNoSync(int *data, int *flags, int *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned t = threadIdx.x / 16;
  if (blockIdx.x == 0) {
    data[t * 16 + tile.thread_rank()] = tile.thread_rank() + 1;
    __threadfence();
    if (tile.thread_rank() == 15)
      atomicExch(&flags[t], 1);
  } else {
    while (Dev(flags[t]).load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[t * 16 + tile.thread_rank()];
  }
}

// LITMUS: forbidden
// The same with the tile's sync() between the writes and rank 15's publish.
__global__ void tileRankPublishSynced(int *data, int *flags, int *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned t = threadIdx.x / 16;
  if (blockIdx.x == 0) {
    data[t * 16 + tile.thread_rank()] = tile.thread_rank() + 1;
    tile.sync();
    __threadfence();
    if (tile.thread_rank() == 15)
      atomicExch(&flags[t], 1);
  } else {
    while (Dev(flags[t]).load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[t * 16 + tile.thread_rank()];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The block's rank 0 (its linear index) publishes the block's writes with no barrier.
__global__ void blockRankPublishNoBarrier(int *data, int *flag, int *out) {
  cg::thread_block block = cg::this_thread_block();
  if (blockIdx.x == 0) {
    data[block.thread_rank()] = 1;
    __threadfence();
    if (block.thread_rank() == 0)
      atomicExch(flag, 1);
  } else {
    if (block.thread_rank() == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    block.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same with block.sync() before the publish.
__global__ void blockRankPublishAfterSync(int *data, int *flag, int *out) {
  cg::thread_block block = cg::this_thread_block();
  if (blockIdx.x == 0) {
    data[block.thread_rank()] = 1;
    block.sync();
    if (block.thread_rank() == 0) {
      __threadfence();
      atomicExch(flag, 1);
    }
  } else {
    if (block.thread_rank() == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    block.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// A B-tree node locked by one rank of the 16-thread tile that works on it, its lock bit in the
// value of the node's last pair, as container libraries write it: each rank writes its pair's key.
struct Pair {
  unsigned key, value;
};
struct Node {
  Pair pairs[16];
};

__device__ void lockNode(cg::thread_block_tile<16> tile, Node *node) {
  unsigned old = 0;
  do {
    if (tile.thread_rank() == 15)
      old = atomicOr(&node->pairs[15].value, 0x80000000u);
    old = tile.shfl(old, 15);
  } while (old & 0x80000000u);
  __threadfence();
}

// LITMUS: allowed cuda-scope-release-acquire
// Each rank updates its pair's key in the locked node, every rank fences, and rank 15 clears the
// lock bit with no sync of the tile: the next holder may read the other ranks' keys stale.
__global__ void tileLockUnlockNoSync(Node *nodes, unsigned *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  Node *node = &nodes[0];
  lockNode(tile, node);
  unsigned v = node->pairs[tile.thread_rank()].key;
  node->pairs[tile.thread_rank()].key = v + 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  __threadfence();
  if (tile.thread_rank() == 15)
    atomicAnd(&node->pairs[15].value, 0x7fffffffu);
}

// LITMUS: forbidden
// The same with the tile's sync() before rank 15's unlock.
__global__ void tileLockUnlockSynced(Node *nodes, unsigned *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  Node *node = &nodes[0];
  lockNode(tile, node);
  unsigned v = node->pairs[tile.thread_rank()].key;
  node->pairs[tile.thread_rank()].key = v + 1;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  tile.sync();
  __threadfence();
  if (tile.thread_rank() == 15)
    atomicAnd(&node->pairs[15].value, 0x7fffffffu);
}

// LITMUS: allowed cuda-scope-release-acquire
// Ranks 0 to 14 update their keys and rank 15, which writes nothing, unlocks: the writers and the
// publisher are different threads on paths of their own (-O2 makes the two branches on the rank
// separate paths), and no sync of the tile orders the one after the others.
__global__ void tileLockOthersWriteNoSync(Node *nodes, unsigned *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  Node *node = &nodes[0];
  lockNode(tile, node);
  if (tile.thread_rank() < 15) {
    unsigned v = node->pairs[tile.thread_rank()].key;
    node->pairs[tile.thread_rank()].key = v + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
  __threadfence();
  if (tile.thread_rank() == 15)
    atomicAnd(&node->pairs[15].value, 0x7fffffffu);
}

// LITMUS: forbidden
// The same with the tile's sync() before rank 15's unlock.
__global__ void tileLockOthersWriteSynced(Node *nodes, unsigned *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  Node *node = &nodes[0];
  lockNode(tile, node);
  if (tile.thread_rank() < 15) {
    unsigned v = node->pairs[tile.thread_rank()].key;
    node->pairs[tile.thread_rank()].key = v + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
  tile.sync();
  __threadfence();
  if (tile.thread_rank() == 15)
    atomicAnd(&node->pairs[15].value, 0x7fffffffu);
}
