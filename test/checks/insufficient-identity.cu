// Memory every block reaches, found through the ways the file shows where a
// pointer comes from.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

// A field of a struct the kernel argument points to, updated in a helper.
struct Progress {
  unsigned Started;
  unsigned Finished;
};
__device__ void finish(Progress *P) { atomicAdd_block(&P->Finished, 1u); }
// CHECK: :[[@LINE-1]]:39: warning: 'P->Finished' is updated with thread_scope_block by every block that runs kernel 'work'; {{.*}} [cuda-scope-insufficient]
__global__ void work(Progress *P) {
  atomicAdd(&P->Started, 1u); // no-warning: device scope
  finish(P);
}

// An element every block picks by the same constant index, through a local pointer.
__global__ void firstSlot(int *Slots) {
  int *First = Slots;
  cuda::atomic_ref<int, cuda::thread_scope_block>(First[1]).fetch_or(1);
  // CHECK: :[[@LINE-1]]:61: warning: 'Slots' is updated with thread_scope_block by every block that runs kernel 'firstSlot'; {{.*}} [cuda-scope-insufficient]
}

// An atomic_ref handed to a helper names the same object.
__device__ void bump(cuda::atomic_ref<int, cuda::thread_scope_block> Ref) { Ref.fetch_add(1); }
// CHECK: :[[@LINE-1]]:81: warning: 'Counter' is updated with thread_scope_block by every block that runs kernel 'passRef'; {{.*}} [cuda-scope-insufficient]
__global__ void passRef(int *Counter) { bump(cuda::atomic_ref<int, cuda::thread_scope_block>(*Counter)); }

// A pointer a helper returns.
__device__ int *slotOf(int *Base) { return Base + 7; }
__global__ void returned(int *Base) {
  atomicExch_block(slotOf(Base), 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'Base' is updated with thread_scope_block by every block that runs kernel 'returned'; {{.*}} [cuda-scope-insufficient]
}

// A member function reaching a field through 'this'.
struct Pool {
  int *Free;
  __device__ int take() { return atomicSub_block(Free, 1); }
  // CHECK: :[[@LINE-1]]:34: warning: 'P.Free' is updated with thread_scope_block by every block that runs kernel 'allocate'; {{.*}} [cuda-scope-insufficient]
};
__global__ void allocate(Pool P, int *Out) { Out[blockIdx.x] = P.take(); }
