// Every way of writing a scoped access, each racing with a device-scope access
// to the same object from another block of the same kernel.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>

// cuda::atomic_ref, as a temporary and as a variable: the libcu++ example of a
// data race (Example: Message Passing).
__global__ void refTemporary(int *Data, int *Flag) {
  if (blockIdx.x == 0) {
    *Data = 42;
    cuda::atomic_ref<int, cuda::thread_scope_block>(*Flag).store(1, cuda::memory_order_release);
    // CHECK: :[[@LINE-1]]:60: warning: 'Flag' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'refTemporary'; the scopes must include each other; consider thread_scope_device [cuda-scope-mismatch]
    // CHECK: :[[@LINE+3]]:14: note: the thread_scope_device load is here
  } else {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(*Flag);
    while (F.load(cuda::memory_order_acquire) != 1) {
    }
  }
}

// Operators and conversions of an atomic_ref variable.
__global__ void refOperators(unsigned *Count) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> C(*Count);
  C++;
  // CHECK: :[[@LINE-1]]:3: warning: 'Count' is updated with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'refOperators'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+4]]:65: note: the thread_scope_device read-modify-write is here
  unsigned Seen = C;
  // CHECK: :[[@LINE-1]]:19: warning: 'Count' is loaded with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'refOperators'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:65: note: the thread_scope_device read-modify-write is here
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*Count).fetch_add(Seen);
}

// The CUDA atomic functions: atomicAdd_block is block scope, atomicAdd device scope.
__device__ int Hits;
__global__ void builtins() {
  atomicAdd_block(&Hits, 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'Hits' is updated with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'builtins'; the scopes must include each other; consider 'atomicAdd' [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:3: note: the thread_scope_device read-modify-write is here
  atomicAdd(&Hits, 1);
  atomicExch_system(&Hits, 0); // no-warning: system scope includes every thread
}

// nvcc's __nv_atomic_* builtins take the scope as an argument.
__global__ void nvBuiltins(int *Flag) {
  __nv_atomic_store_n(Flag, 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  // CHECK: :[[@LINE-1]]:3: warning: 'Flag' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'nvBuiltins'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:11: note: the thread_scope_device load is here
  while (!__nv_atomic_load_n(Flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE)) {
  }
}

// clang's __scoped_atomic_* builtins take a __MEMORY_SCOPE_* argument.
__global__ void clangBuiltins(int *Flag) {
  __scoped_atomic_fetch_add(Flag, 1, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  // CHECK: :[[@LINE-1]]:3: warning: 'Flag' is updated with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'clangBuiltins'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:9: note: the thread_scope_device load is here
  (void)__scoped_atomic_load_n(Flag, __ATOMIC_ACQUIRE, __MEMORY_SCOPE_DEVICE);
}

// Inline PTX: %N counts the outputs, then the inputs.
__global__ void inlinePtx(int *Flag) {
  asm volatile("st.release.cta.b32 [%0], %1;" ::"l"(Flag), "r"(1) : "memory");
  // CHECK: :[[@LINE-1]]:3: warning: 'Flag' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'inlinePtx'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+2]]:3: note: the thread_scope_device load is here
  int Seen;
  asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(Seen) : "l"(Flag) : "memory");
  asm volatile("ld.global.b32 %0, [%1];" : "=r"(Seen) : "l"(Flag)); // no-warning: a plain load
}

// cuda::std::atomic_ref is system scope, which includes every thread.
__global__ void stdRef(int *Flag) {
  cuda::std::atomic_ref<int>(*Flag).store(1, cuda::std::memory_order_release);
  cuda::atomic_ref<int, cuda::thread_scope_block>(*Flag).load(cuda::memory_order_acquire);
  // CHECK: :[[@LINE-1]]:58: warning: 'Flag' is loaded with thread_scope_block here but stored with thread_scope_system in other blocks of kernel 'stdRef'; the scopes must include each other; consider thread_scope_device [cuda-scope-mismatch]
  // CHECK: :[[@LINE-3]]:37: note: the thread_scope_system store is here
}
