//===- EngineTest.cpp - the memory-model engine on hand-written records ---===//
//
// Each test writes a kernel's operations as records, as a front end would
// extract them, in one thread of program order (branches apart), and asks
// the engine: a litmus test at the level of the rules themselves.
//
//===----------------------------------------------------------------------===//
#include "model/Engine.h"
#include "gtest/gtest.h"

using namespace cuda_scope;

namespace {

/// Straight-line program order with exclusive branches: operations in
/// different arms never precede each other.
class Program : public ProgramOrder {
public:
  /// Adds an operation at the end of the walk, in arm \p Arm (0: none).
  unsigned add(MemOp Op, int Arm = 0) {
    Op.Seq = Ops.size();
    Ops.push_back(Op);
    Arms.push_back(Arm);
    return Ops.size() - 1;
  }
  bool mayPrecede(unsigned A, unsigned B) const override {
    return Ops[A].Thread == Ops[B].Thread && Ops[A].Seq < Ops[B].Seq &&
           !(Arms[A] && Arms[B] && Arms[A] != Arms[B]);
  }
  bool afterTest(unsigned A, unsigned B) const override { return Ops[A].Tested && mayPrecede(A, B); }
  bool alwaysBefore(unsigned A, unsigned B) const override { return mayPrecede(A, B) && !Arms[A]; }
  bool inCommonLoop(unsigned, unsigned) const override { return false; }

  std::vector<Finding> run(EngineOptions Opts = EngineOptions()) const { return analyse(Ops, *this, Opts); }

  std::vector<MemOp> Ops;
  std::vector<int> Arms;
};

MemOp access(OpKind K, int Object, Order O, std::optional<Scope> S = Scope::Device) {
  MemOp Op;
  Op.What = K;
  Op.Object = Object;
  Op.Element = Object; // one element per object unless a test says otherwise
  Op.Ord = O;
  Op.S = O == Order::Plain ? std::nullopt : S;
  Op.Home = ObjectHome::Global;
  return Op;
}
MemOp plainStore(int Object) { return access(OpKind::Store, Object, Order::Plain); }
MemOp plainLoad(int Object) { return access(OpKind::Load, Object, Order::Plain); }
MemOp store(int Object, Order O, Scope S = Scope::Device) { return access(OpKind::Store, Object, O, S); }
MemOp load(int Object, Order O, Scope S = Scope::Device) {
  MemOp Op = access(OpKind::Load, Object, O, S);
  Op.Tested = true;
  return Op;
}
MemOp fence(Scope S, Order O = Order::SeqCst) {
  MemOp Op;
  Op.What = OpKind::Fence;
  Op.Ord = O;
  Op.S = S;
  return Op;
}

std::vector<Finding::Kind> kinds(const std::vector<Finding> &Fs) {
  std::vector<Finding::Kind> Out;
  for (const Finding &F : Fs)
    Out.push_back(F.What);
  return Out;
}

constexpr int Data = 0, Flag = 1;

/// if (blockIdx.x == 0) { data = 42; publish } else { receive; read data }
Program messagePassing(Order Publish, Order Receive, std::optional<Scope> FenceBefore = std::nullopt,
                       std::optional<Scope> FenceAfter = std::nullopt) {
  Program P;
  P.add(plainStore(Data), 1);
  if (FenceBefore)
    P.add(fence(*FenceBefore), 1);
  P.add(store(Flag, Publish), 1);
  P.add(load(Flag, Receive), 2);
  if (FenceAfter)
    P.add(fence(*FenceAfter), 2);
  P.add(plainLoad(Data), 2);
  return P;
}

} // namespace

TEST(Engine, RelaxedMessagePassingLacksBothHalves) {
  Program P = messagePassing(Order::Relaxed, Order::Relaxed);
  std::vector<Finding> Fs = P.run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 1u);
  EXPECT_EQ(Fs[0].Data, 0);
  EXPECT_EQ(Fs[0].Other, 2);
  EXPECT_EQ(Fs[1].At, 2u);
  EXPECT_EQ(Fs[1].Data, 3);
}

TEST(Engine, ReleaseAcquireOrDeviceFencesOrderTheMessage) {
  EXPECT_TRUE(messagePassing(Order::Release, Order::Acquire).run().empty());
  EXPECT_TRUE(messagePassing(Order::Relaxed, Order::Relaxed, Scope::Device, Scope::Device).run().empty());
  EXPECT_TRUE(messagePassing(Order::Relaxed, Order::Relaxed, Scope::System, Scope::System).run().empty());
}

TEST(Engine, BlockFencesAreTooNarrowForAnotherBlock) {
  std::vector<Finding> Fs = messagePassing(Order::Relaxed, Order::Relaxed, Scope::Block, Scope::Block).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NarrowFence, Finding::NarrowFence}));
  EXPECT_EQ(Fs[0].Needed, Scope::Device);
}

TEST(Engine, PerBlockFlagsNeedOnlyBlockScope) {
  Program P = messagePassing(Order::Relaxed, Order::Relaxed, Scope::Block, Scope::Block);
  for (MemOp &Op : P.Ops)
    if (Op.Object == Flag) {
      Op.PerBlock = true;
      Op.Segment = 7; // flags[blockIdx.x]
    }
  EXPECT_TRUE(P.run().empty());
}

