// Peers reached through one flat window: every GPU's buffer is mapped at the same base, one
// stride apart, and a peer's address is the base moved by the peer's stride. A collective
// library computes that address through an integer (the pointer's high word bumped in a union,
// or the pointer cast to an integer, added to and cast back), which moves the address but keeps
// the object: every peer's slot is the window, as every entry of an array of peer pointers is
// that array (peers.cu). Thread t of a block signals peer t's inbox slot for this rank, then
// waits on its own slot for peer t; before signalling, every thread wrote its part of the peer's
// buffer, and after the wait it reads what the peers wrote into its own.
#include <cstdint>

struct Window {
  char *base;        // this GPU's view of the flat window of buffers
  char *signals;     // and of the flat window of inboxes
  unsigned stride4G; // how far apart two peers' windows are, in units of 4 GiB
  int rank;
  int nRanks;
  unsigned epoch;
  float *out;
};

// The pointer's high word moved by delta, through a union.
__device__ __forceinline__ char *add4G(char *base, int delta) {
  union {
    unsigned u32[2];
    char *tmp;
  };
  tmp = base;
  u32[1] += delta;
  return tmp;
}

// The same move through an integer and back.
__device__ __forceinline__ char *addHigh(char *base, int delta) {
  return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(base) + (uint64_t(unsigned(delta)) << 32));
}

__device__ __forceinline__ unsigned *inbox(const Window &w, int owner, int peer) {
  return reinterpret_cast<unsigned *>(add4G(w.signals, owner * w.stride4G)) + peer;
}

__device__ __forceinline__ float *buffer(const Window &w, int owner) {
  return reinterpret_cast<float *>(add4G(w.base, owner * w.stride4G));
}

#define ST_RELEASE(p, v) asm volatile("st.global.release.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define ST_RELAXED(p, v) asm volatile("st.global.relaxed.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
#define LD_ACQUIRE(v, p) asm volatile("ld.global.acquire.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")
#define LD_RELAXED(v, p) asm volatile("ld.global.relaxed.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")

// LITMUS: allowed cuda-scope-release-acquire
// The signal is relaxed and no fence comes before it: the peer can see the epoch and still read
// its buffer as it was before this GPU wrote it.
__global__ void windowSignalRelaxed(Window w) {
  int t = threadIdx.x;
  for (int p = 0; p < w.nRanks; ++p)
    buffer(w, p)[w.rank * blockDim.x + t] = 1.0f;
  __syncthreads();
  if (t < w.nRanks) {
    ST_RELAXED(inbox(w, t, w.rank), w.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, inbox(w, w.rank, t));
    } while (seen != w.epoch);
  }
  __syncthreads();
  w.out[t] = buffer(w, w.rank)[((w.rank + 1) % w.nRanks) * blockDim.x + t];
}

// LITMUS: allowed cuda-scope-release-acquire
// The wait is relaxed and no fence follows it.
__global__ void windowWaitRelaxed(Window w) {
  int t = threadIdx.x;
  for (int p = 0; p < w.nRanks; ++p)
    buffer(w, p)[w.rank * blockDim.x + t] = 1.0f;
  __syncthreads();
  if (t < w.nRanks) {
    ST_RELEASE(inbox(w, t, w.rank), w.epoch);
    unsigned seen;
    do {
      LD_RELAXED(seen, inbox(w, w.rank, t));
    } while (seen != w.epoch);
  }
  __syncthreads();
  w.out[t] = buffer(w, w.rank)[((w.rank + 1) % w.nRanks) * blockDim.x + t];
}

// LITMUS: forbidden
// A release signal and an acquire wait, with the block barriers that extend them to the block.
__global__ void windowOrdered(Window w) {
  int t = threadIdx.x;
  for (int p = 0; p < w.nRanks; ++p)
    buffer(w, p)[w.rank * blockDim.x + t] = 1.0f;
  __syncthreads();
  if (t < w.nRanks) {
    ST_RELEASE(inbox(w, t, w.rank), w.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, inbox(w, w.rank, t));
    } while (seen != w.epoch);
  }
  __syncthreads();
  w.out[t] = buffer(w, w.rank)[((w.rank + 1) % w.nRanks) * blockDim.x + t];
}

// LITMUS: allowed cuda-scope-release-acquire
// The address moved through an integer and back: the signal is relaxed.
__global__ void windowCastSignalRelaxed(Window w) {
  int t = threadIdx.x;
  for (int p = 0; p < w.nRanks; ++p)
    reinterpret_cast<float *>(addHigh(w.base, p * w.stride4G))[w.rank * blockDim.x + t] = 1.0f;
  __syncthreads();
  if (t < w.nRanks) {
    ST_RELAXED(reinterpret_cast<unsigned *>(addHigh(w.signals, t * w.stride4G)) + w.rank, w.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, reinterpret_cast<unsigned *>(addHigh(w.signals, w.rank * w.stride4G)) + t);
    } while (seen != w.epoch);
  }
  __syncthreads();
  w.out[t] = reinterpret_cast<float *>(addHigh(w.base, w.rank * w.stride4G))[t];
}

// LITMUS: forbidden
// The same through an integer, ordered.
__global__ void windowCastOrdered(Window w) {
  int t = threadIdx.x;
  for (int p = 0; p < w.nRanks; ++p)
    reinterpret_cast<float *>(addHigh(w.base, p * w.stride4G))[w.rank * blockDim.x + t] = 1.0f;
  __syncthreads();
  if (t < w.nRanks) {
    ST_RELEASE(reinterpret_cast<unsigned *>(addHigh(w.signals, t * w.stride4G)) + w.rank, w.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, reinterpret_cast<unsigned *>(addHigh(w.signals, w.rank * w.stride4G)) + t);
    } while (seen != w.epoch);
  }
  __syncthreads();
  w.out[t] = reinterpret_cast<float *>(addHigh(w.base, w.rank * w.stride4G))[t];
}

// Which window a helper returns is decided at compile time: the branch the compiler folds away
// is no way into the address.
template <bool Flat>
__device__ __forceinline__ unsigned *inboxOf(const Window &w, int owner, int peer) {
  if (Flat)
    return inbox(w, owner, peer);
  else
    return nullptr;
}

// LITMUS: allowed cuda-scope-release-acquire
// The signal is relaxed.
__global__ void windowChosenSignalRelaxed(Window w) {
  int t = threadIdx.x;
  for (int p = 0; p < w.nRanks; ++p)
    buffer(w, p)[w.rank * blockDim.x + t] = 1.0f;
  __syncthreads();
  if (t < w.nRanks) {
    ST_RELAXED(inboxOf<true>(w, t, w.rank), w.epoch);
    unsigned seen;
    do {
      LD_ACQUIRE(seen, inboxOf<true>(w, w.rank, t));
    } while (seen != w.epoch);
  }
  __syncthreads();
  w.out[t] = buffer(w, w.rank)[((w.rank + 1) % w.nRanks) * blockDim.x + t];
}
