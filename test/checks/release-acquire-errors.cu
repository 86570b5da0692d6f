// A kernel whose code has errors (a missing header, an unknown name) is not analysed: what it does
// to memory cannot be read from a broken AST. The compiler reports the error; the kernels that
// compiled are still analysed.
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void broken(int *Data, int *Flag, int *Out) { // no-warning: the kernel does not compile
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    Out[blockIdx.x] = Data[threadIdx.x] + undeclaredName;
    // CHECK: :[[@LINE-1]]:43: error: use of undeclared identifier 'undeclaredName' [clang-diagnostic-error]
  }
}

__global__ void compiled(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:22: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', {{.*}} [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+2]]:29: note: kernel 'compiled' receives 'Flag' here
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    // CHECK: :[[@LINE-1]]:29: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, {{.*}} [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-8]]:22: note: kernel 'compiled' publishes 'Flag' here
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}
