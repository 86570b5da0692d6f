// Layer entry [typeof]: nvcc accepts the GNU keyword typeof under -std=c++17; clang only in GNU
// modes. The layer spells it __typeof__.
//   nccl src/include/nccl_device/gin/gpi/gin_gpi.h:103 (GPI_READ_ONCE), :143 (GPI_WRITE_ONCE)
// REQUIRES: cuda-toolkit
// RUN: not %clang -fsyntax-only %toolkit_device_flags %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: unknown type name 'typeof'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_host_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-*' %s -- %toolkit_device_flags 2>&1 \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='{{error|warning}}:'
#include <cstdint>

#define READ_ONCE(x) (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

__device__ uint64_t readCounter(uint64_t *Counter) { return READ_ONCE(*Counter); }
__device__ void resetCounter(uint64_t *Counter) { WRITE_ONCE(*Counter, 0); }
