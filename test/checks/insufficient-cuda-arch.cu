// Code under #if __CUDA_ARCH__ exists only on the device side: the access it
// holds is reported there and not on the host side.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --check-prefix=DEVICE --implicit-check-not='{{warning|note}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>

__global__ void count(int *Total) {
#ifdef __CUDA_ARCH__
  atomicAdd_block(Total, 1);
  // DEVICE: :[[@LINE-1]]:3: warning: 'Total' is updated with thread_scope_block by every block that runs kernel 'count'; {{.*}} [cuda-scope-insufficient]
#endif
}
