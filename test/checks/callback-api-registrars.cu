// Every registrar of a host function: stream callbacks, host functions, graph
// host nodes (call argument, assignment, aggregate and designated initializers,
// set-params calls) and user-object destructors.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

void CUDART_CB hostFn(void *P) {
  cudaFree(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+34]]:25: note: 'hostFn' is registered as a host callback here, through 'cudaLaunchHostFunc'
}
void CUDART_CB streamCb(cudaStream_t, cudaError_t, void *) {
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+30]]:28: note: 'streamCb' is registered as a host callback here, through 'cudaStreamAddCallback'
}
void CUDART_CB assigned(void *P) {
  cudaMemset(P, 0, 4);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMemset' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+28]]:10: note: 'assigned' is registered as a host callback here, through 'cudaHostNodeParams::fn'
}
void CUDART_CB aggregate(void *) {
  cudaStreamSynchronize(0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+27]]:27: note: 'aggregate' is registered as a host callback here, through 'cudaHostNodeParams::fn'
}
void CUDART_CB designated(void *P) {
  cudaFreeHost(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFreeHost' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+25]]:33: note: 'designated' is registered as a host callback here, through 'cudaHostNodeParams::fn'
}
void CUDART_CB setParams(void *) {
  cudaGetLastError();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaGetLastError' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+23]]:56: note: 'setParams' is registered as a host callback here, through 'cudaHostNodeParams::fn'
}
void CUDART_CB destroyObject(void *P) {
  cudaFree(P);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+21]]:33: note: 'destroyObject' is registered as a host callback here, through 'cudaUserObjectCreate'
}

void enqueue(cudaStream_t S, cudaGraph_t G, cudaGraphNode_t N, void *P) {
  cudaLaunchHostFunc(S, hostFn, P);
  cudaStreamAddCallback(S, streamCb, P, 0);

  cudaHostNodeParams A;
  A.fn = assigned;
  A.userData = P;
  cudaGraphAddHostNode(&N, G, nullptr, 0, &A);

  cudaHostNodeParams B = {aggregate, P};
  cudaGraphAddHostNode(&N, G, nullptr, 0, &B);

  cudaHostNodeParams C = {.fn = designated, .userData = P};
  cudaGraphHostNodeSetParams(N, &C);

  cudaGraphHostNodeSetParams(N, new cudaHostNodeParams{setParams, P});

  cudaUserObject_t Obj;
  cudaUserObjectCreate(&Obj, P, destroyObject, 1, 1);
}
