// grid-sync-cooperative-grid, fixed: the grid is the occupancy query times the SM count, and the kernel loops over n with a grid stride.
#include "../../common/harness.cuh"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

// Every element is written, the grid syncs, and each thread checks an element another block wrote.
__global__ void fill_then_check(int* x, long long n, unsigned* missing) {
  cg::grid_group grid = cg::this_grid();
  for (long long i = grid.thread_rank(); i < n; i += grid.size()) x[i] = 1;
  grid.sync();
  for (long long i = grid.thread_rank(); i < n; i += grid.size())
    if (x[n - 1 - i] != 1) atomicAdd(missing, 1u);
}

int main(int argc, char** argv) {
  const char* name = "grid-sync-cooperative-grid";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long long n = harness::arg_long(argc, argv, 1, 1048576);
  const long rounds = harness::arg_long(argc, argv, 2, 3);
  harness::print_device(name, variant);
  int* x;
  unsigned* missing;
  HARNESS_CHECK(cudaMalloc(&x, n * sizeof(int)));
  HARNESS_CHECK(cudaMalloc(&missing, sizeof(unsigned)));
  std::vector<int> host(n);
  long failed = 0, refused = 0;
  long long unwritten_total = 0;
  unsigned blocks = 0;
  cudaError_t first_error = cudaSuccess;
  for (long r = 0; r < rounds; ++r) {
    HARNESS_CHECK(cudaMemset(x, 0, n * sizeof(int)));
    HARNESS_CHECK(cudaMemset(missing, 0, sizeof(unsigned)));
    long long n_arg = n;
    void* args[] = {&x, &n_arg, &missing};
    int sms = 0, per_sm = 0;
    HARNESS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    HARNESS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fill_then_check, 1024, 0));
    blocks = (unsigned)(sms * per_sm);
    const cudaError_t launch =  // FIX: the resident grid, whatever n is; the kernel's grid stride covers n
        cudaLaunchCooperativeKernel((void*)fill_then_check, dim3(blocks), dim3(1024), args, 0, 0);
    const cudaError_t sync = cudaDeviceSynchronize();
    unsigned missing_host = 0;
    HARNESS_CHECK(cudaMemcpy(&missing_host, missing, sizeof(unsigned), cudaMemcpyDeviceToHost));
    HARNESS_CHECK(cudaMemcpy(host.data(), x, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long unwritten = 0;
    for (long long i = 0; i < n; ++i) unwritten += host[i] != 1;
    if (launch != cudaSuccess && first_error == cudaSuccess) first_error = launch;
    refused += launch != cudaSuccess;
    unwritten_total += unwritten;
    failed += launch != cudaSuccess || sync != cudaSuccess || missing_host != 0 || unwritten != 0;
    cudaGetLastError();  // a refused launch is not sticky: clear it for the next round
  }
  printf("%ld rounds on %u blocks of 1024 (n = %lld): %ld launches refused (%s), %lld elements never written\n", rounds,
         blocks, n, refused, cudaGetErrorName(first_error), unwritten_total);
  harness::result(name, variant, rounds, failed)
      .num("blocks", blocks)
      .num("refused", refused)
      .num("error", first_error)
      .num("unwritten", unwritten_total)
      .print();
  return 0;
}
