// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api,cuda-scope-callback-api' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// The CUDA libraries' handle calls, as the real toolkit headers spell them
// (cublasCreate is a macro for cublasCreate_v2), measured on an H100 by
// integration/probes/capture-libraries.cu: creating a cuBLAS, cuFFT or
// cuSPARSE handle and destroying a cuFFT plan fail and invalidate a capture
// as cudaMalloc does; cublasDestroy invalidates a capture of any mode.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cusparse.h>

void createInCapture(cudaStream_t S, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cublasHandle_t H;
  cublasCreate(&H);
  // CHECK: :[[@LINE-1]]:3: warning: 'cublasCreate' called while stream 'S' is being captured invalidates the capture (the call fails with the library's error status and cudaStreamEndCapture fails); consider creating it before the capture [cuda-scope-capture-api]
  // CHECK: note: capture of 'S' begins here
  cufftHandle P;
  cufftPlan1d(&P, 4096, CUFFT_C2C, 1);
  // CHECK: :[[@LINE-1]]:3: warning: 'cufftPlan1d' called while stream 'S' is being captured invalidates the capture
  // CHECK: note: capture of 'S' begins here
  cusparseHandle_t Sp;
  cusparseCreate(&Sp);
  // CHECK: :[[@LINE-1]]:3: warning: 'cusparseCreate' called while stream 'S' is being captured invalidates the capture
  // CHECK: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

void destroyInRelaxedCapture(cudaStream_t S, cudaGraph_t *G, cublasHandle_t H, cufftHandle P,
                             cusparseHandle_t Sp) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cufftDestroy(P);   // no-warning: measured legal in relaxed mode
  cusparseDestroy(Sp); // no-warning: measured legal in every mode
  cublasDestroy(H);
  // CHECK: :[[@LINE-1]]:3: warning: 'cublasDestroy' called while stream 'S' is being captured invalidates the capture (the call returns success, but cudaStreamEndCapture fails with cudaErrorStreamCaptureInvalidated); consider destroying it after the capture
  // CHECK: note: capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

// Work on the handle's stream, bound to the captured stream: recorded.
void gemmInCapture(cudaStream_t S, cudaGraph_t *G, cublasHandle_t H, cufftHandle P, const float *A,
                   float *C, cufftComplex *F) {
  const float One = 1, Zero = 0;
  cublasSetStream(H, S); // no-warning: measured legal
  cufftSetStream(P, S);  // no-warning: measured legal
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &One, A, 16, A, 16, &Zero, C, 16); // no-warning: captured
  cufftExecC2C(P, F, F, CUFFT_FORWARD); // no-warning: captured
  cudaStreamEndCapture(S, G);
}

// A host callback may not call the libraries either: they call CUDA.
void CUDART_CB onDone(void *Data) {
  cublasDestroy(*static_cast<cublasHandle_t *>(Data));
  // CHECK: :[[@LINE-1]]:3: warning: 'cublasDestroy' called from a host callback{{.*}} [cuda-scope-callback-api]
  // CHECK: cublas_v2.h:{{[0-9]+}}:{{[0-9]+}}: note: expanded from macro 'cublasDestroy'
}
void finish(cudaStream_t S, cublasHandle_t *H) { cudaLaunchHostFunc(S, onDone, H); }
// CHECK: note: 'onDone' is registered as a host callback here
