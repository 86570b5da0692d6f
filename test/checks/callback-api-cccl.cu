// The toolkit's own CCCL headers (CUB, Thrust, libcu++) are correct code: a TU that uses them and
// registers a host-memory-only callback gives no cuda-scope finding, on either side.
// REQUIRES: cuda-toolkit
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note|error}}:'
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <cuda/barrier>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <cuda_runtime.h>

void CUDART_CB markDone(void *P) { *static_cast<int *>(P) = 1; } // no-warning: host memory only
void sortKeys(cudaStream_t S, thrust::device_vector<int> &Keys, int *Done) {
  thrust::sort(thrust::cuda::par.on(S), Keys.begin(), Keys.end());
  cudaLaunchHostFunc(S, markDone, Done);
}
