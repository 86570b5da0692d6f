//===- AstRecords.h - the TU's accesses as the engine's records ------------===//
//
// The clang-tidy front end of the memory-model engine (model/Engine.h): the
// accesses, fences, barriers and calls that ScopedAccesses collects, as
// MemOps, with the AST walk's program order (walk order within one root, if
// and ?: arms apart, loops not followed back). Made once per TU and shared by
// the scope and message checks, which ask the engine with their own options
// and word what it finds.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_ASTRECORDS_H
#define CUDA_SCOPE_MEMORY_ASTRECORDS_H

#include "ScopedAccesses.h"
#include "model/Engine.h"
#include "model/Hierarchy.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <vector>

namespace cuda_scope {

class AstRecords {
public:
  /// The records of \p Ctx's translation unit, made on first use and shared.
  static std::shared_ptr<AstRecords> get(clang::ASTContext &Ctx);

  explicit AstRecords(clang::ASTContext &Ctx);
  ~AstRecords();

  /// What the engine finds with \p Opts; a call to a function \p IsFence
  /// accepts orders like a fence of every scope.
  std::vector<Finding> findings(const EngineOptions &Opts,
                                llvm::function_ref<bool(const clang::FunctionDecl *)> IsFence = nullptr);

  llvm::ArrayRef<MemOp> ops();
  /// The waits of the whole grid in the file's kernels (model/Hierarchy.h).
  std::vector<GridWait> gridWaits();
  /// Those of \p Waits that a counting barrier uses again on the same goal.
  std::vector<ReusedGridBarrier> reusedGridBarriers(llvm::ArrayRef<GridWait> Waits);
  /// The warp races in the file's kernels (model/Hierarchy.h).
  std::vector<WarpRace> warpRaces();
  /// The access behind record \p I; null for a call.
  const ScopedAccess *access(int I) const;
  const ScopedAccess &accessAt(unsigned I) const { return *access(static_cast<int>(I)); }
  /// The call behind record \p I; null for an access.
  const CallSite *call(int I) const;

  ScopedAccesses &accesses() { return *Accesses; }

  class Order;

private:
  void build();

  std::shared_ptr<ScopedAccesses> Accesses;
  bool Built = false;
  std::vector<MemOp> Ops;
  std::vector<const ScopedAccess *> AccessOf;
  std::vector<const CallSite *> CallOf;
  std::unique_ptr<Order> PO;
};

} // namespace cuda_scope

#endif