TEST(Engine, OneBlockOfOneGridNeedsOnlyBlockScope) {
  Program P = messagePassing(Order::Relaxed, Order::Relaxed, Scope::Block, Scope::Block);
  for (MemOp &Op : P.Ops)
    Op.OnlyBlock = 0;
  EXPECT_TRUE(P.run().empty());
  // Block 0 publishes, block 1 receives: two blocks.
  for (unsigned I = 0; I < P.Ops.size(); ++I)
    P.Ops[I].OnlyBlock = P.Arms[I] == 1 ? 0 : 1;
  EXPECT_EQ(P.run().size(), 2u);
}

TEST(Engine, CumulativityBarrierThenOneThreadsFence) {
  // Every thread writes its element, __syncthreads(), then one thread fences
  // and sets the flag: the fence orders the whole block's writes.
  Program P;
  P.add(plainStore(Data));
  MemOp Bar;
  Bar.What = OpKind::BlockBarrier;
  Bar.Ord = Order::AcqRel;
  Bar.S = Scope::Block;
  P.add(Bar);
  P.add(fence(Scope::Device), 1);
  P.add(store(Flag, Order::Relaxed), 1);
  P.add(load(Flag, Order::Relaxed), 2);
  P.add(fence(Scope::Device), 2);
  P.add(plainLoad(Data), 2);
  EXPECT_TRUE(P.run().empty());
}

TEST(Engine, ReadingBackOwnWriteIsNoReceive) {
  Program P;
  P.add(plainStore(Data));
  P.add(load(Flag, Order::Relaxed));
  P.add(plainLoad(Data)); // the element this thread wrote
  P.add(store(Flag, Order::Release), 3);
  EXPECT_TRUE(P.run().empty());
}

TEST(Engine, ScopeMismatchAndInsufficient) {
  Program P;
  P.add(store(Flag, Order::Release, Scope::Block));
  P.add(load(Flag, Order::Acquire, Scope::Device));
  std::vector<Finding> Fs = P.run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::ScopeMismatch}));
  EXPECT_EQ(Fs[0].At, 0u);
  EXPECT_EQ(Fs[0].Other, 1);

  Program Q;
  Q.add(access(OpKind::RMW, Flag, Order::Relaxed, Scope::Block));
  EXPECT_EQ(kinds(Q.run()), (std::vector<Finding::Kind>{Finding::ScopeInsufficient}));
  // Per block, or in shared memory, block scope includes every accessor.
  Q.Ops[0].PerBlock = true;
  Q.Ops[0].Segment = 3;
  EXPECT_TRUE(Q.run().empty());
  Q.Ops[0].PerBlock = false;
  Q.Ops[0].Segment = -1;
  Q.Ops[0].Home = ObjectHome::Shared;
  EXPECT_TRUE(Q.run().empty());
}

TEST(Engine, AccessesOfDifferentKernelsAreConcurrentOnlyAcrossKernels) {
  Program P;
  MemOp A = store(Flag, Order::Release, Scope::Block);
  MemOp B = load(Flag, Order::Acquire, Scope::Device);
  B.Context = 1;
  B.Thread = 1;
  P.add(A);
  P.add(B);
  EXPECT_EQ(kinds(P.run()), (std::vector<Finding::Kind>{Finding::ScopeInsufficient}));
  EngineOptions Across;
  Across.AcrossKernels = true;
  Across.Rules = EngineOptions::Scopes;
  std::vector<Finding> Fs = P.run(Across);
  EXPECT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::ScopeMismatch, Finding::ScopeInsufficient}));
}

TEST(Engine, CountingOperationsByName) {
  for (const char *Name : {"atomicAdd", "atomicAdd_block", "atomicSub_system", "atomicInc", "atomicDec",
                           "atomic_ref::fetch_add", "atomic::fetch_sub", "atomic_ref::operator++",
                           "atomic::operator-=", "__nv_atomic_fetch_add", "__scoped_atomic_add_fetch",
                           "atom.add.relaxed.gpu.u32", "atom.global.inc.u32", "red.add.release.gpu.s32",
                           "atomicrmw add", "atomicrmw uinc_wrap", "llvm.nvvm.atomic.add.gen.i.cta.i32.p0"})
    EXPECT_TRUE(countsArrivals(Name)) << Name;
  for (const char *Name : {"atomicCAS", "atomicExch", "atomicMax", "atomicOr", "atomic_ref::exchange",
                           "atomic_ref::compare_exchange_strong", "atom.cas.b32", "atom.exch.b32",
                           "atomicrmw xchg", "atomic_ref::load", "atomic_ref::operator="})
    EXPECT_FALSE(countsArrivals(Name)) << Name;
}

TEST(Engine, AddingNothingCountsNothing) {
  // atomicAdd(p, 0) reads the word: a barrier's wait on its arrivals is a receive, not a claim.
  for (const char *Name : {"atomicAdd", "atomic_ref::fetch_add", "atomic::fetch_sub", "atomic::operator+=",
                           "__nv_atomic_fetch_add", "atom.add.relaxed.gpu.u32", "atomicrmw add"}) {
    EXPECT_FALSE(countsArrivals(Name, 0)) << Name;
    EXPECT_TRUE(countsArrivals(Name, 1)) << Name;
    EXPECT_TRUE(countsArrivals(Name, -1)) << Name;
    EXPECT_TRUE(countsArrivals(Name, std::nullopt)) << Name;
  }
  // An increment's operand is its limit: it counts whatever the limit is.
  for (const char *Name : {"atomicInc", "atomicDec", "atom.global.inc.u32", "atomicrmw uinc_wrap"})
    EXPECT_TRUE(countsArrivals(Name, 0)) << Name;
  EXPECT_TRUE(countsArrivals("atomic_ref::operator++", 0));
  EXPECT_FALSE(countsArrivals("atomicExch", 1));
}
