// cuda-scope-release-acquire: a flag read by a helper that hands its value back through a reference
// parameter (FasterTransformer's ld_flag_acquire(uint32_t &flag, uint32_t *addr), whose inline PTX
// load writes the caller's loop variable; or a plain assignment to the reference). The caller's
// loop tests that variable, so the helper's load is the receive, as the IR's registers show after
// inlining. With a relaxed load and no fence after it, the data read after the loop is reported at
// the load; with ld.acquire it is not. Against the real toolkit, both clang-tidy sides, and the IR
// pass at the same lines.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*reference-relays.cu:\([0-9]*\):[0-9]*: warning: .*$/\1/p' | sort -u > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope \
// RUN:   -mllvm -sink-common-insts=false -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*reference-relays.cu:\([0-9]*\):[0-9]*: remark: .* is \(published\|received\) here .*$/\1/p' | sort -u > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test `wc -l < %t.ir` -eq 2
#include <cstdint>

static __device__ void ldFlagRelaxed(uint32_t &flag, uint32_t *addr) {
  // CHECK: reference-relays.cu:[[@LINE+1]]:3: warning: 'flags' is received here with a relaxed load and 'data' is read after it, with no acquire between them
  asm volatile("ld.global.relaxed.sys.b32 %0, [%1];" : "=r"(flag) : "l"(addr));
}

static __device__ void ldFlagAcquire(uint32_t &flag, uint32_t *addr) {
  // no-warning: ld.acquire is the acquire pattern
  asm volatile("ld.global.acquire.sys.b32 %0, [%1];" : "=r"(flag) : "l"(addr));
}

static __device__ void loadFlag(uint32_t &flag, volatile uint32_t *addr) {
  // CHECK: reference-relays.cu:[[@LINE+1]]:10: warning: 'flags' is received here with a volatile load and 'data' is read after it, with no acquire between them
  flag = *addr;
}

static __device__ void stFlagRelease(uint32_t flag, uint32_t *addr) {
  asm volatile("st.global.release.sys.b32 [%1], %0;" ::"r"(flag), "l"(addr));
}

// One kernel per helper: block 0 writes the data and releases the flag; the other blocks' thread 0
// waits through the helper, and every thread reads the data after the barrier.
#define WAIT(Name, Load)                                                                           \
  __global__ void Name(uint32_t *flags, float *data, float *out, uint32_t expected) {              \
    if (blockIdx.x == 0) {                                                                         \
      data[threadIdx.x] = 1.0f;                                                                    \
      __syncthreads();                                                                             \
      if (threadIdx.x == 0)                                                                        \
        stFlagRelease(expected, flags);                                                            \
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
WAIT(waitRelaxed, ldFlagRelaxed)
WAIT(waitAcquire, ldFlagAcquire)
WAIT(waitVolatile, loadFlag)
