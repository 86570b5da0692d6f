// Two GPUs run one all-reduce kernel on buffers the host maps crosswise: each writes its part
// into `mine` (the peer's `other`) and signals `arrivalMine` (the peer's `arrivalOther`), then
// waits on `arrivalOther` and reads the peer's part from `other`. The kernel spins on a word
// nothing in it writes and signals a word nothing in it reads: its partner runs while it runs,
// the same code, outside it. Both front ends take the two names as one flag and one datum.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note}}:'
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
#include <cuda_runtime.h>

__global__ void exchangeNoAcquire(float *mine, const float *other, volatile unsigned *arrivalMine,
                                  const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    while (arrivalOther[blockIdx.x] != token) {
    // TIDY: :[[@LINE-1]]:12: warning: 'arrivalOther' is received here with a volatile load and 'other' is read after it, with no acquire between them; the read may return data older than the flag, which the kernel's partner instance (the same kernel on another GPU or grid) publishes as 'arrivalMine'; consider a cuda::atomic_ref acquire load, or '__threadfence_system()' after it [cuda-scope-release-acquire]
    // TIDY: :[[@LINE+7]]:14: note: 'other' is read here
    // TIDY: :[[@LINE-4]]:29: note: kernel 'exchangeNoAcquire' publishes 'arrivalMine' here
    // PASS: :[[@LINE-4]]:12: remark: kernel argument 3 is received here (load, volatile) and kernel argument 1 is read after it at {{.*}}:[[@LINE+5]]:14 with no acquire between them; the read can return stale data, which the kernel's partner instance (the same kernel on another GPU or grid) publishes as kernel argument 2; consider a cuda::atomic_ref acquire load, or '__threadfence_system()' after it
    }
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

__global__ void exchangeNoRelease(float *mine, const float *other, volatile unsigned *arrivalMine,
                                  const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    // TIDY: :[[@LINE-1]]:29: warning: 'arrivalMine' is published here with a volatile store after plain writes to 'mine', with no release between them; the kernel's partner instance (the same kernel on another GPU or grid), which receives it as 'arrivalOther', may still read the old data; consider a cuda::atomic_ref release store, or '__threadfence_system()' before it [cuda-scope-release-acquire]
    // TIDY: :[[@LINE-5]]:13: note: 'mine' is written here
    // TIDY: :[[@LINE+2]]:12: note: kernel 'exchangeNoRelease' receives 'arrivalOther' here
    // PASS: :[[@LINE-4]]:29: remark: kernel argument 2 is published here (store, volatile) after plain writes to kernel argument 0 at {{.*}}:[[@LINE-7]]:13 with no release between them, and the partner instance of kernel exchangeNoRelease({{.*}}) (the same kernel on another GPU or grid) waits on it as kernel argument 3; a consumer can see the flag before the data; consider a cuda::atomic_ref release store, or '__threadfence_system()' before it
    while (arrivalOther[blockIdx.x] != token) {
    }
  }
  __syncthreads();
  __threadfence_system();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// no-warning: a release pattern and an acquire pattern, both at system scope.
__global__ void exchangeFenced(float *mine, const float *other, volatile unsigned *arrivalMine,
                               const volatile unsigned *arrivalOther, float *out, int n, unsigned token) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = 2.0f * i;
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    arrivalMine[blockIdx.x] = token;
    while (arrivalOther[blockIdx.x] != token) {
    }
  }
  __syncthreads();
  __threadfence_system();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = other[i];
}

// no-warning: what the kernel reads after the go word it read before it too: input that was there
// before the launch, not something a partner wrote before a signal.
__global__ void waitForHostGo(const float *in, float *out, volatile unsigned *done, const volatile unsigned *go, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float first = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0)
    while (*go == 0) {
    }
  __syncthreads();
  if (i < n)
    out[i] = first + in[(i + 1) % n];
  __syncthreads();
  if (threadIdx.x == 0)
    done[blockIdx.x] = 1;
}
