// Containers built as libraries build them: a lambda handed to a function that is not inlined
// (the lambda reads the container through its captures, by reference or through the captured
// 'this'), a bit set read through the proxy its subscript returns, values written with placement
// new, and an insert retried while a count of the entries stays below the capacity. What a
// message needs is the same as in mp.cu: data written before a release of the flag, and read
// after an acquire of it. The front ends must see through the library's shape to the flag and
// the data.

#include <new>

template <typename F> __device__ __noinline__ void runOnce(F &&body) { body(); }

// LITMUS: allowed cuda-scope-release-acquire
// The insert runs in a lambda handed to a function that is not inlined; the lambda reaches the
// slot and the value through its captures by reference. The bit's read has no fence after it.
__global__ void closureNoAcquire(int *occupied, int *values, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = (t * 7) % n;
  runOnce([&]() {
    if (*(volatile int *)&occupied[slot]) {
      out[t] = values[slot];
    } else {
      values[slot] = t;
      __threadfence();
      atomicExch(&occupied[slot], 1);
    }
  });
}

// LITMUS: forbidden
// The same with a fence after the bit's read.
__global__ void closureOrdered(int *occupied, int *values, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = (t * 7) % n;
  runOnce([&]() {
    if (*(volatile int *)&occupied[slot]) {
      __threadfence();
      out[t] = values[slot];
    } else {
      values[slot] = t;
      __threadfence();
      atomicExch(&occupied[slot], 1);
    }
  });
}

// LITMUS: allowed cuda-scope-release-acquire
// A member function's lambda, which reaches the table through the captured 'this'; the table is
// the kernel's argument. The bit's read has no fence after it.
struct Table {
  int *occupied;
  int *values;
  __device__ void insert(int t, int slot, int *out) {
    runOnce([&]() {
      if (*(volatile int *)&occupied[slot]) {
        out[t] = values[slot];
      } else {
        values[slot] = t;
        __threadfence();
        atomicExch(&occupied[slot], 1);
      }
    });
  }
};
__global__ void closureMemberNoAcquire(Table table, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  table.insert(t, (t * 7) % n, out);
}

// LITMUS: allowed cuda-scope-release-acquire
// A bit set whose subscript returns a proxy made from the word's address; the proxy reads the
// word through an atomic reference it makes on it, and the value is written with placement new.
// The bit's read has no fence after it.
struct ProxyBits {
  unsigned *blocks;
  struct Word {
    unsigned *at;
    __device__ explicit Word(unsigned &w) : at(&w) {}
    __device__ unsigned load() const { return *(volatile unsigned *)at; }
    __device__ unsigned fetchOr(unsigned m) {
      __threadfence();
      unsigned r = atomicOr(at, m);
      __threadfence();
      return r;
    }
  };
  struct reference {
    unsigned *block;
    int bit;
    __device__ reference(unsigned *b, int n) : block(b), bit(n) {}
    __device__ operator bool() const { return (Word(*block).load() >> bit) & 1u; }
    __device__ reference &operator=(bool) {
      Word w(*block);
      w.fetchOr(1u << bit);
      return *this;
    }
  };
  __device__ reference operator[](int n) const { return reference(blocks + n / 32, n % 32); }
};
struct ProxySet {
  ProxyBits occupied;
  int *values;
  __device__ bool isOccupied(int n) const { return occupied[n]; }
};
__global__ void proxyNoAcquire(ProxySet s, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = (t * 7) % n;
  if (s.isOccupied(slot)) {
    out[t] = s.values[slot];
  } else {
    ::new (static_cast<void *>(&s.values[slot])) int(t);
    s.occupied[slot] = true;
  }
}

