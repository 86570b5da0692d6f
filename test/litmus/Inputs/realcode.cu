// Patterns met in real projects (bench/realcode, docs/precision.md), written anew here so that
// both front ends keep their verdict on each: the bugs the corpus showed, and the correct code
// they once flagged. The project and file each pattern comes from are named; no code is copied.
#include <cooperative_groups.h>
#include <cuda/atomic>

namespace cg = cooperative_groups;

// LITMUS: allowed cuda-scope-release-acquire
// The last-block reduction of the CUDA samples (threadFenceReduction) and of HeCBench's
// threadfence: a fence before the ticket, none after it; the partials are read relaxed.
__global__ void lastBlockNoAcquire(float *partial, unsigned *retired, float *out) {
  __shared__ bool last;
  partial[blockIdx.x] = threadIdx.x;
  __threadfence();
  if (threadIdx.x == 0) {
    unsigned ticket = atomicInc(retired, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    out[0] = sum;
    *retired = 0; // a reset: no draw of this grid reads it
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Barnes-Hut's tree summarization (HeCBench bh): a cell is ready when its mass field is set; the
// position fields are written before it and read after it, all volatile, with no fence.
__global__ void readyField(volatile float4 *cell, const int *child, int cells) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= cells)
    return;
  int c = child[k];
  while (cell[c].w < 0.0f) {
  }
  float x = cell[c].x;
  cell[k].x = x * 0.5f;
  cell[k].w = 1.0f;
}

// LITMUS: allowed cuda-scope-release-acquire
// The Hungarian algorithm's cover step (HeCBench hungarian): the producer fences between its two
// volatile flags, the consumer reads them with no fence between.
__global__ void coverFlags(volatile int *coverRow, volatile int *coverColumn, const int *pairs, int *out) {
  int p = pairs[blockIdx.x * blockDim.x + threadIdx.x];
  int row = p & 0xffff, column = p >> 16;
  if (!coverColumn[column] && !coverRow[row]) {
    out[row] = column;
    coverRow[row] = 1;
    __threadfence();
    coverColumn[column] = 0;
  }
}

// LITMUS: allowed cuda-scope-mismatch
// A union-find (ginkgo's connected components) hooks roots with a device-scope CAS but compresses
// paths with block-scope loads and stores: not morally strong with the other blocks' CAS.
__global__ void unionFindBlockScope(int *parent, const int *edges, int n) {
  int node = edges[blockIdx.x * blockDim.x + threadIdx.x];
  int p = cuda::atomic_ref<int, cuda::thread_scope_block>(parent[node]).load(cuda::memory_order_relaxed);
  if (p != node)
    cuda::atomic_ref<int, cuda::thread_scope_block>(parent[node]).store(parent[p], cuda::memory_order_relaxed);
  atomicCAS(&parent[p], p, node < p ? node : p);
}

// LITMUS: forbidden
// A grid's phases (the CUDA samples' conjugate gradient): the dot product is reset, summed and
// read in phases that grid syncs separate.
__global__ void phasedDot(float *x, float *r, double *dot, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    r[i] = r[i] - x[i];
  if (grid.thread_rank() == 0)
    *dot = 0.0;
  cg::sync(grid);
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    atomicAdd(dot, (double)(r[i] * r[i]));
  cg::sync(grid);
  double d = *dot;
  if (d > 1e-6)
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      x[i] = x[i] + (float)d * r[i];
}

// LITMUS: forbidden
// Worklists handed out by cursors (HeCBench cc, sssp, asta): a warp or block takes the next item
// with atomicAdd and stops at the end; nothing is received through the cursor.
__global__ void cursorWorklist(const int *worklist, int *state, unsigned *cursor, unsigned end) {
  unsigned item = atomicAdd(cursor, 1u);
  while (item < end) {
    int v = worklist[item];
    int s = state[v];
    if (s > 0)
      atomicCAS(&state[v], s, s - 1);
    item = atomicAdd(cursor, 1u);
  }
}

// LITMUS: forbidden
// Legacy code that declares every array volatile (HeCBench tsne): each thread reads and writes
// only its own elements.
__global__ void volatileOwnElements(volatile float *pos, volatile float *force, volatile float *old, int n) {
  int tid;
  tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid < n) {
    float u = old[tid];
    float f = force[tid];
    float g = (f > 0.0f) != (u > 0.0f) ? 0.2f : 0.8f;
    pos[tid] += g * f;
    force[tid] = 0.0f;
    old[tid] = g;
  }
}

