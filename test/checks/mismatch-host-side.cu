// On the host side of a CUDA file the device functions are parsed as well, so
// the check reports the same races as on the device side.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

__device__ void produce(int *Data, int *Flag) {
  *Data = 42;
  cuda::atomic_ref<int, cuda::thread_scope_block>(*Flag).store(1, cuda::memory_order_release);
  // CHECK: :[[@LINE-1]]:58: warning: 'Flag' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'messages'; the scopes must include each other; consider thread_scope_device [cuda-scope-mismatch]
  // CHECK: :[[@LINE+4]]:16: note: the thread_scope_device load is here
}
__device__ int consume(int *Data, int *Flag) {
  cuda::atomic_ref<int, cuda::thread_scope_device> Ready(*Flag);
  while (Ready.load(cuda::memory_order_acquire) != 1) {
  }
  return *Data;
}
__global__ void messages(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0)
    produce(Data, Flag);
  else
    *Out = consume(Data, Flag);
}

__device__ unsigned Arrived;
__global__ void arrive() {
  atomicInc_block(&Arrived, ~0u);
  // CHECK: :[[@LINE-1]]:3: warning: 'Arrived' is updated with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'arrive'; {{.*}}; consider 'atomicInc' [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:72: note: the thread_scope_device load is here
  (void)cuda::atomic_ref<unsigned, cuda::thread_scope_device>(Arrived).load();
}

void run(int *Data, int *Flag, int *Out) {
  messages<<<2, 1>>>(Data, Flag, Out);
  arrive<<<8, 32>>>();
}
