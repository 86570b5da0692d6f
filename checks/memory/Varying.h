//===- Varying.h - the values threads of one block or warp may see apart ---===//
//
// The clang-tidy front end's reading of divergence over one function body:
// which values (locals, reads, calls) threads of one block or lanes of one
// warp may see differently, as the IR pass's divergence does over SSA values
// (the stores that do not make memory vary, the definitions that reach a
// read, the arms a folded condition drops). Private to Divergence.cpp, whose
// Finder asks it of each condition, and Varying.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_VARYING_H
#define CUDA_SCOPE_MEMORY_VARYING_H

#include "Divergence.h"
#include "ast/CheckUtils.h"
#include "ast/KernelLaunches.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <vector>

namespace cuda_scope {
/// The divergence reading's own names; only Divergence.cpp and Varying.cpp
/// include this header, so the directives below reach no other file.
namespace divergence {
using namespace clang;
using namespace llvm;

/// The condition of \p S that decides whether (or how often) \p Inside runs,
/// when \p Inside is in the part \p S decides.
const Expr *decidingCondition(const Stmt *S, const Stmt *Inside);


/// The values of one function that threads of one block (lanes of one warp)
/// may see differently.
/// A __shared__ variable and the fields down to a part (null: an element).
using SharedPart = std::pair<const VarDecl *, SmallVector<const ValueDecl *, 2>>;

class Varying {
public:
  /// \p Seeds: parameters whose arguments vary at the call being read
  /// (resultVaries); \p Constants: those whose arguments are constants
  /// there (a shuffle helper's width, warpSize by default).
  Varying(const FunctionDecl *F, ASTContext &Ctx, VaryLevel Level, ArrayRef<const ParmVarDecl *> Seeds = {},
          DenseMap<const ParmVarDecl *, int64_t> Constants = DenseMap<const ParmVarDecl *, int64_t>())
      : Ctx(Ctx), Level(Level), Constants(std::move(Constants)) {
    for (const ParmVarDecl *P : Seeds)
      Vars.insert(P->getCanonicalDecl());
    // Local variables, to a fixed point: a variable varies when a value it
    // is given does (its initializer, an assignment, a compound one). A
    // __shared__ or global variable is memory: what one thread stores there
    // does not make threads read it differently (reads after a barrier
    // agree), as the IR's store does not make its memory vary.
    collect(F->getBody());
    resolveKills();
    for (bool Changed = true; Changed;) {
      Changed = false;
      LoopVaries.clear(); // decided from the variables known to vary so far
      for (const auto &[V, E] : Assigned)
        if (V->hasLocalStorage() && !Vars.count(V) && !Dead.count(E) && varies(E))
          Changed |= Vars.insert(V).second;
      // A local given a value under a condition threads decide differently
      // holds, after the branch, what some threads gave it and others did
      // not (the IR's phi at the join of a varying branch).
      for (const auto &[V, C] : AssignedUnder)
        if (!Vars.count(V) && varies(C))
          Changed |= Vars.insert(V).second;
      for (const VarDecl *V : AsmOutputs)
        Changed |= Vars.insert(V).second;
    }
    LoopVaries.clear();
  }

  /// The value \p V holds wherever it is read: its initializer, where every
  /// use of it reads its value.
  const Expr *onlyValue(const VarDecl *V) const {
    V = V->getCanonicalDecl();
    return V->getInit() && !NotOnlyRead.count(V) && !llvm::is_contained(AsmOutputs, V) ? V->getInit() : nullptr;
  }

