//===- AstRecords.cpp - the TU's accesses as the engine's records ----------===//
#include "AstRecords.h"
#include "CheckUtils.h"
#include "PerTU.h"
#include "clang/AST/Attr.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

/// Program order as the AST walk saw it.
class AstRecords::Order : public ProgramOrder {
public:
  explicit Order(const AstRecords &R) : R(R) {}
  bool mayPrecede(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    const CallSite *CX = R.call(A), *CY = R.call(B);
    if (X && Y)
      return cuda_scope::mayPrecede(*X, *Y);
    if (X && CY)
      return cuda_scope::mayPrecede(*X, *CY);
    if (CX && Y)
      return cuda_scope::mayPrecede(*CX, *Y);
    return false;
  }
  bool afterTest(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A);
    if (!X || !X->TestSeq || !mayPrecede(A, B))
      return false;
    const ScopedAccess *Y = R.access(B);
    const CallSite *CY = R.call(B);
    unsigned SeqB = Y ? Y->Seq : CY->Seq;
    return SeqB >= X->TestFrom && SeqB < X->TestUntil;
  }

  bool inCommonLoop(unsigned A, unsigned B) const override {
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    const CallSite *CX = R.call(A), *CY = R.call(B);
    auto ArmsOf = [](const ScopedAccess *S, const CallSite *C) {
      return S ? ArrayRef<std::pair<const Stmt *, unsigned>>(S->Arms)
               : ArrayRef<std::pair<const Stmt *, unsigned>>(C->Arms);
    };
    auto ArmsA = ArmsOf(X, CX), ArmsB = ArmsOf(Y, CY);
    for (size_t I = 0; I < ArmsA.size() && I < ArmsB.size() && ArmsA[I] == ArmsB[I]; ++I)
      if (ArmsA[I].second & ArmLoop)
        return true;
    return false;
  }
  bool alwaysBefore(unsigned A, unsigned B) const override {
    // Not inside an if or ?: arm that B is not inside (loops aside).
    const ScopedAccess *X = R.access(A), *Y = R.access(B);
    if (!X || !Y || !mayPrecede(A, B))
      return false;
    // A loop's condition runs, at least once, before anything after the loop
    // (the loop's header dominates its exit, as the IR front end reads it):
    // for what follows the loop, the test of a spin is not inside it.
    ArrayRef<std::pair<const Stmt *, unsigned>> XA(X->Arms);
    if (!XA.empty() && (XA.back().second & ArmLoop) && XA.back().first == X->TestGuard &&
        !(Y->Arms.size() >= XA.size() && Y->Arms[XA.size() - 1] == XA.back()))
      XA = XA.drop_back();
    if (XA.size() > Y->Arms.size())
      return false;
    return std::equal(XA.begin(), XA.end(), Y->Arms.begin());
  }

private:
  const AstRecords &R;
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
/// The barrier a call is (grid.sync(), cg::sync(grid), block.sync()), if any.
std::optional<BarrierFunction> barrierOf(const CallSite &C) {
  std::string Name = plainFunctionName(plainQualifiedName(C.Callee));
  if (std::optional<BarrierFunction> B = barrierFunction(Name))
    return B;
  // cg::sync(g) calls g.sync() for the group it is given.
  if (Name == "cooperative_groups::sync" && C.Call->getNumArgs() == 1)
    if (const auto *RD = C.Call->getArg(0)->getType()->getAsCXXRecordDecl())
      return barrierFunction(plainQualifiedName(RD) + "::sync");
  return std::nullopt;
}

/// \p S is a break, or a block that ends in one.
bool endsInBreak(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsInBreak(CS->body_back());
  return isa_and_nonnull<BreakStmt>(S);
}

