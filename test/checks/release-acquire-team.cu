// A kernel's messages to and from the other GPUs of its team, through a library's symmetric
// window (functions named as NCCL's device API names them), against the real toolkit's headers:
// a relaxed arrival after writes into the peers' slots, and a relaxed wait before reads of them.
// Both front ends report each at the signal or the wait; NOLINT silences one; writes into this
// GPU's own slot need no release.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note}}:'
// RUN: %clang %toolkit_device_flags -O2 -gline-tables-only -mllvm -sink-common-insts=false \
// RUN:   -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
// The command runs both sides and the pass, and its SARIF names the rule at the same places.
// RUN: %cuda_scope_tool --format=sarif -o %t.sarif %s -- --cuda-gpu-arch=sm_90 %toolkit_arch_flags || true
// RUN: %python -c "import json; [print(r['ruleId'], r['locations'][0]['physicalLocation']['region']['startLine']) for r in json.load(open('%t.sarif'))['runs'][0]['results']]" \
// RUN:   | FileCheck %s --check-prefix=SARIF
// SARIF: cuda-scope-release-acquire 50
// SARIF-NEXT: cuda-scope-release-acquire 66
// SARIF-NOT: cuda-scope
#include <cstddef>
#include <cstdint>
#include <cuda/atomic>

using Sys = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;

struct Window {
  char *base;
  unsigned stride4G;
  int rank;
};

__device__ __forceinline__ char *slot(const Window *w, int owner) {
  return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(w->base) + (uint64_t(unsigned(owner * w->stride4G)) << 32));
}
__device__ __forceinline__ void *ncclGetLsaPointer(const Window *w, size_t offset, int peer) {
  return slot(w, peer) + offset;
}
__device__ __forceinline__ void *ncclGetLocalPointer(const Window *w, size_t offset) {
  return slot(w, w->rank) + offset;
}

// The last barrier of an all-gather, asked for relaxed.
// TIDY: release-acquire-team.cu:[[@LINE+9]]:17: warning: 'sig->base' signals the other GPUs here with a relaxed store after plain writes to 'data->base' in another GPU's memory, with no release between them; a GPU that sees the signal may read that memory, in this kernel or in the work its stream runs after it, before the writes arrive; consider a release store, or '__threadfence_system()' before it [cuda-scope-release-acquire]
// TIDY: release-acquire-team.cu:[[@LINE+4]]:86: note: 'data->base' is written here
// PASS: release-acquire-team.cu:[[@LINE+7]]:17: remark: what the pointer at offset 0 of kernel argument 1 points to signals the other GPUs here (st.relaxed.sys.b32, relaxed) after plain writes to what the pointer at offset 0 of kernel argument 0 points to in another GPU's memory at {{.*}}release-acquire-team.cu:[[@LINE+3]]:86 with no release between them
__global__ void allGather(const Window *data, const Window *sig, const float *src, int nRanks, unsigned epoch) {
  for (int p = 0; p < nRanks; ++p)
    static_cast<float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x] = src[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + sig->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) != epoch) {
    }
  }
}

// The first barrier of a reduction, waited for relaxed.
// TIDY: release-acquire-team.cu:[[@LINE+8]]:23: warning: 'sig->base' is waited for here with a relaxed load and 'data->base' is read from another GPU's memory after it, with no acquire between them; the read may return what that memory held before the peer signalled, older than what the peer wrote before it (in this kernel or before it began); consider an acquire load, or '__threadfence_system()' after it [cuda-scope-release-acquire]
// TIDY: release-acquire-team.cu:[[@LINE+13]]:12: note: 'data->base' is read here
// PASS: release-acquire-team.cu:[[@LINE+6]]:23: remark: what the pointer at offset 0 of kernel argument 1 points to is waited for here (ld.relaxed.sys.b32, relaxed) and what the pointer at offset 0 of kernel argument 0 points to in another GPU's memory is read after it at {{.*}}release-acquire-team.cu:[[@LINE+12]]:12 with no acquire between them
__global__ void reduce(const Window *data, const Window *sig, float *out, int nRanks, unsigned epoch) {
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + sig->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
  __syncthreads();
  float sum = 0;
  for (int p = 0; p < nRanks; ++p)
    sum += static_cast<const float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x];
  out[threadIdx.x] = sum;
}

// The same all-gather, its relaxed arrival marked as intended: clang-tidy honours the NOLINT, the
// command holds the pass's remark to it (the SARIF below has no result here).
// PASS: release-acquire-team.cu:[[@LINE+7]]:17: remark: {{.*}} signals the other GPUs here
__global__ void allGatherKnown(const Window *data, const Window *sig, const float *src, int nRanks, unsigned epoch) {
  for (int p = 0; p < nRanks; ++p)
    static_cast<float *>(ncclGetLsaPointer(data, blockIdx.x * 4096, p))[threadIdx.x] = src[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + sig->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed); // NOLINT(cuda-scope-release-acquire)
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_acquire) != epoch) {
    }
  }
}

// no-warning: a reduce-scatter writes only its own GPU's slot before the relaxed barrier; its
// stream orders the kernel before its own later work, and a peer reads the slot only after its
// next barrier's acquire.
__global__ void reduceScatterTail(const Window *data, const Window *sig, const float *src, int nRanks, unsigned epoch) {
  static_cast<float *>(ncclGetLocalPointer(data, blockIdx.x * 4096))[threadIdx.x] = src[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < nRanks) {
    unsigned *inbox = static_cast<unsigned *>(ncclGetLsaPointer(sig, (blockIdx.x * 64 + sig->rank) * 4, threadIdx.x));
    Sys(*inbox).store(epoch, cuda::memory_order_relaxed);
    unsigned *mine = static_cast<unsigned *>(ncclGetLocalPointer(sig, (blockIdx.x * 64 + threadIdx.x) * 4));
    while (Sys(*mine).load(cuda::memory_order_relaxed) != epoch) {
    }
  }
}
