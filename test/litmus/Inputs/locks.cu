// Locks: taking a lock is an acquire pattern on its word, releasing it a release pattern; the
// data of the critical section travels from one holder to the next through the lock word.
#include <cuda/atomic>

using Dev = cuda::atomic_ref<int, cuda::thread_scope_device>;
constexpr auto relaxed = cuda::memory_order_relaxed;
constexpr auto release = cuda::memory_order_release;
constexpr auto acquire = cuda::memory_order_acquire;

// LITMUS: forbidden
// The legacy spin lock: atomicCAS, a fence after taking it and before handing it on.
__global__ void spinLockFenced(int *lock, int *total) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *total += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Without the fences the next holder can read the old total, and the update can be lost.
__global__ void spinLockRelaxed(int *lock, int *total) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *total += 1;
    atomicExch(lock, 0);
  }
}

// LITMUS: forbidden
// libcu++: an acquire exchange takes it, a release store hands it on.
__global__ void libcuLock(int *lock, int *total) {
  if (threadIdx.x == 0) {
    while (Dev(*lock).exchange(1, acquire) != 0) {
    }
    *total += 1;
    Dev(*lock).store(0, release);
  }
}

// LITMUS: forbidden
// A ticket lock: the ticket counter is relaxed (it carries no data); the acquire on the word that
// says whose turn it is orders the critical section, and its release store hands it on.
__global__ void ticketLock(int *next, int *serving, int *total) {
  if (threadIdx.x == 0) {
    int mine = Dev(*next).fetch_add(1, relaxed);
    while (Dev(*serving).load(acquire) != mine) {
    }
    *total += 1;
    Dev(*serving).store(mine + 1, release);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A lock-free hash insert: the key is claimed with a relaxed CAS, then the value written; a thread
// that finds the key reads the value with no acquire (and the writer publishes before writing).
__global__ void hashInsert(int *keys, int *values, const int *in, int *out, int capacity) {
  int key = in[blockIdx.x * blockDim.x + threadIdx.x];
  int slot = key % capacity;
  while (true) {
    int prev = atomicCAS(&keys[slot], -1, key);
    if (prev == -1) {
      values[slot] = key * 2;
      return;
    }
    if (prev == key) {
      out[blockIdx.x * blockDim.x + threadIdx.x] = values[slot];
      return;
    }
    slot = (slot + 1) % capacity;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Dat3M's spin lock with a relaxed compare-exchange and a relaxed exchange, no fences.
__global__ void casExchLockRelaxed(int *lock, int *total) {
  if (threadIdx.x == 0) {
    int expected = 0;
    while (!Dev(*lock).compare_exchange_strong(expected, 1, relaxed)) {
      expected = 0;
    }
    *total += 1;
    Dev(*lock).exchange(0, relaxed);
  }
}

// LITMUS: forbidden
// The same with acquire and release.
__global__ void casExchLockOrdered(int *lock, int *total) {
  if (threadIdx.x == 0) {
    int expected = 0;
    while (!Dev(*lock).compare_exchange_strong(expected, 1, acquire, relaxed)) {
      expected = 0;
    }
    *total += 1;
    Dev(*lock).exchange(0, release);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Dat3M's spin lock as a litmus test: one relaxed CAS, and the section only if it took the lock;
// released by a relaxed exchange. No fences: the next holder can read the old value.
__global__ void slOnce(int *lock, int *x, int *out) {
  if (threadIdx.x == 0) {
    if (atomicCAS(lock, 0, 1) == 0) {
      out[blockIdx.x] = *x;
      *x = blockIdx.x + 1;
      atomicExch(lock, 0);
    }
  }
}
// LITMUS: allowed cuda-scope-release-acquire
// The same with two threads, one writing and one reading under the lock. -O2 merges the two
// releases into one exchange after both sections (unless told not to sink common instructions).
__global__ void slTwoThreads(int *lock, int *x, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (atomicCAS(lock, 0, 1) == 0) {
      *x = 1;
      atomicExch(lock, 0);
    }
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    if (atomicCAS(lock, 0, 1) == 0) {
      out[0] = *x;
      atomicExch(lock, 0);
    }
  }
}
// LITMUS: allowed cuda-scope-release-acquire
// The same through libcu++, relaxed.
__global__ void slRef(int *lock, int *x, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int e = 0;
    if (Dev(*lock).compare_exchange_strong(e, 1, relaxed)) {
      *x = 1;
      Dev(*lock).exchange(0, relaxed);
    }
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    int e = 0;
    if (Dev(*lock).compare_exchange_strong(e, 1, relaxed)) {
      out[0] = *x;
      Dev(*lock).exchange(0, relaxed);
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A warp-wide lock: lane 1 takes it with a relaxed atomicOr, the warp learns the outcome through a
// shuffle; the node is read and written under it; no fence on either side.
__global__ void warpLockNoFence(unsigned *lock, unsigned *node, unsigned *out) {
  unsigned lane = threadIdx.x % 32;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr(lock, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  unsigned v = node[lane];
  node[lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  if (lane == 1)
    atomicAnd(lock, 0x7fffffffu);
}

// LITMUS: allowed cuda-scope-release-acquire
// The same with a fence after taking the lock and before releasing it, in every lane: lane 1's
// fence and unlock release only lane 1's own write of the node. The other lanes' writes reach the
// next holder only through a __syncwarp() before the unlock (PTX: each lane's fence.sc is ordered
// against lane 1's only by the Fence-SC order, which need not put theirs first).
__global__ void warpLockFenced(unsigned *lock, unsigned *node, unsigned *out) {
  unsigned lane = threadIdx.x % 32;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr(lock, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  __threadfence();
  unsigned v = node[lane];
  node[lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  __threadfence();
  if (lane == 1)
    atomicAnd(lock, 0x7fffffffu);
}

// LITMUS: forbidden
// The same with __syncwarp() between the lanes' writes and lane 1's unlock.
__global__ void warpLockFencedSynced(unsigned *lock, unsigned *node, unsigned *out) {
  unsigned lane = threadIdx.x % 32;
  bool locked = true;
  while (locked) {
    if (lane == 1)
      locked = (atomicOr(lock, 0x80000000u) & 0x80000000u) != 0;
    locked = __shfl_sync(0xffffffffu, locked, 1);
  }
  __threadfence();
  unsigned v = node[lane];
  node[lane] = v + 1;
  out[blockIdx.x * 32 + lane] = v;
  __syncwarp();
  __threadfence();
  if (lane == 1)
    atomicAnd(lock, 0x7fffffffu);
}

// LITMUS: allowed cuda-scope-release-acquire
// A section that only writes (ScoR's spin locks): with no fence on either side, the next holder's
// write can be ordered before this one's, so the value left is not the last holder's. Two plain
// writes of one location that causality does not order are a data race.
__global__ void writeOnlySectionRelaxed(int *lock, int *last) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *last = blockIdx.x;
    atomicExch(lock, 0);
  }
}

// LITMUS: forbidden
// The same, fenced after taking the lock and before handing it on.
__global__ void writeOnlySectionFenced(int *lock, int *last) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *last = blockIdx.x;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Only the acquire side missing: this holder's write can still be ordered before the previous one's.
__global__ void writeOnlySectionNoAcquire(int *lock, int *last) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *last = blockIdx.x;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Only the release side missing: the next holder's write can be ordered before this one's.
__global__ void writeOnlySectionNoRelease(int *lock, int *last) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *last = blockIdx.x;
    atomicExch(lock, 0);
  }
}

// LITMUS: forbidden
// libcu++ acquire and release around a section that only writes.
__global__ void writeOnlySectionLibcu(int *lock, int *last) {
  if (threadIdx.x == 0) {
    while (Dev(*lock).exchange(1, acquire) != 0) {
    }
    *last = blockIdx.x;
    Dev(*lock).store(0, release);
  }
}

// LITMUS: forbidden
// Each holder writes only its own slot: no other thread writes what it writes, so no order
// between holders is needed for those writes (the count is the lock's own business).
__global__ void writeOnlyOwnSlot(int *lock, int *slots) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    slots[blockIdx.x * blockDim.x + threadIdx.x] = 1;
    atomicExch(lock, 0);
  }
}

// LITMUS: forbidden
// Each thread writes only slots it claimed from a counter (cdpAdvancedQuicksort's ring buffer, the
// shape written here): a slot written before the flag is published and one written after it is
// received are never the same location, so no two writes race.
__global__ void claimedSlotWrites(unsigned *head, int *slots, int *flag) {
  if (threadIdx.x == 0) {
    unsigned i = atomicAdd(head, 1u);
    slots[i] = 1;
    if (blockIdx.x == 0) {
      Dev(*flag).store(1, relaxed);
    } else {
      while (Dev(*flag).load(relaxed) == 0) {
      }
      unsigned j = atomicAdd(head, 1u);
      slots[j] = 2;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A semaphore's count guarded by a lock word beside it, the lock taken by a relaxed CAS and given
// back by a relaxed exchange, no fence: a reader can see the writer's count and read stale data.
__global__ void semaphoreRelaxed(unsigned *sem, int *data, int *out) {
  unsigned *count = sem;
  unsigned *lock = sem + 1;
  __shared__ bool acquired;
  if (threadIdx.x == 0)
    acquired = false;
  __syncthreads();
  while (!acquired) {
    if (threadIdx.x == 0)
      acquired = atomicCAS(lock, 0u, 1u) == 0u;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      count[0] += 100;
    } else if (count[0] > 0) {
      out[blockIdx.x] = data[0];
    }
    atomicExch(lock, 0u);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// HeteroSync's fetch-and-add mutex: a ticket drawn by the block's master, the turn polled with
// atomicXor(turn, 0) and relayed to the block through a __shared__ bool that only the turn's arm
// sets, the turn handed on by atomicInc; no fence: the next holder can read stale data.
__global__ void ticketMutexRelayed(unsigned *ticket, unsigned *turn, int *data, int *out) {
  const bool master = threadIdx.x == 0;
  __shared__ unsigned mine;
  __shared__ bool haveLock;
  if (master) {
    mine = atomicInc(ticket, 1000000000u);
    haveLock = false;
  }
  __syncthreads();
  while (!haveLock) {
    if (master) {
      unsigned now = atomicXor(turn, 0u);
      if (now == mine) {
        haveLock = true;
      }
    }
    __syncthreads();
  }
  if (master) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  __syncthreads();
  if (master)
    atomicInc(turn, 1000000000u);
  __syncthreads();
}

// LITMUS: forbidden
// The same mutex with a fence after the lock is taken and before it is handed on.
__global__ void ticketMutexRelayedFenced(unsigned *ticket, unsigned *turn, int *data, int *out) {
  const bool master = threadIdx.x == 0;
  __shared__ unsigned mine;
  __shared__ bool haveLock;
  if (master) {
    mine = atomicInc(ticket, 1000000000u);
    haveLock = false;
  }
  __syncthreads();
  while (!haveLock) {
    if (master) {
      unsigned now = atomicXor(turn, 0u);
      if (now == mine) {
        haveLock = true;
      }
    }
    __syncthreads();
  }
  if (master) {
    __threadfence();
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
    __threadfence();
  }
  __syncthreads();
  if (master)
    atomicInc(turn, 1000000000u);
  __syncthreads();
}

// HeteroSync's spin mutex: the master's atomicCAS tested in an if whose one effect is to set a
// __shared__ int that the block's loop tests (macros, so that each kernel's lines hold its code).
#define RELAYED_LOCK(m)                                                                            \
  {                                                                                                \
    __shared__ int done;                                                                           \
    if (threadIdx.x == 0)                                                                          \
      done = 0;                                                                                    \
    __syncthreads();                                                                               \
    while (!done) {                                                                                \
      __syncthreads();                                                                             \
      if (threadIdx.x == 0) {                                                                      \
        if (atomicCAS(m, 0u, 1u) == 0u)                                                            \
          done = 1;                                                                                \
      }                                                                                            \
      __syncthreads();                                                                             \
    }                                                                                              \
  }

// LITMUS: allowed cuda-scope-release-acquire
// No fence: the next holder can read the old value of storage[0].
__global__ void spinMutexRelayed(unsigned *m, float *storage) {
  RELAYED_LOCK(m)
  if (threadIdx.x == 0)
    storage[0] = storage[0] + 1;
  __syncthreads();
  if (threadIdx.x == 0)
    atomicExch(m, 0u);
  __syncthreads();
}

// LITMUS: forbidden
// A fence after taking the lock and before handing it on.
__global__ void spinMutexRelayedFenced(unsigned *m, float *storage) {
  RELAYED_LOCK(m)
  if (threadIdx.x == 0) {
    __threadfence();
    storage[0] = storage[0] + 1;
    __threadfence();
  }
  __syncthreads();
  if (threadIdx.x == 0)
    atomicExch(m, 0u);
  __syncthreads();
}

// A lock word's values: a waiter leaves its spin only on reading 0 (free), so the compare-and-swap
// that stores 1 (taken) lets no waiter through; the exchange that stores 0 hands the lock on.

// LITMUS: forbidden
// A node prepared before the lock is taken, linked under it, and released after a fence: the CAS
// that takes the lock stores 1, which no waiter leaves its spin on; the fenced exchange publishes
// the node with the link.
__global__ void lockAfterPrepare(unsigned *lock, int *nodes, int *head, int *out) {
  if (threadIdx.x == 0) {
    nodes[blockIdx.x] = blockIdx.x + 1;
    while (atomicCAS(lock, 0u, 1u) != 0u) {
    }
    __threadfence();
    out[blockIdx.x] = nodes[*head];
    *head = blockIdx.x;
    __threadfence();
    atomicExch(lock, 0u);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same without the fence before the exchange: the exchange's 0 lets the next holder in, and it
// can read the node before its value.
__global__ void lockAfterPrepareNoRelease(unsigned *lock, int *nodes, int *head, int *out) {
  if (threadIdx.x == 0) {
    nodes[blockIdx.x] = blockIdx.x + 1;
    while (atomicCAS(lock, 0u, 1u) != 0u) {
    }
    __threadfence();
    out[blockIdx.x] = nodes[*head];
    *head = blockIdx.x;
    atomicExch(lock, 0u);
  }
}

// LITMUS: forbidden
// HeteroSync's __gpuLock form: the CAS's value kept in a variable the loop tests, and a lock taken
// by a loop that breaks out when its CAS succeeds.
__global__ void lockAfterPrepareRelayed(unsigned *lock, int *nodes, int *head, int *out) {
  if (threadIdx.x == 0) {
    nodes[blockIdx.x] = blockIdx.x + 1;
    unsigned got = 0;
    do {
      got = atomicCAS(lock, 0u, 1u);
    } while (got != 0u);
    __threadfence();
    out[blockIdx.x] = nodes[*head];
    *head = blockIdx.x;
    __threadfence();
    atomicExch(lock, 0u);
    nodes[blockIdx.x] = 0;
    for (;;) {
      if (atomicCAS(lock, 0u, 1u) == 0u)
        break;
    }
    __threadfence();
    out[blockIdx.x] += nodes[*head];
    __threadfence();
    atomicExch(lock, 0u);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A flag set by a compare-and-swap after the data, with no fence: the reader leaves its spin on
// the 1 the CAS stores, and can read the data before its value.
__global__ void casSetsFlag(unsigned *flag, int *data, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    atomicCAS(flag, 0u, 1u);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(flag, 0u) != 1u) {
    }
    __threadfence();
    out[0] = data[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A spin with another way out (a bound on the tries): a waiter can leave it having read the 1 the
// CAS stored, and read the node without the holder's release.
__global__ void lockWithTimeout(unsigned *lock, int *nodes, int *head, int *out) {
  if (threadIdx.x == 0) {
    nodes[blockIdx.x] = blockIdx.x + 1;
    for (int tries = 0; tries < 100; ++tries)
      if (atomicCAS(lock, 0u, 1u) == 0u)
        break;
    __threadfence();
    out[blockIdx.x] = nodes[*head];
    *head = blockIdx.x;
    __threadfence();
    atomicExch(lock, 0u);
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A consumer that breaks out of its loop on 0 and reads the data in the loop otherwise: the
// producer's 1 (an exchange after the data, no fence) is no value the loop leaves on, yet it keeps
// the consumer in the body, where it reads the data before its value.
__global__ void consumeWhileSet(unsigned *flag, int *data, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    atomicExch(flag, 1u);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    for (;;) {
      if (atomicAdd(flag, 0u) == 0u)
        break;
      out[0] = data[0];
      data[1] = 0;
    }
  }
}

// clang's scoped builtins return whether the compare-and-swap swapped, not the value it read: the
// spin leaves when the lock read equals `expected`, reset to 0 each round.

// LITMUS: allowed cuda-scope-release-acquire
// The node prepared before the lock is taken, as in lockAfterPrepare; the exchange that hands the
// lock on has no fence before it, so the next holder can read the old head.
__global__ void scopedBuiltinLock(unsigned *lock, int *nodes, int *head, int *out) {
  if (threadIdx.x == 0) {
    nodes[blockIdx.x] = blockIdx.x + 1;
    unsigned expected = 0;
    while (!__scoped_atomic_compare_exchange_n(lock, &expected, 1u, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                               __MEMORY_SCOPE_DEVICE))
      expected = 0;
    __threadfence();
    out[blockIdx.x] = nodes[*head];
    *head = blockIdx.x;
    __scoped_atomic_exchange_n(lock, 0u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  }
}

// LITMUS: forbidden
// The same with a fence before the exchange: the compare-and-swap's 1 lets no waiter go.
__global__ void scopedBuiltinLockFenced(unsigned *lock, int *nodes, int *head, int *out) {
  if (threadIdx.x == 0) {
    nodes[blockIdx.x] = blockIdx.x + 1;
    unsigned expected = 0;
    while (!__scoped_atomic_compare_exchange_n(lock, &expected, 1u, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                               __MEMORY_SCOPE_DEVICE))
      expected = 0;
    __threadfence();
    out[blockIdx.x] = nodes[*head];
    *head = blockIdx.x;
    __threadfence();
    __scoped_atomic_exchange_n(lock, 0u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  }
}

// LITMUS: forbidden
// A block takes the lock through a relay (HeteroSync's semaphore post): its master's
// compare-and-swap sets a __shared__ flag the whole block loops on. The swap writes 1, and a
// master that reads 1 sets the flag to false and tries again: only the unlock's 0 lets anyone
// in, so the swap hands nothing on. Fenced on both sides of the critical section.
__global__ void relayLockFenced(unsigned *lock, int *count) {
  __shared__ bool acquired;
  if (threadIdx.x == 0)
    acquired = false;
  __syncthreads();
  while (!acquired) {
    __syncthreads();
    if (threadIdx.x == 0) {
      if (atomicCAS(lock, 0, 1) == 1) {
        acquired = false;
      } else {
        acquired = true;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    __threadfence();
    count[0] += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncthreads();
}

// LITMUS: allowed cuda-scope-release-acquire
// The same without the fences: the next holder may read the count from before the last one's
// update, which the unlock's 0 handed on without a release.
__global__ void relayLockRelaxed(unsigned *lock, int *count) {
  __shared__ bool acquired;
  if (threadIdx.x == 0)
    acquired = false;
  __syncthreads();
  while (!acquired) {
    __syncthreads();
    if (threadIdx.x == 0) {
      if (atomicCAS(lock, 0, 1) == 1) {
        acquired = false;
      } else {
        acquired = true;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    count[0] += 1;
    atomicExch(lock, 0);
  }
  __syncthreads();
}

// LITMUS: forbidden
// Data written before the lock is taken through the relay, then read by the next holder: the
// fence before the unlock releases it, and the next holder's fence after its swap acquires it.
// The swap itself writes 1, which lets no master through (only a read of 0 sets the flag), so
// it publishes nothing, though plain writes come before it.
__global__ void relayLockAfterData(unsigned *lock, int *slots, int *seen) {
  if (threadIdx.x == 0)
    slots[blockIdx.x] = 1;
  __shared__ bool acquired;
  if (threadIdx.x == 0)
    acquired = false;
  __syncthreads();
  while (!acquired) {
    __syncthreads();
    if (threadIdx.x == 0) {
      if (atomicCAS(lock, 0, 1) == 1) {
        acquired = false;
      } else {
        acquired = true;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    __threadfence();
    seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncthreads();
}

// A lock tried by a helper that returns whether it took it: the caller's loop is left only on
// the helper's true, which only a read of 0 sets (through the block's flag). The swap writes 1,
// which lets no one through, so it publishes nothing though plain writes come before it; the
// fences around the section order what the holders hand on (HeteroSync's TryWait, minimal).
// Each kernel has a helper of its own, defined after it, so that a finding in it is the kernel's.
__device__ bool tryTakeLock(unsigned *lock);

// LITMUS: forbidden
__global__ void tryLockAfterData(unsigned *lock, int *slots, int *seen) {
  if (threadIdx.x == 0)
    slots[blockIdx.x] = 1;
  while (!tryTakeLock(lock)) {
  }
  if (threadIdx.x == 0) {
    __threadfence();
    seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncthreads();
}

__device__ bool tryTakeLock(unsigned *lock) {
  __shared__ bool got;
  __syncthreads();
  if (threadIdx.x == 0) {
    got = false;
    if (atomicCAS(lock, 0, 1) == 0)
      got = true;
  }
  __syncthreads();
  if (!got)
    return false;
  return true;
}

__device__ bool tryTakeLockAgain(unsigned *lock);

// LITMUS: allowed cuda-scope-release-acquire
// The same with no fence: the next holder may read a slot from before the last holder's lock.
__global__ void tryLockRelaxed(unsigned *lock, int *slots, int *seen) {
  if (threadIdx.x == 0)
    slots[blockIdx.x] = 1;
  while (!tryTakeLockAgain(lock)) {
  }
  if (threadIdx.x == 0) {
    seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
    atomicExch(lock, 0);
  }
  __syncthreads();
}

__device__ bool tryTakeLockAgain(unsigned *lock) {
  __shared__ bool got;
  __syncthreads();
  if (threadIdx.x == 0) {
    got = false;
    if (atomicCAS(lock, 0, 1) == 0)
      got = true;
  }
  __syncthreads();
  if (!got)
    return false;
  return true;
}

// A helper that takes the lock, then may give it back and fail (a semaphore full): true is
// returned only on the path that took it, so the caller's loop still needs the swap's 0.
__device__ bool tryTakeSlot(unsigned *lock, int *count, const int *slots, int max);

// LITMUS: forbidden
__global__ void trySlotAfterData(unsigned *lock, int *count, int *slots) {
  if (threadIdx.x == 0)
    slots[blockIdx.x] = 1;
  while (!tryTakeSlot(lock, count, slots, 4)) {
  }
}

__device__ bool tryTakeSlot(unsigned *lock, int *count, const int *slots, int max) {
  __shared__ bool got, room;
  __syncthreads();
  if (threadIdx.x == 0) {
    got = false;
    if (atomicCAS(lock, 0, 1) == 0)
      got = true;
  }
  __syncthreads();
  if (!got)
    return false;
  if (threadIdx.x == 0) {
    __threadfence();
    room = count[0] < max;
  }
  __syncthreads();
  if (!room) {
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(lock, 0);
    }
    __syncthreads();
    return false;
  }
  if (threadIdx.x == 0) {
    count[0] += slots[(blockIdx.x + 1) % gridDim.x];
    __threadfence();
    atomicExch(lock, 0);
  }
  __syncthreads();
  return true;
}

// A ring of slots (HeteroSync's sleeping mutex): a block waits for its own slot to hold 1, with
// the acquire fence in the arm that sets the block's flag; the holder marks its slot -1, which no
// waiter leaves on, and hands the lock on with a fenced 1 in the next slot.
// LITMUS: forbidden
__global__ void ringLockFenced(int *ring, unsigned *tail, int *count) {
  __shared__ unsigned me;
  __shared__ bool have;
  if (threadIdx.x == 0) {
    me = atomicInc(tail, 1023);
    have = false;
  }
  __syncthreads();
  while (!have) {
    __syncthreads();
    if (threadIdx.x == 0) {
      if (((volatile int *)ring)[me] == 1) {
        __threadfence();
        have = true;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    count[0] += 1;
    ring[me] = -1;
    __threadfence();
    ((volatile int *)ring)[(me + 1) % 1024] = 1;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// With no fence, the next holder may read the count from before this holder's update.
__global__ void ringLockRelaxed(int *ring, unsigned *tail, int *count) {
  __shared__ unsigned me;
  __shared__ bool have;
  if (threadIdx.x == 0) {
    me = atomicInc(tail, 1023);
    have = false;
  }
  __syncthreads();
  while (!have) {
    __syncthreads();
    if (threadIdx.x == 0) {
      if (((volatile int *)ring)[me] == 1)
        have = true;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    count[0] += 1;
    ring[me] = -1;
    ((volatile int *)ring)[(me + 1) % 1024] = 1;
  }
}

// A lock taken in each of a benchmark's iterations: the swap stores 1, which lets no waiter out
// of its spin, and what follows the spin in the iteration runs only once the spin is left (the
// loop around the spin does not make the section part of the spin's loop).
// LITMUS: forbidden
__global__ void lockEachIteration(unsigned *lock, int *slots, int *seen, int n) {
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0) {
      slots[blockIdx.x] = i;
      while (atomicCAS(lock, 0, 1) != 0) {
      }
      __threadfence();
      seen[blockIdx.x] += slots[(blockIdx.x + 1) % gridDim.x];
      __threadfence();
      atomicExch(lock, 0);
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same with no fence: the next holder may read a slot from before the last holder's lock.
__global__ void lockEachIterationRelaxed(unsigned *lock, int *slots, int *seen, int n) {
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0) {
      slots[blockIdx.x] = i;
      while (atomicCAS(lock, 0, 1) != 0) {
      }
      seen[blockIdx.x] += slots[(blockIdx.x + 1) % gridDim.x];
      atomicExch(lock, 0);
    }
  }
}

// A lock object made in the kernel from the lock word's address (the CUDA Handbook's
// cudaSpinlock): the word is reached through the object's member, which the constructor set.
struct MemberLockFenced {
  int *word;
  __device__ MemberLockFenced(int *p);
  __device__ void acquire();
  __device__ void release();
};

// LITMUS: forbidden
__global__ void memberLockFenced(double *sum, int *lock, const double *in) {
  MemberLockFenced l(lock);
  if (threadIdx.x == 0) {
    l.acquire();
    __threadfence();
    *sum += in[blockIdx.x];
    __threadfence();
    l.release();
  }
}

__device__ MemberLockFenced::MemberLockFenced(int *p) { word = p; }
__device__ void MemberLockFenced::acquire() {
  while (atomicCAS(word, 0, 1)) {
  }
}
__device__ void MemberLockFenced::release() { atomicExch(word, 0); }

struct MemberLockRelaxed {
  int *word;
  __device__ MemberLockRelaxed(int *p) : word(p) {}
  __device__ void acquire();
  __device__ void release();
};

// LITMUS: allowed cuda-scope-release-acquire
// The same with no fence: the next holder may read the sum from before the last holder's lock.
__global__ void memberLockRelaxed(double *sum, int *lock, const double *in) {
  MemberLockRelaxed l(lock);
  if (threadIdx.x == 0) {
    l.acquire();
    *sum += in[blockIdx.x];
    l.release();
  }
}

__device__ void MemberLockRelaxed::acquire() {
  while (atomicCAS(word, 0, 1)) {
  }
}
__device__ void MemberLockRelaxed::release() { atomicExch(word, 0); }

struct MemberLockAssigned {
  int *word;
  __device__ MemberLockAssigned(int *p);
  __device__ void acquire();
  __device__ void release();
};

// LITMUS: allowed cuda-scope-release-acquire
// The constructor sets the member in its body (m_p = p), as the Handbook's does.
__global__ void memberLockAssignedRelaxed(double *sum, int *lock, const double *in) {
  MemberLockAssigned l(lock);
  if (threadIdx.x == 0) {
    l.acquire();
    *sum += in[blockIdx.x];
    l.release();
  }
}

__device__ MemberLockAssigned::MemberLockAssigned(int *p) { word = p; }
__device__ void MemberLockAssigned::acquire() {
  while (atomicCAS(word, 0, 1)) {
  }
}
__device__ void MemberLockAssigned::release() { atomicExch(word, 0); }

// LITMUS: forbidden
// Each thread claims a slot of a ring from a counter and writes its bookkeeping there, then block 0
// sets a flag; a thread of another block that sees the flag claims a slot of its own and writes it.
// The slot's address varies with the value claimed (slot & (size - 1), as cdpAdvancedQuicksort's
// ringbufAlloc): no location is written on both sides, so nothing is overwritten out of order.
struct RingSlot {
  unsigned index;
  int payload;
};
__global__ void ringSlotClaims(unsigned *head, volatile RingSlot *ring, volatile int *flag, unsigned size) {
  if (threadIdx.x == 0) {
    unsigned slot = atomicAdd(head, 1u);
    volatile RingSlot *s = ring + (slot & (size - 1));
    s->index = slot;
    if (blockIdx.x == 0) {
      *flag = 1;
    } else {
      while (*flag == 0) {
      }
      unsigned mine = atomicAdd(head, 1u);
      volatile RingSlot *t = ring + (mine & (size - 1));
      t->index = mine;
    }
  }
}

// Slots, each guarded by its own lock bit (stdgpu's deque): the occupied bit is read and written
// only while the slot's lock is held, so the lock word carries the datum, not the bit. The take
// sits in a retry loop; -O2 makes the take's failure a branch back to the loop's head, and the
// critical section still runs only on the take's success.

// LITMUS: forbidden
// Every read-modify-write is followed by a fence and none is preceded by one: the fence after
// setting the occupied bit comes before the unlock, so the unlock releases the datum; the fence
// after the take acquires it, and the fence after the popper's read of the datum releases that
// read before its unlock.
__global__ void slotsTrailingFences(unsigned *locks, unsigned *occupied, int *data, int *out, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) % n;
  bool push = (blockIdx.x & 1) == 0;
  bool done = false;
  while (!done) {
    if ((atomicOr(&locks[i], 1u) & 1u) == 0) {
      __threadfence();
      unsigned occ = atomicOr(&occupied[i], 0u);
      __threadfence();
      if (push && !(occ & 1u)) {
        data[i] = blockIdx.x;
        atomicOr(&occupied[i], 1u);
        __threadfence();
        done = true;
      } else if (!push && (occ & 1u)) {
        atomicAnd(&occupied[i], ~1u);
        __threadfence();
        out[blockIdx.x] = data[i];
        __threadfence();
        done = true;
      }
      atomicAnd(&locks[i], ~1u);
      __threadfence();
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same slots, with no fence between the pusher's datum and its unlock: neither the occupied
// bit nor the lock word releases the datum, and the popper that takes the lock next may read
// the slot before the datum.
__global__ void slotsUnreleased(unsigned *locks, unsigned *occupied, int *data, int *out, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) % n;
  bool push = (blockIdx.x & 1) == 0;
  bool done = false;
  while (!done) {
    if ((atomicOr(&locks[i], 1u) & 1u) == 0) {
      __threadfence();
      unsigned occ = atomicOr(&occupied[i], 0u);
      __threadfence();
      if (push && !(occ & 1u)) {
        data[i] = blockIdx.x;
        atomicOr(&occupied[i], 1u);
        done = true;
      } else if (!push && (occ & 1u)) {
        atomicAnd(&occupied[i], ~1u);
        __threadfence();
        out[blockIdx.x] = data[i];
        __threadfence();
        done = true;
      }
      atomicAnd(&locks[i], ~1u);
    }
  }
}

// Try-locks that return the variable they test (MVGpuBTree's node lock): one lane takes the lock
// and broadcasts the old word to its warp; the fence after the take runs only where the lock was
// free, and the helper returns that same test, so the loop that calls it is left only on it and
// the critical section after the loop runs on the take's success.

// LITMUS: forbidden
__device__ bool tryLockReturningTest(unsigned *lock) {
  unsigned old = 0;
  if (threadIdx.x % 32 == 0)
    old = atomicOr(lock, 1u);
  old = __shfl_sync(0xffffffffu, old, 0);
  bool locked = !(old & 1u);
  if (locked)
    __threadfence();
  return locked;
}

__global__ void lockReturnsTest(unsigned *lock, int *data, int *out) {
  while (!tryLockReturningTest(lock)) {
  }
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  __threadfence();
  if (threadIdx.x % 32 == 0)
    atomicAnd(lock, ~1u);
}

// LITMUS: allowed cuda-scope-release-acquire
// The fence after the take is block-scope: the holder before may be in another block.
__device__ bool tryLockReturningTestNarrow(unsigned *lock) {
  unsigned old = 0;
  if (threadIdx.x % 32 == 0)
    old = atomicOr(lock, 1u);
  old = __shfl_sync(0xffffffffu, old, 0);
  bool locked = !(old & 1u);
  if (locked)
    __threadfence_block();
  return locked;
}

__global__ void lockReturnsTestNarrow(unsigned *lock, int *data, int *out) {
  while (!tryLockReturningTestNarrow(lock)) {
  }
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  __threadfence();
  if (threadIdx.x % 32 == 0)
    atomicAnd(lock, ~1u);
}

// LITMUS: forbidden
// The same with the test kept in a member, and the loop's test a condition variable.
struct WarpLock {
  unsigned *word;
  bool locked_;
  __device__ bool try_lock() {
    unsigned old = 0;
    if (threadIdx.x % 32 == 0)
      old = atomicOr(word, 1u);
    old = __shfl_sync(0xffffffffu, old, 0);
    locked_ = !(old & 1u);
    if (locked_)
      __threadfence();
    return locked_;
  }
  __device__ void lock() {
    while (auto failed = !try_lock()) {
    }
  }
  __device__ void unlock() {
    __threadfence();
    if (threadIdx.x % 32 == 0)
      atomicAnd(word, ~1u);
    locked_ = false;
  }
};

__global__ void memberLockReturnsTest(unsigned *lock, int *data, int *out) {
  WarpLock l{lock, false};
  l.lock();
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  l.unlock();
}

// LITMUS: allowed cuda-scope-release-acquire
struct NarrowWarpLock {
  unsigned *word;
  bool locked_;
  __device__ bool try_lock() {
    unsigned old = 0;
    if (threadIdx.x % 32 == 0)
      old = atomicOr(word, 1u);
    old = __shfl_sync(0xffffffffu, old, 0);
    locked_ = !(old & 1u);
    if (locked_)
      __threadfence_block();
    return locked_;
  }
  __device__ void lock() {
    while (auto failed = !try_lock()) {
    }
  }
  __device__ void unlock() {
    __threadfence();
    if (threadIdx.x % 32 == 0)
      atomicAnd(word, ~1u);
    locked_ = false;
  }
};

__global__ void memberLockReturnsTestNarrow(unsigned *lock, int *data, int *out) {
  NarrowWarpLock l{lock, false};
  l.lock();
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  l.unlock();
}
struct NodePair {
  unsigned first, second;
};

// A node's lock bit in its last pair (MVGpuBTree's B-link tree): lane 31 takes the bit and
// broadcasts the old word to its warp; every lane then copies its own pair of the node, and
// lanes below 31 write theirs back. The lanes' pairs are other locations than the lock word, though
// every lane reads and writes the same pair index in every block (the lane is no thread's own).

// LITMUS: forbidden
__device__ bool tryLockNode(NodePair *node) {
  unsigned lane = threadIdx.x % 32;
  unsigned old = 0;
  if (lane == 31)
    old = atomicOr(&node[31].second, 1u);
  old = __shfl_sync(0xffffffffu, old, 31);
  bool locked = !(old & 1u);
  if (locked)
    __threadfence();
  return locked;
}

__global__ void nodeLockInNode(NodePair *nodes, int *out) {
  unsigned lane = threadIdx.x % 32;
  NodePair *node = nodes;
  while (!tryLockNode(node)) {
  }
  NodePair mine = node[lane];
  out[blockIdx.x * 32 + lane] = mine.first;
  if (lane < 31) {
    node[lane].first = mine.first + 1;
    node[lane].second = mine.second;
  }
  __syncwarp();
  __threadfence();
  if (lane == 31)
    atomicAnd(&node[31].second, ~1u);
}

// LITMUS: allowed cuda-scope-release-acquire
// The fence after the take is block-scope.
__device__ bool tryLockNodeNarrow(NodePair *node) {
  unsigned lane = threadIdx.x % 32;
  unsigned old = 0;
  if (lane == 31)
    old = atomicOr(&node[31].second, 1u);
  old = __shfl_sync(0xffffffffu, old, 31);
  bool locked = !(old & 1u);
  if (locked)
    __threadfence_block();
  return locked;
}

__global__ void nodeLockInNodeNarrow(NodePair *nodes, int *out) {
  unsigned lane = threadIdx.x % 32;
  NodePair *node = nodes;
  while (!tryLockNodeNarrow(node)) {
  }
  NodePair mine = node[lane];
  out[blockIdx.x * 32 + lane] = mine.first;
  if (lane < 31) {
    node[lane].first = mine.first + 1;
    node[lane].second = mine.second;
  }
  __syncwarp();
  __threadfence();
  if (lane == 31)
    atomicAnd(&node[31].second, ~1u);
}

// LITMUS: forbidden
// The same node with each lane's pair written back whole (a struct copy, which stores both words):
// a lane's own pair is not the lock word, though every block's lane 31 addresses it alike.
__global__ void nodeLockCopiedWhole(NodePair *nodes, int *out) {
  unsigned lane = threadIdx.x % 32;
  NodePair *node = nodes;
  while (!tryLockNode(node)) {
  }
  NodePair mine = node[lane];
  out[blockIdx.x * 32 + lane] = mine.first;
  if (lane < 31) {
    mine.first += 1;
    node[lane] = mine;
  }
  __syncwarp();
  __threadfence();
  if (lane == 31)
    atomicAnd(&node[31].second, ~1u);
}

// LITMUS: forbidden
// The take's result kept in a variable that a do-while's condition tests.
__device__ bool tryLockKept(unsigned *lock) {
  unsigned old = 0;
  if (threadIdx.x % 32 == 0)
    old = atomicOr(lock, 1u);
  old = __shfl_sync(0xffffffffu, old, 0);
  bool locked = !(old & 1u);
  if (locked)
    __threadfence();
  return locked;
}

__global__ void lockKeptDoWhile(unsigned *lock, int *data, int *out) {
  bool got;
  do
    got = tryLockKept(lock);
  while (!got);
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  __syncwarp();
  __threadfence();
  if (threadIdx.x % 32 == 0)
    atomicAnd(lock, ~1u);
}

// LITMUS: allowed cuda-scope-release-acquire
__device__ bool tryLockKeptNarrow(unsigned *lock) {
  unsigned old = 0;
  if (threadIdx.x % 32 == 0)
    old = atomicOr(lock, 1u);
  old = __shfl_sync(0xffffffffu, old, 0);
  bool locked = !(old & 1u);
  if (locked)
    __threadfence_block();
  return locked;
}

__global__ void lockKeptDoWhileNarrow(unsigned *lock, int *data, int *out) {
  bool got;
  do {
    got = tryLockKeptNarrow(lock);
  } while (!got);
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x] = data[0];
    data[0] = blockIdx.x;
  }
  __syncwarp();
  __threadfence();
  if (threadIdx.x % 32 == 0)
    atomicAnd(lock, ~1u);
}
