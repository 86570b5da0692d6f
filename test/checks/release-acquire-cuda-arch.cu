// Device code under #if __CUDA_ARCH__ >= 700 ... #else: the host side compiles the #else arm only
// because __CUDA_ARCH__ is not defined there; no GPU of an sm_90 build runs it. Its device rules
// leave that arm out (its host rules would keep host code there). The device side reads the arm
// its architecture takes: sm_90 the acquire load (no finding), sm_60 the pre-Volta volatile load
// with no fence after it (a finding, as FasterTransformer's all-reduce flags read on pre-Volta
// GPUs). The arm under #ifndef __CUDA_ARCH__ of a __host__ __device__ helper is left out too.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- -x cuda --cuda-device-only -nocudainc -nocudalib \
// RUN:   --cuda-gpu-arch=sm_60 -isystem %inputs -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=PREVOLTA --implicit-check-not='{{warning|error}}:'
// Without the arms left out, the host side reports both helpers (the check's own evidence that the
// code it leaves out is a finding there):
// RUN: sed 's/__CUDA_ARCH__/CUDA_ARCH_SPELLED_OTHERWISE/' %s > %t.cu
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %t.cu -- %cuda_host_flags -I%S \
// RUN:   | FileCheck %s --check-prefix=RENAMED --implicit-check-not='{{warning|error}}:'
#include <cuda_runtime.h>
#include <cuda_scope_device_functions.h>
#include <stdint.h>

static __device__ void ldFlag(uint32_t &flag, uint32_t *addr) {
#if __CUDA_ARCH__ >= 700
  asm volatile("ld.global.acquire.sys.b32 %0, [%1];" : "=r"(flag) : "l"(addr));
#else
  // PREVOLTA: cuda-arch.cu:[[@LINE+2]]:3: warning: 'flags' is received here with a volatile load and 'data' is read after it, with no acquire between them
  // RENAMED: .cu:[[@LINE+1]]:3: warning: 'flags' is received here with a volatile load and 'data' is read after it, with no acquire between them
  asm volatile("ld.global.volatile.b32 %0, [%1];" : "=r"(flag) : "l"(addr));
#endif
}

static __host__ __device__ void ldCount(uint32_t &count, volatile uint32_t *addr) {
#ifndef __CUDA_ARCH__
  // RENAMED: .cu:[[@LINE+1]]:11: warning: 'flags' is received here with a volatile load and 'data' is read after it, with no acquire between them
  count = *addr;
#else
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(count) : "l"(addr));
#endif
}

#define WAIT(Name, Load)                                                                           \
  __global__ void Name(uint32_t *flags, float *data, float *out, uint32_t expected) {              \
    if (blockIdx.x == 0) {                                                                         \
      data[threadIdx.x] = 1.0f;                                                                    \
      __syncthreads();                                                                             \
      if (threadIdx.x == 0) {                                                                      \
        __threadfence();                                                                           \
        atomicExch(flags, expected);                                                               \
      }                                                                                            \
    } else {                                                                                       \
      if (threadIdx.x == 0) {                                                                      \
        uint32_t seen = 0;                                                                         \
        do {                                                                                       \
          Load(seen, flags);                                                                       \
        } while (seen != expected);                                                                \
      }                                                                                            \
      __syncthreads();                                                                             \
      out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x];                              \
    }                                                                                              \
  }
WAIT(waitFlag, ldFlag)
WAIT(waitCount, ldCount)
