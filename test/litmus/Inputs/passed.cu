// Objects a kernel builds from what it was given and hands down by reference (a reclaimer, an
// allocator): their fields hold what the constructor stored, in every function that receives them,
// as long as no function on the way assigns the object whole or writes the field.
// LITMUS: allowed cuda-scope-mismatch
// An epoch announcer handed by reference to a helper (as a kernel hands its reclaimer down): its
// word is every block's, and one update of it is block scope.
struct NarrowAnnounce {
  unsigned *words;
  __device__ NarrowAnnounce(unsigned *w) : words(w) {}
  __device__ void quiesce() { atomicOr_block(&words[0], 1u); }
  __device__ void leave() { atomicExch(&words[0], 0u); }
};
__device__ void narrowWork(NarrowAnnounce &a) { a.leave(); }
__global__ void announcerPassedNarrow(unsigned *words) {
  NarrowAnnounce a(words);
  narrowWork(a);
  a.quiesce();
}

// LITMUS: forbidden
// The same with device-scope updates.
struct Announce {
  unsigned *words;
  __device__ Announce(unsigned *w) : words(w) {}
  __device__ void quiesce() { atomicOr(&words[0], 1u); }
  __device__ void leave() { atomicExch(&words[0], 0u); }
};
__device__ void work(Announce &a) { a.leave(); }
__global__ void announcerPassed(unsigned *words) {
  Announce a(words);
  work(a);
  a.quiesce();
}
