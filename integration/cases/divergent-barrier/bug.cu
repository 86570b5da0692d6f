// divergent-barrier, bug: __syncthreads() reached by half of each block; the other half writes and leaves.
#include "../../common/harness.cuh"

constexpr int kThreads = 256;

// Each thread writes its slot; the upper half then writes its final value. The lower half reads the
// final value of its partner in the upper half after the barrier. With a barrier that every thread
// reaches after its last write, the partner's final value is what it reads.
__global__ void exchange(int* wrong) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x;
  s[t] = t;
  if (t >= kThreads / 2) s[t] = t + 1000;
  if (t < kThreads / 2) __syncthreads();  // BUG: only the lower half reaches the barrier
  if (t < kThreads / 2 && s[t + kThreads / 2] != t + kThreads / 2 + 1000) atomicAdd(wrong, 1);
}

int main(int argc, char** argv) {
  const char* name = "divergent-barrier";
  const char* variant = "bug";
  harness::require_gpu(name, variant);
  const long launches = harness::arg_long(argc, argv, 1, 20000);
  const double max_seconds = harness::arg_double(argc, argv, 2, 10.0);
  harness::print_device(name, variant);
  cudaDeviceProp p;
  HARNESS_CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = 4 * p.multiProcessorCount;
  int* wrong;
  HARNESS_CHECK(cudaMalloc(&wrong, sizeof(int)));
  HARNESS_CHECK(cudaMemset(wrong, 0, sizeof(int)));
  double seconds = 0;
  const long done = harness::launch_loop(launches, max_seconds, [&](long) { exchange<<<blocks, kThreads>>>(wrong); },
                                         &seconds);
  const cudaError_t err = cudaDeviceSynchronize();
  int wrong_host = 0;
  HARNESS_CHECK(cudaMemcpy(&wrong_host, wrong, sizeof(int), cudaMemcpyDeviceToHost));
  const long long reads = (long long)done * blocks * (kThreads / 2);
  printf("%ld launches of %d blocks in %.1f s: %d of %lld reads after the barrier were not the final value; %s\n",
         done, blocks, seconds, wrong_host, reads, cudaGetErrorName(err));
  harness::result(name, variant, reads, wrong_host + (err != cudaSuccess))
      .num("launches", done)
      .num("wrong_reads", wrong_host)
      .num("error", err)
      .print();
  return 0;
}
