//===- IndexText.cpp - an index as canonical text, and what it reads --------===//
//
// An index is named by canonical text (equal text, the same computation, so
// the same element for threads with the same indices), and its facts say
// what it reads of the thread's identity (IndexDeps, combined by the
// model's rules as the IR front end combines them): which block, warp or
// thread an element belongs to, and whether threads may compute it apart.
//
//===----------------------------------------------------------------------===//
#include "ScopedAccessesWalker.h"
#include "ast/CheckUtils.h"
#include "model/Hierarchy.h"
#include <functional>
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {
using namespace impl;

const Expr *ScopedAccesses::Walker::gridStrideStart(const VarDecl *V, const Frame *Fr, unsigned Depth) {
  const Modifications *Map = modificationsOf(V);
  auto It = Map ? Map->find(V) : Modifications::const_iterator();
  if (!Map || It == Map->end())
    return nullptr;
  const Modification &M = It->second;
  // A step read through the variable itself (or a variable whose steps read
  // this one) says nothing of where it starts; reading it again would only
  // go round the cycle until the depth limit, once per way through it.
  if (M.Other || M.Steps.empty() || !StrideWalks.insert(V).second)
    return nullptr;
  llvm::scope_exit Done([&] { StrideWalks.erase(V); });
  // One plain assignment may restore a copy taken of the variable itself
  // (restart = k; ...; k = restart): a value of its own sequence.
  auto Restores = [&](const Expr *E) {
    const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    const auto *Copy = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    const auto *From = Copy && Copy->hasLocalStorage() && Copy->getInit()
                           ? dyn_cast<DeclRefExpr>(Copy->getInit()->IgnoreParenImpCasts())
                           : nullptr;
    return From && From->getDecl() == V && !modified(Copy);
  };
  const Expr *Start = V->getInit() && (M.Plain == 0 || (M.Plain == 1 && Restores(M.Assigned))) ? V->getInit()
                      : !V->getInit() && M.Plain == 1                                          ? M.Assigned
                                                                                               : nullptr;
  if (!Start)
    return nullptr;
  // A start that reads a local changed in a loop around the walk (w = tid +
  // round, round counted by a loop that begins the walk anew) begins each
  // round elsewhere: another thread's items, in a round that thread may not
  // have reached.
  SmallVector<SourceRange, 4> Around; // the loops that begin the walk anew
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  std::function<void(const Stmt *)> Loops = [&](const Stmt *S) {
    if (!S)
      return;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) &&
        SM.isPointWithin(V->getLocation(), S->getBeginLoc(), S->getEndLoc())) {
      const auto *For = dyn_cast<ForStmt>(S);
      const auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
      if (!Init || !llvm::is_contained(Init->decls(), V)) // the walk's own loop
        Around.push_back(S->getSourceRange());
    }
    for (const Stmt *C : S->children())
      Loops(C);
  };
  Loops(Fn ? Fn->getBody() : nullptr);
  std::function<bool(const Stmt *, unsigned)> ReadsChanged = [&](const Stmt *S, unsigned Steps) {
    if (!S || Steps > 8)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *L = dyn_cast<VarDecl>(DRE->getDecl()); L && L != V && L->hasLocalStorage() && !isa<ParmVarDecl>(L)) {
        if (L->getInit() && ReadsChanged(L->getInit(), Steps + 1))
          return true;
        const Modifications *LMap = modificationsOf(L);
        auto LIt = LMap ? LMap->find(L) : Modifications::const_iterator();
        return LMap && LIt != LMap->end() && any_of(LIt->second.Sites, [&](SourceLocation Site) {
                 return any_of(Around, [&](SourceRange R) { return SM.isPointWithin(Site, R.getBegin(), R.getEnd()); });
               });
      }
    return any_of(S->children(), [&](const Stmt *C) { return ReadsChanged(C, Steps + 1); });
  };
  if (!Around.empty() && ReadsChanged(Start, 0))
    return nullptr;
  for (const Expr *Step : M.Steps) {
    IndexDeps D;
    canon(Step, frameOf(V->getParentFunctionOrMethod(), Fr), D, Depth + 1);
    if (!D.Grid)
      return nullptr;
  }
  return Start;
}

