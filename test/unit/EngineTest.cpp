//===- EngineTest.cpp - the memory-model engine on hand-written records ---===//
//
// Each test writes a kernel's operations as records, as a front end would
// extract them, in one thread of program order (branches apart), and asks
// the engine: a litmus test at the level of the rules themselves.
//
//===----------------------------------------------------------------------===//
#include "model/Engine.h"
#include "model/Hierarchy.h"
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
  bool inCommonLoop(unsigned A, unsigned B) const override {
    return Looped && Ops[A].Thread == Ops[B].Thread;
  }
  bool inSpinLoop(unsigned A, unsigned B) const override {
    return SpinLoopHoldsAll ? inCommonLoop(A, B) : false;
  }
  bool blocksApart(unsigned A, unsigned B) const override {
    return ArmsByBlock && Arms[A] && Arms[B] && Arms[A] != Arms[B];
  }

  std::vector<Finding> run(EngineOptions Opts = EngineOptions()) const { return analyse(Ops, *this, Opts); }

  std::vector<MemOp> Ops;
  std::vector<int> Arms;
  /// Every thread's operations sit in one loop (a kernel's rounds).
  bool Looped = false;
  /// That loop is the spins' own (false: a loop around them, which runs what
  /// follows a spin only once it is left).
  bool SpinLoopHoldsAll = true;
  /// The arms are chosen alike by a block's threads (if (blockIdx.x < n)).
  bool ArmsByBlock = false;
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

// The block a ticket elects is one block, as block 0 is: the same draw's
// election for every operation, or nothing.
TEST(Engine, TheBlockATicketElectsIsOneBlock) {
  Program P = messagePassing(Order::Relaxed, Order::Relaxed, Scope::Block, Scope::Block);
  for (MemOp &Op : P.Ops)
    Op.ElectedBy = 3;
  EXPECT_TRUE(P.run().empty());
  // Two draws elect two blocks, which may differ.
  for (unsigned I = 0; I < P.Ops.size(); ++I)
    P.Ops[I].ElectedBy = P.Arms[I] == 1 ? 3 : 4;
  EXPECT_EQ(P.run().size(), 2u);
  // One side elected, the other run by every block.
  for (unsigned I = 0; I < P.Ops.size(); ++I)
    P.Ops[I].ElectedBy = P.Arms[I] == 1 ? 3 : -1;
  EXPECT_EQ(P.run().size(), 2u);
}

TEST(Engine, WhatOnlyAnotherBlockWroteIsNotPublishedByThisBlock) {
  // if (blockIdx.x == 0) { data = 42; atomicExch(flag, 1); }
  // if (blockIdx.x == 1) { while (atomicCAS(flag, 1, 1) == 0) {} use(data); }
  // Two ifs one after the other, so the walk's order puts block 0's store
  // before block 1's compare-and-swap; but no thread runs both, and block 1
  // wrote nothing before its read-modify-write: only the receive lacks an
  // acquire.
  Program P;
  MemOp D = plainStore(Data), Pub = access(OpKind::RMW, Flag, Order::Relaxed);
  D.OnlyBlock = Pub.OnlyBlock = 0;
  MemOp Rc = access(OpKind::RMW, Flag, Order::Relaxed), Use = plainLoad(Data);
  Rc.Tested = Rc.Spins = true;
  Rc.OnlyBlock = Use.OnlyBlock = 1;
  P.add(D);
  unsigned PubAt = P.add(Pub);
  unsigned RcAt = P.add(Rc);
  P.add(Use);
  std::vector<Finding> Fs = P.run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, PubAt);
  EXPECT_EQ(Fs[1].At, RcAt);
}

TEST(Engine, AResetLetsNoWaitAfterAnArrivalGoOn) {
  // data = r; count[next] = 0; count[idx].fetch_add(1, relaxed);
  // while (count[idx].load(relaxed) != goal) {} use(data)
  // Every wait follows its thread's own arrival on the word it reads, and
  // its goal is no constant: the 0 releases nobody, so only the arrival
  // publishes the data.
  auto Build = [](std::optional<ValueCondition> PassWhen) {
    Program P;
    P.add(plainStore(Data));
    MemOp Reset = plainStore(Flag);
    Reset.Element = 10;
    Reset.Stored = 0;
    P.add(Reset);
    MemOp Arrive = access(OpKind::RMW, Flag, Order::Relaxed);
    Arrive.Counts = true;
    P.add(Arrive);
    MemOp Wait = load(Flag, Order::Relaxed);
    Wait.Spins = true;
    Wait.PassWhen = PassWhen;
    P.add(Wait);
    MemOp Use = plainLoad(Data);
    Use.Element = 11; // another block's element, not the thread's own write
    P.add(Use);
    return P;
  };
  std::vector<Finding> Fs = Build(std::nullopt).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 2u);
  // A wait for 0 (while (count != 0)) is let go by the reset: it publishes too.
  Fs = Build(ValueCondition{Comparison::EQ, 0}).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoRelease, Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 1u);
}