/// The read decides the exit of a loop that holds it: the loop's own
/// condition, or an if in it whose arm breaks out (MemOp::Spins).
bool spins(const ScopedAccess &A) {
  if (A.Waits)
    return true;
  if (!A.TestSeq || !A.TestGuard)
    return false;
  bool InLoop = false;
  for (const auto &[Owner, Arm] : A.Arms) {
    if (!(Arm & ArmLoop))
      continue;
    if (Owner == A.TestGuard)
      return true;
    InLoop = true;
  }
  const auto *If = dyn_cast<IfStmt>(A.TestGuard);
  return InLoop && If && (endsInBreak(If->getThen()) || endsInBreak(If->getElse()));
}

Runner runnerOf(ScopedAccess::RootKind K) {
  return K == ScopedAccess::Host ? Runner::Host : K == ScopedAccess::Kernel ? Runner::Kernel : Runner::DeviceFunction;
}
} // namespace

void AstRecords::build() {
  if (Built)
    return;
  Built = true;
  // Roots are contexts and threads: each is walked once, in its own Seq.
  DenseMap<const FunctionDecl *, int> RootId;
  auto Root = [&](const FunctionDecl *F) { return RootId.try_emplace(F, RootId.size()).first->second; };
  StringMap<int> ObjectId, ElementId, SegmentId, LaneBaseId;
  auto Add = [&](const ScopedAccess &A) {
    MemOp Op;
    Op.What = A.What;
    Op.Ord = A.Ord;
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
    }
    Op.Context = Root(A.Root);
    Op.Thread = Op.Context;
    Op.Seq = A.Seq;
    Op.RunBy = runnerOf(A.RootIs);
    if (A.OnlyBlock >= 0)
      Op.OnlyBlock = static_cast<int>(A.OnlyBlock);
    else if (A.RootIs == ScopedAccess::Kernel && Accesses->runsOneBlock(A.Root))
      Op.OnlyBlock = 0;
    Op.Tested = A.TestSeq.has_value();
    Op.Test = A.Test;
    Op.Spins = spins(A);
    Op.AgainstGrid = A.AgainstGrid;
    Op.GridLoop = A.GridLoop;
    Op.ThreadBelow = A.ThreadBelow > INT32_MAX ? -1 : static_cast<int>(A.ThreadBelow);
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
    // Every thread computes the same address: no index reads the thread's
    // identity, and every index is a value the file shows (as the IR front
    // end decides it from its canonical address).
    Op.FixedAddress = A.Object && !A.Object->BlockDependent && !A.Object->ThreadDependent &&
                      !A.Object->WarpSegment && StringRef(A.Object->Index).count('@') == 0;
    Ops.push_back(Op);
    AccessOf.push_back(&A);
    CallOf.push_back(nullptr);
  };
  for (const ScopedAccess &A : Accesses->accesses())
    Add(A);
  for (const ScopedAccess &A : Accesses->plainAccesses())
    Add(A);
  for (const CallSite &C : Accesses->calls()) {
    MemOp Op;
    Op.What = OpKind::Call;
    if (std::optional<BarrierFunction> B = barrierOf(C)) {
      Op.What = B->What;
      Op.Ord = cuda_scope::Order::AcqRel;
      Op.S = B->S;
    }
    // A callee with no body in the unit and no builtin meaning (a function
    // another unit defines) may touch any memory; one with a body was walked,
    // or is a system header's, whose accesses the IR sees once inlined.
    Op.Opaque = Op.What == OpKind::Call && C.Callee && !C.Callee->isDefined() && C.Callee->getBuiltinID() == 0;
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

std::vector<WarpRace> AstRecords::warpRaces() {
  build();
  return cuda_scope::warpRaces(Ops, *PO);
}

std::vector<Finding> AstRecords::findings(const EngineOptions &Opts,
                                          function_ref<bool(const FunctionDecl *)> IsFence) {
  build();
  if (!IsFence)
    return analyse(Ops, *PO, Opts);
  std::vector<MemOp> WithFences = Ops;
  for (unsigned I = 0; I < WithFences.size(); ++I)
    if (const CallSite *C = CallOf[I])
      WithFences[I].FenceCall = IsFence(C->Callee);
  return analyse(WithFences, *PO, Opts);
}

} // namespace cuda_scope
