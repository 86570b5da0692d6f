// An allocator interface: the device allocator that implements it lives in allocator.cpp.
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

struct Allocator {
  virtual ~Allocator() = default;
  virtual void* acquire(size_t bytes) = 0;
  virtual cudaError_t release(void* p) = 0;
};

Allocator* device_allocator();
