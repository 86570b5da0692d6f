/*===- cuda-scope-nvcc.h - what nvcc's front end provides and clang's does not -===*
 *
 * USAGE: clang++-22 -x cuda ... -include <prefix>/lib/cuda-scope/include/cuda-scope-nvcc.h file.cu
 *        (the cuda-scope command and the clang-tidy module add it themselves: docs/compatibility.md)
 *
 * The nvcc-compatibility layer of cuda-scope. Code that nvcc builds uses declarations that nvcc's
 * CUDA headers and front end provide and that clang's CUDA wrapper headers
 * (__clang_cuda_runtime_wrapper.h) lack, so clang rejects it and the analyzer sees less of the
 * file. This header supplies them, each entry with the real code that needed it. Nothing here
 * changes what a program means to the memory model: each function does what nvcc's does (a cache
 * operator aside), and the atomics keep their orders and scopes exactly, so the cuda-scope checks
 * and the IR pass read them as nvcc compiles them.
 *
 * It is a no-op outside CUDA, without clang's CUDA wrapper (-nocudainc), and with
 * -DCUDA_SCOPE_NO_NVCC_COMPAT. Its tests are test/compat/; docs/compatibility.md lists every entry.
 *
 * Function bodies are compiled only where code is generated from them: on the device side, and not
 * under clang-tidy (which defines __clang_analyzer__ and never looks inside a system header's
 * functions). Elsewhere the header declares the same functions and no more, so that it costs next to
 * nothing to parse (docs/compatibility.md, "Cost").
 *===------------------------------------------------------------------------------------------===*/
#ifndef CUDA_SCOPE_NVCC_H
#define CUDA_SCOPE_NVCC_H

#if defined(__CUDA__) && defined(__cplusplus) && defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__) &&               \
    !defined(CUDA_SCOPE_NO_NVCC_COMPAT)

#pragma clang system_header
#define CUDA_SCOPE_NVCC_COMPAT 1
#if defined(__CUDA_ARCH__) && !defined(__clang_analyzer__)
#define __CUDA_SCOPE_DEVICE_BODIES 1
#endif

/* [headers] nvcc's cuda_runtime.h includes <math.h> and <time.h> (crt/math_functions.h,
 * crt/common_functions.h); clang's wrapper includes neither. Without <math.h> host code finds only
 * clang's __device__ ::isfinite, ::isnan, ::isinf and ::signbit, and without <time.h> it has no
 * host clock() or CLOCKS_PER_SEC.
 *   llm.c dev/cuda/common.h:322            if(!isfinite(cpu_reference[i]))        (host code)
 *   llm.c dev/cuda/permute.cu:147,150      clock_t start = clock(); ... / CLOCKS_PER_SEC */
#include <math.h>
#include <time.h>
/* [extended-lambda] Under --extended-lambda nvcc's cuda_runtime.h includes <functional> too (where it
 * defines __CUDACC_EXTENDED_LAMBDA__, which this header leaves undefined: [nvcc-macros] below). The
 * cuda-scope command says so with -D__CUDA_SCOPE_EXTENDED_LAMBDA=1. Code built with the flag may rely
 * on what <functional> brings: libstdc++'s brings <vector>, <unordered_map> and std::sort
 * (bits/stl_algo.h), which nvcc's front end finds when a template's body names it before the file
 * includes <algorithm>, and clang does not.
 *   MVGpuBTree include/gpu_blink_tree.hpp:882      std::sort(...)            (<algorithm> comes later)
 *   MVGpuBTree include/memory_reclaimer.hpp:114    std::vector<...>          (never included) */
#if defined(__CUDA_SCOPE_EXTENDED_LAMBDA) && defined(__cplusplus)
#include <functional>
#endif

/* [min-max] nvcc declares min and max __host__ __device__ for every pair of integer types, mixed
 * signedness and width included, and for float and double (crt/math_functions.hpp); clang's are
 * __device__ only, so a host call finds no viable candidate. These are the host halves, with nvcc's
 * result types; clang's own __device__ ones stay, and CUDA lets the two overload.
 *   cuda-samples threadFenceReduction.cu:183    blocks = max(1, n / (threads * 2));     (int, int)
 *   faiss gpu/GpuDistance.cu:443                min(shard_size, args.numVectors - i);    (long, long)
 *   gunrock framework/experimental/async/enactor.hxx:41   max(single_queue_t(1024), ...) */
#if defined(__CUDA_ARCH__) || defined(__clang_analyzer__)
#define __CUDA_SCOPE_MINMAX(R, A, B)                                                                          \
  __host__ R min(const A __a, const B __b);                                                                   \
  __host__ R max(const A __a, const B __b);
#else
#define __CUDA_SCOPE_MINMAX(R, A, B)                                                                          \
  static inline __host__ R min(const A __a, const B __b) { return (R)__a < (R)__b ? (R)__a : (R)__b; }      \
  static inline __host__ R max(const A __a, const B __b) { return (R)__a > (R)__b ? (R)__a : (R)__b; }
