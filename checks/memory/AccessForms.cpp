//===- AccessForms.cpp - the atomic, fence and barrier spellings ---------===//
#include "ScopedAccessesWalker.h"
#include "model/Hierarchy.h"
#include "ast/CheckUtils.h"
#include "model/Ptx.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

bool impl::scalarLeaves(QualType T, SmallVectorImpl<SmallVector<const FieldDecl *, 2>> &Out, unsigned Limit) {
  const auto *RD = T->getAsRecordDecl();
  if (!RD || !RD->getDefinition() || RD->isUnion())
    return false;
  SmallVector<const FieldDecl *, 2> Path;
  // A base's fields are named as the derived record's own (box.lower, where
  // lower is declared in the base); a union's members all name its bytes,
  // so a copy reads (writes) each of them, as the IR's copy of the bytes does.
  auto Walk = [&](auto &Self, const RecordDecl *R) -> bool {
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(R->getDefinition()))
      for (const CXXBaseSpecifier &B : CRD->bases()) {
        const RecordDecl *Base = B.getType()->getAsRecordDecl();
        if (B.isVirtual() || !Base || !Base->getDefinition() || !Self(Self, Base))
          return false;
      }
    for (const FieldDecl *F : R->getDefinition()->fields()) {
      if (F->isBitField())
        continue; // bits of a word the fields share: no location of its own to name
      Path.push_back(F);
      const RecordDecl *Inner = F->getType()->getAsRecordDecl();
      if (F->getType()->isScalarType()) {
        if (Out.size() == Limit)
          return false;
        Out.push_back(Path);
      } else if (!Inner || !Inner->getDefinition() || !Self(Self, Inner)) {
        return false;
      }
      Path.pop_back();
    }
    return true;
  };
  if (Walk(Walk, RD) && !Out.empty())
    return true;
  Out.clear();
  return false;
}
using namespace impl;

void ScopedAccesses::Walker::writtenScope(const Expr *Obj, int ScopeArg, ScopedAccess &A) {
  // Where the access's type is spelled: a functional cast or temporary
  // (cuda::atomic_ref<int, S>(x)), or the declaration of the variable or
  // field holding it. Aliases and deduced types spell it elsewhere.
  const TypeSourceInfo *TSI = nullptr;
  const Expr *E = stripWrappers(Obj);
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    TSI = FC->getTypeInfoAsWritten();
  else if (const auto *TO = dyn_cast<CXXTemporaryObjectExpr>(E))
    TSI = TO->getTypeSourceInfo();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    TSI = isa<VarDecl>(DRE->getDecl()) && !isa<ParmVarDecl>(DRE->getDecl())
              ? cast<VarDecl>(DRE->getDecl())->getTypeSourceInfo()
              : nullptr;
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      TSI = FD->getTypeSourceInfo();
  if (!TSI)
    return;
  auto TST = TSI->getTypeLoc().getUnqualifiedLoc().getAs<TemplateSpecializationTypeLoc>();
  if (!TST || ScopeArg < 0 || static_cast<unsigned>(ScopeArg) >= TST.getNumArgs())
    return;
  TemplateArgumentLoc Arg = TST.getArgLoc(ScopeArg);
  if (Arg.getArgument().getKind() != TemplateArgument::Expression)
    return;
  const Expr *Written = Arg.getSourceExpression();
  if (!Written || isa<SubstNonTypeTemplateParmExpr>(Written))
    return;
  const auto *DRE = dyn_cast<DeclRefExpr>(Written->IgnoreParenImpCasts());
  if (!DRE || !isa<EnumConstantDecl>(DRE->getDecl()) || !scopeFromLibcuName(identifierOf(DRE->getDecl())))
    return;
  SourceLocation L = DRE->getLocation();
  if (L.isInvalid() || L.isMacroID() || inSystemHeader(L))
    return;
  A.Widen = ScopedAccess::Enumerator;
  A.ScopeSpelling = SourceRange(L, L);
}

