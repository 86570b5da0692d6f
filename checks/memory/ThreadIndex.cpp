//===- ThreadIndex.cpp - which thread an expression names, for clang-tidy ===//
//
// The AST side of the facts model/MemoryModel decides of a thread's index:
// an expression that is threadIdx.x plus a constant (the lane, the block's
// linear index and a tile's rank among them), the bits of a value that may
// differ between a warp's lanes, and the bound a branch's condition puts on
// the threads that run its arm. The IR pass reads the same from the
// instructions -O2 leaves (ir/IrAddresses, ir/IrRecords).
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"
#include "Divergence.h"
#include "ast/CheckUtils.h"
#include "model/Hierarchy.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

std::optional<IndexCompare> impl::indexCompareOf(BinaryOperatorKind K) {
  switch (K) {
  case BO_EQ: return IndexCompare::EQ;
  case BO_NE: return IndexCompare::NE;
  case BO_LT: return IndexCompare::LT;
  case BO_LE: return IndexCompare::LE;
  case BO_GT: return IndexCompare::GT;
  case BO_GE: return IndexCompare::GE;
  default: return std::nullopt;
  }
}

/// blockConditionOf, \p Depth operators and locals deep: locals that hold
/// each other's && (bool c2 = c1 && c1) would otherwise double the walk at
/// each link, as the pass's reading stops at 8 too.
static BlockCondition blockConditionOf(const Expr *Cond, const ASTContext &Ctx,
                                       function_ref<const Expr *(const VarDecl *)> ValueOf,
                                       function_ref<bool(const Expr *)> Varies, unsigned Depth) {
  if (Depth > 8)
    return BlockCondition::other(Varies(Cond));
  auto Of = [&](const Expr *E) { return blockConditionOf(E, Ctx, ValueOf, Varies, Depth + 1); };
  // A local that holds one value stands for it (a few links deep).
  auto Resolve = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    for (unsigned Link = 0; Link < 4; ++Link) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      const Expr *Value = VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) ? ValueOf(VD) : nullptr;
      if (!Value)
        break;
      E = Value->IgnoreParenImpCasts();
    }
    return E;
  };
  auto Axis = [](const Expr *E) -> std::optional<unsigned> {
    std::optional<std::pair<StringRef, char>> R = builtinVariableRead(E);
    if (!R || R->first != "blockIdx" || R->second < 'x' || R->second > 'z')
      return std::nullopt;
    return R->second - 'x';
  };
  const Expr *E = Resolve(Cond);
  if (std::optional<unsigned> A = Axis(E)) // if (blockIdx.x): blockIdx.x != 0
    return BlockCondition::coordinate(*A, IndexCompare::NE, 0);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    return Of(U->getSubExpr()).negated();
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_LAnd)
      return BlockCondition::both(Of(B->getLHS()), Of(B->getRHS()));
    if (B->getOpcode() == BO_LOr)
      return BlockCondition::either(Of(B->getLHS()), Of(B->getRHS()));
    if (std::optional<IndexCompare> Op = indexCompareOf(B->getOpcode())) {
      const Expr *L = B->getLHS(), *R = B->getRHS();
      if (constantInt(L, Ctx)) {
        std::swap(L, R);
        Op = swapped(*Op);
      }
      if (std::optional<int64_t> C = constantInt(R, Ctx)) {
        L = Resolve(L);
        if (std::optional<unsigned> A = Axis(L))
          return BlockCondition::coordinate(*A, *Op, *C);
        if (isGridIndexSum(L)) // tid == 0: thread 0 of block 0
          return BlockCondition::gridIndex(*Op, *C);
      }
    }
  }
  return BlockCondition::other(Varies(Cond));
}

BlockCondition blockConditionOf(const Expr *Cond, const ASTContext &Ctx,
                                function_ref<const Expr *(const VarDecl *)> ValueOf,
                                function_ref<bool(const Expr *)> Varies) {
  return blockConditionOf(Cond, Ctx, ValueOf, Varies, 0);
}

