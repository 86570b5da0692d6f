// A release that nothing in its kernel reads, in a kernel that waits on a word nothing in it
// writes: the kernel's partners run while it runs, outside it (another GPU, the host, another
// grid), and the release's reader is one of them, outside every block. Block scope cannot include
// it, whether the word is the block's own (a channel per block) or not. Both front ends say so,
// with the same reason.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-insufficient' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --check-prefix=TIDY --implicit-check-not='{{warning|note}}:'
// RUN: %clang %cuda_device_flags -O2 -fpass-plugin=%cuda_scope_pass -Rpass-analysis=cuda-scope -S -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS --implicit-check-not=remark:
#include <cuda_runtime.h>

struct Channel {
  unsigned long long *inbound;
  unsigned long long *remoteInbound;
};

__device__ void waitInbound(Channel &c) {
  unsigned long long v;
  do {
    asm volatile("ld.global.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(c.inbound) : "memory");
  } while (v < 1);
}

__global__ void signalPeer(Channel *channels, int nPeers) {
  Channel *mine = channels + nPeers * blockIdx.x;
  if (threadIdx.x < nPeers) {
    asm volatile("red.release.cta.global.add.u64 [%0], 1;" ::"l"(mine[threadIdx.x].remoteInbound) : "memory");
    // TIDY: :[[@LINE-1]]:5: warning: {{.*}} is updated with thread_scope_block here, but nothing in kernel 'signalPeer' reads it and kernel 'signalPeer' waits on writes from outside it: its reader runs outside the kernel, while it runs, and thread_scope_block cannot include it; consider thread_scope_device (thread_scope_system where the reader is the host or another GPU) [cuda-scope-insufficient]
    // PASS: :[[@LINE-2]]:5: remark: {{.*}} is accessed with block scope (red.release.cta.global.add.u64) in kernel signalPeer(Channel*, int), but nothing in the kernel reads it and the kernel waits on writes from outside it: its reader runs outside the kernel, while it runs, and block scope cannot include it; consider device scope (system scope where the reader is the host or another GPU)
    waitInbound(mine[threadIdx.x]);
  }
}

// no-warning: the same signal at system scope includes every reader.
__global__ void signalPeerSystem(Channel *channels, int nPeers) {
  Channel *mine = channels + nPeers * blockIdx.x;
  if (threadIdx.x < nPeers) {
    asm volatile("red.release.sys.global.add.u64 [%0], 1;" ::"l"(mine[threadIdx.x].remoteInbound) : "memory");
    waitInbound(mine[threadIdx.x]);
  }
}

// no-warning: no wait on anything from outside; the reader may be a later kernel, which the end of
// this one orders.
__global__ void signalNoWait(Channel *channels, int nPeers) {
  Channel *mine = channels + nPeers * blockIdx.x;
  if (threadIdx.x < nPeers)
    asm volatile("red.release.cta.global.add.u64 [%0], 1;" ::"l"(mine[threadIdx.x].remoteInbound) : "memory");
}

// A relaxed signal before the wait (a handshake of execution: mscclpp's relaxedSignal, then
// wait) carries no data, but it is the kernel's half of the exchange with the writer it waits on,
// which reads it while the kernel runs: block scope cannot include that reader either.
__global__ void signalRelaxedThenWait(Channel *channels, int nPeers) {
  Channel *mine = channels + nPeers * blockIdx.x;
  if (threadIdx.x < nPeers) {
    asm volatile("red.relaxed.cta.global.add.u64 [%0], 1;" ::"l"(mine[threadIdx.x].remoteInbound) : "memory");
    // TIDY: :[[@LINE-1]]:5: warning: {{.*}} is updated with thread_scope_block here, but nothing in kernel 'signalRelaxedThenWait' reads it and kernel 'signalRelaxedThenWait' waits on writes from outside it: its reader runs outside the kernel, while it runs, and thread_scope_block cannot include it; consider thread_scope_device (thread_scope_system where the reader is the host or another GPU) [cuda-scope-insufficient]
    // PASS: :[[@LINE-2]]:5: remark: {{.*}} is accessed with block scope (red.relaxed.cta.global.add.u64) in kernel signalRelaxedThenWait(Channel*, int), but nothing in the kernel reads it and the kernel waits on writes from outside it: its reader runs outside the kernel, while it runs, and block scope cannot include it; consider device scope (system scope where the reader is the host or another GPU)
    waitInbound(mine[threadIdx.x]);
  }
}

// no-warning: a relaxed add after the wait, in no loop with it (a count of what was done, which a
// later kernel or the host reads after this one ends): nothing shows a reader while it runs.
__global__ void countAfterWaiting(Channel *channels, int nPeers) {
  Channel *mine = channels + nPeers * blockIdx.x;
  if (threadIdx.x < nPeers) {
    waitInbound(mine[threadIdx.x]);
    asm volatile("red.relaxed.cta.global.add.u64 [%0], 1;" ::"l"(mine[threadIdx.x].remoteInbound) : "memory");
  }
}
