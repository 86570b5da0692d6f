// The last-block ticket: each block writes its partial result, then draws a ticket; the block
// that draws the last one reads every partial. The ticket is a message from every block to the
// last: a fence before the draw releases the partial, a fence after it acquires the others'.
#include <cuda/atomic>

// LITMUS: forbidden
// Fences on both sides of the draw.
__global__ void lastBlockFenced(int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// No fence at all: the last block can read partials older than the tickets it counted.
__global__ void lastBlockUnfenced(int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// LITMUS: forbidden
// The last block sets the counter back to zero for the next launch after writing the result: no
// thread of this grid reads that zero, every other block's draw came before it.
__global__ void lastBlockReset(int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
    *count = 0;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// volatile partials, a fence before the draw and none after it: volatile is relaxed, not acquire.
__global__ void lastBlockVolatilePartials(volatile int *partial, unsigned *count, int *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *out = sum;
  }
}

// LITMUS: forbidden
// A work-queue cursor: each thread takes a slot with atomicAdd and writes it; nothing waits on
// the cursor for data, so it is a counter, not a flag.
__global__ void workQueue(const int *in, int *queue, unsigned *tail, unsigned capacity) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) {
    unsigned slot = atomicAdd(tail, 1u);
    if (slot < capacity)
      queue[slot] = v;
  }
}

// LITMUS: forbidden
// The last block writes the total, then sets the counter back to zero: no draw of this grid reads
// the zero, so the store publishes nothing (every receive of the counter is a counting draw).
__global__ void lastBlockResetAfterResult(int *partial, unsigned *count) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    partial[0] = sum;
    *count = 0;
  }
}

// LITMUS: forbidden
// Work handed out by a cursor: a block takes the next item with atomicAdd and stops at the end.
// The cursor's value is only checked against a bound; the items are synchronized (or not) on
// their own, never through the cursor.
__global__ void workCursor(int *items, unsigned *head, unsigned n) {
  __shared__ unsigned mine;
  if (threadIdx.x == 0)
    mine = atomicAdd(head, 1u);
  __syncthreads();
  while (mine < n) {
    int v = items[mine];
    __syncthreads();
    if (threadIdx.x == 0) {
      items[mine] = v + 1;
      mine = atomicAdd(head, 1u);
    }
    __syncthreads();
  }
}

// LITMUS: forbidden
// Every thread reads and writes its own elements (volatile, as legacy code often declares them):
// the index keeps every thread apart, so nothing travels between threads.
__global__ void ownElements(volatile float *force, volatile float *gain, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float f = force[i];
    float g = gain[i];
    g = (f > 0.0f) ? g + 0.2f : g * 0.8f;
    force[i] = 0.0f;
    gain[i] = g;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The last block reads other blocks' partial results copied whole (float3): a fence before the
// ticket, none after it.
__global__ void lastBlockStructPartials(float3 *partial, unsigned *count, float3 *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    float3 mine = make_float3(blockIdx.x, 1.0f, 2.0f);
    partial[blockIdx.x] = mine;
    __threadfence();
    last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float3 sum = make_float3(0.0f, 0.0f, 0.0f);
    for (unsigned b = 0; b < gridDim.x; ++b) {
      float3 p = partial[b];
      sum.x += p.x;
      sum.y += p.y;
      sum.z += p.z;
    }
    *out = sum;
  }
}

// LITMUS: forbidden
// Each thread's index assigned once after its declaration (int tid; tid = ...): still its own.
__global__ void ownElementsAssigned(volatile float *force, volatile float *gain, int n) {
  int tid;
  tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid < n) {
    float f = force[tid];
    float g = gain[tid];
    g = (f > 0.0f) ? g + 0.2f : g * 0.8f;
    force[tid] = 0.0f;
    gain[tid] = g;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A bottom-up tree build (the LBVH shape, written here): each thread writes its half of the parent
// node and the parent's range, fences, and counts the parent's children; the second to arrive reads
// its sibling's half with no acquire after the count. The range it read at the top of its loop
// belongs to its own node, not to the parent: it carries nothing of the sibling's writes, and the
// range is not the flag to report. (-O2 turns `if (seen != 1) break;` into a loop exit.)
__global__ void treeBuildNoAcquire(int *children, volatile int *range, volatile int *half, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n)
    return;
  for (;;) {
    int r = range[index];
    if (r == n)
      return;
    int parent = n + (index >> 1);
    half[2 * parent + (index & 1)] = index;
    range[parent] = r + 1;
    __threadfence();
    int seen = atomicAdd(&children[parent], 1);
    if (seen != 1)
      break;
    int sibling = half[2 * parent + 1 - (index & 1)];
    half[2 * parent + (index & 1)] = sibling + index;
    index = parent;
  }
}

