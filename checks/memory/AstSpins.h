//===- AstSpins.h - the values on which a spin in the AST is left ---------===//
//
// How the AST front end reads a spin (MemOp::Spins, MemOp::PassWhen): the
// loop a read's test leaves, directly, through an if whose arm breaks out, or
// through a helper the loop's condition calls (while (!tryLock(l)) {}), and
// the values on which it is left. The IR front end reads the same from the
// inlined branches (ir/IrSpins.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_ASTSPINS_H
#define CUDA_SCOPE_MEMORY_ASTSPINS_H

#include "ScopedAccesses.h"
#include "model/Engine.h"
#include <optional>

namespace cuda_scope {

/// The read decides the exit of a loop that holds it (MemOp::Spins).
bool spins(const ScopedAccess &A, const clang::ASTContext &Ctx);
/// The loop the spinning read \p A is left by; null where it does not spin.
const clang::Stmt *spinLoopOf(const ScopedAccess &A, const clang::ASTContext &Ctx);
/// \p A runs once the loop whose condition calls its helper is left.
bool pastLoop(const ScopedAccess &A, const clang::ASTContext &Ctx);
/// The condition on the value a spinning read returns under which its loop is
/// left (MemOp::PassWhen).
std::optional<ValueCondition> spinExit(const ScopedAccess &A, const clang::ASTContext &Ctx);
/// The value a compare-exchange that returns whether it swapped expects, where
/// it is one constant at every call in its loop.
std::optional<int64_t> expectedConstant(const clang::Expr *Swap, const clang::Stmt *Body,
                                        const clang::ASTContext &Ctx);

} // namespace cuda_scope

#endif
