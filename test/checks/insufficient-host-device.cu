// Memory the file shows host and device both reach (cudaMallocManaged): when
// host and device threads access it atomically, only system scope includes
// them all.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void work(unsigned *Done) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*Done).fetch_add(1, cuda::memory_order_release);
  // CHECK: :[[@LINE-1]]:64: warning: 'Done' is updated with thread_scope_device here, and both host and device threads access it; thread_scope_device cannot include them all; consider thread_scope_system [cuda-scope-insufficient]
  // CHECK: :[[@LINE+8]]:71: note: host function 'wait' accesses 'Done' here
}

unsigned wait(unsigned Blocks) {
  unsigned *Done;
  cudaMallocManaged(reinterpret_cast<void **>(&Done), sizeof(unsigned), 1);
  *Done = 0;
  work<<<Blocks, 1>>>(Done);
  while (cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*Done).load(cuda::memory_order_acquire) < Blocks) {
    // CHECK: :[[@LINE-1]]:71: warning: 'Done' is loaded with thread_scope_device here, and both host and device threads access it; {{.*}} [cuda-scope-insufficient]
    // CHECK: :[[@LINE-12]]:64: note: kernel 'work' accesses 'Done' here
  }
  return *Done;
}

// Host-only atomics on host memory are not the device's business.
int hostOnly() {
  static int Count;
  return cuda::atomic_ref<int, cuda::thread_scope_device>(Count).fetch_add(1); // no-warning: host memory only
}
