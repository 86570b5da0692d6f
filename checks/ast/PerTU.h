//===- PerTU.h - one analysis object per translation unit, shared by checks ===//
//
// Several checks ask for the same per-TU analysis (the call graph, the scoped
// accesses); the first one builds it and the others get the same object until
// the last lets go. clangd runs checks for several files at once, so the table
// of live objects is shared between threads; an entry lives as long as a check
// holds its object, and a later TU at the same address finds it expired.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_AST_PERTU_H
#define CUDA_SCOPE_AST_PERTU_H

#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <mutex>

namespace clang {
class ASTContext;
}

namespace cuda_scope {

/// The \p T of \p Ctx's translation unit, built with T(Ctx) on first use.
template <typename T> std::shared_ptr<T> sharedPerTU(clang::ASTContext &Ctx) {
  static std::mutex Lock;
  static llvm::DenseMap<const clang::ASTContext *, std::weak_ptr<T>> Live;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Live.begin(); It != Live.end();) {
    auto Next = std::next(It);
    if (It->second.expired() && It->first != &Ctx)
      Live.erase(It);
    It = Next;
  }
  std::weak_ptr<T> &Slot = Live[&Ctx];
  if (std::shared_ptr<T> Existing = Slot.lock())
    return Existing;
  auto Made = std::make_shared<T>(Ctx);
  Slot = Made;
  return Made;
}

} // namespace cuda_scope

#endif