std::optional<std::string> ScopedAccesses::Walker::rangeWalk(const VarDecl *V, const Frame *Fr, IndexDeps &Deps,
                                                             unsigned Depth) {
  const Modifications *Map = modificationsOf(V);
  auto It = Map ? Map->find(V) : Modifications::const_iterator();
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!Map || It == Map->end() || It->second.Count != 1 || !V->getInit() || !Fn || !Fn->getBody() ||
      !RangeWalks.insert(V).second) // a bound read through the variable itself is no bound
    return std::nullopt;
  llvm::scope_exit Done([&] { RangeWalks.erase(V); });
  const Frame *Own = frameOf(Fn, Fr);
  // Its one change is a step (++, --, += e, -= e), and a test that ends a
  // loop the step is in compares it with a bound its owner owns (j <
  // rowStart[v + 1]), as the IR's exiting branch does. What the body says of
  // it is read once.
  auto [Shape, New] = RangeShapes.try_emplace(V);
  if (New) {
    auto IsV = [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && DRE->getDecl() == V;
    };
    const Stmt *const EveryLoop = Fn->getBody(); // what a return ends
    SmallVector<const Stmt *, 4> Loops, BreakTargets;          // enclosing loops; loops and switches
    SmallVector<const Stmt *, 4> StepLoops;                     // the loops around the step
    SmallVector<std::pair<const Expr *, const Stmt *>, 4> Tests; // compared with, the loop the test ends
    RangeShape &R = Shape->second;
    // What a branch that leaves by \p S ends: the innermost loop for a
    // break (none if a switch is nearer), every loop for a return.
    auto Ends = [&](const Stmt *S) -> const Stmt * {
      if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
        S = CS->body_empty() ? nullptr : CS->body_back();
      if (isa_and_nonnull<ReturnStmt>(S))
        return Loops.empty() ? nullptr : EveryLoop;
      if (isa_and_nonnull<BreakStmt>(S) && !BreakTargets.empty() && !isa<SwitchStmt>(BreakTargets.back()))
        return BreakTargets.back();
      return nullptr;
    };
    std::function<void(const Stmt *, const Stmt *)> Find = [&](const Stmt *S, const Stmt *Ending) {
      if (!S)
        return;
      auto InLoop = [&](const Stmt *L, auto Visit) {
        Loops.push_back(L);
        BreakTargets.push_back(L);
        Visit();
        Loops.pop_back();
        BreakTargets.pop_back();
      };
      if (const auto *For = dyn_cast<ForStmt>(S)) {
        Find(For->getInit(), nullptr);
        InLoop(For, [&] {
          Find(For->getCond(), For);
          Find(For->getInc(), nullptr);
          Find(For->getBody(), nullptr);
        });
        return;
      }
      if (const auto *While = dyn_cast<WhileStmt>(S))
        return InLoop(While, [&] {
          Find(While->getCond(), While);
          Find(While->getBody(), nullptr);
        });
      if (const auto *Do = dyn_cast<DoStmt>(S))
        return InLoop(Do, [&] {
          Find(Do->getBody(), nullptr);
          Find(Do->getCond(), Do);
        });
      if (isa<CXXForRangeStmt>(S))
        return InLoop(S, [&] {
          for (const Stmt *Child : S->children())
            Find(Child, nullptr);
        });
      if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
        Find(Switch->getCond(), nullptr);
        BreakTargets.push_back(Switch);
        Find(Switch->getBody(), nullptr);
        BreakTargets.pop_back();
        return;
      }
      if (const auto *If = dyn_cast<IfStmt>(S)) {
        const Stmt *Leaves = Ends(If->getThen());
        Find(If->getCond(), Leaves ? Leaves : Ends(If->getElse()));
        Find(If->getThen(), nullptr);
        Find(If->getElse(), nullptr);
        return;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp() && IsV(UO->getSubExpr())) {
        R.Stepped = true;
        StepLoops = Loops;
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if ((BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) && IsV(BO->getLHS())) {
          R.Stepped = true;
          R.Step = BO->getRHS();
          StepLoops = Loops;
        } else if (BO->isRelationalOp() || BO->getOpcode() == BO_NE) {
          if (const Expr *Other = IsV(BO->getLHS()) ? BO->getRHS() : IsV(BO->getRHS()) ? BO->getLHS() : nullptr)
            if (Ending)
              Tests.push_back({Other, Ending});
        }
      }
      for (const Stmt *Child : S->children())
        Find(Child, Ending);
    };
    Find(Fn->getBody(), nullptr);
    for (auto [Other, Ending] : Tests)
      if (!StepLoops.empty() && (Ending == EveryLoop || is_contained(StepLoops, Ending)))
        R.Compared.push_back(Other);
  }
  const RangeShape R = Shape->second; // a copy: canon below may grow the map
  if (!R.Stepped || R.Compared.empty())
    return std::nullopt;
  IndexDeps Step;
  if (R.Step)
    canon(R.Step, Own, Step, Depth + 1);
  std::optional<IndexDeps> Bound;
  for (const Expr *Other : R.Compared) {
    IndexDeps D;
    canon(Other, Own, D, Depth + 1);
    if (D.Block) {
      Bound = D;
      break;
    }
  }
  if (!Bound)
    return std::nullopt;
  IndexDeps Start;
  std::string Text = canon(V->getInit(), Own, Start, Depth + 1);
  std::optional<IndexDeps> Walk = rangeIndex(Start, Step, *Bound);
  if (!Walk)
    return std::nullopt;
  Deps |= *Walk;
  return "range(" + Text + ")";
}

