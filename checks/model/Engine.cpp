//===- Engine.cpp - the engine's state, its groups, and the rules in order -===//
#include "EngineImpl.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <optional>

using namespace llvm;

namespace cuda_scope {

ProgramOrder::~ProgramOrder() = default;

std::optional<Strictness> strictnessFromName(StringRef Name) {
  return StringSwitch<std::optional<Strictness>>(Name)
      .Case("evidence", Strictness::Evidence)
      .Case("wide", Strictness::Wide)
      .Default(std::nullopt);
}

ValueTest comparisonTest(Comparison C, bool Unsigned, std::optional<int64_t> Other) {
  if (C == Comparison::EQ || C == Comparison::NE)
    return ValueTest::Equality;
  if (Unsigned && Other &&
      (((C == Comparison::GT || C == Comparison::LE) && *Other == 0) ||
       ((C == Comparison::GE || C == Comparison::LT) && *Other == 1)))
    return ValueTest::Equality;
  return ValueTest::Bound;
}

/// The first word of an operation's name (lower case) that \p Is accepts,
/// with an "atomic" prefix dropped: "atom.add.relaxed.gpu.u32",
/// "__nv_atomic_fetch_add", "atomicXor". Empty for none.
static StringRef operationWord(StringRef Name, function_ref<bool(StringRef)> Is) {
  for (size_t I = 0; I < Name.size();) {
    if (!isAlpha(Name[I])) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < Name.size() && isAlpha(Name[End]))
      ++End;
    StringRef W = Name.slice(I, End);
    I = End;
    W.consume_front("atomic");
    if (Is(W))
      return W;
  }
  return StringRef();
}

bool countsArrivals(StringRef OperationName, std::optional<int64_t> Operand) {
  std::string Name = OperationName.lower();
  // An addition of nothing: the word's value stays, so the update is a read.
  // (inc and dec take a limit, not an addend: they count whatever it is.)
  auto AddsNothing = [&](StringRef W) {
    return Operand && *Operand == 0 && W != "inc" && W != "dec" && W != "uinc" && W != "udec";
  };
  if (size_t At = StringRef(Name).find("operator"); At != StringRef::npos) {
    StringRef Op = StringRef(Name).drop_front(At + strlen("operator")).trim();
    return Op == "++" || Op == "--" || ((Op == "+=" || Op == "-=") && !AddsNothing(Op));
  }
  StringRef W = operationWord(Name, [](StringRef W) {
    return W == "add" || W == "sub" || W == "inc" || W == "dec" || W == "fadd" || W == "fsub" || W == "uinc" ||
           W == "udec";
  });
  return !W.empty() && !AddsNothing(W);
}

bool drawsDistinctTickets(StringRef OperationName, std::optional<int64_t> Operand) {
  if (!countsArrivals(OperationName, Operand))
    return false;
  std::string Name = OperationName.lower();
  if (size_t At = StringRef(Name).find("operator"); At != StringRef::npos) {
    StringRef Op = StringRef(Name).drop_front(At + strlen("operator")).trim();
    return Op == "++" || Op == "--" || (Operand && *Operand != 0);
  }
  StringRef W = operationWord(Name, [](StringRef W) { return W == "inc" || W == "dec" || W == "uinc" || W == "udec"; });
  return !W.empty() || (Operand && *Operand != 0);
}

bool writesNothing(StringRef OperationName, std::optional<int64_t> Operand) {
  if (!Operand)
    return false;
  std::string Name = OperationName.lower();
  const bool Zero = *Operand == 0;
  const bool Ones = *Operand == -1 || *Operand == 0xffffffffLL;
  if (size_t At = StringRef(Name).find("operator"); At != StringRef::npos) {
    StringRef Op = StringRef(Name).drop_front(At + strlen("operator")).trim();
    return ((Op == "+=" || Op == "-=" || Op == "|=" || Op == "^=") && Zero) || (Op == "&=" && Ones);
  }
  StringRef W = operationWord(Name, [](StringRef W) {
    return W == "add" || W == "sub" || W == "fadd" || W == "fsub" || W == "or" || W == "xor" || W == "and";
  });
  return W == "and" ? Ones : !W.empty() && Zero;
}

