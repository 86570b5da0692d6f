// With AcrossKernels, accesses under different kernels count as concurrent
// (kernels on different streams, or a kernel still running when the next starts).
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-mismatch.AcrossKernels: true}}" -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>
#include <cuda_runtime.h>

// The same kernel argument, in a kernel run by one block and one run by many.
__global__ void countInBlock(int *Hist) { atomicAdd_block(&Hist[0], 1); }
// CHECK: :[[@LINE-1]]:43: warning: 'Hist' is updated with thread_scope_block here but updated with thread_scope_device in kernel 'countInGrid'; the scopes must include each other; consider 'atomicAdd' [cuda-scope-mismatch]
// CHECK: :[[@LINE+1]]:42: note: the thread_scope_device read-modify-write is here
__global__ void countInGrid(int *Hist) { atomicAdd(&Hist[0], 1); }
void histogram(int *Hist) {
  countInBlock<<<1, 256>>>(Hist);
  countInGrid<<<64, 256>>>(Hist);
}

// One host pointer given to two kernels.
__global__ void perBlockCounts(int *Counts) { atomicAdd_block(&Counts[blockIdx.x], 1); }
// CHECK: :[[@LINE-1]]:47: warning: 'Counts' is updated with thread_scope_block here but loaded with thread_scope_device in kernel 'firstCount'; {{.*}} [cuda-scope-mismatch]
// CHECK: :[[@LINE+1]]:118: note: the thread_scope_device load is here
__global__ void firstCount(int *Counts, int *Out) { *Out = cuda::atomic_ref<int, cuda::thread_scope_device>(*Counts).load(); }
void counts(int *Out) {
  int *Counts;
  cudaMalloc(reinterpret_cast<void **>(&Counts), 64 * sizeof(int));
  perBlockCounts<<<64, 32>>>(Counts);
  firstCount<<<1, 1>>>(Counts, Out);
}

// One member of one host struct, passed by value to two kernels.
struct Params {
  unsigned *Tickets;
  unsigned *Unrelated;
};
__global__ void drawInBlock(Params P) { atomicInc_block(&P.Tickets[blockIdx.x], 100); }
// CHECK: :[[@LINE-1]]:41: warning: 'P.Tickets' is updated with thread_scope_block here but updated with thread_scope_device in kernel 'resetAll'; {{.*}} [cuda-scope-mismatch]
// CHECK: :[[@LINE+1]]:38: note: the thread_scope_device read-modify-write is here
__global__ void resetAll(Params P) { atomicExch(P.Tickets, 0u); }
__global__ void otherMember(Params P) { atomicExch(P.Unrelated, 0u); } // no-warning: another member
void draw(Params Host) {
  drawInBlock<<<8, 32>>>(Host);
  resetAll<<<8, 32>>>(Host);
  otherMember<<<8, 32>>>(Host);
}

// Two host pointers: no launch shows them to be the same memory.
__global__ void perBlockA(int *A) { atomicAdd_block(&A[blockIdx.x], 1); } // no-warning: another allocation than B
__global__ void wholeB(int *B) { atomicAdd(B, 1); }
void two(int *A, int *B) {
  perBlockA<<<8, 32>>>(A);
  wholeB<<<8, 32>>>(B);
}
