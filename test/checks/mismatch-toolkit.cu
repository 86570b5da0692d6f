// The same cases against the real CUDA 13 headers: libcu++ defines the
// atomic_ref members in a base class, in inline namespaces, and lowers them to
// inline PTX that the check does not need to look into.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>

// The libcu++ documentation's data race (Example: Message Passing).
__global__ void race(int *X, int *F) {
  if (blockIdx.x == 0) {
    *X = 42;
    cuda::atomic_ref<int, cuda::thread_scope_block> flag(*F);
    flag.store(1, cuda::memory_order_release);
    // CHECK: :[[@LINE-1]]:10: warning: 'F' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'race'; the scopes must include each other; consider thread_scope_device [cuda-scope-mismatch]
    // CHECK: :[[@LINE+3]]:17: note: the thread_scope_device load is here
  } else if (blockIdx.x == 1) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    while (flag.load(cuda::memory_order_acquire) != 1) {
    }
  }
}

// The documentation's correct message passing.
__global__ void correct(int *X, int *F) {
  if (blockIdx.x == 0) {
    *X = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    flag.store(1, cuda::memory_order_release); // no-warning: device scope on both sides
  } else if (blockIdx.x == 1) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    while (flag.load(cuda::memory_order_acquire) != 1) { // no-warning: device scope on both sides
    }
  }
}

// The toolkit's atomic functions, and cuda::std:: atomics (system scope).
__device__ unsigned long long Total;
__global__ void builtins(unsigned long long V) {
  atomicAdd_block(&Total, V);
  // CHECK: :[[@LINE-1]]:3: warning: 'Total' is updated with thread_scope_block here but loaded with thread_scope_system in other blocks of kernel 'builtins'; {{.*}}; consider 'atomicAdd' [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:58: note: the thread_scope_system load is here
  (void)cuda::std::atomic_ref<unsigned long long>(Total).load();
}

// A cuda::atomic object shared through a kernel argument.
struct Board {
  cuda::atomic<int, cuda::thread_scope_device> Round;
  int Votes;
};
__global__ void vote(Board *B) {
  int R = B->Round.load(cuda::memory_order_acquire); // no-warning: device scope
  cuda::atomic_ref<int, cuda::thread_scope_block>(B->Votes).fetch_add(R);
  // CHECK: :[[@LINE-1]]:61: warning: 'B->Votes' is updated with thread_scope_block here but updated with thread_scope_device in other blocks of kernel 'vote'; {{.*}} [cuda-scope-mismatch]
  // CHECK: :[[@LINE+1]]:3: note: the thread_scope_device read-modify-write is here
  atomicAdd(&B->Votes, 1);
}