  bool varies(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 32)
      return false;
    E = E->IgnoreParenImpCasts();
    // threadIdx.x is a property: a pseudo-object whose base is an opaque
    // value standing for the builtin variable.
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
      return varies(OVE->getSourceExpr(), Depth + 1);
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
      return varies(PO->getSyntacticForm(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        // Inside a for loop whose first clause assigns the variable, only
        // what the loop gives it reaches the read (the IR's phi at the
        // loop's head): a variable used first as a thread's index and then
        // as a halving width is the width's.
        // A read that only the last plain assignment before it in its
        // statement list reaches holds that value (the IR's one definition).
        if (Vars.count(V->getCanonicalDecl()))
          if (auto It = UseKill.find(DRE); It != UseKill.end())
            return varies(It->second, Depth + 1);
        if (Vars.count(V->getCanonicalDecl()))
          if (auto It = UseLoop.find(DRE); It != UseLoop.end())
            return variesIn(V->getCanonicalDecl(), It->second, Depth);
        // The builtin variables (threadIdx) by name; a variable of the
        // project's own that happens to be called clock is just a variable.
        return Vars.count(V->getCanonicalDecl()) ||
               (Ctx.getSourceManager().isInSystemHeader(Ctx.getSourceManager().getExpansionLoc(V->getLocation())) &&
                blockVaryingSource(identifierOf(V)).has_value());
      }
      return false;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // threadIdx.x: the builtin variable's member (a call to its getter).
      if (const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (blockVaryingSource(identifierOf(Base->getDecl())))
          return true;
      return varies(ME->getBase(), Depth + 1);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      StringRef Name = identifierOf(FD);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        // threadIdx.x is __cuda_builtin_threadIdx_t::__fetch_builtin_x().
        if (const auto *Base = dyn_cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
          if (blockVaryingSource(identifierOf(Base->getDecl())))
            return true;
      }
      // A tile of 32's vote is the warp's, as __ballot_sync is.
      if (std::optional<unsigned> Size = tileSize(Call); Size && *Size == WarpLanes && Level == VaryLevel::Warp)
        if (std::optional<StringRef> Made = tileCollective(Name); Made && sameAcrossWarp(*Made))
          return false;
      // A cooperative group's thread_rank(), thread_index() (the thread's
      // index) and meta_group_rank() (its tile's): static members, called
      // through a group object or not.
      if ((Name == "thread_rank" || Name == "thread_index" || Name == "meta_group_rank") && FD &&
          StringRef(FD->getQualifiedNameAsString()).starts_with("cooperative_groups::")) {
        // A tile of whole warps is one warp's, or holds whole warps: its
        // rank in the block is the same for every lane of a warp.
        std::optional<unsigned> Size = tileSize(Call);
        return !(Level == VaryLevel::Warp && Name == "meta_group_rank" && Size && isLaneBitsDivisor(*Size));
      }
      // A broadcast over the warp is the warp's where its source lane is.
      if (Level == VaryLevel::Warp)
        if (const Expr *Source = broadcastSource(Call))
          return varies(Source, Depth + 1);
      // A block reduction's result is the block's, and a warp vote's the
      // warp's, whatever they reduce.
      if (!Name.empty() && (sameAcrossBlock(Name) || (Level == VaryLevel::Warp && sameAcrossWarp(Name))))
        return false;
      if (!Name.empty() && blockVaryingSource(Name))
        return true;
      if (std::optional<DeviceBuiltin> B = parseDeviceBuiltin(Name);
          B && (B->What == DeviceBuiltin::AtomicRMW || B->What == DeviceBuiltin::AtomicCAS ||
                B->What == DeviceBuiltin::AtomicExchange))
        return true;
      // libcu++ and std atomics' read-modify-writes.
      if (isa<CXXMemberCallExpr>(Call) && (Name.starts_with("fetch_") || Name == "exchange" ||
                                           Name.starts_with("compare_exchange")))
        return true;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
          MC && varies(MC->getImplicitObjectArgument(), Depth + 1))
        return true;
      // What a callee the file shows returns, given which arguments vary
      // (AMGX's utils::warp_id() returns threadIdx.x >> 5; a B-tree's split
      // returns what its warp's shuffles agree on, whatever lane data it is
      // handed), as the pass sees it inlined.
      if (std::optional<bool> Result = resultVaries(Call, FD, Depth))
        return *Result;
      return any_of(Call->arguments(), [&](const Expr *Arg) { return varies(Arg, Depth + 1); });
    }
    if (isa<AtomicExpr>(E))
      return true;
    if (Level == VaryLevel::Warp && warpOf(E))
      return false;
    if (strideRound(E))
      return false;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (varies(CE, Depth + 1))
          return true;
    return false;
  }

