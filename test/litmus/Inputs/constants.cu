// Conditions the compiler knows: a template's if (Traits::value), if constexpr, a sizeof test.
// Only the arm that runs is code: the device IR has no trace of the other, and neither may the
// rules (a relaxed store in the arm an instantiation never takes publishes nothing).
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

struct Ordered {
  static constexpr bool value = true;
};
struct Unordered {
  static constexpr bool value = false;
};

// LITMUS: forbidden
// Instantiated with Ordered: the relaxed arm is dead.
template <class Traits>
__global__ void publishByTrait(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    if (Traits::value)
      Dev(*flag).store(1, release);
    else
      Dev(*flag).store(1, relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
template __global__ void publishByTrait<Ordered>(int *, int *, int *);

// LITMUS: allowed cuda-scope-release-acquire
// Instantiated with Unordered: only the relaxed arm runs.
template <class Traits>
__global__ void publishByWeakTrait(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    if (!Traits::value)
      Dev(*flag).store(1, relaxed);
    else
      Dev(*flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*flag).load(acquire) != 1) {
    }
    *out = *data;
  }
}
template __global__ void publishByWeakTrait<Unordered>(int *, int *, int *);

// LITMUS: forbidden
// if constexpr and a sizeof test take the fenced path; the unfenced one is dead.
template <int N>
__global__ void fencedByConstant(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    if constexpr (N > 0) {
      __threadfence();
      Dev(*flag).store(1, relaxed);
    } else {
      Dev(*flag).store(1, relaxed);
    }
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (Dev(*flag).load(relaxed) != 1) {
    }
    if (sizeof(int) == 4)
      __threadfence();
    else
      *out = 0;
    *out = *data;
  }
}
template __global__ void fencedByConstant<1>(int *, int *, int *);

// A library's flag enum, combined by a constexpr operator the caller's constant argument decides
// (NCCL's `fence & ncclGinFenceLevel::Get`): the arm the argument does not take is dead code. Each
// test has its own helper, since a finding is made in the helper.
enum FenceLevel : unsigned { NoFence = 0, PutFence = 1, GetFence = 2 };
__device__ constexpr FenceLevel operator&(FenceLevel a, FenceLevel b) {
  return static_cast<FenceLevel>(static_cast<unsigned>(a) & static_cast<unsigned>(b));
}

// LITMUS: allowed cuda-scope-release-acquire
// Called with NoFence: the acquire fence's arm never runs, and the data's read may be stale.
__device__ __forceinline__ void waitThenMaybeFenceA(int *flag, FenceLevel level) {
  while (Dev(*flag).load(relaxed) != 1) {
  }
  if (level & GetFence)
    cuda::atomic_thread_fence(acquire, cuda::thread_scope_device);
}

__global__ void waitWithoutFenceLevel(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    Dev(*flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    waitThenMaybeFenceA(flag, NoFence);
    *out = *data;
  }
}

// LITMUS: forbidden
// Called with GetFence: the fence runs after the wait, an acquire pattern.
__device__ __forceinline__ void waitThenMaybeFenceB(int *flag, FenceLevel level) {
  while (Dev(*flag).load(relaxed) != 1) {
  }
  if (level & GetFence)
    cuda::atomic_thread_fence(acquire, cuda::thread_scope_device);
}

__global__ void waitWithFenceLevel(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    Dev(*flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    waitThenMaybeFenceB(flag, GetFence);
    *out = *data;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A constant cast to a narrower type keeps its low bits: (unsigned char)256 is 0, so the fence's
// arm never runs, as -O2 folds it.
__device__ __forceinline__ void waitThenMaybeFenceC(int *flag, unsigned level) {
  while (Dev(*flag).load(relaxed) != 1) {
  }
  if (static_cast<unsigned char>(level))
    cuda::atomic_thread_fence(acquire, cuda::thread_scope_device);
}

__global__ void waitWithTruncatedLevel(int *data, int *flag, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 1;
    Dev(*flag).store(1, release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    waitThenMaybeFenceC(flag, 256);
    *out = *data;
  }
}
