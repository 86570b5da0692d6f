//===- Messages.h - flags, the data they publish, and what orders them ----===//
//
// Message passing as device code writes it: data written, then a flag set;
// the flag waited on or tested, then the data read. Found per kernel (or
// across the TU's kernels) over the TU's accesses (ScopedAccesses), for the
// rules that ask: cuda-scope-release-acquire reports the messages that
// nothing orders, and cuda-scope-insufficient leaves the fences that order a
// message to it.
//
// A flag is an object in memory every block reaches that the kernel both
// publishes (a store or read-modify-write of any kind) and receives (a load
// or read-modify-write whose value decides a branch), and that some access
// treats as shared (atomic or volatile). Its data are the other objects the
// kernel both writes and reads with plain accesses: what a kernel only reads
// is its input, what it only writes its output, and neither travels.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_TIDY_MESSAGES_H
#define CUDA_SCOPE_TIDY_MESSAGES_H

#include "ScopedAccesses.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <vector>

namespace cuda_scope {

/// One side of a message that nothing orders.
struct MessageFinding {
  enum Kind : uint8_t {
    NoRelease,   ///< data written, then the flag published with no release
    NoAcquire,   ///< the flag received, then data read with no acquire
    NarrowFence, ///< the fence between them is narrower than the communication
  } What = NoRelease;
  const ScopedAccess *Flag = nullptr;  ///< the publish or the receive
  const ScopedAccess *Data = nullptr;  ///< the data written before it, or read after it
  const ScopedAccess *Fence = nullptr; ///< NarrowFence: the widest fence between them
  /// The other side of the message: a receive of the flag for a publish, a
  /// publish for a receive; null when the kernel shows only one.
  const ScopedAccess *Other = nullptr;
  /// The scope that includes both sides: device unless every access to the
  /// flag is per block or the kernel runs one block (block), or host code
  /// accesses it too (system).
  Scope Needed = Scope::Device;
};

class Messages {
public:
  /// The analysis of \p Ctx's translation unit, made on first use and shared.
  static std::shared_ptr<Messages> get(clang::ASTContext &Ctx);

  explicit Messages(clang::ASTContext &Ctx);

  ~Messages();

  /// The unordered sides of every message, in walk order: the messages
  /// of each kernel, or with \p AcrossKernels those whose sides are in
  /// different kernels too (a producer and a consumer kernel running at
  /// once). A call to a function \p IsFence accepts orders like a fence of
  /// every scope.
  std::vector<MessageFinding>
  findings(bool AcrossKernels, llvm::function_ref<bool(const clang::FunctionDecl *)> IsFence = nullptr);

  /// True when \p Fence sits between the data and the flag of some message
  /// of its kernel (ordered or not): whether its scope is enough is a
  /// message-passing question, answered by findings().
  bool ordersMessage(const ScopedAccess &Fence);

  struct Flag;
  struct Group;

private:
  std::vector<std::unique_ptr<Group>> &analyse(bool AcrossKernels);

  std::shared_ptr<ScopedAccesses> Accesses;
  std::unique_ptr<std::vector<std::unique_ptr<Group>>> Analysed[2];
  llvm::DenseSet<const ScopedAccess *> MessageFences;
};

} // namespace cuda_scope

#endif
