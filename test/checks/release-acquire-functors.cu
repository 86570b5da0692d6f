// A functor handed to a library algorithm (thrust::for_each) runs in the library's kernel, which
// gets the functor by value as its argument: its pointer fields point to device memory, as a
// kernel's parameters do, and its call operator runs on many blocks. A slot lock taken with a
// relaxed fetch-or and no fence after it lets the read under the lock miss the last holder's write;
// both front ends say so, clang-tidy from the functor's own code, the IR pass from CUB's kernel.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|error}}:'
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s \
// RUN:   2>&1 | FileCheck %s --check-prefix=PASS --implicit-check-not='remark:'
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

struct AppendNoAcquire {
  unsigned *locks;
  int *next;
  int *out;
  __device__ void operator()(int i) const {
    unsigned slot = unsigned(i % 61);
    __threadfence();
    unsigned old = atomicOr(&locks[slot], 1u);
    // TIDY: :[[@LINE-1]]:20: warning: 'locks' is received here with a relaxed read-modify-write and 'next' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
    // CUB instantiates its kernel more than once (and -O2 merges the read's location in some): one
    // remark per distinct wording, the same one only once:
    // PASS-COUNT-2: :[[@LINE-4]]:20: remark: {{.*}} is received here (atomicOr, relaxed) and {{.*}} is read after it at {{.*}} with no acquire between them; the read can return stale data; consider '__threadfence()' after it
    // TIDY: :[[#@LINE+2]]:16: note: 'next' is read here
    if (!(old & 1u)) {
      out[i] = next[slot];
      next[slot] = i;
      __threadfence();
      atomicAnd(&locks[slot], ~1u);
      // TIDY: :[[@LINE-1]]:7: note: the call operator of 'AppendNoAcquire' publishes 'locks' here
    }
  }
};

// no-warning: the fixed twin, with a fence after the fetch-or.
struct AppendOrdered {
  unsigned *locks;
  int *next;
  int *out;
  __device__ void operator()(int i) const {
    unsigned slot = unsigned(i % 61);
    __threadfence();
    unsigned old = atomicOr(&locks[slot], 1u);
    __threadfence();
    if (!(old & 1u)) {
      out[i] = next[slot];
      next[slot] = i;
      __threadfence();
      atomicAnd(&locks[slot], ~1u);
    }
  }
};

void run(unsigned *locks, int *next, int *out, int n) {
  thrust::for_each(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n),
                   AppendNoAcquire{locks, next, out});
  thrust::for_each(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n),
                   AppendOrdered{locks, next, out});
}
