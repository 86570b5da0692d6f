// A fence orders relaxed accesses only for the threads of its scope: a
// block-scope fence next to a relaxed access to memory other blocks use
// cannot order it for them.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Strictness: evidence (the default) counts a fence only where some read of the object in the
// kernel is tested, so that a thread of it can synchronize with the pattern; wide counts every one.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-insufficient.Strictness: wide}}" -- %cuda_device_flags \
// RUN:   | FileCheck %s --check-prefixes=CHECK,WIDE --implicit-check-not='{{warning|note}}:'
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-insufficient.Strictness: everything}}" -- %cuda_device_flags 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: error: invalid value 'everything' for option 'Strictness' of check 'cuda-scope-insufficient': expected 'evidence' or 'wide'
#include <cuda/atomic>

// Release side: the fence, then the relaxed store of the flag, which block 0 waits for.
__global__ void publish(int *Data, int *Flag) {
  Data[blockIdx.x] = 42;
  __threadfence_block();
  // CHECK: :[[@LINE-1]]:3: warning: '__threadfence_block' orders the relaxed store of 'Flag' with thread_scope_block, but every block that runs kernel 'publish' accesses it; a fence's scope must include the threads it synchronizes with; consider '__threadfence()' [cuda-scope-insufficient]
  // CHECK: :[[@LINE+1]]:59: note: the relaxed store is here
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_relaxed);
  if (blockIdx.x == 0)
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
}

// The tested read may be a plain one: block 0 looks at the count, so the fence matters to it.
__global__ void plainReader(unsigned *Count, int *Out) {
  __threadfence_block();
  // CHECK: :[[@LINE-1]]:3: warning: '__threadfence_block' orders the relaxed read-modify-write of 'Count' with thread_scope_block{{.*}} [cuda-scope-insufficient]
  // CHECK: :[[@LINE+1]]:3: note: the relaxed read-modify-write is here
  atomicAdd(Count, 1u);
  if (blockIdx.x == 0 && *Count == gridDim.x)
    *Out = 1;
}

// no-warning: nothing in the kernel reads the flag, so no thread of it synchronizes with the
// pattern; the fence orders the block's own writes (a wider net: the release-acquire check's
// Strictness=wide, below).
__global__ void publishUnread(int *Data, int *Flag) {
  Data[blockIdx.x] = 42;
  __threadfence_block();
  // WIDE: :[[@LINE-1]]:3: warning: '__threadfence_block' orders the relaxed store of 'Flag' with thread_scope_block{{.*}} [cuda-scope-insufficient]
  // WIDE: :[[@LINE+1]]:59: note: the relaxed store is here
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_relaxed);
}

// no-warning: a histogram. No read of the bins is tested (nothing reads them in the kernel); the
// block-scope fence orders a warp's staging in shared memory, and the bins hand nothing over.
__global__ void histogram(const int *In, int *Bins) {
  __shared__ int Stage[256];
  int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  Stage[Warp * 32 + Lane] = In[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence_block();
  int V = Stage[Warp * 32 + (Lane + 1) % 32];
  // WIDE: :[[@LINE-2]]:3: warning: '__threadfence_block' orders the relaxed read-modify-write of 'Bins'{{.*}} [cuda-scope-insufficient]
  // WIDE: :[[@LINE+1]]:3: note: the relaxed read-modify-write is here
  atomicAdd(&Bins[V & 15], 1);
}

// Acquire side: the relaxed load of the flag, then the fence, then a read of what another block
// writes (the last block writes Data[0]).
__global__ void consume(int *Data, int *Flag, int *Out) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_relaxed) == 0) {
  }
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuda::atomic_thread_fence' orders the relaxed load of 'Flag' with thread_scope_block, {{.*}}; consider thread_scope_device [cuda-scope-insufficient]
  // CHECK: :[[@LINE-4]]:66: note: the relaxed load is here
  *Out = Data[0];
  Data[(blockIdx.x + 1) % gridDim.x] = 1;
}

// no-warning: the same with nothing read after the wait that the kernel writes (Data is its
// input): the acquire pattern has nothing to order, whatever its scope (a poll's delay).
__global__ void consumeInput(const int *Data, int *Flag, int *Out) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_relaxed) == 0) {
  }
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  // WIDE: :[[@LINE-1]]:3: warning: 'cuda::atomic_thread_fence' orders the relaxed load of 'Flag' with thread_scope_block, {{.*}}; consider thread_scope_device [cuda-scope-insufficient]
  // WIDE: :[[@LINE-4]]:66: note: the relaxed load is here
  *Out = Data[0];
}

// The same with inline PTX and with nvcc's builtin fence.
__global__ void ptxFence(unsigned *Count, unsigned *Last) {
  asm volatile("fence.acq_rel.cta;" ::: "memory");
  // CHECK: :[[@LINE-1]]:3: warning: 'fence.acq_rel.cta' orders the relaxed read-modify-write of 'Count' with thread_scope_block, {{.*}} [cuda-scope-insufficient]
  // CHECK: :[[@LINE+1]]:7: note: the relaxed read-modify-write is here
  if (atomicAdd(Count, 1u) == gridDim.x - 1)
    *Last = blockIdx.x;
}
__global__ void nvFence(int *Flag) {
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  // CHECK: :[[@LINE-1]]:3: warning: '__nv_atomic_thread_fence' orders the relaxed store of 'Flag' with thread_scope_block, {{.*}} [cuda-scope-insufficient]
  // CHECK: :[[@LINE+1]]:3: note: the relaxed store is here
  __nv_atomic_store_n(Flag, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  while (__nv_atomic_load_n(Flag, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) == 0) {
  }
}

__global__ void fineFences(int *Flag, int *Other) {
  __shared__ int Local;
  __threadfence();
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_relaxed); // no-warning: a device-scope fence
  __threadfence_block(); // no-warning: the store after it is a release, which orders itself
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(2, cuda::memory_order_release);
  __threadfence_block(); // no-warning: shared memory, every accessor is in the block
  cuda::atomic_ref<int, cuda::thread_scope_block>(Local).store(1, cuda::memory_order_relaxed);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_thread); // no-warning: a thread-scope fence orders nothing for other threads, and claims nothing
  cuda::atomic_ref<int, cuda::thread_scope_device>(*Other).store(1, cuda::memory_order_relaxed);
}
