// cuda-scope-divergent-barrier: a block barrier that threads of one block may not all reach, against
// the real CUDA 13 headers; both clang-tidy sides, and the IR pass at the same places (the two
// front ends agree: the last RUN lines diff them).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*divergent-barrier.cu:\([0-9]*\):\([0-9]*\): warning: .* at .*divergent-barrier.cu:\([0-9]*\) that .*\[\(cuda-scope-[a-z-]*\)\]$/\4 \1 \2 \3/p' \
// RUN:   | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*divergent-barrier.cu:\([0-9]*\):\([0-9]*\): remark: .* at .*divergent-barrier.cu:\([0-9]*\) that .*$/cuda-scope-divergent-barrier \1 \2 \3/p' \
// RUN:   | sort > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test -s %t.ir
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Positive: a barrier inside a branch on the thread's index.
__global__ void underThreadIndex(float *A, int N) {
  __shared__ float S[256];
  if (threadIdx.x < N) {
    S[threadIdx.x] = A[threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-3]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads of one block may decide this condition differently
  }
  A[threadIdx.x] = S[0];
}

// Positive: an early return of the threads past the end, then a barrier.
__global__ void earlyReturn(float *A, int N) {
  __shared__ float S[256];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  S[threadIdx.x] = A[I];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-4]] that {{.*}} [cuda-scope-divergent-barrier]
  // CHECK: :[[@LINE-5]]:7: note: threads of one block may decide this condition differently
  A[I] = S[255 - threadIdx.x];
}

// Positive: a block-stride loop whose trip count differs between threads.
__global__ void strideLoop(float *A, int N) {
  __shared__ float S[256];
  for (int I = threadIdx.x; I < N; I += blockDim.x) {
    S[threadIdx.x] = A[I];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-3]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:29: note: threads of one block may decide this condition differently
    A[I] = S[(threadIdx.x + 1) % blockDim.x];
  }
}

// Positive: an atomic's result (a ticket), and cooperative groups' thread_rank() and block sync.
__global__ void ticketAndGroups(unsigned *Count, float *A) {
  __shared__ float S[256];
  unsigned T = atomicAdd(Count, 1u);
  if (T % 2) {
    S[threadIdx.x] = 1;
    __syncthreads_count(S[0] > 0);
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads_count/_and/_or) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-3]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads of one block may decide this condition differently
  }
  cg::thread_block B = cg::this_thread_block();
  if (B.thread_rank() == 0)
    B.sync();
  // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-divergent-barrier]
  // CHECK: :[[@LINE-3]]:7: note: threads of one block may decide this condition differently
}

// Positive: a lane read with inline PTX.
__global__ void laneFromPtx(float *A) {
  unsigned Lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(Lane));
  if (Lane == 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-divergent-barrier]
  // CHECK: :[[@LINE-3]]:7: note: threads of one block may decide this condition differently
  A[threadIdx.x] = Lane;
}

// Negative cases.
__global__ void uniformConditions(float *A, int N) {
  __shared__ float S[256];
  if (threadIdx.x < N)
    S[threadIdx.x] = A[threadIdx.x];
  __syncthreads(); // no-warning: after the branch joins, every thread reaches it
  if (blockIdx.x < N) {
    __syncthreads(); // no-warning: the block index is the same for every thread of a block
  }
  for (int I = 0; I < N; I += blockDim.x) {
    if (I + threadIdx.x < N)
      S[threadIdx.x] = A[I + threadIdx.x];
    __syncthreads(); // no-warning: the loop's trip count is the block's alike
  }
  if (S[0] > 0)
    __syncthreads(); // no-warning: one address, read after a barrier: every thread reads the same
  if (N > 4 && blockDim.x >= 128)
    __syncthreads(); // no-warning: kernel arguments and the block's size
  if (__syncthreads_or(A[threadIdx.x] > 0))
    __syncthreads(); // no-warning: a block reduction's result is the same for every thread of the block
  A[threadIdx.x] = S[threadIdx.x];
}

