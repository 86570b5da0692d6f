// A message is data written, then a flag set; the flag waited on or tested, then the data read.
// It is only received if a release on the producer's side synchronizes with an acquire on the
// consumer's. Each kernel below leaves one side (or both) without.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_device_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Kernel bodies are in the host-side AST too: the same findings.
// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
#include <cuda/atomic>

using DeviceRef = cuda::atomic_ref<int, cuda::thread_scope_device>;

// Block 0 publishes, the others receive; relaxed on both sides, no fence.
__global__ void relaxedBoth(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:22: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+2]]:29: note: kernel 'relaxedBoth' receives 'Flag' here
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    // CHECK: :[[@LINE-1]]:29: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-8]]:22: note: kernel 'relaxedBoth' publishes 'Flag' here
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// nvcc's builtins with an order argument.
__global__ void nvBuiltins(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    __nv_atomic_store_n(Flag, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    // CHECK: :[[@LINE-1]]:5: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+2]]:12: note: kernel 'nvBuiltins' receives 'Flag' here
  } else {
    while (__nv_atomic_load_n(Flag, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) == 0) {
    // CHECK: :[[@LINE-1]]:12: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-8]]:5: note: kernel 'nvBuiltins' publishes 'Flag' here
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// Legacy CUDA: a volatile flag, no fence.
__global__ void volatileFlag(int *Data, volatile int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    *Flag = 1;
    // CHECK: :[[@LINE-1]]:11: warning: 'Flag' is published here with a volatile store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a cuda::atomic_ref release store, or '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+2]]:12: note: kernel 'volatileFlag' receives 'Flag' here
  } else {
    while (*Flag == 0) {
    // CHECK: :[[@LINE-1]]:12: warning: 'Flag' is received here with a volatile load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider a cuda::atomic_ref acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-8]]:11: note: kernel 'volatileFlag' publishes 'Flag' here
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// The flag is set with atomicExch and read with a plain load in the spin.
__global__ void plainSpin(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    atomicExch(Flag, 1);
    // CHECK: :[[@LINE-1]]:5: warning: 'Flag' is published here with a relaxed read-modify-write after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:23: note: 'Data' is written here
    // CHECK: :[[@LINE+2]]:12: note: kernel 'plainSpin' receives 'Flag' here
  } else {
    while (*Flag == 0) {
    // CHECK: :[[@LINE-1]]:12: warning: 'Flag' is received here with a plain load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider a cuda::atomic_ref acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:23: note: 'Data' is read here
    // CHECK: :[[@LINE-8]]:5: note: kernel 'plainSpin' publishes 'Flag' here
    }
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// A test instead of a wait; the value kept in a variable; a wait() with relaxed order.
__global__ void tested(int *Data, int *Flag, int *Out) {
  if (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 1)
  // CHECK: :[[@LINE-1]]:24: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
  // CHECK: :[[@LINE+2]]:14: note: 'Data' is read here
  // CHECK: :[[@LINE+3]]:20: note: kernel 'tested' publishes 'Flag' here
    Out[0] = Data[0];
  Data[1] = 0;
  DeviceRef(*Flag).store(1, cuda::memory_order_release);
}
// A node written before a spin lock is taken, read by the next holder under it.
__global__ void lockTakenAfterWrite(unsigned *Lock, int *Nodes, int *Head, int *Out) {
  Nodes[blockIdx.x] = 1;
  // no-warning: the CAS that takes the lock stores 1, and a waiter leaves its spin only on 0, so it
  // publishes nothing; the exchange that stores 0, after a fence, hands the node on.
  while (atomicCAS(Lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  Out[blockIdx.x] = Nodes[*Head];
  *Head = blockIdx.x;
  __threadfence();
  atomicExch(Lock, 0u);
}
__global__ void lockHandedOnUnfenced(unsigned *Lock, int *Nodes, int *Head, int *Out) {
  Nodes[blockIdx.x] = 1;
  while (atomicCAS(Lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  Out[blockIdx.x] = Nodes[*Head];
  *Head = blockIdx.x;
  atomicExch(Lock, 0u);
  // CHECK: :[[@LINE-1]]:3: warning: 'Lock' is published here with a relaxed read-modify-write after plain writes to 'Head', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
  // CHECK: :[[@LINE-3]]:9: note: 'Head' is written here
  // CHECK: :[[@LINE-8]]:10: note: kernel 'lockHandedOnUnfenced' receives 'Lock' here
}
__global__ void relayed(int *Data, int *Flag, int *Out) {
  int Seen;
  do {
    Seen = DeviceRef(*Flag).load(cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:29: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:12: note: 'Data' is read here
    // CHECK: :[[@LINE+4]]:20: note: kernel 'relayed' publishes 'Flag' here
  } while (Seen == 0);
  Out[0] = Data[0];
  Data[1] = 0; // the kernel writes Data too: it is a message, not only input
  DeviceRef(*Flag).store(1, cuda::memory_order_release); // a value the wait leaves on
}
__global__ void waited(int *Data, int *Flag, int *Out) {
  DeviceRef(*Flag).wait(0, cuda::memory_order_relaxed);
  // CHECK: :[[@LINE-1]]:20: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
  // CHECK: :[[@LINE+2]]:12: note: 'Data' is read here
  // CHECK: :[[@LINE+3]]:20: note: kernel 'waited' publishes 'Flag' here
  Out[0] = Data[0];
  Data[1] = 0;
  DeviceRef(*Flag).store(1, cuda::memory_order_release);
}

// Inline PTX: a relaxed load into a variable, tested by the loop.
__global__ void ptxSpin(int *Data, int *Flag, int *Out) {
  unsigned Seen = 0;
  while (Seen == 0)
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(Seen) : "l"(Flag) : "memory");
    // CHECK: :[[@LINE-1]]:5: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+2]]:12: note: 'Data' is read here
    // CHECK: :[[@LINE+3]]:20: note: kernel 'ptxSpin' publishes 'Flag' here
  Out[0] = Data[0];
  Data[1] = 0;
  DeviceRef(*Flag).store(1, cuda::memory_order_release);
}

// Fences narrower than the communication: block scope, across blocks.
__global__ void blockFences(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[threadIdx.x] = 42;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
    // CHECK: :[[@LINE-1]]:5: warning: 'cuda::atomic_thread_fence' orders the message through 'Flag' and 'Data' with thread_scope_block, but a thread in another block is on the other side; a fence's scope must include the threads it synchronizes with; consider thread_scope_device [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+2]]:22: note: 'Flag' is published here with a relaxed store
    // CHECK: :[[@LINE-4]]:23: note: 'Data' is written here
    DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  } else {
    while (DeviceRef(*Flag).load(cuda::memory_order_relaxed) == 0) {
    }
    asm volatile("fence.acq_rel.cta;" ::: "memory");
    // CHECK: :[[@LINE-1]]:5: warning: 'fence.acq_rel.cta' orders the message through 'Flag' and 'Data' with thread_scope_block, but a thread in another block is on the other side; a fence's scope must include the threads it synchronizes with; consider thread_scope_device [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-4]]:29: note: 'Flag' is received here with a relaxed load
    // CHECK: :[[@LINE+1]]:23: note: 'Data' is read here
    Out[blockIdx.x] = Data[threadIdx.x];
  }
}

// The "last block" reduction: the ticket elects the last block, which reads every block's
// partial; no fence before the ticket, none after it. The ticket's value reaches the test through
// a __shared__ flag and __syncthreads().
__device__ unsigned Ticket;
__device__ int Partial[1024];
__global__ void lastBlock(int *Out) {
  __shared__ bool Last;
  Partial[blockIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) {
    unsigned T = atomicAdd(&Ticket, 1u);
    // CHECK: :[[@LINE-1]]:18: warning: 'Ticket' is published here with a relaxed read-modify-write after plain writes to 'Partial', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-4]]:23: note: 'Partial' is written here
    // CHECK: :[[@LINE-3]]:18: warning: 'Ticket' is received here with a relaxed read-modify-write and 'Partial' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+8]]:12: note: 'Partial' is read here
    Last = T == gridDim.x - 1;
  }
  __syncthreads();
  if (!Last)
    return;
  int Sum = 0;
  for (unsigned B = 0; B < gridDim.x; ++B)
    Sum += Partial[B];
  *Out = Sum;
  Ticket = 0; // no-warning: resets the ticket for the next launch; it publishes nothing
}

// A grid barrier whose arrive is right (a fence, then a relaxed count) but whose spin is a relaxed
// load: what other blocks wrote before arriving may not be seen after it.
__device__ unsigned Arrived;
__global__ void gridBarrier(int *Data, int *Out) {
  Data[blockIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(&Arrived, 1u);
    while (cuda::atomic_ref<unsigned, cuda::thread_scope_device>(Arrived).load(cuda::memory_order_relaxed) <
    // CHECK: :[[@LINE-1]]:75: warning: 'Arrived' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+6]]:21: note: 'Data' is read here
    // CHECK: :[[@LINE-4]]:5: note: kernel 'gridBarrier' publishes 'Arrived' here
           gridDim.x) {
    }
  }
  __syncthreads();
  Out[blockIdx.x] = Data[(blockIdx.x + 1) % gridDim.x];
}

// A spin lock: the critical section reads and writes after a relaxed atomicCAS, and the lock is
// handed on by a relaxed atomicExch, with no __threadfence() on either side.
__device__ int Lock;
__device__ int Total;
__global__ void spinLock(int V) {
  while (atomicCAS(&Lock, 0, 1) != 0) {
  // CHECK: :[[@LINE-1]]:10: warning: 'Lock' is received here with a relaxed read-modify-write and 'Total' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
  // CHECK: :[[@LINE+3]]:9: note: 'Total' is read here
  // CHECK: :[[@LINE+3]]:3: note: kernel 'spinLock' publishes 'Lock' here
  }
  Total += V;
  atomicExch(&Lock, 0);
  // CHECK: :[[@LINE-1]]:3: warning: 'Lock' is published here with a relaxed read-modify-write after plain writes to 'Total', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
  // CHECK: :[[@LINE-3]]:9: note: 'Total' is written here
  // CHECK: :[[@LINE-9]]:10: note: kernel 'spinLock' receives 'Lock' here
}

// Through device functions: the kernel calls a publisher and waits through a helper whose return
// value is the test.
__device__ void publish(int *Data, int *Flag, int V) {
  Data[0] = V;
  DeviceRef(*Flag).store(1, cuda::memory_order_relaxed);
  // CHECK: :[[@LINE-1]]:20: warning: 'Flag' is published here with a relaxed store after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider a release store, or '__threadfence()' before it [cuda-scope-release-acquire]
  // CHECK: :[[@LINE-3]]:11: note: 'Data' is written here
  // CHECK: :[[@LINE+3]]:60: note: kernel 'helpers' receives 'Flag' here
  // CHECK: :[[@LINE+10]]:5: note: 'publish' is called here
}
__device__ bool ready(int *Flag) { return DeviceRef(*Flag).load(cuda::memory_order_relaxed) != 0; }
// CHECK: :[[@LINE-1]]:60: warning: 'Flag' is received here with a relaxed load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider an acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: :[[@LINE+10]]:12: note: 'Data' is read here
// CHECK: :[[@LINE-9]]:20: note: kernel 'helpers' publishes 'Flag' here
// CHECK: :[[@LINE+6]]:13: note: 'ready' is called here
// The notes name the calls that reach a helper's flag, innermost first.
__global__ void helpers(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    publish(Data, Flag, 42);
  } else {
    while (!ready(Flag)) {
    }
    *Out = Data[0];
  }
}

// A volatile flag read through a helper: the notes name the call, as for atomic flags.
__device__ int volatileReady(const int *Flag) { return *(const volatile int *)Flag; }
// CHECK: :[[@LINE-1]]:56: warning: 'Flag' is received here with a volatile load and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider a cuda::atomic_ref acquire load, or '__threadfence()' after it [cuda-scope-release-acquire]
// CHECK: :[[@LINE+11]]:12: note: 'Data' is read here
// CHECK: :[[@LINE+6]]:27: note: kernel 'volatileHelper' publishes 'Flag' here
// CHECK: :[[@LINE+7]]:13: note: 'volatileReady' is called here
__global__ void volatileHelper(int *Data, int *Flag, int *Out) {
  if (blockIdx.x == 0) {
    Data[0] = 42;
    __threadfence();
    *(volatile int *)Flag = 1;
  } else {
    while (!volatileReady(Flag)) {
    }
    *Out = Data[0];
  }
}

// Per-block flags: the other side is in the same block, and still needs a release and acquire.
__global__ void perBlock(int *Data, int *Flags, int *Out) {
  if (threadIdx.x == 0) {
    Data[blockIdx.x] = 42;
    DeviceRef(Flags[blockIdx.x]).store(1, cuda::memory_order_relaxed);
    // CHECK: :[[@LINE-1]]:34: warning: 'Flags' is published here with a relaxed store after plain writes to 'Data', with no release between them; another thread of the block that sees the flag may still read the old data; consider a release store, or '__threadfence_block()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:22: note: 'Data' is written here
    // CHECK: :[[@LINE+2]]:41: note: kernel 'perBlock' receives 'Flags' here
  } else if (threadIdx.x == 32) {
    while (DeviceRef(Flags[blockIdx.x]).load(cuda::memory_order_acquire) == 0) {
    }
    Out[blockIdx.x] = Data[blockIdx.x];
  }
}

// Block 1 waits with a compare-and-swap that writes the flag's own value back. It wrote no data
// before it, and no thread runs both blocks' code: the wait is a receive, not a publish.
__global__ void casWait(unsigned *Flag, int *Data, int *Out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *Data = 42;
    atomicExch(Flag, 1u);
    // CHECK: :[[@LINE-1]]:5: warning: 'Flag' is published here with a relaxed read-modify-write after plain writes to 'Data', with no release between them; a thread in another block that sees the flag may still read the old data; consider '__threadfence()' before it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE-3]]:11: note: 'Data' is written here
    // CHECK: :[[@LINE+3]]:12: note: kernel 'casWait' receives 'Flag' here
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicCAS(Flag, 1u, 1u) == 0) {
    // CHECK: :[[@LINE-1]]:12: warning: 'Flag' is received here with a relaxed read-modify-write and 'Data' is read after it, with no acquire between them; the read may return data older than the flag; consider '__threadfence()' after it [cuda-scope-release-acquire]
    // CHECK: :[[@LINE+3]]:12: note: 'Data' is read here
    // CHECK: :[[@LINE-9]]:5: note: kernel 'casWait' publishes 'Flag' here
    }
    *Out = *Data;
  }
}
