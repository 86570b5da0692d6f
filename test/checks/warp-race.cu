// cuda-scope-warp-race: lanes of one warp exchanging data through shared memory with nothing that
// orders them; against the real CUDA 13 headers, both clang-tidy sides, and the IR pass at the same
// places with the same words (the last RUN lines diff the two front ends).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-race' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-race' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-race' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*warp-race.cu:\([0-9]*\):\([0-9]*\): warning: \(.*\) \[cuda-scope-warp-race\]$/\1 \2 \3/p' | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*warp-race.cu:\([0-9]*\):\([0-9]*\): remark: \(.*\) \[-Rpass-analysis=cuda-scope\]$/\1 \2 \3/p' | sort > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test -s %t.ir
#include <cuda_runtime.h>

// Positive: the pre-Volta warp-synchronous reduction in volatile shared memory, in a helper the
// first warp calls. Each step reads what another lane wrote in the step before, and writes what
// another lane reads in the same step.
__device__ void warpReduce(volatile float *S, unsigned Tid) {
  S[Tid] += S[Tid + 32]; // no-warning: lanes 32 apart are in different warps, and no lane of this warp writes it
  S[Tid] += S[Tid + 16];
  // CHECK: :[[@LINE-1]]:10: warning: this write of shared memory races with the read at {{.*}}warp-race.cu:[[@LINE-1]] by another lane of the same warp (lane - 16 runs it on this element), and nothing orders the two: {{.*}}__syncwarp(){{.*}} [cuda-scope-warp-race]
  // CHECK: :[[@LINE-2]]:13: warning: this read of shared memory races with the write at {{.*}}warp-race.cu:[[@LINE-3]] by another lane of the same warp (lane + 16 runs it on this element)
  S[Tid] += S[Tid + 8];
  // CHECK: :[[@LINE-1]]:10: warning: this write of shared memory races with the read at {{.*}}warp-race.cu:[[@LINE-4]] by another lane of the same warp (lane - 16
  // CHECK: :[[@LINE-2]]:13: warning: this read of shared memory races with the write at {{.*}}warp-race.cu:[[@LINE-6]] by another lane of the same warp (lane + 8
}

__global__ void reduce(const float *In, float *Out) {
  __shared__ float Sdata[256];
  unsigned Tid = threadIdx.x;
  Sdata[Tid] = In[blockIdx.x * 256 + Tid];
  __syncthreads();
  for (unsigned S = 128; S > 32; S >>= 1) {
    if (Tid < S)
      Sdata[Tid] += Sdata[Tid + S]; // no-warning: __syncthreads() ends every step
    __syncthreads();
  }
  if (Tid < 32)
    warpReduce(Sdata, Tid);
  if (Tid == 0)
    Out[blockIdx.x] = Sdata[0];
}

// Positive: plain shared memory, after an early return that keeps the first warp.
__global__ void neighbours(float *Out) {
  __shared__ float S[64];
  if (threadIdx.x >= 32)
    return;
  S[threadIdx.x] = threadIdx.x;
  Out[threadIdx.x] = S[threadIdx.x + 1];
  // CHECK: :[[@LINE-1]]:22: warning: this read of shared memory races with the write at {{.*}}warp-race.cu:[[@LINE-2]] by another lane of the same warp (lane + 1 runs it on this element)
}

// Negative: the same, ordered.
__global__ void neighboursSynced(float *Out) {
  __shared__ float S[64];
  if (threadIdx.x >= 32)
    return;
  S[threadIdx.x] = threadIdx.x;
  __syncwarp(); // orders the lanes: every write is seen by every read after it
  Out[threadIdx.x] = S[threadIdx.x + 1]; // no-warning: __syncwarp() between
}

// Negative: a shuffle between them is a warp call with a full mask, which orders the lanes too.
__global__ void neighboursShuffled(float *Out) {
  __shared__ float S[64];
  if (threadIdx.x >= 32)
    return;
  S[threadIdx.x] = threadIdx.x;
  float Mine = __shfl_down_sync(0xffffffffu, S[threadIdx.x], 1);
  Out[threadIdx.x] = Mine + S[threadIdx.x + 1]; // no-warning: the shuffle's warp synchronization
}

// Negative: the half-warp reads what no lane of its step writes (lanes 0-15 write 0-15 and read
// 16-31).
__global__ void halfWarp(float *Out) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x < 16)
    S[threadIdx.x] += S[threadIdx.x + 16]; // no-warning: the lanes that own 16-31 do not run this
  __syncthreads();
  Out[threadIdx.x] = S[threadIdx.x];
}

// Negative: each lane reads its own element.
__global__ void own(float *Out) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  Out[threadIdx.x] = S[threadIdx.x] * 2.0f; // no-warning: the same lane wrote it
}

// Negative: __syncthreads() between the write and the read.
__global__ void blockSynced(float *Out) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[threadIdx.x] = S[threadIdx.x + 1]; // no-warning: the block barrier orders them
}

// Positive: each warp in its own part of shared memory (the warp's index is the same for its
// lanes), indexed by the lane.
__global__ void perWarp(const int *In, int *Out) {
  __shared__ volatile int Slots[256 * 2];
  const int Lane = threadIdx.x & 31;
  volatile int *S = Slots + (threadIdx.x / 32) * 64;
  S[Lane] = In[threadIdx.x];
  int Sum = S[Lane] + S[Lane + 4];
  // CHECK: :[[@LINE-1]]:23: warning: this read of shared memory races with the write at {{.*}}warp-race.cu:[[@LINE-2]] by another lane of the same warp (lane + 4 runs it on this element)
  Out[threadIdx.x] = Sum;
}

// Negative: a part that differs lane by lane is no common base to count lanes from.
__global__ void perLane(const int *In, int *Out) {
  __shared__ volatile int Slots[256 * 2];
  volatile int *S = Slots + threadIdx.x;
  S[threadIdx.x] = In[threadIdx.x];
  Out[threadIdx.x] = S[threadIdx.x + 1]; // no-warning: element 2 * lane + 1 is no other lane's 2 * lane'
}
