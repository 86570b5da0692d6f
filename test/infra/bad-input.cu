// Code that does not parse gets clang's errors and a non-zero exit, never a
// crash; the checks report nothing on the broken declarations.
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %cuda_host_flags > %t.out 2>&1
// RUN: FileCheck %s < %t.out --implicit-check-not='warning:' --implicit-check-not='registered as a host callback' --implicit-check-not='Stack dump'
#include <cuda_runtime.h>
void CUDART_CB broken(void *P) { cudaFree(P) }
// CHECK: :[[@LINE-1]]:45: error: expected ';' after expression [clang-diagnostic-error]
void enqueue(cudaStream_t S, void *P) { cudaLaunchHostFunc(S, broken, P, 1, 2); }
// CHECK: :[[@LINE-1]]:41: error: no matching function for call to 'cudaLaunchHostFunc' [clang-diagnostic-error]
template <typename T> void neverInstantiated(T P) { cudaLaunchHostFunc(P.s, P.f, P.p); }
