// cuda-scope-release-acquire through an atomics library's own wrappers, which take the memory order
// as an argument and fence by it (stdgpu's atomic_load_thread_fence(order) is a switch; others test
// the order with if). Called with a constant order, the wrapper does what that order's case does: a
// relaxed call fences nothing, so the message below has neither a release nor an acquire; an
// acquire or release call fences, and the message is ordered. -O2 folds the switch once the wrapper
// is inlined; clang-tidy takes the case the argument selects. An order not known until run time
// leaves each case an alternative. Both clang-tidy sides, and the IR pass at the same lines.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags -DSTORE=relaxed_o -DLOAD=relaxed_o \
// RUN:   | FileCheck %s --check-prefix=RELAXED --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_host_flags -DSTORE=relaxed_o -DLOAD=relaxed_o \
// RUN:   | FileCheck %s --check-prefix=RELAXED --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags -DSTORE=release_o -DLOAD=acquire_o \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags -DSTORE=seq_cst_o -DLOAD=seq_cst_o \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags -DSTORE=release_o -DLOAD=relaxed_o \
// RUN:   | FileCheck %s --check-prefix=NOACQUIRE --implicit-check-not='{{warning|error}}:'
//
// The IR pass gives the same lines for each pair of orders.
// RUN: for o in "relaxed_o relaxed_o" "release_o acquire_o" "seq_cst_o seq_cst_o" "release_o relaxed_o"; do \
// RUN:   set -- $o; \
// RUN:   %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags -DSTORE=$1 -DLOAD=$2 2>/dev/null \
// RUN:     | sed -n 's/^.*order-arguments.cu:\([0-9]*\):[0-9]*: warning: .*$/\1/p' | sort -u; echo; done > %t.tidy
// RUN: for o in "relaxed_o relaxed_o" "release_o acquire_o" "seq_cst_o seq_cst_o" "release_o relaxed_o"; do \
// RUN:   set -- $o; \
// RUN:   %clang %toolkit_device_flags -DSTORE=$1 -DLOAD=$2 -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope \
// RUN:     -mllvm -sink-common-insts=false -S -o /dev/null %s 2>&1 \
// RUN:     | sed -n 's/^.*order-arguments.cu:\([0-9]*\):[0-9]*: remark: .* is \(published\|received\) here .*$/\1/p' | sort -u; echo; done > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: grep -c . %t.ir | grep -qx 3

enum order { relaxed_o, acquire_o, release_o, acq_rel_o, seq_cst_o };

__device__ inline void fenceAfterLoad(order o) {
  switch (o) {
  case acquire_o:
  case acq_rel_o:
  case seq_cst_o:
    __threadfence();
    break;
  case relaxed_o:
  case release_o:
  default:
    break;
  }
}

__device__ inline void fenceBeforeStore(order o) {
  if (o == release_o || o == acq_rel_o || o == seq_cst_o)
    __threadfence();
}

struct Flag {
  int *word;
  __device__ int load(order o) const {
    int v = atomicAdd(word, 0);
    fenceAfterLoad(o);
    return v;
  }
  __device__ void store(int v, order o) {
    fenceBeforeStore(o);
    atomicExch(word, v);
  }
};

__global__ void handOff(int *data, Flag flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    flag.store(1, STORE);
  } else {
    while (flag.load(LOAD) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}
// RELAXED: order-arguments.cu:57:13: warning: 'flag.word' is received here with a relaxed read-modify-write and 'data' is read after it, with no acquire between them
// RELAXED: order-arguments.cu:63:5: warning: 'flag.word' is published here with a relaxed read-modify-write after plain writes to 'data', with no release between them
// NOACQUIRE: order-arguments.cu:57:13: warning: 'flag.word' is received here with a relaxed read-modify-write and 'data' is read after it, with no acquire between them