// LITMUS: forbidden
// A warp takes work with one lane's atomicAdd, broadcast with a shuffle, and reads the item the
// cursor indexes (HeCBench cc): an index is not a value the load returns.
__global__ void warpCursor(const int *worklist, int *label, unsigned *cursor, unsigned end) {
  unsigned lane = threadIdx.x % 32;
  unsigned item;
  if (lane == 0)
    item = atomicAdd(cursor, 1u);
  item = __shfl_sync(0xffffffff, item, 0);
  while (item < end) {
    int v = worklist[item];
    int l = label[v];
    if (l != v)
      atomicMin(&label[v], l);
    if (lane == 0)
      item = atomicAdd(cursor, 1u);
    item = __shfl_sync(0xffffffff, item, 0);
  }
}

// LITMUS: forbidden
// A ring buffer's bookkeeping (the CUDA samples' cdpAdvancedQuicksort): a slot's release counts,
// and the one that completes the count moves the tail; nothing read afterwards depends on that
// test, so no data is received through the counters.
__global__ void ringBookkeeping(unsigned *count, unsigned *tail, int *data, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = in[i];
  unsigned done = atomicAdd(count, 1u) + 1;
  if (done == gridDim.x * blockDim.x)
    atomicMax(tail, done);
  out[i] = data[(i + 1) % (gridDim.x * blockDim.x)];
}

// LITMUS: allowed cuda-scope-release-acquire
// The last block leaves early unless it draws the last ticket: what follows runs on that test.
__global__ void lastBlockEarlyExit(int *partial, unsigned *count, int *out) {
  partial[blockIdx.x] = blockIdx.x;
  __threadfence();
  if (atomicAdd(count, 1u) != gridDim.x - 1)
    return;
  int sum = 0;
  for (unsigned b = 0; b < gridDim.x; ++b)
    sum += partial[b];
  *out = sum;
}

// LITMUS: forbidden
// Vertices taken from a worklist by a grid-stride loop (HeCBench gc): each thread reads, tests and
// writes the state of its own vertices; the neighbours' states it reads are data it only reads.
__global__ void ownVertices(const int *worklist, volatile int *color, int *candidates, const int *adjacent, int n) {
  const int threads = gridDim.x * blockDim.x;
  for (int w = threadIdx.x + blockIdx.x * blockDim.x; w < n; w += threads) {
    int v = worklist[w];
    int c = color[v];
    if (c > 0) {
      int cand = candidates[v];
      int other = color[adjacent[v]];
      cand &= ~(1 << (other & 31));
      candidates[v] = cand;
      color[v] = cand ? -cand : 0;
    }
  }
}

// LITMUS: forbidden
// A cell handled by the thread that owns it, stepping back over the grid (Barnes-Hut's sort):
// it waits for its start, reorders its own children, and hands each child cell its start.
__global__ void ownCells(volatile int *start, int *child, int cells, int bottom) {
  int step = blockDim.x * gridDim.x;
  int k = cells - step + threadIdx.x + blockIdx.x * blockDim.x;
  while (k >= bottom) {
    int s = start[k];
    if (s >= 0) {
      for (int i = 0; i < 4; i++) {
        int ch = child[k * 4 + i];
        if (ch >= 0) {
          child[k * 4 + i] = -1;
          start[ch] = s++;
        }
      }
      k -= step;
    }
  }
}