StringRef ScopedAccesses::Walker::builtinVariableOf(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 8)
    return StringRef();
  E = E->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1)
    return builtinVariableOf(CE->getArg(0), Fr, Depth + 1);
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E); OV && OV->getSourceExpr())
    return builtinVariableOf(OV->getSourceExpr(), Fr, Depth + 1);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return builtinVariableOf(MT->getSubExpr(), Fr, Depth + 1);
  // threadIdx converted to dim3 (its operator uint3) to be passed.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E); MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
    return builtinVariableOf(MC->getImplicitObjectArgument(), Fr, Depth + 1);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return StringRef();
  if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
    auto Arg = argumentFor(P, Fr);
    return Arg ? builtinVariableOf(Arg->first, Arg->second, Depth + 1) : StringRef();
  }
  StringRef Name = identifierOf(DRE->getDecl());
  return isThreadIndexName(Name) || Name == "blockDim" ? Name : StringRef();
}

std::optional<char> ScopedAccesses::Walker::componentOf(const Expr *E, const Frame *Fr, bool Thread) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
      E = PO->getSyntacticForm();
    else if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
      E = OV->getSourceExpr();
    else
      break;
  }
  if (!E)
    return std::nullopt;
  auto Of = [&](const Expr *Base, StringRef Member) -> std::optional<char> {
    StringRef Var = builtinVariableOf(Base, Fr);
    if (Var.empty() || isThreadIndexName(Var) != Thread || Member.size() != 1)
      return std::nullopt;
    return Member[0];
  };
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E))
    return Of(MP->getBaseExpr(), identifierOf(MP->getPropertyDecl()));
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
    return Of(ME->getBase(), ME->getMemberDecl()->getName());
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    StringRef Name = FD ? identifierOf(FD) : StringRef();
    if (Name.consume_front(Thread ? "__nvvm_read_ptx_sreg_tid_" : "__nvvm_read_ptx_sreg_ntid_") && Name.size() == 1)
      return Name[0];
  }
  return std::nullopt;
}

bool ScopedAccesses::Walker::rowsBeforeThread(const Expr *E, const Frame *Fr, unsigned Depth) {
  // Only threadIdx.y/z and blockDim.y, by + and *.
  auto Other = [&](const Expr *X, auto &Self, unsigned D) -> bool {
    if (!X || D > 8)
      return false;
    X = X->IgnoreParenCasts();
    if (std::optional<char> C = componentOf(X, Fr, /*Thread=*/true); C && (*C == 'y' || *C == 'z'))
      return true;
    if (std::optional<char> C = componentOf(X, Fr, /*Thread=*/false); C && *C == 'y')
      return true;
    const auto *BO = dyn_cast<BinaryOperator>(X);
    return BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Mul) && Self(BO->getLHS(), Self, D + 1) &&
           Self(BO->getRHS(), Self, D + 1);
  };
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenCasts();
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  // z * ny * nx + y * nx: each term has blockDim.x as a factor.
  if (BO->getOpcode() == BO_Add)
    return rowsBeforeThread(BO->getLHS(), Fr, Depth + 1) && rowsBeforeThread(BO->getRHS(), Fr, Depth + 1);
  if (BO->getOpcode() != BO_Mul)
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    const Expr *Factor = I ? BO->getRHS() : BO->getLHS(), *Rest = I ? BO->getLHS() : BO->getRHS();
    std::optional<char> C = componentOf(Factor, Fr, /*Thread=*/false);
    if (C && *C == 'x' && Other(Rest, Other, 0))
      return true;
    // (z * ny) * nx with the factor deeper: (z * nx) * ny.
    if (Other(Factor, Other, 0) && rowsBeforeThread(Rest, Fr, Depth + 1))
      return true;
  }
  return false;
}