bool ScopedAccesses::Walker::libcuMember(const CallExpr *CE, const CXXMethodDecl *MD, const Expr *Obj,
                                         const Frame *Fr) {
  QualType T = Obj->IgnoreImpCasts()->getType();
  bool ThroughPointer = T->isPointerType();
  if (ThroughPointer)
    T = T->getPointeeType();
  // cuda::atomic_ref<T, S> is a template; cuda::std::latch is a class.
  const CXXRecordDecl *Class = T->getAsCXXRecordDecl();
  if (!Class)
    return false;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Class);
  std::optional<SyncType> Type = parseSyncType(plainQualifiedName(Class));
  if (!Type)
    return false;
  std::string Member = isa<CXXConversionDecl>(MD) ? "operator T" : MD->getNameAsString();
  std::optional<SyncMember> M = parseSyncMember(Type->What, Member);
  if (!M)
    return true; // notify_one, is_lock_free: no ordering, nothing to follow
  ScopedAccess A;
  A.What = M->What;
  A.Ord = M->DefaultOrder;
  A.How = ScopedAccess::LibcuType;
  if (Type->ScopeArg >= 0 && Spec) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (static_cast<unsigned>(Type->ScopeArg) < Args.size()) {
      const TemplateArgument &Arg = Args[Type->ScopeArg];
      if (Arg.getKind() != TemplateArgument::Integral)
        return true;
      std::optional<Scope> S = scopeFromLibcuValue(Arg.getAsIntegral().getExtValue());
      if (!S)
        return true;
      A.S = *S;
    }
  }
  // The value an update applies: its first argument that is not the object
  // (an operator's first) or an order.
  // What it leaves: a store's or an exchange's value, a compare-and-swap's
  // new value (its second argument that is not an order).
  SmallVector<const Expr *, 2> Values;
  for (const Expr *Arg : llvm::drop_begin(CE->arguments(), isa<CXXOperatorCallExpr>(CE) ? 1 : 0))
    if (!isMemoryOrderType(Arg->getType()) && Values.size() < 2)
      Values.push_back(Arg);
  if (A.What == OpKind::RMW && !Values.empty())
    A.Operand = valueIn(Values[0], Fr);
  const UpdateForm Form = A.What == OpKind::RMW ? updateForm(Member) : UpdateForm::Combines;
  if ((A.What == OpKind::Store || Form == UpdateForm::Exchanges) && !isa<CXXOperatorCallExpr>(CE) && !Values.empty())
    A.Stored = valueIn(Values[0], Fr);
  else if (Form == UpdateForm::ComparesAndSwaps && Values.size() == 2)
    A.Stored = valueIn(Values[1], Fr);
  for (const Expr *Arg : CE->arguments())
    if (isMemoryOrderType(Arg->getType())) {
      // The order a wrapper's parameter holds in this call, as inlining
      // gives it to the IR (atomicLoad(p, memoryOrderRelaxed)).
      if (std::optional<int64_t> V = valueIn(Arg, Fr))
        if (std::optional<Order> O = orderFromC11Value(*V))
          A.Ord = *O;
      // cuda::memory_order_relaxed, cuda::std::memory_order::relaxed: the
      // name as written, for a fix that changes the order.
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts())) {
        SourceLocation L = DRE->getLocation();
        if (L.isValid() && L.isFileID() && !inSystemHeader(L))
          A.OrderSpelling = SourceRange(L, L);
      }
      break;
    }
  const Expr *ObjE = Obj->IgnoreImpCasts();
  if (Type->What == SyncType::AtomicRef && !ThroughPointer)
    A.Object = atomicRefTarget(ObjE, Fr);
  else
    A.Object = ThroughPointer ? pointee(ObjE, Fr) : lvalue(ObjE, Fr);
  A.Name = (Class->getName() + "::" + Member).str();
  A.Loc = CE->getExprLoc();
  if (Type->ScopeArg >= 0 && !ThroughPointer)
    writtenScope(ObjE, Type->ScopeArg, A);
  record(std::move(A), CE, Fr);
  // wait(old) returns once the value differs from old: a spin of its own.
  if (Member == "wait" && Owner.All.back().What == OpKind::Load) {
    Owner.All.back().TestSeq = Owner.All.back().Seq;
    Owner.All.back().Test = ValueTest::Equality;
    Owner.All.back().Waits = true;
  }
  return true;
}