#endif
__CUDA_SCOPE_MINMAX(int, int, int)
__CUDA_SCOPE_MINMAX(unsigned int, unsigned int, unsigned int)
__CUDA_SCOPE_MINMAX(unsigned int, int, unsigned int)
__CUDA_SCOPE_MINMAX(unsigned int, unsigned int, int)
__CUDA_SCOPE_MINMAX(long int, long int, long int)
__CUDA_SCOPE_MINMAX(unsigned long int, unsigned long int, unsigned long int)
__CUDA_SCOPE_MINMAX(unsigned long int, long int, unsigned long int)
__CUDA_SCOPE_MINMAX(unsigned long int, unsigned long int, long int)
__CUDA_SCOPE_MINMAX(long long int, long long int, long long int)
__CUDA_SCOPE_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
__CUDA_SCOPE_MINMAX(unsigned long long int, long long int, unsigned long long int)
__CUDA_SCOPE_MINMAX(unsigned long long int, unsigned long long int, long long int)
__CUDA_SCOPE_MINMAX(float, float, float)
__CUDA_SCOPE_MINMAX(double, double, double)
__CUDA_SCOPE_MINMAX(double, float, double)
__CUDA_SCOPE_MINMAX(double, double, float)
#undef __CUDA_SCOPE_MINMAX

/* [managed] nvcc places a __managed__ variable in memory that host and device code both reach.
 * clang 22 accepts the managed attribute only for HIP: in CUDA it ignores it, so the variable is a
 * host variable and every device use of it is an error. Declaring it __device__ keeps device and
 * host uses valid (host code reaches a __device__ variable through its shadow); the analyzer then
 * sees the variable as device memory.
 *   gunrock framework/benchmark.hxx:54      __managed__ ... (read in __device__ code)
 *   HeCBench logic-rewrite-cuda/rewrite.cu:335 */
#undef __managed__
#define __managed__ __device__

/* [cudacc] nvcc defines __CUDACC__ as 1; clang's wrapper defines it empty, so `#if __CUDACC__`
 * is a preprocessor error ("expected value in expression") under clang, and a header that tests
 * it so stops the file. The layer gives it nvcc's value; `#ifdef __CUDACC__` is unchanged.
 *   the CUDA 13 toolkit's NCCL device API, nccl_device/coop.h:18, nccl_device/utility.h:10
 *   (included by nccl-tests src/common.h:13) */
#undef __CUDACC__
#define __CUDACC__ 1

/* [nvcc-macros] nvcc defines __NVCC__ and its version, __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__ and
 * __CUDACC_VER_BUILD__ (13, 0 and 88 for the nvcc of CUDA 13.0.88), on both sides; clang defines none
 * of them. Code written for nvcc tests them, and without them stops or takes another path:
 *   #if !defined(__CUDACC_VER_MAJOR__) ... #error "NVCC version not found"    (a container library)
 *   #ifdef __NVCC__  <the whole device API>  #endif                            (a collective library)
 *   #if __CUDACC_VER_MAJOR__ >= 9  __shfl_down_sync(...)  #else  __shfl_down(...)  (warp primitives;
 *      the pre-CUDA-9 path calls intrinsics that sm_70 and later do not have)
 * The version is the toolkit's (CUDA_VERSION, from the cuda.h that clang's wrapper has
 * read); the build number is the toolkit's nvcc's when the cuda-scope command finds it in the
 * toolkit's version.json (-D__CUDA_SCOPE_NVCC_BUILD=N), 0 otherwise. A definition the command line
 * gives is kept.
 * The toolkit's own headers must keep telling clang from nvcc: CCCL (cuda/std/__cccl/compiler.h) and
 * <nv/target> choose nvcc's paths under __NVCC__ (CCCL's assert.h then redeclares __assert_fail
 * __host__ __device__, which clang's device __assert_fail cannot overload), so they are read here,
 * where __NVCC__ is still undefined, and their include guards keep that reading. Cooperative groups
 * read __NVCC__ for cluster groups on sm_90, which clang 22 compiles. __CUDACC_EXTENDED_LAMBDA__ stays
 * undefined even under --extended-lambda: CCCL then asks nvcc-only builtins about lambdas.
 * __CUDACC_DEVICE_ATOMIC_BUILTINS__ says that nvcc's __nv_atomic_* builtins exist; this header
 * supplies them ([nv-atomic] below). */