TEST(Engine, AWordPastTheDataIsALocationOfItsOwn) {
  // partials[i + n * blockIdx.x] = ...; atomicAdd(scratch + n * gridDim.x, 1)
  // on one buffer: the ticket's address is the same for every thread, the
  // partials' addresses are the threads' own, so the ticket is a word apart.
  std::vector<MemOp> Ops;
  MemOp Partial = plainStore(Data);
  Partial.Element = 1;
  MemOp Ticket = access(OpKind::RMW, Data, Order::Relaxed);
  Ticket.Element = 2;
  Ticket.FixedAddress = true;
  MemOp Reset = plainStore(Data); // scratch[n * gridDim.x] = 0: the ticket's own word
  Reset.Element = 2;
  Reset.FixedAddress = true;
  Ops = {Partial, Ticket, Reset};
  std::vector<MemOp> Split = separateWords(Ops);
  EXPECT_EQ(Split[0].Object, Data);
  EXPECT_NE(Split[1].Object, Data);
  EXPECT_EQ(Split[2].Object, Split[1].Object);
  // An atomic at an address the threads compute apart (flags[blockIdx.x]
  // beside flags[0]): the words may be the same location; one object.
  MemOp Apart = access(OpKind::RMW, Data, Order::Relaxed);
  Apart.Element = 3;
  Ops.push_back(Apart);
  for (const MemOp &O : separateWords(Ops))
    EXPECT_EQ(O.Object, Data);
  // No plain access apart from the word: nothing to separate.
  Ops = {Ticket, Reset};
  for (const MemOp &O : separateWords(Ops))
    EXPECT_EQ(O.Object, Data);
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

TEST(Engine, OneThreadsReleaseIsNotTheOtherThreads) {
  // Every thread writes its own element (data[threadIdx.x]) and fences; only
  // thread 0 (tid < 1) releases the flag, with no barrier between: the other
  // threads' writes are not thread 0's to release. The receiving side alike:
  // thread 0 acquires, every thread reads its element, with no barrier.
  auto Run = [](bool BarrierAfterWrites, bool BarrierAfterWait) {
    Program P;
    MemOp Write = plainStore(Data);
    Write.ThreadApart = true;
    P.add(Write, 1);
    P.add(fence(Scope::Device), 1);
    MemOp Bar;
    Bar.What = OpKind::BlockBarrier;
    Bar.Ord = Order::AcqRel;
    Bar.S = Scope::Block;
    if (BarrierAfterWrites)
      P.add(Bar, 1);
    MemOp Publish = store(Flag, Order::Release);
    Publish.ThreadBelow = 1;
    P.add(Publish, 1);
    MemOp Wait = load(Flag, Order::Acquire);
    Wait.ThreadBelow = 1;
    P.add(Wait, 2);
    if (BarrierAfterWait)
      P.add(Bar, 2);
    MemOp Read = plainLoad(Data);
    Read.ThreadApart = true;
    P.add(Read, 2);
    return P.run();
  };
  std::vector<Finding> Fs = Run(false, false);
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoAcquire}));
  EXPECT_TRUE(Fs[0].ByOthers && Fs[1].ByOthers);
  EXPECT_EQ(Fs[0].Data, 0);
  EXPECT_TRUE(Run(true, true).empty());
  // One address every thread writes (partial[blockIdx.x]): thread 0 writes it too.
  Program Same;
  Same.add(plainStore(Data), 1);
  Same.add(fence(Scope::Device), 1);
  MemOp Publish = store(Flag, Order::Release);
  Publish.ThreadBelow = 1;
  Same.add(Publish, 1);
  Same.add(load(Flag, Order::Acquire), 2);
  Same.add(plainLoad(Data), 2);
  EXPECT_TRUE(Same.run().empty());
}

TEST(Engine, OtherThreadsWritingOnPathsOfTheirOwn) {
  // Ranks 0-14 of each 16-thread tile write their element (arm 1), rank 15
  // publishes (arm 3): -O2 makes the two branches on the rank separate
  // paths, so no write precedes the publish in any one thread, and the
  // writers are all other threads. Only a barrier between would order them.
  auto Run = [](bool Barrier) {
    Program P;
    MemOp Write = plainStore(Data);
    Write.ThreadApart = true;
    Write.ThreadBelow = 15;
    Write.RankGroup = 16;
    P.add(Write, 1);
    if (Barrier) {
      MemOp Sync;
      Sync.What = OpKind::WarpBarrier;
      Sync.Ord = Order::AcqRel;
      Sync.S = Scope::Block;
      P.add(Sync);
    }
    MemOp Publish = store(Flag, Order::Release);
    Publish.ThreadBelow = 1;
    Publish.RankGroup = 16;
    P.add(Publish, 3);
    P.add(load(Flag, Order::Acquire), 2);
    P.add(plainLoad(Data), 2);
    return P.run();
  };
  std::vector<Finding> Fs = Run(false);
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease}));
  EXPECT_TRUE(Fs[0].ByOthers);
  EXPECT_EQ(Fs[0].Data, 0);
  EXPECT_TRUE(Run(true).empty());
}

TEST(Engine, SignalsToTheTeamCarryWritesIntoItsMemory) {
  // Every thread writes into a peer GPU's memory, then signals the peers at
  // system scope and waits for them: the peers read what was written after
  // they pass the barrier, outside this kernel. Only a release before the
  // signal carries the writes; writes into this GPU's own memory need none.
  constexpr int Inbox = 2;
  auto Run = [](bool PeerData, std::optional<Order> Fence, bool Wait) {
    Program P;
    MemOp Write = plainStore(Data);
    Write.Peer = PeerData;
    P.add(Write);
    if (Fence)
      P.add(fence(Scope::System, *Fence));
    MemOp Signal = store(Flag, Order::Relaxed, Scope::System);
    Signal.Peer = true;
    P.add(Signal);
    if (Wait) {
      MemOp Spin = load(Inbox, Order::Relaxed, Scope::System);
      Spin.Spins = true;
      P.add(Spin);
    }
    return P.run();
  };
  std::vector<Finding> Fs = Run(true, std::nullopt, true);
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease}));
  EXPECT_TRUE(Fs[0].Peer);
  EXPECT_EQ(Fs[0].At, 1u);
  EXPECT_EQ(Fs[0].Data, 0);
  EXPECT_TRUE(Run(true, Order::Release, true).empty());
  EXPECT_TRUE(Run(false, std::nullopt, true).empty());
  // No wait: the kernel does not synchronize with the peers at all.
  EXPECT_TRUE(Run(true, std::nullopt, false).empty());
}

TEST(Engine, WaitsForTheTeamAcquireWhatIsReadFromItsMemory) {
  // The kernel signals the peers and waits for them, then reads a peer's
  // memory, which the peer wrote before it signalled (before its kernel
  // began, perhaps): the wait must acquire. A loop that acquires in one of
  // its reads (the inbox, beside a relaxed abort flag) is an acquiring wait.
  constexpr int Inbox = 2, Abort = 3;
  auto Run = [](Order WaitOrder, bool AbortFlag, bool Signals) {
    Program P;
    P.Looped = true;
    MemOp Signal = store(Flag, Order::Relaxed, Scope::System);
    Signal.Peer = Signals;
    P.add(Signal);
    MemOp Spin = load(Inbox, WaitOrder, Scope::System);
    Spin.Spins = true;
    P.add(Spin);
    if (AbortFlag) {
      MemOp Poll = load(Abort, Order::Relaxed, Scope::System);
      Poll.Spins = true;
      P.add(Poll);
    }
    MemOp Read = plainLoad(Data);
    Read.Peer = true;
    P.add(Read);
    return P.run();
  };
  std::vector<Finding> Fs = Run(Order::Relaxed, false, true);
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_TRUE(Fs[0].Peer);
  EXPECT_EQ(Fs[0].At, 1u);
  EXPECT_EQ(Fs[0].Data, 2);
  // One loop, one finding: at its first read.
  Fs = Run(Order::Relaxed, true, true);
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 1u);
  EXPECT_EQ(Fs[0].Data, 3);
  EXPECT_TRUE(Run(Order::Acquire, true, true).empty());
  // A kernel that signals no peer waits for someone else.
  EXPECT_TRUE(Run(Order::Relaxed, false, false).empty());
  // So does a wait whose thread last signalled outside the team: a slot
  // claimed in the host proxy's queue, then a wait for its credit.
  {
    Program P;
    P.Looped = true;
    MemOp Signal = store(Flag, Order::Relaxed, Scope::System);
    Signal.Peer = true;
    P.add(Signal);
    P.add(access(OpKind::RMW, Abort, Order::Relaxed, Scope::System));
    MemOp Credit = load(Inbox, Order::Relaxed, Scope::System);
    Credit.Spins = true;
    P.add(Credit);
    MemOp Write = plainStore(Data);
    Write.Peer = true;
    P.add(Write);
    EXPECT_TRUE(P.run().empty());
  }
  // A write into the peer's memory after the wait is not ordered after the
  // peer's earlier accesses either.
  Program W;
  MemOp Signal = store(Flag, Order::Relaxed, Scope::System);
  Signal.Peer = true;
  W.add(Signal);
  MemOp Spin = load(Inbox, Order::Relaxed, Scope::System);
  Spin.Spins = true;
  W.add(Spin);
  MemOp Write = plainStore(Data);
  Write.Peer = true;
  W.add(Write);
  Fs = W.run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_TRUE(Fs[0].WriteWrite);
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

