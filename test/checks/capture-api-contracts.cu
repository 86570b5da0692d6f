// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-capture-api.CaptureSafeFunctions: 'engine::launch*;replayStep;Pipeline::stage'}}" \
// RUN:   -- %cuda_host_flags | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Functions declared safe to call during a capture, by annotation or by the
// CaptureSafeFunctions option, are checked as if their whole body ran inside a
// global-mode capture of a stream the check cannot see.
#include <cuda_runtime.h>

__global__ void step(float *X) {}

[[clang::annotate("cuda-scope:capture-safe")]] void enqueueStep(cudaStream_t S, float *D) {
  step<<<1, 32, 0, S>>>(D);     // no-warning: on the stream it was given
  cudaMemsetAsync(D, 0, 64, S); // no-warning: on the stream it was given
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called from 'enqueueStep', which is declared capture-safe, invalidates the capture (the call returns cudaErrorStreamCaptureUnsupported and cudaStreamEndCapture fails); consider synchronizing after cudaStreamEndCapture [cuda-scope-capture-api]
  // CHECK: :[[@LINE-5]]:53: note: 'enqueueStep' is declared capture-safe here
  step<<<1, 32>>>(D);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'step' launched on the legacy stream from 'enqueueStep', which is declared capture-safe, runs on the legacy stream: if the capture stream is non-blocking it is not captured (it runs now, once, and every replay of the graph skips it), otherwise it invalidates the capture (cudaErrorStreamCaptureImplicit); consider launching it on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-8]]:53: note: 'enqueueStep' is declared capture-safe here
}

float *scratch(size_t N) {
  float *P;
  cudaMalloc((void **)&P, N);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called from 'engine::launchStage', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+7]]:6: note: 'engine::launchStage' is declared capture-safe by the option 'CaptureSafeFunctions'
  // CHECK: :[[@LINE+7]]:16: note: 'scratch' is called here
  return P;
}

namespace engine {
inline namespace v2 { // no part of the name an option uses
void launchStage(cudaStream_t S) {
  float *Tmp = scratch(64);
  step<<<1, 32, 0, S>>>(Tmp);
}
void prepare(cudaStream_t S) {
  cudaDeviceSynchronize(); // no-warning: not declared capture-safe
}
} // namespace v2
} // namespace engine

void replayStep(cudaStream_t S, float *D) {
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  float *Tmp;
  cudaMalloc((void **)&Tmp, 64); // no-warning: relaxed while it runs
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaMemcpy(D, Tmp, 64, cudaMemcpyDeviceToDevice);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemcpy' called from 'replayStep', which is declared capture-safe, runs on the legacy stream: if the capture stream is non-blocking it is not captured {{.*}}; consider cudaMemcpyAsync on the capture stream [cuda-scope-capture-api]
  // CHECK: :[[@LINE-8]]:6: note: 'replayStep' is declared capture-safe by the option 'CaptureSafeFunctions'
}

template <class T> struct Pipeline {
  void stage(cudaStream_t S) {
    cudaError_t Busy = cudaStreamQuery(S);
    // CHECK: :[[@LINE-1]]:24: warning: 'cudaStreamQuery' called from 'Pipeline<float>::stage', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
    // CHECK: :[[@LINE-3]]:8: note: 'Pipeline<float>::stage' is declared capture-safe by the option 'CaptureSafeFunctions'
    (void)Busy;
  }
};
template struct Pipeline<float>;

void notSafe(cudaStream_t S) {
  cudaDeviceSynchronize(); // no-warning: neither annotated nor named in the option
}

// A capture-safe function's capture is its caller's, of a stream it cannot
// name: a stream it creates itself, or the per-thread stream, is another one,
// whose synchronize fails in global and thread-local capture and is legal in
// relaxed (measured: docs/facts.md).
[[clang::annotate("cuda-scope:capture-safe")]] void drainPrivate(float *D) {
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaStream_t Mine;
  cudaStreamCreateWithFlags(&Mine, cudaStreamNonBlocking);
  step<<<1, 32, 0, Mine>>>(D);
  cudaStreamSynchronize(Mine);                // no-warning: a private stream, in relaxed mode
  cudaStreamSynchronize(cudaStreamPerThread); // no-warning: the per-thread stream, in relaxed mode
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaStreamDestroy(Mine); // no-warning: measured legal in every mode
}

[[clang::annotate("cuda-scope:capture-safe")]] void drainPrivateGlobal(float *D, cudaStream_t Given) {
  cudaStream_t Mine;
  cudaStreamCreateWithFlags(&Mine, cudaStreamNonBlocking);
  cudaStreamSynchronize(Mine);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called from 'drainPrivateGlobal', which is declared capture-safe, invalidates the capture
  // CHECK: :[[@LINE-5]]:53: note: 'drainPrivateGlobal' is declared capture-safe here
  cudaStream_t Alias = Given;
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&Mode);
  cudaStreamSynchronize(Alias);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called from 'drainPrivateGlobal', which is declared capture-safe, invalidates the capture
  // CHECK: :[[@LINE-11]]:53: note: 'drainPrivateGlobal' is declared capture-safe here
  cudaThreadExchangeStreamCaptureMode(&Mode);
}
