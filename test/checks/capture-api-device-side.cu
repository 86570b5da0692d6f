// On the device side of a CUDA file the host functions are parsed as well, so
// the check reports the same findings as on the host side.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

__global__ void fill(int *P) { *P = 1; }

void record(int *D, cudaGraph_t *G) {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  fill<<<1, 1>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'fill' launched on the legacy stream while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider launching it on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  fill<<<1, 1, 0, S>>>(D); // no-warning: on the capture stream
  cudaStreamEndCapture(S, G);
}
