// warp-mask-source, bug: __shfl_down_sync(0x0000ffff, v, 8) inside if (lane < 16); lanes 8-15 read lanes 16-23, which the mask leaves out.
#include "../../common/harness.cuh"

// Lanes 0-15 of each warp take the value of the lane 8 above them (lane i holds i + 1, so lane i
// must read i + 9); lanes 8-15 take theirs from lanes 16-23.
__global__ void take_from_8_above(int* wrong) {
  const int lane = threadIdx.x % 32;
  const int v = lane + 1;
  int u = v;
  if (lane < 16) u = __shfl_down_sync(0x0000ffff, v, 8);  // BUG: lanes 16-23, which lanes 8-15 read, are not in the mask
  if (lane < 16 && u != lane + 9) atomicAdd(wrong, 1);
}

int main(int argc, char** argv) {
  const char* name = "warp-mask-source";
  const char* variant = "bug";
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
      harness::launch_loop(launches, max_seconds, [&](long) { take_from_8_above<<<blocks, threads>>>(wrong); }, &seconds);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong_host = 0;
  HARNESS_CHECK(cudaMemcpy(&wrong_host, wrong, sizeof(int), cudaMemcpyDeviceToHost));
  const long long reads = (long long)done * blocks * (threads / 2);
  printf("%ld launches of %d blocks in %.1f s: %d of %lld shuffled reads were not the value 8 lanes above; %s\n", done,
         blocks, seconds, wrong_host, reads, cudaGetErrorName(err));
  harness::result(name, variant, reads, wrong_host + (err != cudaSuccess))
      .num("launches", done)
      .num("wrong_reads", wrong_host)
      .num("error", err)
      .print();
  return 0;
}
