// Atomics behind a library's wrappers: the order is the wrapper's parameter, handed down from
// the caller (a communication library's atomicLoad(ptr, memoryOrderRelaxed)). What orders the
// message is the order the caller passes; the wrapper's own code names none. After inlining the
// IR has the caller's order; the AST front end must follow the parameter to the same value, or
// it reads every wrapped access as the default, seq_cst, and misses the relaxed ones. Each test has
// its own wrappers: a finding is made where the wrapper calls the atomic, and must fall in its test.
#include <cuda/atomic>

constexpr cuda::memory_order orderRelaxed = cuda::memory_order_relaxed;
constexpr cuda::memory_order orderAcquire = cuda::memory_order_acquire;
constexpr cuda::memory_order orderRelease = cuda::memory_order_release;

// LITMUS: allowed cuda-scope-release-acquire
// The wait is a relaxed load through the wrapper: no acquire pattern before the data's read.
template <typename T, cuda::thread_scope Scope = cuda::thread_scope_system>
__device__ __forceinline__ T loadA(T *ptr, cuda::memory_order order) {
  return cuda::atomic_ref<T, Scope>{*ptr}.load(order);
}

__global__ void wrappedRelaxedWait(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (loadA<int, cuda::thread_scope_device>(flag, orderRelaxed) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same wait with an acquire passed down.
template <typename T, cuda::thread_scope Scope = cuda::thread_scope_system>
__device__ __forceinline__ T loadB(T *ptr, cuda::memory_order order) {
  return cuda::atomic_ref<T, Scope>{*ptr}.load(order);
}

__global__ void wrappedAcquireWait(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (loadB<int, cuda::thread_scope_device>(flag, orderAcquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The publish is a relaxed fetch_add through the wrapper, after the data's write: no release.
template <typename T, cuda::thread_scope Scope = cuda::thread_scope_system>
__device__ __forceinline__ T addC(T *ptr, T value, cuda::memory_order order) {
  return cuda::atomic_ref<T, Scope>{*ptr}.fetch_add(value, order);
}

__global__ void wrappedRelaxedSignal(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    addC<int, cuda::thread_scope_device>(flag, 1, cuda::memory_order_relaxed);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(orderAcquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same publish with a release passed down.
template <typename T, cuda::thread_scope Scope = cuda::thread_scope_system>
__device__ __forceinline__ T addD(T *ptr, T value, cuda::memory_order order) {
  return cuda::atomic_ref<T, Scope>{*ptr}.fetch_add(value, order);
}

__global__ void wrappedReleaseSignal(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    addD<int, cuda::thread_scope_device>(flag, 1, cuda::memory_order_release);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(orderAcquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The relaxed order passes through two wrappers before the load.
template <typename T, cuda::thread_scope Scope = cuda::thread_scope_system>
__device__ __forceinline__ T loadE(T *ptr, cuda::memory_order order) {
  return cuda::atomic_ref<T, Scope>{*ptr}.load(order);
}

__device__ __forceinline__ int pollE(int *flag, cuda::memory_order order) {
  return loadE<int, cuda::thread_scope_device>(flag, order);
}

__global__ void twiceWrappedRelaxedWait(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (pollE(flag, orderRelaxed) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The acquire passes through the same two levels.
template <typename T, cuda::thread_scope Scope = cuda::thread_scope_system>
__device__ __forceinline__ T loadF(T *ptr, cuda::memory_order order) {
  return cuda::atomic_ref<T, Scope>{*ptr}.load(order);
}

__device__ __forceinline__ int pollF(int *flag, cuda::memory_order order) {
  return loadF<int, cuda::thread_scope_device>(flag, order);
}

__global__ void twiceWrappedAcquireWait(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (pollF(flag, orderAcquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// A grid barrier with three counters in turn, as a communication library writes it: the next
// round's counter is set to 0, then the block arrives with a release and polls with an acquire,
// both through wrappers. Called twice: the second call's reset follows the first call's write
// of the round's index, and no poll can pass on that 0 (the poll comes after the block's own
// arrival on the counter, so it reads 1 or more). The wrappers' calls are no condition: the
// arrival runs wherever the poll runs.
template <typename T>
__device__ __forceinline__ T addG(T *ptr, T value, cuda::memory_order order) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>{*ptr}.fetch_add(value, order);
}
template <typename T> __device__ __forceinline__ T loadG(T *ptr, cuda::memory_order order) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>{*ptr}.load(order);
}
struct RotatingBarrierG {
  unsigned count[3];
  unsigned round;
  __device__ void sync(unsigned blocks) {
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned idx = (round + 1) % 3;
      unsigned *c = &count[idx];
      count[(idx + 1) % 3] = 0;
      addG(c, 1u, orderRelease);
      while (loadG(c, orderAcquire) != blocks) {
      }
      round = idx;
    }
    __syncthreads();
  }
};
__device__ RotatingBarrierG barrierG;

__global__ void rotatingBarrierTwice(int *a, int *out) {
  a[blockIdx.x] = 1;
  barrierG.sync(gridDim.x);
  out[blockIdx.x] = a[(blockIdx.x + 1) % gridDim.x];
  barrierG.sync(gridDim.x);
}

// LITMUS: allowed cuda-scope-release-acquire
// The same barrier whose arrival is relaxed: the poll's acquire has no release to read, so a
// block can leave the barrier before another block's write of a[] is visible to it.
template <typename T>
__device__ __forceinline__ T addH(T *ptr, T value, cuda::memory_order order) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>{*ptr}.fetch_add(value, order);
}
template <typename T> __device__ __forceinline__ T loadH(T *ptr, cuda::memory_order order) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>{*ptr}.load(order);
}
struct RotatingBarrierH {
  unsigned count[3];
  unsigned round;
  __device__ void sync(unsigned blocks) {
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned idx = (round + 1) % 3;
      unsigned *c = &count[idx];
      count[(idx + 1) % 3] = 0;
      addH(c, 1u, orderRelaxed);
      while (loadH(c, orderAcquire) != blocks) {
      }
      round = idx;
    }
    __syncthreads();
  }
};
__device__ RotatingBarrierH barrierH;

__global__ void rotatingBarrierRelaxedArrival(int *a, int *out) {
  a[blockIdx.x] = 1;
  barrierH.sync(gridDim.x);
  out[blockIdx.x] = a[(blockIdx.x + 1) % gridDim.x];
  barrierH.sync(gridDim.x);
}

// A communication library's barrier takes one order and maps it to each half: its arrival's
// fence gets the release half (acquire -> relaxed, acq_rel -> release), its wait's load the
// acquire half (release -> relaxed, acq_rel -> acquire), through functions of the order that
// are not constexpr (nccl's releaseOrderOf and acquireOrderOf). Inlining folds them; the AST
// front end must evaluate them with the caller's order.

// LITMUS: allowed cuda-scope-release-acquire
// Relaxed given: the arrival's fence is relaxed (no fence) and the wait's load relaxed.
__device__ __forceinline__ cuda::memory_order releaseHalfI(cuda::memory_order o) {
  return o == cuda::memory_order_acquire ? cuda::memory_order_relaxed
         : o == cuda::memory_order_acq_rel ? cuda::memory_order_release
                                           : o;
}
__device__ __forceinline__ cuda::memory_order acquireHalfI(cuda::memory_order o) {
  return o == cuda::memory_order_release ? cuda::memory_order_relaxed
         : o == cuda::memory_order_acq_rel ? cuda::memory_order_acquire
                                           : o;
}
__device__ __forceinline__ void arriveI(int *flag, cuda::memory_order o) {
  cuda::atomic_thread_fence(releaseHalfI(o), cuda::thread_scope_device);
  cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, cuda::memory_order_relaxed);
}
__device__ __forceinline__ void waitI(int *flag, cuda::memory_order o) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(acquireHalfI(o)) == 0) {
  }
}
__global__ void mappedOrdersRelaxed(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    arriveI(flag, cuda::memory_order_relaxed);
  } else {
    waitI(flag, cuda::memory_order_relaxed);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// acq_rel given: a release fence before the arrival's store, an acquire load in the wait.
__device__ __forceinline__ cuda::memory_order releaseHalfJ(cuda::memory_order o) {
  return o == cuda::memory_order_acquire ? cuda::memory_order_relaxed
         : o == cuda::memory_order_acq_rel ? cuda::memory_order_release
                                           : o;
}
__device__ __forceinline__ cuda::memory_order acquireHalfJ(cuda::memory_order o) {
  return o == cuda::memory_order_release ? cuda::memory_order_relaxed
         : o == cuda::memory_order_acq_rel ? cuda::memory_order_acquire
                                           : o;
}
__device__ __forceinline__ void arriveJ(int *flag, cuda::memory_order o) {
  cuda::atomic_thread_fence(releaseHalfJ(o), cuda::thread_scope_device);
  cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, cuda::memory_order_relaxed);
}
__device__ __forceinline__ void waitJ(int *flag, cuda::memory_order o) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(acquireHalfJ(o)) == 0) {
  }
}
__global__ void mappedOrdersAcqRel(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    arriveJ(flag, cuda::memory_order_acq_rel);
  } else {
    waitJ(flag, cuda::memory_order_acq_rel);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// release given to both sides: the arrival releases, but the wait's load gets the acquire half
// of release, relaxed, and nothing orders the data's read after it.
__device__ __forceinline__ cuda::memory_order releaseHalfK(cuda::memory_order o) {
  return o == cuda::memory_order_acquire ? cuda::memory_order_relaxed
         : o == cuda::memory_order_acq_rel ? cuda::memory_order_release
                                           : o;
}
__device__ __forceinline__ cuda::memory_order acquireHalfK(cuda::memory_order o) {
  return o == cuda::memory_order_release ? cuda::memory_order_relaxed
         : o == cuda::memory_order_acq_rel ? cuda::memory_order_acquire
                                           : o;
}
__device__ __forceinline__ void arriveK(int *flag, cuda::memory_order o) {
  cuda::atomic_thread_fence(releaseHalfK(o), cuda::thread_scope_device);
  cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, cuda::memory_order_relaxed);
}
__device__ __forceinline__ void waitK(int *flag, cuda::memory_order o) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(acquireHalfK(o)) == 0) {
  }
}
__global__ void mappedOrdersReleaseOnly(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    arriveK(flag, cuda::memory_order_release);
  } else {
    waitK(flag, cuda::memory_order_release);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The acquire is a fence in a function -O2 keeps out of line: its call orders the data's read
// after the wait as the fence would in line (the pass reads the callee's operations in a list of
// their own, and the call, in the caller's order, stands for what they order).
__device__ __noinline__ void acquireOutOfLine() { cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device); }

__global__ void relaxedWaitOutOfLineFence(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(orderRelaxed) == 0) {
    }
    acquireOutOfLine();
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same wait, and a function kept out of line that orders nothing (it counts the wakeups):
// its call is no fence, and the data's read may return what it held before the flag.
__device__ __noinline__ void countOutOfLine(int *wakeups) { atomicAdd(wakeups, 1); }

__global__ void relaxedWaitOutOfLineCount(int *data, int *flag, int *out, int *wakeups) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(orderRelaxed) == 0) {
    }
    countOutOfLine(wakeups);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The relaxed wait itself is in a function -O2 keeps out of line (NCCL 2.30's GIN barrier keeps its
// signal-and-wait lambda so): what the caller reads after the call may still be older than the
// flag. The pass reads the callee's operations at the call, in the caller's order.
__device__ __noinline__ void relaxedWaitFor(int *flag) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(orderRelaxed) == 0) {
  }
}