// LITMUS: forbidden
// AMGX's sparse products give each warp its own slice of a global hash table, at (block's warps
// + warp) * size: lanes clear it, claim keys with atomicCAS and add values, and the warp reads its
// own table back. Only the lanes of one warp touch a slice, so no other block or warp is on the
// other side; how lanes of one warp order their accesses (__syncwarp) is not what these rules judge.
__global__ void warpSlices(int *keys, int *vals, const int *in, int *out, int size) {
  const int warps = 4;
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  int slot = blockIdx.x * warps + warp;
  int *k = &keys[slot * size], *v = &vals[slot * size];
  for (int o = lane; o < size; o += 32) {
    k[o] = -1;
    v[o] = 0;
  }
  __syncwarp();
  int key = in[blockIdx.x * blockDim.x + threadIdx.x];
  int h = (key * 7) & (size - 1);
  int won = atomicCAS(&k[h], -1, key);
  if (won == -1 || won == key)
    atomicAdd(&v[h], 1);
  __syncwarp();
  for (int o = lane; o < size; o += 32)
    if (k[o] != -1)
      out[slot * size + o] = v[o];
}

// LITMUS: allowed cuda-scope-release-acquire
// The same table shared by the whole block (one slice per block): lanes of other warps claim keys
// and read values back with only __syncwarp between, so a reader can see a key before its value.
__global__ void blockSlices(int *keys, int *vals, const int *in, int *out, int size) {
  int lane = threadIdx.x & 31;
  int *k = &keys[blockIdx.x * size], *v = &vals[blockIdx.x * size];
  for (int o = lane; o < size; o += 32) {
    k[o] = -1;
    v[o] = 0;
  }
  __syncwarp();
  int key = in[blockIdx.x * blockDim.x + threadIdx.x];
  int h = (key * 7) & (size - 1);
  int won = atomicCAS(&k[h], -1, key);
  if (won == -1 || won == key)
    atomicAdd(&v[h], 1);
  __syncwarp();
  for (int o = lane; o < size; o += 32)
    if (k[o] != -1)
      out[blockIdx.x * size + o] = v[o];
}

// LITMUS: allowed cuda-scope-release-acquire
// The CUDA samples' cdpAdvancedQuicksort: each warp claims room with a counter and writes its
// elements; the warp whose count completes the sort (a ticket with no release and no acquire) reads
// them back. That ticket is the message. The offset it reads after the ticket, and the ring
// buffer's head it waits on and bumps after it, come later on both sides: they carry nothing the
// ticket does not, and are not reported.
struct SortCounts {
  unsigned offset, sorted;
};
struct Ring {
  unsigned head, tail, size;
};
__global__ void lastWarpTicket(unsigned *out, const unsigned *in, SortCounts *counts, Ring *ring, unsigned len) {
  unsigned lane = threadIdx.x & 31;
  unsigned value = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned base = 0;
  if (lane == 0)
    base = atomicAdd(&counts->offset, 32);
  base = __shfl_sync(~0u, base, 0);
  out[base + lane] = value;
  if (lane == 0 && atomicAdd(&counts->sorted, 32) + 32 == len) {
    volatile Ring *r = ring;
    while (r->head - r->tail >= r->size) {
    }
    atomicAdd(&ring->head, 1);
    unsigned taken = ((volatile SortCounts *)counts)->offset;
    if (taken == len)
      out[len] = out[0];
  }
}

