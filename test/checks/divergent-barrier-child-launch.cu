// cuda-scope-divergent-barrier and cuda-scope-warp-mask with dynamic parallelism: a kernel that a
// thread launches from the device runs in a grid of its own, so its barriers and warp collectives
// are its own blocks' and warps', not the launching thread's. The launch under a condition on the
// thread's index (one thread launches the children) decides none of them. Both clang-tidy sides,
// and the IR pass at the same places (it sees a launch, not a call).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask' %s -- %toolkit_host_flags -fgpu-rdc \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask' %s -- %toolkit_device_flags -fgpu-rdc \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-divergent-barrier,cuda-scope-warp-mask' %s -- %toolkit_device_flags -fgpu-rdc 2>/dev/null \
// RUN:   | sed -n 's/^.*child-launch.cu:\([0-9]*\):\([0-9]*\): warning: .* at .*child-launch.cu:\([0-9]*\) that .*\[\(cuda-scope-[a-z-]*\)\]$/\4 \1 \3/p' \
// RUN:   | sort > %t.tidy
// RUN: %clang %toolkit_device_flags -fgpu-rdc -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | sed -n 's/^.*child-launch.cu:\([0-9]*\):\([0-9]*\): remark: .* at .*child-launch.cu:\([0-9]*\) that .*\[-Rpass-analysis=cuda-scope\]$/\1 \3/p' \
// RUN:   | sort > %t.ir
// RUN: sed 's/^cuda-scope-[a-z-]* //' %t.tidy | diff - %t.ir
// RUN: test -s %t.ir

// A quadtree's build: the block counts its points, and its last thread launches the children,
// each a grid of the same kernel.
__global__ void buildLevel(int *points, int depth) {
  __shared__ int counts[256];
  counts[threadIdx.x] = points[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads(); // no-warning: every thread of the block reaches it; the children's are theirs
  const unsigned any = __ballot_sync(0xffffffffu, counts[threadIdx.x] > 0); // no-warning: every lane
  if (depth > 0 && threadIdx.x == blockDim.x - 1 && any != 0)
    buildLevel<<<4, 256>>>(points + 1024, depth - 1);
}

// Positive: the same barrier, reached in this grid under a condition on the thread's index.
__global__ void countUnderLane(int *points) {
  __shared__ int counts[256];
  if (threadIdx.x < 128) {
    counts[threadIdx.x] = points[threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: this block barrier (__syncthreads) is reached under a condition at {{.*}}child-launch.cu:[[#@LINE-3]] that threads of one block may decide differently, {{.*}} [cuda-scope-divergent-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads of one block may decide this condition differently
  }
  points[threadIdx.x] = counts[0];
}
