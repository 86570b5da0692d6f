// cuda-scope-grid-barrier: a hand-written grid barrier (blocks count their arrivals, then spin until
// every block of the grid has come) in a kernel launched, not cooperatively, on a grid that grows
// with the input; against the real CUDA 13 headers, both clang-tidy sides, and the IR pass at the
// same places, given the launches as the cuda-scope command gives them (the host side's facts):
// the last RUN lines diff the two front ends.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-barrier' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-barrier' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-barrier' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*grid-barrier.cu:\([0-9]*\):\([0-9]*\): warning: kernel .\([a-zA-Z]*\). waits here .*(arrival at .*grid-barrier.cu:\([0-9]*\)).* grows with .\(.*\). and is not .*\[cuda-scope-grid-barrier\]$/\1 \2 \3 \4 \5/p' \
// RUN:   | sort > %t.tidy
// RUN: rm -f %t.facts.json
// RUN: env CUDA_SCOPE_FACTS=%t.facts.json %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %toolkit_host_flags
// RUN: %python -c "import sys; sys.path.insert(0, '%src_root/tools'); from cuda_scope import facts; p, _ = facts.load(['%t.facts.json']); open('%t.launches', 'w').write(facts.launches_file(p))"
// RUN: env CUDA_SCOPE_LAUNCHES=%t.launches %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass \
// RUN:   -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*grid-barrier.cu:\([0-9]*\):\([0-9]*\): remark: kernel .\([a-zA-Z]*\). waits here .*(arrival at .*grid-barrier.cu:\([0-9]*\)).* grows with .\(.*\). and is not .*$/\1 \2 \3 \4 \5/p' \
// RUN:   | sort > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test -s %t.ir
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>
#include <algorithm>
#include <vector>
namespace cg = cooperative_groups;

// A counting barrier in a helper: the expected count is the grid's size, passed in.
__device__ void gridBarrier(unsigned *Count, unsigned Expected) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(Count, 1u);
    while (atomicAdd(Count, 0u) < Expected) {
    }
    __threadfence();
  }
  __syncthreads();
}

// Positive: launched with <<<>>> on a grid computed from the input's size.
__global__ void smooth(float *X, unsigned *Count, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= 0.5f;
  gridBarrier(Count, gridDim.x);
  // CHECK: :[[#@LINE-13]]:12: warning: kernel 'smooth' waits here until every block of its grid has arrived (arrival at {{.*}}grid-barrier.cu:[[#@LINE-14]]), but is launched with <<<...>>> at {{.*}}grid-barrier.cu:[[#@LINE+118]] on a grid that grows with 'N' and is not bounded by what the GPU keeps resident: {{.*}}133 of 528 blocks{{.*}} [cuda-scope-grid-barrier]
  // CHECK: :[[#@LINE+117]]:3: note: launched here with <<<...>>>
  if (I < N)
    X[I] += X[(I + 1) % N];
}

// Positive: sense reversal; the last block to arrive (its ticket is gridDim.x - 1) resets the count
// and flips the sense the others spin on.
__global__ void senseStep(unsigned *Count, volatile int *Sense, float *X) {
  int Old = *Sense;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned Ticket = atomicAdd(Count, 1u);
    if (Ticket == gridDim.x - 1) {
      *Count = 0;
      __threadfence();
      *Sense = !Old;
    } else {
      while (*Sense == Old) {
      }
      // CHECK: :[[@LINE-2]]:14: warning: kernel 'senseStep' waits here until every block of its grid has arrived (arrival at {{.*}}grid-barrier.cu:[[#@LINE-8]]), but is launched with <<<...>>> at {{.*}}grid-barrier.cu:[[#@LINE+100]] on a grid that grows with 'Blocks2' and is not bounded {{.*}} [cuda-scope-grid-barrier]
      // CHECK: :[[#@LINE+99]]:3: note: launched here with <<<...>>>
    }
  }
  __syncthreads();
  X[blockIdx.x] += 1.0f;
}

// Positive: libcu++ atomics, acquire-release, and cooperative groups' count of blocks; launched
// through cudaLaunchKernel on a grid from a vector's size.
__global__ void relaxed(float *X, unsigned *Count) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> C(*Count);
  if (threadIdx.x == 0) {
    C.fetch_add(1u, cuda::memory_order_acq_rel);
    while (C.load(cuda::memory_order_acquire) < cg::this_grid().num_blocks()) {
      // CHECK: :[[@LINE-1]]:14: warning: kernel 'relaxed' waits here until every block of its grid has arrived (arrival at {{.*}}grid-barrier.cu:[[#@LINE-2]]), but is launched with cudaLaunchKernel at {{.*}}grid-barrier.cu:[[#@LINE+87]] on a grid that grows with 'Rows.size()' and is not bounded {{.*}} [cuda-scope-grid-barrier]
      // CHECK: :[[#@LINE+86]]:3: note: launched here with cudaLaunchKernel
    }
  }
  __syncthreads();
  X[blockIdx.x] *= 2.0f;
}