UpdateForm updateForm(StringRef OperationName) {
  std::string Name = OperationName.lower();
  StringRef W = operationWord(Name, [](StringRef W) {
    return W == "cas" || W == "cmpxchg" || W == "compare" || W == "exch" || W == "xchg" || W == "exchange" ||
           W == "add" || W == "sub" || W == "and" || W == "or" || W == "xor" || W == "min" || W == "max" ||
           W == "inc" || W == "dec" || W == "fadd" || W == "fsub";
  });
  if (W == "cas" || W == "cmpxchg" || W == "compare")
    return UpdateForm::ComparesAndSwaps;
  if (W == "exch" || W == "xchg" || W == "exchange")
    return UpdateForm::Exchanges;
  return UpdateForm::Combines;
}

bool sameValue(int64_t A, int64_t B) {
  if (A == B)
    return true;
  auto Is32 = [](int64_t V) { return (V >> 32) == 0 || (V >> 32) == -1; };
  return Is32(A) && Is32(B) && static_cast<uint32_t>(A) == static_cast<uint32_t>(B);
}

bool consistentTests(const ValueCondition &Known, const ValueCondition &Needed) {
  if (Known.Op == Comparison::EQ)
    return Needed.holdsFor(Known.C);
  // Known: the value is not Known.C; anything else it may be.
  return !(Needed.Op == Comparison::EQ && sameValue(Needed.C, Known.C));
}

StringRef strictnessName(Strictness S) { return S == Strictness::Wide ? "wide" : "evidence"; }

