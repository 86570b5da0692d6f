// Layer entry [nvcc-macros]: nvcc defines __NVCC__ and __CUDACC_VER_MAJOR__/MINOR__/BUILD__; clang
// defines none, so code written for nvcc stops at its own #error, loses the part declared under
// __NVCC__, or takes a pre-CUDA-9 path. The layer gives nvcc's macros with the toolkit's version,
// and the toolkit's CCCL still tells clang from nvcc (with NDEBUG, CCCL's assert.h under __NVCC__
// redeclares __assert_fail, which clang rejects).
// REQUIRES: cuda-toolkit
// Plain clang: the file stops at its #error.
// RUN: not %clang -fsyntax-only %toolkit_device_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: "NVCC version not found"
// Through the module, both sides, with and without NDEBUG: no error, and the finding in the part
// declared under __NVCC__ is reported.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags -DNDEBUG 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags -DNDEBUG 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{error|warning}}:'
// The IR pass's route (-include), where the warp shuffle's pre-CUDA-9 path would not compile for
// sm_90, gives the same finding.
// RUN: %clang %toolkit_device_flags -DNDEBUG -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h \
// RUN:   -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -emit-llvm -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS
// A definition on the command line is kept, as nvcc's -D would be.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags -DEXPECT_MAJOR=12 \
// RUN:   -D__CUDACC_VER_MAJOR__=12 2>&1 | FileCheck %s --implicit-check-not='{{error|warning}}:'
#if !defined(__NVCC__)
#error "nvcc only"
#endif
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) || !defined(__CUDACC_VER_BUILD__)
#error "NVCC version not found"
#endif
#ifndef EXPECT_MAJOR
#define EXPECT_MAJOR (CUDA_VERSION / 1000)
#endif
#define CSN_STR2(X) #X
#define CSN_STR(X) CSN_STR2(X)
// Plain literals, as nvcc's are: projects paste and stringize them.
static_assert(__CUDACC_VER_MAJOR__ == EXPECT_MAJOR && __CUDACC_VER_MINOR__ == CUDA_VERSION % 1000 / 10,
              "nvcc " CSN_STR(__CUDACC_VER_MAJOR__) "." CSN_STR(__CUDACC_VER_MINOR__));
#include <cassert>
#include <cooperative_groups.h>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/atomic>
#include <cuda/std/cassert>

#if __CUDACC_VER_MAJOR__ >= 9
#define CSN_SHFL_DOWN(V, D) __shfl_down_sync(0xffffffffu, V, D)
#else
#define CSN_SHFL_DOWN(V, D) __shfl_down(V, D)
#endif

#ifdef __NVCC__
__device__ int Data;
__device__ int Flag;
__global__ void publish(int *Out) {
  assert(Out);
  int V = CSN_SHFL_DOWN(Out[threadIdx.x], 1);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Data = V;
    cuda::atomic_ref<int, cuda::thread_scope_device>(Flag).store(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:60: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data'{{.*}}[cuda-scope-release-acquire]
    // PASS: :[[@LINE-2]]:60: remark: 'Flag' is published here
    // CHECK: note: 'Data' is written here
    // CHECK: note: kernel 'publish' receives 'Flag' here
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> F(Flag);
    while (F.load(cuda::memory_order_acquire) != 1) {
    }
    Out[0] = Data;
  }
}
#endif
