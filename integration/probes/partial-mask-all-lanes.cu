// Probe: a shuffle whose constant mask leaves out lanes that execute it (PTX shfl.sync: undefined
// for an executing thread not in membermask). The shape of a B-tree's node split (HeCBench
// btree-cuda map_warps.cu:151): every lane runs __shfl_up_sync(0x0000ffff, v, 16), and lanes 16-31
// expect lanes 0-15's values. Prints how many reads of lanes 16-31 were not lane - 16's value, and
// the same for the two lanes outside the mask of __shfl_sync(0x00ffffff, v, 0) (a 24-bit mask).
#include <cstdio>
__global__ void up16(int* wrong_up, int* wrong_idx) {
  const int lane = threadIdx.x % 32;
  const int v = lane + 1;
  const int u = __shfl_up_sync(0x0000ffff, v, 16);
  if (lane >= 16 && u != lane - 16 + 1) atomicAdd(wrong_up, 1);
  const int w = __shfl_sync(0x00ffffff, v, 0);
  if (lane >= 24 && w != 1) atomicAdd(wrong_idx, 1);
}
int main() {
  int *a, *b;
  cudaMalloc(&a, 4);
  cudaMalloc(&b, 4);
  cudaMemset(a, 0, 4);
  cudaMemset(b, 0, 4);
  const int launches = 2000, blocks = 264, threads = 256;
  for (int i = 0; i < launches; ++i) up16<<<blocks, threads>>>(a, b);
  cudaError_t e = cudaDeviceSynchronize();
  int ha = 0, hb = 0;
  cudaMemcpy(&ha, a, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hb, b, 4, cudaMemcpyDeviceToHost);
  printf("up16: %d of %lld reads by lanes 16-31 wrong; idx 24-bit mask: %d of %lld reads by lanes 24-31 wrong; %s\n",
         ha, (long long)launches * blocks * threads / 2, hb, (long long)launches * blocks * threads / 4,
         cudaGetErrorName(e));
  return 0;
}
