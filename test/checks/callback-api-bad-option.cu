// A Registrars entry without an argument index is a configuration error,
// reported by name; the check still runs.
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' \
// RUN:   -config="{CheckOptions: {cuda-scope-callback-api.Registrars: 'enqueueHostTask;post:x'}}" \
// RUN:   %s -- %cuda_host_flags 2>&1 | FileCheck %s
#include <cuda_runtime.h>
// CHECK-DAG: error: invalid entry 'enqueueHostTask' in option 'Registrars' of check 'cuda-scope-callback-api': expected 'function:callback-argument-index' [clang-tidy-config]
// CHECK-DAG: error: invalid entry 'post:x' in option 'Registrars' of check 'cuda-scope-callback-api'
void CUDART_CB cb(void *P) { cudaFree(P); }
// CHECK-DAG: :[[@LINE-1]]:30: warning: 'cudaFree' called from a host callback;
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, cb, P); }
