// Built as relocatable device code (-dc), as nccl's src/device is: clang then suffixes a kernel of
// internal linkage with a hash of the command line, which names each mutant's own overlay. Code the
// file never uses must still compile to the same LLVM IR, so its mutants are left out as not
// compiled.
#include <cuda_runtime.h>

// An inline helper nothing calls.
inline __device__ void publishUnused(int *data, int *flag) {
  data[0] = 1;
  __threadfence();
  atomicExch(flag, 1);
}

// A member of a class template nothing instantiates.
template <typename T> struct Steps {
  __device__ void post(T *data, int *flag) {
    data[0] = T(1);
    __threadfence();
    atomicExch(flag, 1);
  }
};

// Internal linkage, as nccl's kernels in an anonymous namespace.
// Its inline asm carries its source position (!srcloc) in the IR, a file offset that a mutant above
// it moves by changing a line's length: the same code all the same.
static __global__ void copy(const int *in, int *out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = in[threadIdx.x] + int(lane);
}

int main() {
  int *buf = nullptr;
  cudaMalloc(&buf, 64 * sizeof(int));
  copy<<<1, 32>>>(buf, buf + 32);
  return cudaDeviceSynchronize() != cudaSuccess;
}
