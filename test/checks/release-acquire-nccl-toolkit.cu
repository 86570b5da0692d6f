// NCCL's device API as the toolkit installs it (a system header): its barrier's arrival and wait
// run in the user's kernel with the order the user asks for, so both front ends read them as the
// kernel's own code. A barrier asked for relaxed before reads through the window's multicast
// address is reported at the user's call, with the library's wait in a note (clang-tidy shows no
// diagnostic inside a system header); asked for acquire, nothing is reported. A NOLINT at the call
// silences it, and the cuda-scope command reports it once, at the call, in SARIF.
// REQUIRES: toolkit-nccl
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note}}:'
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 -mllvm -sink-common-insts=false \
// RUN:   -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
// RUN: %cuda_scope_tool --format=sarif -o %t.sarif %s -- --cuda-gpu-arch=sm_90 %toolkit_arch_flags || true
// RUN: %python -c "import json; [print(r['ruleId'], r['locations'][0]['physicalLocation']['region']['startLine']) for r in json.load(open('%t.sarif'))['runs'][0]['results']]" \
// RUN:   | FileCheck %s --check-prefix=SARIF
// SARIF: cuda-scope-release-acquire 37
// SARIF-NOT: cuda-scope
#include <nccl_device.h>

__device__ __forceinline__ float sumOverTeam(const float *mc) {
  float v;
  asm volatile("multimem.ld_reduce.global.add.f32 %0, [%1];" : "=f"(v) : "l"(mc) : "memory");
  return v;
}

// The first barrier of an all-reduce over the multicast address, asked for relaxed: the reads of
// the peers' send buffers may return what they held before the peers wrote them.
// TIDY: release-acquire-nccl-toolkit.cu:[[@LINE+9]]:7: warning: {{.*}} is waited for here with a relaxed load and 'ptr' is read from another GPU's memory after it, with no acquire between them; {{.*}} [cuda-scope-release-acquire]
// TIDY: nccl_device/impl/lsa_barrier__funcs.h:{{[0-9]+}}:{{[0-9]+}}: note: {{.*}} is accessed here, in the library's code
// TIDY: release-acquire-nccl-toolkit.cu:22:3: note: 'ptr' is read here
// TIDY: release-acquire-nccl-toolkit.cu:[[@LINE+6]]:3: note: 'sync' is called here
// PASS: release-acquire-nccl-toolkit.cu:[[@LINE+5]]:7: remark: {{.*}} is waited for here (ld.relaxed.sys.b32, relaxed) and another GPU's memory is read after it at {{.*}}release-acquire-nccl-toolkit.cu:22:3 with no acquire between them
__global__ void allReduceRelaxed(ncclWindow_t send, ncclWindow_t recv, size_t count, ncclDevComm comm) {
  ncclLsaBarrierSession<ncclCoopCta> bar{ncclCoopCta(), comm, ncclTeamTagLsa(), blockIdx.x, true};
  const float *in = static_cast<const float *>(ncclGetLsaMultimemPointer(send, 0, comm));
  float *out = static_cast<float *>(ncclGetLocalPointer(recv, 0));
  bar.sync(ncclCoopCta(), cuda::memory_order_relaxed);
  for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < count; i += blockDim.x * gridDim.x)
    out[i] = sumOverTeam(in + i);
  bar.sync(ncclCoopCta(), cuda::memory_order_release);
}

// The same barrier asked for acquire: no-warning, the wait orders the reads after the peers' writes.
__global__ void allReduceAcquire(ncclWindow_t send, ncclWindow_t recv, size_t count, ncclDevComm comm) {
  ncclLsaBarrierSession<ncclCoopCta> bar{ncclCoopCta(), comm, ncclTeamTagLsa(), blockIdx.x, true};
  const float *in = static_cast<const float *>(ncclGetLsaMultimemPointer(send, 0, comm));
  float *out = static_cast<float *>(ncclGetLocalPointer(recv, 0));
  bar.sync(ncclCoopCta(), cuda::memory_order_acquire);
  for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < count; i += blockDim.x * gridDim.x)
    out[i] = sumOverTeam(in + i);
  bar.sync(ncclCoopCta(), cuda::memory_order_release);
}

// The relaxed barrier again, marked as intended at the call: both front ends' reports are silenced
// (the pass's remark, through the command, as clang-tidy's). The pass alone knows no NOLINT:
// PASS: release-acquire-nccl-toolkit.cu:[[@LINE+5]]:7: remark: {{.*}} is waited for here (ld.relaxed.sys.b32, relaxed)
__global__ void allReduceRelaxedIntended(ncclWindow_t send, ncclWindow_t recv, size_t count, ncclDevComm comm) {
  ncclLsaBarrierSession<ncclCoopCta> bar{ncclCoopCta(), comm, ncclTeamTagLsa(), blockIdx.x, true};
  const float *in = static_cast<const float *>(ncclGetLsaMultimemPointer(send, 0, comm));
  float *out = static_cast<float *>(ncclGetLocalPointer(recv, 0));
  bar.sync(ncclCoopCta(), cuda::memory_order_relaxed); // NOLINT(cuda-scope-release-acquire)
  for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < count; i += blockDim.x * gridDim.x)
    out[i] = sumOverTeam(in + i);
  bar.sync(ncclCoopCta(), cuda::memory_order_release);
}
