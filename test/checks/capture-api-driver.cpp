// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cxx_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// The driver API in a host-compiled C++ file, called directly (through the
// header's _v2 macros) and through a table of function pointers named after
// the API, as runtimes and bindings that load libcuda do.
#include <cuda.h>

struct Syms {
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamBeginCapture)(CUstream, CUstreamCaptureMode);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
} *syms;

void CUDA_CB hostStep(void *) {}

void direct(CUstream S, CUgraph *G, void *H) {
  CUdeviceptr D;
  cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemAlloc(&D, 16);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemAlloc' called while stream 'S' is being captured invalidates the capture (the call returns CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and cuStreamEndCapture fails); consider cuMemAllocAsync on the capture stream or allocating before the capture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cuStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuStreamSynchronize' called while stream 'S' is being captured invalidates the capture (the call returns CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and cuStreamEndCapture fails); consider synchronizing after cuStreamEndCapture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-6]]:3: note: capture of 'S' begins here
  syms->cuStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuStreamSynchronize' called through a function pointer while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-9]]:3: note: capture of 'S' begins here
  cuMemcpyHtoD(D, H, 16);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemcpyHtoD' called while stream 'S' is being captured runs on the legacy stream: if 'S' is non-blocking it is not captured (it runs now, once, and every replay of the graph skips it), otherwise it invalidates the capture (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT); consider cuMemcpyHtoDAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-12]]:3: note: capture of 'S' begins here
  cuMemsetD32Async(D, 0, 4, CU_STREAM_LEGACY);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemsetD32Async' called on the legacy stream while stream 'S' is being captured runs on the legacy stream: {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-15]]:3: note: capture of 'S' begins here
  cuMemAllocAsync(&D, 16, S);         // no-warning: stream-ordered on the capture stream
  cuLaunchHostFunc(S, hostStep, H);   // no-warning: becomes a host node
  cuStreamEndCapture(S, G);
  cuMemFree(D);                       // no-warning: after the capture
}

void nonBlocking(CUgraph *G, void *H, CUdeviceptr D) {
  CUstream S;
  cuStreamCreate(&S, CU_STREAM_NON_BLOCKING);
  cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuMemcpyDtoH(H, D, 16);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemcpyDtoH' called while stream 'S' is being captured is not captured: it runs now, once, and every replay of the graph skips it; consider cuMemcpyDtoHAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cuStreamEndCapture(S, G);
}

void throughTable(CUstream S, CUgraph *G, CUdeviceptr D) {
  syms->cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL);
  syms->cuMemAllocAsync(&D, 16, S); // no-warning: stream-ordered on the capture stream
  syms->cuMemFree(D);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemFree' called through a function pointer while stream 'S' is being captured invalidates the capture (the call returns CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and cuStreamEndCapture fails); consider cuMemFreeAsync on the capture stream or freeing after the capture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:3: note: capture of 'S' begins here
  syms->cuStreamEndCapture(S, G);
  syms->cuStreamSynchronize(S); // no-warning: after the capture
}

void relaxedDriver(CUstream S, CUgraph *G, CUdeviceptr D) {
  cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL);
  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  cuThreadExchangeStreamCaptureMode(&Mode);
  cuMemFree(D); // no-warning: relaxed while it runs
  cuThreadExchangeStreamCaptureMode(&Mode);
  cuStreamEndCapture(S, G);
}
