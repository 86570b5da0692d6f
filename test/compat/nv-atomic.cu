// Layer entry [nv-atomic]: nvcc's __nv_atomic_* builtins, which clang 22 does not have. The layer's
// functions keep nvcc's names, orders and scopes: the clang-tidy checks read each call as nvcc's
// builtin (its scope argument, system scope by default), and the IR pass reads the same scope from
// the PTX the call inlines to, so the two front ends report the same mismatch.
//   HeCBench atomicCAS-cuda/kernels.h:6   long long ret = __nv_atomic_load_n(address, __NV_ATOMIC_RELAXED);
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only %toolkit_device_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: use of undeclared identifier '__NV_ATOMIC_RELEASE'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note|error}}:'
// The IR pass, from clang++ with the layer given as the user guide says:
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 \
// RUN:   -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not='{{remark|error}}:'

__global__ void publishBlockScope(int *Flag) {
  __nv_atomic_store_n(Flag, 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  // TIDY: :[[@LINE-1]]:3: warning: 'Flag' is stored with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'publishBlockScope'; {{.*}} [cuda-scope-mismatch]
  // TIDY: :[[@LINE+2]]:11: note: the thread_scope_device load is here
  // PASS: :[[@LINE-3]]:3: remark: kernel argument 0 is accessed with block scope (st.release.cta.b32) in kernel publishBlockScope(int*), and with device scope (ld.acquire.gpu.b32) at {{.*}}:[[@LINE+1]]:11;
  while (!__nv_atomic_load_n(Flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE)) {
  }
}

// No scope argument is system scope, as with nvcc.
__global__ void countBlockScope(int *Count) {
  __nv_atomic_fetch_add(Count, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  // TIDY: :[[@LINE-1]]:3: warning: 'Count' is updated with thread_scope_block here but loaded with thread_scope_system in other blocks of kernel 'countBlockScope'; {{.*}} [cuda-scope-mismatch]
  // TIDY: :[[@LINE+2]]:10: note: the thread_scope_system load is here
  // PASS: :[[@LINE-3]]:3: remark: kernel argument 0 is accessed with block scope (atom.add.relaxed.cta.s32) in kernel countBlockScope(int*), and with system scope (ld.acquire.sys.b32) at {{.*}}:[[@LINE+1]]:10;
  while (__nv_atomic_load_n(Count, __NV_ATOMIC_ACQUIRE) < 2) {
  }
}

// no-warning: every access is device scope.
__global__ void deviceScope(int *Flag, unsigned long long *Sum) {
  __nv_atomic_add(Sum, 1ULL, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  int Expected = 0;
  __nv_atomic_compare_exchange_n(Flag, &Expected, 1, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED,
                                 __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  while (!__nv_atomic_load_n(Flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE)) {
  }
}

// The corpus's own use: a relaxed load before a compare-and-swap loop.
__device__ long long atomicMinLL(long long *Address, long long Val) {
  long long Ret = __nv_atomic_load_n(Address, __NV_ATOMIC_RELAXED);
  while (Val < Ret) {
    long long Old = Ret;
    if ((Ret = atomicCAS((unsigned long long *)Address, (unsigned long long)Old, (unsigned long long)Val)) == Old)
      break;
  }
  return Ret;
}