std::optional<std::string> ScopedAccesses::Walker::rangeRow(const Expr *Index, const Frame *Fr) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  IndexDeps Walk;
  if (!V || !V->hasLocalStorage() || !rangeWalk(V, Fr, Walk, 0))
    return std::nullopt;
  // The start's one term that keeps blocks apart: rowStart[v] of rowStart[v] + lane.
  const Frame *Own = frameOf(V->getParentFunctionOrMethod(), Fr);
  const Expr *Start = V->getInit()->IgnoreParenImpCasts();
  std::optional<std::string> Row;
  auto Owned = [&](const Expr *E) {
    IndexDeps D;
    std::string Text = canon(E, Own, D);
    return D.Block ? std::optional<std::string>(Text) : std::nullopt;
  };
  const auto *Sum = dyn_cast<BinaryOperator>(Start);
  if (Sum && Sum->isAdditiveOp()) {
    std::optional<std::string> L = Owned(Sum->getLHS()), R = Owned(Sum->getRHS());
    if (L.has_value() != R.has_value())
      Row = L ? L : Sum->getOpcode() == BO_Add ? R : std::nullopt;
  } else {
    Row = Owned(Start);
  }
  return Row;
}

void ScopedAccesses::Walker::addIndex(ObjectRef &R, const Expr *Index, const Frame *Fr) {
  IndexDeps Deps;
  std::string Text = canon(Index, Fr, Deps);
  if (Text == "0")
    return; // p[0] is *p, and p + 0 is p
  const std::string Before = R.Index;
  R.Index += "[" + Text + "]";
  if (Deps.Block && !R.BlockDependent) {
    R.BlockSegment = R.Index;
    // A range the owner's bounds delimit is the part its start's owned term
    // names: e[j] for j from rowStart[v] + lane, as e[rowStart[v]].
    IndexDeps Owner;
    if (std::optional<std::string> Row = Deps.InRange ? rangeRow(Index, Fr) : indexRow(Index, Fr, Owner))
      R.BlockSegment = Before + "[" + *Row + "]";
    R.WarpSegment = Deps.Warp || Deps.Thread;
  } else if (!R.BlockDependent && R.BlockSegment.empty()) {
    // A cursor in an owner's row reads no owner itself (lp from rowStart[v]):
    // the row names its part, the owner's as a range walk's is (model:
    // rowCursor).
    IndexDeps Owner;
    if (std::optional<std::string> Row = indexRow(Index, Fr, Owner)) {
      R.BlockSegment = Before + "[" + *Row + "]";
      R.WarpSegment = Owner.Warp || Owner.Thread;
      R.BlockDependent = true;
    }
  }
  // The terms of the one that reads the block's index first, for its region,
  // and of one flat index (State::addressesApart).
  std::shared_ptr<std::vector<IndexTerm>> Terms;
  const bool First = R.Subscripts == 0 && Before.empty();
  if ((Deps.Block && !R.BlockDependent) || First) {
    Terms = std::make_shared<std::vector<IndexTerm>>();
    additiveTerms(Index, Fr, false, *Terms);
  }
  if (Deps.Block && !R.BlockDependent)
    if (std::string Part = blockPart(*Terms); !Part.empty())
      R.BlockPart = Before + "[" + Part + "]";
  if (First)
    R.Flat = std::move(Terms);
  else
    R.Flat.reset();
  R.BlockDependent |= Deps.Block;
  R.ThreadDependent |= Deps.Thread;
  R.ReadDependent |= Deps.Read;
  R.IndexVaries |= Deps.Varies;
  R.ThreadVaries |= Deps.ThreadVaries;
  // One subscript of the thread's index (or lane) plus a constant, and others every lane of a warp
  // computes alike: lanes apart by the constant's difference.
  ++R.Subscripts;
  if (std::optional<int64_t> K = threadIndexPlus(Index, Fr)) {
    R.LaneVoid |= R.LaneOffset.has_value();
    R.LaneOffset = K;
  } else if (laneBits(Index, Fr) == 0) {
    R.LaneBase += "[" + Text + "]";
  } else {
    R.LaneVoid = true;
  }
}

