// A collective library's flat window: every GPU's inboxes are mapped one stride apart, and a
// peer's inbox is the base moved through an integer. The move keeps the object, so the signal
// written to a peer's slot and the wait on this GPU's own slot are one flag, and what the
// threads wrote into the peers' buffers before the signal is its data. Both front ends follow
// the integer, whether the move casts the pointer or rewrites its high word through a union.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note}}:'
// RUN: %clang %cuda_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
#include <cuda_runtime.h>

typedef unsigned long uintptr_t;
typedef unsigned long uint64_t;

#define ST(order, p, v) asm volatile("st.global." #order ".sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define LD(order, v, p) asm volatile("ld.global." #order ".sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")

struct Team {
  char *inboxes;  // this GPU's view of the flat window of inboxes
  float *bufs[8]; // the peers' buffers
  unsigned stride4G;
  int rank, nRanks;
  unsigned epoch;
  float *out;
};

__device__ __forceinline__ unsigned *peerInbox(const Team &t, int owner, int peer) {
  uintptr_t base = reinterpret_cast<uintptr_t>(t.inboxes);
  return reinterpret_cast<unsigned *>(base + (uint64_t(unsigned(owner) * t.stride4G) << 32)) + peer;
}

__device__ __forceinline__ char *moveHigh(char *p, int delta) {
  union {
    unsigned words[2];
    char *whole;
  };
  whole = p;
  words[1] += delta;
  return whole;
}

__global__ void exchangeRelaxed(Team t) {
  int i = threadIdx.x;
  for (int p = 0; p < t.nRanks; ++p)
    t.bufs[p][t.rank * blockDim.x + i] = 1.0f;
  __syncthreads();
  if (i < t.nRanks) {
    ST(relaxed, peerInbox(t, i, t.rank), t.epoch);
    // TIDY: :[[@LINE-1]]:5: warning: 't.inboxes' is published here with a relaxed store after plain writes to 't.bufs', with no release between them; {{.*}} [cuda-scope-release-acquire]
    // TIDY: note: expanded from macro 'ST'
    // TIDY: :[[@LINE-6]]:40: note: 't.bufs' is written here
    // TIDY: :[[@LINE+5]]:7: note: kernel 'exchangeRelaxed' receives 't.inboxes' here
    // TIDY: note: expanded from macro 'LD'
    // PASS: :[[@LINE-6]]:5: remark: what the pointer at offset 0 of kernel argument 0 points to is published here (st.global.relaxed.sys.b32, relaxed) after plain writes to {{.*}} with no release between them
    unsigned seen;
    do {
      LD(acquire, seen, peerInbox(t, t.rank, i));
    } while (seen != t.epoch);
  }
  __syncthreads();
  t.out[i] = t.bufs[t.rank][i];
}

__global__ void exchangeUnionRelaxedWait(Team t) {
  int i = threadIdx.x;
  for (int p = 0; p < t.nRanks; ++p)
    t.bufs[p][t.rank * blockDim.x + i] = 1.0f;
  __syncthreads();
  if (i < t.nRanks) {
    unsigned *theirs = reinterpret_cast<unsigned *>(moveHigh(t.inboxes, i * t.stride4G)) + t.rank;
    unsigned *mine = reinterpret_cast<unsigned *>(moveHigh(t.inboxes, t.rank * t.stride4G)) + i;
    ST(release, theirs, t.epoch);
    unsigned seen;
    do {
      LD(relaxed, seen, mine);
      // TIDY: :[[@LINE-1]]:7: warning: 't.inboxes' is received here with a relaxed load and 't.bufs' is read after it, with no acquire between them; {{.*}} [cuda-scope-release-acquire]
      // TIDY: note: expanded from macro 'LD'
      // TIDY: :[[@LINE+7]]:14: note: 't.bufs' is read here
      // TIDY: :[[@LINE-7]]:5: note: kernel 'exchangeUnionRelaxedWait' publishes 't.inboxes' here
      // TIDY: note: expanded from macro 'ST'
      // PASS: :[[@LINE-6]]:7: remark: what the pointer at offset 0 of kernel argument 0 points to is received here (ld.global.relaxed.sys.b32, relaxed) and {{.*}} is read after it {{.*}} with no acquire between them
    } while (seen != t.epoch);
  }
  __syncthreads();
  t.out[i] = t.bufs[t.rank][i];
}

// no-warning: a release signal and an acquire wait, with block barriers on both sides.
__global__ void exchangeOrdered(Team t) {
  int i = threadIdx.x;
  for (int p = 0; p < t.nRanks; ++p)
    t.bufs[p][t.rank * blockDim.x + i] = 1.0f;
  __syncthreads();
  if (i < t.nRanks) {
    ST(release, peerInbox(t, i, t.rank), t.epoch);
    unsigned seen;
    do {
      LD(acquire, seen, peerInbox(t, t.rank, i));
    } while (seen != t.epoch);
  }
  __syncthreads();
  t.out[i] = t.bufs[t.rank][i];
}
