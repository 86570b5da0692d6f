//===- IrRegions.cpp - which block's region of an object an address lies in -===//
//
// The IR's reading of the model's blockPart: an index's additive terms, which
// of them every thread of a block computes alike, and the conditions a whole
// block decides one way (IrAddresses.h).
#include "IrAddresses.h"
#include "model/MemoryModel.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace cuda_scope {
namespace ir {

/// Every thread of a block computes \p V alike: constants, a kernel's
/// arguments, the block's and grid's registers, and arithmetic of them
/// (model: IndexTerm). For an index, also what is loaded plainly from such
/// an address (one address for the whole block); for a \p Branch's
/// condition, of memory only the kernel's parameters passed by value, which
/// never change (what others may write can change between two threads'
/// reads), and comparisons and selects.
static bool computedAlike(const Value *V, bool Branch, unsigned Depth = 0) {
  if (Depth > (Branch ? 16u : 12u))
    return false;
  V = V->stripPointerCasts();
  if (const Value *Defined = definedValue(V))
    return computedAlike(Defined, Branch, Depth + 1);
  if (isa<Constant>(V))
    return true;
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getParent()->getCallingConv() == CallingConv::PTX_Kernel;
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return isBlockRegister(II->getIntrinsicID());
  if (const auto *Load = dyn_cast<LoadInst>(V)) {
    if (!Branch)
      return Load->isSimple() && computedAlike(Load->getPointerOperand(), Branch, Depth + 1);
    const auto *Param = dyn_cast<Argument>(getUnderlyingObject(Load->getPointerOperand()));
    return Load->isSimple() && Param && Param->hasByValAttr() &&
           Param->getParent()->getCallingConv() == CallingConv::PTX_Kernel;
  }
  if (!isa<BinaryOperator, CastInst>(V) && !(Branch ? isa<CmpInst, SelectInst>(V) : isa<GEPOperator>(V)))
    return false;
  return all_of(cast<User>(V)->operands(), [&](const Use &Op) { return computedAlike(Op.get(), Branch, Depth + 1); });
}
static bool blockUniform(const Value *V) { return computedAlike(V, /*Branch=*/false); }

bool decidedAlikeInBlock(const Value *V) { return computedAlike(V, /*Branch=*/true); }

/// The additive terms of an index (through adds, disjoint ors, subtractions,
/// casts, and a constant scale of a sum), each with its canonical text.
static void additiveTerms(const Value *V, bool Negated, const std::string &Scale, std::vector<IndexTerm> &Out,
                          unsigned Depth = 0) {
  while (const auto *Cast = dyn_cast<CastInst>(V))
    V = Cast->getOperand(0);
  if (const auto *BO = dyn_cast<BinaryOperator>(V); BO && Depth < 8) {
    const Value *A = BO->getOperand(0), *B = BO->getOperand(1);
    switch (BO->getOpcode()) {
    case Instruction::Or:
      if (!cast<PossiblyDisjointInst>(BO)->isDisjoint())
        break;
      [[fallthrough]];
    case Instruction::Add:
      additiveTerms(A, Negated, Scale, Out, Depth + 1);
      additiveTerms(B, Negated, Scale, Out, Depth + 1);
      return;
    case Instruction::Sub:
      additiveTerms(A, Negated, Scale, Out, Depth + 1);
      additiveTerms(B, !Negated, Scale, Out, Depth + 1);
      return;
    case Instruction::Mul:
    case Instruction::Shl:
      if (const auto *C = dyn_cast<ConstantInt>(B); C && C->getBitWidth() <= 64) {
        const auto *Inner = dyn_cast<BinaryOperator>(A);
        if (Inner && (Inner->getOpcode() == Instruction::Add || Inner->getOpcode() == Instruction::Sub)) {
          additiveTerms(A, Negated,
                        Scale + BO->getOpcodeName() + std::to_string(C->getSExtValue()) + ":", Out, Depth + 1);
          return;
        }
      }
      break;
    default:
      break;
    }
  }
  IndexTerm T;
  T.Text = Scale + canonical(V, T.Deps);
  T.Negated = Negated;
  T.BlockUniform = blockUniform(V);
  if (const auto *C = dyn_cast<ConstantInt>(V); C && C->getBitWidth() <= 64)
    T.Constant = C->getSExtValue();
  if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
    T.Scaled = BO->getOpcode() == Instruction::Mul || BO->getOpcode() == Instruction::Shl;
    const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!C && BO->getOpcode() == Instruction::Mul)
      C = dyn_cast<ConstantInt>(BO->getOperand(0));
    if (T.Scaled && C && C->getBitWidth() <= 64 && !C->isNegative())
      if (BO->getOpcode() == Instruction::Mul || C->getZExtValue() < 62)
        T.Factor = BO->getOpcode() == Instruction::Mul ? C->getSExtValue() : int64_t(1) << C->getZExtValue();
  }
  Out.push_back(std::move(T));
}

std::string blockPartOf(const Value *Address) {
  SmallVector<const GEPOperator *, 4> Chain;
  const Value *Base = Address ? Address->stripPointerCasts() : nullptr;
  while (const auto *GEP = dyn_cast_or_null<GEPOperator>(Base)) {
    Chain.push_back(GEP);
    Base = GEP->getPointerOperand()->stripPointerCasts();
  }
  for (const GEPOperator *GEP : llvm::reverse(Chain)) {
    IndexDeps Ignored;
    std::string Text = canonical(GEP->getPointerOperand(), Ignored) + "{" +
                       std::to_string(GEP->getSourceElementType()->getTypeID()) + "}";
    for (const Use &Index : GEP->indices()) {
      IndexDeps Deps;
      std::string IndexText = canonical(Index.get(), Deps);
      if (!Deps.Block) {
        Text += "[" + IndexText + "]";
        continue;
      }
      std::vector<IndexTerm> Terms;
      additiveTerms(Index.get(), false, "", Terms);
      std::string Part = blockPart(Terms);
      return Part.empty() ? std::string() : Text + "[" + Part + "]";
    }
  }
  return std::string();
}

} // namespace ir
} // namespace cuda_scope
