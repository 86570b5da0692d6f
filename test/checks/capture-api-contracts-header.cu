// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %t/main.cu -- %cuda_host_flags -isystem %t \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// A capture-safe function that calls into header-only library code: a
// capture-breaking call inside a system header is a true finding, reported at
// the last call in the user's code, with the chain down to the call itself.

//--- fakelib.h
#pragma once
#include <cuda_runtime.h>
namespace fakelib {
inline void *grow(size_t N) {
  void *P;
  cudaMalloc(&P, N);
  return P;
}
inline void *reserve(size_t N) { return grow(N); }
inline void *pure(size_t N) { return (void *)N; }
} // namespace fakelib

//--- main.cu
#include <fakelib.h>

[[clang::annotate("cuda-scope:capture-safe")]] void step(cudaStream_t S) {
  void *P = fakelib::reserve(16);
  // CHECK: main.cu:[[@LINE-1]]:13: warning: 'cudaMalloc' called from 'step', which is declared capture-safe, invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: main.cu:[[@LINE-3]]:53: note: 'step' is declared capture-safe here
  // CHECK: main.cu:[[@LINE-3]]:13: note: 'fakelib::reserve' is called here
  // CHECK: fakelib.h:[[@LINE-12]]:41: note: 'fakelib::grow' is called here
  // CHECK: fakelib.h:[[@LINE-16]]:3: note: 'cudaMalloc' is called here
  void *Q = fakelib::pure(16); // no-warning: calls no CUDA API
  (void)P, (void)Q;
}
