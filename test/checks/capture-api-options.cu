// RUN: %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-capture-api.BeginCaptureFunctions: 'startGraph:1', cuda-scope-capture-api.EndCaptureFunctions: 'gfx::finishGraph:0', cuda-scope-capture-api.AllowedFunctions: 'cudaStreamQuery;cudaGetErrorString'}}" \
// RUN:   -- %cuda_host_flags | FileCheck %s --implicit-check-not='{{warning|note}}:'
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-capture-api' %s \
// RUN:   -config="{CheckOptions: {cuda-scope-capture-api.BeginCaptureFunctions: 'startGraph;begin:x', cuda-scope-capture-api.EndCaptureFunctions: ':0', cuda-scope-capture-api.CaptureSafeFunctions: 'ok;not a name'}}" \
// RUN:   -- %cuda_host_flags 2>&1 | FileCheck %s --check-prefix=BAD
// User wrappers that begin and end a capture, functions allowed in a capture,
// and option values the check cannot read.
#include <cuda_runtime.h>

// BAD-DAG: error: invalid entry 'startGraph' in option 'BeginCaptureFunctions' of check 'cuda-scope-capture-api': expected 'function:stream-argument-index' [clang-tidy-config]
// BAD-DAG: error: invalid entry 'begin:x' in option 'BeginCaptureFunctions' of check 'cuda-scope-capture-api': expected 'function:stream-argument-index' [clang-tidy-config]
// BAD-DAG: error: invalid entry ':0' in option 'EndCaptureFunctions' of check 'cuda-scope-capture-api': expected 'function:stream-argument-index' [clang-tidy-config]
// BAD-DAG: error: invalid entry 'not a name' in option 'CaptureSafeFunctions' of check 'cuda-scope-capture-api': expected a function name, qualified or not, optionally ending in '*' [clang-tidy-config]

struct Context;
cudaError_t startGraph(Context *Ctx, cudaStream_t S);
namespace gfx {
cudaError_t finishGraph(cudaStream_t S, cudaGraph_t *G);
}

void wrapped(Context *Ctx, cudaStream_t S, cudaGraph_t *G) {
  startGraph(Ctx, S);
  cudaStreamSynchronize(S);
  // CHECK: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' called while stream 'S' is being captured invalidates the capture {{.*}} [cuda-scope-capture-api]
  // CHECK: :[[@LINE-3]]:3: note: capture of 'S' begins here
  cudaError_t Busy = cudaStreamQuery(S); // no-warning: listed in AllowedFunctions
  const char *Text = cudaGetErrorString(Busy); // no-warning: listed in AllowedFunctions
  gfx::finishGraph(S, G);
  cudaStreamSynchronize(S); // no-warning: the wrapper ended the capture
  (void)Text;
}