// LITMUS: forbidden
// HeCBench's scan: an index that steps by a function of itself (ai += ai >> 5, to skip shared
// memory banks) inside a grid-stride loop over blocks; once sent the AST front end into endless
// recursion.
__global__ void selfSteppedIndex(float *data, int nblocks) {
  __shared__ float temp[66];
  for (int bid = blockIdx.x; bid < nblocks; bid += gridDim.x) {
    int ai = threadIdx.x;
    ai += ai >> 5;
    temp[ai] = data[bid * 64 + threadIdx.x];
    __syncthreads();
    data[bid * 64 + threadIdx.x] = temp[65 - ai];
    __syncthreads();
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Barnes-Hut's summarization (HeCBench bh) tests its own cell's ready field before a child's: the
// child's field is another thread's flag, which the first test does not receive for it, so the
// child's position read after it still needs an acquire.
__global__ void ownThenChild(volatile float4 *cell, const int *child, int cells) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= cells)
    return;
  if (cell[k].w < 0.0f) {
    int c = child[k];
    if (cell[c].w >= 0.0f) {
      float x = cell[c].x;
      cell[k].x = x * 0.5f;
      cell[k].w = 1.0f;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same cells visited in passes (HeCBench bh's summarization): the thread keeps its start,
// restores it for the next pass (k = restart), and steps over the grid again; its cells stay its
// own, so only the children's ready fields are messages.
__global__ void restartedPasses(volatile float4 *cell, const int *child, int cells) {
  int step = blockDim.x * gridDim.x;
  int k = threadIdx.x + blockIdx.x * blockDim.x;
  int restart = k;
  for (int pass = 0; pass < 2; pass++) {
    while (k < cells) {
      if (cell[k].w < 0.0f) {
        int c = child[k];
        if (cell[c].w >= 0.0f) {
          cell[k].x = cell[c].x;
          cell[k].w = 1.0f;
        }
      }
      k += step;
    }
    k = restart;
  }
  while (k < cells) {
    if (cell[k].w >= 0.0f)
      k += step;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// HeCBench logic-rewrite's lock-free hash table: a node's key is written, then the node is linked
// with a relaxed atomicCAS on a next field; lookups by other threads of the same launch follow the
// links with plain loads and read the nodes' keys. Neither side orders them.
struct HashNode {
  int next;
  int key;
};
__device__ int hashNodes;
__global__ void hashInsertLookup(HashNode *table, const int *keys, int *found, int buckets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[i];
  int slot = buckets + atomicAdd(&hashNodes, 1);
  table[slot].key = key;
  int at = key % buckets;
  while (true) {
    int seen = atomicCAS(&table[at].next, -1, slot);
    if (seen == -1)
      break;
    at = seen;
  }
  for (int cur = table[key % buckets].next; cur != -1; cur = table[cur].next)
    if (table[cur].key == key + 1) {
      found[i] = cur;
      break;
    }
}

// LITMUS: forbidden
// HeCBench logic-rewrite's hash table (hash_table.h): an insert that finds its key already there
// returns the value another thread filled in, and every caller drops it. A value nobody uses hands
// nothing over, however it was read.
__device__ int insertOrGet(int *keys, int *vals, int key, int value, int cap) {
  int at = key % cap;
  while (true) {
    int prev = atomicCAS(&keys[at], -1, key);
    if (prev == -1) {
      vals[at] = value;
      return 2;
    }
    if (prev == key)
      return vals[at];
    at = (at + 1) % cap;
  }
}
__global__ void dropInserted(int *keys, int *vals, const int *in, int cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  insertOrGet(keys, vals, in[i], i, cap);
}

// LITMUS: forbidden
// HeCBench graphB+'s tree labelling (kernels.h, treelabel): each warp of the grid takes its own
// queue items, (threadIdx.x + blockIdx.x * 256) / 32 stepped by the grid's warps, and rewrites the
// adjacency slice of its node, a volatile flag word per edge and the edge's data beside it. No
// other warp reads or writes that slice: there is no message, and no fence is needed.
struct EdgeData { int beg, end; };
__global__ void warpOwnedSlices(const int *rowStart, volatile int *edges, EdgeData *info, const int *queue,
                                int *label, int start, int end) {
  const int from = (threadIdx.x + blockIdx.x * 256) / 32;
  const int step = (gridDim.x * 256) / 32;
  const int lane = threadIdx.x % 32;
  for (int i = start + from; i < end; i += step) {
    const int node = queue[i];
    const int beg = rowStart[node], stop = rowStart[node + 1];
    for (int j = beg + lane; j < stop; j += 32) {
      const int other = edges[j] >> 1;
      if (other != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
    }
    __syncwarp();
    if (lane == 0 && beg < stop && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}

// LITMUS: forbidden
// The same warp-owned slices with the grid's warp written as blockDim.x (a whole number of warps,
// as the warp rules take a block's size to be) and a shift.
__global__ void warpOwnedSlicesBlockDim(const int *rowStart, volatile int *edges, EdgeData *info,
                                        const int *queue, int *label, int n) {
  const int lane = threadIdx.x & 31;
  for (int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; w < n; w += (gridDim.x * blockDim.x) >> 5) {
    const int node = queue[w];
    const int beg = rowStart[node], stop = rowStart[node + 1];
    for (int j = beg + lane; j < stop; j += 32) {
      if ((edges[j] >> 1) != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
    }
    __syncwarp();
    if (lane == 0 && beg < stop && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Blocks of 256 threads whose "warp" index is (threadIdx.x + blockIdx.x * 48) / 32: the block's part
// is no whole number of warps, so the last threads of block 0 and the first of block 1 take the same
// item and write and read each other's slice, with no fence.
__global__ void straddlingSlices(const int *rowStart, volatile int *edges, EdgeData *info, const int *queue,
                                 int *label, int n) {
  const int from = (threadIdx.x + blockIdx.x * 48) / 32;
  const int lane = threadIdx.x % 32;
  if (from < n) {
    const int node = queue[from];
    const int beg = rowStart[node], stop = rowStart[node + 1];
    for (int j = beg + lane; j < stop; j += 32) {
      if ((edges[j] >> 1) != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
    }
    if (lane == 0 && beg < stop && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A vertex's own adjacency row is its thread's, but what the row holds is not: the neighbour u
// that col[e] names is every vertex's neighbour too, so its value and its flag, written with no
// fence between them, are a message to the threads that poll them.
__global__ void rowNeighboursShared(const int *rowStart, const int *col, volatile int *ready, int *value,
                                    int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices)
    return;
  for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
    int u = col[e];
    if (ready[u]) {
      value[v] += value[u];
    } else {
      value[u] = v;
      ready[u] = 1;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// A walk from the warp's row to the end of the array leaves the row: what it bounds is no owner's,
// so the warps meet in each other's slices.
__global__ void walkPastTheRow(const int *rowStart, volatile int *edges, EdgeData *info, const int *queue,
                               int *label, int n, int total) {
  const int from = (threadIdx.x + blockIdx.x * 256) / 32;
  const int lane = threadIdx.x % 32;
  if (from < n) {
    const int node = queue[from];
    const int beg = rowStart[node];
    for (int j = beg + lane; j < total; j += 32) {
      if ((edges[j] >> 1) != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
    }
    __syncwarp();
    if (lane == 0 && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The walk of walkPastTheRow that also compares with the row's start inside the body: that test
// does not end the loop, the array's end does, so the walk still leaves the row.
__global__ void walkPastTheRowInnerTest(const int *rowStart, volatile int *edges, EdgeData *info,
                                        const int *queue, int *label, int n, int total) {
  const int from = (threadIdx.x + blockIdx.x * 256) / 32;
  const int lane = threadIdx.x % 32;
  if (from < n) {
    const int node = queue[from];
    const int beg = rowStart[node];
    for (int j = beg + lane; j < total; j += 32) {
      if (j != rowStart[node] && (edges[j] >> 1) != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
    }
    __syncwarp();
    if (lane == 0 && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}

// LITMUS: forbidden
// The warp's row left by a break at the row's end: the loop exits there, so the walk is the row's.
__global__ void warpOwnedSlicesBreak(const int *rowStart, volatile int *edges, EdgeData *info,
                                     const int *queue, int *label, int n, int total) {
  const int from = (threadIdx.x + blockIdx.x * 256) / 32;
  const int lane = threadIdx.x % 32;
  if (from < n) {
    const int node = queue[from];
    const int beg = rowStart[node], stop = rowStart[node + 1];
    for (int j = beg + lane; j < total; j += 32) {
      if (j >= stop)
        break;
      if ((edges[j] >> 1) != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
    }
    __syncwarp();
    if (lane == 0 && beg < stop && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}

// LITMUS: forbidden
// The warp's row walked by a while loop: the variable changes once, by its step, and is compared
// with the row's end, so both front ends read it as the warp's range as they read a for loop's.
__global__ void warpOwnedSlicesWhile(const int *rowStart, volatile int *edges, EdgeData *info, const int *queue,
                                     int *label, int n) {
  const int from = (threadIdx.x + blockIdx.x * 256) / 32;
  const int lane = threadIdx.x % 32;
  if (from < n) {
    const int node = queue[from];
    const int beg = rowStart[node], stop = rowStart[node + 1];
    int j = beg + lane;
    while (j < stop) {
      if ((edges[j] >> 1) != node) {
        info[j].beg = label[node];
        edges[j] |= 1;
      }
      j += 32;
    }
    __syncwarp();
    if (lane == 0 && beg < stop && (edges[beg] & 1))
      label[node] = info[beg].beg;
  }
}
