// team-publish, bug: one GPU writes a slice into its peer's window, then signals the peer with a relaxed store.
#include <cuda/atomic>

#include "../../common/harness.cuh"

// Two GPUs with peer access share a window: each GPU's buffer, as this GPU maps it, one entry per
// rank, written as a collective library's device API names its accessors (NCCL's
// ncclGetLsaPointer / ncclGetLocalPointer).
struct Window {
  char* peers[2];
  int rank;
};
__device__ __forceinline__ void* ncclGetLsaPointer(const Window* w, size_t offset, int peer) {
  return w->peers[peer] + offset;
}
__device__ __forceinline__ void* ncclGetLocalPointer(const Window* w, size_t offset) {
  return w->peers[w->rank] + offset;
}

using SysRef = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;

// The same kernel runs on both GPUs. On rank 0, block b writes its slice into rank 1's buffer over
// NVLink, the block syncs, and thread 0 signals slot b of rank 1's inbox, then waits for rank 1's
// acknowledgement in its own inbox (a barrier between the two GPUs). On rank 1, thread 0 of block b
// waits for the signal with an acquire load, the block syncs, every thread checks its element of
// its own buffer, and thread 0 acknowledges into rank 0's inbox.
__global__ void team_publish(const Window* data, const Window* sig, int* wrong, int* timeouts, unsigned epoch,
                             int spin) {
  const size_t slice = size_t(blockIdx.x) * blockDim.x * sizeof(unsigned);
  const size_t slot = blockIdx.x * sizeof(unsigned);
  if (data->rank == 0) {
    unsigned* dst = static_cast<unsigned*>(ncclGetLsaPointer(data, slice, 1));
    dst[threadIdx.x] = epoch;
    __syncthreads();
    if (threadIdx.x == 0) {
      SysRef inbox(*static_cast<unsigned*>(ncclGetLsaPointer(sig, slot, 1)));
      // BUG: a relaxed signal: the block's writes into the peer's memory do not travel with it
      inbox.store(epoch, cuda::memory_order_relaxed);
      SysRef ack(*static_cast<unsigned*>(ncclGetLocalPointer(sig, slot)));
      int i = 0;
      while (i++ < spin && ack.load(cuda::memory_order_acquire) != epoch) {
      }
      if (i > spin)
        atomicAdd(timeouts, 1);
    }
  } else {
    __shared__ unsigned seen;
    if (threadIdx.x == 0) {
      SysRef inbox(*static_cast<unsigned*>(ncclGetLocalPointer(sig, slot)));
      unsigned v = 0;
      for (int i = 0; i < spin && (v = inbox.load(cuda::memory_order_acquire)) != epoch; ++i) {
      }
      if (v != epoch)
        atomicAdd(timeouts, 1);
      seen = v;
    }
    __syncthreads();
    const unsigned* mine = static_cast<const unsigned*>(ncclGetLocalPointer(data, slice));
    if (seen == epoch && mine[threadIdx.x] != epoch)
      atomicAdd(wrong, 1);
    __syncthreads();
    if (threadIdx.x == 0)
      SysRef(*static_cast<unsigned*>(ncclGetLsaPointer(sig, slot, 0))).store(epoch, cuda::memory_order_release);
  }
}