__global__ void namedBarrierOfSomeWarps(float *A) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;"); // no-warning: a named barrier with a thread count is for those warps only
  A[threadIdx.x] = 0;
}

__global__ void returnAfterBarrier(float *A, int N) {
  __shared__ float S[256];
  S[threadIdx.x] = A[threadIdx.x];
  __syncthreads(); // no-warning: the early return comes after it
  if (threadIdx.x >= N)
    return;
  A[threadIdx.x] = S[N - 1 - threadIdx.x];
}

__global__ void returnInOtherArm(float *A, int N) {
  __shared__ float S[256];
  if (N > 8) {
    if (threadIdx.x >= N)
      return;
    A[threadIdx.x] = 1;
  } else {
    S[threadIdx.x] = A[threadIdx.x];
    __syncthreads(); // no-warning: the return is in the other arm of a branch every thread of the block takes alike
    A[threadIdx.x] = S[0];
  }
}

__global__ void projectVariableNamedClock(float *A, int N) {
  int clock = N * 2;
  if (clock > 8)
    __syncthreads(); // no-warning: the project's own variable called clock, set from a kernel argument
  A[threadIdx.x] = clock;
}

// An interpreter of operations the block copied to shared memory, as a collective library runs
// its plans: each thread reads the same operation, and a handler that returns early for the
// threads past its count gives the same step count on every way out.
struct PlanOp {
  unsigned char type;
  unsigned char n;
};
__device__ __forceinline__ void copyPart(const PlanOp &op, float *A) {
  if (threadIdx.x >= op.n)
    return;
  A[threadIdx.x] = 1.0f;
}
__device__ __forceinline__ void runPlanOp(const PlanOp &op, float *A, unsigned char *steps) {
  *steps = 1;
  if (op.type == 0)
    __syncthreads(); // no-warning: the operation is read at an index every thread computes alike, and the early return in copyPart decides no step count
  else if (op.type == 1)
    copyPart(op, A);
  else if (op.type == 2)
    *steps = op.n + 1;
}
__global__ void planInterpreter(const PlanOp *ops, int nOps, float *A) {
  __shared__ PlanOp local[64];
  for (int i = threadIdx.x; i < nOps; i += blockDim.x)
    local[i] = ops[i];
  __syncthreads();
  for (int i = 0; i < nOps;) {
    unsigned char steps = 0;
    runPlanOp(local[i], A, &steps);
    i += steps;
  }
}

// A loop over the thread's elements whose body may trap: no join post-dominates the loop's
// test, but every thread that leaves the loop reaches what follows it.
__global__ void checkedStrideThenBarrier(float *A, int N) {
  __shared__ float S[256];
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    if (A[i] < 0)
      __trap();
    S[i % 256] += A[i];
  }
  __syncthreads(); // no-warning: after the loop, which every thread leaves (or traps in)
  A[threadIdx.x] = S[0];
}

// Positive: the same loop with the barrier inside, reached as many times as each thread has elements.
__global__ void checkedStrideBarrierInside(float *A, int N) {
  __shared__ float S[256];
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    if (A[i] < 0)
      __trap();
    S[i % 256] += A[i];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-5]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-6]]:29: note: threads of one block may decide this condition differently
  }
  A[threadIdx.x] = S[0];
}

// Rounds of a loop whose count is an argument, with one thread waiting on a counter in each: -O2
// computes the next round (r + 1) once in each arm of the thread's branch and joins the two copies,
// which are one value for every thread.
__global__ void roundsWithOneWaiter(unsigned *Count, int *Out, int Rounds) {
  for (int r = 0; r < Rounds; ++r) {
    if (threadIdx.x == 0) {
      atomicAdd(Count, 1u);
      while (atomicAdd(Count, 0u) < gridDim.x * (unsigned)(r + 1)) {
      }
      Out[r] = r;
    }
    __syncthreads(); // no-warning: the round's count is the kernel argument's, whichever arm computed r + 1
  }
}

