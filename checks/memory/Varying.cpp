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
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (varies(Call->getArg(I), Depth + 1)) {
      Mask |= uint64_t(1) << I;
      Seeds.push_back(Def->getParamDecl(I));
    }
  auto Key = std::make_pair(Def, Mask);
  if (auto It = CalleeVaries.find(Key); It != CalleeVaries.end())
    return It->second; // false while it is being decided (recursion)
  if (Nesting >= 3)
    return Mask != 0 ? std::optional<bool>() : std::optional<bool>(false);
  CalleeVaries[Key] = false;
  ++Nesting;
  bool Result = Varying(Def, Ctx, Level, Seeds).returnsVarying();
  --Nesting;
  return CalleeVaries[Key] = Result;
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
