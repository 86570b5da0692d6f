// NCCL's GPU-initiated networking (ncclGin) from the toolkit: a put, a get or a signal posts a
// descriptor that a proxy thread or the NIC carries out later, so what the call's body does
// (stores into a queue, a wait for room in it) is not what it does to memory. Both front ends put
// the call's contract where the call is: a put writes the peer's window, a signal adds to a word
// in the peer's memory after the payloads sent before it (a release). A barrier across the team
// asked for relaxed, then a put, lets the put land before the peer is done with its buffer.
// REQUIRES: toolkit-nccl
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %toolkit_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note}}:'
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 -mllvm -sink-common-insts=false \
// RUN:   -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
// The same with full debug information, where the pass names the library's functions by their
// linkage names rather than by their file:
// RUN: %clang %toolkit_device_flags -include %cuda_scope_build/plugin/include/cuda-scope-nvcc.h -O2 -g -mllvm -sink-common-insts=false \
// RUN:   -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
// Through the cuda-scope command the two front ends' reports are one, at the barrier's call, and
// the barrier marked as intended at its call (NOLINT) is silenced:
// RUN: %cuda_scope_tool --format=sarif -o %t.sarif %s -- --cuda-gpu-arch=sm_90 %toolkit_arch_flags || true
// RUN: %python -c "import json; [print(r['ruleId'], r['locations'][0]['physicalLocation']['region']['startLine']) for r in json.load(open('%t.sarif'))['runs'][0]['results']]" \
// RUN:   | FileCheck %s --check-prefix=SARIF
// SARIF: cuda-scope-release-acquire 39
// SARIF-NOT: cuda-scope
#include <nccl_device.h>

// An all-to-all whose first barrier is asked for relaxed: the puts after it may overwrite a
// peer's receive buffer while the peer still reads what its last launch received there.
// TIDY: release-acquire-gin-toolkit.cu:[[@LINE+10]]:7: warning: {{.*}} is waited for here with a relaxed load and what 'ncclGin::put' sends is written into another GPU's memory after it, with no acquire between them; {{.*}} [cuda-scope-release-acquire]
// TIDY: nccl_device/impl/gin__funcs.h:{{[0-9]+}}:{{[0-9]+}}: note: {{.*}} is accessed here, in the library's code
// TIDY: release-acquire-gin-toolkit.cu:[[@LINE+13]]:9: note: what 'ncclGin::put' sends is written here
// TIDY: release-acquire-gin-toolkit.cu:[[@LINE+7]]:3: note: 'sync' is called here
// PASS: release-acquire-gin-toolkit.cu:[[@LINE+6]]:7: remark: {{.*}} is waited for here (ld.relaxed.sys.b64, relaxed) and another GPU's memory is written after it at {{.*}}release-acquire-gin-toolkit.cu:[[@LINE+11]]:9 with no acquire between them
__global__ void allToAllRelaxed(ncclWindow_t sendwin, size_t sendoffset, ncclWindow_t recvwin, size_t recvoffset,
                                size_t count, ncclDevComm devComm) {
  ncclGin gin{devComm, 0};
  unsigned int signalIndex = blockIdx.x;
  ncclGinBarrierSession<ncclCoopCta> bar{ncclCoopCta(), gin, ncclTeamTagRail(), blockIdx.x};
  bar.sync(ncclCoopCta(), cuda::memory_order_relaxed, ncclGinFenceLevel::Relaxed);
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int nthreads = blockDim.x * gridDim.x;
  const size_t size = count * sizeof(float);
  for (int r = tid; r < devComm.nRanks; r += nthreads)
    gin.put(ncclTeamWorld(devComm), r, recvwin, recvoffset + devComm.rank * size, sendwin, sendoffset + r * size,
            size, ncclGin_SignalInc{signalIndex});
  gin.flush(ncclCoopCta());
  bar.sync(ncclCoopCta(), cuda::memory_order_release, ncclGinFenceLevel::Relaxed);
}

// no-warning: the barrier is asked for acquire, so the puts follow the peers' releases.
__global__ void allToAllAcquire(ncclWindow_t sendwin, size_t sendoffset, ncclWindow_t recvwin, size_t recvoffset,
                                size_t count, ncclDevComm devComm) {
  ncclGin gin{devComm, 0};
  unsigned int signalIndex = blockIdx.x;
  ncclGinBarrierSession<ncclCoopCta> bar{ncclCoopCta(), gin, ncclTeamTagRail(), blockIdx.x};
  bar.sync(ncclCoopCta(), cuda::memory_order_acquire, ncclGinFenceLevel::Relaxed);
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int nthreads = blockDim.x * gridDim.x;
  const size_t size = count * sizeof(float);
  for (int r = tid; r < devComm.nRanks; r += nthreads)
    gin.put(ncclTeamWorld(devComm), r, recvwin, recvoffset + devComm.rank * size, sendwin, sendoffset + r * size,
            size, ncclGin_SignalInc{signalIndex});
  gin.flush(ncclCoopCta());
  bar.sync(ncclCoopCta(), cuda::memory_order_release, ncclGinFenceLevel::Relaxed);
}

// no-warning: the receiving side waits, relaxed, for the peers' puts into its own window and reads
// that window through a local pointer: the wait is for the NIC's signal, after the payloads it
// settled, and this GPU's memory is not a peer's.
__global__ void receiveRelaxed(ncclWindow_t recvwin, size_t count, float *out, ncclDevComm devComm) {
  ncclGin gin{devComm, 0};
  uint64_t base = gin.readSignal(blockIdx.x);
  gin.waitSignal(ncclCoopCta(), blockIdx.x, base + devComm.nRanks, 32, cuda::memory_order_relaxed);
  const float *in = static_cast<const float *>(ncclGetLocalPointer(recvwin, 0));
  for (size_t i = threadIdx.x; i < count; i += blockDim.x)
    out[i] = in[i];
}

// no-warning: a signal carries the payloads the context sent before it (the default asks the
// library to release what the thread wrote), so a put, a signal and the peers' wait need no fence.
__global__ void putThenSignal(ncclWindow_t sendwin, ncclWindow_t recvwin, size_t bytes, int peer, ncclDevComm devComm) {
  ncclGin gin{devComm, 0};
  gin.put(ncclTeamWorld(devComm), peer, recvwin, 0, sendwin, 0, bytes);
  gin.signal(ncclTeamWorld(devComm), peer, ncclGin_SignalInc{0});
}

// The relaxed barrier again, marked as intended at the call: clang-tidy and the command are silent;
// the pass alone knows no NOLINT:
// PASS: release-acquire-gin-toolkit.cu:[[@LINE+5]]:7: remark: {{.*}} is waited for here (ld.relaxed.sys.b64, relaxed) and another GPU's memory is written after it
__global__ void allToAllRelaxedIntended(ncclWindow_t sendwin, ncclWindow_t recvwin, size_t size, ncclDevComm devComm) {
  ncclGin gin{devComm, 0};
  unsigned int signalIndex = blockIdx.x;
  ncclGinBarrierSession<ncclCoopCta> bar{ncclCoopCta(), gin, ncclTeamTagRail(), blockIdx.x};
  bar.sync(ncclCoopCta(), cuda::memory_order_relaxed, ncclGinFenceLevel::Relaxed); // NOLINT(cuda-scope-release-acquire)
  for (int r = threadIdx.x; r < devComm.nRanks; r += blockDim.x)
    gin.put(ncclTeamWorld(devComm), r, recvwin, devComm.rank * size, sendwin, r * size, size,
            ncclGin_SignalInc{signalIndex});
}