// Positive: Xiao and Feng's barrier: block 0 collects every block's flag in a loop over the grid,
// then releases each block, which spins on its own.
__global__ void masterBarrier(volatile int *Arrive, volatile int *Go, float *X) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      for (unsigned B = 1; B < gridDim.x; ++B)
        while (Arrive[B] == 0) {
        }
      for (unsigned B = 1; B < gridDim.x; ++B)
        Go[B] = 1;
    } else {
      Arrive[blockIdx.x] = 1;
      while (Go[blockIdx.x] == 0) {
      }
      // CHECK: :[[@LINE-2]]:14: warning: kernel 'masterBarrier' waits here until every block of its grid has arrived (arrival at {{.*}}grid-barrier.cu:[[#@LINE-3]]), but is launched with <<<...>>> at {{.*}}grid-barrier.cu:[[#@LINE+66]] on a grid that grows with 'N' and is not bounded {{.*}} [cuda-scope-grid-barrier]
      // CHECK: :[[#@LINE+65]]:3: note: launched here with <<<...>>>
    }
  }
  __syncthreads();
  X[blockIdx.x] += 1.0f;
}

// Negative, every launch below: the same barrier as smooth's, launched cooperatively (every block
// resident, or the launch is refused), on a grid from the occupancy query and the SM count, on a
// constant grid, or on a grid its caller passes in.
__global__ void cooperative(float *X, unsigned *Count) { gridBarrier(Count, gridDim.x); X[0] = 1.0f; }
__global__ void occupancySized(float *X, unsigned *Count) { gridBarrier(Count, gridDim.x); X[0] = 1.0f; }
__global__ void boundedByMin(float *X, unsigned *Count) { gridBarrier(Count, gridDim.x); X[0] = 1.0f; }
__global__ void constantGrid(float *X, unsigned *Count) { gridBarrier(Count, gridDim.x); X[0] = 1.0f; }
__global__ void callerGrid(float *X, unsigned *Count) { gridBarrier(Count, gridDim.x); X[0] = 1.0f; }

// no-warning: the last block's reduction; nobody waits for the others.
__global__ void lastBlock(unsigned *Count, const float *Partial, float *Out) {
  __shared__ bool Last;
  if (threadIdx.x == 0) {
    __threadfence();
    Last = atomicInc(Count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (Last && threadIdx.x == 0)
    *Out = Partial[0] + Partial[gridDim.x - 1];
}

// no-warning: a work cursor counts, it does not wait.
__global__ void cursor(unsigned *Next, float *X) {
  unsigned I;
  while ((I = atomicAdd(Next, 1u)) < gridDim.x * 4u)
    X[I] = 0.0f;
}

// no-warning: only block 0 waits for the others, which arrive and leave: they free their places.
__global__ void collector(unsigned *Count, float *X) {
  if (threadIdx.x == 0)
    atomicAdd(Count, 1u);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    while (atomicAdd(Count, 0u) < gridDim.x) {
    }
  X[blockIdx.x] = 0.0f;
}

// no-warning: each block waits for its predecessor only (a chained scan), not for the grid.
__global__ void chained(volatile int *Flags, float *X) {
  if (blockIdx.x > 0 && threadIdx.x == 0)
    while (Flags[blockIdx.x - 1] == 0) {
    }
  __syncthreads();
  X[blockIdx.x] += 1.0f;
  __threadfence();
  if (threadIdx.x == 0)
    Flags[blockIdx.x] = 1;
}

unsigned divUp(unsigned A, unsigned B) { return (A + B - 1) / B; }

void runAll(float *X, unsigned *Count, volatile int *Sense, int N, const std::vector<int> &Rows, unsigned Blocks) {
  smooth<<<(N + 255) / 256, 256>>>(X, Count, N);
  unsigned Blocks2 = divUp(static_cast<unsigned>(N), 128);
  senseStep<<<Blocks2, 128>>>(Count, Sense, X);
  void *Args[] = {&X, &Count};
  cudaLaunchKernel((void *)relaxed, dim3(Rows.size() / 64 + 1), dim3(64), Args, 0, 0);
  masterBarrier<<<N / 64, 64>>>(reinterpret_cast<volatile int *>(Sense), reinterpret_cast<volatile int *>(Count), X);

  cudaLaunchCooperativeKernel((void *)cooperative, dim3((N + 255) / 256), dim3(256), Args, 0, 0);
  int PerSM = 0, SMs = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, occupancySized, 256, 0);
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0);
  occupancySized<<<PerSM * SMs, 256>>>(X, Count);
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, 0);
  boundedByMin<<<std::min((N + 255) / 256, 2 * Prop.multiProcessorCount), 256>>>(X, Count);
  constantGrid<<<8, 256>>>(X, Count);
  callerGrid<<<Blocks, 256>>>(X, Count);
  lastBlock<<<(N + 255) / 256, 256>>>(Count, X, X);
  cursor<<<(N + 255) / 256, 256>>>(Count, X);
  collector<<<(N + 255) / 256, 256>>>(Count, X);
  chained<<<(N + 255) / 256, 256>>>(reinterpret_cast<volatile int *>(Sense), X);
}
