// Options: a project's own registrar, library functions that use CUDA, and
// functions allowed anyway.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' \
// RUN:   -config="{CheckOptions: {cuda-scope-callback-api.Registrars: 'enqueueHostTask:1;Executor::post:0', \
// RUN:     cuda-scope-callback-api.CudaFunctions: 'cublasDestroy', \
// RUN:     cuda-scope-callback-api.AllowedFunctions: 'cudaGetLastError'}}" \
// RUN:   %s -- %cuda_host_flags | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

typedef struct cublasContext *cublasHandle_t;
extern "C" int cublasDestroy(cublasHandle_t handle);

void enqueueHostTask(cudaStream_t S, void (*Fn)(void *), void *Arg);
struct Executor {
  void post(void (*Fn)(void *));
};

void CUDART_CB ownRegistrar(void *P) {
  cudaFree(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+22]]:22: note: 'ownRegistrar' is registered as a host callback here, through 'enqueueHostTask'
}
void CUDART_CB libraryCall(void *H) {
  cublasDestroy(static_cast<cublasHandle_t>(H));
  // CHECK: :[[@LINE-1]]:3: warning: 'cublasDestroy' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+18]]:25: note: 'libraryCall' is registered as a host callback here, through 'cudaLaunchHostFunc'
}
void postedTask(void *P) {
  cudaFreeHost(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFreeHost' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+14]]:10: note: 'postedTask' is registered as a host callback here, through 'post'
}
void CUDART_CB allowed(void *) {
  cudaGetLastError(); // no-warning: listed in AllowedFunctions
}
void CUDART_CB errorString(void *P) {
  cudaGetErrorString(*static_cast<cudaError_t *>(P));
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaGetErrorString' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+8]]:25: note: 'errorString' is registered as a host callback here, through 'cudaLaunchHostFunc'
}

void enqueue(cudaStream_t S, Executor &E, void *P) {
  enqueueHostTask(S, ownRegistrar, P);
  cudaLaunchHostFunc(S, libraryCall, P);
  E.post(postedTask);
  cudaLaunchHostFunc(S, allowed, P);
  cudaLaunchHostFunc(S, errorString, P);
}