// Positive: the same rounds, but the waiting thread skips one: the arms give r + 1 and r + 2.
__global__ void roundsSkippedByOneThread(int *Out, int Rounds) {
  for (int r = 0; r < Rounds; ++r) {
    if (threadIdx.x == 0)
      Out[r++] = r;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-4]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-5]]:{{[0-9]+}}: note: threads of one block may decide this condition differently
  }
}

// Tests of the block's index decide, for a whole block, a test of the thread's index they are
// combined with: in block 1, `blockIdx.x == 0 && threadIdx.x == 0` fails for every thread (-O2
// writes it as (blockIdx.x | threadIdx.x) == 0).
__global__ void elseOfOneThreadInBlockZero(int *Data, int *Out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Data[0] = 1;
  } else if (blockIdx.x == 1) {
    __syncthreads(); // no-warning: every thread of block 1 fails the first test, and no other block reaches it
    Out[threadIdx.x] = Data[threadIdx.x];
  }
}

__global__ void earlyReturnOfBlockZero(int *Data, int *Out, int Which) {
  if (blockIdx.x == 0 && threadIdx.x == 5)
    return;
  if (blockIdx.x == 2) {
    Data[threadIdx.x] = Which;
    __syncthreads(); // no-warning: the return is taken only in block 0, which does not get here
    Out[threadIdx.x] = Data[0];
  }
}

__global__ void eitherBlockOrThread(int *Data, int *Out) {
  if (blockIdx.y == 3) {
    if (blockIdx.y == 3 || threadIdx.x < 7) {
      __syncthreads(); // no-warning: in block row 3 the test passes for every thread
      Out[threadIdx.x] = Data[0];
    }
  }
}

// Positive: the block test leaves the thread test open for block 0, which reaches the barrier.
__global__ void elseOfOneThreadInBlockZeroReached(int *Data, int *Out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Data[0] = 1;
  } else if (blockIdx.x < 2) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-4]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-5]]:7: note: threads of one block may decide this condition differently
    Out[threadIdx.x] = Data[threadIdx.x];
  }
}

// Positive: block 1 reaches the barrier, and its threads decide the other test differently.
__global__ void blockAndThreadOfTheSameBlock(int *Data, int *Out) {
  if (blockIdx.x == 1) {
    if (blockIdx.x == 1 && threadIdx.x < 32) {
      __syncthreads();
      // CHECK: :[[@LINE-1]]:7: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-2]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
      // CHECK: :[[@LINE-3]]:9: note: threads of one block may decide this condition differently
      Out[threadIdx.x] = Data[0];
    }
  }
}

// Orderings bound the block too: no block below 2 is block 5.
__global__ void rangeOfBlocksBesideOneThread(int *Data, int *Out) {
  if (blockIdx.x < 2) {
    if (blockIdx.x == 5 && threadIdx.x == 0)
      return;
    Data[threadIdx.x] = 1;
    __syncthreads(); // no-warning: the return is block 5's, and only blocks 0 and 1 get here
    Out[threadIdx.x] = Data[0];
  }
}

// The grid's thread 0 is thread 0 of block 0: in block 1 the test fails for every thread.
__global__ void gridThreadZeroElsewhere(int *Data, int *Out) {
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    Data[0] = 1;
  } else if (blockIdx.x == 1) {
    __syncthreads(); // no-warning: no thread of block 1 is the grid's thread 0
    Out[threadIdx.x] = Data[threadIdx.x];
  }
}

// Positive: block 0 gets to the barrier, and its thread 0 does not.
__global__ void gridThreadZeroInItsBlock(int *Data, int *Out) {
  if (threadIdx.x + blockIdx.x * blockDim.x == 0) {
    Data[0] = 1;
  } else if (blockIdx.x < 1) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-4]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-5]]:7: note: threads of one block may decide this condition differently
    Out[threadIdx.x] = Data[threadIdx.x];
  }
}

// A test kept in a local that holds it throughout is the test.
__global__ void leaderKeptInALocal(int *Data, int *Out) {
  const bool Leader = blockIdx.x == 0 && threadIdx.x == 0;
  if (Leader) {
    Data[0] = 1;
  } else if (blockIdx.x == 1) {
    __syncthreads(); // no-warning: Leader is false for every thread of block 1
    Out[threadIdx.x] = Data[threadIdx.x];
  }
}