  /// The function's result varies of its own, its parameters taken alike:
  /// a value it returns varies, or a condition that decides a return does.
  bool returnsVarying() const {
    return any_of(Returned, [&](const Expr *E) { return varies(E); }) ||
           any_of(ReturnUnder, [&](const Expr *C) { return varies(C); });
  }

private:
  /// A read of a __shared__ part the function stores only warp multiples in.
  bool stagedMultiple(const Expr *E) const;
  static bool multipleOfWarp(const Expr *E, ASTContext &Ctx, unsigned Depth = 0);
  void collectShared(const DeclRefExpr *DRE);
  /// Whether the call \p Call of \p FD returns what threads see apart, read
  /// in \p FD's body with the parameters whose arguments vary taken to vary
  /// (returnsVarying, three callees deep); none where the body is not shown.
  std::optional<bool> resultVaries(const CallExpr *Call, const FunctionDecl *FD, unsigned Depth) const;
  /// Whether \p V varies inside \p For, whose first clause assigns it: some
  /// value the loop's own assignments give it varies, or one of them runs
  /// under a condition inside the loop that threads decide apart. A read of
  /// \p V in those values is the loop's own (assumed alike while it is
  /// being decided, as a phi's way back round the loop is).
  bool variesIn(const VarDecl *V, const ForStmt *For, unsigned Depth) const {
    auto Key = std::make_pair(V, For);
    if (auto It = LoopVaries.find(Key); It != LoopVaries.end())
      return It->second;
    if (!Deciding.insert(Key).second)
      return false;
    bool Result = false;
    for (size_t I = 0; I < Assigned.size() && !Result; ++I)
      Result = Assigned[I].first == V && !Dead.count(Assigned[I].second) && is_contained(AssignedIn[I], For) &&
               varies(Assigned[I].second, Depth + 1);
    for (size_t I = 0; I < AssignedUnder.size() && !Result; ++I)
      Result = AssignedUnder[I].first == V && is_contained(AssignedUnderIn[I], For) &&
               varies(AssignedUnder[I].second, Depth + 1);
    Deciding.erase(Key);
    LoopVaries[Key] = Result;
    return Result;
  }
  /// The for loops among the first \p N statements of Path.
  SmallVector<const ForStmt *, 2> loopsOnPath(size_t N) const {
    SmallVector<const ForStmt *, 2> Out;
    for (size_t I = 0; I < N && I < Path.size(); ++I)
      if (const auto *For = dyn_cast<ForStmt>(Path[I]))
        Out.push_back(For);
    return Out;
  }
  /// \p For's first clause is a plain assignment to \p V.
  static bool reinitialises(const ForStmt *For, const VarDecl *V) {
    const auto *Init = dyn_cast_or_null<Expr>(For->getInit());
    const auto *BO = Init ? dyn_cast<BinaryOperator>(Init->IgnoreImplicit()) : nullptr;
    const auto *DRE = BO && BO->getOpcode() == BO_Assign ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())
                                                         : nullptr;
    return DRE && DRE->getDecl()->getCanonicalDecl() == V;
  }
  static std::optional<std::pair<StringRef, char>> builtinRead(const Expr *E) { return builtinVariableRead(E); }
  /// \p E through explicit casts to integers (not bool), which keep a
  /// lane's bits and, of 8 bits or more, the warp's ((int)threadIdx.x).
  static const Expr *keptValue(const Expr *E);
  /// A function with no parameters that returns what inline PTX reads from
  /// %laneid (AMGX's utils::lane_id(): int id; asm("mov.u32 %0, %%laneid;" : "=r"(id)); return id;).
  static bool readsLaneRegister(const FunctionDecl *FD);
  /// The thread's index (x) itself, as threadIdx.x or the NVVM builtin.
  static bool isThreadIndexX(const Expr *E) {
    auto R = builtinRead(E);
    return R && isThreadIndexName(R->first) && R->second == 'x';
  }
  /// blockDim.x (or the NVVM builtin), which the rule takes to be a
  /// multiple of the warp size.
  static bool isBlockSizeX(const Expr *E) {
    auto R = builtinRead(E);
    return R && isBlockSizeXName(R->first) && R->second == 'x';
  }
  /// threadIdx.y or .z (or the NVVM builtins).
  static bool isThreadRow(const Expr *E) {
    auto R = builtinRead(E);
    return R && isThreadIndexName(R->first) && (R->second == 'y' || R->second == 'z');
  }
  /// A block-stride value's round (model: strideRoundAlike): pos /
  /// blockDim.x, or pos - pos % blockDim.x, for pos = threadIdx.x stepped
  /// by blockDim.x.
  bool strideRound(const Expr *E) const {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!BO)
      return false;
    SmallVector<const VarDecl *, 4> Assumed;
    if (BO->getOpcode() == BO_Div)
      return strideRoundAlike(strideForm(BO->getLHS(), Assumed), strideForm(BO->getRHS(), Assumed));
    const auto *Rem = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (BO->getOpcode() != BO_Sub || !Rem || Rem->getOpcode() != BO_Rem)
      return false;
    const auto *A = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *B = dyn_cast<DeclRefExpr>(Rem->getLHS()->IgnoreParenImpCasts());
    return A && B && A->getDecl() == B->getDecl() &&
           strideRoundAlike(strideForm(A, Assumed), strideForm(Rem->getRHS(), Assumed));
  }
  /// The form of \p E for the block-stride rule (model: StrideForm): the
  /// thread's index, blockDim.x, constant multiples and sums of them, and a
  /// local every value of which has the form, its own steps read as of it
  /// (pos = threadIdx.x, pos += blockDim.x).
  StrideForm strideForm(const Expr *E, SmallVectorImpl<const VarDecl *> &Assumed, unsigned Depth = 0) const {
    E = E->IgnoreParenImpCasts();
    if (Depth > 12 || E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
      return StrideForm::Other;
    if (isThreadIndexX(E))
      return StrideForm::ThreadPlusBlocks;
    if (isBlockSizeX(E))
      return StrideForm::BlockSizes;
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Add)
        return strideSum(strideForm(BO->getLHS(), Assumed, Depth + 1), strideForm(BO->getRHS(), Assumed, Depth + 1));
      if (BO->getOpcode() != BO_Mul)
        return StrideForm::Other;
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
        if (std::optional<APSInt> C = Side->getIntegerConstantExpr(Ctx))
          return strideScaled(strideForm(Side == BO->getLHS() ? BO->getRHS() : BO->getLHS(), Assumed, Depth + 1),
                              C->getSignificantBits() <= 64 ? std::optional<int64_t>(C->getExtValue()) : std::nullopt);
      return StrideForm::Other;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || Escaped.count(V = V->getCanonicalDecl()))
      return StrideForm::Other;
    if (is_contained(Assumed, V))
      return StrideForm::ThreadPlusBlocks;
    if (const Expr *Only = onlyValue(V))
      return strideForm(Only, Assumed, Depth + 1);
    Assumed.push_back(V);
    bool Any = false, Kept = true;
    for (const auto &[W, Value] : Assigned) {
      if (W != V || !Kept)
        continue;
      Any = true;
      StrideForm Want = Steps.count(Value) ? StrideForm::BlockSizes : StrideForm::ThreadPlusBlocks;
      Kept = (Steps.count(Value) || Replaces.count(Value)) && strideForm(Value, Assumed, Depth + 1) == Want;
    }
    Assumed.pop_back();
    return Any && Kept ? StrideForm::ThreadPlusBlocks : StrideForm::Other;
  }
  /// The value of a local given it once (auto block_size = blockDim.x).
  const Expr *onlyValue(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
      return nullptr;
    const Expr *Only = nullptr;
    unsigned N = 0;
    for (const auto &[W, Value] : Assigned)
      if (W == V->getCanonicalDecl())
        Only = Value, ++N;
    return N == 1 ? Only : nullptr;
  }
  /// The arguments of a call whose helper's one returned expression is being
  /// read (inlined): each parameter's argument, read with the bindings of
  /// the call's own context (Outer; none: the function Varying reads).
  struct Bound {
    SmallDenseMap<const ParmVarDecl *, const Expr *, 4> Args;
    const Bound *Outer = nullptr;
  };
  /// The argument bound to the parameter \p E names, if any, and the
  /// bindings it is read with.
  static std::optional<std::pair<const Expr *, const Bound *>> boundArgument(const Expr *E, const Bound *B) {
    const auto *DRE = B ? dyn_cast<DeclRefExpr>(E) : nullptr;
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!P)
      return std::nullopt;
    auto It = B->Args.find(P);
    if (It == B->Args.end())
      return std::nullopt;
    return std::make_pair(It->second, B->Outer);
  }
  /// \p E names a parameter \p B binds, at any depth.
  static bool readsBound(const Stmt *E, const Bound *B) {
    if (!E || !B)
      return false;
    if (const auto *X = dyn_cast<Expr>(E); X && boundArgument(X->IgnoreParenImpCasts(), B))
      return true;
    return any_of(E->children(), [&](const Stmt *C) { return readsBound(C, B); });
  }
  /// The one expression the callee of \p E, a call read with the bindings
  /// \p B, returns (return (x / m) * m;), with its parameters bound to the
  /// call's arguments: a helper the pass sees inlined. None for a method or a
  /// callee with another body.
  static std::optional<std::pair<const Expr *, Bound>> inlined(const Expr *E, const Bound *B) {
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD =
        Call && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call) ? Call->getDirectCallee() : nullptr;
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def || Def->getNumParams() != Call->getNumArgs())
      return std::nullopt;
    const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
    const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
    if (!Ret || !Ret->getRetValue())
      return std::nullopt;
    Bound Args;
    Args.Outer = B;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      Args.Args[Def->getParamDecl(I)] = Call->getArg(I);
    return std::make_pair(Ret->getRetValue(), std::move(Args));
  }
  /// Built of what lanes of one warp share, or of the thread's row in its
  /// block (threadIdx.y, .z): times a multiple of the warp size, a whole
  /// number of warps (threadIdx.x + blockDim.x * threadIdx.y is the linear
  /// index by which the hardware forms warps). IR: rowIndex.
  bool rowIndex(const Expr *E, unsigned Depth = 0, const Bound *B = nullptr) const {
    E = E->IgnoreParenImpCasts();
    if (Depth > 8)
      return false;
    if (auto Arg = boundArgument(E, B))
      return rowIndex(Arg->first, Depth + 1, Arg->second);
    if (isThreadRow(E) || (!readsBound(E, B) && !varies(E, 0)))
      return true;
    if (auto In = inlined(E, B))
      return rowIndex(In->first, Depth + 1, &In->second);
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && (BO->isAdditiveOp() || BO->isMultiplicativeOp()))
      return rowIndex(BO->getLHS(), Depth + 1, B) && rowIndex(BO->getRHS(), Depth + 1, B);
    return false;
  }
  /// A multiple of the warp size that every lane of a warp computes alike
  /// (blockIdx.x * 256, blockIdx.x * blockDim.x, threadIdx.y * blockDim.x,
  /// w << 5), also as a helper returns it (faiss's roundDown(n, kWarpSize)).
  bool warpMultiple(const Expr *E, unsigned Depth = 0, const Bound *B = nullptr) const;
  /// The thread's index, or it plus a multiple of the warp size that lanes
  /// share (the thread's index in the grid: blockIdx.x * blockDim.x + tid):
  /// divided by the warp size, the warp's index, the same for its lanes.
  bool laneInWarp(const Expr *E, unsigned Depth = 0) const {
    E = keptValue(E);
    if (isThreadIndexX(E))
      return true;
    // A thread's rank in a tile of whole warps (linear index & 127 for 128),
    // or in its block (the linear index itself).
    // The lane itself, with the multiple 0: read from %laneid by a helper.
    if (const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenImpCasts())) {
      if (readsLaneRegister(CE->getDirectCallee()))
        return true;
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
      if (!M || identifierOf(M) != "thread_rank")
        return false;
      if (std::optional<unsigned> Size = tileSize(CE))
        return isLaneBitsDivisor(*Size);
      return M->getParent()->getQualifiedNameAsString().find("cooperative_groups::") == 0 &&
             M->getParent()->getName() == "thread_block";
    }
    // A local given its value once (unsigned tid = threadIdx.x + 32 * threadIdx.y; tid >> 5), as
    // the IR sees it in SSA form.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()); DRE && Depth < 4)
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->hasLocalStorage()) {
        // Or one that starts so and steps by multiples of the warp size
        // (for (i = tid + blockIdx.x * blockDim.x; ...; i += blockDim.x * gridDim.x)).
        const Expr *Only = nullptr;
        unsigned N = 0;
        for (const auto &[W, Value] : Assigned)
          if (W == V->getCanonicalDecl() && !(Steps.count(Value) && warpMultiple(Value)))
            Only = Value, ++N;
        return N == 1 && laneInWarp(Only, Depth + 1);
      }
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    // What a mask of at least the lane bits keeps of it (threadIdx.x & 127),
    // or a remainder by a multiple of the warp size (threadIdx.x % 32): the
    // lane, plus a multiple of the warp size its lanes share (IR: the same).
    if (BO && (BO->getOpcode() == BO_And || BO->getOpcode() == BO_Rem) && !BO->getRHS()->isValueDependent())
      if (std::optional<APSInt> V = BO->getRHS()->getIntegerConstantExpr(Ctx))
        return (BO->getOpcode() == BO_And ? isLaneBitsMask(V->getExtValue()) : isLaneBitsDivisor(V->getExtValue())) &&
               Depth < 4 && laneInWarp(BO->getLHS(), Depth + 1);
    if (!BO || BO->getOpcode() != BO_Add)
      return false;
    return (isThreadIndexX(keptValue(BO->getLHS())) && warpMultiple(BO->getRHS())) ||
           (isThreadIndexX(keptValue(BO->getRHS())) && warpMultiple(BO->getLHS()));
  }
  /// The source lane of a shuffle that gives every lane of the warp one
  /// lane's value (model: isWarpBroadcast): __shfl_sync(mask, v, src) of
  /// width 32, or a tile of 32's shfl(v, src).
  const Expr *broadcastSource(const CallExpr *Call) const;
  /// What the thread's index keeps of its lane, at least: y & 31 or y % 32
  /// of y the thread's index plus a multiple of the warp size, or the rank of
  /// a thread in its tile of 32 (the block's linear index & 31). Taken away
  /// from such an index, it leaves the warp's first lane (IR: warpOf's sub).
  bool laneBits(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    // Through a local given its value once, and a helper with no parameters that returns one
    // expression (lane_id() { return threadIdx.x & 31; }), as the pass reads them inlined.
    for (unsigned Step = 0; Step < 4; ++Step) {
      const Expr *Next = nullptr;
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      if (const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr; V && V->hasLocalStorage())
        for (const auto &[W, Value] : Assigned)
          if (W == V->getCanonicalDecl())
            Next = Next ? E : Value; // a second value: none
      const auto *CE = dyn_cast<CallExpr>(E);
      const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
      const auto *Body = FD && FD->getNumParams() == 0 && !isa<CXXMethodDecl>(FD) ? dyn_cast_or_null<CompoundStmt>(FD->getBody()) : nullptr;
      if (const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr)
        Next = Ret->getRetValue();
      if (!Next || Next == E)
        break;
      E = Next->IgnoreParenImpCasts();
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      std::optional<unsigned> Size = tileSize(CE);
      return (Size && identifierOf(CE->getDirectCallee()) == "thread_rank" && isLaneBitsDivisor(*Size)) ||
             readsLaneRegister(CE->getDirectCallee());
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || !laneInWarp(BO->getLHS()) || BO->getRHS()->isValueDependent())
      return false;
    std::optional<APSInt> V = BO->getRHS()->getIntegerConstantExpr(Ctx);
    if (!V)
      return false;
    return (BO->getOpcode() == BO_And && isLaneBitsMask(V->getExtValue())) ||
           (BO->getOpcode() == BO_Rem && isLaneBitsDivisor(V->getExtValue()));
  }
  /// What the thread's index says of its warp, the same for every lane of
  /// a warp (blocks whose size is a multiple of the warp size, as the rule
  /// assumes): divided by the warp size, its lane bits cleared or taken
  /// away, or compared with a multiple of it (tid < 32). The IR pass knows
  /// the same forms.
  bool warpOf(const Expr *E) const {
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (BO && BO->isRelationalOp() && !BO->getRHS()->isValueDependent())
      if (const auto *Shl = dyn_cast<BinaryOperator>(BO->getLHS()->IgnoreParenImpCasts());
          Shl && Shl->getOpcode() == BO_Shl && !Shl->getRHS()->isValueDependent() && laneInWarp(Shl->getLHS()))
        // x << k against a multiple of 32 << k (IR: the same; cooperative
        // groups keep a tile's rank so).
        if (std::optional<APSInt> K = Shl->getRHS()->getIntegerConstantExpr(Ctx))
          if (std::optional<APSInt> C = BO->getRHS()->getIntegerConstantExpr(Ctx);
              C && K->getExtValue() >= 0 && K->getExtValue() < 26 && C->getExtValue() >= 0) {
            const int64_t Unit = int64_t(WarpSize) << K->getExtValue();
            const bool Strict = BO->getOpcode() == BO_LT || BO->getOpcode() == BO_GE;
            return (Strict ? C->getExtValue() : C->getExtValue() + 1) % Unit == 0;
          }
    if (!BO || !laneInWarp(BO->getLHS()))
      return false;
    if (BO->getOpcode() == BO_Sub)
      return laneBits(BO->getRHS());
    std::optional<int64_t> C;
    if (std::optional<APSInt> V = BO->getRHS()->getIntegerConstantExpr(Ctx))
      C = V->getExtValue();
    // Against a multiple of the warp size that lanes share, computed
    // (i < blocks * blockDim.x): x < M and x >= M split whole warps.
    if (!C)
      return (BO->getOpcode() == BO_LT || BO->getOpcode() == BO_GE) && warpMultiple(BO->getRHS());
    switch (BO->getOpcode()) {
    case BO_Div: return isWarpDivisor(*C);
    case BO_Shr: return isWarpShift(*C);
    case BO_And: return (*C & (WarpSize - 1)) == 0;
    case BO_LT:
    case BO_GE: return *C % WarpSize == 0;
    case BO_LE:
    case BO_GT: return (*C + 1) % WarpSize == 0;
    default: return false;
    }
  }

  /// Records what the body \p S gives each local, and under which
  /// conditions (Varying.cpp).
  void collect(const Stmt *S);

  /// The conditions that decide whether an assignment to \p V (at the end
  /// of Path) runs, up to the statement that declares it: conditions around
  /// its declaration decide its whole life. Only a thread's own locals: a
  /// __shared__ or global variable is memory, which one thread's store does
  /// not make differ between threads (reads after a barrier agree).
  void assignedUnder(const VarDecl *V) {
    V = V->getCanonicalDecl();
    if (!V->hasLocalStorage() || V->getType()->isReferenceType())
      return;
    auto D = DeclaredIn.find(V);
    size_t Outer = D == DeclaredIn.end() ? 0 : D->second;
    // Path holds the assignment's parents; Inside walks out from it.
    const Stmt *Inside = Current;
    for (size_t I = Path.size(); I > Outer; --I) {
      if (const Expr *C = decidingCondition(Path[I - 1], Inside)) {
        AssignedUnder.push_back({V, C});
        AssignedUnderIn.push_back(loopsOnPath(I));
      }
      Inside = Path[I - 1];
    }
  }

  /// Whether the value the assignment to \p V at Current gives it is
  /// replaced before any read: at some level below V's declaration, the
  /// statement that holds the assignment has no loop, no jump and no read of
  /// V after it, and the next statement of the enclosing block that names V
  /// assigns it (v = __shfl_sync(mask, v, src): the elected lane's result
  /// handed to the warp), with no jump before it. Then what the assignment
  /// gave, and whether a thread ran it, reaches no read, as the IR's phi at
  /// the join has no use. A thread that returns reads V no more. The block
  /// that declares V counts: its next statement may replace the value too
  /// (ECL-CC's `if (lane == 0) idx = atomicAdd(...); idx = __shfl_sync(...,
  /// idx, 0);` before a loop on idx).
  bool replacedUnread(const VarDecl *V) const {
    if (!V->hasLocalStorage() || V->getType()->isReferenceType())
      return false;
    auto D = DeclaredIn.find(V);
    const size_t Outer = D == DeclaredIn.end() || D->second == 0 ? 0 : D->second - 1;
    const SourceManager &SM = Ctx.getSourceManager();
    const SourceLocation After = SM.getExpansionLoc(Current->getEndLoc());
    const Stmt *Inside = Current;
    for (size_t I = Path.size(); I > Outer; --I) {
      const Stmt *Parent = Path[I - 1];
      if (isa<WhileStmt, DoStmt, ForStmt, CXXForRangeStmt>(Parent))
        return false;
      if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
        if (jumps(Inside) || readAfter(Inside, V, After, SM))
          return false;
        auto It = llvm::find(Block->body(), Inside);
        for (++It; It != Block->body_end(); ++It) {
          if (const auto *BO = dyn_cast<BinaryOperator>(*It); BO && BO->getOpcode() == BO_Assign)
            if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
                DRE && DRE->getDecl()->getCanonicalDecl() == V)
              return true;
          if (names(*It, V) || jumps(*It))
            break;
        }
      }
      Inside = Parent;
    }
    return false;
  }
  /// A reference to \p V in \p S past \p After, other than as the left side
  /// of a plain assignment.
  static bool readAfter(const Stmt *S, const VarDecl *V, SourceLocation After, const SourceManager &SM) {
    if (!S)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
          DRE && DRE->getDecl()->getCanonicalDecl() == V)
        return readAfter(BO->getRHS(), V, After, SM);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl()->getCanonicalDecl() == V)
      return !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(DRE->getLocation()), After);
    return llvm::any_of(S->children(), [&](const Stmt *C) { return readAfter(C, V, After, SM); });
  }
  /// Where a read of a local lies: the statement list around it and the
  /// statement of that list that holds it (null for a do loop's condition,
  /// which follows the end of its body).
  struct ReadSite {
    const DeclRefExpr *Read;
    const CompoundStmt *List;
    const Stmt *Holder;
  };
  std::optional<ReadSite> readSite(const DeclRefExpr *DRE) const {
    for (size_t I = Path.size(); I > 0; --I) {
      const Stmt *Child = I < Path.size() ? Path[I] : DRE;
      if (const auto *List = dyn_cast<CompoundStmt>(Path[I - 1]))
        return ReadSite{DRE, List, Child};
      if (const auto *Do = dyn_cast<DoStmt>(Path[I - 1]); Do && Child == Do->getCond())
        if (const auto *Body = dyn_cast<CompoundStmt>(Do->getBody()); Body && !continues(Body))
          return ReadSite{DRE, Body, nullptr};
      if (isa<LambdaExpr, BlockExpr>(Path[I - 1]))
        return std::nullopt;
    }
    return std::nullopt;
  }
  /// \p DRE, whose parent is Path's last statement, is the left side of an
  /// assignment or the operand of ++/--: a change of the local, not an escape.
  /// A tile's collective, which takes its value by reference and reads it
  /// (tile.shfl(v, 0) binds v to TyElem&&): no escape of the local.
  static bool collectiveArgument(const Stmt *Parent) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(Parent);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    return FD && StringRef(FD->getQualifiedNameAsString()).starts_with("cooperative_groups::") &&
           tileCollective(identifierOf(FD)).has_value();
  }
  bool assignedHere(const DeclRefExpr *DRE) const {
    size_t Up = Path.size();
    while (Up > 0 && isa<ParenExpr>(Path[Up - 1]))
      --Up;
    if (Up == 0)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(Path[Up - 1]); BO && BO->isAssignmentOp())
      return BO->getLHS()->IgnoreParenImpCasts() == DRE;
    if (const auto *UO = dyn_cast<UnaryOperator>(Path[Up - 1]); UO && UO->isIncrementDecrementOp())
      return true;
    return false;
  }
  /// For each read whose local changes only by assignment, the value of the
  /// last statement before it in its list that changes the local, where
  /// that statement is a plain assignment of the local or its declaration
  /// and no label lies between: every way to the read passes it, and
  /// nothing changes the local after it.
  void resolveKills() {
    for (const ReadSite &Site : ReadSites) {
      const auto *V = cast<VarDecl>(Site.Read->getDecl()->getCanonicalDecl());
      // A label or case on the read's own statement lets a jump in past
      // what comes before it.
      if (Escaped.count(V) || isa_and_nonnull<LabelStmt, SwitchCase>(Site.Holder) ||
          (Site.Holder && changesVariable(Site.Holder, V)))
        continue;
      auto Body = Site.List->body();
      auto It = Site.Holder ? llvm::find(Body, Site.Holder) : Body.end();
      while (It != Body.begin()) {
        const Stmt *X = *--It;
        if (isa<LabelStmt, SwitchCase>(X))
          break;
        // Its declaration: the initializer reaches the read, whatever later
        // statements give it (auto size = end - begin; before begin += step
        // in a loop after), as the IR's one definition does.
        if (const auto *DS = dyn_cast<DeclStmt>(X);
            DS && llvm::is_contained(DS->decls(), cast<Decl>(Site.Read->getDecl()))) {
          if (const Expr *Init = V->getInit(); Init && !Dead.count(Init))
            UseKill[Site.Read] = Init;
          break;
        }
        if (!changesVariable(X, V))
          continue;
        const auto *E = dyn_cast<Expr>(X);
        const auto *BO = E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()) : nullptr;
        const auto *LHS = BO && BO->getOpcode() == BO_Assign ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())
                                                             : nullptr;
        if (LHS && LHS->getDecl()->getCanonicalDecl() == V && !Dead.count(BO->getRHS()))
          UseKill[Site.Read] = BO->getRHS();
        break;
      }
    }
  }
  static bool continues(const Stmt *S) {
    if (isa_and_nonnull<ContinueStmt>(S))
      return true;
    return S && llvm::any_of(S->children(), [&](const Stmt *C) { return continues(C); });
  }
  static bool names(const Stmt *S, const VarDecl *V) {
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S); DRE && DRE->getDecl()->getCanonicalDecl() == V)
      return true;
    return S && llvm::any_of(S->children(), [&](const Stmt *C) { return names(C, V); });
  }
  static bool jumps(const Stmt *S) {
    if (isa_and_nonnull<BreakStmt, ContinueStmt, GotoStmt>(S))
      return true;
    return S && llvm::any_of(S->children(), [&](const Stmt *C) { return jumps(C); });
  }

  ASTContext &Ctx;
  VaryLevel Level;
  std::vector<std::pair<const VarDecl *, const Expr *>> Assigned;
  /// The for loops around each of Assigned (and of AssignedUnder's conditions).
  std::vector<SmallVector<const ForStmt *, 2>> AssignedIn, AssignedUnderIn;
  /// Each read of a local inside a for loop whose first clause assigns it.
  DenseMap<const DeclRefExpr *, const ForStmt *> UseLoop;
  /// Where each read of a local lies, and the one value that reaches some
  /// of them (resolveKills).
  std::vector<ReadSite> ReadSites;
  DenseMap<const DeclRefExpr *, const Expr *> UseKill;
  /// Locals whose address is taken or that a reference binds.
  DenseSet<const VarDecl *> Escaped;
  /// variesIn's answers, and the questions it is deciding.
  mutable DenseMap<std::pair<const VarDecl *, const ForStmt *>, bool> LoopVaries;
  mutable DenseSet<std::pair<const VarDecl *, const ForStmt *>> Deciding;
  /// The right sides of v += step among Assigned, and the values of
  /// initializers and plain assignments.
  DenseSet<const Expr *> Steps, Replaces;
  std::vector<const VarDecl *> AsmOutputs;
  /// Values stored to __shared__ parts; variables otherwise used (stagedMultiple).
  std::vector<std::pair<SharedPart, const Expr *>> SharedStores;
  DenseSet<const VarDecl *> SharedEscaped;
  /// The values the function returns, and the conditions that decide a
  /// return; callees' answers, by the parameters taken to vary (resultVaries).
  std::vector<const Expr *> Returned, ReturnUnder;
  mutable std::map<std::tuple<const FunctionDecl *, uint64_t, std::vector<std::pair<unsigned, int64_t>>>, bool>
      CalleeVaries;
  /// The constant arguments of the call being read, by parameter.
  DenseMap<const ParmVarDecl *, int64_t> Constants;
  /// \p E's value as a constant: an integer constant expression, through a
  /// default argument, or a parameter the call being read gives a constant.
  std::optional<int64_t> constantValue(const Expr *E) const;
  DenseSet<const VarDecl *> Vars;
  /// Locals some use of which does not read their value (onlyValue).
  DenseSet<const VarDecl *> NotOnlyRead;
  /// The values of assignments replaced before any read (replacedUnread).
  DenseSet<const Expr *> Dead;
  /// Each local and a condition that decides an assignment to it.
  std::vector<std::pair<const VarDecl *, const Expr *>> AssignedUnder;
  /// How deep in Path each local's declaration lies.
  DenseMap<const VarDecl *, size_t> DeclaredIn;
  /// The statement collect() is at, and those around it.
  const Stmt *Current = nullptr;
  std::vector<const Stmt *> Path;
};

} // namespace divergence
} // namespace cuda_scope

#endif
