// A buffer released from a stream callback: delete runs the destructor, which
// calls cudaFree through a virtual allocator. The runtime refuses the call
// (cudaErrorNotPermitted) and the memory leaks. Flagged by cuda-scope-callback-api.
#include <cuda_runtime.h>
#include <cstdio>

struct Allocator {
  virtual void release(void *P) = 0;
  virtual ~Allocator() = default;
};
struct DeviceAllocator : Allocator {
  void release(void *P) override { cudaFree(P); }
};
struct Buffer {
  float *Data;
  Allocator *Owner;
  ~Buffer() { Owner->release(Data); }
};

static void CUDART_CB releaseWhenDone(void *P) { delete static_cast<Buffer *>(P); }

__global__ void scale(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= 2.0f;
}

int main() {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  static DeviceAllocator Alloc;
  auto *B = new Buffer{nullptr, &Alloc};
  cudaMalloc(&B->Data, 1 << 20);
  scale<<<1024, 256, 0, S>>>(B->Data, 1 << 18);
  cudaLaunchHostFunc(S, releaseWhenDone, B);
  cudaStreamSynchronize(S);
  std::printf("done\n");
}
