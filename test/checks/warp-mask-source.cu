// cuda-scope-warp-mask: a shuffle whose constant mask leaves out the lane some lane of the mask
// reads (PTX shfl.sync: a source lane that takes no part gives an undefined value), against the
// real CUDA 13 headers; both clang-tidy sides, and the IR pass at the same places with the same
// lanes (the last RUN lines diff them).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-mask' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-mask' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-warp-mask' %s -- %toolkit_device_flags 2>/dev/null \
// RUN:   | sed -n 's/^.*warp-mask-source.cu:\([0-9]*\):\([0-9]*\): warning: this \([_a-z]*\) reads, for lane \([0-9]*\), lane \([0-9]*\), .*\[\(cuda-scope-[a-z-]*\)\]$/\6 \1 \2 \3 \4 \5/p' \
// RUN:   | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*warp-mask-source.cu:\([0-9]*\):\([0-9]*\): remark: this \([_a-z]*\) reads, for lane \([0-9]*\), lane \([0-9]*\), .*$/cuda-scope-warp-mask \1 \2 \3 \4 \5/p' \
// RUN:   | sort > %t.ir
// RUN: diff %t.tidy %t.ir
// RUN: test -s %t.ir

// Positive: the lower half-warp sums down by 8 with the warp's width: lane 8 reads lane 16,
// which the mask leaves out (and which does not run the branch).
__global__ void halfWarpDown(int *A) {
  int Lane = threadIdx.x % 32;
  int V = A[threadIdx.x];
  if (Lane < 16)
    V += __shfl_down_sync(0x0000ffff, V, 8);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_down_sync reads, for lane 8, lane 16, which its mask (0x0000ffff) does not name: {{.*}} [cuda-scope-warp-mask]
  A[threadIdx.x] = V;
}

// Positive: the same in the usual loop; its first step already reads past the mask.
__global__ void halfWarpLoop(float *A) {
  int Lane = threadIdx.x & 31;
  float V = A[threadIdx.x];
  if (Lane < 16)
    for (int O = 8; O > 0; O /= 2)
      V += __shfl_down_sync(0xffffu, V, O);
  // CHECK: :[[@LINE-1]]:12: warning: this __shfl_down_sync reads, for lane 8, lane 16, which its mask (0x0000ffff) does not name: {{.*}} [cuda-scope-warp-mask]
  A[threadIdx.x] = V;
}

// Positive: up, xor and index shuffles whose source leaves the mask.
__global__ void otherModes(int *A) {
  int Lane = threadIdx.x % 32;
  int V = A[threadIdx.x];
  if (Lane >= 16)
    V += __shfl_up_sync(0xffff0000, V, 1);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_up_sync reads, for lane 16, lane 15, which its mask (0xffff0000) does not name: {{.*}} [cuda-scope-warp-mask]
  if (Lane < 16)
    V += __shfl_xor_sync(0x0000ffff, V, 16);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_xor_sync reads, for lane 0, lane 16, which its mask (0x0000ffff) does not name: {{.*}} [cuda-scope-warp-mask]
  if (Lane < 4)
    V += __shfl_sync(0x0000000f, V, 4);
  // CHECK: :[[@LINE-1]]:10: warning: this __shfl_sync reads, for lane 0, lane 4, which its mask (0x0000000f) does not name: {{.*}} [cuda-scope-warp-mask]
  A[threadIdx.x] = V;
}

// Positive: a mask a template is given.
template <unsigned Mask> __device__ int fromLane9(int V) { return __shfl_sync(Mask, V, 9); }
__global__ void templateMask(int *A) {
  if (threadIdx.x % 32 < 8)
    A[threadIdx.x] = fromLane9<0xffu>(A[threadIdx.x]);
}
// CHECK: :[[@LINE-5]]:67: warning: this __shfl_sync reads, for lane 0, lane 9, which its mask (0x000000ff) does not name: {{.*}} [cuda-scope-warp-mask]

// Negative cases.
__global__ void insideTheMask(float *A, int Offset) {
  int Lane = threadIdx.x % 32;
  float V = A[threadIdx.x];
  if (Lane < 16) {
    for (int O = 8; O > 0; O /= 2)
      V += __shfl_down_sync(0x0000ffff, V, O, 16); // no-warning: a width of 16 keeps every source in lanes 0-15
    V += __shfl_sync(0x0000ffff, V, 0, 16);        // no-warning: lane 0 is in the mask
    V += __shfl_down_sync(0x0000ffff, V, Offset);  // no-warning: the offset is not known
  }
  if (Lane >= 16)
    V += __shfl_sync(0xffff0000, V, 0, 16); // no-warning: lane 0 of the upper segment is lane 16
  V += __shfl_down_sync(0xffffffff, V, 8);  // no-warning: the full mask leaves no lane out
  if (Lane < 8)
    V += __shfl_up_sync(0x000000ff, V, 1); // no-warning: lane 0's source is below the warp; it keeps its own
  A[threadIdx.x] = V;
}
