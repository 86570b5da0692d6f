// Templates are analysed per instantiation: one function template used with
// two scopes on the same object races with itself, and the notes say which
// call brings which scope. A kernel template launched twice is reported once.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

template <class T, cuda::thread_scope S> __device__ T peek(T *P) { return cuda::atomic_ref<T, S>(*P).load(); }
// CHECK: :[[@LINE-1]]:102: warning: 'P' is loaded with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'poll'; {{.*}} [cuda-scope-mismatch]
// CHECK: :[[@LINE-2]]:102: note: the thread_scope_device load is here
// CHECK: :[[@LINE+4]]:12: note: 'peek<int, cuda::std::thread_scope_block>' is called here, with thread_scope_block
// CHECK: :[[@LINE+4]]:12: note: 'peek<int, cuda::std::thread_scope_device>' is called here, with thread_scope_device

template <class T> __global__ void poll(T *P, T *Out) {
  Out[0] = peek<T, cuda::thread_scope_block>(P);
  Out[1] = peek<T, cuda::thread_scope_device>(P);
}

void launch(int *P, int *Out, float *F, float *FOut) {
  poll<<<8, 32>>>(P, Out);
  poll<<<8, 32>>>(F, FOut);
}
