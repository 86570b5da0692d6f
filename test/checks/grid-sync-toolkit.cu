// cuda-scope-grid-sync against the real CUDA 13 headers: cooperative groups'
// grid sync in kernels this file launches, cooperatively or not.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// The IR pass, given the launches as the cuda-scope command gives them from the host side's
// facts, reports each at the same place: both front ends agree.
// RUN: printf 'not-cooperative\t_Z12sumThenScalePfS_\tsumThenScale\t<<<...>>>\tL1\nnot-cooperative\t_Z8twoPhasePi\ttwoPhase\tcudaLaunchKernel\tL2\n' > %t.launches
// RUN: env CUDA_SCOPE_LAUNCHES=%t.launches %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass \
// RUN:   -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PASS --implicit-check-not='remark:'
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// Positive: the grid sync is in the kernel itself; the launch is <<<>>>.
__global__ void sumThenScale(float *Data, float *Total) {
  cg::grid_group Grid = cg::this_grid();
  atomicAdd(Total, Data[Grid.thread_rank()]);
  Grid.sync();
  // CHECK: :[[@LINE-1]]:8: warning: kernel 'sumThenScale' synchronizes its whole grid here (grid_group::sync()), but is launched with <<<...>>> at {{.*}}grid-sync-toolkit.cu:[[#@LINE+48]], which is not a cooperative launch: {{.*}}cudaErrorLaunchFailure{{.*}} [cuda-scope-grid-sync]
  // CHECK: :[[#@LINE+47]]:3: note: launched here with <<<...>>>
  // PASS: :[[@LINE-3]]:8: remark: kernel 'sumThenScale' synchronizes its whole grid here (grid_group::sync()), but is launched with <<<...>>> at L1, which is not a cooperative launch
  Data[Grid.thread_rank()] /= *Total;
}

// Positive: through the project's own device function and cg::sync(grid); the
// launch is cudaLaunchKernel.
__device__ void phaseBarrier(cg::grid_group &Grid) { cg::sync(Grid); }
// CHECK: :[[@LINE-1]]:54: warning: kernel 'twoPhase' synchronizes its whole grid here (grid_group::sync()), but is launched with cudaLaunchKernel at {{.*}}grid-sync-toolkit.cu:[[#@LINE+41]], {{.*}} [cuda-scope-grid-sync]
// CHECK: :[[#@LINE+40]]:3: note: launched here with cudaLaunchKernel
// PASS: :[[@LINE-3]]:54: remark: kernel 'twoPhase' synchronizes its whole grid here (grid_group::sync()), but is launched with cudaLaunchKernel at L2, which is not a cooperative launch
__global__ void twoPhase(int *A) {
  cg::grid_group Grid = cg::this_grid();
  A[Grid.thread_rank()] += 1;
  phaseBarrier(Grid);
  A[Grid.thread_rank()] *= 2;
}

// Negative: launched only cooperatively.
__global__ void cooperativeOnly(int *A) {
  cg::this_grid().sync(); // no-warning: every launch is cudaLaunchCooperativeKernel
  A[0] = 1;
}

// Negative: no grid sync; a block barrier only.
__global__ void blockOnly(int *A) {
  __shared__ int S[64];
  S[threadIdx.x] = A[threadIdx.x];
  cg::this_thread_block().sync(); // no-warning: a block barrier needs no cooperative launch
  A[threadIdx.x] = S[63 - threadIdx.x];
}

// Negative: a generic thread_group's sync(), given a thread block (cuda-samples'
// simpleCooperativeGroups): the group kind decides, and this one is a block.
__device__ void groupSum(cg::thread_group G, int *X) {
  X[G.thread_rank()] += 1;
  G.sync(); // no-warning: a thread_group's sync is the grid's only for a grid group
}
__global__ void genericGroup(int *X) { groupSum(cg::this_thread_block(), X); }

// Negative: never launched in this file (another file's launch is the facts' business).
__global__ void launchedElsewhere(int *A) {
  cg::this_grid().sync(); // no-warning: no launch in this file
  A[0] = 2;
}

void host(float *Data, float *Total, int *A, cudaStream_t S) {
  sumThenScale<<<8, 64, 0, S>>>(Data, Total);
  void *Args[] = {&A};
  cudaLaunchKernel((void *)twoPhase, dim3(8), dim3(64), Args, 0, S);
  cudaLaunchCooperativeKernel((void *)cooperativeOnly, dim3(8), dim3(64), Args, 0, S);
  blockOnly<<<8, 64>>>(A);
  genericGroup<<<8, 64>>>(A);
}
