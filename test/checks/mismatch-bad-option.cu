// An AcrossKernels value that is not a boolean is a configuration error,
// reported by name; the check still runs, with the default (false).
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-mismatch' \
// RUN:   -config="{CheckOptions: {cuda-scope-mismatch.AcrossKernels: 'sometimes'}}" \
// RUN:   %s -- %cuda_device_flags 2>&1 | FileCheck %s --implicit-check-not='warning:'
#include <cuda/atomic>
// CHECK-DAG: error: invalid value 'sometimes' for option 'AcrossKernels' of check 'cuda-scope-mismatch': expected 'true' or 'false' [clang-tidy-config]
__device__ int Flag;
__global__ void raise() { atomicExch_block(&Flag, 1); (void)cuda::atomic_ref<int, cuda::thread_scope_device>(Flag).load(); }
// CHECK-DAG: :[[@LINE-1]]:27: warning: 'Flag' is updated with thread_scope_block here but loaded with thread_scope_device in other blocks of kernel 'raise';
__device__ int Other;
__global__ void perBlock() { atomicExch_block(&Other, 1); } // no-warning: grid() is another kernel, not concurrent by default
__global__ void grid() { atomicExch(&Other, 1); }
