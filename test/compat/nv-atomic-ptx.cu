// Layer entry [nv-atomic]: what each __nv_atomic_* call compiles to under the layer, which is what
// nvcc 13.0 emits for it (nvcc -arch=sm_90 -ptx; fences excepted, see below): the order and the
// scope stay in the PTX instruction, where the IR pass reads them. Thread scope is .cta, as nvcc
// emits it. clang's own __scoped_atomic_* builtins would lose the scope here: clang 22's NVPTX code
// generation makes every one of them a system-scope atomic (the last kernel shows it).
// REQUIRES: cuda-toolkit
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 -S -o - %s \
// RUN:   | FileCheck %s

#define ORDERS_LOAD(S)                                                                             \
  O[0] = __nv_atomic_load_n(P, __NV_ATOMIC_RELAXED, S);                                            \
  O[1] = __nv_atomic_load_n(P, __NV_ATOMIC_ACQUIRE, S);                                            \
  O[2] = __nv_atomic_load_n(P, __NV_ATOMIC_CONSUME, S);                                            \
  O[3] = __nv_atomic_load_n(P, __NV_ATOMIC_SEQ_CST, S);
#define ORDERS_STORE(S)                                                                            \
  __nv_atomic_store_n(P, 1, __NV_ATOMIC_RELAXED, S);                                               \
  __nv_atomic_store_n(P, 2, __NV_ATOMIC_RELEASE, S);                                               \
  __nv_atomic_store_n(P, 3, __NV_ATOMIC_SEQ_CST, S);
#define ORDERS_RMW(S)                                                                              \
  O[0] = __nv_atomic_fetch_add(P, 1, __NV_ATOMIC_RELAXED, S);                                      \
  O[1] = __nv_atomic_fetch_add(P, 1, __NV_ATOMIC_ACQUIRE, S);                                      \
  O[2] = __nv_atomic_fetch_add(P, 1, __NV_ATOMIC_RELEASE, S);                                      \
  O[3] = __nv_atomic_fetch_add(P, 1, __NV_ATOMIC_ACQ_REL, S);                                      \
  O[4] = __nv_atomic_fetch_add(P, 1, __NV_ATOMIC_SEQ_CST, S);
#define ORDERS_FENCE(S)                                                                            \
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, S);                                                \
  O[0] = 1;                                                                                        \
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, S);                                                \
  O[1] = 1;                                                                                        \
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, S);                                                \
  O[2] = 1;                                                                                        \
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, S);                                                \
  O[3] = 1;                                                                                        \
  __nv_atomic_thread_fence(__NV_ATOMIC_RELAXED, S);

// CHECK-LABEL: .entry _Z5loadsPiS_(
// CHECK: ld.relaxed.cta.b32
// CHECK: ld.acquire.cta.b32
// CHECK: ld.acquire.cta.b32
// CHECK: fence.sc.cta;
// CHECK: ld.acquire.cta.b32
__global__ void loads(int *P, int *O) { ORDERS_LOAD(__NV_THREAD_SCOPE_BLOCK) }

// CHECK-LABEL: .entry _Z6storesPi(
// CHECK: st.relaxed.cta.b32
// CHECK: st.release.cta.b32
// CHECK: fence.sc.cta;
// CHECK: st.relaxed.cta.b32
__global__ void stores(int *P) { ORDERS_STORE(__NV_THREAD_SCOPE_BLOCK) }

// CHECK-LABEL: .entry _Z4rmwsPiS_(
// CHECK: atom.add.relaxed.cta.s32
// CHECK: atom.add.acquire.cta.s32
// CHECK: atom.add.release.cta.s32
// CHECK: atom.add.acq_rel.cta.s32
// CHECK: fence.sc.cta;
// CHECK: atom.add.acquire.cta.s32
__global__ void rmws(int *P, int *O) { ORDERS_RMW(__NV_THREAD_SCOPE_BLOCK) }

// nvcc 13.0 emits fence.sc for an acquire, release or relaxed fence; the layer keeps the order
// the call names, as libcu++'s atomic_thread_fence does: fence.acq_rel, and nothing for relaxed.
// CHECK-LABEL: .entry _Z6fencesPi(
// CHECK: fence.acq_rel.cta;
// CHECK: fence.acq_rel.cta;
// CHECK: fence.acq_rel.cta;
// CHECK: fence.sc.cta;
// CHECK-NOT: fence
// CHECK: ret;
__global__ void fences(int *O) { ORDERS_FENCE(__NV_THREAD_SCOPE_BLOCK) }

