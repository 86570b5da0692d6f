// The same cases against the real CUDA 13 headers, which define the cudaMalloc
// template and per-thread-stream macros.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>
#include <cuda.h>

struct Buffer {
  float *Dev = nullptr;
  ~Buffer() { cudaFree(Dev); }
  // CHECK: :[[@LINE-1]]:15: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+20]]:25: note: 'release' is registered as a host callback here, through 'cudaLaunchHostFunc'
  // CHECK: :[[@LINE+2]]:35: note: 'Buffer::~Buffer' runs here, from delete
};
void CUDART_CB release(void *P) { delete static_cast<Buffer *>(P); }
void CUDART_CB regrow(void *P) {
  float *Dev;
  cudaMalloc(&Dev, 256);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+13]]:25: note: 'regrow' is registered as a host callback here, through 'cudaLaunchHostFunc'
  *static_cast<float **>(P) = Dev;
}
void CUDART_CB onStream(cudaStream_t, cudaError_t, void *) { cudaDeviceSynchronize(); }
// CHECK: :[[@LINE-1]]:62: warning: 'cudaDeviceSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
// CHECK: :[[@LINE+9]]:28: note: 'onStream' is registered as a host callback here, through 'cudaStreamAddCallback'
void CUDART_CB driver(void *) { cuCtxSynchronize(); }
// CHECK: :[[@LINE-1]]:33: warning: 'cuCtxSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
// CHECK: :[[@LINE+7]]:51: note: 'driver' is registered as a host callback here, through 'cuLaunchHostFunc'
void CUDART_CB fine(void *P) { *static_cast<int *>(P) = 1; } // no-warning: host memory

void enqueue(cudaStream_t S, void *P) {
  cudaLaunchHostFunc(S, release, P);
  cudaLaunchHostFunc(S, regrow, P);
  cudaStreamAddCallback(S, onStream, P, 0);
  cuLaunchHostFunc(reinterpret_cast<CUstream>(S), driver, P);
  cudaLaunchHostFunc(S, fine, P);
}