/// Bins every thread adds to (atomicAdd as a statement), then a ticket; the
/// last block reads the bins.
Program binsThenTicket(bool ValueUsed, std::optional<Scope> FenceAfter) {
  constexpr int Bins = 0, Ticket = 1;
  Program P;
  MemOp Add = access(OpKind::RMW, Bins, Order::Relaxed);
  Add.Counts = true;
  Add.ValueUnused = !ValueUsed;
  Add.Element = 10; // the bin of this thread's value, not the one read
  P.add(Add);
  P.add(fence(Scope::Device));
  MemOp Take = access(OpKind::RMW, Ticket, Order::Relaxed);
  Take.Counts = true;
  Take.Tested = true;
  Take.Test = ValueTest::Equality;
  P.add(Take);
  if (FenceAfter)
    P.add(fence(*FenceAfter));
  P.add(plainLoad(Bins));
  return P;
}

TEST(Engine, ReductionsWriteDataNotFlags) {
  // What the additions write is data: the last block needs an acquire.
  std::vector<Finding> Fs = binsThenTicket(/*ValueUsed=*/false, std::nullopt).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 2u);
  EXPECT_EQ(Fs[0].Data, 3);
  EXPECT_TRUE(binsThenTicket(false, Scope::Device).run().empty());
  // An addition whose old value the thread uses (a slot claimed) is no
  // reduction: the bins are then an object shared on purpose, not data.
  for (const Finding &F : binsThenTicket(/*ValueUsed=*/true, std::nullopt).run())
    EXPECT_NE(F.Data, 3);
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

// The grid barrier rule's waits (model/Hierarchy.h, gridWaits).
namespace {
MemOp arrive(int Object) {
  MemOp Op = access(OpKind::RMW, Object, Order::Relaxed);
  Op.Counts = true;
  return Op;
}
MemOp spin(int Object, bool AgainstGrid) {
  MemOp Op = access(OpKind::Load, Object, Order::Relaxed);
  Op.Tested = Op.Spins = true;
  Op.AgainstGrid = AgainstGrid;
  return Op;
}
} // namespace

TEST(GridWaits, CountingBarrier) {
  Program P;
  unsigned A = P.add(arrive(0));
  unsigned W = P.add(spin(0, true));
  auto Waits = gridWaits(P.Ops, P);
  ASSERT_EQ(Waits.size(), 1u);
  EXPECT_EQ(Waits[0].Wait, W);
  EXPECT_EQ(Waits[0].Arrival, A);
}

TEST(GridWaits, NotAWaitOfTheGrid) {
  // Compared with something other than the grid's size: a count the caller chose.
  {
    Program P;
    P.add(arrive(0));
    P.add(spin(0, false));
    EXPECT_TRUE(gridWaits(P.Ops, P).empty());
  }
  // Only block 0 waits: the others arrive and leave.
  {
    Program P;
    P.add(arrive(0));
    MemOp S = spin(0, true);
    S.OnlyBlock = 0;
    P.add(S);
    EXPECT_TRUE(gridWaits(P.Ops, P).empty());
  }
  // A cursor that counts in its loop is work, not a wait.
  {
    Program P;
    MemOp C = arrive(0);
    C.Tested = C.Spins = C.AgainstGrid = true;
    P.add(C);
    EXPECT_TRUE(gridWaits(P.Ops, P).empty());
  }
  // The spin before the arrival, or in another kernel.
  {
    Program P;
    P.add(spin(0, true));
    MemOp A = arrive(0);
    P.add(A);
    MemOp Other = arrive(0);
    Other.Thread = 1;
    P.add(Other);
    EXPECT_TRUE(gridWaits(P.Ops, P).empty());
  }
  // Shared memory is one block's: its threads' count never involves the grid.
  {
    Program P;
    MemOp A = arrive(0), S = spin(0, true);
    A.Home = S.Home = ObjectHome::Shared;
    P.add(A);
    P.add(S);
    EXPECT_TRUE(gridWaits(P.Ops, P).empty());
  }
}

// A counting barrier reused each round on the same goal (reusedGridBarriers).
TEST(GridWaits, ReusedOnTheSameGoal) {
  Program P;
  P.Looped = true;
  unsigned A = P.add(arrive(0));
  unsigned W = P.add(spin(0, true));
  auto Reused = reusedGridBarriers(P.Ops, P, gridWaits(P.Ops, P));
  ASSERT_EQ(Reused.size(), 1u);
  EXPECT_EQ(Reused[0].Wait, W);
  EXPECT_EQ(Reused[0].Again, A);
}

TEST(GridWaits, NotReused) {
  // Used once.
  {
    Program P;
    P.add(arrive(0));
    P.add(spin(0, true));
    EXPECT_TRUE(reusedGridBarriers(P.Ops, P, gridWaits(P.Ops, P)).empty());
  }
  // A goal that grows with the round, or comes from the ticket.
  {
    Program P;
    P.Looped = true;
    P.add(arrive(0));
    MemOp S = spin(0, true);
    S.GoalVaries = true;
    P.add(S);
    EXPECT_TRUE(reusedGridBarriers(P.Ops, P, gridWaits(P.Ops, P)).empty());
  }
  // A count something resets, in any thread: another protocol.
  {
    Program P;
    P.Looped = true;
    P.add(arrive(0));
    P.add(spin(0, true));
    MemOp Reset = access(OpKind::Store, 0, Order::Relaxed);
    Reset.Thread = 1;
    P.add(Reset);
    EXPECT_TRUE(reusedGridBarriers(P.Ops, P, gridWaits(P.Ops, P)).empty());
  }
}

