// A warp per worklist item, and the item's row of a CSR offsets array: the elements from
// rowStart[v] to rowStart[v + 1] are v's. The rules take an index computed from the owner's row
// bounds (rowStart[v], or rowStart[v + 1] less something) and from what reads nothing of another
// owner (the lane, a count the warp agrees on, a constant) to stay in the owner's row, as they take
// a column to stay within its pitch; so does a cursor that starts at a bound and moves by such
// steps, and a lane's cursor that the warp shuffles. An offsets array is one the kernel reads at
// both v and v + 1: a value read only at v (perm[v]) says nothing of where v's elements end, and
// a row end with nothing taken away is the next row's start. The last two kernels are a thread's
// own walk over a worklist: begun anew at the same start it stays the thread's, begun at a start
// that moves each round it is not.
#include <cuda/atomic>

// LITMUS: forbidden
// The warp tags its row and then moves the tagged words to the row's end, through two cursors
// that start at the row's bounds and move by the counts the warp's ballots agree on. Only the
// warp's own lanes touch the row, ordered by its *_sync calls: no other warp reads the marks.
__global__ void cursorsStayInTheirRow(const int *rowStart, const int *queue, int items, volatile int *mark,
                                      int *val) {
  const int lane = threadIdx.x % 32;
  const int from = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  const int incr = (gridDim.x * blockDim.x) / 32;
  for (int i = from; i < items; i += incr) {
    const int node = queue[i];
    const int beg = rowStart[node];
    const int end = rowStart[node + 1];
    for (int j = beg + lane; __any_sync(~0u, j < end); j += 32)
      if (j < end) {
        val[j] = node;
        mark[j] = 1;
      }
    int lp = beg;
    int rp = end - 1;
    do {
      const int pos = lp + lane;
      int m = 0;
      if (pos <= rp)
        m = mark[pos];
      const unsigned ball = __ballot_sync(~0u, m != 0);
      const int below = __popc(ball & ((1u << lane) - 1));
      if (m != 0) {
        const int v = val[pos];
        val[rp - below] = v;
        mark[rp - below] = 2;
      }
      lp += 32;
      rp -= __popc(ball);
    } while (__any_sync(~0u, lp <= rp));
  }
}