namespace engine {

namespace {
bool isSync(OpKind K) {
  switch (K) {
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::RMW:
  case OpKind::AsyncSharedRead:
    return false;
  default:
    return true;
  }
}
bool shareable(ObjectHome H) { return H == ObjectHome::Shared || gridMemory(H); }
} // namespace

State::State(ArrayRef<MemOp> Ops, const ProgramOrder &PO, const EngineOptions &Opts)
    : Ops(Ops), PO(PO), Opts(Opts) {
  DenseMap<int, bool> HostSide, WithHostHome;
  for (unsigned I = 0; I < Ops.size(); ++I) {
    const MemOp &Op = Ops[I];
    All[Op.Thread].push_back(I);
    if (isSync(Op.What))
      Syncs[Op.Thread].push_back(I);
    if (Op.reads() && hasAcquire(Op.Ord))
      Acquires[Op.Thread].push_back(I);
    if (Op.Object >= 0 && isScoped(Op) && Op.RunBy == Runner::Host)
      HostSide[Op.Object] = true;
    if (Op.Object >= 0 && sharedWithHost(Op.Home))
      WithHostHome[Op.Object] = true;
  }
  auto BySeq = [&](unsigned A, unsigned B) { return Ops[A].Seq < Ops[B].Seq || (Ops[A].Seq == Ops[B].Seq && A < B); };
  for (auto &Entry : All)
    llvm::stable_sort(Entry.second, BySeq);
  for (auto &Entry : Syncs)
    llvm::stable_sort(Entry.second, BySeq);
  for (auto &Entry : Acquires)
    llvm::stable_sort(Entry.second, BySeq);
  for (auto &Entry : HostSide)
    if (WithHostHome.count(Entry.first))
      HostObjects[Entry.first] = true;
}

const std::vector<Group> &State::groups(bool AcrossKernels) {
  std::unique_ptr<std::vector<Group>> &Groups = AcrossKernels ? Merged : PerKernel;
  if (Groups)
    return *Groups;
  Groups = std::make_unique<std::vector<Group>>();
  // The kernels that wait on grid memory none of their own operations
  // writes: the writer runs while the kernel runs, outside it (another GPU,
  // the host, another grid). And the objects each kernel reads a value of.
  DenseSet<std::pair<int, int>> Written, Read;
  for (const MemOp &Op : Ops)
    if (Op.RunBy == Runner::Kernel && Op.Object >= 0) {
      if (Op.writes())
        Written.insert({Op.Context, Op.Object});
      if (Op.What == OpKind::Load || (Op.What == OpKind::RMW && !Op.ValueUnused))
        Read.insert({Op.Context, Op.Object});
    }
  DenseSet<int> WaitsOutside;
  DenseMap<int, SmallVector<unsigned, 2>> OutsideWaits;
  for (unsigned I = 0; I < Ops.size(); ++I) {
    const MemOp &Op = Ops[I];
    if (Op.RunBy == Runner::Kernel && Op.Spins && Op.reads() && Op.Object >= 0 && gridMemory(Op.Home) &&
        !Written.count({Op.Context, Op.Object})) {
      WaitsOutside.insert(Op.Context);
      OutsideWaits[Op.Thread].push_back(I);
    }
  }
  // A write its thread makes before such a wait, or in one loop with it
  // (signal, then wait for the reply; a ping-pong): it is the thread's half
  // of a handshake with the writer it waits on, which reads it while the
  // kernel runs. A write after the wait, not in its loop, shows no reader
  // then (a count the host reads after the kernel).
  auto Handshakes = [&](unsigned W) {
    auto It = OutsideWaits.find(Ops[W].Thread);
    return It != OutsideWaits.end() &&
           any_of(It->second, [&](unsigned R) { return before(W, R) || inCommonLoop(W, R); });
  };
  MapVector<int, SmallVector<unsigned, 8>> ByObject;
  for (unsigned I = 0; I < Ops.size(); ++I)
    if (isScoped(Ops[I]) && shareable(Ops[I].Home))
      ByObject[Ops[I].Object].push_back(I);
  for (auto &Entry : ByObject) {
    const SmallVector<unsigned, 8> &List = Entry.second;
    ObjectHome Home = Ops[List.front()].Home;
    for (unsigned I : List)
      if (sharedWithHost(Ops[I].Home))
        Home = Ops[I].Home;
    SmallVector<unsigned, 4> HostSide;
    MapVector<int, SmallVector<unsigned, 4>> DeviceSide;
    for (unsigned I : List) {
      if (Ops[I].RunBy == Runner::Host)
        HostSide.push_back(I);
      else
        DeviceSide[AcrossKernels ? -1 : Ops[I].Context].push_back(I);
    }
    for (auto &[Context, Members] : DeviceSide) {
      (void)Context;
      Group G;
      G.Ops.assign(Members.begin(), Members.end());
      const MemOp &First = Ops[Members.front()];
      // out[blockIdx.x] is per block only while every access picks the same
      // block-indexed part of it; a second block index lets blocks meet.
      // So is a flat index's region whose every access has one block part
      // (base + blockIdx.x * pitch + column, whatever the column).
      G.PerBlock = all_of(Members, [&](unsigned I) {
                     return Ops[I].Segment >= 0 && Ops[I].Segment == First.Segment;
                   }) ||
                   all_of(Members, [&](unsigned I) {
                     return Ops[I].BlockPart >= 0 && Ops[I].BlockPart == First.BlockPart;
                   });
      bool OneBlock = engine::oneBlockRuns(Ops, Members);
      G.WithHost = sharedWithHost(Home) && !HostSide.empty();
      if (G.WithHost)
        G.Ops.append(HostSide.begin(), HostSide.end());
      G.Needed = G.WithHost                                                  ? Scope::System
                 : Home == ObjectHome::Shared || G.PerBlock || OneBlock ? Scope::Block
                                                                         : Scope::Device;
      // A release is written for a reader, and so is a handshake's signal.
      // Where no thread of the kernel reads the object and the kernel waits
      // on partners outside it, the reader is such a partner: outside every
      // block of the grid (a semaphore signalled on a peer GPU).
      G.OutsideKernel = !G.WithHost && gridMemory(Home) && all_of(Members, [&](unsigned I) {
        return Ops[I].RunBy == Runner::Kernel && WaitsOutside.count(Ops[I].Context) &&
               !Read.count({Ops[I].Context, Ops[I].Object});
      }) && any_of(Members, [&](unsigned I) {
        return Ops[I].writes() && (hasRelease(Ops[I].Ord) || Handshakes(I));
      });
      if (G.OutsideKernel && G.Needed == Scope::Block)
        G.Needed = Scope::Device;
      if (!AcrossKernels)
        for (unsigned I : Members)
          GroupIndex[I] = Groups->size();
      Groups->push_back(std::move(G));
    }
  }
  return *Groups;
}

const Group *State::groupOf(unsigned I) {
  (void)groups(/*AcrossKernels=*/false);
  auto It = GroupIndex.find(I);
  return It == GroupIndex.end() ? nullptr : &(*PerKernel)[It->second];
}

} // namespace engine