TEST(GridWaits, LastArrivalFlipsWhatOthersWaitOn) {
  Program P;
  MemOp Ticket = arrive(0);
  Ticket.Tested = Ticket.AgainstGrid = true; // ticket == gridDim.x - 1
  unsigned A = P.add(Ticket);
  P.add(plainStore(1), 1); // the last block flips the sense
  unsigned W = P.add(spin(1, false), 2);
  auto Waits = gridWaits(P.Ops, P);
  ASSERT_EQ(Waits.size(), 1u);
  EXPECT_EQ(Waits[0].Wait, W);
  EXPECT_EQ(Waits[0].Arrival, A);
  // With no write of what the others wait on after the ticket's test, nobody releases them here.
  Program Q;
  Q.add(Ticket);
  Q.add(spin(1, false));
  EXPECT_TRUE(gridWaits(Q.Ops, Q).empty());
}

TEST(GridWaits, LaunchesPastResidency) {
  KernelLaunch Input{"<<<...>>>", "a.cu:9", LaunchForm::Plain, GridSize::Input, "n"};
  KernelLaunch Bounded{"<<<...>>>", "a.cu:10", LaunchForm::Plain, GridSize::Residency, ""};
  KernelLaunch Fixed{"<<<...>>>", "a.cu:11", LaunchForm::Plain, GridSize::Unknown, ""};
  KernelLaunch Coop{"cudaLaunchCooperativeKernel", "a.cu:12", LaunchForm::Cooperative, GridSize::Input, "n"};
  EXPECT_EQ(launchBeyondResidency({Bounded, Fixed, Coop}), std::nullopt);
  EXPECT_EQ(launchBeyondResidency({Bounded, Input}), 1u);
  std::string M = gridBarrierMessage("step", "a.cu:4", Input);
  EXPECT_NE(M.find("kernel 'step' waits here until every block of its grid has arrived (arrival at a.cu:4)"),
            std::string::npos);
  EXPECT_NE(M.find("launched with <<<...>>> at a.cu:9 on a grid that grows with 'n'"), std::string::npos);
  EXPECT_EQ(residencyName("cudaOccupancyMaxActiveBlocksPerMultiprocessor"), ResidencyName::Api);
  EXPECT_EQ(residencyName("multiProcessorCount"), ResidencyName::Field);
  EXPECT_EQ(residencyName("cudaDevAttrMultiProcessorCount"), ResidencyName::Enumerator);
  EXPECT_EQ(residencyName("cudaDevAttrMaxThreadsPerBlock"), std::nullopt);
  for (GridSize G : {GridSize::Unknown, GridSize::Residency, GridSize::Input})
    EXPECT_EQ(gridSizeFromName(gridSizeName(G)), G);
  EXPECT_EQ(gridSizeFromName("huge"), std::nullopt);
  EXPECT_TRUE(isGridSizeCall("cooperative_groups::grid_group::num_blocks"));
  EXPECT_FALSE(isGridSizeCall("cooperative_groups::thread_block::size"));
}

TEST(GridWaits, MasterCollectsThenReleases) {
  // Block 0 spins on every block's arrival flag (object 0) in a loop over the grid, then writes the
  // go flags (object 1); every other block writes its arrival and spins on its go flag.
  Program P;
  MemOp Collect = spin(0, false);
  Collect.GridLoop = true;
  Collect.OnlyBlock = 0;
  P.add(Collect, 1);
  MemOp Go = plainStore(1);
  Go.OnlyBlock = 0;
  P.add(Go, 1);
  unsigned A = P.add(plainStore(0), 2);
  unsigned W = P.add(spin(1, false), 2);
  auto Waits = gridWaits(P.Ops, P);
  ASSERT_EQ(Waits.size(), 1u);
  EXPECT_EQ(Waits[0].Wait, W);
  EXPECT_EQ(Waits[0].Arrival, A);
  // A window of predecessors (a look-back), not a loop over the grid: no wait of the grid.
  Program Q = P;
  Q.Ops[0].GridLoop = false;
  EXPECT_TRUE(gridWaits(Q.Ops, Q).empty());
}

// The warp race rule (model/Hierarchy.h, warpRaces).
namespace {
MemOp lane(OpKind K, int Offset, int Below = -1) {
  MemOp Op = access(K, 0, Order::Volatile);
  Op.Home = ObjectHome::Shared;
  Op.HasLaneOffset = true;
  Op.LaneOffset = Offset;
  Op.ThreadBelow = Below;
  return Op;
}
MemOp warpBarrier() {
  MemOp Op;
  Op.What = OpKind::WarpBarrier;
  Op.Ord = Order::AcqRel;
  return Op;
}
} // namespace

TEST(WarpRaces, ReductionStep) {
  // s[tid] = ...; then s[tid] += s[tid + 16] in the first warp.
  Program P;
  unsigned W = P.add(lane(OpKind::Store, 0, 32));
  unsigned R = P.add(lane(OpKind::Load, 16, 32));
  auto Races = warpRaces(P.Ops, P);
  ASSERT_EQ(Races.size(), 1u);
  EXPECT_EQ(Races[0].At, R);
  EXPECT_EQ(Races[0].Other, W);
  EXPECT_EQ(Races[0].Lanes, 16);
  EXPECT_NE(warpRaceMessage(false, true, 16, "a.cu:3").find("lane + 16 runs it"), std::string::npos);
}

TEST(WarpRaces, Silent) {
  // Ordered by __syncwarp().
  {
    Program P;
    P.add(lane(OpKind::Store, 0, 32));
    P.add(warpBarrier());
    P.add(lane(OpKind::Load, 16, 32));
    EXPECT_TRUE(warpRaces(P.Ops, P).empty());
  }
  // A warp apart, or the same lane, or two reads.
  for (auto [Offset, Kind] : {std::pair{32, OpKind::Load}, std::pair{0, OpKind::Load}, std::pair{16, OpKind::Load}}) {
    Program P;
    P.add(lane(Offset == 16 ? OpKind::Load : OpKind::Store, 0, 64));
    P.add(lane(Kind, Offset, 64));
    EXPECT_TRUE(warpRaces(P.Ops, P).empty()) << Offset;
  }
  // The lanes that own what is read do not run the write (tid < 16 reads 16-31).
  {
    Program P;
    P.add(lane(OpKind::Store, 0, 16));
    P.add(lane(OpKind::Load, 16, 16));
    EXPECT_TRUE(warpRaces(P.Ops, P).empty());
  }
  // Atomic, or not shared memory, or with no lane offset.
  {
    Program P;
    MemOp A = lane(OpKind::Store, 0, 32);
    A.Ord = Order::Relaxed;
    P.add(A);
    P.add(lane(OpKind::Load, 1, 32));
    MemOp G = lane(OpKind::Store, 0, 32);
    G.Home = ObjectHome::Global;
    G.Object = 1;
    P.add(G);
    MemOp G2 = lane(OpKind::Load, 1, 32);
    G2.Home = ObjectHome::Global;
    G2.Object = 1;
    P.add(G2);
    EXPECT_TRUE(warpRaces(P.Ops, P).empty());
  }
}

