// Shared plumbing of the cuda-scope GPU integration cases: GPU check, arguments, launch loop,
// JSON result line, and the message-passing harness (pairing, outcome tally). No bug lives here:
// every case's bug and fix are in its own bug.cu / fixed.cu.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#define HARNESS_CHECK(call)                                                                   \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorName(e_), (int)e_);                                                 \
      exit(2);                                                                                \
    }                                                                                         \
  } while (0)

namespace harness {

// ---------------------------------------------------------------------------------------------
// Host side

// Exits with 77 (the "skipped" code of automake and meson) when no CUDA GPU can be used.
inline void require_gpu(const char* name, const char* variant) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    fprintf(stderr, "%s/%s: no usable CUDA GPU (%s); this test needs one: skipped (exit 77)\n",
            name, variant, e != cudaSuccess ? cudaGetErrorName(e) : "0 devices");
    exit(77);
  }
}

inline long arg_long(int argc, char** argv, int i, long def) {
  return argc > i ? strtol(argv[i], nullptr, 10) : def;
}
inline double arg_double(int argc, char** argv, int i, double def) {
  return argc > i ? strtod(argv[i], nullptr) : def;
}

class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// One JSON object, built key by key; print() writes it as one line.
class Json {
 public:
  Json& num(const char* key, long long v) { return add(key, std::to_string(v)); }
  Json& real(const char* key, double v) {
    char b[64];
    snprintf(b, sizeof b, "%.6g", v);
    return add(key, b);
  }
  Json& str(const char* key, const char* v) { return add(key, quote(v)); }
  Json& obj(const char* key, const Json& v) { return add(key, v.text()); }
  std::string text() const { return "{" + body_ + "}"; }
  void print() const {
    printf("%s\n", text().c_str());
    fflush(stdout);
  }

 private:
  static std::string quote(const char* s) {
    std::string q = "\"";
    for (; *s; ++s) {
      if (*s == '"' || *s == '\\') q += '\\';
      q += *s;
    }
    return q + "\"";
  }
  Json& add(const char* key, const std::string& v) {
    if (!body_.empty()) body_ += ", ";
    body_ += quote(key) + ": " + v;
    return *this;
  }
  std::string body_;
};

// The keys every case prints: case, variant, instances, failures.
inline Json result(const char* name, const char* variant, long long instances, long long failures) {
  Json j;
  j.str("case", name).str("variant", variant).num("instances", instances).num("failures", failures);
  return j;
}

inline void print_device(const char* name, const char* variant) {
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  printf("%s/%s on %s (%d SMs, sm_%d%d)\n", name, variant, p.name, p.multiProcessorCount, p.major,
         p.minor);
}

// Calls launch(i) for i = 0, 1, ... until `launches` calls or `max_seconds` of wall time, whichever
// comes first (the time is checked after a device synchronisation every few launches). Returns
// the number of launches made; *seconds gets the wall time including the final synchronisation.
template <class Launch>
long launch_loop(long launches, double max_seconds, Launch launch, double* seconds) {
  Stopwatch clock;
  const long batch = launches / 16 + 1 < 64 ? launches / 16 + 1 : 64;
  long i = 0;
  while (i < launches) {
    launch(i);
    HARNESS_CHECK(cudaGetLastError());
    ++i;
    if (i % batch == 0) {
      HARNESS_CHECK(cudaDeviceSynchronize());
      if (clock.seconds() > max_seconds) break;
    }
  }
  HARNESS_CHECK(cudaDeviceSynchronize());
  *seconds = clock.seconds();
  return i;
}

// Instantiates `graph`, launches it `replays` times on `s` and checks after each launch that it
// added `per_replay` to *counter (reset before each launch). Returns how many replays missed work.
inline int replay_and_count_missing(cudaGraph_t graph, cudaStream_t s, int* counter, int per_replay,
                                    int replays) {
  cudaGraphExec_t exec;
  HARNESS_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  int missing = 0;
  for (int r = 0; r < replays; ++r) {
    int got = -1;
    HARNESS_CHECK(cudaMemsetAsync(counter, 0, sizeof(int), s));
    HARNESS_CHECK(cudaGraphLaunch(exec, s));
    HARNESS_CHECK(cudaMemcpyAsync(&got, counter, sizeof(int), cudaMemcpyDeviceToHost, s));
    HARNESS_CHECK(cudaStreamSynchronize(s));
    if (got != per_replay) ++missing;
  }
  HARNESS_CHECK(cudaGraphExecDestroy(exec));
  return missing;
}

// ---------------------------------------------------------------------------------------------
// Device side