bool ScopedAccesses::Walker::recordCall(const CallExpr *CE, const Frame *Fr) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const Expr *Obj = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      Obj = MC->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 0)
      Obj = CE->getArg(0);
    return Obj && !MD->isStatic() && libcuMember(CE, MD, Obj, Fr);
  }
  StringRef Name = identifierOf(FD);
  if (Name.empty())
    return false;
  auto Arg = [&](int I) -> const Expr * {
    return I >= 0 && static_cast<unsigned>(I) < CE->getNumArgs() ? CE->getArg(I) : nullptr;
  };
  ScopedAccess A;
  A.Name = Name.str();
  A.Loc = CE->getBeginLoc();
  // The warp's *_sync calls order the lanes that take part, as __syncwarp() does.
  if (warpSyncCall(Name) && Name != "__syncwarp") {
    A.How = ScopedAccess::DeviceBuiltin;
    A.What = OpKind::WarpBarrier;
    A.Ord = Order::AcqRel;
    A.S = Scope::Block;
    record(std::move(A), CE, Fr);
    return true;
  }
  if (std::optional<DeviceBuiltin> B = parseDeviceBuiltin(Name)) {
    A.How = ScopedAccess::DeviceBuiltin;
    A.S = B->S;
    switch (B->What) {
    case DeviceBuiltin::AtomicRMW:
    case DeviceBuiltin::AtomicCAS:
    case DeviceBuiltin::AtomicExchange: {
      A.What = OpKind::RMW;
      A.Ord = Order::Relaxed;
      A.Object = pointee(Arg(0), Fr);
      A.Operand = valueIn(Arg(1), Fr);
      if (B->What == DeviceBuiltin::AtomicExchange)
        A.Stored = A.Operand;
      else if (B->What == DeviceBuiltin::AtomicCAS)
        A.Stored = valueIn(Arg(2), Fr);
      A.BuiltinOperation = B->Operation;
      const auto *Callee = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
      if (Callee && Callee->getLocation().isFileID() && !inSystemHeader(Callee->getLocation())) {
        A.Widen = ScopedAccess::BuiltinName;
        A.ScopeSpelling = SourceRange(Callee->getLocation(), Callee->getLocation());
      }
      break;
    }
    case DeviceBuiltin::Fence: {
      A.What = OpKind::Fence;
      A.Ord = Order::SeqCst;
      // The name as written, for a fix that changes the fence's scope.
      A.BuiltinOperation = B->Operation;
      const auto *Callee = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
      if (Callee && Callee->getLocation().isFileID() && !inSystemHeader(Callee->getLocation())) {
        A.Widen = ScopedAccess::BuiltinName;
        A.ScopeSpelling = SourceRange(Callee->getLocation(), Callee->getLocation());
      }
      break;
    }
    case DeviceBuiltin::BlockBarrier:
      A.What = OpKind::BlockBarrier;
      A.Ord = Order::AcqRel;
      break;
    case DeviceBuiltin::WarpBarrier:
      // __syncwarp(): orders the warp's lanes for each other (the warp race rule).
      A.What = OpKind::WarpBarrier;
      A.Ord = Order::AcqRel;
      break;
    }
    record(std::move(A), CE, Fr);
    return true;
  }
  if (std::optional<ScopedAtomicBuiltin> B = parseScopedAtomicBuiltin(Name)) {
    A.How = ScopedAccess::ScopeArgument;
    A.What = B->What;
    if (const Expr *ScopeArg = Arg(B->ScopeArg)) {
      std::optional<int64_t> V = valueIn(ScopeArg, Fr);
      std::optional<Scope> S = V ? scopeFromBuiltinValue(B->From, *V) : std::nullopt;
      if (!S)
        return true; // a scope the TU computes at run time
      A.S = *S;
    }
    if (std::optional<int64_t> V = valueIn(Arg(B->OrderArg), Fr))
      if (std::optional<Order> O = orderFromC11Value(*V))
        A.Ord = *O;
    if (B->PointerArg >= 0) {
      A.Object = pointee(Arg(B->PointerArg), Fr);
      if (A.What == OpKind::RMW)
        A.Operand = valueIn(Arg(B->PointerArg + 1), Fr);
      // What it leaves: a store's or an exchange's value; a compare-and-swap's
      // new value, after the pointer to what it expects.
      const UpdateForm Form = A.What == OpKind::RMW ? updateForm(Name) : UpdateForm::Combines;
      if (A.What == OpKind::Store || Form == UpdateForm::Exchanges)
        A.Stored = valueIn(Arg(B->PointerArg + 1), Fr);
      else if (Form == UpdateForm::ComparesAndSwaps)
        A.Stored = valueIn(Arg(B->PointerArg + 2), Fr);
    }
    record(std::move(A), CE, Fr);
    return true;
  }
  if (std::optional<FenceFunction> F = parseFenceFunction(plainQualifiedName(FD))) {
    A.How = ScopedAccess::ScopeArgument;
    A.What = OpKind::Fence;
    A.Name = plainQualifiedName(FD);
    if (std::optional<int64_t> V = valueIn(Arg(F->OrderArg), Fr))
      if (std::optional<Order> O = orderFromC11Value(*V))
        A.Ord = *O;
    if (const Expr *ScopeArg = Arg(F->ScopeArg)) {
      std::optional<int64_t> V = valueIn(ScopeArg, Fr);
      std::optional<Scope> S = V ? scopeFromLibcuValue(*V) : std::nullopt;
      if (!S)
        return true;
      A.S = *S;
    }
    record(std::move(A), CE, Fr);
    return true;
  }
  return false;
}

