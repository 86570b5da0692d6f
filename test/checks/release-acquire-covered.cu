// A receive whose data reached the reader through an earlier receive that is itself reported, on a
// flag that only threads past that receive's test publish, is not reported again: the elected
// warp leader of a last-ticket count takes a ring-buffer slot before it reads what the others
// wrote (cdpAdvancedQuicksort). The ticket's missing release and acquire are reported; the ring's
// wait is not. A ring bumped before the ticket is another thread's word, and its wait is reported.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// The IR pass reports the same places:
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*release-acquire-covered.cu:\([0-9]*\):\([0-9]*\): warning: .*$/\1 \2/p' | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -mllvm -sink-common-insts=false -fpass-plugin=%cuda_scope_pass \
// RUN:   -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*release-acquire-covered.cu:\([0-9]*\):\([0-9]*\): remark: .*$/\1 \2/p' | sort > %t.ir
// RUN: diff %t.tidy %t.ir

struct Ring {
  volatile unsigned head, tail;
};

__global__ void ringAfterTicket(int *data, unsigned *sorted, Ring *ring, int *out, unsigned warps, unsigned size) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    data[warp] = warp;
    if (atomicAdd(sorted, 1u) + 1u == warps) {
      // no-warning: the ring's wait below passes nothing the ticket does not
      while (ring->head - ring->tail >= size) {
      }
      unsigned slot = atomicAdd((unsigned *)&ring->head, 1u);
      out[slot % size] = data[0];
    }
  }
}
// CHECK: :[[@LINE-9]]:9: warning: 'sorted' is published here with a relaxed read-modify-write after plain writes to 'data', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
// CHECK: :[[@LINE-11]]:16: note: 'data' is written here
// CHECK: :[[@LINE-11]]:9: warning: 'sorted' is received here with a relaxed read-modify-write and 'data' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: :[[@LINE-7]]:26: note: 'data' is read here

__global__ void ringBeforeTicket(int *data, unsigned *sorted, Ring *ring, int *out, unsigned warps, unsigned size) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    data[warp] = warp;
    atomicAdd((unsigned *)&ring->head, 1u);
    if (atomicAdd(sorted, 1u) + 1u == warps) {
      while (ring->head - ring->tail >= size) {
      }
      out[0] = data[0];
    }
  }
}
// CHECK: :[[@LINE-7]]:9: warning: 'sorted' is published here with a relaxed read-modify-write after plain writes to 'data', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
// CHECK: :[[@LINE-10]]:16: note: 'data' is written here
// CHECK: :[[@LINE-9]]:9: warning: 'sorted' is received here with a relaxed read-modify-write and 'data' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: :[[@LINE-7]]:16: note: 'data' is read here
// CHECK: :[[@LINE-10]]:20: warning: 'ring->head' is received here with a volatile load and 'data' is read after it, with no acquire between them; the read may return data older than the flag; consider a cuda::atomic_ref acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: :[[@LINE-9]]:16: note: 'data' is read here
// CHECK: :[[@LINE-14]]:5: note: kernel 'ringBeforeTicket' publishes 'ring->head' here
