//===- IrTests.h - what a read's value decides, in the device IR -*- C++ -*-===//
//
// The IR front end's reading of a value's tests (IrTests.cpp), shared by
// the records (IrRecords) and what they ask of the grid's size.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_IRTESTS_H
#define CUDA_SCOPE_IR_IRTESTS_H

#include "DeviceMemoryOps.h"
#include "model/Engine.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instruction.h"
#include <optional>

namespace cuda_scope {

/// \p V is computed from the grid's size in blocks (%nctaid).
bool readsGridSize(const llvm::Value *V);
/// \p V is the same at every run by one thread (MemOp::GoalVaries is its
/// negation): built from the special registers of the thread's and block's
/// indices and sizes, constants and parameters (a by-value one read from its
/// copy) by arithmetic. A phi (a loop's counter), a load or a call's result
/// can change between runs.
bool sameEveryUse(const llvm::Value *V, unsigned Depth = 0);
/// \p L reads the relay \p Relay: the variable itself, or the same word.
bool readsRelay(const IROp &L, const llvm::Value *Relay);
/// How the value \p I reads decides a branch (the spin of a wait loop, the
/// test of a flag or of a ticket): through equality, a bound, or not at all.
/// \p StoredTo collects the objects it is stored to on the way (a relay),
/// with the comparison made before the store; \p Guard is the test that
/// says where (an equality first); \p Guards collects every branch, switch
/// or select that decides on it (a value tested twice). \p DT, \p I's
/// function's, tells a value carried round a loop from the one just read.
std::optional<ValueTest> testOf(const llvm::Value *I,
                                llvm::SmallVectorImpl<std::pair<const llvm::Value *, ValueTest>> *StoredTo = nullptr,
                                const llvm::Instruction **Guard = nullptr, bool *AgainstGrid = nullptr,
                                bool *GoalVaries = nullptr, bool *GoalIsGrid = nullptr,
                                llvm::SmallVectorImpl<const llvm::Instruction *> *Guards = nullptr,
                                const llvm::DominatorTree *DT = nullptr);

} // namespace cuda_scope

#endif
