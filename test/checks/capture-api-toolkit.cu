// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// The invalidating and escaping calls of capture-api-invalidate.cu and
// capture-api-legacy.cu, against the real toolkit headers (whose cudaMalloc
// is also a template and whose Async calls default their stream to 0).
#include <cuda_runtime.h>

__global__ void fill(int *P) {}

void CUDART_CB onDone(cudaStream_t, cudaError_t, void *) {}

void *allocate(size_t N) {
  int *P = nullptr;
  cudaMalloc(&P, N);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider cudaMallocAsync on the capture stream or allocating before the capture [cuda-scope-capture-api]
  // CHECK: :[[@LINE+6]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+6]]:13: note: 'allocate' is called here
  return P;
}

void invalidating(cudaStream_t S, cudaGraph_t *G, cudaEvent_t E) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  void *P = allocate(16);
  cudaFree(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:3: note: capture of 'S' begins here
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-7]]:3: note: capture of 'S' begins here
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-10]]:3: note: capture of 'S' begins here
  cudaEventRecord(E, S); // no-warning: on the capture stream
  cudaEventQuery(E);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaEventQuery' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorCapturedEvent {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-14]]:3: note: capture of 'S' begins here
  cudaStreamAddCallback(S, onDone, nullptr, 0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamAddCallback' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-17]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void escaping(int *D, int *H, cudaGraph_t *G) {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemcpy(H, D, 4, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpy' called while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider cudaMemcpyAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaMemset(D, 0, 4);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemset' called while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-6]]:3: note: capture of 'S' begins here
  cudaMemcpyAsync(H, D, 4, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' called on the legacy stream while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-9]]:3: note: capture of 'S' begins here
  cudaMemsetAsync(D, 0, 4, cudaStreamLegacy);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' called on the legacy stream while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-12]]:3: note: capture of 'S' begins here
  fill<<<1, 1>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched on the legacy stream while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-15]]:3: note: capture of 'S' begins here
  fill<<<1, 1, 0, S>>>(D);                            // no-warning: on the capture stream
  cudaMemcpyAsync(H, D, 4, cudaMemcpyDeviceToHost, S); // no-warning: on the capture stream
  cudaStreamEndCapture(S, G);
}

void blocking(int *D, cudaGraph_t *G) {
  cudaStream_t S;
  cudaStreamCreate(&S);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  fill<<<1, 1>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched on the legacy stream while stream 'S' is being captured runs on the legacy stream, which invalidates the capture (cudaErrorStreamCaptureImplicit); consider launching it on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}
