// A library's ordered access helpers: one switch over the order, and each caller passes a constant.
// The cases no caller selects run nowhere: once the calls are inlined, the optimizer folds the
// switch and removes them, so their mutants leave the program unchanged (the same LLVM IR at -O2).
enum class Order { relaxed, release, acquire };

__device__ inline void store(unsigned *p, unsigned v, Order o) {
  switch (o) {
  case Order::relaxed: asm volatile("st.relaxed.gpu.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); break;
  case Order::release: asm volatile("st.release.gpu.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); break;
  default: break;
  }
}

__device__ inline unsigned load(const unsigned *p, Order o) {
  unsigned v = 0;
  switch (o) {
  case Order::relaxed: asm volatile("ld.relaxed.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); break;
  case Order::acquire: asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); break;
  default: break;
  }
  return v;
}

__global__ void handoff(unsigned *data, unsigned *flag, unsigned *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    store(flag, 1, Order::release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (load(flag, Order::acquire) == 0) {
    }
    out[0] = data[0];
  }
}
