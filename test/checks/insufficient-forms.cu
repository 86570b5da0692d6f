// Every way of writing a scoped access, on memory that every block of the
// kernel reaches, with a scope that cannot include the other blocks.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda/barrier>

// A global counter bumped by every block through a block-scope atomic_ref.
__global__ void countAll(long long *Total) {
  cuda::atomic_ref<long long, cuda::thread_scope_block>(*Total).fetch_add(1, cuda::memory_order_relaxed);
  // CHECK: :[[@LINE-1]]:65: warning: 'Total' is updated with thread_scope_block by every block that runs kernel 'countAll'; thread_scope_block cannot include the other blocks; consider thread_scope_device [cuda-scope-insufficient]
}

// A _block builtin on a __device__ variable.
__device__ unsigned Next;
__global__ void ticket(unsigned *Out) {
  Out[blockIdx.x] = atomicInc_block(&Next, ~0u);
  // CHECK: :[[@LINE-1]]:21: warning: 'Next' is updated with thread_scope_block by every block that runs kernel 'ticket'; {{.*}} [cuda-scope-insufficient]
}

// A block-scope cuda::atomic object in global memory.
__device__ cuda::atomic<int, cuda::thread_scope_block> Claimed;
__global__ void claim() {
  Claimed.fetch_add(1);
  // CHECK: :[[@LINE-1]]:11: warning: 'Claimed' is updated with thread_scope_block by every block that runs kernel 'claim'; {{.*}} [cuda-scope-insufficient]
}

// The builtins that take the scope as an argument.
__global__ void scopeArguments(int *A, int *B) {
  __nv_atomic_fetch_add(A, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  // CHECK: :[[@LINE-1]]:3: warning: 'A' is updated with thread_scope_block by every block that runs kernel 'scopeArguments'; {{.*}} [cuda-scope-insufficient]
  __scoped_atomic_fetch_add(B, 1, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  // CHECK: :[[@LINE-1]]:3: warning: 'B' is updated with thread_scope_block by every block that runs kernel 'scopeArguments'; {{.*}} [cuda-scope-insufficient]
}

// Inline PTX: a block-scope reduction.
__global__ void ptxReduction(unsigned *Sum) {
  asm volatile("red.relaxed.cta.global.add.u32 [%0], %1;" ::"l"(Sum), "r"(1u) : "memory");
  // CHECK: :[[@LINE-1]]:3: warning: 'Sum' is updated with thread_scope_block by every block that runs kernel 'ptxReduction'; {{.*}} [cuda-scope-insufficient]
}

// A block-scope barrier in global memory, used by every block.
__device__ cuda::barrier<cuda::thread_scope_block> GridBarrier;
__global__ void gridSync() {
  GridBarrier.arrive_and_wait();
  // CHECK: :[[@LINE-1]]:15: warning: 'GridBarrier' is used as a barrier with thread_scope_block by every block that runs kernel 'gridSync'; {{.*}} [cuda-scope-insufficient]
}

// Thread scope includes only the thread itself.
__global__ void threadScope(int *Count) {
  cuda::atomic_ref<int, cuda::thread_scope_thread>(*Count).fetch_add(1);
  // CHECK: :[[@LINE-1]]:60: warning: 'Count' is updated with thread_scope_thread by every block that runs kernel 'threadScope'; thread_scope_thread cannot include the other blocks; consider thread_scope_device [cuda-scope-insufficient]
}

// An index that wraps (%) can put several blocks on one element.
__global__ void histogram(unsigned *Bins) {
  const int G = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd_block(&Bins[G % 64], 1u);
  // CHECK: :[[@LINE-1]]:3: warning: 'Bins' is updated with thread_scope_block by every block that runs kernel 'histogram'; {{.*}} [cuda-scope-insufficient]
}

// A device function no kernel of the file calls, on a __device__ variable.
__device__ int Errors;
__device__ void reportError() { atomicAdd_block(&Errors, 1); }
// CHECK: :[[@LINE-1]]:33: warning: 'Errors' is updated with thread_scope_block by every block that runs device function 'reportError'; {{.*}} [cuda-scope-insufficient]

// A device lambda handed to an algorithm the file does not show running.
template <class F> void forEachBlock(F Fn) { (void)Fn; }
void launchLambda() {
  forEachBlock([] __device__(int I) { atomicAdd_block(&Errors, I); });
  // CHECK: :[[@LINE-1]]:39: warning: 'Errors' is updated with thread_scope_block by every block that runs a device lambda; {{.*}} [cuda-scope-insufficient]
}