// Positive: the local is given a test of the thread's index later, for some rounds.
__global__ void leaderChangedLater(int *Data, int *Out, int Round) {
  bool Leader = blockIdx.x == 0;
  if (Round > 1)
    Leader = threadIdx.x == 0;
  if (Leader) {
    Data[0] = 1;
  } else if (blockIdx.x == 1) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-4]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-5]]:7: note: threads of one block may decide this condition differently
    Out[threadIdx.x] = Data[threadIdx.x];
  }
}

// no-warning: one thread stores a ticket's verdict in a __shared__ flag and the block reads it after
// a barrier: the flag is one word of the block's memory, and every thread reads what was stored (the
// last-block reduction's isLastBlockDone). A store's value does not make memory differ between
// threads; the IR pass takes a load of one address alike for the block.
__global__ void lastBlockSharedFlag(unsigned *Count, float *Partial, float *Out) {
  __shared__ bool IsLast;
  __shared__ float Sum;
  if (threadIdx.x == 0) {
    unsigned Ticket = atomicAdd(Count, 1u);
    IsLast = Ticket == gridDim.x - 1;
    Sum = 0;
  }
  __syncthreads();
  if (IsLast) {
    atomicAdd(&Sum, Partial[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0)
      *Out = Sum;
  }
}

// no-warning: a work item one thread draws into a __shared__ variable, which the block loops on
// (HeCBench cc's vB).
__device__ int WorkHead;
__global__ void sharedWorkItem(const int *List, float *A) {
  __shared__ int Item;
  if (threadIdx.x == 0)
    Item = List[atomicAdd(&WorkHead, -1)];
  __syncthreads();
  while (Item >= 0) {
    A[Item * 256 + threadIdx.x] += 1;
    __syncthreads();
    if (threadIdx.x == 0)
      Item = List[atomicAdd(&WorkHead, -1)];
    __syncthreads();
  }
}

// Positive: a verdict kept in a local of each thread, each from its own ticket.
__global__ void lastBlockLocalFlag(unsigned *Count, float *Partial, float *Out) {
  __shared__ float Sum;
  bool IsLast = atomicAdd(Count, 1u) == gridDim.x * blockDim.x - 1;
  if (IsLast) {
    Sum = Partial[0];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-3]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads of one block may decide this condition differently
    *Out = Sum;
  }
}

// no-warning: a local used first as a thread's grid-stride index and then as a halving width (bh's
// j): the second loop's first clause gives it a new value, and inside that loop it holds only what
// the loop gives it, which every thread computes alike.
__global__ void reusedLoopVariable(const float *A, float *Out, int N) {
  __shared__ float S[256];
  int J;
  float V = 0;
  for (J = blockIdx.x * blockDim.x + threadIdx.x; J < N; J += blockDim.x * gridDim.x)
    V += A[J];
  S[threadIdx.x] = V;
  for (J = blockDim.x / 2; J > 0; J /= 2) {
    __syncthreads();
    if (threadIdx.x < J)
      S[threadIdx.x] += S[threadIdx.x + J];
  }
  if (threadIdx.x == 0)
    Out[blockIdx.x] = S[0];
}

// Positive: the same reused local, but the second loop steps it by the thread's own amount.
__global__ void reusedLoopVariableVaryingStep(const float *A, float *Out, int N) {
  __shared__ float S[256];
  int J;
  float V = 0;
  for (J = threadIdx.x; J < N; J += blockDim.x)
    V += A[J];
  S[threadIdx.x] = V;
  for (J = blockDim.x / 2; J > 0; J -= 1 + threadIdx.x % 2) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-3]]:28: note: threads of one block may decide this condition differently
    S[threadIdx.x] += 1;
  }
  Out[threadIdx.x] = S[threadIdx.x];
}

