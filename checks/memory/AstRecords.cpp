//===- AstRecords.cpp - the TU's accesses as the engine's records ----------===//
#include "AstRecords.h"
#include "AstSpins.h"
#include "DecidedPaths.h"
#include "ast/CheckUtils.h"
#include "ast/KernelLaunches.h"
#include "ast/PerTU.h"
#include "ScopedAccessesWalker.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include <functional>

using namespace clang;
using namespace llvm;

namespace cuda_scope {


/// Program order as the AST walk saw it.
class AstRecords::Order : public ProgramOrder {
public:
  explicit Order(const AstRecords &R) : R(R), Decided(R.Accesses->context()) {}
  /// A path no execution takes, because a test on it decides a later one
  /// the other way, is no order (DecidedPaths).
  bool mayPrecede(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    const CallSite *CX = R.call(A), *CY = R.call(B);
    if (X && Y)
      return cuda_scope::mayPrecede(*X, *Y) && !Decided.closed(X->Root, X->Arms, Y->Arms);
    if (X && CY)
      return cuda_scope::mayPrecede(*X, *CY) && !Decided.closed(X->Root, X->Arms, CY->Arms);
    if (CX && Y)
      return cuda_scope::mayPrecede(*CX, *Y) && !Decided.closed(CX->Root, CX->Arms, Y->Arms);
    return false;
  }
  bool afterTest(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A);
    if (!X || !X->TestSeq || !mayPrecede(A, B))
      return false;
    const ScopedAccess *Y = R.access(B);
    const CallSite *CY = R.call(B);
    unsigned SeqB = Y ? Y->Seq : CY->Seq;
    if (SeqB >= X->TestFrom && SeqB < X->TestUntil)
      return true;
    // What another test of the value guards runs on it too.
    if (any_of(X->OtherGuarded,
               [&](const std::pair<unsigned, unsigned> &G) { return SeqB >= G.first && SeqB < G.second; }))
      return true;
    // What runs once a spin is left runs on the value that left it, where
    // the test's own statement ends before the loop does (the helper returns
    // the variable it tested: returnsTested).
    const Stmt *Loop = spinLoopOf(*X, R.Accesses->context());
    ArrayRef<std::pair<const Stmt *, unsigned>> Arms = Y ? ArrayRef(Y->Arms) : ArrayRef(CY->Arms);
    return Loop && !isa_and_nonnull<WhileStmt, ForStmt, DoStmt>(X->TestGuard) && !is_contained(make_first_range(Arms), Loop);
  }

  bool inCommonLoop(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    const CallSite *CX = R.call(A), *CY = R.call(B);
    auto ArmsOf = [](const ScopedAccess *S, const CallSite *C) {
      return S ? ArrayRef<std::pair<const Stmt *, unsigned>>(S->Arms)
               : ArrayRef<std::pair<const Stmt *, unsigned>>(C->Arms);
    };
    if (!cuda_scope::inCommonLoop(ArmsOf(X, CX), ArmsOf(Y, CY)))
      return false;
    // The tail of a helper the loop's condition calls that only returns
    // what leaves the loop runs after it.
    const ASTContext &Ctx = R.Accesses->context();
    return !(X && pastLoop(*X, Ctx)) && !(Y && pastLoop(*Y, Ctx));
  }
  bool blocksApart(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    const CallSite *CX = R.call(A), *CY = R.call(B);
    ArrayRef<std::pair<const Stmt *, unsigned>> AX = X ? ArrayRef(X->Arms) : ArrayRef(CX->Arms),
                                                 AY = Y ? ArrayRef(Y->Arms) : ArrayRef(CY->Arms);
    // The first statement whose arms part them: the two arms of one if or ?:.
    for (size_t I = 0; I < AX.size() && I < AY.size(); ++I) {
      if (AX[I] == AY[I])
        continue;
      return AX[I].first == AY[I].first && isa<IfStmt, ConditionalOperator>(AX[I].first) &&
             (AX[I].second & 1) != (AY[I].second & 1) && R.Accesses->decidedAlikeInBlock(AX[I].first);
    }
    return false;
  }
  bool inSpinLoop(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    const Stmt *Loop = X ? spinLoopOf(*X, R.Accesses->context()) : nullptr;
    if (!Loop || !Y)
      return inCommonLoop(A, B);
    return inCommonLoop(A, B) && any_of(Y->Arms, [&](const std::pair<const Stmt *, unsigned> &E) {
             return E.first == Loop && (E.second & ArmLoop);
           });
  }
  bool alwaysBefore(unsigned A, unsigned B) const override {
    // Not inside an if or ?: arm that B is not inside (loops aside).
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    if (!X || !Y || !mayPrecede(A, B))
      return false;
    // A loop's condition runs, at least once, before anything after the loop
    // (the loop's header dominates its exit, as the IR front end reads it):
    // for what follows the loop, the test of a spin is not inside it.
    // A call is an arm only to tell two calls of one function apart: A inside
    // calls that its last condition leads to runs whenever that condition
    // holds (atomicFetchAdd(count, 1) before the wrapper that polls count).
    ArrayRef<std::pair<const Stmt *, unsigned>> XA(X->Arms);
    auto DropCalls = [&] {
      while (!XA.empty() && isa<CallExpr>(XA.back().first))
        XA = XA.drop_back();
    };
    DropCalls();
    if (!XA.empty() && (XA.back().second & ArmLoop) && XA.back().first == X->TestGuard &&
        !(Y->Arms.size() >= XA.size() && Y->Arms[XA.size() - 1] == XA.back())) {
      XA = XA.drop_back();
      DropCalls();
    }
    if (XA.size() > Y->Arms.size())
      return false;
    return std::equal(XA.begin(), XA.end(), Y->Arms.begin());
  }

private:
  const AstRecords &R;
  DecidedPaths Decided;
};

