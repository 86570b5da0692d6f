// The device allocator, in a host C++ file of its own: release() calls cudaFree.
#include "allocator.h"

namespace {
struct DeviceAllocator : Allocator {
  void* acquire(size_t bytes) override {
    void* p = nullptr;
    return cudaMalloc(&p, bytes) == cudaSuccess ? p : nullptr;
  }
  cudaError_t release(void* p) override { return cudaFree(p); }
};
}  // namespace

Allocator* device_allocator() {
  static DeviceAllocator allocator;
  return &allocator;
}