TEST(Engine, ComparisonsTestForAValueOrAgainstABound) {
  EXPECT_EQ(comparisonTest(Comparison::EQ, false, std::nullopt), ValueTest::Equality);
  EXPECT_EQ(comparisonTest(Comparison::NE, true, 0), ValueTest::Equality);
  EXPECT_EQ(comparisonTest(Comparison::LT, false, std::nullopt), ValueTest::Bound);
  EXPECT_EQ(comparisonTest(Comparison::GE, true, 16), ValueTest::Bound);
  // Whether an unsigned value is zero, however it is written: a truth test.
  EXPECT_EQ(comparisonTest(Comparison::GT, true, 0), ValueTest::Equality);
  EXPECT_EQ(comparisonTest(Comparison::GE, true, 1), ValueTest::Equality);
  EXPECT_EQ(comparisonTest(Comparison::LT, true, 1), ValueTest::Equality);
  EXPECT_EQ(comparisonTest(Comparison::LE, true, 0), ValueTest::Equality);
  // A signed value above zero is a bound: it may be negative.
  EXPECT_EQ(comparisonTest(Comparison::GT, false, 0), ValueTest::Bound);
}

TEST(Engine, UpdatesThatChangeNothingAreReads) {
  EXPECT_TRUE(writesNothing("atomicXor", 0));
  EXPECT_TRUE(writesNothing("atomicOr", 0));
  EXPECT_TRUE(writesNothing("atomicAdd", 0));
  EXPECT_TRUE(writesNothing("atomicrmw and", -1));
  EXPECT_TRUE(writesNothing("atom.or.relaxed.gpu.b32", 0));
  EXPECT_TRUE(writesNothing("operator|=", 0));
  EXPECT_FALSE(writesNothing("atomicXor", 1));
  EXPECT_FALSE(writesNothing("atomicAnd", 0));
  EXPECT_FALSE(writesNothing("atomicExch", 0)); // stores 0
  EXPECT_FALSE(writesNothing("atomicCAS", 0));
  EXPECT_FALSE(writesNothing("atomicInc", 0)); // a limit, not an operand: it counts
  EXPECT_FALSE(writesNothing("atomicOr", std::nullopt));
  // The poll is then no publish: a relaxed poll by update, then a read.
  Program P;
  P.add(plainStore(Data), 1);
  P.add(store(Flag, Order::Relaxed), 1);
  MemOp Poll = access(OpKind::RMW, Flag, Order::Relaxed);
  Poll.Tested = true;
  Poll.Test = ValueTest::Equality;
  Poll.WritesNothing = true;
  P.add(Poll, 2);
  P.add(plainLoad(Data), 2);
  std::vector<Finding> Fs = P.run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 1u);
  EXPECT_EQ(Fs[1].At, 2u);
}

namespace {
/// The wide-scope rule alone.
std::vector<Finding> wide(const Program &P) {
  EngineOptions Opts;
  Opts.Rules = EngineOptions::Wide;
  return P.run(Opts);
}
MemOp shared(MemOp Op) {
  Op.Home = ObjectHome::Shared;
  return Op;
}
} // namespace

TEST(Engine, OrderingSharedAtomicsNeedOnlyBlockScope) {
  Program P;
  P.add(shared(plainStore(Data)));
  P.add(shared(store(Flag, Order::Release, Scope::Device)));
  P.add(shared(load(Flag, Order::Acquire, Scope::System)));
  P.add(shared(store(Flag, Order::Release, Scope::Block)));  // already block scope
  P.add(shared(store(Flag, Order::Relaxed, Scope::System))); // relaxed: no cost to save
  std::vector<Finding> Fs = wide(P);
  ASSERT_EQ(Fs.size(), 2u);
  EXPECT_EQ(Fs[0].What, Finding::ScopeWider);
  EXPECT_EQ(Fs[0].At, 1u);
  EXPECT_EQ(Fs[0].Needed, Scope::Block);
  EXPECT_EQ(Fs[1].At, 2u);
  // Global memory: other blocks see it.
  Program G;
  G.add(store(Flag, Order::Release, Scope::Device));
  EXPECT_TRUE(wide(G).empty());
  // Not asked for: nothing.
  EXPECT_TRUE(P.run().empty());
}

TEST(Engine, AFenceNeedsOnlyBlockScopeWhereAllMemoryIsShared) {
  Program P;
  P.add(shared(plainStore(Data)));
  P.add(fence(Scope::Device));
  P.add(shared(store(Flag, Order::Relaxed, Scope::Block)));
  EXPECT_EQ(kinds(wide(P)), std::vector<Finding::Kind>{Finding::ScopeWider});
  // Global memory anywhere in the code: the fence orders it too.
  Program G = P;
  G.add(plainStore(2));
  EXPECT_TRUE(wide(G).empty());
  // A call whose callee is not shown may touch any memory; one that is shown adds nothing.
  MemOp Call;
  Call.What = OpKind::Call;
  Program Shown = P;
  Shown.add(Call);
  EXPECT_EQ(wide(Shown).size(), 1u);
  Call.Opaque = true;
  Program Hidden = P;
  Hidden.add(Call);
  EXPECT_TRUE(wide(Hidden).empty());
  // A cluster can reach the block's shared memory.
  MemOp Arrive;
  Arrive.What = OpKind::ClusterArrive;
  Program Cluster = P;
  Cluster.add(Arrive);
  EXPECT_TRUE(wide(Cluster).empty());
}

TEST(Engine, UpdateFormsAndValues) {
  EXPECT_EQ(updateForm("atomicCAS"), UpdateForm::ComparesAndSwaps);
  EXPECT_EQ(updateForm("cmpxchg"), UpdateForm::ComparesAndSwaps);
  EXPECT_EQ(updateForm("atom.cas.b32"), UpdateForm::ComparesAndSwaps);
  EXPECT_EQ(updateForm("atomic_ref::compare_exchange_strong"), UpdateForm::ComparesAndSwaps);
  EXPECT_EQ(updateForm("atomicExch"), UpdateForm::Exchanges);
  EXPECT_EQ(updateForm("atomicrmw xchg"), UpdateForm::Exchanges);
  EXPECT_EQ(updateForm("atomic_ref::exchange"), UpdateForm::Exchanges);
  EXPECT_EQ(updateForm("atomicAdd"), UpdateForm::Combines);
  EXPECT_EQ(updateForm("operator++"), UpdateForm::Combines);
  // One 32-bit value read signed by one front end and unsigned by the other.
  EXPECT_TRUE(sameValue(-1, 0xffffffffLL));
  EXPECT_FALSE(sameValue(1, 0x100000001LL));
  EXPECT_TRUE((ValueCondition{Comparison::EQ, 0}).holdsFor(0));
  EXPECT_FALSE((ValueCondition{Comparison::EQ, 0}).holdsFor(1));
  EXPECT_TRUE((ValueCondition{Comparison::NE, 0}).holdsFor(1));
}

