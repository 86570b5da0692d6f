//===- WarpMaskCheck.cpp - full warp masks under lane-varying conditions ---===//
//
// The warp mask rule of model/Hierarchy.h: each warp-synchronous call with a
// constant full mask (0xffffffff; __syncwarp() with none; a collective of a
// cooperative groups tile of 32 threads) that a condition
// lanes of one warp may decide differently decides (Divergence.h, at the
// warp's level: a vote's result and the thread's index divided by the warp
// size are the warp's alike). And each shuffle whose constant mask leaves out
// a lane some lane of it reads (its offset a constant, or a counted loop's
// variable, tried in the loop's order as unrolling leaves it for the IR).
// A call of a function that makes a full-mask call is that call, reported
// where the pass, which sees it inlined, reports it.
//
//===----------------------------------------------------------------------===//
#include "WarpMaskCheck.h"
#include "Divergence.h"
#include "model/Hierarchy.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace llvm;

namespace cuda_scope {

void WarpMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(deviceFunctionDefinitions(), this);
}

namespace {
/// Whether a mask is the constant full mask (__syncwarp()'s default argument
/// is).
bool isFullMask(const Expr *Mask, const ASTContext &Ctx) {
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Mask))
    Mask = Default->getExpr();
  if (Mask->isValueDependent())
    return false;
  std::optional<APSInt> V = Mask->getIntegerConstantExpr(Ctx);
  return V && V->getZExtValue() == 0xffffffffu;
}

/// The call's CUDA name when it is warp-synchronous with a constant full mask.
std::optional<StringRef> fullMaskCall(const Stmt *S, const ASTContext &Ctx) {
  const auto *CE = dyn_cast<CallExpr>(S);
  if (!CE || !CE->getDirectCallee() || !CE->getDirectCallee()->getDeclName().isIdentifier())
    return std::nullopt;
  // A collective of a cooperative groups tile of 32 threads: its mask is
  // the whole warp.
  if (std::optional<unsigned> Size = tileSize(CE))
    return *Size == WarpLanes ? tileCollective(CE->getDirectCallee()->getName()) : std::nullopt;
  std::optional<WarpSyncCall> W = warpSyncCall(CE->getDirectCallee()->getName());
  if (!W || W->MaskArg >= CE->getNumArgs())
    return std::nullopt;
  if (!isFullMask(CE->getArg(W->MaskArg), Ctx))
    return std::nullopt;
  return W->Name;
}

/// The parameter of the function that holds \p S that is the mask of the
/// warp-synchronous call \p S is (a helper's `__shfl_sync(Mask, ...)`): the
/// call is a full-mask one where a caller hands the full mask for it.
const ParmVarDecl *maskParameter(const Stmt *S) {
  const auto *CE = dyn_cast<CallExpr>(S);
  if (!CE || !CE->getDirectCallee() || !CE->getDirectCallee()->getDeclName().isIdentifier() || tileSize(CE))
    return nullptr;
  std::optional<WarpSyncCall> W = warpSyncCall(CE->getDirectCallee()->getName());
  if (!W || W->MaskArg >= CE->getNumArgs())
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(CE->getArg(W->MaskArg)->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && isHandedOn(P) ? P : nullptr;
}

/// The CUDA name of a call decidedPlaces reports: a full-mask call, or one
/// whose mask a parameter hands down (maskParameter).
StringRef warpCallName(const Stmt *S, const ASTContext &Ctx) {
  if (std::optional<StringRef> Name = fullMaskCall(S, Ctx))
    return *Name;
  return warpSyncCall(cast<CallExpr>(S)->getDirectCallee()->getName())->Name;
}

/// The constant an argument has, through a default argument.
std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    E = Default->getExpr();
  if (E->isValueDependent())
    return std::nullopt;
  if (std::optional<APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

/// The values, in order, of the variable of a counted loop whose init,
/// condition and step are constants and whose body leaves it alone
/// (for (int O = 8; O > 0; O /= 2)): what unrolling gives the IR. None where
/// the loop has another form or runs past 64 steps.
std::optional<SmallVector<int64_t, 8>> loopValues(const ForStmt *FS, const VarDecl *VD, const ASTContext &Ctx) {
  if (!VD->getInit() || changesVariable(FS->getBody(), VD) || !FS->getCond() || !FS->getInc())
    return std::nullopt;
  std::optional<int64_t> V = constantOf(VD->getInit(), Ctx);
  const auto *Cond = dyn_cast<BinaryOperator>(FS->getCond()->IgnoreParenImpCasts());
  auto Names = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  if (!V || !Cond || !Cond->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  std::optional<int64_t> Bound;
  if (Names(Cond->getLHS())) {
    Bound = constantOf(Cond->getRHS(), Ctx);
  } else if (Names(Cond->getRHS())) {
    Bound = constantOf(Cond->getLHS(), Ctx);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  // The step: ++/--, a compound assignment by a constant, or V = V op c.
  const Expr *Inc = cast<Expr>(FS->getInc())->IgnoreParenImpCasts();
  BinaryOperatorKind StepOp = BO_Add;
  std::optional<int64_t> By;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc); UO && UO->isIncrementDecrementOp() && Names(UO->getSubExpr())) {
    By = UO->isIncrementOp() ? 1 : -1;
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc); CA && Names(CA->getLHS())) {
    StepOp = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
    By = constantOf(CA->getRHS(), Ctx);
  } else if (const auto *A = dyn_cast<BinaryOperator>(Inc); A && A->getOpcode() == BO_Assign && Names(A->getLHS())) {
    if (const auto *Rhs = dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts()); Rhs && Names(Rhs->getLHS())) {
      StepOp = Rhs->getOpcode();
      By = constantOf(Rhs->getRHS(), Ctx);
    }
  }
  if (!Bound || !By)
    return std::nullopt;
  SmallVector<int64_t, 8> Out;
  for (int64_t X = *V;;) {
    const bool Runs = Op == BO_LT   ? X < *Bound
                      : Op == BO_LE ? X <= *Bound
                      : Op == BO_GT ? X > *Bound
                      : Op == BO_GE ? X >= *Bound
                      : Op == BO_NE ? X != *Bound
                                    : X == *Bound;
    if (!Runs)
      return Out;
    if (Out.size() == 64)
      return std::nullopt;
    Out.push_back(X);
    if ((StepOp == BO_Div && *By == 0) || ((StepOp == BO_Shl || StepOp == BO_Shr) && (*By < 0 || *By > 31)))
      return std::nullopt;
    switch (StepOp) {
    case BO_Add:
      X += *By;
      break;
    case BO_Sub:
      X -= *By;
      break;
    case BO_Mul:
      X *= *By;
      break;
    case BO_Div:
      X /= *By;
      break;
    case BO_Shl:
      X <<= *By;
      break;
    case BO_Shr:
      X >>= *By;
      break;
    default:
      return std::nullopt;
    }
  }
}

