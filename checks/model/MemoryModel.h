//===- MemoryModel.h - scopes and orders, read from every CUDA spelling ---===//
//
// The scope lattice and memory orders that every check and the IR pass share.
// A scope written as a libcu++ template argument, a builtin's name, a PTX
// qualifier, an LLVM syncscope or a numeric builtin argument all map to the
// same cuda_scope::Scope, so a rule is written once.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_MEMORYMODEL_H
#define CUDA_SCOPE_MODEL_MEMORYMODEL_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace cuda_scope {

/// The threads an atomic operation or fence is guaranteed to be atomic or
/// ordered with respect to. Ordered narrowest first.
enum class Scope : uint8_t {
#define CUDA_SCOPE(Name, ...) Name,
#include "Scopes.def"
};

/// True when every thread in scope \p Inner is also in scope \p Outer.
inline bool includes(Scope Outer, Scope Inner) { return Outer >= Inner; }

/// The threads that can share an object of a given kind of memory, i.e. the
/// narrowest scope that includes every thread able to touch it.
enum class MemorySpace : uint8_t { Unknown, Generic, Global, Shared, SharedCluster, Local, Constant, Param };

/// libcu++ spelling: "thread_scope_block".
llvm::StringRef libcuName(Scope S);
/// PTX spelling without the dot: "cta", "gpu"; empty for thread scope.
llvm::StringRef ptxQualifier(Scope S);
/// A short name for messages: "block", "device".
llvm::StringRef shortName(Scope S);

/// "thread_scope_block", "cuda::thread_scope_block", "cuda::std::thread_scope_block".
std::optional<Scope> scopeFromLibcuName(llvm::StringRef Name);
/// The integer value of a libcu++ cuda::thread_scope enumerator.
std::optional<Scope> scopeFromLibcuValue(int64_t V);
/// "cta", ".cta", "cluster", "gpu", "sys". membar's "gl" is accepted as gpu.
std::optional<Scope> scopeFromPtxQualifier(llvm::StringRef Q);
/// An LLVM NVPTX syncscope name: "" is system, "block", "cluster", "device", "singlethread".
std::optional<Scope> scopeFromSyncScope(llvm::StringRef Name);
/// The value of a __NV_THREAD_SCOPE_* enumerator (the __nv_atomic_* builtins).
std::optional<Scope> scopeFromNvAtomicValue(int64_t V);
/// The value of a clang __MEMORY_SCOPE_* macro (the __scoped_atomic_* builtins).
std::optional<Scope> scopeFromClangMemoryScope(int64_t V);
/// The names of those two enumerations' spellings, for matching macro names.
std::optional<Scope> scopeFromEnumeratorName(llvm::StringRef Name);

/// How an access orders other memory operations.
enum class Order : uint8_t { Plain, Volatile, Relaxed, Consume, Acquire, Release, AcqRel, SeqCst };
bool hasAcquire(Order O);
bool hasRelease(Order O);
/// True for accesses that take part in synchronization (anything atomic,
/// volatile counted: it is how legacy CUDA code spells a relaxed access).
inline bool isStrong(Order O) { return O != Order::Plain; }
llvm::StringRef orderName(Order O);
/// "memory_order_acquire", "cuda::std::memory_order_acquire", "__ATOMIC_ACQUIRE",
/// "__NV_ATOMIC_ACQUIRE", "acquire" (PTX), "acq_rel", "sc".
std::optional<Order> orderFromName(llvm::StringRef Name);
/// The value of a C11 / __ATOMIC_* order (0 relaxed .. 5 seq_cst), which the
/// __NV_ATOMIC_* enumerators share.
std::optional<Order> orderFromC11Value(int64_t V);

/// What a CUDA device builtin does to memory: "atomicAdd_block",
/// "__threadfence_system", "__syncthreads".
struct DeviceBuiltin {
  enum Kind : uint8_t { AtomicRMW, AtomicCAS, AtomicExchange, Fence, BlockBarrier, WarpBarrier } What;
  Scope S;
  llvm::StringRef Operation; // "atomicAdd" for atomicAdd_block
};
std::optional<DeviceBuiltin> parseDeviceBuiltin(llvm::StringRef Name);

} // namespace cuda_scope

#endif