TEST(Engine, ATestThePathPassedDecidesALaterOne) {
  const ValueCondition Is1{Comparison::EQ, 1}, Is2{Comparison::EQ, 2}, Not1{Comparison::NE, 1},
      Not2{Comparison::NE, 2};
  // if (mode == 1) ... if (mode == 2): never both.
  EXPECT_FALSE(consistentTests(Is1, Is2));
  EXPECT_TRUE(consistentTests(Is1, Is1));
  EXPECT_TRUE(consistentTests(Is1, Not2));
  EXPECT_FALSE(consistentTests(Is1, Not1));
  // mode != 1 leaves mode == 2 open, and closes mode == 1.
  EXPECT_TRUE(consistentTests(Not1, Is2));
  EXPECT_FALSE(consistentTests(Not1, Is1));
  EXPECT_TRUE(consistentTests(Not1, Not2));
  EXPECT_TRUE(consistentTests(Not1, Not1));
  // One 32-bit value, read signed and unsigned.
  EXPECT_FALSE(consistentTests({Comparison::EQ, -1}, {Comparison::NE, 0xffffffffLL}));
}

TEST(Engine, AWriteIsHeardOnlyByWaitersItsValueLetsGo) {
  // Data written, then a lock taken by a CAS that stores `Stores`; the waiter
  // (the same CAS in another thread) leaves its spin on 0, then reads the data.
  auto Lock = [](std::optional<int64_t> Stores, std::optional<ValueCondition> Leaves) {
    Program P;
    P.add(plainStore(Data), 1);
    MemOp Take = access(OpKind::RMW, Flag, Order::Relaxed);
    Take.Tested = true;
    Take.Test = ValueTest::Equality;
    Take.Spins = true;
    Take.PassWhen = Leaves;
    Take.Stored = Stores;
    P.add(Take);
    P.add(fence(Scope::Device), 2);
    P.add(plainLoad(Data), 2);
    return P.run();
  };
  const ValueCondition OnFree{Comparison::EQ, 0};
  // The CAS's 1 lets no waiter go: it publishes nothing.
  EXPECT_TRUE(Lock(1, OnFree).empty());
  // A value the front end does not know, or a spin it cannot read: any write may be heard.
  EXPECT_EQ(kinds(Lock(std::nullopt, OnFree)), (std::vector<Finding::Kind>{Finding::NoRelease}));
  EXPECT_EQ(kinds(Lock(1, std::nullopt)), (std::vector<Finding::Kind>{Finding::NoRelease}));
  // A waiter that leaves on 1 hears it.
  EXPECT_EQ(kinds(Lock(1, ValueCondition{Comparison::NE, 0})), (std::vector<Finding::Kind>{Finding::NoRelease}));
}

/// while (atomicCAS(lock, 0, 1) != 0) {}: a relaxed swap that stores 1 and
/// whose spin is left on 0.
MemOp lockTake() {
  MemOp Take = access(OpKind::RMW, Flag, Order::Relaxed);
  Take.Tested = true;
  Take.Test = ValueTest::Equality;
  Take.Spins = true;
  Take.PassWhen = ValueCondition{Comparison::EQ, 0};
  Take.Stored = 1;
  return Take;
}

TEST(Engine, WhatFollowsASpinInALoopAroundItRunsOnlyOnceTheSpinIsLeft) {
  // for (;;) { data = ...; while (atomicCAS(lock, 0, 1) != 0) {} __threadfence(); read data; }
  // The CAS's 1 keeps every waiter in its spin; what follows the spin is
  // reached on 0 only, whatever loop is around it.
  auto Run = [](bool SpinLoopHoldsAll) {
    Program P;
    P.Looped = true;
    P.SpinLoopHoldsAll = SpinLoopHoldsAll;
    MemOp Slot = plainStore(Data); // slots[blockIdx.x]
    Slot.Element = 10;
    P.add(Slot);
    P.add(lockTake());
    P.add(fence(Scope::Device));
    MemOp Next = plainLoad(Data); // slots[blockIdx.x + 1]
    Next.Element = 11;
    P.add(Next);
    return P.run();
  };
  // The read in the spin's own loop runs on the values the spin goes on with.
  EXPECT_EQ(kinds(Run(true)), (std::vector<Finding::Kind>{Finding::NoRelease}));
  EXPECT_TRUE(Run(false).empty());
}

TEST(Engine, AnUnlockHandsOnWhatWasWrittenBeforeTheLockWasTaken) {
  // slot = 1; while (atomicCAS(lock, 0, 1) != 0) {} read slots; atomicExch(lock, 0);
  // No publish a waiter hears comes between the slot's write and the unlock,
  // so the unlock is the write that carries it, and needs the release.
  auto Run = [](bool Fenced) {
    Program P;
    MemOp Slot = plainStore(Data); // slots[blockIdx.x]
    Slot.Element = 10;
    P.add(Slot);
    P.add(lockTake());
    if (Fenced)
      P.add(fence(Scope::Device));
    MemOp Next = plainLoad(Data); // slots[blockIdx.x + 1]
    Next.Element = 11;
    P.add(Next);
    if (Fenced)
      P.add(fence(Scope::Device));
    MemOp Give = access(OpKind::RMW, Flag, Order::Relaxed);
    Give.Stored = 0;
    P.add(Give);
    return P.run();
  };
  // Unfenced: the unlock publishes the slot with no release (and the take
  // receives it with no acquire); the swap that stores 1 publishes nothing.
  std::vector<Finding> Bare = Run(false);
  ASSERT_EQ(llvm::count_if(Bare, [](const Finding &F) { return F.What == Finding::NoRelease; }), 1);
  EXPECT_EQ(llvm::find_if(Bare, [](const Finding &F) { return F.What == Finding::NoRelease; })->Flag, 3u); // the exchange
  EXPECT_TRUE(Run(true).empty());
}

