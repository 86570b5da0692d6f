// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %c_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Host code in plain C drives captures too.
#include <cuda_runtime.h>

static void *scratch(size_t N) {
  void *P = NULL;
  cudaMalloc(&P, N);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+6]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+6]]:13: note: 'scratch' is called here
  return P;
}

int record(cudaStream_t S, float *D, float *H, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  void *P = scratch(64);
  cudaMemcpyAsync(D, H, 64, cudaMemcpyHostToDevice, NULL);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' called on the legacy stream while stream 'S' is being captured runs on the legacy stream: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:3: note: capture of 'S' begins here
  cudaMemcpyAsync(D, H, 64, cudaMemcpyHostToDevice, S); // no-warning: on the capture stream
  cudaError_t Busy = cudaStreamQuery(S);
  // CHECK: :[[@LINE-1]]:22: warning: 'cudaStreamQuery' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-8]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
  cudaFree(P); // no-warning: after the capture
  return Busy == cudaSuccess;
}
