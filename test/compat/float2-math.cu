// Layer entry [float2-math]: the packed float2 arithmetic of crt/sm_100_rt.h (__fadd2_*, __fmul2_*,
// __ffma2_*), which nvcc declares for sm_100 and later and clang's wrapper does not. Each resolves
// on the device side of an sm_100 build, computes its two components with the same rounding, and
// leaves the analysis what it was.
//   mscclpp include/mscclpp/gpu_data_types.hpp:380   return __fadd2_rn(a.storage, b.storage);
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only --cuda-device-only --cuda-gpu-arch=sm_100 %toolkit_arch_flags %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG
// CLANG: error: use of undeclared identifier '__fadd2_rn'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- --cuda-device-only --cuda-gpu-arch=sm_100 %toolkit_arch_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --check-prefix=NONE --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --check-prefix=NONE --implicit-check-not='{{error|warning}}:'
// NONE-NOT: {{error|warning}}:
// RUN: %clang --cuda-device-only --cuda-gpu-arch=sm_100 %toolkit_arch_flags \
// RUN:   -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 -S -emit-llvm -o - %s \
// RUN:   | FileCheck %s --check-prefix=IR
// An sm_90 build takes the other branch, as nvcc's does: nothing is declared there.
// RUN: not %clang -fsyntax-only %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h \
// RUN:   -DCALL_ANYWAY %s 2>&1 | FileCheck %s --check-prefix=SM90
// SM90: error: use of undeclared identifier '__fadd2_rn'
#include <cuda_runtime.h>

// IR-LABEL: define {{.*}} @_Z3addP6float2S0_(
// IR: call {{.*}}float @llvm.nvvm.add.rn.f(
// IR: call {{.*}}float @llvm.nvvm.add.rn.f(
__global__ void add(float2 *A, float2 *B) {
#if __CUDA_ARCH__ >= 1000 || defined(CALL_ANYWAY)
  *A = __fadd2_rn(*A, *B);
#else
  A->x += B->x;
  A->y += B->y;
#endif
}

// Every rounding mode of every family resolves.
__global__ void every(float2 *A, float2 B, float2 C) {
#if __CUDA_ARCH__ >= 1000
  float2 V = *A;
  V = __fadd2_rn(V, B); V = __fadd2_rz(V, B); V = __fadd2_rd(V, B); V = __fadd2_ru(V, B);
  V = __fmul2_rn(V, B); V = __fmul2_rz(V, B); V = __fmul2_rd(V, B); V = __fmul2_ru(V, B);
  V = __ffma2_rn(V, B, C); V = __ffma2_rz(V, B, C); V = __ffma2_rd(V, B, C); V = __ffma2_ru(V, B, C);
  *A = V;
#endif
}
