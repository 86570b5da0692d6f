// Layer entry [headers]: nvcc's cuda_runtime.h includes <math.h> and <time.h>, clang's wrapper
// neither. Host code calling isfinite, clock() and CLOCKS_PER_SEC with no include of its own:
//   llm.c dev/cuda/common.h:322   if(!isfinite(cpu_reference[i]))
//   llm.c dev/cuda/permute.cu:147 clock_t start = clock(); ... / CLOCKS_PER_SEC (:150)
// REQUIRES: cuda-toolkit
// Without the layer clang rejects it:
// RUN: not %clang -fsyntax-only %toolkit_host_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: error: no matching function for call to 'isfinite'
// CLANG-DAG: error: no matching function for call to 'clock'
// CLANG-DAG: error: use of undeclared identifier 'CLOCKS_PER_SEC'
// With it (the module adds it), both sides parse:
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
#include <cuda_runtime.h>

int countFinite(const float *Ref, int N) {
  int Finite = 0;
  for (int I = 0; I < N; I++)
    if (isfinite(Ref[I]) && !isnan(Ref[I]) && !isinf(Ref[I]) && !signbit(Ref[I]))
      Finite++;
  return Finite;
}

double timeIt(void (*F)()) {
  clock_t Start = clock();
  F();
  clock_t End = clock();
  return (double)(End - Start) / CLOCKS_PER_SEC;
}
