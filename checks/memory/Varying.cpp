//===- Varying.cpp - the values threads of one block or warp may see apart -===//
//
// Varying's out-of-line parts: what a function body gives its locals, and
// what a call of a function the file shows returns.
//
//===----------------------------------------------------------------------===//
#include "Varying.h"

namespace cuda_scope {
namespace divergence {

std::optional<bool> Varying::resultVaries(const CallExpr *Call, const FunctionDecl *FD, unsigned Depth) const {
  static thread_local unsigned Nesting = 0;
  const FunctionDecl *Def = nullptr;
  if (!FD || FD->getReturnType()->isVoidType() || !FD->hasBody(Def) || !Def || isa<CXXOperatorCallExpr>(Call) ||
      Call->getNumArgs() > 64 || Call->getNumArgs() > Def->getNumParams())
    return std::nullopt;
  uint64_t Mask = 0;
  SmallVector<const ParmVarDecl *, 4> Seeds;
  DenseMap<const ParmVarDecl *, int64_t> Known;
  std::vector<std::pair<unsigned, int64_t>> Values; // the constants, by argument: part of the key
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    if (varies(Call->getArg(I), Depth + 1)) {
      Mask |= uint64_t(1) << I;
      Seeds.push_back(Def->getParamDecl(I));
    } else if (std::optional<int64_t> V = constantValue(Call->getArg(I)); V && isHandedOn(Def->getParamDecl(I))) {
      // A constant the callee is handed (its width, warpSize by default), as
      // the pass sees it inlined.
      Known[Def->getParamDecl(I)] = *V;
      Values.emplace_back(I, *V);
    }
  }
  auto Key = std::make_tuple(Def, Mask, std::move(Values));
  if (auto It = CalleeVaries.find(Key); It != CalleeVaries.end())
    return It->second; // false while it is being decided (recursion)
  if (Nesting >= 3)
    return Mask != 0 ? std::optional<bool>() : std::optional<bool>(false);
  CalleeVaries[Key] = false;
  ++Nesting;
  bool Result = Varying(Def, Ctx, Level, Seeds, std::move(Known)).returnsVarying();
  --Nesting;
  return CalleeVaries[Key] = Result;
}

std::optional<int64_t> Varying::constantValue(const Expr *E) const {
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    E = Default->getExpr();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (auto It = Constants.find(P); It != Constants.end())
        return It->second;
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (std::optional<APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

const Expr *Varying::broadcastSource(const CallExpr *Call) const {
  StringRef Name = identifierOf(Call->getDirectCallee());
  if (std::optional<unsigned> Size = tileSize(Call)) {
    std::optional<StringRef> Made = tileCollective(Name);
    return *Size == WarpLanes && Made && isWarpBroadcast(*Made, shuffleClamp(ShuffleMode::Idx, WarpLanes)) &&
                   Call->getNumArgs() == 2
               ? Call->getArg(1)
               : nullptr;
  }
  std::optional<WarpSyncCall> W = warpSyncCall(Name);
  if (!W || Call->getNumArgs() != 4)
    return nullptr;
  // The width, also as a helper's parameter that its call gives a constant
  // (AMGX's utils::shfl(r, 0), whose bound defaults to warpSize).
  std::optional<int64_t> V = constantValue(Call->getArg(3));
  if (!V || *V < 1 || *V > WarpLanes)
    return nullptr;
  return isWarpBroadcast(W->Name, shuffleClamp(ShuffleMode::Idx, static_cast<unsigned>(*V)))
             ? Call->getArg(ShuffleSourceArg)
             : nullptr;
}

bool Varying::warpMultiple(const Expr *E, unsigned Depth, const Bound *B) const {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8 || E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return false;
  if (auto Arg = boundArgument(E, B))
    return warpMultiple(Arg->first, Depth + 1, Arg->second);
  if (!readsBound(E, B))
    if (std::optional<APSInt> V = E->getIntegerConstantExpr(Ctx))
      return isWarpMultiple(V->getExtValue());
  if (isBlockSizeX(E) || (!B && stagedMultiple(E)))
    return true;
  if (const Expr *Only = B ? nullptr : onlyValue(E))
    return warpMultiple(Only, Depth + 1);
  if (auto In = inlined(E, B))
    return warpMultiple(In->first, Depth + 1, &In->second);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  auto Constant = [&](const Expr *X) -> std::optional<APSInt> {
    X = X->IgnoreParenImpCasts();
    const Bound *In = B;
    while (auto Arg = boundArgument(X, In))
      X = Arg->first->IgnoreParenImpCasts(), In = Arg->second;
    if (X->isValueDependent() || readsBound(X, In))
      return std::nullopt;
    return X->getIntegerConstantExpr(Ctx);
  };
  switch (BO->getOpcode()) {
  case BO_Mul:
    return (warpMultiple(BO->getLHS(), Depth + 1, B) && rowIndex(BO->getRHS(), 0, B)) ||
           (warpMultiple(BO->getRHS(), Depth + 1, B) && rowIndex(BO->getLHS(), 0, B));
  case BO_Shl:
    if (std::optional<APSInt> V = Constant(BO->getRHS()))
      return isWarpMultipleShift(V->getExtValue()) ? rowIndex(BO->getLHS(), 0, B)
                                                   : warpMultiple(BO->getLHS(), Depth + 1, B);
    return false;
  case BO_Add:
  case BO_Sub:
    return warpMultiple(BO->getLHS(), Depth + 1, B) && warpMultiple(BO->getRHS(), Depth + 1, B);
  default:
    return false;
  }
}

const Expr *Varying::keptValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  for (unsigned Step = 0; Step < 4; ++Step) {
    while (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      QualType To = C->getType(), From = C->getSubExpr()->getType();
      if (To->isDependentType() || From->isDependentType() || !To->isIntegerType() || !From->isIntegerType() ||
          To->isBooleanType())
        return E;
      E = C->getSubExpr()->IgnoreParenImpCasts();
    }
    // A helper of the project's with no parameters that returns one
    // expression, a static member too (HeCBench's Block1D::Tid() { return
    // threadIdx.x; }): its value is that expression's, as the pass reads it
    // inlined. The toolkit's (cooperative groups' thread_rank()) are known by
    // name.
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    if (!FD || FD->getNumParams() != 0 || (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic()) ||
        FD->getASTContext().getSourceManager().isInSystemHeader(
            FD->getASTContext().getSourceManager().getExpansionLoc(FD->getLocation())))
      return E;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
    const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
    if (!Ret || !Ret->getRetValue())
      return E;
    E = Ret->getRetValue()->IgnoreParenImpCasts();
  }
  return E;
}

bool Varying::readsLaneRegister(const FunctionDecl *FD) {
  const auto *Body = FD && FD->getNumParams() == 0 ? dyn_cast_or_null<CompoundStmt>(FD->getBody()) : nullptr;
  const auto *Ret = Body && !Body->body_empty() ? dyn_cast<ReturnStmt>(Body->body_back()) : nullptr;
  const auto *DRE = Ret && Ret->getRetValue() ? dyn_cast<DeclRefExpr>(Ret->getRetValue()->IgnoreParenImpCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage())
    return false;
  // Before the return: the local's declaration with no value, and the asm
  // that is its only output.
  bool Read = false;
  for (const Stmt *S : Body->body()) {
    if (S == Ret)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl() && DS->getSingleDecl() == V && !V->hasInit())
      continue;
    const auto *A = dyn_cast<GCCAsmStmt>(S);
    const auto *Out = A && A->getNumOutputs() == 1 ? dyn_cast<DeclRefExpr>(A->getOutputExpr(0)->IgnoreParenImpCasts())
                                                   : nullptr;
    if (!Out || Out->getDecl() != V || !isLaneAsm(A->getAsmString()))
      return false;
    Read = true;
  }
  return Read;
}

/// A multiple of the warp size, whatever lanes compute it (the IR's
/// multipleOfWarp): a constant multiple, blockDim.x, a product with one, a
/// shift left by 5 or more, lane bits masked off, sums and choices of them.
/// What a read of a __shared__ part that the function stores only such
/// values in gives (ginkgo's scheduler's block offset).
bool Varying::multipleOfWarp(const Expr *E, ASTContext &Ctx, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8 || E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return false;
  if (std::optional<APSInt> V = E->getIntegerConstantExpr(Ctx))
    return isWarpMultiple(V->getExtValue());
  if (isBlockSizeX(E))
    return true;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return multipleOfWarp(CO->getTrueExpr(), Ctx, Depth + 1) && multipleOfWarp(CO->getFalseExpr(), Ctx, Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  auto Constant = [&](const Expr *X) { return X->isValueDependent() ? std::nullopt : X->getIntegerConstantExpr(Ctx); };
  switch (BO->getOpcode()) {
  case BO_Mul:
    return multipleOfWarp(BO->getLHS(), Ctx, Depth + 1) || multipleOfWarp(BO->getRHS(), Ctx, Depth + 1);
  case BO_Shl: {
    std::optional<APSInt> K = Constant(BO->getRHS());
    return (K && isWarpMultipleShift(K->getExtValue())) || multipleOfWarp(BO->getLHS(), Ctx, Depth + 1);
  }
  case BO_And: {
    std::optional<APSInt> K = Constant(BO->getRHS());
    return (K && (K->getExtValue() & (WarpSize - 1)) == 0) || multipleOfWarp(BO->getLHS(), Ctx, Depth + 1) ||
           multipleOfWarp(BO->getRHS(), Ctx, Depth + 1);
  }
  case BO_Add:
  case BO_Sub:
    return multipleOfWarp(BO->getLHS(), Ctx, Depth + 1) && multipleOfWarp(BO->getRHS(), Ctx, Depth + 1);
  default:
    return false;
  }
}

/// The __shared__ part \p E names at a fixed place (a variable and fields,
/// no index), outermost first.
static std::optional<SharedPart> sharedPartAt(const Expr *E) {
  SmallVector<const ValueDecl *, 2> Fields;
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return std::nullopt;
    Fields.insert(Fields.begin(), ME->getMemberDecl());
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  // Declared in the function: no other function writes it.
  if (!V || !V->hasAttr<CUDASharedAttr>() || !V->isLocalVarDecl())
    return std::nullopt;
  return SharedPart{V->getCanonicalDecl(), Fields};
}

bool Varying::stagedMultiple(const Expr *E) const {
  std::optional<SharedPart> Part = sharedPartAt(E);
  if (!Part || SharedEscaped.count(Part->first))
    return false;
  unsigned Stores = 0;
  for (const auto &[Stored, Value] : SharedStores) {
    if (Stored.first != Part->first)
      continue;
    // The parts overlap when one's fields begin the other's (an element at
    // an index is in no other field).
    size_t N = std::min(Stored.second.size(), Part->second.size());
    if (!std::equal(Stored.second.begin(), Stored.second.begin() + N, Part->second.begin()))
      continue;
    if (Stored.second.size() != Part->second.size() || !multipleOfWarp(Value, Ctx))
      return false;
    ++Stores;
  }
  return Stores > 0;
}

void Varying::collectShared(const DeclRefExpr *DRE) {
  const auto *V = cast<VarDecl>(DRE->getDecl())->getCanonicalDecl();
  // Up through the fields and elements of the variable it names.
  const Stmt *Top = DRE;
  SharedPart Part{V, {}};
  size_t Up = Path.size();
  for (; Up > 0; --Up) {
    const Stmt *P = Path[Up - 1];
    if (const auto *ME = dyn_cast<MemberExpr>(P); ME && !ME->isArrow())
      Part.second.push_back(ME->getMemberDecl());
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P);
             AS && AS->getBase()->IgnoreParenImpCasts() == cast<Expr>(Top)->IgnoreParenImpCasts())
      Part.second.push_back(nullptr);
    else if (!isa<ParenExpr>(P) &&
             !(isa<ImplicitCastExpr>(P) && cast<ImplicitCastExpr>(P)->getCastKind() != CK_LValueToRValue))
      break;
    Top = P;
  }
  const Stmt *Parent = Up > 0 ? Path[Up - 1] : nullptr;
  if (const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(Parent); Read && Read->getCastKind() == CK_LValueToRValue)
    return;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
      BO && BO->getLHS() == Top &&
      (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)) {
    SharedStores.push_back({Part, BO->getRHS()});
    return;
  }
  SharedEscaped.insert(V);
}

