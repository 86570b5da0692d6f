// cuda-scope-grid-sync: a grid sync in a kernel that a CUDA graph's kernel node runs
// (cudaKernelNodeParams::func), not cooperatively unless the node's attribute says so; against the
// real CUDA 13 headers, both clang-tidy sides and the IR pass with the launches the host side's
// facts give it (the cuda-scope command's way).
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note|error}}:'
// A file that asks for a cooperative node by attribute: no finding.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-grid-sync' %s -- %toolkit_host_flags -DCOOPERATIVE_NODE \
// RUN:   | count 0
// Through the cuda-scope command: the host side's facts name the node as a launch that is not
// cooperative, and the IR pass reports the grid sync at the same place as clang-tidy.
// RUN: %cuda_scope_tool --cuda-path=%cuda_path --format=json -o %t.json %s -- -arch=sm_90 -std=c++17 || true
// RUN: %python %S/../tools/Inputs/summarize.py < %t.json | FileCheck %s --check-prefix=TOOL
// TOOL: finding {{.*}}grid-sync-graph-node.cu:26:8 cuda-scope-grid-sync sides=host,IR pass sm_90
// TOOL-NOT: finding
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void twoPhases(float *X, float *Total) {
  cg::grid_group Grid = cg::this_grid();
  atomicAdd(Total, X[Grid.thread_rank()]);
  Grid.sync();
  // CHECK: :[[@LINE-1]]:8: warning: kernel 'twoPhases' synchronizes its whole grid here (grid_group::sync()), but is launched with a kernel node of a CUDA graph at {{.*}}grid-sync-graph-node.cu:[[#@LINE+14]], which is not a cooperative launch: {{.*}}cudaGraphKernelNodeSetAttribute{{.*}} [cuda-scope-grid-sync]
  // CHECK: :[[#@LINE+13]]:3: note: launched here with a kernel node of a CUDA graph
  X[Grid.thread_rank()] /= *Total;
}

// no-warning: a kernel node whose kernel does not sync its grid
__global__ void scale(float *X) { X[threadIdx.x] *= 2; }

cudaGraphNode_t addNodes(cudaGraph_t G, float *X, float *Total) {
  static void *Args[] = {&X, &Total};
  cudaKernelNodeParams P = {};
  P.gridDim = dim3(8);
  P.blockDim = dim3(64);
  P.kernelParams = Args;
  P.func = (void *)twoPhases;
  cudaGraphNode_t Node;
  cudaGraphAddKernelNode(&Node, G, nullptr, 0, &P);
#ifdef COOPERATIVE_NODE
  cudaKernelNodeAttrValue V = {};
  V.cooperative = 1;
  cudaGraphKernelNodeSetAttribute(Node, cudaKernelNodeAttributeCooperative, &V);
#endif
  cudaKernelNodeParams Q = P;
  Q.func = (void *)scale;
  cudaGraphNode_t Other;
  cudaGraphAddKernelNode(&Other, G, &Node, 1, &Q);
  return Other;
}