/// A block's own semaphore word, signalled with a block-scope release that
/// nothing in the kernel reads, in a kernel that spins on a word nothing in
/// it writes: the reader runs outside the kernel, outside the block.
TEST(Engine, ReleaseReadOnlyOutsideTheKernelNeedsMoreThanTheBlock) {
  constexpr int Remote = 2, Inbound = 3;
  auto Build = [&](bool Waits, bool ReadHere, Scope SignalScope) {
    Program P;
    MemOp Signal = access(OpKind::RMW, Remote, Order::Release, SignalScope);
    Signal.ValueUnused = true;
    Signal.PerBlock = true;
    Signal.Segment = 4;
    P.add(Signal);
    if (Waits) {
      MemOp Wait = load(Inbound, Order::Acquire, Scope::System);
      Wait.Spins = true;
      P.add(Wait);
    }
    if (ReadHere) {
      MemOp Read = load(Remote, Order::Acquire, Scope::Block);
      Read.PerBlock = true;
      Read.Segment = 4;
      P.add(Read);
    }
    return P;
  };
  std::vector<Finding> Fs = Build(true, false, Scope::Block).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::ScopeInsufficient}));
  EXPECT_EQ(Fs[0].At, 0u);
  EXPECT_TRUE(Fs[0].OutsideKernel);
  EXPECT_EQ(Fs[0].Needed, Scope::Device);
  // Wide enough; no wait on an outside writer (a later kernel may be the
  // reader, which the kernel's end orders); a reader in the block.
  EXPECT_TRUE(Build(true, false, Scope::System).run().empty());
  EXPECT_TRUE(Build(false, false, Scope::Block).run().empty());
  EXPECT_TRUE(Build(true, true, Scope::Block).run().empty());
}

/// A relaxed signal is no release, but made before the thread waits on a
/// word only outsiders write (a handshake: signal, then wait for the reply)
/// it is read by that outsider while the kernel runs: block scope cannot
/// include it. Made after the wait, it shows no reader then (a count).
TEST(Engine, HandshakeSignalIsReadOutsideTheKernel) {
  constexpr int Remote = 2, Inbound = 3;
  auto Build = [&](bool SignalFirst) {
    Program P;
    MemOp Signal = access(OpKind::RMW, Remote, Order::Relaxed, Scope::Block);
    Signal.ValueUnused = true;
    Signal.PerBlock = true; // the block's own word: block scope would do for the kernel itself
    Signal.Segment = 4;
    MemOp Wait = load(Inbound, Order::Relaxed, Scope::System);
    Wait.Spins = true;
    if (SignalFirst) {
      P.add(Signal);
      P.add(Wait);
    } else {
      P.add(Wait);
      P.add(Signal);
    }
    return P;
  };
  std::vector<Finding> Fs = Build(true).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::ScopeInsufficient}));
  EXPECT_EQ(Fs[0].At, 0u);
  EXPECT_TRUE(Fs[0].OutsideKernel);
  EXPECT_TRUE(Build(false).run().empty());
}

/// A kernel that writes `mine`, signals `arrivalMine`, spins on
/// `arrivalOther` and reads `other`, each element the thread's own in one
/// grid: its partner instance (the same kernel on a peer GPU) writes what it
/// reads. One flag under two names, one datum under two names.
TEST(Engine, PartnerInstanceSharesOneFlagUnderTwoNames) {
  constexpr int Mine = 0, Other = 1, ArrivalMine = 2, ArrivalOther = 3, Input = 4;
  auto Build = [&](Order Signal, Order Wait, bool ReadOtherBefore, bool ReadArrivalMine) {
    Program P;
    MemOp Write = plainStore(Mine);
    Write.ThreadPrivate = true;
    P.add(Write);
    P.add(plainLoad(Input));
    if (ReadOtherBefore)
      P.add(plainLoad(Other));
    P.add(store(ArrivalMine, Signal, Scope::System));
    if (ReadArrivalMine)
      P.add(load(ArrivalMine, Order::Relaxed, Scope::System));
    MemOp Spin = load(ArrivalOther, Wait, Scope::System);
    Spin.Spins = true;
    P.add(Spin);
    MemOp Read = plainLoad(Other);
    Read.ThreadPrivate = true;
    Read.Element = Mine; // the same index as the write
    P.add(Read);
    P.add(plainLoad(Input));
    return P;
  };
  std::vector<Finding> Fs = Build(Order::Relaxed, Order::Acquire, false, false).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoRelease}));
  EXPECT_EQ(Fs[0].At, 2u); // the signal
  Fs = Build(Order::Release, Order::Relaxed, false, false).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 3u); // the wait
  EXPECT_TRUE(Build(Order::Release, Order::Acquire, false, false).run().empty());
  // What it read before the wait was there before it; a signal word it reads
  // itself has its reader here, not in a partner: no partner shown.
  EXPECT_TRUE(Build(Order::Relaxed, Order::Relaxed, true, false).run().empty());
  EXPECT_TRUE(Build(Order::Relaxed, Order::Relaxed, false, true).run().empty());
  // A plain read in a loop (a probe of a table it was given) waits on no one.
  EXPECT_TRUE(Build(Order::Relaxed, Order::Plain, false, false).run().empty());
}

/// The partner shares one flag and one datum only where the kernel makes an
/// exchange (a write sent, then the signal, then the wait, then a read
/// received), and the flag carries that datum alone: a handshake of execution
/// before the kernel reads its own input shows no partner's write, and the
/// kernel's own words (a grid barrier's) are not the partner's to write.
TEST(Engine, PartnerNeedsAnExchangeAndCarriesItsDatumOnly) {
  constexpr int Mine = 0, Other = 1, ArrivalMine = 2, ArrivalOther = 3, Input = 4, Own = 5;
  auto Spin = [](Order O) {
    MemOp W = load(ArrivalOther, O, Scope::System);
    W.Spins = true;
    return W;
  };
  // Handshake first, relaxed; then the own input read and the partner's part
  // written; then a release signal and an acquire wait with nothing after.
  Program Handshake;
  Handshake.add(store(ArrivalMine, Order::Relaxed, Scope::System));
  Handshake.add(Spin(Order::Relaxed));
  Handshake.add(plainLoad(Input));
  Handshake.add(plainStore(Mine));
  Handshake.add(store(ArrivalMine, Order::Release, Scope::System));
  Handshake.add(Spin(Order::Acquire));
  EXPECT_TRUE(Handshake.run().empty());
  // The same with the signal at the end relaxed: the acquire that ends the
  // kernel is for the partner's writes, read after the kernel, and nothing
  // releases this instance's.
  Program EndRelaxed;
  EndRelaxed.add(store(ArrivalMine, Order::Relaxed, Scope::System));
  EndRelaxed.add(Spin(Order::Relaxed));
  EndRelaxed.add(plainLoad(Input));
  EndRelaxed.add(plainStore(Mine));
  EndRelaxed.add(store(ArrivalMine, Order::Relaxed, Scope::System));
  EndRelaxed.add(Spin(Order::Acquire));
  std::vector<Finding> Ended = EndRelaxed.run();
  ASSERT_EQ(kinds(Ended), (std::vector<Finding::Kind>{Finding::NoRelease}));
  EXPECT_EQ(Ended[0].At, 4u);
  // A relaxed wait at the end is a barrier of execution: no datum received.
  EndRelaxed.Ops[5].Ord = Order::Relaxed;
  EXPECT_TRUE(EndRelaxed.run().empty());
  // An exchange whose relaxed wait is followed by a read of the kernel's own
  // word (written before the signal) and only then by an acquire fence and
  // the read of the partner's part.
  auto Exchange = [&](bool OwnBeforeFence) {
    Program P;
    P.add(plainStore(Mine));
    MemOp SetOwn = plainStore(Own); // another element than the one read: not the thread's own write
    SetOwn.Element = 10;
    P.add(SetOwn);
    P.add(store(ArrivalMine, Order::Release, Scope::System));
    P.add(Spin(Order::Relaxed));
    if (OwnBeforeFence) {
      MemOp ReadOwn = plainLoad(Own);
      ReadOwn.Element = 11;
      P.add(ReadOwn);
    }
    P.add(fence(Scope::System));
    P.add(plainLoad(Other));
    return P;
  };
  EXPECT_TRUE(Exchange(true).run().empty());
  EXPECT_TRUE(Exchange(false).run().empty());
  // The same exchange with no fence: the partner's part is read unordered.
  Program Unfenced;
  Unfenced.add(plainStore(Mine));
  Unfenced.add(store(ArrivalMine, Order::Release, Scope::System));
  Unfenced.add(Spin(Order::Relaxed));
  Unfenced.add(plainLoad(Other));
  std::vector<Finding> Fs = Unfenced.run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 2u); // the wait
}

