// cuda-scope-grid-barrier, its second finding: a counting grid barrier used again, each round, on a
// goal that does not grow and a count nothing resets. However the kernel is launched, from the
// second round on the count already holds the goal and the wait is passed at once. Against the real
// CUDA 13 headers, both clang-tidy sides, and the IR pass at the same places: the last RUN lines
// diff the two front ends.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-barrier' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-barrier' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-barrier' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*grid-barrier-reuse.cu:\([0-9]*\):\([0-9]*\): warning: kernel .\([a-zA-Z]*\). waits here until its count .*(at .*grid-barrier-reuse.cu:\([0-9]*\)).*\[cuda-scope-grid-barrier\]$/\1 \2 \3 \4/p' \
// RUN:   | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*grid-barrier-reuse.cu:\([0-9]*\):\([0-9]*\): remark: kernel .\([a-zA-Z]*\). waits here until its count .*(at .*grid-barrier-reuse.cu:\([0-9]*\)).*$/\1 \2 \3 \4/p' \
// RUN:   | sort > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test `wc -l < %t.ir` -eq 5
#include <cooperative_groups.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;

__global__ void reusedInLoop(unsigned *count, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    x[blockIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < gridDim.x) {
      }
      // CHECK: :[[@LINE-2]]:14: warning: kernel 'reusedInLoop' waits here until its count reaches a goal that does not grow, but the loop around it arrives on the same count again (at {{.*}}grid-barrier-reuse.cu:[[@LINE-3]]) and nothing resets it: {{.*}} [cuda-scope-grid-barrier]
      // CHECK: :[[@LINE-4]]:7: note: arrives again here
      __threadfence();
    }
    __syncthreads();
  }
}

// The barrier in a helper the loop calls: the IR sees it inlined, clang-tidy through the call.
__device__ void gridSync(unsigned *count, unsigned goal) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < goal) {
    }
    // CHECK: :[[@LINE-2]]:12: warning: kernel 'reusedThroughHelper' waits here until its count {{.*}} [cuda-scope-grid-barrier]
    // CHECK: :[[@LINE-4]]:5: note: arrives again here
    __threadfence();
  }
  __syncthreads();
}
__global__ void reusedThroughHelper(unsigned *count, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    x[blockIdx.x] += 1.0f;
    gridSync(count, gridDim.x);
  }
}

// libcu++'s atomic_ref and cooperative groups' block count: the same shape.
__global__ void reusedAtomicRef(unsigned *count, float *x, int rounds) {
  cg::grid_group grid = cg::this_grid();
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count);
  for (int r = 0; r < rounds; ++r) {
    x[blockIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      c.fetch_add(1u, cuda::memory_order_acq_rel);
      while (c.load(cuda::memory_order_acquire) < grid.num_blocks()) {
      }
      // CHECK: :[[@LINE-2]]:16: warning: kernel 'reusedAtomicRef' waits here until its count {{.*}} [cuda-scope-grid-barrier]
      // CHECK: :[[@LINE-4]]:9: note: arrives again here
    }
    __syncthreads();
  }
}

// The goal grows with the round: each round waits for its own gridDim.x arrivals.
__global__ void growingGoal(unsigned *count, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    x[blockIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < gridDim.x * (r + 1)) { // no-warning: the goal grows with the round
      }
      __threadfence();
    }
    __syncthreads();
  }
}

// A goal the thread moves on each round itself.
__global__ void runningGoal(unsigned *count, float *x, int rounds) {
  unsigned goal = 0;
  for (int r = 0; r < rounds; ++r) {
    goal += gridDim.x;
    x[blockIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < goal) { // no-warning: goal grows by gridDim.x each round
      }
      __threadfence();
    }
    __syncthreads();
  }
}

// The goal from the ticket the arrival returns: the next multiple of the grid's size.
__global__ void ticketGoal(unsigned *count, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    x[blockIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      unsigned ticket = atomicAdd(count, 1u);
      unsigned goal = (ticket / gridDim.x + 1) * gridDim.x;
      while (atomicAdd(count, 0u) < goal) { // no-warning: each round's goal is its own generation
      }
      __threadfence();
    }
    __syncthreads();
  }
}