int main(int argc, char** argv) {
  const char* name = "team-publish";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 20000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 10.0);
  int n = 0, p01 = 0, p10 = 0;
  HARNESS_CHECK(cudaGetDeviceCount(&n));
  if (n >= 2) {
    HARNESS_CHECK(cudaDeviceCanAccessPeer(&p01, 0, 1));
    HARNESS_CHECK(cudaDeviceCanAccessPeer(&p10, 1, 0));
  }
  if (n < 2 || !p01 || !p10) {
    fprintf(stderr, "%s/%s: needs two GPUs with peer access (%d GPU(s)): skipped (exit 77)\n", name, variant, n);
    return 77;
  }
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  // One block per SM on each GPU: every block is resident on both, so no spin waits on a block
  // that cannot run.
  const int blocks = p.multiProcessorCount, threads = 256;
  char *buf[2], *inb[2];
  Window* win[2][2];  // [gpu][data, sig]
  int *wrong[2], *timeouts[2];
  for (int g = 0; g < 2; ++g) {
    HARNESS_CHECK(cudaSetDevice(g));
    HARNESS_CHECK(cudaDeviceEnablePeerAccess(1 - g, 0));
    HARNESS_CHECK(cudaMalloc(&buf[g], sizeof(unsigned) * blocks * threads));
    HARNESS_CHECK(cudaMalloc(&inb[g], sizeof(unsigned) * blocks));
    HARNESS_CHECK(cudaMemset(buf[g], 0, sizeof(unsigned) * blocks * threads));
    HARNESS_CHECK(cudaMemset(inb[g], 0, sizeof(unsigned) * blocks));
    HARNESS_CHECK(cudaMalloc(&wrong[g], sizeof(int)));
    HARNESS_CHECK(cudaMalloc(&timeouts[g], sizeof(int)));
    HARNESS_CHECK(cudaMemset(wrong[g], 0, sizeof(int)));
    HARNESS_CHECK(cudaMemset(timeouts[g], 0, sizeof(int)));
  }
  for (int g = 0; g < 2; ++g) {
    HARNESS_CHECK(cudaSetDevice(g));
    Window w[2] = {{{buf[0], buf[1]}, g}, {{inb[0], inb[1]}, g}};
    for (int k = 0; k < 2; ++k) {
      HARNESS_CHECK(cudaMalloc(&win[g][k], sizeof(Window)));
      HARNESS_CHECK(cudaMemcpy(win[g][k], &w[k], sizeof(Window), cudaMemcpyHostToDevice));
    }
  }
  harness::Stopwatch clock;
  long done = 0;
  while (done < launches) {
    for (int g = 0; g < 2; ++g) {
      HARNESS_CHECK(cudaSetDevice(g));
      team_publish<<<blocks, threads>>>(win[g][0], win[g][1], wrong[g], timeouts[g], unsigned(done + 1), 1 << 22);
      HARNESS_CHECK(cudaGetLastError());
    }
    ++done;
    if (done % 64 == 0) {
      for (int g = 0; g < 2; ++g) {
        HARNESS_CHECK(cudaSetDevice(g));
        HARNESS_CHECK(cudaDeviceSynchronize());
      }
      if (clock.seconds() > max_seconds)
        break;
    }
  }
  cudaError_t err = cudaSuccess;
  int wrong_host = 0, timeouts_host = 0;
  for (int g = 0; g < 2; ++g) {
    HARNESS_CHECK(cudaSetDevice(g));
    const cudaError_t e = cudaDeviceSynchronize();
    if (err == cudaSuccess)
      err = e;
    int w = 0, t = 0;
    HARNESS_CHECK(cudaMemcpy(&w, wrong[g], sizeof(int), cudaMemcpyDeviceToHost));
    HARNESS_CHECK(cudaMemcpy(&t, timeouts[g], sizeof(int), cudaMemcpyDeviceToHost));
    wrong_host += w;
    timeouts_host += t;
  }
  const double seconds = clock.seconds();
  const long long reads = (long long)done * blocks * threads;
  printf("%ld launches of %d blocks on each of 2 GPUs in %.1f s: %d of %lld reads after the signal were stale; %d spins gave up; %s\n",
         done, blocks, seconds, wrong_host, reads, timeouts_host, cudaGetErrorName(err));
  harness::result(name, variant, reads, wrong_host + timeouts_host + (err != cudaSuccess))
      .num("launches", done)
      .num("stale_reads", wrong_host)
      .num("timeouts", timeouts_host)
      .num("error", err)
      .print();
  return 0;
}