// A count polled on each pass of a retry loop (is the table full?), bumped
// after each insert, carries nothing to the loop's body: the body runs on the
// counts with which the loop goes on, the one read before the inserting
// thread bumped it among them. Read after the loop is left, on the value the
// poll waits for, the count does carry what was written before its bump.
TEST(Engine, PolledCountCarriesNothingToItsLoopsBody) {
  constexpr int Data = 0, Count = 1, Bit = 2;
  auto Build = [&](bool BodyInPollLoop) {
    Program P;
    P.Looped = true;
    P.SpinLoopHoldsAll = BodyInPollLoop;
    MemOp W = plainStore(Data);
    W.Thread = 0;
    P.add(W);
    MemOp F = fence(Scope::Device);
    F.Thread = 0;
    P.add(F);
    MemOp Bump = access(OpKind::RMW, Count, Order::Relaxed);
    Bump.Counts = true;
    Bump.FixedAddress = true;
    Bump.Thread = 0;
    P.add(Bump);
    MemOp Set = access(OpKind::RMW, Bit, Order::Relaxed);
    Set.Thread = 0;
    P.add(Set);
    MemOp Poll = load(Count, Order::Volatile, Scope::System);
    Poll.Spins = true;
    Poll.FixedAddress = true;
    Poll.Thread = 1;
    P.add(Poll);
    MemOp F2 = fence(Scope::Device);
    F2.Thread = 1;
    P.add(F2);
    MemOp Test = load(Bit, Order::Volatile, Scope::System);
    Test.Thread = 1;
    P.add(Test);
    MemOp R = plainLoad(Data);
    R.Thread = 1;
    P.add(R);
    return P;
  };
  std::vector<Finding> Fs = Build(true).run();
  ASSERT_EQ(kinds(Fs), (std::vector<Finding::Kind>{Finding::NoAcquire}));
  EXPECT_EQ(Fs[0].At, 6u); // the bit's read
  EXPECT_TRUE(Build(false).run().empty());
}

TEST(Engine, AReceiveIsReportedOnceWhereItsDataArrives) {
  // data = ...; if (atomicAdd(ticket, 1) + 1 == n) { wait on the ring; take a slot; read data }
  // The ticket's receive lacks an acquire and is reported; the ring's wait, whose every publish
  // runs past the ticket's test, passes nothing the ticket does not. A ring bumped before the
  // ticket is published by threads that have not drawn yet: its wait keeps its finding.
  constexpr int Ticket = 2, Ring = 3;
  auto Run = [](bool RingBeforeTicket) {
    Program P;
    MemOp Own = plainStore(Data); // data[warp]; the leader reads data[0]
    Own.Element = 10;
    Own.ThreadPrivate = true;
    P.add(Own);
    MemOp Bump = access(OpKind::RMW, Ring, Order::Relaxed);
    Bump.Counts = true;
    if (RingBeforeTicket)
      P.add(Bump);
    MemOp Draw = access(OpKind::RMW, Ticket, Order::Relaxed);
    Draw.Counts = true;
    Draw.Tested = true;
    Draw.Test = ValueTest::Equality;
    P.add(Draw);
    P.add(load(Ring, Order::Volatile, Scope::System));
    if (!RingBeforeTicket)
      P.add(Bump);
    MemOp First = plainLoad(Data);
    First.Element = 11;
    P.add(First);
    return P.run();
  };
  std::vector<Finding> After = Run(false), Before = Run(true);
  auto ReceivedAt = [](const std::vector<Finding> &Fs) {
    std::vector<unsigned> Out;
    for (const Finding &F : Fs)
      if (F.What == Finding::NoAcquire)
        Out.push_back(F.At);
    return Out;
  };
  EXPECT_EQ(ReceivedAt(After), (std::vector<unsigned>{1u}));
  EXPECT_EQ(ReceivedAt(Before), (std::vector<unsigned>{2u, 3u}));
}

TEST(Engine, ARegionNoOtherBlocksArmTouchesIsTheBlocksOwn) {
  // region = base + pitch * blockIdx.x; if (<arm 1>) { region[slot] = v; publish relaxed }
  // else { receive relaxed; read region[t] }. Where a block's threads pick the arm alike and no
  // loop takes a block through both, each block touches only its own region on its one side: no
  // message. Where the arms split a block's threads, thread 0's write is another thread's data.
  auto Run = [](bool ArmsByBlock, bool Looped) {
    Program P = messagePassing(Order::Relaxed, Order::Relaxed);
    P.Ops[0].BlockPart = P.Ops[3].BlockPart = 5;
    P.Ops[0].Element = 10;
    P.Ops[3].Element = 11;
    P.ArmsByBlock = ArmsByBlock;
    P.Looped = Looped;
    return P.run();
  };
  EXPECT_TRUE(Run(true, false).empty());
  EXPECT_EQ(kinds(Run(false, false)), (std::vector<Finding::Kind>{Finding::NoRelease, Finding::NoAcquire}));
  // Rounds that change a block's arm: the block writes its region in one and reads it in the next.
  EXPECT_FALSE(Run(true, true).empty());
}
