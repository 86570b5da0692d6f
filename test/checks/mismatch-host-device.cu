// Memory the file shows host and device both reach (cudaMallocManaged,
// cudaMallocHost): a device-scope atomic cannot include the host thread that
// accesses it with system scope at the same time.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void produce(int *Progress) {
  atomicAdd(Progress, 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'Progress' is updated with thread_scope_device here but loaded with thread_scope_system in host function 'watch'; the scopes must include each other; consider 'atomicAdd_system' [cuda-scope-mismatch]
  // CHECK: :[[@LINE+10]]:50: note: the thread_scope_system load is here
}

int watch() {
  int *Progress;
  cudaMallocManaged(reinterpret_cast<void **>(&Progress), sizeof(int), 1);
  *Progress = 0;
  produce<<<64, 256>>>(Progress);
  int Seen = 0;
  while (Seen < 64 * 256)
    Seen = cuda::std::atomic_ref<int>(*Progress).load(cuda::std::memory_order_acquire);
  return Seen;
}

// Pinned host memory, and a cuda::atomic_ref with device scope.
__global__ void stop(int *Quit) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Quit).load(cuda::memory_order_acquire) == 0) {
    // CHECK: :[[@LINE-1]]:66: warning: 'Quit' is loaded with thread_scope_device here but stored with thread_scope_system in host function 'requestStop'; {{.*}}; consider thread_scope_system [cuda-scope-mismatch]
    // CHECK: :[[@LINE+8]]:32: note: the thread_scope_system store is here
  }
}
void requestStop() {
  int *Quit;
  cudaMallocHost(reinterpret_cast<void **>(&Quit), sizeof(int));
  *Quit = 0;
  stop<<<1, 32>>>(Quit);
  cuda::atomic_ref<int>(*Quit).store(1, cuda::memory_order_release);
}

// Device memory: host code cannot access it, so only device threads count.
__global__ void deviceOnly(int *Count) { atomicAdd(Count, 1); } // no-warning: cudaMalloc memory, no host access
void count() {
  int *Count;
  cudaMalloc(reinterpret_cast<void **>(&Count), sizeof(int));
  deviceOnly<<<64, 256>>>(Count);
}
