// The check runs on C: host code that drives CUDA is often plain C.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %c_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

static void CUDART_CB onDone(void *p) {
  cudaFree(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+4]]:15: note: 'onDone' is registered as a host callback here, through 'cudaHostNodeParams::fn'
}
void enqueue(cudaStream_t s, void *p) {
  struct cudaHostNodeParams params;
  params.fn = onDone;
  params.userData = p;
  cudaLaunchHostFunc(s, onDone, p);
}
