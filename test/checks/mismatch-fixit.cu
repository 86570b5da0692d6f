// The fix widens the narrower access's scope where it is written at the access:
// the scope argument of cuda::atomic_ref / cuda::atomic, or the _block builtin.
// RUN: cp %s %t.cu
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' --fix %t.cu -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cu
#include <cuda/atomic>

__global__ void temporary(int *Flag) {
  cuda::atomic_ref<int, cuda::thread_scope_block>(*Flag).store(1, cuda::memory_order_release);
  // CHECK: :[[@LINE-1]]:58: warning: 'Flag' is stored with thread_scope_block here but loaded with thread_scope_device {{.*}}; consider thread_scope_device [cuda-scope-mismatch]
  // CHECK: :[[@LINE-2]]:31: note: FIX-IT applied suggested code changes
  // CHECK: :[[@LINE+2]]:65: note: the thread_scope_device load is here
  // FIXED: {{^ *}}cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_release);
  (void)cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_acquire);
}

// A variable used twice gets one fix, at its declaration.
__global__ void variable(int *Flag) {
  cuda::atomic_ref<int, cuda::thread_scope_block> Ready(*Flag);
  // FIXED: {{^ *}}cuda::atomic_ref<int, cuda::thread_scope_device> Ready(*Flag);
  while (Ready.load(cuda::memory_order_acquire) == 0) {
    // CHECK: :[[@LINE-1]]:16: warning: 'Flag' is loaded with thread_scope_block here {{.*}} [cuda-scope-mismatch]
    // CHECK: :[[@LINE-4]]:31: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE+5]]:3: note: the thread_scope_device read-modify-write is here
  }
  Ready.store(0);
  // CHECK: :[[@LINE-1]]:9: warning: 'Flag' is stored with thread_scope_block here {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:3: note: the thread_scope_device read-modify-write is here
  atomicExch(Flag, 1);
}

// Unqualified names stay unqualified.
using namespace cuda;
__global__ void unqualified(unsigned *Count) {
  atomic_ref<unsigned, thread_scope_block>(*Count).fetch_add(1);
  // CHECK: :[[@LINE-1]]:52: warning: 'Count' is updated with thread_scope_block here {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE-2]]:24: note: FIX-IT applied suggested code changes
  // CHECK: :[[@LINE+2]]:3: note: the thread_scope_device read-modify-write is here
  // FIXED: {{^ *}}atomic_ref<unsigned, thread_scope_device>(*Count).fetch_add(1);
  atomicAdd(Count, 1u);
}

// A _block builtin loses its suffix.
__device__ float Sum;
__global__ void builtin(float V) {
  atomicAdd_block(&Sum, V);
  // CHECK: :[[@LINE-1]]:3: warning: 'Sum' is updated with thread_scope_block here {{.*}}; consider 'atomicAdd' [cuda-scope-mismatch]
  // CHECK: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK: :[[@LINE+2]]:3: note: the thread_scope_device read-modify-write is here
  // FIXED: {{^ *}}atomicAdd(&Sum, V);
  atomicExch(&Sum, 0.0f);
}

// No fix where the scope is not written at the access: through an alias, a
// macro or a template parameter, a fix would change other uses too.
using BlockRef = cuda::atomic_ref<int, cuda::thread_scope_block>;
#define NARROW cuda::thread_scope_block
template <cuda::thread_scope S> __device__ void put(int *P) { cuda::atomic_ref<int, S>(*P).store(1); }
// CHECK: :[[@LINE-1]]:92: warning: 'Flag' is stored with thread_scope_block here {{.*}} [cuda-scope-mismatch]
// CHECK: :[[@LINE+13]]:65: note: the thread_scope_device load is here
// FIXED: {{^ *}}using BlockRef = cuda::atomic_ref<int, cuda::thread_scope_block>;
// FIXED: {{^ *}}#define NARROW cuda::thread_scope_block
// FIXED: {{^ *}}template <cuda::thread_scope S> __device__ void put(int *P) { cuda::atomic_ref<int, S>(*P).store(1); }
__global__ void unfixable(int *Flag) {
  BlockRef(*Flag).store(1);
  // CHECK: :[[@LINE-1]]:19: warning: 'Flag' is stored with thread_scope_block here {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+6]]:65: note: the thread_scope_device load is here
  cuda::atomic_ref<int, NARROW>(*Flag).store(2);
  // CHECK: :[[@LINE-1]]:40: warning: 'Flag' is stored with thread_scope_block here {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+3]]:65: note: the thread_scope_device load is here
  put<cuda::thread_scope_block>(Flag);
  // FIXED: {{^ *}}put<cuda::thread_scope_block>(Flag);
  (void)cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load();
}

// Host threads take part: device scope widens to system scope.
#include <cuda_runtime.h>
__global__ void progress(int *Done) {
  atomicAdd(Done, 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'Done' is updated with thread_scope_device here but loaded with thread_scope_system in host function 'wait'; {{.*}}; consider 'atomicAdd_system' [cuda-scope-mismatch]
  // CHECK: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK: :[[@LINE+9]]:47: note: the thread_scope_system load is here
  // FIXED: {{^ *}}atomicAdd_system(Done, 1);
}
int wait(int Blocks) {
  int *Done;
  cudaMallocManaged(reinterpret_cast<void **>(&Done), sizeof(int), 1);
  *Done = 0;
  progress<<<Blocks, 1>>>(Done);
  int Seen;
  while ((Seen = cuda::atomic_ref<int>(*Done).load(cuda::memory_order_acquire)) < Blocks) {
  }
  return Seen;
}
