// Options of cuda-scope-release-acquire.
// Defaults: each kernel alone, and only the fences the TU shows.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='{{warning|note}}:'
// FenceFunctions: calls to the functions named order like a fence of every scope.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' \
// RUN:   -config="{CheckOptions: {cuda-scope-release-acquire.FenceFunctions: 'fullFence;sync::*'}}" \
// RUN:   %s -- %cuda_device_flags | FileCheck %s --check-prefix=FENCES --allow-empty --implicit-check-not='{{warning|note}}:'
// AcrossKernels: a flag published in one kernel and received in another (kernels running at once,
// in two streams, or persistent) is a message too.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' \
// RUN:   -config="{CheckOptions: {cuda-scope-release-acquire.AcrossKernels: true}}" \
// RUN:   %s -- %cuda_device_flags | FileCheck %s --check-prefix=ACROSS --implicit-check-not='{{warning|note}}:'
// Strictness: evidence (the default) reports one side of a message only when the code shows the
// other; wide reports each side alone.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' \
// RUN:   -config="{CheckOptions: {cuda-scope-release-acquire.Strictness: evidence}}" \
// RUN:   %s -- %cuda_device_flags | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='{{warning|note}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' \
// RUN:   -config="{CheckOptions: {cuda-scope-release-acquire.Strictness: wide}}" \
// RUN:   %s -- %cuda_device_flags | FileCheck %s --check-prefixes=DEFAULT,WIDE --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

// FENCES-NOT: warning:

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;

// Defined in another TU: a full fence (or a grid-wide barrier) the check cannot look into.
__device__ void fullFence();
namespace sync {
__device__ void gridFence();
}

__global__ void opaqueFences(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    fullFence();
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
    // DEFAULT: :[[@LINE-1]]:22: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // DEFAULT: :[[@LINE-4]]:23: note: 'Data' is written here
    // DEFAULT: :[[@LINE+5]]:29: note: kernel 'opaqueFences' receives 'Flag' here
    // ACROSS: :[[@LINE-4]]:22: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // ACROSS: :[[@LINE-7]]:23: note: 'Data' is written here
    // ACROSS: :[[@LINE+2]]:29: note: kernel 'opaqueFences' receives 'Flag' here
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    // DEFAULT: :[[@LINE-1]]:29: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // DEFAULT: :[[@LINE+7]]:23: note: 'Data' is read here
    // DEFAULT: :[[@LINE-11]]:22: note: kernel 'opaqueFences' publishes 'Flag' here
    // ACROSS: :[[@LINE-4]]:29: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // ACROSS: :[[@LINE+4]]:23: note: 'Data' is read here
    // ACROSS: :[[@LINE-14]]:22: note: kernel 'opaqueFences' publishes 'Flag' here
    }
    sync::gridFence();
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

__global__ void producer(int *Data, int *Flag) {
  Data[0] = 42;
  DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  // ACROSS: :[[@LINE-1]]:20: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
  // ACROSS: :[[@LINE-3]]:11: note: 'Data' is written here
  // ACROSS: :[[@LINE+3]]:27: note: kernel 'consumer' receives 'Flag' here
}
__global__ void consumer(int *Data, int *Flag, int *Out) {
  while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
  // ACROSS: :[[@LINE-1]]:27: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
  // ACROSS: :[[@LINE+3]]:10: note: 'Data' is read here
  // ACROSS: :[[@LINE-9]]:20: note: kernel 'producer' publishes 'Flag' here
  }
  *Out = Data[0];
}
void run(int *Data, int *Flag, int *Out, cudaStream_t A, cudaStream_t B) {
  producer<<<1, 1, 0, A>>>(Data, Flag);
  consumer<<<1, 1, 0, B>>>(Data, Flag, Out);
}

// Block 0 writes Data and sets the flag; the other blocks wait on the flag but read nothing Data
// holds (Data is read before the flag, by block 0 itself): with evidence, no message the code shows.
__global__ void halfMessage(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    int Old = Data[threadIdx.x];
    Data[threadIdx.x] = Old + 1;
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
    // WIDE: :[[@LINE-1]]:22: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', {{.*}} [cuda-scope-release-acquire]
    // WIDE: :[[@LINE-3]]:23: note: 'Data' is written here
    // WIDE: :[[@LINE+2]]:29: note: kernel 'halfMessage' receives 'Flag' here
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    Out[blockIdx.x] = 1;
  }
}