/// \p E calls a function whose value is not a function of its arguments
/// alone and that the walk does not follow to what it returns.
bool ScopedAccesses::Walker::opaqueCall(const Expr *E, const Frame *Fr, unsigned Depth) {
  if (!E || Depth > 16)
    return E != nullptr;
  // threadIdx.x, blockIdx.x: a property whose getter is the builtin's read.
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return opaqueCall(PO->getSyntacticForm(), Fr, Depth + 1);
  if (isa<MSPropertyRefExpr>(E))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenCasts())) {
    const FunctionDecl *FD = CE->getDirectCallee();
    StringRef Name = identifierOf(FD);
    bool Known = FD && (isBlockIndexName(Name) || isThreadIndexName(Name) || isGridSizeName(Name) ||
                        FD->hasAttr<ConstAttr>() || (FD->getBuiltinID() && Ctx.BuiltinInfo.isConst(FD->getBuiltinID())));
    if (!Known && !returned(CE, Fr))
      return true;
  }
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child); C && opaqueCall(C, Fr, Depth + 1))
      return true;
  return false;
}

bool ScopedAccesses::Walker::alikeInBlock(const Expr *E, const Frame *Fr) {
  IndexDeps D;
  std::string Text = canon(E, Fr, D);
  return !D.Thread && !D.Warp && !D.ThreadVaries && !D.Read && StringRef(Text).count('@') == 0 &&
         !opaqueCall(E, Fr);
}

void ScopedAccesses::Walker::noteBranch(const Stmt *Branch, const Expr *Cond, const Frame *Fr) {
  bool Alike = Cond && alikeInBlock(Cond, Fr);
  auto [It, New] = Owner.BranchAlike.try_emplace(Branch, Alike);
  if (!New)
    It->second = It->second && Alike;
}

/// \p E through parameters' arguments and locals given their value once.
const Expr *ScopedAccesses::Walker::followed(const Expr *E, const Frame *&Fr) {
  for (unsigned Steps = 0; Steps < MaxResolve; ++Steps) {
    E = E->IgnoreParenCasts();
    if (!isa<DeclRefExpr>(E) || !stepToSource(E, Fr, Vars::UnmodifiedLocals))
      break;
  }
  return E;
}