// A count that something resets is another protocol (whether the reset is ordered is not this
// rule's to say).
__global__ void resetCount(unsigned *count, unsigned *phase, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    x[blockIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < gridDim.x) { // no-warning: the count is reset below
      }
      if (blockIdx.x == 0)
        atomicExch(count, 0u);
      __threadfence();
    }
    __syncthreads();
  }
}

// Used once: nothing to reuse (and no launch here to be past residency).
__global__ void usedOnce(unsigned *count, float *x) {
  x[blockIdx.x] += 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) { // no-warning: one use
    }
    __threadfence();
  }
}

// In a loop, but followed by a break or a return out of it: the barrier runs once. (The IR's loop
// does not hold a tail that cannot reach its header either.)
__global__ void onceThenBreak(unsigned *count, float *x, const int *work) {
  for (int i = 0;; ++i) {
    x[blockIdx.x] += work[i];
    if (work[i] == 0) {
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(count, 1u);
        while (atomicAdd(count, 0u) < gridDim.x) { // no-warning: the loop is left right after
        }
        __threadfence();
      }
      __syncthreads();
      break;
    }
  }
}
__global__ void onceThenReturn(unsigned *count, float *x) {
  while (true) {
    x[blockIdx.x] += 1.0f;
    if (threadIdx.x == 0) {
      atomicAdd(count, 1u);
      while (atomicAdd(count, 0u) < gridDim.x) { // no-warning: the thread returns right after
      }
      return;
    }
  }
}

// A break that leaves an inner loop leaves the outer one running: reused.
__global__ void innerBreak(unsigned *count, float *x, int rounds, const int *work) {
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0;; ++i) {
      if (work[i] == 0) {
        if (threadIdx.x == 0) {
          atomicAdd(count, 1u);
          while (atomicAdd(count, 0u) < gridDim.x) {
          }
          // CHECK: :[[@LINE-2]]:18: warning: kernel 'innerBreak' waits here until its count {{.*}} [cuda-scope-grid-barrier]
          // CHECK: :[[@LINE-4]]:11: note: arrives again here
        }
        break;
      }
    }
    x[blockIdx.x] += 1.0f;
  }
}

// Positive: a second barrier on the same count, after the first, waiting for gridDim.x again: the
// count is there already.
__global__ void secondBarrierSameGoal(unsigned *Count, int *Data, int *Out) {
  if (threadIdx.x == 0) {
    Data[blockIdx.x] = 1;
    __threadfence();
    atomicAdd(Count, 1u);
    while (atomicAdd(Count, 0u) < gridDim.x) {
    }
    __threadfence();
    Out[blockIdx.x] = Data[(blockIdx.x + 1) % gridDim.x];
    Data[gridDim.x + blockIdx.x] = 2;
    __threadfence();
    atomicAdd(Count, 1u);
    while (atomicAdd(Count, 0u) < gridDim.x) {
    }
    // CHECK: :[[@LINE-2]]:12: warning: kernel 'secondBarrierSameGoal' waits here until its count reaches the grid's size, but the barrier before it on the same count (at {{.*}}grid-barrier-reuse.cu:[[@LINE-9]]) already brought the count there and nothing resets it: {{.*}} [cuda-scope-grid-barrier]
    // CHECK: :[[@LINE-10]]:12: note: the barrier before it waits here
    __threadfence();
    Out[gridDim.x + blockIdx.x] = Data[gridDim.x + (blockIdx.x + 1) % gridDim.x];
  }
}

// no-warning: the second barrier waits for both barriers' arrivals
__global__ void secondBarrierCounted(unsigned *Count, int *Data, int *Out) {
  if (threadIdx.x == 0) {
    Data[blockIdx.x] = 1;
    __threadfence();
    atomicAdd(Count, 1u);
    while (atomicAdd(Count, 0u) < gridDim.x) {
    }
    __threadfence();
    Out[blockIdx.x] = Data[(blockIdx.x + 1) % gridDim.x];
    Data[gridDim.x + blockIdx.x] = 2;
    __threadfence();
    atomicAdd(Count, 1u);
    while (atomicAdd(Count, 0u) < 2 * gridDim.x) {
    }
    __threadfence();
    Out[gridDim.x + blockIdx.x] = Data[gridDim.x + (blockIdx.x + 1) % gridDim.x];
  }
}
