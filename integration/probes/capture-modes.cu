// What a call does to a stream capture, by capture mode and by thread: the call is made on the thread
// that captures, or on another thread while the capture is open. Prints one JSON line per
// (call, mode, thread) with the call's return code and cudaStreamEndCapture's. The evidence behind the
// API table's rows for the destroy calls and behind the whole-program rule for other threads
// (docs/facts.md); run by hand: nvcc -arch=sm_90 -O2 -o /tmp/cm capture-modes.cu && /tmp/cm
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

__global__ void touch(int* p) { atomicAdd(p, 1); }

struct Call {
  const char* name;
  std::function<cudaError_t(cudaStream_t captured)> run;
};

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    fprintf(stderr, "no GPU\n");
    return 77;
  }
  int* d;
  cudaMalloc(&d, 1 << 20);
  std::vector<Call> calls = {
      {"cudaStreamDestroy(other stream)", [](cudaStream_t) {
         cudaStream_t o;
         cudaStreamCreateWithFlags(&o, cudaStreamNonBlocking);
         return cudaStreamDestroy(o);
       }},
      {"cudaEventDestroy(other event)", [](cudaStream_t) {
         cudaEvent_t e;
         cudaEventCreate(&e);
         return cudaEventDestroy(e);
       }},
      {"cudaEventCreate", [](cudaStream_t) {
         cudaEvent_t e;
         cudaError_t r = cudaEventCreate(&e);
         if (r == cudaSuccess) cudaEventDestroy(e);
         return r;
       }},
      {"cudaMemset (legacy stream)", [d](cudaStream_t) { return cudaMemset(d, 0, 4); }},
      {"cudaMalloc", [](cudaStream_t) {
         void* p = nullptr;
         cudaError_t r = cudaMalloc(&p, 1 << 20);
         if (p) cudaFree(p);
         return r;
       }},
      {"cudaDeviceSynchronize", [](cudaStream_t) { return cudaDeviceSynchronize(); }},
      {"cudaStreamSynchronize(private stream)", [](cudaStream_t) {
         cudaStream_t o;
         cudaStreamCreateWithFlags(&o, cudaStreamNonBlocking);
         cudaError_t r = cudaStreamSynchronize(o);
         cudaStreamDestroy(o);
         return r;
       }},
      {"cudaStreamSynchronize(cudaStreamPerThread)", [](cudaStream_t) { return cudaStreamSynchronize(cudaStreamPerThread); }},
      {"cudaStreamSynchronize(captured stream)", [](cudaStream_t s) { return cudaStreamSynchronize(s); }},
  };
  const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                         cudaStreamCaptureModeRelaxed};
  const char* mode_names[] = {"global", "thread-local", "relaxed"};
  for (const Call& c : calls)
    for (int m = 0; m < 3; ++m)
      for (int other = 0; other < 2; ++other) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        cudaError_t begin = cudaStreamBeginCapture(s, modes[m]);
        touch<<<1, 1, 0, s>>>(d);
        cudaError_t code = cudaSuccess;
        if (other)
          std::thread([&] { code = c.run(s); }).join();
        else
          code = c.run(s);
        cudaGraph_t g = nullptr;
        cudaError_t end = cudaStreamEndCapture(s, &g);
        if (g) cudaGraphDestroy(g);
        cudaGetLastError();
        cudaDeviceSynchronize();
        cudaGetLastError();
        cudaStreamDestroy(s);
        printf("{\"call\": \"%s\", \"mode\": \"%s\", \"thread\": \"%s\", \"begin\": %d, \"code\": %d, \"end\": %d}\n",
               c.name, mode_names[m], other ? "other" : "capturing", begin, code, end);
      }
  return 0;
}
