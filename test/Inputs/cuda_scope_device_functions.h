/* Hermetic stand-in for the CUDA device builtins that synchronize, for
 * cuda-scope's tests: the atomic functions (device_atomic_functions.h, and the
 * _block and _system forms of sm_60_atomic_functions.h), the fences and
 * __syncthreads (device_functions.h), and nvcc's __nv_atomic_* builtins with
 * their order and scope enumerators (crt/device_functions.h), with the real
 * signatures. Declarations only. */
#ifndef CUDA_SCOPE_TEST_DEVICE_FUNCTIONS_H
#define CUDA_SCOPE_TEST_DEVICE_FUNCTIONS_H
#include "cuda_scope_test_attrs.h"
#if defined(__CUDA__)

#define CUDA_SCOPE_ATOMIC_SCOPES(Name, T)                                                          \
  __device__ T Name(T *address, T val);                                                            \
  __device__ T Name##_block(T *address, T val);                                                    \
  __device__ T Name##_system(T *address, T val);
#define CUDA_SCOPE_ATOMIC_CAS(T)                                                                   \
  __device__ T atomicCAS(T *address, T compare, T val);                                            \
  __device__ T atomicCAS_block(T *address, T compare, T val);                                      \
  __device__ T atomicCAS_system(T *address, T compare, T val);

CUDA_SCOPE_ATOMIC_SCOPES(atomicAdd, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAdd, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAdd, unsigned long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAdd, float)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAdd, double)
CUDA_SCOPE_ATOMIC_SCOPES(atomicSub, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicSub, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicExch, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicExch, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicExch, unsigned long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicExch, float)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMin, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMin, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMin, long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMin, unsigned long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMax, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMax, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMax, long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicMax, unsigned long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicInc, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicDec, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAnd, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAnd, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicAnd, unsigned long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicOr, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicOr, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicOr, unsigned long long int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicXor, int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicXor, unsigned int)
CUDA_SCOPE_ATOMIC_SCOPES(atomicXor, unsigned long long int)
CUDA_SCOPE_ATOMIC_CAS(int)
CUDA_SCOPE_ATOMIC_CAS(unsigned int)
CUDA_SCOPE_ATOMIC_CAS(unsigned long long int)
#undef CUDA_SCOPE_ATOMIC_SCOPES
#undef CUDA_SCOPE_ATOMIC_CAS

__device__ void __threadfence_block(void);
__device__ void __threadfence(void);
__device__ void __threadfence_system(void);
__device__ void __syncthreads(void);

enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

#ifdef __cplusplus
template <class T> __device__ T __nv_atomic_fetch_add(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ T __nv_atomic_fetch_sub(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ T __nv_atomic_fetch_min(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ T __nv_atomic_fetch_max(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_add(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ T __nv_atomic_load_n(T *ptr, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_load(T *ptr, T *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_store_n(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ void __nv_atomic_store(T *ptr, T *val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T> __device__ T __nv_atomic_exchange_n(T *ptr, T val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ bool __nv_atomic_compare_exchange_n(T *ptr, T *expected, T desired, bool weak, int success_order,
                                               int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
#endif

#endif
#endif