void ScopedAccesses::Walker::atomicExpr(const AtomicExpr *AE, const Frame *Fr) {
  std::optional<ScopedAtomicBuiltin> B = parseScopedAtomicBuiltin(AE->getOpAsString());
  if (!B || !AE->getScopeModel())
    return;
  ScopedAccess A;
  A.How = ScopedAccess::ScopeArgument;
  A.What = B->What;
  A.Name = AE->getOpAsString().str();
  A.Loc = AE->getBuiltinLoc();
  std::optional<int64_t> V = valueIn(AE->getScope(), Fr);
  std::optional<Scope> S = V ? scopeFromBuiltinValue(B->From, *V) : std::nullopt;
  if (!S)
    return;
  A.S = *S;
  if (std::optional<int64_t> O = valueIn(AE->getOrder(), Fr))
    if (std::optional<Order> Ord = orderFromC11Value(*O))
      A.Ord = *Ord;
  A.Object = pointee(AE->getPtr(), Fr);
  if (A.What == OpKind::RMW && AE->getNumSubExprs() > 2)
    A.Operand = valueIn(AE->getVal1(), Fr);
  const UpdateForm Form = A.What == OpKind::RMW ? updateForm(A.Name) : UpdateForm::Combines;
  if ((A.What == OpKind::Store || Form == UpdateForm::Exchanges) && AE->getNumSubExprs() > 2)
    A.Stored = valueIn(AE->getVal1(), Fr);
  else if (Form == UpdateForm::ComparesAndSwaps && AE->getNumSubExprs() > 4)
    A.Stored = valueIn(AE->getVal2(), Fr);
  record(std::move(A), AE, Fr);
}

/// The pointer an integer address was made from: an mbarrier's operand is
/// the barrier's shared-window address, (uint32_t)__cvta_generic_to_shared(&b),
/// written in place, kept in a local first, or passed down as an argument
/// (\p Fr becomes the frame the pointer is read in).
static const Expr *pointerBehindInteger(const Expr *E, const ScopedAccesses::Walker::Frame *&Fr) {
  using Frame = ScopedAccesses::Walker::Frame;
  for (unsigned Depth = 0; E && Depth < 6; ++Depth) {
    E = E->IgnoreParenCasts();
    if (E->getType()->isPointerType())
      return E;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || FD->getName() != "__cvta_generic_to_shared" || Call->getNumArgs() != 1)
        return nullptr;
      E = Call->getArg(0);
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *PVD = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
        const Frame *Callee = ScopedAccesses::Walker::frameOf(PVD->getDeclContext(), Fr);
        const auto *Call = Callee ? dyn_cast_or_null<CallExpr>(Callee->Call) : nullptr;
        if (!Call || PVD->getFunctionScopeIndex() >= Call->getNumArgs())
          return nullptr;
        E = Call->getArg(PVD->getFunctionScopeIndex());
        Fr = Callee->Parent;
        continue;
      }
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      if (!VD || !VD->isLocalVarDecl() || !VD->getInit())
        return nullptr;
      E = VD->getInit();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