std::shared_ptr<AstRecords> AstRecords::get(ASTContext &Ctx) { return sharedPerTU<AstRecords>(Ctx); }

AstRecords::AstRecords(ASTContext &Ctx) : Accesses(ScopedAccesses::get(Ctx)) {}
AstRecords::~AstRecords() = default;

const ScopedAccess *AstRecords::access(int I) const {
  return I >= 0 && static_cast<size_t>(I) < AccessOf.size() ? AccessOf[I] : nullptr;
}
const CallSite *AstRecords::call(int I) const {
  return I >= 0 && static_cast<size_t>(I) < CallOf.size() ? CallOf[I] : nullptr;
}

ArrayRef<MemOp> AstRecords::ops() {
  build();
  return Ops;
}

namespace {
/// What \p Kernel's own code says of the size of its blocks and tiles (model:
/// TileShapes): its launch bound, and the calls of this_thread_block<M> and
/// tiled_partition<N> its body makes.
TileShapes tileShapesOf(const FunctionDecl *Kernel, const ASTContext &Ctx) {
  TileShapes Shapes;
  if (!Kernel)
    return Shapes;
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>())
    if (std::optional<APSInt> Max = LB->getMaxThreads()->getIntegerConstantExpr(Ctx); Max && Max->isStrictlyPositive())
      Shapes.noteLaunchBound(Max->getZExtValue());
  const Stmt *Body = Kernel->getBody();
  if (!Body)
    return Shapes;
  SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee()) {
        std::optional<uint64_t> Arg;
        if (const TemplateArgumentList *TA = FD->getTemplateSpecializationArgs();
            TA && TA->size() > 0 && TA->get(0).getKind() == TemplateArgument::Integral)
          Arg = TA->get(0).getAsIntegral().getZExtValue();
        Shapes.noteCall(plainFunctionName(plainQualifiedName(FD)), Arg);
      }
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
  }
  return Shapes;
}

/// The size of the tile whose sync \p C calls, where its type says it
/// (__static_size_multi_warp_tile_base<128>::sync, cg::sync(tile)).
std::optional<uint64_t> syncedTileSize(const CallSite &C) {
  const CXXRecordDecl *RD = nullptr;
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.Callee))
    RD = MD->getParent();
  else if (C.Call && C.Call->getNumArgs() == 1)
    RD = C.Call->getArg(0)->getType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() == 0 || Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue();
}

/// The barrier a call is (grid.sync(), cg::sync(grid), block.sync()), if any.
std::optional<BarrierFunction> barrierOf(const CallSite &C) {
  std::string Name = plainFunctionName(plainQualifiedName(C.Callee));
  if (std::optional<BarrierFunction> B = barrierFunction(Name))
    return B;
  // cg::sync(g) calls g.sync() for the group it is given; a tile of several
  // warps syncs as its base does.
  if (Name == "cooperative_groups::sync" && C.Call->getNumArgs() == 1)
    if (const auto *RD = C.Call->getArg(0)->getType()->getAsCXXRecordDecl()) {
      if (RD->getName() == "thread_block_tile")
        if (std::optional<uint64_t> N = syncedTileSize(C); N && *N > uint64_t(WarpSize))
          return barrierFunction("cooperative_groups::__static_size_multi_warp_tile_base::sync");
      return barrierFunction(plainQualifiedName(RD) + "::sync");
    }
  return std::nullopt;
}

Runner runnerOf(ScopedAccess::RootKind K) {
  return K == ScopedAccess::Host ? Runner::Host : K == ScopedAccess::Kernel ? Runner::Kernel : Runner::DeviceFunction;
}
} // namespace

