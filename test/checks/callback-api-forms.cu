// The forms a callback takes: a function, a static member function, a
// non-capturing lambda (converted implicitly or with unary +), and a function
// pointer variable whose value the TU shows.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

struct Pool {
  static void CUDART_CB release(void *P) {
    cudaFree(P);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
    // CHECK: :[[@LINE+11]]:25: note: 'release' is registered as a host callback here, through 'cudaLaunchHostFunc'
  }
};

void CUDART_CB viaPointer(void *P) {
  cudaFreeHost(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFreeHost' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+12]]:25: note: 'viaPointer' is registered as a host callback here, through 'cudaLaunchHostFunc'
}

void enqueue(cudaStream_t S, void *P) {
  cudaLaunchHostFunc(S, Pool::release, P);
  cudaLaunchHostFunc(S, [](void *Q) { cudaMemset(Q, 0, 16); }, P);
  // CHECK: :[[@LINE-1]]:39: warning: 'cudaMemset' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE-2]]:25: note: 'operator()' is registered as a host callback here, through 'cudaLaunchHostFunc'
  cudaLaunchHostFunc(S, +[](void *) { cudaDeviceSynchronize(); }, P);
  // CHECK: :[[@LINE-1]]:39: warning: 'cudaDeviceSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE-2]]:25: note: 'operator()' is registered as a host callback here, through 'cudaLaunchHostFunc'
  cudaHostFn_t Fn = viaPointer;
  cudaLaunchHostFunc(S, Fn, P);
}
