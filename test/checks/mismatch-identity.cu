// One object reached in different ways: a block-scope access races with a
// device-scope access to the same object in another block of the kernel.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

// A __device__ variable.
__device__ int Ready;
__global__ void deviceVariable() {
  atomicExch_block(&Ready, 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'Ready' is updated with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'deviceVariable'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:11: note: the thread_scope_device read-modify-write is here
  while (!atomicCAS(&Ready, 1, 1)) {
  }
}

// A static variable, and a variable of namespace scope.
static __device__ unsigned Ticket;
namespace counters {
__device__ unsigned Served;
}
__global__ void staticAndNamespace() {
  unsigned Mine = atomicInc(&Ticket, ~0u);
  while (atomicAdd_block(&counters::Served, 0) != Mine) {
    // CHECK: :[[@LINE-1]]:10: warning: 'Served' is updated with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'staticAndNamespace'; {{.*}} [cuda-scope-mismatch]
    // CHECK: :[[@LINE+5]]:3: note: the thread_scope_device read-modify-write is here
  }
  cuda::atomic_ref<unsigned, cuda::thread_scope_block>(Ticket).load();
  // CHECK: :[[@LINE-1]]:64: warning: 'Ticket' is loaded with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'staticAndNamespace'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE-7]]:19: note: the thread_scope_device read-modify-write is here
  atomicAdd(&counters::Served, 1);
}

// A field reached through the same kernel argument, in two device functions.
struct Queue {
  int Head;
  int Tail;
};
__device__ void push(Queue *Q) { cuda::atomic_ref<int, cuda::thread_scope_block>(Q->Tail).fetch_add(1); }
// CHECK: :[[@LINE-1]]:91: warning: 'Q->Tail' is updated with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'queue'; {{.*}} [cuda-scope-mismatch]
// CHECK: :[[@LINE+2]]:68: note: the thread_scope_device load is here
__device__ int length(Queue *Q) {
  return cuda::atomic_ref<int, cuda::thread_scope_device>(Q->Tail).load() -
         cuda::atomic_ref<int, cuda::thread_scope_device>(Q->Head).load(); // no-warning: another field
}
__global__ void queue(Queue *Q, int *Out) {
  push(Q);
  Out[blockIdx.x] = length(Q);
}

// Elements of one array: block 0's own element is the one every block updates.
__global__ void elements(int *Slots) {
  atomicAdd_block(&Slots[blockIdx.x], 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'Slots' is updated with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'elements'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:3: note: the thread_scope_device read-modify-write is here
  atomicAdd(&Slots[0], 1);
}

// A local pointer initialized from the kernel argument, passed to a helper.
__device__ void publish(int *F) { cuda::atomic_ref<int, cuda::thread_scope_block>(*F).store(1); }
// CHECK: :[[@LINE-1]]:87: warning: 'Flags' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'throughHelpers'; {{.*}} [cuda-scope-mismatch]
// CHECK: :[[@LINE+5]]:68: note: the thread_scope_device load is here
__global__ void throughHelpers(int *Flags) {
  int *Mine = Flags + 1;
  if (blockIdx.x == 0)
    publish(Mine);
  (void)cuda::atomic_ref<int, cuda::thread_scope_device>(Flags[1]).load();
}

// A struct of pointers built by a helper, as the integration harness does.
struct Pair {
  int *Mine;
  int *Peer;
};
__device__ Pair pairFor(int *Flags) {
  const int G = blockIdx.x * blockDim.x + threadIdx.x;
  const int N = gridDim.x * blockDim.x;
  return {Flags + G, Flags + (G + blockDim.x) % N};
}
__global__ void pairs(int *Flags) {
  const Pair P = pairFor(Flags);
  cuda::atomic_ref<int, cuda::thread_scope_device>(*P.Mine).store(1, cuda::memory_order_release);
  while (cuda::atomic_ref<int, cuda::thread_scope_block>(*P.Peer).load(cuda::memory_order_acquire) != 1) {
    // CHECK: :[[@LINE-1]]:67: warning: 'Flags' is loaded with thread_scope_block here but stored with thread_scope_device in other blocks of kernel 'pairs'; {{.*}} [cuda-scope-mismatch]
    // CHECK: :[[@LINE-3]]:61: note: the thread_scope_device store is here
  }
}

// The same pointer passed for two parameters of one launch.
__global__ void aliased(int *A, int *B) {
  cuda::atomic_ref<int, cuda::thread_scope_block>(*A).store(1);
  // CHECK: :[[@LINE-1]]:55: warning: 'A' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'aliased'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:62: note: the thread_scope_device load is here
  (void)cuda::atomic_ref<int, cuda::thread_scope_device>(*B).load();
}
void launchAliased(int *P) { aliased<<<8, 64>>>(P, P); }
