//===- IrRegions.cpp - which block's region of an object an address lies in -===//
//
// The IR's reading of the model's blockPart: an index's additive terms, which
// of them every thread of a block computes alike, and the conditions a whole
// block decides one way (IrAddresses.h).
#include "IrAddresses.h"
#include "model/MemoryModel.h"
#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
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

/// \p V through casts and merges with undef (definedValue).
static const Value *valueOf(const Value *V) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (const auto *Cast = dyn_cast<CastInst>(V))
      V = Cast->getOperand(0);
    else if (const Value *Defined = definedValue(V))
      V = Defined;
    else
      break;
  }
  return V;
}
static bool isRegister(const Value *V, Intrinsic::ID ID) {
  const auto *II = dyn_cast<IntrinsicInst>(valueOf(V));
  return II && II->getIntrinsicID() == ID;
}
/// \p V is X / gridDim.x: X, else null.
static const Value *gridSplitOf(const Value *V) {
  const auto *Div = dyn_cast<BinaryOperator>(valueOf(V));
  if (!Div || (Div->getOpcode() != Instruction::UDiv && Div->getOpcode() != Instruction::SDiv) ||
      !isRegister(Div->getOperand(1), Intrinsic::nvvm_read_ptx_sreg_nctaid_x))
    return nullptr;
  return Div->getOperand(0);
}
/// The share term's and the bag term's facts (model: IndexTerm::ShareOf,
/// BagOf) of a product \p V.
static void shareFacts(const Value *V, IndexTerm &T) {
  const auto *Mul = dyn_cast<BinaryOperator>(V);
  if (!Mul || Mul->getOpcode() != Instruction::Mul)
    return;
  for (unsigned Side = 0; Side < 2; ++Side) {
    const Value *Pitch = Mul->getOperand(Side), *Other = Mul->getOperand(1 - Side);
    IndexDeps Ignored;
    if (const Value *X = gridSplitOf(Pitch); X && isRegister(Other, Intrinsic::nvvm_read_ptx_sreg_ctaid_x)) {
      T.ShareOf = canonical(X, Ignored);
      return;
    }
    // (X / gridDim.x / k) * (v % m), m <= k: k and m as divisions, shifts,
    // remainders and masks give them.
    const auto *Part = dyn_cast<BinaryOperator>(valueOf(Pitch));
    const auto *K = Part ? dyn_cast<ConstantInt>(Part->getOperand(1)) : nullptr;
    const auto *Below = dyn_cast<BinaryOperator>(valueOf(Other));
    const auto *M = Below ? dyn_cast<ConstantInt>(Below->getOperand(1)) : nullptr;
    if (!K || !M || K->getBitWidth() > 64 || M->getBitWidth() > 64 || K->isNegative() || M->isNegative())
      continue;
    uint64_t Parts = Part->getOpcode() == Instruction::UDiv ? K->getZExtValue()
                     : Part->getOpcode() == Instruction::LShr && K->getZExtValue() < 63
                         ? uint64_t(1) << K->getZExtValue()
                         : 0;
    uint64_t Bound = Below->getOpcode() == Instruction::URem ? M->getZExtValue()
                     : Below->getOpcode() == Instruction::And && M->getZExtValue() < ~uint64_t(0)
                         ? M->getZExtValue() + 1
                         : 0;
    const Value *X = gridSplitOf(Part->getOperand(0));
    if (X && Parts > 0 && Bound > 0 && Bound <= Parts) {
      T.BagOf = canonical(X, Ignored);
      return;
    }
  }
}

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
  // Not negative where its sign bit is known clear (e >> 1): -O2 turns a
  // subtraction in unsigned arithmetic into an addition (x - 1 - e is
  // x + ~e), so an unsigned sum's terms are not all additions.
  const auto *I = dyn_cast<Instruction>(V);
  T.NonNegative = (T.Constant && *T.Constant >= 0) ||
                  (I && isKnownNonNegative(V, SimplifyQuery(I->getModule()->getDataLayout())));
  if (Scale.empty())
    shareFacts(V, T);
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

std::shared_ptr<const std::vector<IndexTerm>> flatIndexOf(const Value *Address) {
  SmallVector<const GEPOperator *, 4> Chain;
  const Value *Base = Address ? Address->stripPointerCasts() : nullptr;
  while (const auto *GEP = dyn_cast_or_null<GEPOperator>(Base)) {
    if (GEP->getNumIndices() != 1 || (!Chain.empty() && GEP->getSourceElementType() != Chain.front()->getSourceElementType()))
      return nullptr;
    Chain.push_back(GEP);
    Base = GEP->getPointerOperand()->stripPointerCasts();
  }
  if (Chain.empty())
    return nullptr;
  auto Terms = std::make_shared<std::vector<IndexTerm>>();
  for (const GEPOperator *GEP : Chain)
    additiveTerms(GEP->idx_begin()->get(), false, "", *Terms);
  return Terms;
}

} // namespace ir
} // namespace cuda_scope
