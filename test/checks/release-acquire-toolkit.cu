// The same rules against the real CUDA 13 headers: libcu++'s atomic_ref and atomic members live in
// base classes in inline namespaces and lower to inline PTX the check does not need to read.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/latch>

// The libcu++ documentation's message passing, with the orders relaxed.
__global__ void relaxedMessage(int *X, int *F) {
  if (blockIdx.x == 0) {
    *X = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    flag.store(1, cuda::std::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:10: warning: 'F' is published here with a relaxed store after plain writes to 'X', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-4]]:8: note: 'X' is written here
    // CHECK: :[[@LINE+3]]:17: note: kernel 'relaxedMessage' receives 'F' here
  } else if (blockIdx.x == 1) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    while (flag.load(cuda::memory_order_relaxed) != 1) {
    // CHECK: :[[@LINE-1]]:17: warning: 'F' is received here with a relaxed load and 'X' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:12: note: 'X' is read here
    // CHECK: :[[@LINE-9]]:10: note: kernel 'relaxedMessage' publishes 'F' here
    }
    X[1] = *X;
  }
}

// The documentation's correct message passing: no-warning.
__global__ void documented(int *X, int *F) {
  if (blockIdx.x == 0) {
    *X = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    flag.store(1, cuda::memory_order_release);
  } else if (blockIdx.x == 1) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(*F);
    while (flag.load(cuda::memory_order_acquire) != 1) {
    }
    X[1] = *X;
  }
}

// A cuda::atomic flag with block-scope fences, across blocks.
__device__ cuda::atomic<int, cuda::thread_scope_device> Ready;
__device__ int Value[2];
__global__ void blockFence(int *Out) {
  if (blockIdx.x == 0) {
    Value[0] = 42;
    __threadfence_block();
    // CHECK: :[[@LINE-1]]:5: warning: '__threadfence_block' orders the message through 'Ready' and 'Value' with thread_scope_block, but a thread in another block is on the other side; a fence's scope must include the threads it synchronizes with; consider '__threadfence()' [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+2]]:11: note: 'Ready' is published here with a relaxed store
    // CHECK: :[[@LINE-4]]:14: note: 'Value' is written here
    Ready.store(1, cuda::memory_order_relaxed);
  } else {
    while (Ready.load(cuda::memory_order_relaxed) == 0) {
    }
    __threadfence();
    *Out = Value[0];
    Value[1] = 0;
  }
}

// Cumulativity: the block writes, __syncthreads(), one thread fences and sets the flag: no-warning.
__global__ void cumulative(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).store(1, cuda::memory_order_relaxed);
    }
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(*Flag).load(cuda::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// The last-block ticket without fences, with the real atomicInc.
__device__ unsigned Count;
__device__ float Partials[1024];
__global__ void lastBlock(float *Out) {
  __shared__ bool IsLast;
  if (threadIdx.x == 0) {
    Partials[blockIdx.x] = 1.0f;
    unsigned Ticket = atomicInc(&Count, gridDim.x);
    // CHECK: :[[@LINE-1]]:23: warning: 'Count' is published here with a relaxed read-modify-write after plain writes to 'Partials', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:26: note: 'Partials' is written here
    // CHECK: :[[@LINE-3]]:23: warning: 'Count' is received here with a relaxed read-modify-write and 'Partials' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+7]]:14: note: 'Partials' is read here
    IsLast = (Ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (IsLast && threadIdx.x == 0) {
    float Sum = 0;
    for (unsigned B = 0; B < gridDim.x; ++B)
      Sum += Partials[B];
    *Out = Sum;
  }
}

// libcu++'s barrier and latch synchronize (acquire and release at their scope): no-warning.
__global__ void barrierAndLatch(int *Data, int *Out, cuda::barrier<cuda::thread_scope_device> *Bar,
                                cuda::std::latch *Latch) {
  Data[blockIdx.x] = 1;
  Bar->arrive_and_wait();
  Out[blockIdx.x] = Data[(blockIdx.x + 1) % gridDim.x];
  Data[blockIdx.x] = 2;
  Latch->count_down();
  Latch->wait();
  Out[blockIdx.x] += Data[(blockIdx.x + 1) % gridDim.x];
}
