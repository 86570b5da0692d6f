// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
// What a capture may contain: stream-ordered work on the capture stream, host
// functions (RESULTS.md: they become host nodes), events, stream-ordered
// allocation (RESULTS.md: 0, captured), and calls that touch no stream.
#include <cuda_runtime.h>

__global__ void step(float *X) {}
void CUDART_CB report(void *) {}

void record(cudaStream_t S, cudaStream_t Side, float *D, float *H, cudaGraph_t *G) {
  cudaEvent_t Fork, Join;
  cudaEventCreate(&Fork);                                   // no-warning: before the capture
  cudaEventCreate(&Join);                                   // no-warning: before the capture
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(D, H, 64, cudaMemcpyHostToDevice, S);     // no-warning: on the capture stream
  cudaMemsetAsync(D, 0, 64, S);                             // no-warning: on the capture stream
  step<<<1, 32, 0, S>>>(D);                                 // no-warning: on the capture stream
  void *Scratch;
  cudaMallocAsync(&Scratch, 64, S);                         // no-warning: stream-ordered allocation
  cudaFreeAsync(Scratch, S);                                // no-warning: stream-ordered free
  cudaLaunchHostFunc(S, report, nullptr);                   // no-warning: becomes a host node
  cudaEventRecord(Fork, S);                                 // no-warning: becomes an event node
  cudaStreamWaitEvent(Side, Fork, 0);                       // no-warning: joins Side to the capture
  step<<<1, 32, 0, Side>>>(D);                              // no-warning: Side is capturing too
  cudaEventRecord(Join, Side);                              // no-warning: becomes an event node
  cudaStreamWaitEvent(S, Join, 0);                          // no-warning: joins back
  void *Args[] = {&D};
  cudaLaunchKernel((const void *)step, dim3(1), dim3(32), Args, 0, S); // no-warning: on the capture stream
  cudaStreamCaptureStatus Status;
  cudaStreamIsCapturing(S, &Status);                        // no-warning: a capture query
  cudaError_t Err = cudaGetLastError();                     // no-warning: touches no stream
  const char *Text = cudaGetErrorString(Err);               // no-warning: reads a static table
  float Sum = H[0] + H[1];                                  // no-warning: host arithmetic
  cudaStreamEndCapture(S, G);
  cudaMalloc(&Scratch, 64);                                 // no-warning: after the capture
  cudaDeviceSynchronize();                                  // no-warning: after the capture
  (void)Text, (void)Sum;
}

void neverCaptures(float *D, float *H) {
  cudaMemcpy(D, H, 64, cudaMemcpyHostToDevice);             // no-warning: no capture in this function
  step<<<1, 32>>>(D);                                       // no-warning: no capture in this function
}