void ScopedAccesses::Walker::transfer(const CallExpr *CE, PeerTransfer T, const Frame *Fr) {
  // The call's body posts the transfer (a descriptor for a proxy thread or a
  // NIC, and waits for room): the transfer is the operation the rules see.
  TransferOp Op = transferOp(T);
  ScopedAccess A;
  A.What = Op.What;
  A.Ord = Op.Ord;
  if (Op.S)
    A.S = *Op.S;
  A.How = ScopedAccess::DeviceBuiltin;
  A.Name = transferName(plainQualifiedName(CE->getDirectCallee()));
  A.Loc = CE->getExprLoc();
  A.Transfer = true;
  A.ValueUnused = A.What == OpKind::RMW;
  record(std::move(A), CE, Fr, /*PlainList=*/Op.Ord == Order::Plain);
}

void ScopedAccesses::Walker::inlineAsm(const GCCAsmStmt *Asm, const Frame *Fr) {
  for (const PtxInstr &P : parsePtx(Asm->getAsmString())) {
    ScopedAccess A;
    // The rules of the clang-tidy checks are about accesses, fences and
    // barriers; the async proxy and the cluster barrier are the IR pass's.
    std::optional<OpKind> Kind = opKindOf(P);
    if (!Kind || (!isAccessKind(*Kind) && *Kind != OpKind::Fence && *Kind != OpKind::BlockBarrier))
      continue;
    A.What = *Kind;
    // A weak ld or st (ld.global.nc, multimem.st) synchronizes nothing, and
    // is an access like a plain one, data to the rules, as the IR has it.
    const bool Weak = !P.ScopeQual || !isStrong(P.Sem);
    if (Weak && (!isAccessKind(*Kind) || P.Sem != Order::Plain))
      continue;
    if (!Weak)
      A.S = *P.ScopeQual;
    A.Ord = Weak ? Order::Plain : P.Sem;
    A.How = ScopedAccess::InlinePtx;
    A.Space = P.Space;
    A.Multicast = P.Multicast;
    A.Name = P.Mnemonic;
    A.Loc = Asm->getAsmLoc();
    // A reduction (red) hands no value back, as the IR's asm call with no
    // result has no use.
    A.ValueUnused = A.What == OpKind::RMW && Asm->getNumOutputs() == 0;
    // %N counts the outputs first, then the inputs.
    if (std::optional<unsigned> N = P.addressOperandNumber()) {
      const Expr *Address = nullptr;
      if (*N < Asm->getNumOutputs())
        Address = Asm->getOutputExpr(*N);
      else if (*N - Asm->getNumOutputs() < Asm->getNumInputs())
        Address = Asm->getInputExpr(*N - Asm->getNumOutputs());
      const Frame *AddressFrame = Fr;
      if (Address && P.What == PtxInstr::MBarrier)
        Address = pointerBehindInteger(Address, AddressFrame);
      if (Address && Address->getType()->isPointerType())
        A.Object = pointee(Address, AddressFrame);
    }
    // A barrier object's arrive or wait with no object would read as the
    // block's barrier (__syncthreads()): without its object it is left out,
    // as the pass leaves it.
    if (P.What == PtxInstr::MBarrier && !A.Object)
      continue;
    // The value a load or atomic reads lands in the first output: a variable
    // the code then tests relays it.
    ValueUse Saved = Use;
    if (A.What == OpKind::Load || A.What == OpKind::RMW)
      if (Asm->getNumOutputs() > 0)
        if (RelayKey To = relayTarget(Asm->getOutputExpr(0), Fr))
          Use = ValueUse{false, To};
    record(std::move(A), Asm, Fr);
    Use = Saved;
  }
}

} // namespace cuda_scope