// LITMUS: forbidden
// The same with a fence after the count: the sibling's half is acquired.
__global__ void treeBuildFenced(int *children, volatile int *range, volatile int *half, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n)
    return;
  for (;;) {
    int r = range[index];
    if (r == n)
      return;
    int parent = n + (index >> 1);
    half[2 * parent + (index & 1)] = index;
    range[parent] = r + 1;
    __threadfence();
    int seen = atomicAdd(&children[parent], 1);
    if (seen != 1)
      break;
    __threadfence();
    int sibling = half[2 * parent + 1 - (index & 1)];
    half[2 * parent + (index & 1)] = sibling + index;
    index = parent;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same, and the thread whose node spans everything writes the root and breaks out: one thread
// writes it, so no two writes race (a break ends its arm: nothing in it precedes the rest of the
// loop).
__global__ void treeBuildRoot(int *children, volatile int *range, volatile int *half, int *root, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n)
    return;
  for (;;) {
    int r = range[index];
    if (r == n) {
      *root = index;
      break;
    }
    int parent = n + (index >> 1);
    half[2 * parent + (index & 1)] = index;
    range[parent] = r + 1;
    __threadfence();
    int seen = atomicAdd(&children[parent], 1);
    if (seen != 1)
      break;
    int sibling = half[2 * parent + 1 - (index & 1)];
    half[2 * parent + (index & 1)] = sibling + index;
    index = parent;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The last block's ticket with no fence on either side (near cdpAdvancedQuicksort's shape, written here):
// after it the last block reads a counter, writes more data and sets the counter back for the next
// launch, after the data. That counter
// is no later word for the data: the ticket the reader received is the element published after the
// data, so the ticket is reported, on both sides.
__global__ void ticketThenCounter(int *out, unsigned *count, volatile unsigned *offsets, int *result) {
  if (threadIdx.x != 0)
    return;
  atomicAdd((unsigned *)offsets, 1u);
  out[blockIdx.x] = 1;
  if (atomicAdd(count, 1u) == gridDim.x - 1) {
    unsigned n = *offsets;
    if (n > 0) {
      int s = 0;
      for (unsigned i = 0; i < gridDim.x; ++i)
        s += out[i];
      *result = s;
    }
    out[gridDim.x] = n;
    *offsets = 0;
  }
}

// The ticket relayed to the block through a word of shared memory that a pointer names: a
// __shared__ variable reached through a pointer, or a word carved from the end of the block's
// dynamic shared array, whose other words the threads accumulate into. Thread 0 stores the ticket
// there; after the barrier every thread reads it back and the last block reads every partial. The
// word is one location for every thread of the block, as a variable is: the relay is the same.

// LITMUS: allowed cuda-scope-release-acquire
// No fence on either side of the draw.
__global__ void lastBlockRelayThroughPointer(float *partial, unsigned *count, float *out, int n) {
  __shared__ unsigned ticket;
  unsigned *slot = &ticket;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    partial[i + n * blockIdx.x] = i * 1.0f;
  __syncthreads();
  if (threadIdx.x == 0)
    *slot = atomicAdd(count, 1u);
  __syncthreads();
  if (*slot == gridDim.x - 1)
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float s = 0;
      for (unsigned j = 0; j < gridDim.x; j++)
        s += partial[i + n * j];
      out[i] = s;
    }
}

