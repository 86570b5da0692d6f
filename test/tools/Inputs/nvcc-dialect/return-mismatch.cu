// nvcc warns of a return with no value in a function that returns one (#117-D) and compiles it; clang
// rejects it unless -Wno-return-mismatch.
__device__ int firstSet(unsigned bits) {
  if (bits == 0)
    return;
  return __ffs(bits);
}

__global__ void kernel(const unsigned *in, int *out) { out[threadIdx.x] = firstSet(in[threadIdx.x]); }
