// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Work on the legacy stream during a capture. With a non-blocking capture
// stream it runs at once and is not part of the graph (RESULTS.md: cudaMemcpy
// and cudaMemset return 0); with a blocking one it invalidates the capture
// (906). The wording follows what the TU shows about how the stream was made.
#include <cuda_runtime.h>

__global__ void fill(int *P) {}

void nonBlocking(int *D, int *H, cudaGraph_t *G) {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemcpy(H, D, 4, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpy' called while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider cudaMemcpyAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaMemset(D, 0, 4);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemset' called while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider cudaMemsetAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-6]]:3: note: capture of 'S' begins here
  cudaMemcpyAsync(H, D, 4, cudaMemcpyDeviceToHost, 0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' called on the legacy stream while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider passing the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-9]]:3: note: capture of 'S' begins here
  cudaMemsetAsync(D, 0, 4, nullptr);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' called on the legacy stream while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-12]]:3: note: capture of 'S' begins here
  cudaMemcpyAsync(H, D, 4, cudaMemcpyDeviceToHost, cudaStreamLegacy);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' called on the legacy stream while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-15]]:3: note: capture of 'S' begins here
  fill<<<1, 1>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched on the legacy stream while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider launching it on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-18]]:3: note: capture of 'S' begins here
  fill<<<1, 1, 0, 0>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched on the legacy stream while stream 'S' is being captured is not captured: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-21]]:3: note: capture of 'S' begins here
  fill<<<1, 1, 0, S>>>(D);                               // no-warning: on the capture stream
  cudaMemcpyAsync(H, D, 4, cudaMemcpyDeviceToHost, S);   // no-warning: on the capture stream
  cudaStreamEndCapture(S, G);
  cudaMemcpy(H, D, 4, cudaMemcpyDeviceToHost);           // no-warning: after the capture
}

void blocking(int *D, int *H, cudaGraph_t *G) {
  cudaStream_t S;
  cudaStreamCreate(&S);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemcpy(H, D, 4, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpy' called while stream 'S' is being captured runs on the legacy stream, which invalidates the capture (cudaErrorStreamCaptureImplicit); consider cudaMemcpyAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  fill<<<1, 1>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched on the legacy stream while stream 'S' is being captured runs on the legacy stream, which invalidates the capture (cudaErrorStreamCaptureImplicit); consider launching it on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-6]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void flagsZero(int *D, cudaGraph_t *G) {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamDefault);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemset(D, 0, 4);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemset' called while stream 'S' is being captured runs on the legacy stream, which invalidates the capture (cudaErrorStreamCaptureImplicit); consider cudaMemsetAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void unknown(cudaStream_t S, int *D, int *H, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemcpy(H, D, 4, cudaMemcpyDeviceToHost);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpy' called while stream 'S' is being captured runs on the legacy stream: if 'S' is non-blocking it is not captured (it runs now, once, and every replay of the graph skips it), otherwise it invalidates the capture (cudaErrorStreamCaptureImplicit); consider cudaMemcpyAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

// A member stream made non-blocking in the constructor.
struct Runner {
  cudaStream_t Stream;
  Runner() { cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking); }
  void record(int *D, int *H, cudaGraph_t *G) {
    cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal);
    cudaMemcpy(H, D, 4, cudaMemcpyDeviceToHost);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaMemcpy' called while stream 'Stream' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider cudaMemcpyAsync on the capture stream [cuda-scope-capture-api]
    // CHECK: :[[@LINE-3]]:5: note: capture of 'Stream' begins here
    cudaStreamEndCapture(Stream, G);
  }
};
