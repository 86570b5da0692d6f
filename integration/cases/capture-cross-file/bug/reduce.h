// A sum over device memory, run by reduce.cu on a stream.
#pragma once
#include <cuda_runtime.h>

struct Reducer {
  const float* in;
  int n;
  void* temp;
  size_t temp_bytes;
  float* out;   // device
  float* host;  // pinned
};

Reducer make_reducer(const float* in, int n);
cudaError_t reduce_sum(Reducer& r, cudaStream_t s);