std::optional<int64_t> ScopedAccesses::Walker::threadIndexPlus(const Expr *E, const Frame *Fr, unsigned Depth,
                                                               int64_t *Group) {
  if (!E || Depth > 12)
    return std::nullopt;
  E = E->IgnoreParenCasts();
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return threadIndexPlus(OV->getSourceExpr(), Fr, Depth + 1, Group);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return threadIndexPlus(PO->getSyntacticForm(), Fr, Depth + 1, Group);
  if (std::optional<char> C = componentOf(E, Fr, /*Thread=*/true))
    return *C == 'x' ? std::optional<int64_t>(0) : std::nullopt;
  if (isa<MSPropertyRefExpr, MemberExpr>(E))
    return std::nullopt;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (auto Arg = argumentFor(P, Fr))
        return threadIndexPlus(Arg->first, Arg->second, Depth + 1, Group);
      return std::nullopt;
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasLocalStorage()) {
      const Expr *Value = VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
      if (Value)
        return threadIndexPlus(Value, frameOf(VD->getParentFunctionOrMethod(), Fr), Depth + 1, Group);
    }
    return std::nullopt;
  }
  // A call that returns one expression: cooperative groups' thread_rank() is the block's linear
  // index, or that masked to a tile's.
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (auto Ret = returned(CE, Fr))
      return threadIndexPlus(Ret->first, Ret->second, Depth + 1, Group);
    return std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  // The lane (threadIdx.x & 31, threadIdx.x % 32) keeps a warp's lanes apart as the index does;
  // a rank in aligned groups of another size (a tile's thread_rank()) where the caller reads it.
  if (BO->getOpcode() == BO_And || BO->getOpcode() == BO_Rem)
    if (std::optional<int64_t> C = constantInt(BO->getRHS(), Ctx))
      if (std::optional<int64_t> G = rankGroupOf(*C, BO->getOpcode() == BO_And); G && (*G == 0 || Group))
        if (std::optional<int64_t> K = threadIndexPlus(BO->getLHS(), Fr, Depth + 1); K && *K == 0) {
          if (Group)
            *Group = *G;
          return 0;
        }
  if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
    return std::nullopt;
  // The block's linear index: threadIdx.x + the rows before (z * ny * nx + y * nx).
  if (BO->getOpcode() == BO_Add)
    for (unsigned I = 0; I < 2; ++I) {
      const Expr *Index = I ? BO->getRHS() : BO->getLHS(), *Rows = I ? BO->getLHS() : BO->getRHS();
      if (rowsBeforeThread(Rows, Fr))
        if (std::optional<int64_t> K = threadIndexPlus(Index, Fr, Depth + 1); K && *K == 0)
          return 0;
    }
  if (std::optional<int64_t> C = constantInt(BO->getRHS(), Ctx))
    if (std::optional<int64_t> K = threadIndexPlus(BO->getLHS(), Fr, Depth + 1))
      return BO->getOpcode() == BO_Add ? *K + *C : *K - *C;
  if (BO->getOpcode() == BO_Add)
    if (std::optional<int64_t> C = constantInt(BO->getLHS(), Ctx))
      if (std::optional<int64_t> K = threadIndexPlus(BO->getRHS(), Fr, Depth + 1))
        return *K + *C;
  return std::nullopt;
}

