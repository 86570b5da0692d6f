// narrow-producer-scope, fixed: the producer releases the flag with device scope, which includes the consumer's block.
#include <cuda/atomic>

#include "../../common/harness.cuh"

// Each thread publishes one message (data, then flag) and receives the message of a thread in another block.
__global__ void message_passing(int* data, int* flag, harness::Tally* tally, int epoch, unsigned salt, int spin) {
  const harness::Pair p = harness::pair_for_this_thread(data, flag, salt);
  const int early = *p.peer_data;  // the consumer has read the data before: it now sits in this SM's L1

  // producer
  *p.my_data = epoch;
  cuda::atomic_ref<int, cuda::thread_scope_device>(*p.my_flag).store(epoch, cuda::memory_order_release);  // FIX: device scope includes the consumer

  // consumer
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*p.peer_flag);
  int seen = 0;
  for (int i = 0; i < spin && (seen = ready.load(cuda::memory_order_acquire)) != epoch; ++i) {
  }
  harness::tally(tally, seen == epoch, *p.peer_data == epoch, early == epoch);
}

int main(int argc, char** argv) {
  return harness::run_message_passing("narrow-producer-scope", "fixed", message_passing, argc, argv);
}