void ScopedAccesses::Walker::shareFacts(const BinaryOperator *Mul, const Frame *Fr, IndexTerm &T) {
  // blockIdx.x, gridDim.x, or the builtins that read them.
  auto Is = [&](const Expr *E, const Frame *F, bool (*Name)(StringRef)) {
    IndexDeps Ignored;
    E = followed(E, F);
    std::string Spelled = canon(E, F, Ignored);
    StringRef Text = Spelled;
    auto [Base, Axis] = Text.rsplit('.');
    return Axis == "x" ? Name(Base) : Text.ends_with("_x") && Name(Text);
  };
  // X / gridDim.x: X, else null.
  auto GridSplit = [&](const Expr *E, const Frame *&F) -> const Expr * {
    const auto *Div = dyn_cast<BinaryOperator>(followed(E, F));
    return Div && Div->getOpcode() == BO_Div && Is(Div->getRHS(), F, isGridSizeName) ? Div->getLHS() : nullptr;
  };
  for (const Expr *Side : {Mul->getLHS(), Mul->getRHS()}) {
    const Expr *Other = Side == Mul->getLHS() ? Mul->getRHS() : Mul->getLHS();
    const Frame *PitchFr = Fr;
    IndexDeps Ignored;
    if (const Expr *X = GridSplit(Side, PitchFr); X && Is(Other, Fr, isBlockIndexName)) {
      T.ShareOf = canon(X, PitchFr, Ignored);
      return;
    }
    // (X / gridDim.x / k) * (v % m), m <= k.
    const Frame *PartFr = Fr, *BelowFr = Fr;
    const auto *Part = dyn_cast<BinaryOperator>(followed(Side, PartFr));
    const auto *Below = dyn_cast<BinaryOperator>(followed(Other, BelowFr));
    if (!Part || !Below || Part->getOpcode() != BO_Div || Below->getOpcode() != BO_Rem)
      continue;
    std::optional<int64_t> K = constantInt(Part->getRHS(), Ctx), M = constantInt(Below->getRHS(), Ctx);
    if (const Expr *X = K && M && *M > 0 && *M <= *K ? GridSplit(Part->getLHS(), PartFr) : nullptr) {
      T.BagOf = canon(X, PartFr, Ignored);
      return;
    }
  }
}

void ScopedAccesses::Walker::additiveTerms(const Expr *E, const Frame *Fr, bool Negated, std::vector<IndexTerm> &Out,
                                          unsigned Depth) {
  E = E->IgnoreParenCasts();
  if (Depth < 8) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      additiveTerms(BO->getLHS(), Fr, Negated, Out, Depth + 1);
      additiveTerms(BO->getRHS(), Fr, BO->getOpcode() == BO_Sub ? !Negated : Negated, Out, Depth + 1);
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (auto Arg = argumentFor(P, Fr))
          return additiveTerms(Arg->first, Arg->second, Negated, Out, Depth + 1);
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit() &&
          (!modified(VD) || readBeforeAnyChange(DRE, VD)))
        return additiveTerms(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Negated, Out, Depth + 1);
    }
  }
  IndexTerm T;
  T.Text = canon(E, Fr, T.Deps);
  T.Negated = Negated;
  if (std::optional<APSInt> C = E->getIntegerConstantExpr(Ctx); C && C->getSignificantBits() <= 64)
    T.Constant = C->getExtValue();
  // Unsigned arithmetic, which the rules take not to wrap: a subtraction
  // is a negated term here, as the source writes it.
  T.NonNegative = E->getType()->isUnsignedIntegerType() || (T.Constant && *T.Constant >= 0);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Mul)
      shareFacts(BO, Fr, T);
    T.Scaled = BO->getOpcode() == BO_Mul || BO->getOpcode() == BO_Shl;
    std::optional<APSInt> C = BO->getRHS()->getIntegerConstantExpr(Ctx);
    if (!C && BO->getOpcode() == BO_Mul)
      C = BO->getLHS()->getIntegerConstantExpr(Ctx);
    if (T.Scaled && C && !C->isNegative() && C->getActiveBits() <= 62)
      if (BO->getOpcode() == BO_Mul || C->getZExtValue() < 62)
        T.Factor = BO->getOpcode() == BO_Mul ? int64_t(C->getZExtValue()) : int64_t(1) << C->getZExtValue();
  }
  // What threads of a block compute alike: no thread index, and every step
  // named; no call whose value the walk does not follow (an atomic's result).
  T.BlockUniform = !T.Deps.Thread && !T.Deps.Warp && !T.Deps.ThreadVaries && StringRef(T.Text).count('@') == 0 && !opaqueCall(E, Fr);
  Out.push_back(std::move(T));
}