#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#if __has_include(<nv/target>)
#include <nv/target>
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif
/* Plain literals, as nvcc's are: code pastes and stringizes them. */
#ifndef __CUDACC_VER_MAJOR__
#if CUDA_VERSION / 1000 == 9
#define __CUDACC_VER_MAJOR__ 9
#elif CUDA_VERSION / 1000 == 10
#define __CUDACC_VER_MAJOR__ 10
#elif CUDA_VERSION / 1000 == 11
#define __CUDACC_VER_MAJOR__ 11
#elif CUDA_VERSION / 1000 == 12
#define __CUDACC_VER_MAJOR__ 12
#elif CUDA_VERSION / 1000 == 13
#define __CUDACC_VER_MAJOR__ 13
#elif CUDA_VERSION / 1000 == 14
#define __CUDACC_VER_MAJOR__ 14
#elif CUDA_VERSION / 1000 == 15
#define __CUDACC_VER_MAJOR__ 15
#elif CUDA_VERSION / 1000 == 16
#define __CUDACC_VER_MAJOR__ 16
#endif
#endif
#ifndef __CUDACC_VER_MINOR__
#if CUDA_VERSION % 1000 / 10 == 0
#define __CUDACC_VER_MINOR__ 0
#elif CUDA_VERSION % 1000 / 10 == 1
#define __CUDACC_VER_MINOR__ 1
#elif CUDA_VERSION % 1000 / 10 == 2
#define __CUDACC_VER_MINOR__ 2
#elif CUDA_VERSION % 1000 / 10 == 3
#define __CUDACC_VER_MINOR__ 3
#elif CUDA_VERSION % 1000 / 10 == 4
#define __CUDACC_VER_MINOR__ 4
#elif CUDA_VERSION % 1000 / 10 == 5
#define __CUDACC_VER_MINOR__ 5
#elif CUDA_VERSION % 1000 / 10 == 6
#define __CUDACC_VER_MINOR__ 6
#elif CUDA_VERSION % 1000 / 10 == 7
#define __CUDACC_VER_MINOR__ 7
#elif CUDA_VERSION % 1000 / 10 == 8
#define __CUDACC_VER_MINOR__ 8
#elif CUDA_VERSION % 1000 / 10 == 9
#define __CUDACC_VER_MINOR__ 9
#endif
#endif
#ifndef __CUDACC_VER_BUILD__
#ifdef __CUDA_SCOPE_NVCC_BUILD
#define __CUDACC_VER_BUILD__ __CUDA_SCOPE_NVCC_BUILD
#else
#define __CUDACC_VER_BUILD__ 0
#endif
#endif
#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#define __CUDACC_DEVICE_ATOMIC_BUILTINS__ 1
#endif

/* [typeof] nvcc's front end accepts the GNU keyword typeof in C++ under -std=c++17, as gnu++17
 * does; clang accepts it only in GNU modes (or with -fgnu-keywords). __typeof__ is the same
 * operator under every standard.
 *   nccl src/include/nccl_device/gin/gpi/gin_gpi.h:103 (via GPI_READ_ONCE), :143 */
#ifndef typeof
#define typeof __typeof__
#endif

/* [nv-atomic] nvcc's __nv_atomic_* builtins (CUDA 12.8+; orders __NV_ATOMIC_*, scopes
 * __NV_THREAD_SCOPE_*, system scope by default), which clang 22 does not have. The enumerations are
 * in crt/device_functions.h, but only when that header is read with __CUDACC__ defined, which
 * clang's wrapper does not do.
 *   HeCBench atomicCAS-cuda/kernels.h:6    __nv_atomic_load_n(address, __NV_ATOMIC_RELAXED)
 *   HeCBench hausdorff-cuda/main.cu:21, lebesgue-cuda/kernels.cu:10, michalewicz-cuda/main.cu:13
 * Each builtin is a __device__ function with nvcc's name and parameters, so the cuda-scope checks
 * read a call by its nvcc name, order and scope (checks/model: parseScopedAtomicBuiltin, family Nv),
 * and never look inside it (a system header). Its body is the PTX that nvcc 13.0 emits for it
 * (nvcc -ptx, sm_90), which is also libcu++'s: the order and the scope stay in the instruction, where
 * the IR pass reads them after inlining. Thread scope is .cta, as nvcc emits it. Fences keep the
 * order the call names, as libcu++'s atomic_thread_fence does; nvcc 13.0 itself emits fence.sc for
 * an acquire, release or relaxed fence, which orders more than the call asks for.
 *   load      relaxed: ld.relaxed; consume, acquire: ld.acquire; seq_cst: fence.sc, ld.acquire
 *   store     relaxed: st.relaxed; release: st.release; seq_cst: fence.sc, st.relaxed
 *   rmw       relaxed, acquire, release, acq_rel: atom.<op>.<order>; consume: .acquire;
 *             seq_cst: fence.sc, atom.<op>.acquire; sub is add of the negated operand;
 *             compare-exchange orders by the stronger of its two orders
 *   fence     seq_cst: fence.sc; consume, acquire, release, acq_rel: fence.acq_rel; relaxed: none
 * clang's own __scoped_atomic_* builtins would say the same in the AST, but clang 22's NVPTX code
 * generation drops their scope (every one becomes a system-scope LLVM atomic), so the IR pass would
 * read block-scope atomics as system scope. They remain the fallback for the types that nvcc
 * accepts and the __csn_* functions below do not cover. */
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
static_assert(__NV_ATOMIC_RELAXED == __ATOMIC_RELAXED && __NV_ATOMIC_CONSUME == __ATOMIC_CONSUME &&
                  __NV_ATOMIC_ACQUIRE == __ATOMIC_ACQUIRE && __NV_ATOMIC_RELEASE == __ATOMIC_RELEASE &&
                  __NV_ATOMIC_ACQ_REL == __ATOMIC_ACQ_REL && __NV_ATOMIC_SEQ_CST == __ATOMIC_SEQ_CST,
              "nvcc's and clang's memory orders share their values");