void Varying::collect(const Stmt *S) {
  if (!S)
    return;
  Current = S;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (V->getInit()) {
          Assigned.push_back({V->getCanonicalDecl(), V->getInit()});
          Replaces.insert(V->getInit());
          AssignedIn.push_back(loopsOnPath(Path.size()));
        }
        DeclaredIn[V->getCanonicalDecl()] = Path.size();
      }
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        Assigned.push_back({V->getCanonicalDecl(), BO->getRHS()});
        AssignedIn.push_back(loopsOnPath(Path.size()));
        if (BO->getOpcode() == BO_Assign && replacedUnread(V->getCanonicalDecl()))
          Dead.insert(BO->getRHS());
        else
          assignedUnder(V);
        if (BO->getOpcode() == BO_AddAssign)
          Steps.insert(BO->getRHS());
        if (BO->getOpcode() == BO_Assign)
          Replaces.insert(BO->getRHS());
      }
  // ++v and v-- give v a value too (one that varies as v does): a local
  // they touch is not one given its value once (laneInWarp).
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
    if (const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        Assigned.push_back({V->getCanonicalDecl(), UO});
        AssignedIn.push_back(loopsOnPath(Path.size()));
        assignedUnder(V);
      }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    if (R->getRetValue())
      Returned.push_back(R->getRetValue());
    const Stmt *Inside = S;
    for (size_t I = Path.size(); I > 0; Inside = Path[--I])
      if (const Expr *C = decidingCondition(Path[I - 1], Inside))
        ReturnUnder.push_back(C);
  }
  if (const auto *A = dyn_cast<GCCAsmStmt>(S); A && blockVaryingAsm(A->getAsmString()))
    for (unsigned I = 0; I < A->getNumOutputs(); ++I)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(A->getOutputExpr(I)->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          AsmOutputs.push_back(V->getCanonicalDecl());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->hasAttr<CUDASharedAttr>())
      collectShared(DRE);
  // A local used other than by reading its value (assigned, incremented,
  // its address taken, bound to a reference) may not hold its initializer.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->hasLocalStorage()) {
      // Through parentheses: ((v) / n) reads v as v / n does.
      size_t Up = Path.size();
      while (Up > 0 && isa<ParenExpr>(Path[Up - 1]))
        --Up;
      const auto *Read = Up == 0 ? nullptr : dyn_cast<ImplicitCastExpr>(Path[Up - 1]);
      if (!Read || Read->getCastKind() != CK_LValueToRValue) {
        NotOnlyRead.insert(V->getCanonicalDecl());
        if (!assignedHere(DRE) && !(Up > 0 && collectiveArgument(Path[Up - 1])))
          Escaped.insert(V->getCanonicalDecl());
      } else if (std::optional<ReadSite> Site = readSite(DRE)) {
        ReadSites.push_back(*Site);
      }
      // The innermost for loop around the read, not in its first clause,
      // whose first clause assigns the variable.
      for (size_t I = Path.size(); I > 0; --I)
        if (const auto *For = dyn_cast<ForStmt>(Path[I - 1])) {
          const Stmt *Child = I < Path.size() ? Path[I] : S;
          if (Child != For->getInit() && reinitialises(For, V->getCanonicalDecl())) {
            UseLoop[DRE] = For;
            break;
          }
        }
    }
  Path.push_back(S);
  for (const Stmt *Child : S->children())
    collect(Child);
  Path.pop_back();
}

} // namespace divergence
} // namespace cuda_scope