// Positive: the reused local is set again, under the thread's index, inside the loop.
__global__ void reusedLoopVariableSetByOneThread(const float *A, float *Out, int N) {
  __shared__ float S[256];
  int J;
  for (J = threadIdx.x; J < N; J += blockDim.x)
    S[J % 256] = A[J];
  for (J = 0; J < 8; ++J) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-2]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-3]]:15: note: threads of one block may decide this condition differently
    if (threadIdx.x == 0)
      J = 8;
  }
  Out[threadIdx.x] = S[threadIdx.x];
}

// no-warning: a barrier in the arm of a condition the compiler folds away (bitpermute's
// `Z_COUNT > WARP_SZ ? __syncthreads() : __syncwarp()`), under a test that whole warps decide
// alike and a block's warps apart: the IR keeps only the __syncwarp, and the AST prunes the arm as
// the IR does.
template <unsigned Count>
__global__ void foldedBarrierChoice(float *A, int N) {
  if (threadIdx.x / 32 < N) {
    A[threadIdx.x] += 1;
    (Count > 32) ? __syncthreads() : __syncwarp();
    if (Count > 32)
      __syncthreads();
    A[threadIdx.x] += 1;
  }
}
template __global__ void foldedBarrierChoice<8>(float *, int);

// no-warning: the loop's test reads what the last assignment before it gives the local, a word of
// shared memory the block reads after a barrier (tsp's minchange); the thread's own sums given to
// it earlier in the round do not reach the test.
__global__ void lastAssignmentBeforeTest(const int *Cost, int *Out, int N) {
  __shared__ int Best[256];
  int Change;
  do {
    Change = 0;
    for (int I = threadIdx.x; I < N; I += blockDim.x)
      Change += Cost[I];
    Best[threadIdx.x] = Change;
    __syncthreads();
    if (threadIdx.x == 0)
      for (int I = 1; I < blockDim.x; ++I)
        Best[0] = min(Best[0], Best[I]);
    __syncthreads();
    Change = Best[0];
    Out[threadIdx.x] = Change;
    __syncthreads();
  } while (Change < 0);
}

// Positive: the same loop, but a thread's own value is assigned last.
__global__ void threadsValueBeforeTest(const int *Cost, int *Out, int N) {
  __shared__ int Best[256];
  int Change;
  do {
    Change = Best[0];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE+5]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE+4]]:12: note: threads of one block may decide this condition differently
    Best[threadIdx.x] = Change;
    if (threadIdx.x < N)
      Change = Cost[threadIdx.x];
  } while (Change < 0);
}

__device__ void blockSum(float *S) {
  for (int W = 128; W > 0; W /= 2) {
    if (threadIdx.x < W)
      S[threadIdx.x] += S[threadIdx.x + W];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE+13]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE+13]]:5: note: the barrier is reached through this call
    // CHECK: :[[@LINE+11]]:7: note: threads of one block may decide this condition differently
  }
}

// Positive: a device function's barrier, the function called under a condition on the thread's
// index (word2vec's reduceInWarp): the pass sees the call inlined; clang-tidy reports the barrier
// the call runs, with the caller's condition.
__global__ void barrierInCallee(const float *A, float *Out, int N) {
  __shared__ float S[256];
  S[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < N)
    blockSum(S);
  Out[threadIdx.x] = S[0];
}

// no-warning: the same function called by every thread of the block.
__global__ void barrierInCalleeForAll(const float *A, float *Out) {
  __shared__ float S[256];
  S[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  blockSum(S);
  Out[threadIdx.x] = S[0];
}

// Positive: a loop that threads leave at different rounds, by a break after the barrier: the
// threads that left miss the barrier of every later round.
__global__ void breakAfterBarrier(float *A, int N) {
  while (true) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE+2]] that {{.*}} [cuda-scope-divergent-barrier]
    A[threadIdx.x] += 1.0f;
    if (threadIdx.x > N)
      // CHECK: :[[@LINE-1]]:9: note: threads of one block may decide this condition differently
      break;
  }
}

// Positive: the same with a return after the barrier, in a loop whose own test the whole block
// decides alike.
__global__ void returnAfterBarrierInLoop(float *A, int N) {
  for (int I = 0; I < N; ++I) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE+2]] that {{.*}} [cuda-scope-divergent-barrier]
    A[threadIdx.x] += 1.0f;
    if (threadIdx.x == I)
      // CHECK: :[[@LINE-1]]:9: note: threads of one block may decide this condition differently
      return;
  }
}

