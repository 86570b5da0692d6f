// warp-race, fixed: the same reduction with __syncwarp() between each read and write, as the CUDA programming guide writes it.
#include "../../common/harness.cuh"
#include <vector>

// Each warp sums its 32 values in its own 64 slots of shared memory, halving the distance at each
// step, and lane 0 checks the sum. Lanes first wait an uneven time (lane % 4 times `ticks`
// cycles), as lanes with uneven work before a reduction do, so that nothing keeps them in step.
__global__ void warp_sums(const int* in, int* wrong, long long ticks) {
  __shared__ volatile int slots[256 * 2];
  const int lane = threadIdx.x & 31;
  volatile int* s = slots + (threadIdx.x / 32) * 64;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const long long start = clock64();
  while (clock64() - start < (lane % 4) * ticks) {
  }
  s[lane] = v;
  s[lane + 32] = 0;
  int sum = v;
  __syncwarp(); sum += s[lane + 16]; __syncwarp(); s[lane] = sum; __syncwarp();  // FIX: every exchange ordered
  sum += s[lane + 8]; __syncwarp(); s[lane] = sum; __syncwarp();  // FIX
  sum += s[lane + 4]; __syncwarp(); s[lane] = sum; __syncwarp();  // FIX
  sum += s[lane + 2]; __syncwarp(); s[lane] = sum; __syncwarp();  // FIX
  sum += s[lane + 1]; __syncwarp(); s[lane] = sum; __syncwarp();  // FIX
  if (lane == 0 && sum != 32 * 3) atomicAdd(wrong, 1);
}

int main(int argc, char** argv) {
  const char* name = "warp-race";
  const char* variant = "fixed";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 20000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 10.0);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = 4 * p.multiProcessorCount, threads = 256;
  int *in, *wrong;
  HARNESS_CHECK(cudaMalloc(&in, sizeof(int) * blocks * threads));
  HARNESS_CHECK(cudaMalloc(&wrong, sizeof(int)));
  std::vector<int> threes(blocks * threads, 3);
  HARNESS_CHECK(cudaMemcpy(in, threes.data(), sizeof(int) * threes.size(), cudaMemcpyHostToDevice));
  HARNESS_CHECK(cudaMemset(wrong, 0, sizeof(int)));
  double seconds = 0;
  const long done = harness::launch_loop(
      launches, max_seconds, [&](long) { warp_sums<<<blocks, threads>>>(in, wrong, 200); }, &seconds);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong_host = 0;
  HARNESS_CHECK(cudaMemcpy(&wrong_host, wrong, sizeof(int), cudaMemcpyDeviceToHost));
  const long long sums = (long long)done * blocks * (threads / 32);
  printf("%ld launches of %d blocks in %.1f s: %d of %lld warp sums were wrong; %s\n", done, blocks, seconds,
         wrong_host, sums, cudaGetErrorName(err));
  harness::result(name, variant, sums, wrong_host + (err != cudaSuccess))
      .num("launches", done)
      .num("wrong_sums", wrong_host)
      .num("error", err)
      .print();
  return 0;
}