// Each scope, and the default.
// CHECK-LABEL: .entry _Z6scopesPiS_(
// CHECK: ld.acquire.cta.b32
// CHECK: ld.acquire.cta.b32
// CHECK: ld.acquire.cluster.b32
// CHECK: ld.acquire.gpu.b32
// CHECK: ld.acquire.sys.b32
// CHECK: ld.acquire.sys.b32
__global__ void scopes(int *P, int *O) {
  O[0] = __nv_atomic_load_n(P, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_THREAD);
  O[1] = __nv_atomic_load_n(P + 1, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  O[2] = __nv_atomic_load_n(P + 2, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_CLUSTER);
  O[3] = __nv_atomic_load_n(P + 3, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  O[4] = __nv_atomic_load_n(P + 4, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM);
  O[5] = __nv_atomic_load_n(P + 5, __NV_ATOMIC_ACQUIRE);
}

// The operations and types nvcc accepts them on; sub is add of the negated operand, as nvcc does.
// CHECK-LABEL: .entry _Z10operationsPiPjPxPyPfPdS_(
// CHECK: atom.add.relaxed.gpu.s32
// CHECK: atom.add.relaxed.gpu.u32
// CHECK: atom.min.relaxed.gpu.s64
// CHECK: atom.max.relaxed.gpu.u64
// CHECK: atom.add.relaxed.gpu.f32
// CHECK: atom.add.relaxed.gpu.f64
// CHECK: atom.and.relaxed.gpu.b32
// CHECK: atom.or.relaxed.gpu.b32
// CHECK: atom.xor.relaxed.gpu.b64
// CHECK: atom.exch.relaxed.gpu.b32
// CHECK: atom.cas.acq_rel.gpu.b32
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
__global__ void operations(int *P, unsigned *U, long long *L, unsigned long long *UL, float *F, double *D,
                           int *O) {
  const int S = __NV_THREAD_SCOPE_DEVICE;
  O[0] = __nv_atomic_fetch_sub(P, 3, __NV_ATOMIC_RELAXED, S);
  O[1] = __nv_atomic_fetch_sub(U, 3u, __NV_ATOMIC_RELAXED, S);
  O[2] = __nv_atomic_fetch_min(L, 3LL, __NV_ATOMIC_RELAXED, S);
  O[3] = __nv_atomic_fetch_max(UL, 3ULL, __NV_ATOMIC_RELAXED, S);
  O[4] = __nv_atomic_fetch_add(F, 1.0f, __NV_ATOMIC_RELAXED, S);
  O[5] = __nv_atomic_fetch_add(D, 1.0, __NV_ATOMIC_RELAXED, S);
  __nv_atomic_and(P + 1, 3, __NV_ATOMIC_RELAXED, S);
  __nv_atomic_or(P + 2, 3, __NV_ATOMIC_RELAXED, S);
  __nv_atomic_xor(L + 1, 1LL, __NV_ATOMIC_RELAXED, S);
  O[6] = __nv_atomic_exchange_n(P + 3, 3, __NV_ATOMIC_RELAXED, S);
  int E = 1;
  O[7] = __nv_atomic_compare_exchange_n(P + 4, &E, 3, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED, S);
  O[8] = __nv_atomic_compare_exchange_n(P + 5, &E, 3, true, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_ACQUIRE, S);
}

// The generic forms move any 4- or 8-byte type through a register of that size.
// CHECK-LABEL: .entry _Z7genericPfPdS_S0_(
// CHECK: ld.acquire.cluster.b32
// CHECK: st.release.cluster.b64
// CHECK: atom.exch.relaxed.sys.b32
// CHECK: atom.cas.release.cta.b64
__global__ void generic(float *F, double *D, float *OF, double *OD) {
  __nv_atomic_load(F, OF, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_CLUSTER);
  __nv_atomic_store(D, OD, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_CLUSTER);
  __nv_atomic_exchange(F + 1, OF + 1, OF + 2, __NV_ATOMIC_RELAXED);
  __nv_atomic_compare_exchange(D + 1, OD + 1, OD + 2, false, __NV_ATOMIC_RELEASE, __NV_ATOMIC_RELAXED,
                               __NV_THREAD_SCOPE_BLOCK);
}

// What clang's builtin does with a block scope: a system-scope instruction.
// CHECK-LABEL: .entry _Z12clangBuiltinPi(
// CHECK: ld.acquire.sys.{{.*}}b32
__global__ void clangBuiltin(int *P) { P[1] = __scoped_atomic_load_n(P, __ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP); }