void AstRecords::build() {
  if (Built)
    return;
  Built = true;
  std::shared_ptr<KernelLaunches> Launches = KernelLaunches::get(Accesses->context());
  // Roots are contexts and threads: each is walked once, in its own Seq.
  DenseMap<const FunctionDecl *, int> RootId;
  auto Root = [&](const FunctionDecl *F) { return RootId.try_emplace(F, RootId.size()).first->second; };
  StringMap<int> ObjectId, ElementId, SegmentId, LaneBaseId, BlockPartId;
  DenseMap<const Expr *, int> ElectionId;
  auto Add = [&](const ScopedAccess &A) {
    MemOp Op;
    Op.What = A.What;
    Op.Ord = A.Ord;
    Op.Space = A.Space;
    if (A.Ord != cuda_scope::Order::Plain)
      Op.S = A.S;
    if (A.Object && A.Object->Root) {
      std::string Key = A.Object->key();
      Op.Object = ObjectId.try_emplace(Key, ObjectId.size()).first->second;
      Op.Element = ElementId.try_emplace(Key + '\0' + A.Object->Index, ElementId.size()).first->second;
      Op.Home = A.Object->Home;
      Op.PerBlock = A.Object->BlockDependent;
      if (A.Object->BlockDependent && !A.Object->BlockSegment.empty())
      {
        Op.Segment = SegmentId.try_emplace(Key + '\0' + A.Object->BlockSegment, SegmentId.size()).first->second;
        Op.WarpSegment = A.Object->WarpSegment;
      }
      if (!A.Object->BlockPart.empty())
        Op.BlockPart = BlockPartId.try_emplace(Key + '\0' + A.Object->BlockPart, BlockPartId.size()).first->second;
      // The element itself, not a field of it.
      if (!A.Object->Path.empty() && !A.Object->Path.back())
        Op.Flat = A.Object->Flat;
    }
    Op.Context = Root(A.Root);
    Op.Thread = Op.Context;
    Op.Seq = A.Seq;
    Op.RunBy = runnerOf(A.RootIs);
    // One block of each grid: where grids of the kernel may overlap, block 0
    // of one is not the only block 0 (KernelLaunches::Kernel::Overlaps).
    if (A.OnlyBlock >= 0 && !(A.RootIs == ScopedAccess::Kernel && Launches->of(A.Root).Overlaps))
      Op.OnlyBlock = static_cast<int>(A.OnlyBlock);
    else if (A.RootIs == ScopedAccess::Kernel && Accesses->runsOneBlock(A.Root))
      Op.OnlyBlock = 0;
    // The block a ticket elects: one per grid, so one only where grids do not overlap.
    if (A.ElectedBy && !(A.RootIs == ScopedAccess::Kernel && Launches->of(A.Root).Overlaps))
      Op.ElectedBy = ElectionId.try_emplace(A.ElectedBy, ElectionId.size()).first->second;
    Op.Tested = A.TestSeq.has_value();
    Op.Test = A.Test;
    Op.Spins = spins(A, Accesses->context());
    if (Op.Spins && (A.What == OpKind::Load || A.What == OpKind::RMW))
      Op.PassWhen = spinExit(A, Accesses->context());
    if (A.What == OpKind::Store || A.What == OpKind::RMW)
      Op.Stored = A.Stored;
    Op.AgainstGrid = A.AgainstGrid;
    Op.GoalVaries = A.GoalVaries;
    Op.GoalIsGrid = A.GoalIsGrid;
    Op.GridLoop = A.GridLoop;
    Op.ThreadBelow = A.ThreadBelow > INT32_MAX ? -1 : static_cast<int>(A.ThreadBelow);
    Op.RankGroup = Op.ThreadBelow < 0 ? 0 : static_cast<int>(A.RankGroup);
    if (A.Object && A.Object->LaneOffset && !A.Object->LaneVoid && *A.Object->LaneOffset > INT32_MIN &&
        *A.Object->LaneOffset < INT32_MAX) {
      Op.HasLaneOffset = true;
      Op.LaneOffset = static_cast<int>(*A.Object->LaneOffset);
      Op.LaneBase = LaneBaseId.try_emplace(A.Object->LaneBase, LaneBaseId.size()).first->second;
    }
    Op.Counts = A.What == OpKind::RMW && countsArrivals(A.Name, A.Operand);
    Op.ValueUnused = A.ValueUnused;
    Op.WritesNothing = A.What == OpKind::RMW && writesNothing(A.Name, A.Operand);
    Op.ThreadPrivate = A.Object && A.Object->BlockDependent && A.Object->ThreadDependent;
    Op.FixedAddress = A.Object && A.Object->sameForEveryThread();
    Op.ThreadApart = A.Object && A.Object->ThreadVaries;
    Op.Peer = A.Multicast || A.Transfer || (A.Object && A.Object->Peer);
    Ops.push_back(Op);
    AccessOf.push_back(&A);
    CallOf.push_back(nullptr);
  };
  for (const ScopedAccess &A : Accesses->accesses())
    Add(A);
  for (const ScopedAccess &A : Accesses->plainAccesses())
    Add(A);
  DenseMap<const FunctionDecl *, TileShapes> Shapes;
  for (const CallSite &C : Accesses->calls()) {
    MemOp Op;
    Op.What = OpKind::Call;
    std::optional<BarrierFunction> B = barrierOf(C);
    // A tile's sync is the block's barrier only where the tile is the
    // block; otherwise the walk into it recorded what it is made of.
    if (B && B->OfTile) {
      auto It = Shapes.find(C.Root);
      if (It == Shapes.end())
        It = Shapes.try_emplace(C.Root, tileShapesOf(C.Root, Accesses->context())).first;
      if (!It->second.syncIsBlockBarrier(syncedTileSize(C)))
        B = std::nullopt;
    }
    if (B) {
      Op.What = B->What;
      Op.Ord = cuda_scope::Order::AcqRel;
      Op.S = B->S;
    }
    // A callee with no body in the unit and no builtin meaning (a function
    // another unit defines) may touch any memory; one with a body was walked,
    // or is a system header's, whose accesses the IR sees once inlined.
    Op.Opaque = Op.What == OpKind::Call && C.Callee && !C.Callee->isDefined() && C.Callee->getBuiltinID() == 0;
    // A call the walk did not enter for depth may fence: no message is
    // claimed across it (the IR, which inlines it, sees what it does).
    Op.FenceCall = Op.What == OpKind::Call && C.Unfollowed;
    Op.Context = Root(C.Root);
    Op.Thread = Op.Context;
    Op.Seq = C.Seq;
    Op.RunBy = C.Root && C.Root->hasAttr<CUDAGlobalAttr>() ? Runner::Kernel : Runner::DeviceFunction;
    Ops.push_back(Op);
    AccessOf.push_back(nullptr);
    CallOf.push_back(&C);
  }
  PO = std::make_unique<Order>(*this);
}

