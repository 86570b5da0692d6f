// The clang-tidy check and the IR pass give the same advice for the same finding, whatever the
// flag's form (model/Wording): a plain or volatile flag becomes a cuda::atomic_ref access, an access
// that takes an order gets the order, CUDA's atomic builtins (which take none) get the fence alone,
// and a fence too narrow gets the fence of the scope the other side needs, a builtin for a builtin.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags > %t.tidy
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path -I%cuda_path/include/cccl \
// RUN:   -Wno-unknown-cuda-version -std=c++17 -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope \
// RUN:   -mllvm -sink-common-insts=false -S -o /dev/null %s 2> %t.ir
// RUN: %python %S/../tools/Inputs/advice_pairs.py %t.tidy %t.ir | FileCheck %s --implicit-check-not=only --implicit-check-not=differ
// CHECK: 29:11 same: a cuda::atomic_ref release store, or '__threadfence()' before it
// CHECK-NEXT: 32:12 same: a cuda::atomic_ref acquire load, or '__threadfence()' after it
// CHECK-NEXT: 42:22 same: a release store, or '__threadfence()' before it
// CHECK-NEXT: 45:29 same: an acquire load, or '__threadfence()' after it
// CHECK-NEXT: 55:5 same: '__threadfence()' before it
// CHECK-NEXT: 58:12 same: '__threadfence()' after it
// CHECK-NEXT: 68:5 same: '__threadfence()'
// CHECK-NEXT: 74:5 same: '__threadfence()'
// CHECK-NEXT: 83:5 same: thread_scope_device
// CHECK-NEXT: 89:5 same: thread_scope_device
#include <cuda/atomic>

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;

// A volatile flag: a plain access, which takes no order.
__global__ void volatileFlag(volatile int *flag, int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    *flag = 1;
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    data[1] = data[0];
  }
}

// A libcu++ flag written relaxed: an access that takes an order.
__global__ void relaxedFlag(int *flag, int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    DeviceRef(*flag).store(1, cuda::memory_order_relaxed);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (DeviceRef(*flag).load(cuda::memory_order_relaxed) == 0) {
    }
    data[1] = data[0];
  }
}

// CUDA's atomic builtins: relaxed, with no order to ask for.
__global__ void builtinFlag(int *flag, int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    atomicExch(flag, 1);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicCAS(flag, 1, 1) == 0) {
    }
    data[1] = data[0];
  }
}

// A block-scope builtin fence on either side of a message between blocks.
__global__ void blockBuiltinFences(int *flag, int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence_block();
    DeviceRef(*flag).store(1, cuda::memory_order_relaxed);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (DeviceRef(*flag).load(cuda::memory_order_relaxed) == 0) {
    }
    __threadfence_block();
    data[1] = data[0];
  }
}

// The same with libcu++'s fence.
__global__ void blockLibcuFences(int *flag, int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
    DeviceRef(*flag).store(1, cuda::memory_order_relaxed);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (DeviceRef(*flag).load(cuda::memory_order_relaxed) == 0) {
    }
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
    data[1] = data[0];
  }
}