// Sum of v over the block (blockDim.x == kThreads, a power of two); every thread gets the sum.
template <class T, int kThreads>
__device__ T block_sum(T v) {
  __shared__ T s[kThreads];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  T r = s[0];
  __syncthreads();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Message passing (MP) between blocks, many instances per launch (technique of
// shared/evidence/h100-probe/spin_scope.cu). Every thread is the producer of one instance (its own
// data and flag words) and the consumer of another instance, whose producer sits 1 to 13 blocks
// away; the distance changes with the thread and with each launch (salt). Each word has its own
// 32-byte sector. Instead of clearing memory between launches, launch i publishes the value
// epoch = i + 1: a consumer that sees flag == epoch must then read data == epoch.

constexpr int kSlot = 8;  // ints per instance: 32 bytes

struct Pair {
  int* my_data;    // this thread publishes here...
  int* my_flag;    // ...and raises this flag
  int* peer_data;  // the message this thread receives, from a thread in another block
  int* peer_flag;
};

__device__ inline Pair pair_for_this_thread(int* data, int* flag, unsigned salt) {
  const int t = blockDim.x, n = gridDim.x * t, g = blockIdx.x * t + threadIdx.x;
  const int k = 1 + (threadIdx.x * 7 + salt) % 13;  // producer of the peer: k blocks away
  const int j = (g + k * t) % n;
  return {data + g * kSlot, flag + g * kSlot, data + j * kSlot, flag + j * kSlot};
}

struct Tally {
  unsigned long long stale;     // consumer saw the flag, then read old data
  unsigned long long timeouts;  // consumer never saw the flag within the spin bound
  unsigned long long early;     // consumer's first read (before the spin) already saw the data
};

// Counts this thread's outcome (warp-aggregated, one atomic per warp and counter).
__device__ inline void tally(Tally* t, bool saw_flag, bool data_ok, bool early) {
  const unsigned active = __activemask();
  const unsigned stale = __ballot_sync(active, saw_flag && !data_ok);
  const unsigned timeout = __ballot_sync(active, !saw_flag);
  const unsigned pre = __ballot_sync(active, early);
  if ((threadIdx.x & 31) == __ffs(active) - 1) {
    if (stale) atomicAdd(&t->stale, (unsigned long long)__popc(stale));
    if (timeout) atomicAdd(&t->timeouts, (unsigned long long)__popc(timeout));
    if (pre) atomicAdd(&t->early, (unsigned long long)__popc(pre));
  }
}

using MpKernel = void (*)(int* data, int* flag, Tally* tally, int epoch, unsigned salt, int spin);

// main() of a message-passing case. argv: [launches] [max_seconds] [spin bound].
inline int run_message_passing(const char* name, const char* variant, MpKernel kernel, int argc,
                               char** argv) {
  require_gpu(name, variant);
  const long launches = arg_long(argc, argv, 1, 20000);
  const double max_seconds = arg_double(argc, argv, 2, 12.0);
  const int spin = (int)arg_long(argc, argv, 3, 2000);
  print_device(name, variant);

  // All blocks must be resident at once (a consumer spins for a producer in another block):
  // at most 2 blocks of 512 threads per SM, and no more than the occupancy allows.
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int threads = 512;
  int per_sm = 0;
  HARNESS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  per_sm = per_sm < 2 ? per_sm : 2;
  const int blocks = p.multiProcessorCount * per_sm;
  if (blocks < 14) {
    fprintf(stderr, "%s: needs at least 14 resident blocks, the GPU holds %d\n", name, blocks);
    return 2;
  }
  const long long per_launch = (long long)blocks * threads;
  const size_t bytes = sizeof(int) * kSlot * per_launch;

  int *data, *flag;
  Tally* t;
  HARNESS_CHECK(cudaMalloc(&data, bytes));
  HARNESS_CHECK(cudaMalloc(&flag, bytes));
  HARNESS_CHECK(cudaMalloc(&t, sizeof(Tally)));
  HARNESS_CHECK(cudaMemset(data, 0, bytes));
  HARNESS_CHECK(cudaMemset(flag, 0, bytes));
  HARNESS_CHECK(cudaMemset(t, 0, sizeof(Tally)));

  double seconds = 0;
  const long done = launch_loop(
      launches, max_seconds,
      [&](long i) { kernel<<<blocks, threads>>>(data, flag, t, (int)(i + 1), (unsigned)(i * 5), spin); },
      &seconds);
  Tally h;
  HARNESS_CHECK(cudaMemcpy(&h, t, sizeof h, cudaMemcpyDeviceToHost));
  HARNESS_CHECK(cudaFree(data));
  HARNESS_CHECK(cudaFree(flag));
  HARNESS_CHECK(cudaFree(t));

  const long long instances = done * per_launch;
  printf("%lld instances in %.2f s: stale %llu, timeouts %llu, early %llu\n", instances, seconds,
         h.stale, h.timeouts, h.early);
  result(name, variant, instances, (long long)(h.stale + h.timeouts))
      .num("stale", (long long)h.stale)
      .num("timeouts", (long long)h.timeouts)
      .num("early", (long long)h.early)
      .num("launches", done)
      .num("blocks", blocks)
      .num("threads", threads)
      .num("spin", spin)
      .real("seconds", seconds)
      .print();
  return 0;
}

}  // namespace harness