// LITMUS: forbidden
// A lane finds a word of its warp's row, and the warp shuffles that lane's index to every lane;
// -1 says no lane found one and is never used as an index.
__global__ void shuffledIndexStaysInItsRow(const int *rowStart, const int *queue, int items, volatile int *mark,
                                           int *val) {
  const int lane = threadIdx.x % 32;
  const int from = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  const int incr = (gridDim.x * blockDim.x) / 32;
  for (int i = from; i < items; i += incr) {
    const int node = queue[i];
    const int beg = rowStart[node];
    const int end = rowStart[node + 1];
    for (int j = beg + lane; __any_sync(~0u, j < end); j += 32)
      if (j < end) {
        val[j] = node;
        mark[j] = lane & 1;
      }
    int found = -1;
    for (int j = beg + lane; __any_sync(~0u, j < end); j += 32) {
      if (j < end && mark[j] != 0)
        found = j;
      if (__any_sync(~0u, found >= 0))
        break;
    }
    const unsigned bal = __ballot_sync(~0u, found >= 0);
    found = __shfl_sync(~0u, found, __ffs(bal) - 1);
    if (found >= 0) {
      const int v = val[found];
      val[beg] = v;
      mark[found] = 3;
    }
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The second cursor starts at the row's end with nothing taken away: the next row's first word,
// which the warp of the next item tags and reads. The marks pass between warps with volatile
// accesses and no fence.
__global__ void cursorPastTheRowEnd(const int *rowStart, const int *queue, int items, volatile int *mark, int *val) {
  const int lane = threadIdx.x % 32;
  const int from = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  const int incr = (gridDim.x * blockDim.x) / 32;
  for (int i = from; i < items; i += incr) {
    const int node = queue[i];
    const int beg = rowStart[node];
    const int end = rowStart[node + 1];
    for (int j = beg + lane; __any_sync(~0u, j < end); j += 32)
      if (j < end) {
        val[j] = node;
        mark[j] = 1;
      }
    int rp = end;
    if (lane == 0 && mark[rp] != 0)
      val[beg] = val[rp];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The warp's start is read from an array only at v: nothing says where v's words end, and
// perm[v] + 31 may be perm[w]'s words for another item w.
__global__ void startWithoutAnEnd(const int *perm, const int *queue, int items, volatile int *mark, int *val) {
  const int lane = threadIdx.x % 32;
  const int from = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  const int incr = (gridDim.x * blockDim.x) / 32;
  for (int i = from; i < items; i += incr) {
    const int node = queue[i];
    const int beg = perm[node];
    val[beg + lane] = node;
    mark[beg + lane] = 1;
    __syncwarp();
    if (mark[beg + 16 + lane] != 0)
      val[beg] = val[beg + 16 + lane];
  }
}

// LITMUS: forbidden
// A grid-stride walk over a worklist, begun anew while any warp still has work (HeCBench's graph
// colouring shape). -O2 makes the two loops one, whose variable is fed back either stepped over
// the grid or reset to its start, and the item it reads is carried from round to round where the
// thread has none: each thread still visits only its own items, so the volatile colour of an item
// and its plain candidate word are that thread's, whatever the colour says.
__global__ void walkBegunAnew(const int *wl, int stop, volatile int *color, int *cand) {
  const int thread = threadIdx.x + blockIdx.x * 512;
  const int threads = gridDim.x * 512;
  bool again;
  do {
    again = false;
    for (int w = thread; __any_sync(~0u, w < stop); w += threads) {
      int v, c = 0;
      if (w < stop) {
        v = wl[w];
        c = color[v];
      }
      const unsigned busy = __ballot_sync(~0u, c > 0);
      if (w < stop && c > 0) {
        const int p = cand[v];
        cand[v] = p + __popc(busy);
        color[v] = c - 1;
        again = true;
      }
    }
  } while (__any_sync(~0u, again));
}

// LITMUS: allowed cuda-scope-release-acquire
// The same walk begun anew at the next thread's items: a thread reads the colour and the
// candidate word of an item another thread wrote in the round before, with no fence.
__global__ void walkBegunAtAnotherStart(const int *wl, int stop, volatile int *color, int *cand) {
  const int thread = threadIdx.x + blockIdx.x * 512;
  const int threads = gridDim.x * 512;
  bool again;
  int round = 0;
  do {
    again = false;
    for (int w = thread + round; __any_sync(~0u, w < stop); w += threads) {
      int v, c = 0;
      if (w < stop) {
        v = wl[w];
        c = color[v];
      }
      const unsigned busy = __ballot_sync(~0u, c > 0);
      if (w < stop && c > 0) {
        const int p = cand[v];
        cand[v] = p + __popc(busy);
        color[v] = c - 1;
        again = true;
      }
    }
    ++round;
  } while (__any_sync(~0u, again));
}

// LITMUS: forbidden
// The walk's start reads a block index the kernel changes only on the other branch (a B-tree
// benchmark's insertion blocks walk their keys; its query blocks shift the index to start at
// zero): one start for the whole walk, so the items stay the thread's.
__global__ void walkFromAStartChangedElsewhere(const int *wl, int stop, unsigned first, volatile int *color,
                                               int *cand, int *other) {
  unsigned block = blockIdx.x;
  if (block < first) {
    for (unsigned w = threadIdx.x + block * blockDim.x; w < stop; w += blockDim.x * gridDim.x) {
      const int v = wl[w];
      const int c = color[v];
      if (c > 0) {
        const int p = cand[v];
        cand[v] = p + 1;
        color[v] = c - 1;
      }
    }
  } else {
    block -= first;
    other[threadIdx.x + block * blockDim.x] = 1;
  }
}
