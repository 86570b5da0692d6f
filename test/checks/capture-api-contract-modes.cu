// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-capture-api.CaptureSafeFunctions: 'growPool=relaxed;stagePlain'}}" \
// RUN:   -- %cuda_host_flags | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-capture-api.CaptureSafeFunctions: 'growPool=lazy'}}" \
// RUN:   -- %cuda_host_flags 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// A capture-safe contract names the capture mode it promises safety in: a library that captures
// in relaxed mode may allocate during it (relaxed mode permits cudaMalloc), and says so; what even
// relaxed mode forbids stays reported, and the mode is named in the note.
#include <cuda_runtime.h>

__global__ void step(float *X) {}

[[clang::annotate("cuda-scope:capture-safe", "relaxed")]] void enqueueRelaxed(cudaStream_t S, float **D) {
  cudaMalloc((void **)D, 64); // no-warning: relaxed mode permits the allocation
  step<<<1, 32, 0, S>>>(*D);
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called from 'enqueueRelaxed', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-5]]:64: note: 'enqueueRelaxed' is declared capture-safe here, for a capture in relaxed mode
}

void growPool(float **D) {
  cudaMalloc((void **)D, 64); // no-warning: the option's entry names relaxed mode
}

// The default contract is global mode: the same allocation is reported.
[[clang::annotate("cuda-scope:capture-safe")]] void enqueueGlobal(float **D) {
  cudaMalloc((void **)D, 64);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called from 'enqueueGlobal', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:53: note: 'enqueueGlobal' is declared capture-safe here
}

void stagePlain(float **D) {
  cudaMalloc((void **)D, 64);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called from 'stagePlain', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:6: note: 'stagePlain' is declared capture-safe by the option 'CaptureSafeFunctions'
}

// A word that is no capture mode: reported at the annotation, and taken as global.
[[clang::annotate("cuda-scope:capture-safe", "lazy")]] void enqueueTypo(float **D) {
  // CHECK: :[[@LINE-1]]:3: warning: the capture mode a capture-safe contract names must be 'global', 'thread-local' or 'relaxed'; taken as global [cuda-scope-capture-api]
  cudaMalloc((void **)D, 64);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaMalloc' called from 'enqueueTypo', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:61: note: 'enqueueTypo' is declared capture-safe here
}

// BAD-OPTION: error: invalid capture mode 'lazy' in option 'CaptureSafeFunctions' of check 'cuda-scope-capture-api': expected 'global', 'thread-local' or 'relaxed'