// Negative: the break after the barrier is the same for the whole block.
__global__ void uniformBreakAfterBarrier(float *A, int N) {
  while (true) {
    __syncthreads(); // no-warning: every thread of a block leaves in the same round
    A[threadIdx.x] += 1.0f;
    if (blockIdx.x + A[0] > N)
      break;
  }
}

// Negative: a continue after the only barrier: every thread reaches the barrier in every round.
__global__ void continueAfterBarrier(float *A, int N) {
  for (int I = 0; I < N; ++I) {
    __syncthreads(); // no-warning: what the continue skips holds no barrier
    if (threadIdx.x < 5)
      continue;
    A[threadIdx.x] += 1.0f;
  }
}

// Negative: a block-stride position's round. pos is threadIdx.x plus whole numbers of blockDim.x,
// and threadIdx.x < blockDim.x, so (pos / blockDim.x) * blockDim.x (which -O2 writes pos - pos %
// blockDim.x) is the same for every thread of the block. pos is read in parentheses, as HeCBench's
// ss writes it: still a read of its value.
__global__ void roundOfBlockStride(float *A, int N) {
  int pos = threadIdx.x;
  const int step = blockDim.x;
  while (true) {
    A[pos] += 1.0f;
    pos += step;
    __syncthreads(); // no-warning: every thread of the block leaves in the same round
    if (((pos) / step) * step >= N)
      break;
  }
}

// Positive: a position that steps by a warp, not by the block: its quotient by blockDim.x differs
// between the block's threads.
__global__ void roundOfWarpStride(float *A, int N) {
  int pos = threadIdx.x;
  while (true) {
    A[pos] += 1.0f;
    pos += 32;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE+2]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE+1]]:9: note: threads of one block may decide this condition differently
    if ((pos / blockDim.x) * blockDim.x >= N)
      break;
  }
}

// Positive: a block-stride position divided by a warp's size: its warp, which differs.
__global__ void warpOfBlockStride(float *A, int N) {
  int pos = threadIdx.x;
  while (true) {
    A[pos] += 1.0f;
    pos += blockDim.x;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE+2]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE+1]]:9: note: threads of one block may decide this condition differently
    if (pos / 32 >= N)
      break;
  }
}

// What a helper returns of its own: the pass sees it inlined, clang-tidy reads the helper's returns.
__device__ __forceinline__ int warpIndex() { return threadIdx.x >> 5; }
__device__ __forceinline__ int firstOfBlock() {
  if (threadIdx.x == 0)
    return 1;
  return 0;
}
__device__ __forceinline__ int halved(int x) { return x / 2; }

// Positive: rows handed out per warp, the warp's index read through a helper (AMGX's
// utils::warp_id()): warps of one block run the loop a different number of times.
__global__ void rowsPerWarpThroughHelper(float *A, int Rows) {
  __shared__ float S[256];
  for (int Row = blockIdx.x * 8 + warpIndex(); Row < Rows; Row += gridDim.x * 8) {
    S[threadIdx.x] = A[Row];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-3]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:48: note: threads of one block may decide this condition differently
    A[Row] = S[0];
  }
}

// Positive: a helper whose result a condition on the thread's index decides.
__global__ void leaderThroughHelper(float *A) {
  __shared__ float S[256];
  if (firstOfBlock()) {
    S[0] = A[0];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}divergent-barrier.cu:[[#@LINE-3]] that {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads of one block may decide this condition differently
  }
  A[threadIdx.x] = S[0];
}

// Negative: a helper of what the block shares.
__global__ void halfOfBlockIndex(float *A) {
  __shared__ float S[256];
  if (halved(blockIdx.x) == 3) {
    S[threadIdx.x] = A[threadIdx.x];
    __syncthreads(); // no-warning: the helper returns what it is given, the block's index
  }
  A[threadIdx.x] = S[0];
}
