// Critical sections that only write, and objects reached through pointers kept in memory: the
// clang-tidy check and the IR pass report the same, each in its own words.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path -I%cuda_path/include/cccl \
// RUN:   -Wno-unknown-cuda-version -std=c++17 -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope \
// RUN:   -mllvm -sink-common-insts=false -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not='remark:'
#include <cuda/atomic>

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;

struct Comm {
  int *Flag;
  int *Data;
};

// The communicator's fields are one flag and one datum wherever they are read.
__global__ void commRelaxed(Comm *C, int *Out) {
  if (blockIdx.x == 0) {
    C->Data[threadIdx.x] = 42;
    DeviceRef(*C->Flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (DeviceRef(*C->Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    Out[blockIdx.x] = C->Data[threadIdx.x];
  }
}

// no-warning: release and acquire.
__global__ void commOrdered(Comm *C, int *Out) {
  if (blockIdx.x == 0) {
    C->Data[threadIdx.x] = 42;
    DeviceRef(*C->Flag).store(1, cuda::memory_order_release);
  } else {
    while (DeviceRef(*C->Flag).load(cuda::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = C->Data[threadIdx.x];
  }
}

// A spin lock around a section that only writes, with no fence: the holders' writes race.
__global__ void lastHolder(int *Lock, int *Last) {
  if (threadIdx.x == 0) {
    while (atomicCAS(Lock, 0, 1) != 0) {
    }
    *Last = blockIdx.x;
    atomicExch(Lock, 0);
  }
}

// no-warning: fenced after taking the lock and before handing it on.
__global__ void lastHolderFenced(int *Lock, int *Last) {
  if (threadIdx.x == 0) {
    while (atomicCAS(Lock, 0, 1) != 0) {
    }
    __threadfence();
    *Last = blockIdx.x;
    __threadfence();
    atomicExch(Lock, 0);
  }
}

// no-warning: output written only after the flag is seen; nothing was written before a publish.
__global__ void outputAfterFlag(int *Flag, int *Out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  } else if (threadIdx.x == 0) {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    *Out = 1;
  }
}

// no-warning: a flag read and set back after the output is written is a reset, not a hand-on.
__global__ void resetAfterOutput(int *Flag, int *Out) {
  if (threadIdx.x == 0) {
    Out[blockIdx.x] = 0;
    if (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 1) {
      *Out = 2;
      DeviceRef(*Flag).store(0, cuda::memory_order_relaxed);
    }
  }
}

// The findings, in the order each front end prints them (these lines are last, so the numbers stay).
// CHECK: release-acquire-kept.cu:22:25: warning: 'C->Flag' is published here with a relaxed store after plain writes to 'C->Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
// CHECK: release-acquire-kept.cu:21:26: note: 'C->Data' is written here
// CHECK: release-acquire-kept.cu:24:32: note: kernel 'commRelaxed' receives 'C->Flag' here
// CHECK: release-acquire-kept.cu:24:32: warning: 'C->Flag' is received here with a relaxed load and 'C->Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: release-acquire-kept.cu:26:23: note: 'C->Data' is read here
// CHECK: release-acquire-kept.cu:22:25: note: kernel 'commRelaxed' publishes 'C->Flag' here
// CHECK: release-acquire-kept.cu:45:12: warning: 'Lock' is received here with a relaxed read-modify-write and 'Last' is written after it, with no acquire between them; the write may be ordered before one made before the flag was published, which then overwrites it (the two writes race); consider '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: release-acquire-kept.cu:47:11: note: 'Last' is written here
// CHECK: release-acquire-kept.cu:48:5: note: kernel 'lastHolder' publishes 'Lock' here
// CHECK: release-acquire-kept.cu:48:5: warning: 'Lock' is published here with a relaxed read-modify-write after plain writes to 'Last', with no release between them; a thread in another block that sees the flag and then writes 'Last' may have that write overwritten by this earlier one (the two writes race); consider '__threadfence()' before it [cuda-scope-release-acquire]
// CHECK: release-acquire-kept.cu:47:11: note: 'Last' is written here
// CHECK: release-acquire-kept.cu:45:12: note: kernel 'lastHolder' receives 'Lock' here
// IR: release-acquire-kept.cu:22:25: remark: what the pointer at offset 0 of kernel argument 0 points to is published here (st.relaxed.gpu.b32, relaxed) after plain writes to what the pointer at offset 8 of kernel argument 0 points to at {{.*}}release-acquire-kept.cu:21:26 with no release between them, and kernel commRelaxed(Comm*, int*) waits on it; a consumer can see the flag before the data; consider a release store, or '__threadfence()' before it [-Rpass-analysis=cuda-scope]
// IR: release-acquire-kept.cu:24:32: remark: what the pointer at offset 0 of kernel argument 0 points to is received here (ld.relaxed.gpu.b32, relaxed) and what the pointer at offset 8 of kernel argument 0 points to is read after it at {{.*}}release-acquire-kept.cu:26:23 with no acquire between them; the read can return stale data; consider an acquire load, or '__threadfence()' after it [-Rpass-analysis=cuda-scope]
// IR: release-acquire-kept.cu:45:12: remark: kernel argument 0 is received here (atomicCAS, relaxed) and kernel argument 1 is written after it at {{.*}}release-acquire-kept.cu:47:11 with no acquire between them; the write can be ordered before one made before the flag was published, which then overwrites it (the two writes race); consider '__threadfence()' after it [-Rpass-analysis=cuda-scope]
// IR: release-acquire-kept.cu:48:5: remark: kernel argument 0 is published here (atomicExch, relaxed) after plain writes to kernel argument 1 at {{.*}}release-acquire-kept.cu:47:11 with no release between them, and kernel lastHolder(int*, int*) waits on it and then writes the same; that later write can be overwritten by this earlier one (the two writes race); consider '__threadfence()' before it [-Rpass-analysis=cuda-scope]
