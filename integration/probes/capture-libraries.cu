// What the CUDA libraries' handle calls do to a stream capture, by capture mode and by thread (the
// call made on the capturing thread, or on another while the capture is open): cuBLAS, cuFFT and
// cuSPARSE handles created, destroyed, bound to the captured stream, and their work enqueued into the
// capture. Also the legacy-stream cudaMemset of another thread while a *blocking* stream is captured.
// One JSON line per (call, mode, thread): the call's status (the library's own code, 0 success), the
// End's code, and the number of nodes of the graph. The evidence behind the API table's rows for these
// libraries (checks/model/CudaApi.def) and docs/facts.md. Run by hand:
//   nvcc -arch=sm_90 -O2 -o /tmp/cl capture-libraries.cu -lcublas -lcufft -lcusparse && /tmp/cl
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cusparse.h>

__global__ void touch(int* p) { atomicAdd(p, 1); }

struct Call {
  const char* name;
  bool blocking;  // capture a stream made with cudaStreamCreate (synchronizes with the legacy stream)
  std::function<int(cudaStream_t captured)> run;
};

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    fprintf(stderr, "no GPU\n");
    return 77;
  }
  int* d;
  cudaMalloc(&d, 1 << 20);
  const int N = 256;
  float *A, *B, *C;
  cudaMalloc(&A, N * N * sizeof(float));
  cudaMalloc(&B, N * N * sizeof(float));
  cudaMalloc(&C, N * N * sizeof(float));
  cufftComplex* F;
  cudaMalloc(&F, 4096 * sizeof(cufftComplex));
  std::vector<cublasHandle_t> blas_leftover;
  std::vector<cufftHandle> fft_leftover;
  std::vector<cusparseHandle_t> sparse_leftover;
  const float one = 1.0f, zero = 0.0f;

  std::vector<Call> calls = {
      {"cublasCreate", false, [&](cudaStream_t) {
         cublasHandle_t h;
         int r = cublasCreate(&h);
         if (r == 0) blas_leftover.push_back(h);
         return r;
       }},
      {"cublasDestroy", false, [&](cudaStream_t) {
         return int(cublasDestroy(blas_leftover.back()));  // made before the capture
       }},
      {"cublasSetStream(captured)", false, [&](cudaStream_t s) { return int(cublasSetStream(blas_leftover.back(), s)); }},
      {"cublasSgemm(captured stream)", false, [&](cudaStream_t s) {
         cublasSetStream(blas_leftover.back(), s);
         return int(cublasSgemm(blas_leftover.back(), CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, A, N, B, N, &zero, C, N));
       }},
      {"cublasSgemm(legacy stream)", false, [&](cudaStream_t) {
         cublasSetStream(blas_leftover.back(), 0);
         return int(cublasSgemm(blas_leftover.back(), CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, A, N, B, N, &zero, C, N));
       }},
      {"cufftPlan1d", false, [&](cudaStream_t) {
         cufftHandle p;
         int r = cufftPlan1d(&p, 4096, CUFFT_C2C, 1);
         if (r == 0) fft_leftover.push_back(p);
         return r;
       }},
      {"cufftDestroy", false, [&](cudaStream_t) { return int(cufftDestroy(fft_leftover.back())); }},
      {"cufftExecC2C(captured stream)", false, [&](cudaStream_t s) {
         cufftSetStream(fft_leftover.back(), s);
         return int(cufftExecC2C(fft_leftover.back(), F, F, CUFFT_FORWARD));
       }},
      {"cusparseCreate", false, [&](cudaStream_t) {
         cusparseHandle_t h;
         int r = cusparseCreate(&h);
         if (r == 0) sparse_leftover.push_back(h);
         return r;
       }},
      {"cusparseDestroy", false, [&](cudaStream_t) { return int(cusparseDestroy(sparse_leftover.back())); }},
      {"cudaMemset (legacy stream), blocking capture stream", true, [d](cudaStream_t) { return int(cudaMemset(d, 0, 4)); }},
  };
  const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                         cudaStreamCaptureModeRelaxed};
  const char* mode_names[] = {"global", "thread-local", "relaxed"};
  for (const Call& c : calls)
    for (int m = 0; m < 3; ++m)
      for (int other = 0; other < 2; ++other) {
        // A handle for the calls that need one made before the capture, on a warmed-up stream.
        bool destroys = std::string(c.name).find("Destroy") != std::string::npos;
        if (std::string(c.name).rfind("cublas", 0) == 0 && std::string(c.name) != "cublasCreate") {
          cublasHandle_t h;
          cublasCreate(&h);
          blas_leftover.push_back(h);
        }
        if (std::string(c.name).rfind("cufft", 0) == 0 && std::string(c.name) != "cufftPlan1d") {
          cufftHandle p;
          cufftPlan1d(&p, 4096, CUFFT_C2C, 1);
          fft_leftover.push_back(p);
        }
        if (std::string(c.name) == "cusparseDestroy") {
          cusparseHandle_t h;
          cusparseCreate(&h);
          sparse_leftover.push_back(h);
        }
        cudaDeviceSynchronize();
        cudaStream_t s;
        if (c.blocking)
          cudaStreamCreate(&s);
        else
          cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        cudaError_t begin = cudaStreamBeginCapture(s, modes[m]);
        touch<<<1, 1, 0, s>>>(d);
        int code = 0;
        if (other)
          std::thread([&] { code = c.run(s); }).join();
        else
          code = c.run(s);
        cudaGraph_t g = nullptr;
        cudaError_t end = cudaStreamEndCapture(s, &g);
        size_t nodes = 0;
        if (g) {
          cudaGraphGetNodes(g, nullptr, &nodes);
          cudaGraphDestroy(g);
        }
        if (destroys) {
          if (std::string(c.name) == "cublasDestroy") blas_leftover.pop_back();
          if (std::string(c.name) == "cufftDestroy") fft_leftover.pop_back();
          if (std::string(c.name) == "cusparseDestroy") sparse_leftover.pop_back();
        }
        cudaGetLastError();
        cudaDeviceSynchronize();
        cudaGetLastError();
        cudaStreamDestroy(s);
        printf("{\"call\": \"%s\", \"mode\": \"%s\", \"thread\": \"%s\", \"begin\": %d, \"code\": %d, \"end\": %d, "
               "\"nodes\": %zu}\n",
               c.name, mode_names[m], other ? "other" : "capturing", begin, code, end, nodes);
        fflush(stdout);
      }
  for (auto h : blas_leftover) cublasDestroy(h);
  for (auto p : fft_leftover) cufftDestroy(p);
  for (auto h : sparse_leftover) cusparseDestroy(h);
  return 0;
}
