// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Begin and end that do not pair up: a capture left open on an early return,
// an end on a stream that is not capturing, a second begin on a capturing
// stream. A capture must be ended on the stream that began it, and a stream
// that is capturing cannot begin another (cuStreamBeginCapture).
#include <cuda_runtime.h>

__global__ void step(int *D) {}

cudaError_t earlyReturn(cudaStream_t S, int *D, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:3: warning: capture of 'S' begun here is not ended on every path; where the function returns early the stream stays in capture mode, so later work on it is recorded instead of run and synchronizing on it fails; consider ending the capture before every return [cuda-scope-capture-api]
  // CHECK: :[[@LINE+4]]:5: note: the function returns here with 'S' still being captured
  step<<<1, 1, 0, S>>>(D);
  cudaError_t Err = cudaGetLastError();
  if (Err != cudaSuccess)
    return Err;
  return cudaStreamEndCapture(S, G);
}

void wrongStream(cudaStream_t S, cudaStream_t T, int *D, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  step<<<1, 1, 0, S>>>(D);
  cudaStreamEndCapture(T, G);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamEndCapture' on 'T' while only 'S' is being captured; a capture must be ended on the stream that began it, so 'S' stays in capture mode; consider ending the capture on 'S' [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:3: note: capture of 'S' begins here
}

void doubleBegin(cudaStream_t S, int *D, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  step<<<1, 1, 0, S>>>(D);
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:3: warning: capture of 'S' begun while 'S' is already being captured; a stream that is capturing cannot begin another capture, so this call fails; consider ending the first capture before beginning another [cuda-scope-capture-api]
  // CHECK: :[[@LINE-4]]:3: note: the first capture of 'S' begins here
  cudaStreamEndCapture(S, G);
}

cudaError_t cleanupOnError(cudaStream_t S, int *D, cudaGraph_t *G) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); // no-warning: every path ends it
  step<<<1, 1, 0, S>>>(D);
  cudaError_t Err = cudaGetLastError();
  if (Err != cudaSuccess) {
    cudaGraph_t Partial;
    cudaStreamEndCapture(S, &Partial);
    return Err;
  }
  return cudaStreamEndCapture(S, G);
}

#define CHECK_RETURN(X)                                                                            \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess)                                                                         \
      return E_;                                                                                   \
  } while (0)

cudaError_t beginChecked(cudaStream_t S, int *D, cudaGraph_t *G) {
  CHECK_RETURN(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal)); // no-warning: a failed begin opened nothing
  step<<<1, 1, 0, S>>>(D);
  return cudaStreamEndCapture(S, G);
}

// One status variable for every call, as error-checking code is often
// written: once it holds another call's status, testing it says nothing of
// the begin, and the early return leaves the capture open.
cudaError_t statusReused(cudaStream_t S, int *D, const int *H, cudaGraph_t *G) {
  cudaError_t Err = cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:21: warning: capture of 'S' begun here is not ended on every path; {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+5]]:5: note: the function returns here with 'S' still being captured
  if (Err != cudaSuccess)
    return Err; // no-warning: here Err is the begin's status, which failed
  Err = cudaMemcpyAsync(D, H, 4, cudaMemcpyHostToDevice, S);
  if (Err != cudaSuccess)
    return Err;
  return cudaStreamEndCapture(S, G);
}

void beginTested(cudaStream_t S, int *D, cudaGraph_t *G) {
  if (cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return; // no-warning: the begin failed, nothing is captured
  step<<<1, 1, 0, S>>>(D);
  cudaStreamEndCapture(S, G);
}

void optional(bool UseGraph, cudaStream_t S, int *D, cudaGraph_t *G) {
  if (UseGraph)
    cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); // no-warning: ended under the same condition
  step<<<1, 1, 0, S>>>(D);
  if (UseGraph)
    cudaStreamEndCapture(S, G);
}

void beginOnly(cudaStream_t S) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); // no-warning: never ended here, a begin wrapper
}

void twoStreams(cudaStream_t A, cudaStream_t B, int *D, cudaGraph_t *GA, cudaGraph_t *GB) {
  cudaStreamBeginCapture(A, cudaStreamCaptureModeGlobal); // no-warning: two streams, each ended
  cudaStreamBeginCapture(B, cudaStreamCaptureModeGlobal); // no-warning: a different stream
  step<<<1, 1, 0, A>>>(D);
  step<<<1, 1, 0, B>>>(D);
  cudaStreamEndCapture(B, GB);
  cudaStreamEndCapture(A, GA);
}

void inLoop(cudaStream_t S, int *D, cudaGraph_t *Graphs, int N) {
  for (int I = 0; I < N; ++I) {
    cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal); // no-warning: ended before the next iteration
    step<<<1, 1, 0, S>>>(D);
    cudaStreamEndCapture(S, &Graphs[I]);
  }
}

struct Graphs {
  cudaStream_t Stream;
  cudaGraph_t Graph;
  void record(int *D) {
    cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal); // no-warning: ended on this->Stream
    step<<<1, 1, 0, Stream>>>(D);
    cudaStreamEndCapture(this->Stream, &Graph);
  }
};

// A loop over the streams begins each element's capture once; a loop that
// begins the capture of one element, chosen by a parameter, begins it twice.
void beginAll(cudaStream_t *Streams, int N, cudaGraph_t *Graphs) {
  for (int I = 0; I < N; ++I)
    cudaStreamBeginCapture(Streams[I], cudaStreamCaptureModeGlobal); // no-warning: another element each time
  for (int I = 0; I < N; ++I)
    cudaStreamEndCapture(Streams[I], Graphs + I);
}
void beginOneTwice(cudaStream_t *Streams, int Which, cudaGraph_t *G) {
  for (int Round = 0; Round < 2; ++Round)
    cudaStreamBeginCapture(Streams[Which], cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:5: warning: capture of 'Streams[Which]' begun while 'Streams[Which]' is already being captured
  // CHECK: :[[@LINE-2]]:5: note: the first capture of 'Streams[Which]' begins here
  cudaStreamEndCapture(Streams[Which], G);
}
