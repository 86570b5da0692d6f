// callback-api, bug: host functions run by the stream call the CUDA API (cudaFree, cudaMemcpy); CUDA refuses and the work is lost.
#include "../../common/harness.cuh"

constexpr int kBuffers = 64;
constexpr size_t kBytes = size_t(16) << 20;  // 16 MiB each

struct FreeJob { void* buffer; cudaError_t err; };
struct CopyJob { const int* src; int value; cudaError_t err; };

// Runs on the stream's callback thread once the kernel that used the buffer is done.
static void CUDART_CB release_buffer(void* arg) {
  FreeJob* job = static_cast<FreeJob*>(arg);
  job->err = cudaFree(job->buffer);  // BUG: CUDA API call inside a host function run by the stream
}

static void CUDART_CB read_result(cudaStream_t, cudaError_t, void* arg) {
  CopyJob* job = static_cast<CopyJob*>(arg);
  job->err = cudaMemcpy(&job->value, job->src, sizeof(int), cudaMemcpyDeviceToHost);  // BUG: CUDA API call inside a stream callback
}

__global__ void fill(int* buf, size_t n, int value) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) buf[i] = value;
}

int main() {
  const char* name = "callback-api";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  cudaStream_t s;
  HARNESS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  HARNESS_CHECK(cudaFree(nullptr));  // create the context before measuring memory
  size_t free_before, free_after, total;
  HARNESS_CHECK(cudaMemGetInfo(&free_before, &total));

  static FreeJob frees[kBuffers];
  static CopyJob copies[kBuffers];
  for (int i = 0; i < kBuffers; ++i) HARNESS_CHECK(cudaMalloc(&frees[i].buffer, kBytes));
  for (int i = 0; i < kBuffers; ++i) {
    int* buf = static_cast<int*>(frees[i].buffer);
    fill<<<64, 256, 0, s>>>(buf, kBytes / sizeof(int), i + 1);
    copies[i] = {buf, 0, cudaSuccess};
    HARNESS_CHECK(cudaStreamAddCallback(s, read_result, &copies[i], 0));
    HARNESS_CHECK(cudaLaunchHostFunc(s, release_buffer, &frees[i]));
  }
  HARNESS_CHECK(cudaStreamSynchronize(s));
  HARNESS_CHECK(cudaMemGetInfo(&free_after, &total));
  cudaGetLastError();

  int failed_frees = 0, failed_copies = 0;
  cudaError_t free_code = cudaSuccess, copy_code = cudaSuccess;
  for (int i = 0; i < kBuffers; ++i) {
    if (frees[i].err != cudaSuccess) ++failed_frees, free_code = frees[i].err;
    if (copies[i].err != cudaSuccess || copies[i].value != i + 1) ++failed_copies;
    if (copies[i].err != cudaSuccess) copy_code = copies[i].err;
  }
  const long long leaked = free_before > free_after ? (long long)(free_before - free_after) : 0;
  printf("%d callbacks freeing %zu MiB each: %d frees failed (%s), %lld MiB not returned; %d copies failed (%s)\n",
         kBuffers, kBytes >> 20, failed_frees, cudaGetErrorName(free_code), leaked >> 20, failed_copies,
         cudaGetErrorName(copy_code));
  harness::Json codes;
  codes.num("cudaFree", free_code).num("cudaMemcpy", copy_code);
  harness::result(name, variant, 2 * kBuffers, failed_frees + failed_copies)
      .obj("error_codes", codes)
      .num("failed_frees", failed_frees)
      .num("failed_copies", failed_copies)
      .num("leaked_bytes", leaked)
      .num("buffer_bytes", (long long)kBytes)
      .print();
  return 0;
}
