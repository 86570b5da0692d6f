// Host code in a plain .cpp file on the driver API: registrars of the driver,
// versioned entry points (cuMemAlloc is cuMemAlloc_v2), and a runtime that
// loads the driver dynamically and calls it through a table of pointers
// named after the API, behind a macro.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %cxx_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda.h>

struct DriverSyms {
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
};
DriverSyms *Syms;
#define DRIVER_CALL(name) Syms->name

void onDone(void *P) {
  CUdeviceptr D;
  cuMemAlloc(&D, 64);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemAlloc' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: cuda.h:{{[0-9]+}}:{{[0-9]+}}: note: expanded from macro 'cuMemAlloc'
  // CHECK: :[[@LINE+26]]:23: note: 'onDone' is registered as a host callback here, through 'cuLaunchHostFunc'
  Syms->cuStreamWaitEvent(nullptr, nullptr, 0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuStreamWaitEvent' called through a function pointer from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+23]]:23: note: 'onDone' is registered as a host callback here, through 'cuLaunchHostFunc'
  DRIVER_CALL(cuMemFree)(D);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemFree' called through a function pointer from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE-13]]:27: note: expanded from macro 'DRIVER_CALL'
  // CHECK: :[[@LINE+19]]:23: note: 'onDone' is registered as a host callback here, through 'cuLaunchHostFunc'
}
void onStream(CUstream, CUresult, void *) {
  cuCtxSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cuCtxSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+15]]:26: note: 'onStream' is registered as a host callback here, through 'cuStreamAddCallback'
}
void destroy(void *) {
  cuStreamSynchronize(nullptr);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuStreamSynchronize' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+12]]:29: note: 'destroy' is registered as a host callback here, through 'cuUserObjectCreate'
}
void node(void *) {
  cuMemFree(0);
  // CHECK: :[[@LINE-1]]:3: warning: 'cuMemFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+8]]:35: note: 'node' is registered as a host callback here, through 'CUDA_HOST_NODE_PARAMS::fn'
}

void enqueue(CUstream S, CUgraph G, CUgraphNode N, void *P) {
  cuLaunchHostFunc(S, onDone, P);
  cuStreamAddCallback(S, onStream, P, 0);
  CUuserObject O;
  cuUserObjectCreate(&O, P, destroy, 1, 1);
  CUDA_HOST_NODE_PARAMS Params = {node, P};
  cuGraphAddHostNode(&N, G, nullptr, 0, &Params);
}