/// CUDA_SCOPE_DUMP_OPS=1 prints every operation a front end hands the
/// engine to stderr, one line each, so that the two front ends' records of
/// one kernel can be compared field by field when their verdicts differ.
bool dumpingOps() {
  static const bool On = [] {
    const char *Env = std::getenv("CUDA_SCOPE_DUMP_OPS");
    return Env && *Env && StringRef(Env) != "0";
  }();
  return On;
}

static void dumpOps(ArrayRef<MemOp> Ops) {
  if (!dumpingOps())
    return;
  llvm::raw_ostream &OS = llvm::errs();
  OS << "cuda-scope ops: " << Ops.size() << "\n";
  for (unsigned I = 0; I < Ops.size(); ++I) {
    const MemOp &O = Ops[I];
    OS << "  #" << I << " " << opKindName(O.What) << " " << orderName(O.Ord);
    if (O.S)
      OS << "." << shortName(*O.S);
    OS << " obj=" << O.Object << " el=" << O.Element << " home=" << unsigned(O.Home) << " ctx=" << O.Context
       << " thr=" << O.Thread << " seq=" << O.Seq;
    if (O.OnlyBlock >= 0)
      OS << " block=" << O.OnlyBlock;
    if (O.ElectedBy >= 0)
      OS << " elected=" << O.ElectedBy;
    if (O.ThreadBelow != -1)
      OS << " below=" << O.ThreadBelow;
    if (O.RankGroup)
      OS << " of-each=" << O.RankGroup;
    if (O.Segment >= 0)
      OS << " seg=" << O.Segment;
    if (O.BlockPart >= 0)
      OS << " part=" << O.BlockPart;
    if (O.Tested)
      OS << " tested=" << unsigned(O.Test);
    if (O.Spins)
      OS << " spins";
    if (O.PassWhen)
      OS << " pass" << (O.PassWhen->Op == Comparison::EQ ? "==" : "!=") << O.PassWhen->C;
    if (O.Stored)
      OS << " stores=" << *O.Stored;
    if (O.Counts)
      OS << " counts";
    if (O.AgainstGrid)
      OS << (O.GoalIsGrid ? " goal=grid" : O.GoalVaries ? " goal=varies" : " goal=fixed");
    if (O.ThreadPrivate)
      OS << " private";
    if (O.FixedAddress)
      OS << " fixed";
    if (O.ThreadApart)
      OS << " apart";
    if (O.Peer)
      OS << " peer";
    if (O.PerBlock)
      OS << " perblock";
    OS << "\n";
  }
}

