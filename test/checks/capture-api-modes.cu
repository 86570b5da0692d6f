// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Capture modes: a relaxed capture, or a thread whose mode was exchanged to
// relaxed, may call cudaMalloc (RESULTS.md: 0 under relaxed); synchronization
// is illegal in every mode.
#include <cuda_runtime.h>

void relaxed(cudaStream_t S, cudaGraph_t *G) {
  void *P;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cudaMalloc(&P, 16); // no-warning: allowed in a relaxed capture
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void threadLocal(cudaStream_t S, cudaGraph_t *G) {
  void *P;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  cudaMalloc(&P, 16);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void modeInVariable(cudaStream_t S, cudaGraph_t *G) {
  void *P;
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaStreamBeginCapture(S, Mode);
  cudaMalloc(&P, 16); // no-warning: the mode variable holds relaxed
  cudaStreamEndCapture(S, G);
}

void unknownMode(cudaStream_t S, cudaStreamCaptureMode Mode, cudaGraph_t *G) {
  void *P;
  cudaStreamBeginCapture(S, Mode);
  cudaFree(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void exchanged(cudaStream_t S, cudaGraph_t *G) {
  void *P, *Q;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaMalloc(&P, 16); // no-warning: this thread's mode is relaxed here
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-6]]:3: note: capture of 'S' begins here
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaMalloc(&Q, 16);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-10]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

// A helper that brackets its own allocation with a relaxed mode.
void *allocRelaxed(size_t N) {
  void *P;
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaMalloc(&P, N); // no-warning: relaxed while it runs
  cudaThreadExchangeStreamCaptureMode(&Mode);
  return P;
}
void *allocPlain(size_t N) {
  void *P;
  cudaMalloc(&P, N); // no-warning: only called from a relaxed capture
  return P;
}

void callsHelpers(cudaStream_t S, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  void *P = allocRelaxed(64);
  cudaStreamEndCapture(S, G);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  void *Q = allocPlain(64);
  cudaStreamEndCapture(S, G);
  (void)P, (void)Q;
}

// The stream matters (integration/probes/capture-modes.cu, H100): synchronizing
// a stream no capture records fails like an unsafe call, in global and
// thread-local capture but not in relaxed; the captured stream's fails always.
void otherStreams(cudaStream_t S, cudaStream_t Mine, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cudaStreamSynchronize(Mine);                // no-warning: a private stream, in relaxed capture
  cudaStreamSynchronize(cudaStreamPerThread); // no-warning: the per-thread stream, in relaxed capture
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-5]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  cudaStreamSynchronize(Mine);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}
