//===- IrStaged.h - what a kernel stages in its shared memory ----*- C++ -*-===//
//
// Facts about values a kernel keeps in its own __shared__ variables, read
// from every store of the kernel to them: the warp mask rule's warp
// multiples (BlockDivergence's warpMultiple).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_IRSTAGED_H
#define CUDA_SCOPE_IR_IRSTAGED_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

namespace cuda_scope {

/// The object \p Ptr points into and its constant offset there, through
/// GEPs, casts and one address-space cast.
const llvm::Value *baseAndOffset(const llvm::Value *Ptr, const llvm::DataLayout &DL, llvm::APInt &Offset);

/// A multiple of the warp size, whatever lanes compute it: a constant
/// multiple, the block's size in x, a product with one, a shift left by 5
/// or more, lane bits masked off, sums and choices of them (AST:
/// Varying::multipleOfWarp).
bool multipleOfWarp(const llvm::Value *V, llvm::SmallPtrSetImpl<const llvm::PHINode *> &Seen, unsigned Depth = 0);

/// What \p Ld reads from a __shared__ variable of its kernel is a multiple
/// of the warp size: every store of the kernel to the bytes it reads stores
/// one, and nothing else writes them (no atomic, no call handed the
/// variable, no use outside the kernel). A scheduler's block offset that
/// thread 0 stores and every thread reads after a barrier (ginkgo's
/// syncfree_scheduler: atomic_add(counter, 1) * block_size).
bool storesWarpMultiples(const llvm::LoadInst &Ld);

} // namespace cuda_scope

#endif
