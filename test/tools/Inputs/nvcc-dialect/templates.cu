#include <cuda_runtime.h>
// The kinds of tools/dialect-notes-templates.test, each from a corpus file nvcc 13 builds (named above
// its lines); dialect-notes-templates.test has the same code with a finding after it.
// mhaRunner.cu:57
template <typename T, int N> __global__ void sum(const T *in, T *out) {
  union Storage { T values[N]; int flag; Storage() {} };
  __shared__ Storage tmp;
  tmp.values[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) *out = tmp.values[0] + tmp.values[N - 1];
}
template __global__ void sum<float, 32>(const float *, float *);
// flash_fwd_kernel.h:421
template <typename Layout> __device__ int rank() { return Layout::value; }
struct Traits { struct Tiled { static constexpr int value = 2; }; };
template <typename K> __global__ void ranked(int *out) { *out = rank<K::Tiled>(); }
template __global__ void ranked<Traits>(int *);
// cute/atom/mma_atom.hpp:457
template <typename T> struct Atom { __device__ T make(T x) const { return x + 1; } };
template <typename T> struct Thr : Atom<T> { __device__ T part(T x) const { return make(x); } };
__global__ void parted(int *out) { *out = Thr<int>().part(*out); }
// xlnet_preprocess_kernels.cu:170
template <typename T> void shape(dim3 &grid, int n);
template <typename T> void shape<T>(dim3 &grid, int n) { grid.x = n; }
void shaped(dim3 &g) { shape<int>(g, 4); }
// fmha/gemm.h:306
struct Frag { static constexpr int REGS = 4; };
template <int M> __device__ void gemm(const Frag (&a)[M]) { static_assert(a[0].REGS * M == 8, "two"); }
__global__ void gemmed() { Frag a[2]; gemm(a); }
// cutlass/matrix.h:7284
template <typename E, int R> struct Matrix;
template <typename E> struct Matrix<E, 3> {
  E data[9];
  static Matrix rotation(E c) { Matrix m; m.set_slice({c, c, c}); return m; }
};
// fmha/gemm.h:292, on the host side only
template <int N> struct Shape;
template <> struct Shape<16> { static constexpr int k = 16; };
template <int N> __device__ int tile() {
#if defined(__CUDA_ARCH__)
  return Shape<8 * N>::k;
#else
  return Shape<4 * N>::k;
#endif
}
__global__ void tiled(int *out) { *out = tile<2>(); }
// cute/algorithm/gemm.hpp:530
#define UNROLL #pragma unroll
__device__ int total(const int *x) {
  int s = 0;
  UNROLL
  for (int i = 0; i < 4; ++i) {
    s += x[i];
  }
  int t = s * 2;
  return t + s;
}
// rapidjson 1.1.0 document.h:319 (SlabHash's bench/main_benchmarks.cu)
template <typename C> struct Ref {
  const C *s;
  const unsigned length;
  Ref &operator=(const Ref &r) { s = r.s; length = r.length; return *this; }
};