__global__ void relaxedWaitCalledOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    relaxedWaitFor(flag);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same wait out of line with an acquire: the caller's read after the call is ordered.
__device__ __noinline__ void acquireWaitFor(int *flag) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(cuda::memory_order_acquire) == 0) {
  }
}

__global__ void acquireWaitCalledOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    acquireWaitFor(flag);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The data written before an out-of-line relaxed signal: the release side kept out of line.
__device__ __noinline__ void relaxedSignal(int *flag) {
  cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelaxed);
}

__global__ void relaxedSignalCalledOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    relaxedSignal(flag);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The order handed to a load -O2 keeps out of line, whose value the caller spins on: the callee's
// load(ord) is a switch over ord with an acquire and a relaxed path, and this call's constant
// leaves only the relaxed one open; the caller's test of the call tests the read.
__device__ __noinline__ int loadWithOrder(int *flag, cuda::memory_order ord) {
  return cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(ord);
}

__global__ void relaxedOrderPassedOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (loadWithOrder(flag, orderRelaxed) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same load called with an acquire: the path the call leaves open orders the read after it.
__device__ __noinline__ int loadWithOrder2(int *flag, cuda::memory_order ord) {
  return cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(ord);
}

__global__ void acquireOrderPassedOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    while (loadWithOrder2(flag, orderAcquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The release side: an out-of-line signal handed a relaxed order, after the data.
__device__ __noinline__ void signalWithOrder(int *flag, cuda::memory_order ord) {
  cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, ord);
}

__global__ void relaxedOrderSignalledOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    signalWithOrder(flag, orderRelaxed);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same signal handed a release.
__device__ __noinline__ void signalWithOrder2(int *flag, cuda::memory_order ord) {
  cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, ord);
}

__global__ void releaseOrderSignalledOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    signalWithOrder2(flag, orderRelease);
  } else {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A wait handed its order at run time, kept out of line: -O2 threads the load's switch over the
// order into the loop, whose test jumps straight to the relaxed or the acquire load, so the loop
// has an entry per order and no natural loop is left. The thread still reads again until the flag
// is set; this call's relaxed order leaves the caller's read unordered.
__device__ __noinline__ void waitWithOrder(int *flag, cuda::memory_order ord) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(ord) == 0) {
  }
}

