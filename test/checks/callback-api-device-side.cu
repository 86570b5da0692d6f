// On the device side of a CUDA file the host functions are parsed as well, so
// the check reports the same callback; cuda-scope merges the two sides.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

__global__ void fill(int *P) { *P = 1; }
void CUDART_CB onDone(void *P) {
  fill<<<1, 1>>>(static_cast<int *>(P));
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+2]]:63: note: 'onDone' is registered as a host callback here, through 'cudaLaunchHostFunc'
}
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, onDone, P); }