// LITMUS: forbidden
// The same with a fence before the draw and after it.
__global__ void lastBlockRelayThroughPointerFenced(float *partial, unsigned *count, float *out, int n) {
  __shared__ unsigned ticket;
  unsigned *slot = &ticket;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    partial[i + n * blockIdx.x] = i * 1.0f;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    *slot = atomicAdd(count, 1u);
  __syncthreads();
  if (*slot == gridDim.x - 1) {
    __threadfence();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float s = 0;
      for (unsigned j = 0; j < gridDim.x; j++)
        s += partial[i + n * j];
      out[i] = s;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The ticket's word carved after the block's accumulators in the dynamic shared array.
__global__ void lastBlockCarvedRelay(float *scratch, float *out, int n) {
  extern __shared__ float shared[];
  unsigned *slot = (unsigned *)(shared + n);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    shared[i] = 0.0f;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&shared[i], 1.0f);
  __syncthreads();
  unsigned *count = (unsigned *)(scratch + n * gridDim.x);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    scratch[i + n * blockIdx.x] = shared[i];
  __syncthreads();
  if (threadIdx.x == 0)
    *slot = atomicAdd(count, 1u);
  __syncthreads();
  if (*slot == gridDim.x - 1)
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float s = 0;
      for (unsigned j = 0; j < gridDim.x; j++)
        s += scratch[i + n * j];
      out[i] = s;
    }
}

// LITMUS: forbidden
// The same with a fence before the draw and after it.
__global__ void lastBlockCarvedRelayFenced(float *scratch, float *out, int n) {
  extern __shared__ float shared[];
  unsigned *slot = (unsigned *)(shared + n);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    shared[i] = 0.0f;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&shared[i], 1.0f);
  __syncthreads();
  unsigned *count = (unsigned *)(scratch + n * gridDim.x);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    scratch[i + n * blockIdx.x] = shared[i];
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    *slot = atomicAdd(count, 1u);
  __syncthreads();
  if (*slot == gridDim.x - 1) {
    __threadfence();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float s = 0;
      for (unsigned j = 0; j < gridDim.x; j++)
        s += scratch[i + n * j];
      out[i] = s;
    }
  }
}

// A ring of slots that only the elected thread touches: the warp leader that draws the last ticket
// waits for space in the ring and takes a slot before it reads what the other leaders wrote. The
// data reaches it through the ticket; the ring's words are passed only between threads past the
// ticket's test, so the missing acquire is the ticket's, reported once there (cdpAdvancedQuicksort's
// shape).
struct Ring {
  volatile unsigned head, tail;
};

// LITMUS: allowed cuda-scope-release-acquire
// No fence at the ticket: its publish and its receive are reported, the ring's wait is not.
__global__ void ringAfterTicket(int *data, unsigned *sorted, Ring *ring, int *out, unsigned warps, unsigned size) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    data[warp] = warp;
    if (atomicAdd(sorted, 1u) + 1u == warps) {
      while (ring->head - ring->tail >= size) {
      }
      unsigned slot = atomicAdd((unsigned *)&ring->head, 1u);
      out[slot % size] = data[0];
    }
  }
}

// LITMUS: forbidden
// Fences on both sides of the ticket: the elected leader has every write, whatever the ring says.
__global__ void ringAfterFencedTicket(int *data, unsigned *sorted, Ring *ring, int *out, unsigned warps, unsigned size) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    data[warp] = warp;
    __threadfence();
    if (atomicAdd(sorted, 1u) + 1u == warps) {
      __threadfence();
      while (ring->head - ring->tail >= size) {
      }
      unsigned slot = atomicAdd((unsigned *)&ring->head, 1u);
      out[slot % size] = data[0];
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Every leader bumps the ring's head after its write and before its ticket, so the ring is another
// thread's word when the elected leader waits on it: the wait keeps its finding beside the ticket's.
__global__ void ringBeforeTicket(int *data, unsigned *sorted, Ring *ring, int *out, unsigned warps, unsigned size) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    data[warp] = warp;
    atomicAdd((unsigned *)&ring->head, 1u);
    if (atomicAdd(sorted, 1u) + 1u == warps) {
      while (ring->head - ring->tail >= size) {
      }
      out[0] = data[0];
    }
  }
}
