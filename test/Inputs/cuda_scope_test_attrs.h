/* Hermetic stand-in for CUDA's qualifiers and builtin variables, for tests
 * that parse CUDA with -nocudainc. Empty outside CUDA. */
#ifndef CUDA_SCOPE_TEST_ATTRS_H
#define CUDA_SCOPE_TEST_ATTRS_H
#if defined(__CUDA__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))

/* blockIdx.x and friends read the special registers, as in the toolkit. */
#define CUDA_SCOPE_SREG(Name, Reg)                                                                 \
  struct Name##_t {                                                                                \
    __declspec(property(get = get_x)) unsigned int x;                                              \
    __declspec(property(get = get_y)) unsigned int y;                                              \
    __declspec(property(get = get_z)) unsigned int z;                                              \
    static __device__ __forceinline__ unsigned int get_x() { return __nvvm_read_ptx_sreg_##Reg##_x(); } \
    static __device__ __forceinline__ unsigned int get_y() { return __nvvm_read_ptx_sreg_##Reg##_y(); } \
    static __device__ __forceinline__ unsigned int get_z() { return __nvvm_read_ptx_sreg_##Reg##_z(); } \
  };                                                                                               \
  extern const __device__ Name##_t Name;
CUDA_SCOPE_SREG(threadIdx, tid)
CUDA_SCOPE_SREG(blockIdx, ctaid)
CUDA_SCOPE_SREG(blockDim, ntid)
CUDA_SCOPE_SREG(gridDim, nctaid)
#undef CUDA_SCOPE_SREG
#endif
#endif
