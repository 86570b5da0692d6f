// On the host side of a CUDA file the device functions are parsed as well, so
// the check reports the same findings as on the device side.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void count(unsigned long long *Total, unsigned *Ticket, unsigned *Drawn) {
  using Counter = cuda::atomic_ref<unsigned long long, cuda::thread_scope_block>;
  Counter(*Total).fetch_add(1, cuda::memory_order_relaxed);
  // CHECK: :[[@LINE-1]]:19: warning: 'Total' is updated with thread_scope_block by every block that runs kernel 'count'; thread_scope_block cannot include the other blocks; consider thread_scope_device [cuda-scope-insufficient]
  if (threadIdx.x == 0) {
    unsigned T = cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*Ticket).fetch_add(1);
    // CHECK: :[[@LINE-1]]:80: warning: 'Ticket' is updated with thread_scope_block by every block that runs kernel 'count'; {{.*}} [cuda-scope-insufficient]
    atomicAdd(&Drawn[T], 1u); // no-warning: device scope
  }
}

__global__ void signal(int *Data, int *Flag) {
  Data[blockIdx.x] = 1;
  __threadfence_block();
  // CHECK: :[[@LINE-1]]:3: warning: '__threadfence_block' orders the relaxed store of 'Flag' with thread_scope_block, {{.*}} [cuda-scope-insufficient]
  // CHECK: :[[@LINE+1]]:59: note: the relaxed store is here
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_relaxed);
  if (blockIdx.x == 0) // block 0 waits for the flag: a thread of the kernel that synchronizes
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
}

void run(unsigned long long *Total, unsigned *Ticket, unsigned *Drawn, int *Data, int *Flag) {
  count<<<264, 512>>>(Total, Ticket, Drawn);
  signal<<<264, 512>>>(Data, Flag);
}
