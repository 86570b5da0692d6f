// grid-sync-graph-node, fixed: the same kernel node, made cooperative by its launch attribute.
#include "../../common/harness.cuh"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each block announces itself, the grid syncs, and each block then checks that every block had
// announced itself: a grid sync that completes makes that true.
__global__ void announce_then_count(unsigned* arrived, unsigned* short_counts) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) atomicAdd(arrived, 1u);
  grid.sync();
  if (threadIdx.x == 0 && atomicAdd(arrived, 0u) != gridDim.x) atomicAdd(short_counts, 1u);
}

int main() {
  const char* name = "grid-sync-graph-node";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  harness::print_device(name, variant);
  int sms = 0, per_sm = 0;
  HARNESS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  HARNESS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, announce_then_count, 64, 0));
  const unsigned blocks = sms * per_sm < 8 ? sms * per_sm : 8;  // co-resident: only the node's kind differs
  unsigned *arrived, *short_counts;
  HARNESS_CHECK(cudaMalloc(&arrived, sizeof(unsigned)));
  HARNESS_CHECK(cudaMalloc(&short_counts, sizeof(unsigned)));
  HARNESS_CHECK(cudaMemset(arrived, 0, sizeof(unsigned)));
  HARNESS_CHECK(cudaMemset(short_counts, 0, sizeof(unsigned)));
  cudaGraph_t graph;
  HARNESS_CHECK(cudaGraphCreate(&graph, 0));
  void* args[] = {&arrived, &short_counts};
  cudaKernelNodeParams params = {};
  params.func = (void*)announce_then_count;
  params.gridDim = dim3(blocks);
  params.blockDim = dim3(64);
  params.kernelParams = args;
  cudaGraphNode_t node;
  HARNESS_CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  cudaKernelNodeAttrValue cooperative = {};
  cooperative.cooperative = 1;
  const cudaError_t attribute =  // FIX: the node is cooperative
      cudaGraphKernelNodeSetAttribute(node, cudaKernelNodeAttributeCooperative, &cooperative);
  cudaGraphExec_t exec;
  const cudaError_t instantiate = cudaGraphInstantiate(&exec, graph, 0);
  const cudaError_t launch = instantiate == cudaSuccess ? cudaGraphLaunch(exec, 0) : instantiate;
  const cudaError_t sync = cudaDeviceSynchronize();
  unsigned short_host = 0;
  const cudaError_t copy = cudaMemcpy(&short_host, short_counts, sizeof(unsigned), cudaMemcpyDeviceToHost);
  // A later, unrelated call: a launch failure is sticky and takes the process's context with it.
  void* probe = nullptr;
  const cudaError_t later = cudaMalloc(&probe, 16);
  printf("%u blocks: attribute -> %s; instantiate -> %s (%d); graph launch -> %s (%d); synchronize -> %s (%d); "
         "copy -> %s; a later cudaMalloc -> %s (%d); %u blocks counted short\n",
         blocks, cudaGetErrorName(attribute), cudaGetErrorName(instantiate), instantiate, cudaGetErrorName(launch),
         launch, cudaGetErrorName(sync), sync, cudaGetErrorName(copy), cudaGetErrorName(later), later, short_host);
  harness::Json codes;
  codes.num("attribute", attribute).num("instantiate", instantiate).num("launch", launch).num("synchronize", sync)
      .num("later_malloc", later);
  const long long failed = (attribute != cudaSuccess) + (launch != cudaSuccess) + (sync != cudaSuccess) +
                           (copy != cudaSuccess) + (short_host != 0);
  harness::result(name, variant, 1, failed != 0).obj("error_codes", codes).num("short_counts", short_host).print();
  return 0;
}