__global__ void relaxedOrderWaitedOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    waitWithOrder(flag, orderRelaxed);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same wait handed an acquire.
__device__ __noinline__ void waitWithOrder2(int *flag, cuda::memory_order ord) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(ord) == 0) {
  }
}

__global__ void acquireOrderWaitedOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    waitWithOrder2(flag, orderAcquire);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The order reaches the wait through a lambda's closure (NCCL 2.30's GIN barrier: signalAndWait
// captures the barrier's order by reference, and -O2 keeps the lambda out of line): the lambda
// loads the order from the closure, so its one body holds every order's load. The caller stores
// the order once and hands the closure only to the lambda, which only reads it: the relaxed load
// is the one this call runs.
__device__ __forceinline__ void barrierWithOrder(int *flag, cuda::memory_order ord) {
  auto waitFor = [&]() __attribute__((noinline)) {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(ord) == 0) {
    }
  };
  waitFor();
}

__global__ void relaxedOrderCapturedOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    barrierWithOrder(flag, orderRelaxed);
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The same barrier handed an acquire: the closure's order leaves only the acquire load open (the
// pass reported the relaxed path of the lambda's body before it read the closure).
__device__ __forceinline__ void barrierWithOrder2(int *flag, cuda::memory_order ord) {
  auto waitFor = [&]() __attribute__((noinline)) {
    while (cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.load(ord) == 0) {
    }
  };
  waitFor();
}

__global__ void acquireOrderCapturedOutOfLine(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_device>{*flag}.store(1, orderRelease);
  } else {
    barrierWithOrder2(flag, orderAcquire);
    out[blockIdx.x] = data[threadIdx.x];
  }
}