/// The values \p E takes: a constant, or the variable of a counted loop.
SmallVector<int64_t, 8> valuesOf(const Expr *E, const ASTContext &Ctx,
                                 const llvm::DenseMap<const VarDecl *, const ForStmt *> &Loops) {
  if (std::optional<int64_t> V = constantOf(E, Ctx))
    return {*V};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (auto It = Loops.find(VD); It != Loops.end())
        if (std::optional<SmallVector<int64_t, 8>> Vs = loopValues(It->second, VD, Ctx))
          return *Vs;
  return {};
}

/// The loops of \p S whose init declares one variable.
void collectLoops(const Stmt *S, llvm::DenseMap<const VarDecl *, const ForStmt *> &Loops) {
  if (!S)
    return;
  if (const auto *FS = dyn_cast<ForStmt>(S))
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit()); DS && DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
        Loops[VD] = FS;
  for (const Stmt *Child : S->children())
    collectLoops(Child, Loops);
}

/// The shuffles of \p S whose constant mask leaves out a lane some lane of
/// the mask reads, with the first such read in the loop's order.
void shufflesOutsideMask(const Stmt *S, const ASTContext &Ctx,
                         const llvm::DenseMap<const VarDecl *, const ForStmt *> &Loops,
                         SmallVectorImpl<std::tuple<const CallExpr *, StringRef, uint32_t, ShuffleOutsideMask>> &Out) {
  if (!S)
    return;
  for (const Stmt *Child : S->children())
    shufflesOutsideMask(Child, Ctx, Loops, Out);
  const auto *CE = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getDeclName().isIdentifier() || CE->getNumArgs() != 4)
    return;
  std::optional<WarpSyncCall> W = warpSyncCall(Callee->getName());
  std::optional<ShuffleMode> Mode = W ? shuffleMode(W->Name) : std::nullopt;
  // __shfl*_sync(mask, value, lane or offset, width).
  std::optional<int64_t> Mask = Mode ? constantOf(CE->getArg(0), Ctx) : std::nullopt;
  std::optional<int64_t> Width = Mask ? constantOf(CE->getArg(3), Ctx) : std::nullopt;
  if (!Width || *Width < 1 || *Width > WarpLanes)
    return;
  for (int64_t B : valuesOf(CE->getArg(2), Ctx, Loops))
    if (std::optional<ShuffleOutsideMask> Read =
            shuffleReadsOutsideMask(*Mode, static_cast<uint32_t>(*Mask), static_cast<unsigned>(B),
                                    shuffleClamp(*Mode, static_cast<unsigned>(*Width)))) {
      Out.emplace_back(CE, W->Name, static_cast<uint32_t>(*Mask), *Read);
      return;
    }
}
} // namespace

void WarpMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("f");
  if (!F || !F->getBody() || F->isDependentContext())
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  // A full-mask call, or a call of a function that makes one (a warp
  // reduction helper called under if (lane < n)), as the pass sees the call
  // inlined.
  for (const DecidedPlace &D :
       decidedPlaces(F, Ctx, VaryLevel::Warp, [&](const Stmt *S) { return fullMaskCall(S, Ctx).has_value(); },
                     {maskParameter, [&](const Expr *Arg) { return isFullMask(Arg, Ctx); }})) {
    diag(D.Place.At, "%0") << warpMaskMessage(warpCallName(D.Place.S, Ctx), placeOf(D.Cond->getBeginLoc(), SM));
    if (D.Place.At != targetLoc(D.Met))
      diag(targetLoc(D.Met), "the warp-synchronous call is reached through this call", DiagnosticIDs::Note);
    diag(D.Cond->getBeginLoc(), "lanes of one warp may decide this condition differently", DiagnosticIDs::Note);
  }
  llvm::DenseMap<const VarDecl *, const ForStmt *> Loops;
  collectLoops(F->getBody(), Loops);
  SmallVector<std::tuple<const CallExpr *, StringRef, uint32_t, ShuffleOutsideMask>, 4> Reads;
  shufflesOutsideMask(F->getBody(), Ctx, Loops, Reads);
  for (const auto &[CE, Name, Mask, Read] : Reads)
    diag(CE->getExprLoc(), "%0") << shuffleSourceMessage(Name, Mask, Read);
}

} // namespace cuda_scope
