// Not nvcc dialect: an error in a __host__ __device__ function template's body that host code calls,
// which nvcc instantiates for the host as clang does.
template <int N> struct Shape;
template <> struct Shape<16> { static constexpr int k = 16; };
template <int N> __host__ __device__ int tile() {
#if defined(__CUDA_ARCH__)
  return Shape<8 * N>::k;
#else
  return Shape<4 * N>::k;
#endif
}
__global__ void tiled(int *out) { *out = tile<2>(); }
int host_use() { return tile<2>(); }
