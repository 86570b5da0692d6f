// CUDA calls reached through the functions a callback calls: plain calls,
// delete running a destructor that calls a virtual function, a destructor run
// at scope exit, a constructor, an operator, and a kernel launch.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-callback-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda_runtime.h>

struct Arena {
  virtual void free(void *P) = 0;
  virtual ~Arena() {}
};
struct DeviceArena : Arena {
  void free(void *P) override {
    cudaFree(P);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaFree' called from a host callback; {{.*}} [cuda-scope-callback-api]
    // CHECK: :[[@LINE+65]]:25: note: 'releaseBuffer' is registered as a host callback here, through 'cudaLaunchHostFunc'
    // CHECK: :[[@LINE+13]]:41: note: 'Buffer::~Buffer' runs here, from delete
    // CHECK: :[[@LINE+9]]:15: note: 'DeviceArena::free' may be called here, through a virtual call
  }
};
struct HostArena : Arena {
  void free(void *P) override { ::operator delete(P); } // no-warning: host memory
};
struct Buffer {
  void *Ptr;
  Arena *Owner;
  ~Buffer() { Owner->free(Ptr); }
};

void CUDART_CB releaseBuffer(void *P) { delete static_cast<Buffer *>(P); }

struct Guard {
  void *P;
  ~Guard() {
    cudaFreeAsync(P, 0);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaFreeAsync' called from a host callback; {{.*}} [cuda-scope-callback-api]
    // CHECK: :[[@LINE+45]]:25: note: 'everything' is registered as a host callback here, through 'cudaLaunchHostFunc'
    // CHECK: :[[@LINE+40]]:38: note: 'helper' is called here
    // CHECK: :[[@LINE+33]]:9: note: 'Guard::~Guard' runs here, at the end of the object's lifetime
  }
};
struct Staging {
  void *P;
  Staging() {
    cudaMallocHost(&P, 64);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaMallocHost' called from a host callback; {{.*}} [cuda-scope-callback-api]
    // CHECK: :[[@LINE+35]]:25: note: 'everything' is registered as a host callback here, through 'cudaLaunchHostFunc'
    // CHECK: :[[@LINE+30]]:38: note: 'helper' is called here
    // CHECK: :[[@LINE+24]]:11: note: 'Staging::Staging' runs here
  }
};
struct Counter {
  int *Dev;
  Counter &operator+=(int V) {
    cudaMemcpy(Dev, &V, sizeof V, cudaMemcpyHostToDevice);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaMemcpy' called from a host callback; {{.*}} [cuda-scope-callback-api]
    // CHECK: :[[@LINE+25]]:25: note: 'everything' is registered as a host callback here, through 'cudaLaunchHostFunc'
    // CHECK: :[[@LINE+20]]:38: note: 'helper' is called here
    // CHECK: :[[@LINE+16]]:5: note: 'Counter::operator+=' is called here
    return *this;
  }
};
__global__ void refill(int *P) { *P = 0; }
void relaunch(int *P) {
  refill<<<1, 1>>>(P);
  // CHECK: :[[@LINE-1]]:3: warning: kernel 'refill' launched from a host callback; {{.*}} [cuda-scope-callback-api]
  // CHECK: :[[@LINE+15]]:25: note: 'everything' is registered as a host callback here, through 'cudaLaunchHostFunc'
  // CHECK: :[[@LINE+10]]:38: note: 'helper' is called here
  // CHECK: :[[@LINE+7]]:3: note: 'relaunch' is called here
}
void helper(void *P) {
  Guard G{P};
  Staging St;
  Counter C{static_cast<int *>(P)};
  C += 1;
  relaunch(static_cast<int *>(P));
}
void CUDART_CB everything(void *P) { helper(P); }

void enqueue(cudaStream_t S, void *P) {
  cudaLaunchHostFunc(S, releaseBuffer, P);
  cudaLaunchHostFunc(S, everything, P);
}
