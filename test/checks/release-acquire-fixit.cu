// The fix changes the order where that is certainly the fix: a relaxed store or load of
// cuda::atomic_ref (or cuda::atomic) whose memory_order argument is written at the call. A
// read-modify-write (which may also receive), a builtin, a volatile access and a narrow fence get
// a suggestion in the message but no fix.
// RUN: cp %s %t.cu
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' --fix %t.cu -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cu
#include <cuda/atomic>

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void storeAndLoad(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:22: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-2]]:37: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE-4]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+3]]:29: note: kernel 'storeAndLoad' receives 'Flag' here
    // FIXED: {{^ *}}DeviceRef(*Flag).store(1, cuda::memory_order_release);
  } else {
    while (DeviceRef(*Flag).load(cuda::std::memory_order_relaxed) == 0) {
    // CHECK: :[[@LINE-1]]:29: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-2]]:45: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE+4]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-11]]:22: note: kernel 'storeAndLoad' publishes 'Flag' here
      // FIXED: {{^ *}}while (DeviceRef(*Flag).load(cuda::std::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

__device__ cuda::atomic<int, cuda::thread_scope_device> Ready;
__device__ int Value;
__global__ void atomicObject(int *Out) {
  if (blockIdx.x == 0) {
    Value = 42;
    Ready.store(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:11: warning: 'Ready' is published here with a relaxed store after plain writes to 'Value', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-2]]:26: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE-4]]:11: note: 'Value' is written here
    // CHECK: :[[@LINE+3]]:18: note: kernel 'atomicObject' receives 'Ready' here
    // FIXED: {{^ *}}Ready.store(1, cuda::memory_order_release);
  } else {
    while (Ready.load(cuda::memory_order_relaxed) == 0) {
    // CHECK: :[[@LINE-1]]:18: warning: 'Ready' is received here with a relaxed load and 'Value' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-2]]:29: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE+4]]:12: note: 'Value' is read here
    // CHECK: :[[@LINE-11]]:11: note: kernel 'atomicObject' publishes 'Ready' here
      // FIXED: {{^ *}}while (Ready.load(cuda::memory_order_acquire) == 0) {
    }
    *Out = Value;
  }
}

__global__ void noFix(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).fetch_add(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:22: warning: 'Flag' is published here with a relaxed read-modify-write after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release read-modify-write, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+3]]:12: note: kernel 'noFix' receives 'Flag' here
    // FIXED: {{^ *}}DeviceRef(*Flag).fetch_add(1, cuda::memory_order_relaxed);
  } else {
    while (atomicAdd(Flag, 0) == 0) {
    // CHECK: :[[@LINE-1]]:12: warning: 'Flag' is received here with a relaxed read-modify-write and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+4]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-9]]:22: note: kernel 'noFix' publishes 'Flag' here
      // FIXED: {{^ *}}while (atomicAdd(Flag, 0) == 0) {
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}
