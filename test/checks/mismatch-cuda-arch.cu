// Code under #if __CUDA_ARCH__ exists only on the device side: the race it
// holds is reported there and not on the host side.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --check-prefix=DEVICE --implicit-check-not='{{warning|note}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>

__global__ void signal(int *Flag) {
#if __CUDA_ARCH__ >= 700
  cuda::atomic_ref<int, cuda::thread_scope_block>(*Flag).store(1, cuda::memory_order_release);
  // DEVICE: :[[@LINE-1]]:58: warning: 'Flag' is stored with thread_scope_block here {{.*}} [cuda-scope-mismatch]
  // DEVICE: :[[@LINE+3]]:63: note: the thread_scope_device load is here
#endif
  while (
      cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_acquire) != 1) {
  }
}
