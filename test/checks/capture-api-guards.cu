// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s -- %cuda_host_flags \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|note}}:'
// Code that asks whether the stream is capturing and only makes the call when
// it is not. The guards are recognised syntactically.
#include <cuda_runtime.h>

void *whenNone(cudaStream_t S) {
  void *P = nullptr;
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  if (St == cudaStreamCaptureStatusNone)
    cudaMalloc(&P, 64); // no-warning: runs only when not capturing
  else
    cudaMallocAsync(&P, 64, S);
  return P;
}

void freeUnlessCapturing(cudaStream_t S, void *P) {
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  if (St != cudaStreamCaptureStatusNone)
    cudaFreeAsync(P, S);
  else
    cudaFree(P); // no-warning: the else branch runs only when not capturing
}

void syncIfIdle(cudaStream_t S) {
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  bool Capturing = St != cudaStreamCaptureStatusNone;
  if (!Capturing)
    cudaStreamSynchronize(S); // no-warning: guarded through a flag
}

void earlyReturn(cudaStream_t S) {
  cudaStreamCaptureStatus St;
  if (cudaStreamIsCapturing(S, &St) != cudaSuccess)
    return;
  if (St == cudaStreamCaptureStatusActive)
    return;
  cudaDeviceSynchronize(); // no-warning: the function returned if capturing
}

bool isCapturing(cudaStream_t S) {
  cudaStreamCaptureStatus St = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(S, &St);
  return St != cudaStreamCaptureStatusNone;
}

void predicate(cudaStream_t S, void *P) {
  if (!isCapturing(S))
    cudaFree(P); // no-warning: guarded by a predicate that queries the capture
}

void combined(cudaStream_t S, void *P) {
  cudaStreamCaptureStatus St;
  if (cudaStreamIsCapturing(S, &St) == cudaSuccess && St == cudaStreamCaptureStatusNone)
    cudaFree(P); // no-warning: both conditions hold only when not capturing
}

void wrongBranch(cudaStream_t S, void *P) {
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  if (St == cudaStreamCaptureStatusActive)
    cudaFree(P);
  // CHECK: :[[@LINE-1]]:5: warning: 'cudaFree' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+13]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+19]]:3: note: 'wrongBranch' is called here
}

void notAGuard(int N, void *P) {
  if (N > 0)
    cudaFree(P);
  // CHECK: :[[@LINE-1]]:5: warning: 'cudaFree' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+5]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+12]]:3: note: 'notAGuard' is called here
}

void region(cudaStream_t S, cudaGraph_t *G, void *P) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  void *A = whenNone(S);
  freeUnlessCapturing(S, A);
  syncIfIdle(S);
  earlyReturn(S);
  predicate(S, P);
  combined(S, P);
  wrongBranch(S, P);
  notAGuard(1, P);
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  if (St == cudaStreamCaptureStatusNone)
    cudaDeviceSynchronize(); // no-warning: guarded in the region itself
  cudaStreamEndCapture(S, G);
}

// A flag declared first and assigned from the status later, as ggml's
// argsort does before choosing a sort that does not synchronize.
void flagAssigned(cudaStream_t S, void *P) {
  bool Capturing = false;
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  Capturing = (St != cudaStreamCaptureStatusNone);
  if (Capturing)
    cudaFreeAsync(P, S);
  else
    cudaStreamSynchronize(S); // no-warning: the flag was assigned from the status
}

// Assigned again from something else: the flag no longer tells.
void flagReassigned(cudaStream_t S, int N) {
  cudaStreamCaptureStatus St;
  cudaStreamIsCapturing(S, &St);
  bool Capturing = St != cudaStreamCaptureStatusNone;
  Capturing = N > 0;
  if (!Capturing)
    cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE+5]]:3: note: capture of 'S' begins here
  // CHECK: :[[@LINE+6]]:3: note: 'flagReassigned' is called here
}

void region2(cudaStream_t S, cudaGraph_t *G, void *P) {
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  flagAssigned(S, P);
  flagReassigned(S, 1);
  cudaStreamEndCapture(S, G);
}

// A configuration flag whose value the function fixes (ggml without
// GGML_CUDA_GRAPHS: `bool use_cuda_graph = false;`, set under #ifdef): the capture is
// never begun, and nothing in it is reported.
void configuredOff(cudaStream_t S, cudaGraph_t *G, bool Update) {
  bool UseGraph = false; // set only when graphs are configured (here: never)
  if (UseGraph && Update)
    cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cudaStreamSynchronize(S); // no-warning: no capture was begun
  if (UseGraph && Update)
    cudaStreamEndCapture(S, G);
}

void configuredOn(cudaStream_t S, cudaGraph_t *G) {
  bool UseGraph = true;
  if (UseGraph)
    cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:5: note: capture of 'S' begins here
  if (UseGraph)
    cudaStreamEndCapture(S, G);
}

// A flag that may be written behind the dataflow's back is not known: its
// address handed to a function, or a lambda that captures it by reference
// (clang's ExprMutationAnalyzer decides what writes it). The branch is taken.
void readFlag(bool *Out);
void configuredThroughPointer(cudaStream_t S, cudaGraph_t *G) {
  bool UseGraph = false;
  readFlag(&UseGraph);
  if (UseGraph) {
    cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
    cudaStreamSynchronize(S);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
    // CHECK: :[[@LINE-3]]:5: note: capture of 'S' begins here
    cudaStreamEndCapture(S, G);
  }
}

void configuredByLambda(cudaStream_t S, cudaGraph_t *G, int N) {
  bool UseGraph = false;
  auto Enable = [&] { UseGraph = N > 0; };
  Enable();
  if (UseGraph) {
    cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed);
    cudaStreamSynchronize(S);
    // CHECK: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
    // CHECK: :[[@LINE-3]]:5: note: capture of 'S' begins here
    cudaStreamEndCapture(S, G);
  }
}

// A configuration global (nccl-tests' cudaGraphLaunches, set once from the
// command line): the capture begun under `if (GraphLaunches >= 1)` is ended
// under the same test, and nothing this function reaches writes the global,
// so after the second test the capture is closed on every path.
int GraphLaunches = 0;
void parseOptions(int Argc) { GraphLaunches = Argc; } // not reached from benchmark()
void checkResults() { cudaDeviceSynchronize(); } // no-warning: no capture is open by then
void benchmark(cudaStream_t *Streams, int N, cudaGraph_t *Graphs, float *D) {
  if (GraphLaunches >= 1)
    for (int I = 0; I < N; ++I)
      cudaStreamBeginCapture(Streams[I], cudaStreamCaptureModeThreadLocal);
  cudaMemsetAsync(D, 0, 4, Streams[0]);
  if (GraphLaunches >= 1)
    for (int I = 0; I < N; ++I)
      cudaStreamEndCapture(Streams[I], Graphs + I);
  checkResults();
}

// A global that the function's own calls write is not a configuration.
int Phase = 0;
void advance() { Phase++; }
void phased(cudaStream_t S, cudaGraph_t *G) {
  if (Phase == 1)
    cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  // CHECK: :[[@LINE-1]]:5: warning: capture of 'S' begun here is not ended on every path
  // CHECK: :[[@LINE+7]]:1: note: the function returns here with 'S' still being captured
  advance();
  if (Phase == 1)
    cudaStreamEndCapture(S, G);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' called while stream 'S' is being captured
  // CHECK: :[[@LINE-8]]:5: note: capture of 'S' begins here
}