/// Canonical text of an index: equal text means the same computation, so the
/// same element for threads with the same block and thread indices. Locals
/// are replaced by their initializers and parameters by their arguments; what
/// cannot be followed is named uniquely. \p Deps says whether the value reads
/// blockIdx.x (threadIdx.x) through operations that keep distinct blocks
/// (threads) apart.
namespace {
/// Expressions read by one canonical text, in all. MaxResolve bounds each
/// chain; but a local read twice in its successor's initializer (`c1 = c0 &&
/// c0`, generated code) doubles the text at each link, and 24 such locals
/// took the memory rules past 40 s and a gigabyte. Past this budget the rest
/// is a value that cannot be followed, as a call the walk does not enter.
/// One count per thread: clangd runs checks on several.
constexpr unsigned MaxCanonNodes = 4096;
thread_local unsigned CanonNodes = 0, CanonNesting = 0;
} // namespace

std::string ScopedAccesses::Walker::canon(const Expr *E, const Frame *Fr, IndexDeps &Deps, unsigned Depth) {
  auto Unique = [](const void *P, StringRef Name) { return (Name + "@" + utohexstr(reinterpret_cast<uintptr_t>(P))).str(); };
  if (!E)
    return "?";
  if (Depth > MaxResolve)
    return Unique(E, "?");
  if (CanonNesting++ == 0)
    CanonNodes = 0;
  llvm::scope_exit Nested([] { --CanonNesting; });
  if (++CanonNodes > MaxCanonNodes) {
    Deps.Read = true;
    return Unique(E, "?");
  }
  E = E->IgnoreParenCasts();
  if (std::optional<int64_t> V = constantInt(E, Ctx))
    return std::to_string(*V);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (isBlockIndexName(identifierOf(D)) || isThreadIndexName(identifierOf(D))) {
      (isBlockIndexName(identifierOf(D)) ? Deps.Block : Deps.Thread) = true;
      Deps.Varies = true;
      Deps.ThreadVaries |= isThreadIndexName(identifierOf(D));
      return identifierOf(D).str();
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      if (auto Arg = argumentFor(P, Fr))
        return canon(Arg->first, Arg->second, Deps, Depth + 1);
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD)) {
      if (VD->getInit() && (!modified(VD) || readBeforeAnyChange(DRE, VD)))
        return canon(VD->getInit(), frameOf(VD->getParentFunctionOrMethod(), Fr), Deps, Depth + 1);
      if (const Expr *Value = singleAssignment(VD))
        return canon(Value, frameOf(VD->getParentFunctionOrMethod(), Fr), Deps, Depth + 1);
      // A grid-stride loop's variable stays the thread's own: each thread
      // starts apart and steps over the whole grid.
      if (const Expr *Start = gridStrideStart(VD, Fr, Depth + 1)) {
        IndexDeps Sub;
        std::string Text = canon(Start, frameOf(VD->getParentFunctionOrMethod(), Fr), Sub, Depth + 1);
        if (std::optional<IndexDeps> Own = strideIndex(Sub)) {
          Deps |= *Own;
          return "stride(" + Text + ")";
        }
      }
      // A range its bounds delimit (a CSR row).
      if (std::optional<std::string> Text = rangeWalk(VD, Fr, Deps, Depth + 1))
        return *Text;
    }
    if (isGridSizeName(identifierOf(D))) {
      Deps.Grid = true;
      return identifierOf(D).str();
    }
    // A kernel's own parameter: one value for every thread of the launch, so
    // an address made of it is the same for all (its own name still: '$',
    // not the '@' of a value that cannot be followed).
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      if (const auto *Fn = dyn_cast_or_null<FunctionDecl>(P->getDeclContext()); Fn && Fn->hasAttr<CUDAGlobalAttr>())
        return (identifierOf(D) + "$" + utohexstr(reinterpret_cast<uintptr_t>(D))).str();
    return Unique(D, identifierOf(D));
  }
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return canon(OV->getSourceExpr(), Fr, Deps, Depth + 1);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return canon(PO->getSyntacticForm(), Fr, Deps, Depth + 1);
  // blockIdx.x keeps blocks apart, threadIdx.x a block's threads; .y or .z
  // alone does not (separatesBlocks).
  auto Member = [&](const Expr *Base, StringRef Name, StringRef Sep) {
    IndexDeps Sub;
    std::string Text = canon(Base, Fr, Sub, Depth + 1) + Sep.str() + Name.str();
    const Expr *B = Base->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(B); OV && OV->getSourceExpr())
      B = OV->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(B);
    StringRef BaseName = DRE ? identifierOf(DRE->getDecl()) : StringRef();
    bool Component =
        (isBlockIndexName(BaseName) || isThreadIndexName(BaseName) || isGridSizeName(BaseName)) && Name.size() == 1;
    bool Apart = !Component || separatesBlocks(Name[0]);
    // A field read from memory (not an index or size, nor a field of a
    // kernel's by-value parameter, one value for the whole launch).
    const auto *Param = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    const auto *Kernel = Param ? dyn_cast_or_null<FunctionDecl>(Param->getDeclContext()) : nullptr;
    if (!Component && !(Kernel && Kernel->hasAttr<CUDAGlobalAttr>() && !Param->getType()->isPointerType()))
      Deps.Read = true;
    Deps.Block |= Sub.Block && Apart;
    Deps.Thread |= Sub.Thread && Apart;
    Deps.Varies |= Sub.Varies;
    Deps.ThreadVaries |= Sub.ThreadVaries;
    Deps.Grid |= Sub.Grid && Apart;
    if (isBlockSizeXName(BaseName) && Name == "x")
      Deps |= blockSizeIndex();
    return Text;
  };
  // threadIdx or blockDim passed down as a dim3 (cooperative groups' vec3_to_linear).
  if (isa<MemberExpr>(E))
    for (bool Thread : {true, false})
      if (std::optional<char> C = componentOf(E, Fr, Thread)) {
        Deps.Thread |= Thread && separatesBlocks(*C);
        Deps.Varies |= Thread;
        Deps.ThreadVaries |= Thread;
        if (!Thread && *C == 'x')
          Deps |= blockSizeIndex();
        return std::string(Thread ? "threadIdx." : "blockDim.") + *C;
      }
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E))
    return Member(MP->getBaseExpr(), identifierOf(MP->getPropertyDecl()), ".");
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return Member(ME->getBase(), ME->getMemberDecl()->getNameAsString(), ME->isArrow() ? "->" : ".");
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return Unique(E, "?");
    auto Kind = [](BinaryOperatorKind K) {
      switch (K) {
      case BO_Add: return Arith::Add;
      case BO_Sub: return Arith::Sub;
      case BO_Mul: return Arith::Mul;
      case BO_Shl: return Arith::Shl;
      case BO_Div: return Arith::Div;
      case BO_Rem: return Arith::Rem;
      case BO_And: return Arith::And;
      case BO_Or: return Arith::Or;
      case BO_Xor: return Arith::Xor;
      case BO_Shr: return Arith::Shr;
      default: return Arith::Other;
      }
    };
    IndexDeps L, R;
    std::string Text = "(" + canon(BO->getLHS(), Fr, L, Depth + 1) + BO->getOpcodeStr().str() +
                       canon(BO->getRHS(), Fr, R, Depth + 1) + ")";
    std::optional<int64_t> LK = constantInt(BO->getLHS(), Ctx), RK = constantInt(BO->getRHS(), Ctx);
    Arith A = Kind(BO->getOpcode());
    // A mask that clears only bits above the 24th, as the IR reads one.
    if (A == Arith::And && (LK || RK)) {
      uint64_t Cleared = ~uint64_t(RK ? *RK : *LK);
      if (Ctx.getTypeSize(BO->getType()) < 64)
        Cleared &= (uint64_t(1) << Ctx.getTypeSize(BO->getType())) - 1;
      if (truncatesOnlyHighBits(Cleared))
        A = Arith::Truncate;
    }
    Deps |= combineIndex(A, L, R, RK, LK);
    return Text;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp())
      return Unique(E, "?");
    IndexDeps Sub;
    std::string Text =
        UnaryOperator::getOpcodeStr(UO->getOpcode()).str() + "(" + canon(UO->getSubExpr(), Fr, Sub, Depth + 1) + ")";
    Deps |= UO->getOpcode() == UO_Deref ? loadedIndex(Sub) : Sub;
    return Text;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return "(" + canon(CO->getCond(), Fr, Deps, Depth + 1) + "?" + canon(CO->getTrueExpr(), Fr, Deps, Depth + 1) +
           ":" + canon(CO->getFalseExpr(), Fr, Deps, Depth + 1) + ")";
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // An element read from memory.
    IndexDeps Address;
    std::string Text =
        canon(AS->getBase(), Fr, Address, Depth + 1) + "[" + canon(AS->getIdx(), Fr, Address, Depth + 1) + "]";
    Deps |= loadedIndex(Address);
    return Text;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && (isBlockIndexName(identifierOf(FD)) || isThreadIndexName(identifierOf(FD)) ||
               isGridSizeName(identifierOf(FD)))) {
      // __nvvm_read_ptx_sreg_ctaid_x, __nvvm_read_ptx_sreg_tid_x, __nvvm_read_ptx_sreg_nctaid_x
      StringRef Name = identifierOf(FD);
      (isBlockIndexName(Name) ? Deps.Block : isThreadIndexName(Name) ? Deps.Thread : Deps.Grid) |=
          separatesBlocks(Name.back());
      Deps.Varies |= !isGridSizeName(Name);
      Deps.ThreadVaries |= isThreadIndexName(Name);
      return Name.str();
    }
    if (FD && isBlockSizeXName(identifierOf(FD))) {
      Deps |= blockSizeIndex(); // __nvvm_read_ptx_sreg_ntid_x
      return identifierOf(FD).str();
    }
    if (auto Ret = returned(CE, Fr))
      return canon(Ret->first, Ret->second, Deps, Depth + 1);
    // A value the callee leaves with the thread: unless it is a function of its
    // arguments alone (min, __popc), two threads may get different ones.
    if (!FD || !(FD->hasAttr<ConstAttr>() || (FD->getBuiltinID() && Ctx.BuiltinInfo.isConst(FD->getBuiltinID()))))
      Deps.Read = true;
    // What it computes from its arguments keeps none of them apart (a hash of
    // the thread's key), as any operation but +, -, * and << (combineIndex).
    std::string Text = FD ? plainQualifiedName(FD) : Unique(E, "?");
    Text += "(";
    IndexDeps Args;
    for (const Expr *Arg : CE->arguments())
      Text += canon(Arg, Fr, Args, Depth + 1) + ",";
    Deps |= combineIndex(Arith::Other, Args, IndexDeps(), std::nullopt);
    return Text + ")";
  }
  return Unique(E, "?");
}

} // namespace cuda_scope
