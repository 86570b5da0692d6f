// One thread of a cooperative group publishing for the group, against the real CUDA 13 headers:
// a tile's thread_rank() names the thread as its index does, and the group's own sync() (or a
// cuda::barrier's wait) is the barrier that makes the other ranks' writes the publisher's.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>

namespace cg = cooperative_groups;
using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void tilePublish(int *data, int *flags, int *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned t = threadIdx.x / 16;
  if (blockIdx.x == 0) {
    data[t * 16 + tile.thread_rank()] = 1;
    __threadfence();
    if (tile.thread_rank() == 15)
      atomicExch(&flags[t], 1);
    // CHECK: :[[@LINE-1]]:7: warning: 'flags' is published here by fewer threads than write 'data' before it, with no barrier between them; a release orders only its own thread's writes (and what that thread has seen), so a reader that sees the flag may still read the other threads' old data, or read it before they write it; consider '__syncthreads()' (or '__syncwarp()' among one warp's lanes) between their writes and the publish [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-5]]:39: note: 'data' is written here
    // CHECK: :[[@LINE+2]]:26: note: kernel 'tilePublish' receives 'flags' here
  } else {
    while (Dev(flags[t]).load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[t * 16 + tile.thread_rank()];
  }
}

// no-warning: the tile's sync() orders every rank's write before rank 15's publish.
__global__ void tilePublishSynced(int *data, int *flags, int *out) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned t = threadIdx.x / 16;
  if (blockIdx.x == 0) {
    data[t * 16 + tile.thread_rank()] = 1;
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

// no-warning: every thread waits on the block's cuda::barrier before thread 0 publishes.
__global__ void barrierObjectPublish(int *data, int *flag, int *out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    bar.arrive_and_wait();
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

// Arriving at the barrier waits for no one: thread 0 may publish before the others have written.
__global__ void arriveOnlyPublish(int *data, int *flag, int *out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    Barrier::arrival_token token = bar.arrive();
    if (threadIdx.x == 0)
      Dev(*flag).store(1, cuda::memory_order_release);
    // CHECK: :[[@LINE-1]]:18: warning: 'flag' is published here by fewer threads than write 'data' before it, with no barrier between them; a release orders only its own thread's writes (and what that thread has seen), so a reader that sees the flag may still read the other threads' old data, or read it before they write it; consider '__syncthreads()' (or '__syncwarp()' among one warp's lanes) between their writes and the publish [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-5]]:23: note: 'data' is written here
    // CHECK: :[[@LINE+4]]:25: note: kernel 'arriveOnlyPublish' receives 'flag' here
    bar.wait(static_cast<Barrier::arrival_token &&>(token));
  } else {
    if (threadIdx.x == 0)
      while (Dev(*flag).load(cuda::memory_order_acquire) == 0) {
      }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}
