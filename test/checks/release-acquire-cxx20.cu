// C++20 spells the order as a scoped enumerator (cuda::std::memory_order::relaxed): the fix
// changes the enumerator and keeps the qualifier.
// REQUIRES: cuda-toolkit
// RUN: cp %s %t.cu
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' --fix %t.cu -- %toolkit_device_flags -std=c++20 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cu
#include <cuda/atomic>

__global__ void scopedOrder(int *X, int *F) {
  if (blockIdx.x == 0) {
    *X = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device>(*F).store(1, cuda::std::memory_order::relaxed);
    // CHECK: :[[@LINE-1]]:58: warning: 'F' is published here with a relaxed store after plain writes to 'X', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-2]]:92: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE-4]]:8: note: 'X' is written here
    // CHECK: :[[@LINE+3]]:65: note: kernel 'scopedOrder' receives 'F' here
    // FIXED: {{^ *}}cuda::atomic_ref<int, cuda::thread_scope_device>(*F).store(1, cuda::std::memory_order::release);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>(*F).load(cuda::std::memory_order::relaxed) != 1) {
    // CHECK: :[[@LINE-1]]:65: warning: 'F' is received here with a relaxed load and 'X' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-2]]:95: note: FIX-IT applied suggested code changes
    // CHECK: :[[@LINE+4]]:12: note: 'X' is read here
    // CHECK: :[[@LINE-11]]:58: note: kernel 'scopedOrder' publishes 'F' here
      // FIXED: {{^ *}}while (cuda::atomic_ref<int, cuda::thread_scope_device>(*F).load(cuda::std::memory_order::acquire) != 1) {
    }
    X[1] = *X;
  }
}