#if !defined(__CUDA_SCOPE_DEVICE_BODIES)
/* Declarations: what clang-tidy and the host side need of the builtins. */
#define __CSN_NV_FETCH(NAME)                                                                                  \
  template <class _Tp> __device__ _Tp __nv_atomic_fetch_##NAME(_Tp *, _Tp, int, int = __NV_THREAD_SCOPE_SYSTEM); \
  template <class _Tp> __device__ void __nv_atomic_##NAME(_Tp *, _Tp, int, int = __NV_THREAD_SCOPE_SYSTEM);
__CSN_NV_FETCH(add)
__CSN_NV_FETCH(sub)
__CSN_NV_FETCH(min)
__CSN_NV_FETCH(max)
__CSN_NV_FETCH(and)
__CSN_NV_FETCH(or)
__CSN_NV_FETCH(xor)
#undef __CSN_NV_FETCH
template <class _Tp> __device__ _Tp __nv_atomic_load_n(_Tp *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp> __device__ void __nv_atomic_load(_Tp *, _Tp *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp> __device__ void __nv_atomic_store_n(_Tp *, _Tp, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp> __device__ void __nv_atomic_store(_Tp *, _Tp *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp> __device__ _Tp __nv_atomic_exchange_n(_Tp *, _Tp, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp> __device__ void __nv_atomic_exchange(_Tp *, _Tp *, _Tp *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp>
__device__ bool __nv_atomic_compare_exchange_n(_Tp *, _Tp *, _Tp, bool, int, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class _Tp>
__device__ bool __nv_atomic_compare_exchange(_Tp *, _Tp *, _Tp *, bool, int, int, int = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);
#else
#define __CSN_INLINE static __device__ inline __attribute__((always_inline))
/* M(<PTX scope>, args...) for the scope value S. */
#define __CSN_SCOPE(S, M, ...)                                                                                \
  switch (S) {                                                                                                \
  case __NV_THREAD_SCOPE_THREAD:                                                                              \
  case __NV_THREAD_SCOPE_BLOCK: M(cta, __VA_ARGS__); break;                                                   \
  case __NV_THREAD_SCOPE_CLUSTER: M(cluster, __VA_ARGS__); break;                                             \
  case __NV_THREAD_SCOPE_DEVICE: M(gpu, __VA_ARGS__); break;                                                  \
  default: M(sys, __VA_ARGS__); break;                                                                        \
  }
#define __CSN_FENCE(SC, SEM) asm volatile("fence." #SEM "." #SC ";" ::: "memory")
#define __CSN_LD(SC, SEM, TY, C, D, P) asm volatile("ld." #SEM "." #SC "." #TY " %0,[%1];" : "=" #C(D) : "l"(P) : "memory")
#define __CSN_ST(SC, SEM, TY, C, P, V) asm volatile("st." #SEM "." #SC "." #TY " [%0],%1;" ::"l"(P), #C(V) : "memory")
#define __CSN_ATOM(SC, OP, SEM, TY, C, D, P, V)                                                               \
  asm volatile("atom." #OP "." #SEM "." #SC "." #TY " %0,[%1],%2;" : "=" #C(D) : "l"(P), #C(V) : "memory")
#define __CSN_CAS(SC, SEM, TY, C, D, P, E, V)                                                                 \
  asm volatile("atom.cas." #SEM "." #SC "." #TY " %0,[%1],%2,%3;" : "=" #C(D) : "l"(P), #C(E), #C(V) : "memory")
/* The read-modify-write orders: relaxed, release and acq_rel as they are, seq_cst as a fence.sc
 * then acquire, consume as acquire. */
#define __CSN_RMW(O, S, M, ...)                                                                               \
  switch (O) {                                                                                                \
  case __NV_ATOMIC_RELAXED: __CSN_SCOPE(S, M, relaxed, __VA_ARGS__) break;                                    \
  case __NV_ATOMIC_RELEASE: __CSN_SCOPE(S, M, release, __VA_ARGS__) break;                                    \
  case __NV_ATOMIC_ACQ_REL: __CSN_SCOPE(S, M, acq_rel, __VA_ARGS__) break;                                    \
  case __NV_ATOMIC_SEQ_CST: __CSN_SCOPE(S, __CSN_FENCE, sc) [[fallthrough]];                                  \
  default: __CSN_SCOPE(S, M, acquire, __VA_ARGS__) break;                                                     \
  }
#define __CSN_ATOM_OP(SC, SEM, OP, TY, C, D, P, V) __CSN_ATOM(SC, OP, SEM, TY, C, D, P, V)

/* Loads, stores, exchange and compare-exchange on the 32- and 64-bit registers. */
#define __CSN_BITS(TY, C, B)                                                                                  \
  __CSN_INLINE void __csn_load(const void *__p, B &__d, int __o, int __s) {                                  \
    if (__o == __NV_ATOMIC_SEQ_CST) {                                                                         \
      __CSN_SCOPE(__s, __CSN_FENCE, sc)                                                                       \
    }                                                                                                         \
    if (__o == __NV_ATOMIC_RELAXED) {                                                                         \
      __CSN_SCOPE(__s, __CSN_LD, relaxed, TY, C, __d, __p)                                                    \
    } else {                                                                                                  \
      __CSN_SCOPE(__s, __CSN_LD, acquire, TY, C, __d, __p)                                                    \
    }                                                                                                         \
  }                                                                                                           \
  __CSN_INLINE void __csn_store(void *__p, B __v, int __o, int __s) {                                         \
    if (__o == __NV_ATOMIC_SEQ_CST) {                                                                         \
      __CSN_SCOPE(__s, __CSN_FENCE, sc)                                                                       \
    }                                                                                                         \
    if (__o == __NV_ATOMIC_RELEASE) {                                                                         \
      __CSN_SCOPE(__s, __CSN_ST, release, TY, C, __p, __v)                                                    \
    } else {                                                                                                  \
      __CSN_SCOPE(__s, __CSN_ST, relaxed, TY, C, __p, __v)                                                    \
    }                                                                                                         \
  }                                                                                                           \
  __CSN_INLINE B __csn_exchange(void *__p, B __v, int __o, int __s) {                                         \
    B __d;                                                                                                    \
    __CSN_RMW(__o, __s, __CSN_ATOM_OP, exch, TY, C, __d, __p, __v)                                            \
    return __d;                                                                                               \
  }                                                                                                           \
  __CSN_INLINE B __csn_cas(void *__p, B __e, B __v, int __o, int __s) {                                       \
    B __d;                                                                                                    \
    __CSN_RMW(__o, __s, __CSN_CAS, TY, C, __d, __p, __e, __v)                                                 \
    return __d;                                                                                               \
  }
__CSN_BITS(b32, r, unsigned int)
__CSN_BITS(b64, l, unsigned long long)
#undef __CSN_BITS
template <int _Size> struct __csn_bits {};
template <> struct __csn_bits<4> { typedef unsigned int type; };
template <> struct __csn_bits<8> { typedef unsigned long long type; };
template <class _To, class _From> __CSN_INLINE _To __csn_cast(_From __f) {
  _To __t;
  __builtin_memcpy(&__t, &__f, sizeof(__t));
  return __t;
}
__CSN_INLINE int __csn_stronger(int __success, int __failure) {
  if (__success == __NV_ATOMIC_RELEASE && __failure != __NV_ATOMIC_RELAXED)
    return __failure == __NV_ATOMIC_SEQ_CST ? __NV_ATOMIC_SEQ_CST : __NV_ATOMIC_ACQ_REL;
  return __success == __NV_ATOMIC_RELAXED || __failure == __NV_ATOMIC_SEQ_CST ? __failure : __success;
}

/* The arithmetic and bitwise operations, on the types nvcc accepts them on. */
#define __CSN_FETCH(NAME, OP, TY, C, T)                                                                       \
  __CSN_INLINE T __csn_fetch_##NAME(T *__p, T __v, int __o, int __s) {                                        \
    T __d;                                                                                                    \
    __CSN_RMW(__o, __s, __CSN_ATOM_OP, OP, TY, C, __d, __p, __v)                                              \
    return __d;                                                                                               \
  }
#define __CSN_ADD(TY, C, T)                                                                                   \
  __CSN_FETCH(add, add, TY, C, T)                                                                             \
  __CSN_INLINE T __csn_fetch_sub(T *__p, T __v, int __o, int __s) { return __csn_fetch_add(__p, -__v, __o, __s); }
__CSN_ADD(s32, r, int)
__CSN_ADD(u32, r, unsigned int)
__CSN_ADD(u64, l, unsigned long long)
__CSN_ADD(f32, f, float)
__CSN_ADD(f64, d, double)
#define __CSN_MINMAX(TY, C, T) __CSN_FETCH(min, min, TY, C, T) __CSN_FETCH(max, max, TY, C, T)
__CSN_MINMAX(s32, r, int)
__CSN_MINMAX(u32, r, unsigned int)
__CSN_MINMAX(s64, l, long long)
__CSN_MINMAX(u64, l, unsigned long long)
#define __CSN_BITWISE(TY, C, T) __CSN_FETCH(and, and, TY, C, T) __CSN_FETCH(or, or, TY, C, T) __CSN_FETCH(xor, xor, TY, C, T)
__CSN_BITWISE(b32, r, unsigned int)
__CSN_BITWISE(b64, l, unsigned long long)
/* The other types nvcc accepts go through the type of the same width and PTX type, as nvcc's own
 * PTX does: long is long long, unsigned long is unsigned long long, and the bitwise operations do
 * not care about signedness. */
#define __CSN_SAME(NAME, T, U)                                                                                \
  __CSN_INLINE T __csn_fetch_##NAME(T *__p, T __v, int __o, int __s) {                                        \
    return (T)__csn_fetch_##NAME((U *)__p, (U)__v, __o, __s);                                                 \
  }
__CSN_SAME(add, unsigned long, unsigned long long)
__CSN_SAME(sub, unsigned long, unsigned long long)
__CSN_SAME(min, long, long long)
__CSN_SAME(max, long, long long)
__CSN_SAME(min, unsigned long, unsigned long long)
__CSN_SAME(max, unsigned long, unsigned long long)
#define __CSN_SAME_BITWISE(T, U) __CSN_SAME(and, T, U) __CSN_SAME(or, T, U) __CSN_SAME(xor, T, U)
__CSN_SAME_BITWISE(int, unsigned int)
__CSN_SAME_BITWISE(long long, unsigned long long)
__CSN_SAME_BITWISE(long, unsigned long long)
__CSN_SAME_BITWISE(unsigned long, unsigned long long)
#undef __CSN_SAME_BITWISE
#undef __CSN_SAME
#undef __CSN_ADD
#undef __CSN_MINMAX
#undef __CSN_BITWISE
#undef __CSN_FETCH

/* What the table does not cover: clang's builtins, which keep the AST exact and lose the scope in
 * the IR. */
#define __CSN_NV_SCOPE(s)                                                                                     \
  ((s) == __NV_THREAD_SCOPE_THREAD    ? __MEMORY_SCOPE_SINGLE                                                 \
   : (s) == __NV_THREAD_SCOPE_BLOCK   ? __MEMORY_SCOPE_WRKGRP                                                 \
   : (s) == __NV_THREAD_SCOPE_CLUSTER ? __MEMORY_SCOPE_CLUSTR                                                 \
   : (s) == __NV_THREAD_SCOPE_DEVICE  ? __MEMORY_SCOPE_DEVICE                                                 \
                                      : __MEMORY_SCOPE_SYSTEM)
#define __CSN_FALLBACK(NAME)                                                                                  \
  template <class _Tp> __CSN_INLINE _Tp __csn_fetch_##NAME(_Tp *__p, _Tp __v, int __o, int __s) {            \
    return __scoped_atomic_fetch_##NAME(__p, __v, __o, __CSN_NV_SCOPE(__s));                                  \
  }
__CSN_FALLBACK(add)
__CSN_FALLBACK(sub)
__CSN_FALLBACK(min)
__CSN_FALLBACK(max)
__CSN_FALLBACK(and)
__CSN_FALLBACK(or)
__CSN_FALLBACK(xor)
#undef __CSN_FALLBACK
template <class _Tp, int _Size = sizeof(_Tp)> struct __csn_generic {
  __CSN_INLINE void load(_Tp *__p, _Tp *__r, int __o, int __s) { __scoped_atomic_load(__p, __r, __o, __CSN_NV_SCOPE(__s)); }
  __CSN_INLINE void store(_Tp *__p, _Tp *__v, int __o, int __s) { __scoped_atomic_store(__p, __v, __o, __CSN_NV_SCOPE(__s)); }
  __CSN_INLINE void exchange(_Tp *__p, _Tp *__v, _Tp *__r, int __o, int __s) {
    __scoped_atomic_exchange(__p, __v, __r, __o, __CSN_NV_SCOPE(__s));
  }
  __CSN_INLINE bool compare_exchange(_Tp *__p, _Tp *__e, _Tp *__v, bool __w, int __so, int __fo, int __s) {
    return __scoped_atomic_compare_exchange(__p, __e, __v, __w, __so, __fo, __CSN_NV_SCOPE(__s));
  }
};
/* 4 and 8 bytes: the PTX of the table, through the register of that size. */
template <class _Tp, int _Size> struct __csn_sized {
  typedef typename __csn_bits<_Size>::type _Bits;
  __CSN_INLINE void load(_Tp *__p, _Tp *__r, int __o, int __s) {
    _Bits __d;
    __csn_load(__p, __d, __o, __s);
    *__r = __csn_cast<_Tp>(__d);
  }
  __CSN_INLINE void store(_Tp *__p, _Tp *__v, int __o, int __s) { __csn_store(__p, __csn_cast<_Bits>(*__v), __o, __s); }
  __CSN_INLINE void exchange(_Tp *__p, _Tp *__v, _Tp *__r, int __o, int __s) {
    *__r = __csn_cast<_Tp>(__csn_exchange(__p, __csn_cast<_Bits>(*__v), __o, __s));
  }
  __CSN_INLINE bool compare_exchange(_Tp *__p, _Tp *__e, _Tp *__v, bool, int __so, int __fo, int __s) {
    _Bits __old = __csn_cast<_Bits>(*__e);
    _Bits __got = __csn_cas(__p, __old, __csn_cast<_Bits>(*__v), __csn_stronger(__so, __fo), __s);
    *__e = __csn_cast<_Tp>(__got);
    return __got == __old;
  }
};
template <class _Tp> struct __csn_generic<_Tp, 4> : __csn_sized<_Tp, 4> {};
template <class _Tp> struct __csn_generic<_Tp, 8> : __csn_sized<_Tp, 8> {};
#undef __CSN_NV_SCOPE

#define __CSN_NV_FETCH(NAME)                                                                                  \
  template <class _Tp>                                                                                        \
  __CSN_INLINE _Tp __nv_atomic_fetch_##NAME(_Tp *__ptr, _Tp __val, int __order,                               \
                                            int __scope = __NV_THREAD_SCOPE_SYSTEM) {                         \
    return __csn_fetch_##NAME(__ptr, __val, __order, __scope);                                                \
  }                                                                                                           \
  template <class _Tp>                                                                                        \
  __CSN_INLINE void __nv_atomic_##NAME(_Tp *__ptr, _Tp __val, int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) { \
    (void)__csn_fetch_##NAME(__ptr, __val, __order, __scope);                                                 \
  }
__CSN_NV_FETCH(add)
__CSN_NV_FETCH(sub)
__CSN_NV_FETCH(min)
__CSN_NV_FETCH(max)
__CSN_NV_FETCH(and)
__CSN_NV_FETCH(or)
__CSN_NV_FETCH(xor)
#undef __CSN_NV_FETCH
template <class _Tp>
__CSN_INLINE _Tp __nv_atomic_load_n(_Tp *__ptr, int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  _Tp __r;
  __csn_generic<_Tp>::load(__ptr, &__r, __order, __scope);
  return __r;
}
template <class _Tp>
__CSN_INLINE void __nv_atomic_load(_Tp *__ptr, _Tp *__ret, int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  __csn_generic<_Tp>::load(__ptr, __ret, __order, __scope);
}
template <class _Tp>
__CSN_INLINE void __nv_atomic_store_n(_Tp *__ptr, _Tp __val, int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  __csn_generic<_Tp>::store(__ptr, &__val, __order, __scope);
}
template <class _Tp>
__CSN_INLINE void __nv_atomic_store(_Tp *__ptr, _Tp *__val, int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  __csn_generic<_Tp>::store(__ptr, __val, __order, __scope);
}
template <class _Tp>
__CSN_INLINE _Tp __nv_atomic_exchange_n(_Tp *__ptr, _Tp __val, int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  _Tp __r;
  __csn_generic<_Tp>::exchange(__ptr, &__val, &__r, __order, __scope);
  return __r;
}
template <class _Tp>
__CSN_INLINE void __nv_atomic_exchange(_Tp *__ptr, _Tp *__val, _Tp *__ret, int __order,
                                       int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  __csn_generic<_Tp>::exchange(__ptr, __val, __ret, __order, __scope);
}
template <class _Tp>
__CSN_INLINE bool __nv_atomic_compare_exchange_n(_Tp *__ptr, _Tp *__expected, _Tp __desired, bool __weak, int __success,
                                                 int __failure, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  return __csn_generic<_Tp>::compare_exchange(__ptr, __expected, &__desired, __weak, __success, __failure, __scope);
}
template <class _Tp>
__CSN_INLINE bool __nv_atomic_compare_exchange(_Tp *__ptr, _Tp *__expected, _Tp *__desired, bool __weak, int __success,
                                               int __failure, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  return __csn_generic<_Tp>::compare_exchange(__ptr, __expected, __desired, __weak, __success, __failure, __scope);
}
__CSN_INLINE void __nv_atomic_thread_fence(int __order, int __scope = __NV_THREAD_SCOPE_SYSTEM) {
  if (__order == __NV_ATOMIC_SEQ_CST) {
    __CSN_SCOPE(__scope, __CSN_FENCE, sc)
  } else if (__order != __NV_ATOMIC_RELAXED) {
    __CSN_SCOPE(__scope, __CSN_FENCE, acq_rel)
  }
}
#undef __CSN_SCOPE
#undef __CSN_FENCE
#undef __CSN_LD
#undef __CSN_ST
#undef __CSN_ATOM
#undef __CSN_ATOM_OP
#undef __CSN_CAS
#undef __CSN_RMW
#undef __CSN_INLINE
#endif /* __CUDA_SCOPE_DEVICE_BODIES */

/* [cache-hints] The cache-hinted loads and stores of sm_32_intrinsics.h that clang's
 * __clang_cuda_intrinsics.h does not define: __ldca, __ldlu, __stcg, __stcs and __stwb, the unsigned
 * long overloads of __ldcg, __ldcs and __ldcv, and the long and unsigned long ones of __stwt.
 *   AMGX include/sm_utils.inl:167           return __ldca(ptr);                   (const int *)
 *   llm.c llmc/cuda_utils.cuh:70,75         __stcs / __stcg(reinterpret_cast<int4 *>(...), ...)
 *   HeCBench layernorm-cuda/main.cu:43      __stcs(...)                             (float)
 * nvcc compiles each to a weak ld or st with a cache operator (ld.global.ca, st.global.cs, ...). A
 * cache operator changes nothing in the memory model, so here each is the plain load or store it
 * is to the analysis: the IR pass sees the data access at the call, as it would see *p. The five
 * missing families are templates, which take every type nvcc has an overload for (and more); the
 * second parameter of a store is not deduced, so that a value converts as to nvcc's overloads. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 320
template <class _Tp> struct __cuda_scope_same { typedef _Tp type; };
#if defined(__CUDA_SCOPE_DEVICE_BODIES)
#define __CUDA_SCOPE_LOAD(F, T)                                                                               \
  T __device__ inline __attribute__((always_inline)) F(const T *__ptr) { return *__ptr; }
#define __CUDA_SCOPE_STORE(F, T, V)                                                                           \
  void __device__ inline __attribute__((always_inline)) F(T *__ptr, V __v) { *__ptr = __v; }
#else
#define __CUDA_SCOPE_LOAD(F, T) T __device__ F(const T *__ptr);
#define __CUDA_SCOPE_STORE(F, T, V) void __device__ F(T *__ptr, V __v);
#endif
#define __CUDA_SCOPE_LOADS(F) template <class _Tp> __CUDA_SCOPE_LOAD(F, _Tp)
#define __CUDA_SCOPE_STORES(F) template <class _Tp> __CUDA_SCOPE_STORE(F, _Tp, typename __cuda_scope_same<_Tp>::type)
__CUDA_SCOPE_LOADS(__ldca)
__CUDA_SCOPE_LOADS(__ldlu)
__CUDA_SCOPE_STORES(__stwb)
__CUDA_SCOPE_STORES(__stcg)
__CUDA_SCOPE_STORES(__stcs)
__CUDA_SCOPE_LOAD(__ldcg, unsigned long)
__CUDA_SCOPE_LOAD(__ldcs, unsigned long)
__CUDA_SCOPE_LOAD(__ldcv, unsigned long)
__CUDA_SCOPE_STORE(__stwt, long, long)
__CUDA_SCOPE_STORE(__stwt, unsigned long, unsigned long)
#undef __CUDA_SCOPE_LOADS
#undef __CUDA_SCOPE_STORES
#undef __CUDA_SCOPE_LOAD
#undef __CUDA_SCOPE_STORE
#endif /* !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 320 */

/* [float2-math] The packed float2 arithmetic of crt/sm_100_rt.h (CUDA 12.8+, sm_100 and later):
 * __fadd2_*, __fmul2_* and __ffma2_* in the four rounding modes, which nvcc declares for device code of
 * those architectures and clang's wrapper, which does not include that header, leaves undeclared.
 *   mscclpp include/mscclpp/gpu_data_types.hpp:380   return __fadd2_rn(a.storage, b.storage);
 *                                                     (under __CUDA_ARCH__ >= 1000; 14 device sides)
 * Each is its two per-component operations with the same rounding, which is what the header says
 * each component computes; none touches memory, so the analysis sees nothing it did not see. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && !defined(__SM_100_RT_H__)
#define __CUDA_SCOPE_F2_BINARY(F, OP)                                                                         \
  static __device__ __inline__ float2 F(float2 __x, float2 __y) {                                             \
    return make_float2(OP(__x.x, __y.x), OP(__x.y, __y.y));                                                   \
  }
#define __CUDA_SCOPE_F2_FMA(F, OP)                                                                            \
  static __device__ __inline__ float2 F(float2 __x, float2 __y, float2 __z) {                                 \
    return make_float2(OP(__x.x, __y.x, __z.x), OP(__x.y, __y.y, __z.y));                                     \
  }
__CUDA_SCOPE_F2_BINARY(__fadd2_rn, __fadd_rn)
__CUDA_SCOPE_F2_BINARY(__fadd2_rz, __fadd_rz)
__CUDA_SCOPE_F2_BINARY(__fadd2_rd, __fadd_rd)
__CUDA_SCOPE_F2_BINARY(__fadd2_ru, __fadd_ru)
__CUDA_SCOPE_F2_BINARY(__fmul2_rn, __fmul_rn)
__CUDA_SCOPE_F2_BINARY(__fmul2_rz, __fmul_rz)
__CUDA_SCOPE_F2_BINARY(__fmul2_rd, __fmul_rd)
__CUDA_SCOPE_F2_BINARY(__fmul2_ru, __fmul_ru)
__CUDA_SCOPE_F2_FMA(__ffma2_rn, __fmaf_rn)
__CUDA_SCOPE_F2_FMA(__ffma2_rz, __fmaf_rz)
__CUDA_SCOPE_F2_FMA(__ffma2_rd, __fmaf_rd)
__CUDA_SCOPE_F2_FMA(__ffma2_ru, __fmaf_ru)
#undef __CUDA_SCOPE_F2_BINARY
#undef __CUDA_SCOPE_F2_FMA
#endif /* __CUDA_ARCH__ >= 1000 */

#undef __CUDA_SCOPE_DEVICE_BODIES
#endif /* __CUDA__ && __cplusplus && the clang CUDA wrapper && !CUDA_SCOPE_NO_NVCC_COMPAT */
#endif /* CUDA_SCOPE_NVCC_H */
