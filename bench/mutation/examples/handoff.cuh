// PTX release and acquire helpers for handoff.cu (a project header: its mutants count too).
#pragma once

__device__ __forceinline__ void store_release(unsigned int *p, unsigned int v) {
  // st.release.gpu publishes what this thread wrote before it
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned int load_acquire(const unsigned int *p) {
  unsigned int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
