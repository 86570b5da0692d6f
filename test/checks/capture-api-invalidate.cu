// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Calls that invalidate a capture (RESULTS.md: 900 from the call, 901 from
// cudaStreamEndCapture; 907 for a query of an event recorded in the capture),
// made directly in the capture region or in functions it calls.
#include <cuda_runtime.h>

void CUDART_CB onDone(cudaStream_t, cudaError_t, void *) {}

void direct(cudaStream_t S, cudaGraph_t *G, cudaEvent_t E) {
  void *P;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMalloc(&P, 16);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider cudaMallocAsync on the capture stream or allocating before the capture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaFree(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider cudaFreeAsync on the capture stream or freeing after the capture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-6]]:3: note: capture of 'S' begins here
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider synchronizing after cudaStreamEndCapture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-9]]:3: note: capture of 'S' begins here
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}}; consider synchronizing after cudaStreamEndCapture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-12]]:3: note: capture of 'S' begins here
  cudaEventRecord(E, S); // no-warning: recorded into the graph
  cudaEventQuery(E);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaEventQuery' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorCapturedEvent for an event recorded in the capture and cudaStreamEndCapture fails); consider waiting on the event after cudaStreamEndCapture, or cudaStreamWaitEvent to order work inside the graph [cuda-scope-capture-api]
  // CHECK: :[[@LINE-16]]:3: note: capture of 'S' begins here
  cudaStreamAddCallback(S, onDone, nullptr, 0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamAddCallback' called while stream 'S' is being captured invalidates the capture (the call returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider cudaLaunchHostFunc, which the capture records as a host node [cuda-scope-capture-api]
  // CHECK: :[[@LINE-19]]:3: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
  cudaFree(P);            // no-warning: the capture has ended
  cudaStreamSynchronize(S); // no-warning: the capture has ended
}

// Through functions the TU defines: reported once, at the call, with the chain.
void *allocate(size_t N) {
  void *P = nullptr;
  cudaMalloc(&P, N);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called while stream 'Stream' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  return P;
}
void *workspace(size_t N) { return allocate(2 * N); }

void throughCalls(cudaStream_t Stream, cudaGraph_t *G) {
  cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:3: note: capture of 'Stream' begins here
  void *W = workspace(64);
  // CHECK: :[[@LINE-1]]:13: note: 'workspace' is called here
  // CHECK: :[[@LINE-7]]:36: note: 'allocate' is called here
  cudaStreamEndCapture(Stream, G);
  (void)W;
}

void again(cudaStream_t Stream, cudaGraph_t *G) {
  cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal);
  void *W = workspace(64); // no-warning: that cudaMalloc is reported once, above
  cudaStreamEndCapture(Stream, G);
  (void)W;
}

// Constructors and destructors that run inside the region.
struct DeviceBuffer {
  void *P;
  DeviceBuffer() { cudaMalloc(&P, 256); }
  // CHECK: :[[@LINE-1]]:20: warning: 'cudaMalloc' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+9]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+10]]:18: note: 'DeviceBuffer::DeviceBuffer' runs here
  ~DeviceBuffer() { cudaFree(P); }
  // CHECK: :[[@LINE-1]]:21: warning: 'cudaFree' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+5]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+6]]:18: note: 'DeviceBuffer::~DeviceBuffer' runs here, at the end of the object's lifetime
};

void scoped(cudaStream_t S, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  {
    DeviceBuffer B;
  }
  cudaStreamEndCapture(S, G);
}

struct HostBuffer {
  void *P;
  HostBuffer() { cudaMallocHost(&P, 256); }
  ~HostBuffer() { cudaFreeHost(P); }
};

void outside(cudaStream_t S, cudaGraph_t *G) {
  HostBuffer B; // no-warning: constructed before the capture, destroyed after it
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(B.P, 0, 256, S);
  cudaStreamEndCapture(S, G);
}
