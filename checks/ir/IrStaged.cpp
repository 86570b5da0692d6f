//===- IrStaged.cpp - what a kernel stages in its shared memory -----------===//
//
// Part of cuda-scope. See IrStaged.h.
//
//===----------------------------------------------------------------------===//
#include "IrStaged.h"
#include "DeviceMemoryOps.h"
#include "model/MemoryModel.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include <optional>

using namespace llvm;

namespace cuda_scope {

const Value *baseAndOffset(const Value *Ptr, const DataLayout &DL, APInt &Offset) {
  Offset = APInt(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  if (const auto *C = dyn_cast<AddrSpaceCastOperator>(Base);
      C && Offset.getBitWidth() == DL.getIndexTypeSizeInBits(C->getPointerOperand()->getType()))
    Base = C->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  return Base;
}

/// The array member of \p GV's type that holds byte \p At: [begin, end);
/// std::nullopt where no array member holds it.
static std::optional<std::pair<int64_t, int64_t>> arrayMemberAt(uint64_t At, const GlobalVariable *GV,
                                                               const DataLayout &DL) {
  uint64_t Begin = 0;
  Type *T = GV->getValueType();
  while (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    if (At >= SL->getSizeInBytes())
      return std::nullopt;
    unsigned K = SL->getElementContainingOffset(At);
    Begin += SL->getElementOffset(K);
    At -= SL->getElementOffset(K);
    T = ST->getElementType(K);
  }
  if (!isa<ArrayType>(T))
    return std::nullopt;
  return std::make_pair(int64_t(Begin), int64_t(Begin + DL.getTypeAllocSize(T)));
}

/// The bytes [begin, end) of \p GV that a write through \p Ptr may touch.
/// \p Size: the write's size (a store's, an atomic's); 0 for a call handed
/// the pointer, which may write any bytes it can reach. At a constant offset,
/// a sized write's own bytes, and for a call the whole variable; at an index
/// not known, the array member of \p GV's type the index starts in (an index
/// into an array member stays in it, as C++ has it: ginkgo's status[tid]
/// beside the block offset), or the whole variable where none holds it.
/// std::nullopt: not known to be in \p GV.
static std::optional<std::pair<int64_t, int64_t>> bytesWritten(const Value *Ptr, uint64_t Size, const GlobalVariable *GV,
                                                        const DataLayout &DL) {
  APInt Offset;
  const Value *Base = baseAndOffset(Ptr, DL, Offset);
  std::pair<int64_t, int64_t> Whole(0, int64_t(DL.getTypeAllocSize(GV->getValueType())));
  if (Base == GV) // a call handed &v (or &v.f) may write all of v: a memset of it
    return Size ? std::make_pair(Offset.getSExtValue(), Offset.getSExtValue() + int64_t(Size)) : Whole;
  const auto *GEP = dyn_cast<GEPOperator>(Base);
  if (!GEP || baseAndOffset(GEP->getPointerOperand(), DL, Offset) != GV || Offset.isNegative())
    return std::nullopt;
  return arrayMemberAt(Offset.getZExtValue(), GV, DL).value_or(Whole);
}

bool multipleOfWarp(const Value *V, SmallPtrSetImpl<const PHINode *> &Seen, unsigned Depth) {
  if (Depth > 8)
    return false;
  while (isa<ZExtInst, SExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return C->getBitWidth() <= 64 && isWarpMultiple(C->getSExtValue());
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_ntid_x;
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return !Seen.insert(Phi).second || all_of(Phi->incoming_values(), [&](const Value *In) {
      return multipleOfWarp(In, Seen, Depth + 1);
    });
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return multipleOfWarp(Sel->getTrueValue(), Seen, Depth + 1) &&
           multipleOfWarp(Sel->getFalseValue(), Seen, Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO)
    return false;
  const Value *A = BO->getOperand(0), *B = BO->getOperand(1);
  const auto *C = dyn_cast<ConstantInt>(B);
  switch (BO->getOpcode()) {
  case Instruction::Mul:
    return multipleOfWarp(A, Seen, Depth + 1) || multipleOfWarp(B, Seen, Depth + 1);
  case Instruction::Shl:
    return (C && C->getBitWidth() <= 64 && isWarpMultipleShift(C->getSExtValue())) ||
           multipleOfWarp(A, Seen, Depth + 1);
  case Instruction::And:
    return (C && C->getBitWidth() <= 64 && (C->getSExtValue() & (WarpSize - 1)) == 0) ||
           multipleOfWarp(A, Seen, Depth + 1) || multipleOfWarp(B, Seen, Depth + 1);
  case Instruction::Or:
    if (!cast<PossiblyDisjointInst>(BO)->isDisjoint())
      return false;
    [[fallthrough]];
  case Instruction::Add:
  case Instruction::Sub:
    return multipleOfWarp(A, Seen, Depth + 1) && multipleOfWarp(B, Seen, Depth + 1);
  default:
    return false;
  }
}

bool storesWarpMultiples(const LoadInst &Ld) {
  const DataLayout &DL = Ld.getDataLayout();
  APInt Offset;
  const auto *GV = dyn_cast<GlobalVariable>(baseAndOffset(Ld.getPointerOperand(), DL, Offset));
  if (!GV || spaceOf(GV->getAddressSpace()) != MemorySpace::Shared || !Ld.isSimple())
    return false;
  const Function *F = Ld.getFunction();
  SmallVector<const User *, 8> Users(GV->users());
  while (!Users.empty()) {
    const User *U = Users.pop_back_val();
    // Its address made a constant integer (an operand of inline PTX): not
    // followed.
    if (const auto *CE = dyn_cast<ConstantExpr>(U); CE && CE->getOpcode() == Instruction::PtrToInt)
      return false;
    if (isa<ConstantExpr>(U))
      append_range(Users, U->users());
    else if (const auto *I = dyn_cast<Instruction>(U); !I || I->getFunction() != F)
      return false;
  }
  int64_t From = Offset.getSExtValue(), To = From + DL.getTypeStoreSize(Ld.getType());
  // Whether a pointer may point into the variable: through GEPs, casts,
  // address-space casts, phis and selects.
  auto PointsInto = [&](const Value *P) {
    if (!P->getType()->isPointerTy())
      return false;
    SmallVector<const Value *, 8> Work{P};
    SmallPtrSet<const Value *, 8> Seen;
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      if (!Seen.insert(V).second)
        continue;
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(V, Objects);
      for (const Value *O : Objects) {
        const Value *Stripped = O->stripPointerCasts();
        if (Stripped == GV)
          return true;
        if (Stripped != O)
          Work.push_back(Stripped);
        else if (const auto *C = dyn_cast<AddrSpaceCastOperator>(O))
          Work.push_back(C->getPointerOperand());
      }
    }
    return false;
  };
  // Whether what a write through \p P may touch misses the bytes read: the
  // array member its index starts in, or its own bytes, lie elsewhere.
  auto Misses = [&](const Value *P, uint64_t Size) {
    std::optional<std::pair<int64_t, int64_t>> Bytes = bytesWritten(P, Size, GV, DL);
    return Bytes && (Bytes->second <= From || Bytes->first >= To);
  };
  unsigned Stores = 0;
  for (const Instruction &I : instructions(*F)) {
    if (const auto *St = dyn_cast<StoreInst>(&I)) {
      // Its address kept in memory: what reads it back is not followed.
      if (PointsInto(St->getValueOperand()))
        return false;
      uint64_t Size = DL.getTypeStoreSize(St->getValueOperand()->getType());
      if (!PointsInto(St->getPointerOperand()) || Misses(St->getPointerOperand(), Size))
        continue;
      auto Bytes = bytesWritten(St->getPointerOperand(), Size, GV, DL);
      SmallPtrSet<const PHINode *, 8> Seen;
      if (!Bytes || Bytes->first != From || Bytes->second != To || !St->isSimple() ||
          !multipleOfWarp(St->getValueOperand(), Seen))
        return false;
      ++Stores;
      continue;
    }
    // Its address made an integer or returned: not followed.
    if (isa<PtrToIntInst, ReturnInst>(I)) {
      if (any_of(I.operands(), [&](const Value *Op) { return PointsInto(Op); }))
        return false;
      continue;
    }
    // An atomic on it: only where its own bytes lie elsewhere. A call handed
    // a pointer into it (inline PTX that stores there, a memset): only where
    // the array member that pointer is in lies elsewhere (ginkgo's
    // st.release on status[i] beside the offset).
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (PointsInto(RMW->getPointerOperand()) &&
          !Misses(RMW->getPointerOperand(), DL.getTypeStoreSize(RMW->getValOperand()->getType())))
        return false;
      continue;
    }
    if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (PointsInto(CX->getPointerOperand()) &&
          !Misses(CX->getPointerOperand(), DL.getTypeStoreSize(CX->getNewValOperand()->getType())))
        return false;
      continue;
    }
    if (isa<CallBase>(I) || I.mayWriteToMemory())
      for (const Value *Op : I.operands())
        if (PointsInto(Op) && !Misses(Op, 0))
          return false;
  }
  return Stores > 0;
}

} // namespace cuda_scope