// LITMUS: forbidden
// The same with a fence after the bit's read: the proxy's own read is ordered before the value's.
struct FencedBits {
  unsigned *blocks;
  struct reference {
    unsigned *block;
    int bit;
    __device__ reference(unsigned *b, int n) : block(b), bit(n) {}
    __device__ operator bool() const {
      unsigned w = *(volatile unsigned *)block;
      __threadfence();
      return (w >> bit) & 1u;
    }
    __device__ reference &operator=(bool) {
      __threadfence();
      atomicOr(block, 1u << bit);
      return *this;
    }
  };
  __device__ reference operator[](int n) const { return reference(blocks + n / 32, n % 32); }
};
__global__ void proxyOrdered(FencedBits occupied, int *values, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = (t * 7) % n;
  if (occupied[slot]) {
    out[t] = values[slot];
  } else {
    ::new (static_cast<void *>(&values[slot])) int(t);
    occupied[slot] = true;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// An insert retried while the table is not full: each pass polls the count of entries (bumped
// after each insert), then reads the slot's bit and, if set, its value. The passes run on the
// counts below the capacity, the count read before the inserting thread bumped it among them: the
// count carries nothing of the value to the pass. The bit's read is fenced before it, not after.
__device__ int loadFencedBefore(int *p) {
  __threadfence();
  return *(volatile int *)p;
}
__global__ void countedInsertNoAcquire(int *count, int *occupied, int *values, const int *keys, int n,
                                       int capacity) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[t];
  int slot = (key * 2654435761u) % n;
  int status = 0;
  while (true) {
    if (status != 0 || loadFencedBefore(count) >= capacity)
      break;
    if (loadFencedBefore(&occupied[slot])) {
      status = values[slot] == key ? 2 : 0;
      slot = (slot + 1) % n;
    } else if (atomicCAS(&occupied[slot], 0, 2) == 0) {
      values[slot] = key;
      __threadfence();
      atomicAdd(count, 1);
      atomicExch(&occupied[slot], 1);
      status = 1;
    }
  }
}

// LITMUS: forbidden
// The same with the bit's read fenced after it.
__device__ int loadFencedAfter(int *p) {
  int v = *(volatile int *)p;
  __threadfence();
  return v;
}
__global__ void countedInsertOrdered(int *count, int *occupied, int *values, const int *keys, int n, int capacity) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[t];
  int slot = (key * 2654435761u) % n;
  int status = 0;
  while (true) {
    if (status != 0 || loadFencedAfter(count) >= capacity)
      break;
    if (loadFencedAfter(&occupied[slot])) {
      status = values[slot] == key ? 2 : 0;
      slot = (slot + 1) % n;
    } else if (atomicCAS(&occupied[slot], 0, 2) == 0) {
      values[slot] = key;
      __threadfence();
      atomicAdd(count, 1);
      atomicExch(&occupied[slot], 1);
      status = 1;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The slot is a hash of the thread's key, computed by a helper with branches: two threads with
// equal keys meet at one slot, so the slot is no thread's own whatever index the key was read
// at. The bit's read has no fence after it.
__device__ unsigned slotOf(unsigned key, unsigned n) {
  if (n & (n - 1))
    return key % n;
  return (key * 2654435761u) & (n - 1);
}
__global__ void hashedSlotNoAcquire(int *occupied, int *values, const int *keys, int *out, unsigned n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned slot = slotOf(keys[t], n);
  if (*(volatile int *)&occupied[slot]) {
    out[t] = values[slot];
  } else {
    values[slot] = keys[t];
    __threadfence();
    atomicExch(&occupied[slot], 1);
  }
}

// LITMUS: forbidden
// The same with a fence after the bit's read.
__device__ unsigned slotOfFenced(unsigned key, unsigned n) {
  if (n & (n - 1))
    return key % n;
  return (key * 2654435761u) & (n - 1);
}
__global__ void hashedSlotOrdered(int *occupied, int *values, const int *keys, int *out, unsigned n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned slot = slotOfFenced(keys[t], n);
  if (*(volatile int *)&occupied[slot]) {
    __threadfence();
    out[t] = values[slot];
  } else {
    values[slot] = keys[t];
    __threadfence();
    atomicExch(&occupied[slot], 1);
  }
}

// A launcher as CUB's for_each builds one: the kernel takes the functor by value and copies it
// into its own agent object (a memcpy from the kernel's argument), and each of its two paths (a
// full tile and a partial one) hands a closure over the agent's copy to one function that is not
// inlined. The functor's pointers are the kernel argument's, reached through the copy, the two
// closures and their captures: one table, in global memory.
template <typename F> struct Agent {
  long first;
  F op;
};
template <typename G> __device__ __noinline__ void convergent(G &&body) { body(); }

// LITMUS: allowed cuda-scope-release-acquire
// A slot is taken with a relaxed fetch-or whose fence after it is missing, so the link read after
// it may be older than the one the last holder wrote before its unlock.
struct LinkInsertNoAcquire {
  unsigned *locks;
  int *next;
  int *out;
  __device__ void operator()(long i) const {
    unsigned slot = unsigned(i % 61);
    __threadfence();
    unsigned old = atomicOr(&locks[slot], 1u);
    if (!(old & 1u)) {
      out[i] = next[slot];
      next[slot] = int(i);
      __threadfence();
      atomicAnd(&locks[slot], ~1u);
    }
  }
};
template <typename F>
__global__ void forEachCopiedNoAcquire(F op, long n) {
  long base = long(blockIdx.x) * 256;
  Agent<F> agent{base, op};
  if (n - base >= 256) {
    long i = base + threadIdx.x;
    convergent([&]() { agent.op(i); });
  } else if (base + threadIdx.x < n) {
    long i = base + threadIdx.x;
    convergent([&]() { agent.op(i); });
  }
}
template __global__ void forEachCopiedNoAcquire<LinkInsertNoAcquire>(LinkInsertNoAcquire, long);

// LITMUS: forbidden
// Its fixed twin: a fence follows the fetch-or.
struct LinkInsertOrdered {
  unsigned *locks;
  int *next;
  int *out;
  __device__ void operator()(long i) const {
    unsigned slot = unsigned(i % 61);
    __threadfence();
    unsigned old = atomicOr(&locks[slot], 1u);
    __threadfence();
    if (!(old & 1u)) {
      out[i] = next[slot];
      next[slot] = int(i);
      __threadfence();
      atomicAnd(&locks[slot], ~1u);
    }
  }
};
template <typename F>
__global__ void forEachCopiedOrdered(F op, long n) {
  long base = long(blockIdx.x) * 256;
  Agent<F> agent{base, op};
  if (n - base >= 256) {
    long i = base + threadIdx.x;
    convergent([&]() { agent.op(i); });
  } else if (base + threadIdx.x < n) {
    long i = base + threadIdx.x;
    convergent([&]() { agent.op(i); });
  }
}
template __global__ void forEachCopiedOrdered<LinkInsertOrdered>(LinkInsertOrdered, long);

// A lock built as stdgpu builds its mutex array: a lock is a proxy that keeps, as a field, a copy
// of the bit proxy that the bit set's subscript returns; the bit proxy keeps the word's address
// its constructor was given; taking the lock sets the bit through an atomic reference whose
// fetch-or keeps the old word in a local and returns it, and the lock is taken when the bit was
// clear. The front ends must follow the copies to the word and the returned value to its test.

// LITMUS: allowed cuda-scope-release-acquire
// The fetch-or fences before it only: the chain read under the lock may be older than the last
// holder's write before its unlock.
struct WordRef {
  unsigned *v;
  __device__ explicit WordRef(unsigned &o) : v(&o) {}
  __device__ unsigned fetchOr(unsigned a) {
    __threadfence();
    unsigned r = atomicOr(v, a);
    return r;
  }
  __device__ unsigned fetchAnd(unsigned a) {
    __threadfence();
    unsigned r = atomicAnd(v, a);
    return r;
  }
};
struct BitRef {
  unsigned *block;
  int n;
  __device__ BitRef(unsigned *b, int k) : block(b), n(k) {}
  __device__ static bool bitOf(unsigned bits, int n) { return (bits & (1u << n)) != 0; }
  __device__ bool operator=(bool x) {
    unsigned old;
    WordRef r(*block);
    if (x)
      old = r.fetchOr(1u << n);
    else
      old = r.fetchAnd(~(1u << n));
    return bitOf(old, n);
  }
};
struct SlotLock {
  BitRef ref;
  __device__ explicit SlotLock(const BitRef &r) : ref(r) {}
  __device__ bool tryLock() { return !(ref = true); }
  __device__ void unlock() { ref = false; }
};
struct SlotLocks {
  unsigned *blocks;
  __device__ BitRef bit(int e) { return BitRef(blocks + e / 32, e % 32); }
  __device__ SlotLock operator[](int e) { return SlotLock(bit(e)); }
};
__global__ void proxyLockNoAcquire(SlotLocks locks, int *offsets, int *out) {
  long i = blockIdx.x * blockDim.x + threadIdx.x;
  int e = int(i % 61);
  if (locks[e].tryLock()) {
    out[i] = offsets[e];
    offsets[e] = int(i);
    locks[e].unlock();
  }
}

// LITMUS: forbidden
// Its fixed twin: the fetch-or fences after it too.
struct WordRefFenced {
  unsigned *v;
  __device__ explicit WordRefFenced(unsigned &o) : v(&o) {}
  __device__ unsigned fetchOr(unsigned a) {
    __threadfence();
    unsigned r = atomicOr(v, a);
    __threadfence();
    return r;
  }
  __device__ unsigned fetchAnd(unsigned a) {
    __threadfence();
    unsigned r = atomicAnd(v, a);
    __threadfence();
    return r;
  }
};
struct BitRefFenced {
  unsigned *block;
  int n;
  __device__ BitRefFenced(unsigned *b, int k) : block(b), n(k) {}
  __device__ static bool bitOf(unsigned bits, int n) { return (bits & (1u << n)) != 0; }
  __device__ bool operator=(bool x) {
    unsigned old;
    WordRefFenced r(*block);
    if (x)
      old = r.fetchOr(1u << n);
    else
      old = r.fetchAnd(~(1u << n));
    return bitOf(old, n);
  }
};
struct SlotLockFenced {
  BitRefFenced ref;
  __device__ explicit SlotLockFenced(const BitRefFenced &r) : ref(r) {}
  __device__ bool tryLock() { return !(ref = true); }
  __device__ void unlock() { ref = false; }
};
struct SlotLocksFenced {
  unsigned *blocks;
  __device__ BitRefFenced bit(int e) { return BitRefFenced(blocks + e / 32, e % 32); }
  __device__ SlotLockFenced operator[](int e) { return SlotLockFenced(bit(e)); }
};
__global__ void proxyLockOrdered(SlotLocksFenced locks, int *offsets, int *out) {
  long i = blockIdx.x * blockDim.x + threadIdx.x;
  int e = int(i % 61);
  if (locks[e].tryLock()) {
    out[i] = offsets[e];
    offsets[e] = int(i);
    locks[e].unlock();
  }
}