std::vector<MemOp> separateWords(ArrayRef<MemOp> Ops) {
  std::vector<MemOp> Out(Ops.begin(), Ops.end());
  // An instruction that names its state space says where its object is, in
  // either front end's records.
  for (MemOp &O : Out)
    O.Home = homeInSpace(O.Space, O.Home);
  // Per object: the elements its atomics use, whether each is one address
  // for every thread, and whether plain accesses use other addresses that
  // the threads compute apart.
  struct Use {
    SmallVector<int, 2> Atomic;
    bool AtomicMoves = false;
    bool DataApart = false;
  };
  MapVector<int, Use> Uses;
  int Next = 0;
  auto Atomic = [](const MemOp &O) { return O.What == OpKind::RMW || O.Ord != Order::Plain; };
  auto Access = [](const MemOp &O) { return O.What == OpKind::Load || O.What == OpKind::Store || O.What == OpKind::RMW; };
  for (const MemOp &O : Ops) {
    Next = std::max(Next, O.Object + 1);
    if (O.Object < 0 || !Access(O))
      continue;
    Use &U = Uses[O.Object];
    if (Atomic(O)) {
      if (O.Element < 0 || !O.FixedAddress)
        U.AtomicMoves = true;
      else if (!is_contained(U.Atomic, O.Element))
        U.Atomic.push_back(O.Element);
    }
  }
  for (const MemOp &O : Ops)
    if (O.Object >= 0 && Access(O) && !Atomic(O) && !O.FixedAddress) {
      Use &U = Uses[O.Object];
      U.DataApart |= !is_contained(U.Atomic, O.Element);
    }
  for (auto &[Object, U] : Uses) {
    if (U.Atomic.empty() || U.AtomicMoves || !U.DataApart)
      continue;
    const int Word = Next++;
    for (MemOp &O : Out)
      if (O.Object == Object && is_contained(U.Atomic, O.Element))
        O.Object = Word;
  }
  return Out;
}

std::vector<Finding> analyse(ArrayRef<MemOp> Given, const ProgramOrder &PO, const EngineOptions &Opts) {
  dumpOps(Given);
  const std::vector<MemOp> Ops = separateWords(Given);
  engine::State St(Ops, PO, Opts);
  std::vector<Finding> Out;
  if (Opts.Rules & EngineOptions::Scopes)
    engine::scopeRules(St, Out);
  if (Opts.Rules & (EngineOptions::Messages | EngineOptions::Fences)) {
    // A kernel's message to a partner instance of itself is one flag and one
    // datum to the message rules; the scope rules keep the two names.
    const engine::Mirror Mirror = engine::mirrorPartners(St);
    const std::vector<MemOp> &Mirrored = Mirror.Ops;
    std::optional<engine::State> MirroredState;
    if (!Mirrored.empty()) {
      MirroredState.emplace(Mirrored, PO, Opts);
      MirroredState->PartnerDatum = Mirror.PartnerDatum;
      MirroredState->ReadAfterKernel = Mirror.ReadAfterKernel;
    }
    engine::State &MSt = MirroredState ? *MirroredState : St;
    DenseMap<unsigned, bool> MessageFences;
    std::vector<Finding> Messages;
    engine::messageRules(MSt, Messages, MessageFences);
    for (Finding &F : Messages)
      F.Partner = !Mirrored.empty() && F.Other >= 0 && Ops[F.At].Object != Ops[F.Other].Object &&
                  Mirrored[F.At].Object == Mirrored[F.Other].Object;
    if (Opts.Rules & EngineOptions::Messages) {
      Out.insert(Out.end(), Messages.begin(), Messages.end());
      engine::peerRules(St, Out);
    }
    if (Opts.Rules & EngineOptions::Fences)
      engine::fenceRule(MSt, MessageFences, Out);
  }
  if (Opts.Rules & EngineOptions::Async)
    engine::asyncRules(St, Out);
  if (Opts.Rules & EngineOptions::Wide)
    engine::wideScopeRule(St, Out);
  llvm::stable_sort(Out, [](const Finding &A, const Finding &B) { return A.At < B.At; });
  return Out;
}

} // namespace cuda_scope