std::vector<GridWait> AstRecords::gridWaits() {
  build();
  return cuda_scope::gridWaits(Ops, *PO);
}

std::vector<ReusedGridBarrier> AstRecords::reusedGridBarriers(ArrayRef<GridWait> Waits) {
  build();
  return cuda_scope::reusedGridBarriers(Ops, *PO, Waits);
}

std::vector<WarpRace> AstRecords::warpRaces() {
  build();
  return cuda_scope::warpRaces(Ops, *PO);
}

/// With CUDA_SCOPE_DUMP_OPS=1, where each record the engine is about to dump
/// comes from: its kernel and its source line, by record number.
static void dumpSites(ArrayRef<const ScopedAccess *> AccessOf, ArrayRef<const CallSite *> CallOf,
                      const ASTContext &Ctx) {
  if (!dumpingOps())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned I = 0; I < AccessOf.size(); ++I) {
    const FunctionDecl *Root = nullptr;
    SourceLocation Loc;
    std::string What;
    if (const ScopedAccess *A = AccessOf[I]) {
      Root = A->Root;
      Loc = A->Loc;
      What = A->Object ? A->Object->Spelling + " [" + A->Name + "] " + A->Object->Index +
                           (A->Object->BlockSegment.empty() ? "" : " row " + A->Object->BlockSegment)
                     : A->Name;
    } else if (const CallSite *C = CallOf[I]) {
      Root = C->Root;
      Loc = C->Call ? C->Call->getBeginLoc() : SourceLocation();
      What = C->Callee ? C->Callee->getNameAsString() : "call";
    }
    PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Loc));
    llvm::errs() << "  site #" << I << " " << (Root ? Root->getNameAsString() : "-") << " "
                 << (P.isValid() ? llvm::sys::path::filename(P.getFilename()) : "?") << ":"
                 << (P.isValid() ? P.getLine() : 0) << " " << What << "\n";
  }
}

std::vector<Finding> AstRecords::findings(const EngineOptions &Opts,
                                          function_ref<bool(const FunctionDecl *)> IsFence) {
  build();
  dumpSites(AccessOf, CallOf, Accesses->context());
  if (!IsFence)
    return analyse(Ops, *PO, Opts);
  std::vector<MemOp> WithFences = Ops;
  for (unsigned I = 0; I < WithFences.size(); ++I)
    if (const CallSite *C = CallOf[I])
      WithFences[I].FenceCall = WithFences[I].FenceCall || IsFence(C->Callee);
  return analyse(WithFences, *PO, Opts);
}

} // namespace cuda_scope