uint64_t ScopedAccesses::Walker::laneBits(const Expr *E, const Frame *Fr, unsigned Depth) {
  constexpr uint64_t All = ~uint64_t(0), Lane = WarpLanes - 1;
  auto Upward = [](uint64_t M) { return M ? ~((M & -M) - 1) : 0; }; // from the lowest dependent bit up
  if (!E || Depth > 16)
    return All;
  E = E->IgnoreParenCasts();
  if (constantInt(E, Ctx))
    return 0;
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return laneBits(OV->getSourceExpr(), Fr, Depth + 1);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return laneBits(PO->getSyntacticForm(), Fr, Depth + 1);
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {
    const Expr *B = MP->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(B); OV && OV->getSourceExpr())
      B = OV->getSourceExpr()->IgnoreParenImpCasts();
    const auto *Base = dyn_cast<DeclRefExpr>(B);
    StringRef Name = Base ? identifierOf(Base->getDecl()) : StringRef();
    if (isThreadIndexName(Name))
      return identifierOf(MP->getPropertyDecl()) == "x" ? Lane : All;
    return isBlockIndexName(Name) || isGridSizeName(Name) || Name == "blockDim" ? 0 : All;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (auto Arg = argumentFor(P, Fr))
        return laneBits(Arg->first, Arg->second, Depth + 1);
      const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
      return F && F->hasAttr<CUDAGlobalAttr>() ? 0 : All; // a kernel's argument: the same for every thread
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (VD->hasLocalStorage()) {
        const Expr *Value = VD->getInit() ? (modified(VD) ? nullptr : VD->getInit()) : singleAssignment(VD);
        return Value ? laneBits(Value, frameOf(VD->getParentFunctionOrMethod(), Fr), Depth + 1) : All;
      }
      return VD->getType().isConstQualified() && VD->getInit() ? laneBits(VD->getInit(), Fr, Depth + 1) : All;
    }
    return isa<EnumConstantDecl>(DRE->getDecl()) ? 0 : All;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return All;
    uint64_t L = laneBits(BO->getLHS(), Fr, Depth + 1), R = laneBits(BO->getRHS(), Fr, Depth + 1);
    std::optional<int64_t> C = constantInt(BO->getRHS(), Ctx);
    uint64_t K = C && *C >= 0 ? static_cast<uint64_t>(*C) : 0;
    switch (BO->getOpcode()) {
    case BO_Shl: return C && K < 64 ? L << K : Upward(L | R);
    case BO_Shr: return C && K < 64 ? L >> K : (L | R ? All : 0);
    case BO_Div: return C && K && llvm::isPowerOf2_64(K) ? L >> llvm::Log2_64(K) : (L | R ? All : 0);
    case BO_Rem: return C && K && llvm::isPowerOf2_64(K) ? L & (K - 1) : (L | R ? All : 0);
    case BO_And: return C ? L & K : L | R;
    case BO_Or:
    case BO_Xor: return L | R;
    case BO_Mul: return C && K && llvm::isPowerOf2_64(K) ? L << llvm::Log2_64(K) : Upward(L | R);
    case BO_Add:
    case BO_Sub: return Upward(L | R);
    default: return L | R ? 1 : 0; // comparisons and logic: one bit
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() || UO->getOpcode() == UO_Deref ? All
                                                                       : laneBits(UO->getSubExpr(), Fr, Depth + 1);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return laneBits(CO->getCond(), Fr, Depth + 1) | laneBits(CO->getTrueExpr(), Fr, Depth + 1) |
           laneBits(CO->getFalseExpr(), Fr, Depth + 1);
  return All;
}

std::optional<ThreadBound> ScopedAccesses::Walker::threadBound(const Expr *Cond, bool WhenTrue, const Frame *Fr) {
  Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return threadBound(UO->getSubExpr(), !WhenTrue, Fr);
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!BO)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr) {
    // Both sides of && hold when it does, both of || fail when it does: the branches -O2 leaves,
    // the least bound the arm's. A side that reads no thread index (blockIdx.x == 0) bounds
    // nothing; one that reads it with no bound leaves the whole without one.
    if ((BO->getOpcode() == BO_LAnd) != WhenTrue)
      return std::nullopt;
    std::optional<ThreadBound> Least;
    for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
      if (std::optional<ThreadBound> B = threadBound(Side, WhenTrue, Fr))
        Least = Least ? bothBounds(*Least, *B) : *B;
      else if (laneBits(Side, Fr) != 0)
        return std::nullopt;
    }
    return Least;
  }
  if (!BO->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  std::optional<int64_t> C = constantInt(R, Ctx);
  if (!C) {
    std::swap(L, R);
    C = constantInt(R, Ctx);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  int64_t Group = 0;
  std::optional<int64_t> K = threadIndexPlus(L, Fr, 0, &Group);
  if (!C || !K || *K != 0)
    return std::nullopt;
  std::optional<IndexCompare> Compare = indexCompareOf(Op);
  return Compare ? threadsBelow(*Compare, *C, WhenTrue, Group) : std::nullopt;
}

} // namespace cuda_scope
