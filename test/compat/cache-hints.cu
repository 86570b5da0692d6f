// Layer entry [cache-hints]: the cache-hinted loads and stores of sm_32_intrinsics.h that clang's
// __clang_cuda_intrinsics.h lacks. Every overload nvcc declares resolves, on both sides, and each
// compiles to the plain load or store it is to the memory model, which the IR pass sees as data.
//   AMGX include/sm_utils.inl:167        return __ldca(ptr);     (const int *; every AMGX TU)
//   llm.c llmc/cuda_utils.cuh:70, :75    __stcs / __stcg(reinterpret_cast<int4 *>(target), ...)
//   HeCBench layernorm-cuda/main.cu:43   __stcs(...)
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only %toolkit_device_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: error: {{use of undeclared identifier|no matching function for call to}} '__ldca'
// CLANG-DAG: error: {{use of undeclared identifier|no matching function for call to}} '__stcs'
// CLANG-DAG: error: {{use of undeclared identifier|no matching function for call to}} '__stcg'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --check-prefix=NONE --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --check-prefix=NONE --implicit-check-not='{{error|warning}}:'
// NONE-NOT: {{error|warning}}:
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 -S -emit-llvm \
// RUN:   -o - %s | FileCheck %s --check-prefix=IR
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 \
// RUN:   -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not='{{remark|error}}:'
#include <cuda_runtime.h>

#define TYPES(X)                                                                                   \
  X(char) X(signed char) X(short) X(int) X(long) X(long long) X(unsigned char) X(unsigned short)   \
  X(unsigned int) X(unsigned long) X(unsigned long long) X(float) X(double) X(char2) X(char4)      \
  X(short2) X(short4) X(int2) X(int4) X(longlong2) X(uchar2) X(uchar4) X(ushort2) X(ushort4)       \
  X(uint2) X(uint4) X(ulonglong2) X(float2) X(float4) X(double2)
#define EVERY_OVERLOAD(T)                                                                          \
  {                                                                                                \
    T *P = reinterpret_cast<T *>(Buf);                                                             \
    T V = __ldg(P), W;                                                                             \
    W = __ldcg(P); W = __ldca(P); W = __ldcs(P); W = __ldlu(P); W = __ldcv(P);                     \
    __stwb(P, V); __stcg(P, W); __stcs(P, V); __stwt(P, W);                                        \
  }
__global__ void everyOverload(double2 *Buf) { TYPES(EVERY_OVERLOAD) }

// IR-LABEL: define {{.*}} @_Z4amgxPKiPi(
// IR: load i32, ptr
__global__ void amgx(const int *Ptr, int *Out) { *Out = __ldca(Ptr); }

// IR-LABEL: define {{.*}} @_Z4llmcP4int4S0_(
// IR: store i32 1, ptr %0
// IR: store i32 1, ptr %1
__global__ void llmc(int4 *Target, int4 *Other) {
  int4 Bits = make_int4(1, 2, 3, 4);
  __stcs(Target, Bits);
  __stcg(Other, Bits);
}

// A message whose data goes through __stcs and __ldcs: the pass sees both as the data accesses.
#include <cuda/atomic>
using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
__global__ void message(float *Data, int *Flag, float *Out) {
  if (blockIdx.x == 0) {
    __stcs(Data, 1.0f);
    Dev(*Flag).store(1, cuda::memory_order_relaxed);
    // PASS: :[[@LINE-1]]:16: remark: kernel argument 1 is published here (st.relaxed.gpu.b32, relaxed) after plain writes to kernel argument 0 at {{.*}}:[[@LINE-2]]:5 with no release between them
  } else if (Dev(*Flag).load(cuda::memory_order_relaxed) == 1) {
    // PASS: :[[@LINE-1]]:25: remark: kernel argument 1 is received here (ld.relaxed.gpu.b32, relaxed) and kernel argument 0 is read after it at {{.*}}:[[@LINE+1]]:23 with no acquire between them
    Out[blockIdx.x] = __ldcs(Data);
  }
}
