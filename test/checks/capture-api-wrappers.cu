// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Wrappers the file defines are recognised without options: a function whose
// body only begins, or only ends, a capture on its parameter, on a variable a
// lambda captures, or on a field of the object a method is called on.
#include <cuda_runtime.h>

void beginOn(cudaStream_t S, cudaStreamCaptureMode M) { cudaStreamBeginCapture(S, M); } // no-warning: a begin wrapper
void endOn(cudaStream_t S, cudaGraph_t *G) { cudaStreamEndCapture(S, G); }

void parameters(cudaStream_t S, cudaGraph_t *G, void *P) {
  beginOn(S, cudaStreamCaptureModeGlobal);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  endOn(S, G);
  cudaDeviceSynchronize(); // no-warning: endOn ended the capture
  beginOn(S, cudaStreamCaptureModeRelaxed);
  cudaFree(P); // no-warning: the wrapper's mode argument is relaxed here
  endOn(S, G);
}

struct Recorder {
  cudaStream_t Stream;
  cudaGraph_t Graph;
  void begin() { cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal); } // no-warning: a begin wrapper
  void end() { cudaStreamEndCapture(Stream, &Graph); }
  void record(void *P) {
    begin();
    cudaFree(P);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaFree' called while stream 'Stream' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
    // CHECK: :[[@LINE-3]]:5: note: capture of 'Stream' begins here
    end();
    cudaFree(P); // no-warning: end() ended the capture
  }
};

void useRecorder(Recorder *R, void *P) {
  R->begin();
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called while stream 'R->Stream' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'R->Stream' begins here
  R->end();
  cudaDeviceSynchronize(); // no-warning: R->end() ended the capture
}

void lambdaEnds(cudaStream_t S, void *P) {
  auto Finish = [&] {
    cudaGraph_t G;
    cudaStreamEndCapture(S, &G);
    cudaStreamSynchronize(S); // no-warning: after the end, in the wrapper
  };
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); // no-warning: Finish ends it
  Finish();
  cudaFree(P); // no-warning: Finish ended the capture
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); // no-warning: the first capture has ended
  Finish();
}
