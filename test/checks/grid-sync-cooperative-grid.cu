// cuda-scope-grid-sync, its host half: a cooperative launch whose grid divides the input among its
// blocks, which the runtime refuses (cudaErrorCooperativeLaunchTooLarge) once the grid passes what
// the GPU keeps resident; against the real CUDA 13 headers, both compilation sides.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void normalize(float *X, float *Total, int N) {
  cg::grid_group Grid = cg::this_grid();
  for (int I = Grid.thread_rank(); I < N; I += Grid.size())
    atomicAdd(Total, X[I]);
  Grid.sync(); // no-warning: every launch of it is cooperative
  for (int I = Grid.thread_rank(); I < N; I += Grid.size())
    X[I] /= *Total;
}

static int divUp(int A, int B) { return (A + B - 1) / B; }

// Positive: one block per 256 elements, launched cooperatively.
void normalizeAll(float *X, float *Total, int N, cudaStream_t S) {
  void *Args[] = {&X, &Total, &N};
  cudaLaunchCooperativeKernel((void *)normalize, dim3((N + 255) / 256), dim3(256), Args, 0, S);
  // CHECK: :[[@LINE-1]]:3: warning: this cooperative launch of kernel 'normalize' has a grid that grows with 'N', which is not bounded by what the GPU keeps resident: {{.*}}cudaErrorCooperativeLaunchTooLarge{{.*}} [cuda-scope-grid-sync]
}

// Positive: the same through a helper named for a division, and a local.
__global__ void scan(int *A, int N) {
  cg::this_grid().sync();
  A[0] = N;
}
void scanAll(int *A, int N) {
  void *Args[] = {&A, &N};
  dim3 Blocks(divUp(N, 128));
  cudaLaunchCooperativeKernel((void *)scan, Blocks, dim3(128), Args);
  // CHECK: :[[@LINE-1]]:3: warning: this cooperative launch of kernel 'scan' has a grid that grows with 'Blocks', {{.*}} [cuda-scope-grid-sync]
}

// Negative cases.
void sizedByOccupancy(float *X, float *Total, int N) {
  void *Args[] = {&X, &Total, &N};
  int PerSm = 0, Sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, normalize, 256, 0);
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0);
  int Blocks = PerSm * Sms;
  // no-warning: the grid is the occupancy query times the SM count
  cudaLaunchCooperativeKernel((void *)normalize, dim3(Blocks), dim3(256), Args);
  // no-warning: the smaller of the input's share and the resident grid is bounded
  int Wanted = (N + 255) / 256;
  cudaLaunchCooperativeKernel((void *)normalize, dim3(Wanted < Blocks ? Wanted : Blocks), dim3(256), Args);
}
static int individualCount(int N) { return N > 64 ? 64 : N; }
__global__ void touch(int *A) { A[blockIdx.x] = 1; }
void sizedByHelper(int *A, int N) {
  void *Args[] = {&A};
  // no-warning: a helper not named for a division (individual) shares nothing out
  cudaLaunchCooperativeKernel((void *)touch, dim3(individualCount(N) + 1), dim3(256), Args);
}
void sizedBySms(float *X, float *Total, int N, int SmCount) {
  void *Args[] = {&X, &Total, &N};
  // no-warning: a count the caller holds, times two, shares out nothing: it need not grow with the input
  cudaLaunchCooperativeKernel((void *)normalize, dim3(SmCount * 2), dim3(256), Args);
  // no-warning: a constant grid
  cudaLaunchCooperativeKernel((void *)normalize, dim3(64), dim3(256), Args);
}
