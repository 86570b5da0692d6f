// What the check must not flag: callbacks that only touch host memory, signal
// a condition variable, or hand work to a thread that then calls CUDA (as the
// CUDA samples' simpleCallback does); CUDA calls in the registering code;
// functions that call CUDA but are never registered; the error-string functions.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

struct Queue {
  void *Items[64];
  int Count = 0;
  bool Ready = false;
  void push(void *P) { Items[Count++] = P; }
  void notify() { Ready = true; }
};
Queue Pending;

void CUDART_CB handOff(void *P) {
  Pending.push(P);  // no-warning: host memory only
  Pending.notify(); // no-warning: signals a host thread, which calls cudaFree later
}
void worker() {
  for (int I = 0; I < Pending.Count; ++I)
    cudaFree(Pending.Items[I]); // no-warning: worker() is a host thread, not a callback
}
void CUDART_CB report(void *P) {
  const char *S = cudaGetErrorString(*static_cast<cudaError_t *>(P)); // no-warning: allowed by default
  (void)S;
}
void neverRegistered(void *P) { cudaFree(P); } // no-warning: not a callback

void enqueue(cudaStream_t S, void *P) {
  cudaMalloc(&P, 16);              // no-warning: the registering code may call CUDA
  cudaLaunchHostFunc(S, handOff, P);
  cudaLaunchHostFunc(S, report, P);
  cudaStreamSynchronize(S);        // no-warning: not inside a callback
}
