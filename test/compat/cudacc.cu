// Layer entry [cudacc]: nvcc defines __CUDACC__ as 1, clang's wrapper defines it empty, so a header
// testing `#if __CUDACC__` does not preprocess under clang. The layer gives it nvcc's value.
//   the CUDA 13 toolkit's nccl_device/coop.h:18, nccl_device/utility.h:10 (nccl-tests src/common.h)
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only %toolkit_device_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: expected value in expression
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
#if __CUDACC__
__device__ int deviceOnly(int X) { return X + 1; }
#endif
#ifndef __CUDACC__
#error "__CUDACC__ must stay defined"
#endif
