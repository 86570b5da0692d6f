// warp-mask, fixed: every lane executes the full-mask __shfl_sync; lanes 0-15 keep what it returned.
#include "../../common/harness.cuh"

// Lanes 0-15 take the value of their right neighbour: lane + 1 holds lane + 1.
__global__ void take_right(int* wrong) {
  const int lane = threadIdx.x % 32;
  int v = lane;
  int next = v;
  next = __shfl_sync(0xffffffff, v, (lane + 1) % 32);  // FIX: every lane the mask names executes it
  if (lane < 16 && next != lane + 1) atomicAdd(wrong, 1);
}

int main(int argc, char** argv) {
  const char* name = "warp-mask";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 2000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 10.0);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = 2 * p.multiProcessorCount, threads = 256;
  int* wrong;
  HARNESS_CHECK(cudaMalloc(&wrong, sizeof(int)));
  HARNESS_CHECK(cudaMemset(wrong, 0, sizeof(int)));
  double seconds = 0;
  const long done =
      harness::launch_loop(launches, max_seconds, [&](long) { take_right<<<blocks, threads>>>(wrong); }, &seconds);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong_host = 0;
  HARNESS_CHECK(cudaMemcpy(&wrong_host, wrong, sizeof(int), cudaMemcpyDeviceToHost));
  const long long reads = (long long)done * blocks * (threads / 2);
  printf("%ld launches of %d blocks in %.1f s: %d of %lld shuffled reads were not the neighbour's value; %s\n", done,
         blocks, seconds, wrong_host, reads, cudaGetErrorName(err));
  harness::result(name, variant, reads, wrong_host + (err != cudaSuccess))
      .num("launches", done)
      .num("wrong_reads", wrong_host)
      .num("error", err)
      .print();
  return 0;
}
