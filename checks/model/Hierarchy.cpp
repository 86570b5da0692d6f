//===- Hierarchy.cpp - barriers at the right level of the hierarchy --------===//
#include "Hierarchy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_scope {

std::optional<unsigned> launchWithoutCooperation(ArrayRef<KernelLaunch> Launches) {
  for (unsigned I = 0; I < Launches.size(); ++I)
    if (Launches[I].Form == LaunchForm::Plain)
      return I;
  return std::nullopt;
}

std::optional<unsigned> cooperativeLaunchPastResidency(ArrayRef<KernelLaunch> Launches) {
  for (unsigned I = 0; I < Launches.size(); ++I)
    if (Launches[I].Form == LaunchForm::Cooperative && Launches[I].Grid == GridSize::Input && Launches[I].Divides)
      return I;
  return std::nullopt;
}

std::string cooperativeLaunchMessage(StringRef Kernel, const KernelLaunch &Launch) {
  return "this cooperative launch of kernel '" + Kernel.str() + "' has a grid that grows with '" + Launch.GrowsWith +
         "', which is not bounded by what the GPU keeps resident: once the grid is larger than "
         "cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count, " + Launch.How +
         " returns cudaErrorCooperativeLaunchTooLarge and the kernel does not run; size the grid from the occupancy "
         "query and the SM count, and have the kernel loop over the input with a grid stride";
}

StringRef gridBarrierName(Scope S) {
  return S == Scope::System ? "multi_grid_group::sync()" : "grid_group::sync()";
}

std::string gridSyncMessage(StringRef Kernel, StringRef Barrier, const KernelLaunch &Launch) {
  std::string M = "kernel '" + Kernel.str() + "' synchronizes its whole grid here (" + Barrier.str() +
                  "), but is launched with " + Launch.How;
  if (!Launch.Where.empty())
    M += " at " + Launch.Where;
  M += ", which is not a cooperative launch: a grid sync needs every block of the grid resident at once, and "
       "under this launch the kernel fails with cudaErrorLaunchFailure, a sticky error every later CUDA call of "
       "the process returns; ";
  M += Launch.How == GraphKernelNodeLaunch
           ? "make the node cooperative (cudaGraphKernelNodeSetAttribute with cudaLaunchAttributeCooperative), with a "
             "grid no larger than cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count"
           : "launch it with cudaLaunchCooperativeKernel, with a grid no larger than "
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count";
  return M;
}

std::vector<GridWait> gridWaits(ArrayRef<MemOp> Ops, const ProgramOrder &PO) {
  // A word of memory every block reaches, in a kernel, run by any block.
  auto EveryBlock = [](const MemOp &M) {
    return M.Object >= 0 && M.RunBy == Runner::Kernel && M.OnlyBlock < 0 &&
           (gridMemory(M.Home) || M.Home == ObjectHome::Unknown);
  };
  std::vector<GridWait> Out;
  for (unsigned R = 0; R < Ops.size(); ++R) {
    const MemOp &Wait = Ops[R];
    if (!Wait.reads() || !Wait.Spins || Wait.Counts || !EveryBlock(Wait))
      continue;
    std::optional<unsigned> Arrival;
    for (unsigned A = 0; A < Ops.size() && !Arrival; ++A) {
      const MemOp &Arrive = Ops[A];
      if (A == R || !Arrive.Counts || Arrive.Thread != Wait.Thread || !EveryBlock(Arrive) || !PO.mayPrecede(A, R))
        continue;
      // A counting barrier: the wait reads the count the thread arrived on.
      if (Wait.AgainstGrid && Arrive.Object == Wait.Object) {
        Arrival = A;
        break;
      }
      // The last to arrive writes what the others wait on.
      if (!Arrive.AgainstGrid || !Arrive.Tested)
        continue;
      for (unsigned W = 0; W < Ops.size(); ++W)
        if (W != R && Ops[W].writes() && Ops[W].Object == Wait.Object && Ops[W].Thread == Wait.Thread &&
            PO.afterTest(A, W)) {
          Arrival = A;
          break;
        }
    }
    // A master's release: the wait is on a word that a thread writes after
    // it spun, in a loop over the grid's blocks, on a word that the waiting
    // thread wrote before its wait (every block's arrival).
    for (unsigned S = 0; S < Ops.size() && !Arrival; ++S) {
      const MemOp &Collect = Ops[S];
      if (S == R || !Collect.reads() || !Collect.Spins || !Collect.GridLoop || Collect.Thread != Wait.Thread ||
          Collect.Object < 0)
        continue;
      bool Releases = false;
      for (unsigned W = 0; W < Ops.size() && !Releases; ++W)
        Releases = Ops[W].writes() && Ops[W].Object == Wait.Object && Ops[W].Thread == Wait.Thread &&
                   PO.mayPrecede(S, W);
      if (!Releases)
        continue;
      for (unsigned A = 0; A < Ops.size(); ++A)
        if (A != S && Ops[A].writes() && Ops[A].Object == Collect.Object && EveryBlock(Ops[A]) &&
            Ops[A].Thread == Wait.Thread && PO.mayPrecede(A, R)) {
          Arrival = A;
          break;
        }
    }
    if (Arrival)
      Out.push_back({R, *Arrival});
  }
  return Out;
}

std::vector<ReusedGridBarrier> reusedGridBarriers(ArrayRef<MemOp> Ops, const ProgramOrder &PO,
                                                  ArrayRef<GridWait> Waits) {
  std::vector<ReusedGridBarrier> Out;
  for (const GridWait &W : Waits) {
    const MemOp &Wait = Ops[W.Wait], &Arrive = Ops[W.Arrival];
    // A counting wait on a goal that stays the same.
    if (!Wait.AgainstGrid || Wait.GoalVaries || Arrive.Object != Wait.Object)
      continue;
    // Nothing but arrivals writes the count, in any thread of the kernel:
    // a reset is a different protocol.
    bool OnlyArrivals = true;
    for (const MemOp &M : Ops)
      if (M.Context == Wait.Context && M.Object == Wait.Object && M.writes() && !M.Counts)
        OnlyArrivals = false;
    if (!OnlyArrivals)
      continue;
    std::optional<unsigned> Again;
    for (unsigned A = 0; A < Ops.size() && !Again; ++A) {
      const MemOp &Next = Ops[A];
      if (!Next.Counts || Next.Object != Wait.Object || Next.Thread != Wait.Thread || Next.Context != Wait.Context)
        continue;
      // The same arrival and wait run again: they sit in one loop. (A second
      // barrier on the same count waits for its own goal, which may be
      // larger: which one is not read here.)
      if (A == W.Arrival && PO.inCommonLoop(A, W.Wait))
        Again = A;
    }
    if (Again)
      Out.push_back({W.Wait, W.Arrival, *Again});
    // A second barrier on the count after this one's wait, for the same
    // goal: the grid's width, which this wait already saw the count reach.
    if (!Wait.GoalIsGrid)
      continue;
    for (const GridWait &Later : Waits) {
      const MemOp &LaterWait = Ops[Later.Wait];
      // The same word: one object at the same address computation (counts[0]
      // and counts[1] are two barriers' counts).
      if (Later.Wait == W.Wait || LaterWait.Object != Wait.Object || LaterWait.Element != Wait.Element ||
          Wait.Element < 0 || LaterWait.Thread != Wait.Thread ||
          LaterWait.Context != Wait.Context || !LaterWait.GoalIsGrid || LaterWait.GoalVaries ||
          !PO.mayPrecede(W.Wait, Later.Wait) || PO.mayPrecede(Later.Wait, W.Wait))
        continue;
      // Its own arrival, between the two waits.
      for (unsigned A = 0; A < Ops.size(); ++A) {
        const MemOp &Arrive2 = Ops[A];
        if (Arrive2.Counts && Arrive2.Object == Wait.Object && Arrive2.Element == Wait.Element &&
            Arrive2.Thread == Wait.Thread &&
            Arrive2.Context == Wait.Context && PO.mayPrecede(W.Wait, A) && PO.mayPrecede(A, Later.Wait)) {
          Out.push_back({Later.Wait, A, W.Wait, /*Second=*/true});
          break;
        }
      }
    }
  }
  return Out;
}

std::vector<WarpRace> warpRaces(ArrayRef<MemOp> Ops, const ProgramOrder &PO) {
  auto Plain = [](const MemOp &M) {
    // Which lanes run it must be known: a guard on the thread's index that no bound reads
    // ((tid & n) == n, coop < s) may keep out the lanes the offsets pair.
    return M.isAccess() && (M.Ord == Order::Plain || M.Ord == Order::Volatile) && M.Object >= 0 &&
           M.Home == ObjectHome::Shared && M.HasLaneOffset && M.RunBy == Runner::Kernel &&
           M.ThreadBelow != UnknownThreadGuard && M.RankGroup == 0;
  };
  auto Barrier = [](const MemOp &M) {
    return M.What == OpKind::WarpBarrier || M.What == OpKind::GridBarrier ||
           (M.What == OpKind::BlockBarrier && M.Object < 0);
  };
  std::vector<unsigned> Accesses, Barriers;
  for (unsigned I = 0; I < Ops.size(); ++I) {
    if (Plain(Ops[I]))
      Accesses.push_back(I);
    else if (Barrier(Ops[I]))
      Barriers.push_back(I);
  }
  // Some lane u below BelowLater runs the later access at u + kLater, and
  // lane v = u + Lanes below BelowEarlier, in u's warp, the earlier one at
  // v + kEarlier: the same element.
  auto Lanes = [](int Lanes, int BelowLater, int BelowEarlier) {
    const int Block = 1024; // the most threads a block has
    int LaterEnd = BelowLater < 0 ? Block : std::min(BelowLater, Block);
    int EarlierEnd = BelowEarlier < 0 ? Block : std::min(BelowEarlier, Block);
    for (int U = 0; U < LaterEnd; ++U) {
      int V = U + Lanes;
      if (V >= 0 && V < EarlierEnd && U / WarpLanes == V / WarpLanes)
        return true;
    }
    return false;
  };
  std::vector<WarpRace> Out;
  for (unsigned Y : Accesses)
    for (unsigned X : Accesses) {
      const MemOp &Later = Ops[Y], &Earlier = Ops[X];
      if (X == Y || Earlier.Object != Later.Object || Earlier.LaneBase != Later.LaneBase ||
          Earlier.Thread != Later.Thread ||
          (!Earlier.writes() && !Later.writes()))
        continue;
      const int Apart = Later.LaneOffset - Earlier.LaneOffset;
      if (Apart == 0 || Apart <= -WarpLanes || Apart >= WarpLanes || !PO.mayPrecede(X, Y) ||
          !Lanes(Apart, Later.ThreadBelow, Earlier.ThreadBelow))
        continue;
      // Ordered: a barrier between them; in a loop, one anywhere in it
      // (the next iteration's earlier access follows this one's later one).
      bool Ordered = any_of(Barriers, [&](unsigned M) { return PO.mayPrecede(X, M) && PO.mayPrecede(M, Y); });
      if (Ordered && PO.inCommonLoop(X, Y))
        Ordered = any_of(Barriers, [&](unsigned M) { return PO.inCommonLoop(X, M); });
      if (!Ordered) {
        Out.push_back({Y, X, Apart});
        break; // one finding per later access
      }
    }
  return Out;
}

std::string warpRaceMessage(bool AtWrites, bool OtherWrites, int Lanes, StringRef OtherWhere) {
  std::string Lane = Lanes > 0 ? "lane + " + std::to_string(Lanes) : "lane - " + std::to_string(-Lanes);
  std::string M = std::string("this ") + (AtWrites ? "write" : "read") + " of shared memory races with the " +
                  (OtherWrites ? "write" : "read");
  if (!OtherWhere.empty())
    M += " at " + OtherWhere.str();
  M += " by another lane of the same warp (" + Lane +
       " runs it on this element), and nothing orders the two: lanes of a warp are threads like any others, "
       "volatile is not atomic, and since Volta nothing keeps a warp's lanes in step, so this may see the "
       "element before the other lane's access (a data race: undefined behaviour; on an H100 racecheck reported "
       "about a million hazards per step of such a reduction); put __syncwarp() between them, or exchange the "
       "values with __shfl_*_sync";
  return M;
}

std::optional<unsigned> launchBeyondResidency(ArrayRef<KernelLaunch> Launches) {
  for (unsigned I = 0; I < Launches.size(); ++I)
    if (Launches[I].Form == LaunchForm::Plain && Launches[I].Grid == GridSize::Input)
      return I;
  return std::nullopt;
}

std::string gridBarrierMessage(StringRef Kernel, StringRef ArrivalWhere, const KernelLaunch &Launch) {
  std::string M = "kernel '" + Kernel.str() + "' waits here until every block of its grid has arrived";
  if (!ArrivalWhere.empty())
    M += " (arrival at " + ArrivalWhere.str() + ")";
  M += ", but is launched with " + Launch.How;
  if (!Launch.Where.empty())
    M += " at " + Launch.Where;
  M += " on a grid that grows with '" + Launch.GrowsWith +
       "' and is not bounded by what the GPU keeps resident: blocks that are not running cannot arrive, and the "
       "running ones spin without giving up their place (on an H100, 133 of 528 blocks never saw every arrival at "
       "twice the resident grid); launch it with cudaLaunchCooperativeKernel, or size the grid with "
       "cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count and loop over the input";
  return M;
}

std::string reusedGridBarrierMessage(StringRef Kernel, StringRef AgainWhere, bool Second) {
  if (Second) {
    std::string M = "kernel '" + Kernel.str() +
                    "' waits here until its count reaches the grid's size, but the barrier before it on the same "
                    "count";
    if (!AgainWhere.empty())
      M += " (at " + AgainWhere.str() + ")";
    M += " already brought the count there and nothing resets it: this wait is passed at once, and blocks run "
         "ahead into the next phase while others are still in the last one; wait for the count of both "
         "barriers' arrivals (2 * gridDim.x), flip a generation the last block to arrive writes, or use "
         "cooperative groups' grid sync";
    return M;
  }
  std::string M = "kernel '" + Kernel.str() +
                  "' waits here until its count reaches a goal that does not grow, but the loop around it "
                  "arrives on the same count again";
  if (!AgainWhere.empty())
    M += " (at " + AgainWhere.str() + ")";
  M += " and nothing resets it: after the first use the count already holds the goal, so every later wait "
       "is passed at once and blocks run ahead into the next phase while others are still in this one; wait "
       "for a goal that grows with each use (gridDim.x * round), flip a generation the last block to arrive "
       "writes, or use cooperative groups' grid sync";
  return M;
}

bool isGridSizeCall(StringRef PlainName) {
  StringRef Member = PlainName;
  if (!Member.consume_front("cooperative_groups::grid_group::"))
    return false;
  return Member == "num_blocks" || Member == "dim_blocks" || Member == "size" || Member == "num_threads" ||
         Member == "group_dim" || Member == "dim_threads";
}


std::optional<StringRef> blockVaryingSource(StringRef Name) {
  static constexpr StringLiteral Index = "the thread's index", Lane = "the thread's lane",
                                 Warp = "a value of the thread's warp", Other = "a value another lane holds",
                                 Clock = "the clock";
  struct Row {
    StringLiteral Prefix;
    StringLiteral What;
  };
  // CUDA spellings first (whole names, or the prefix of a family), then NVVM's.
  static const Row Rows[] = {
      {"threadIdx", Index},
      {"__nvvm_read_ptx_sreg_tid_", Index},
      {"__nvvm_read_ptx_sreg_laneid", Lane},
      {"__nvvm_read_ptx_sreg_warpid", Warp},
      {"__nvvm_read_ptx_sreg_clock", Clock},
      {"__lane_id", Lane},
      {"clock", Clock},
      {"clock64", Clock},
      {"__shfl", Other},
      {"__ballot_sync", Warp},
      {"__any_sync", Warp},
      {"__all_sync", Warp},
      {"__uni_sync", Warp},
      {"__activemask", Warp},
      {"__match_any_sync", Warp},
      {"__match_all_sync", Warp},
      {"__reduce_", Warp},
      {"llvm.nvvm.read.ptx.sreg.tid.", Index},
      {"llvm.nvvm.read.ptx.sreg.laneid", Lane},
      {"llvm.nvvm.read.ptx.sreg.warpid", Warp},
      {"llvm.nvvm.read.ptx.sreg.clock", Clock},
      {"llvm.nvvm.read.ptx.sreg.globaltimer", Clock},
      {"llvm.nvvm.shfl.", Other},
      {"llvm.nvvm.vote.", Warp},
      {"llvm.nvvm.match.", Warp},
      {"llvm.nvvm.redux.sync.", Warp},
      {"llvm.nvvm.activemask", Warp},
  };
  for (const Row &R : Rows) {
    // A family's prefix ends in '_' or '.'; other rows are whole names.
    bool Family = R.Prefix.back() == '_' || R.Prefix.back() == '.' || R.Prefix == "__shfl";
    if (Family ? Name.starts_with(R.Prefix) : Name == R.Prefix)
      return StringRef(R.What);
  }
  return std::nullopt;
}

std::optional<StringRef> blockVaryingAsm(StringRef AsmText) {
  if (AsmText.contains("%tid"))
    return StringRef("the thread's index");
  if (AsmText.contains("%laneid"))
    return StringRef("the thread's lane");
  if (AsmText.contains("%warpid") || AsmText.contains("%lanemask"))
    return StringRef("a value of the thread's warp");
  if (AsmText.contains("%clock") || AsmText.contains("%globaltimer"))
    return StringRef("the clock");
  return std::nullopt;
}

bool isLaneAsm(StringRef AsmText) {
  std::optional<StringRef> What = blockVaryingAsm(AsmText);
  return What && *What == "the thread's lane" && !AsmText.contains("%warpid") && !AsmText.contains("%lanemask") &&
         !AsmText.contains("%clock") && !AsmText.contains("%globaltimer");
}

bool isWholeBlockBarrierAsm(StringRef AsmText) {
  // bar.sync 0; barrier.sync.aligned 0; (a second operand is a thread count:
  // a named barrier of some warps, which only they reach by design).
  static const Regex Whole("(^|[^.a-z])(bar|barrier)\\.sync(\\.aligned)?[ \t]+0[ \t]*;");
  return Whole.match(AsmText);
}

BlockCondition BlockCondition::coordinate(unsigned Axis, IndexCompare Op, int64_t C) {
  const bool Equality = Op == IndexCompare::EQ || Op == IndexCompare::NE;
  if (Equality && C < 0 && C >= INT32_MIN)
    C += int64_t(1) << 32; // the 32-bit value a signed constant names
  if (Axis > 2 || C < 0 || C > UINT32_MAX)
    return other(/*Varies=*/false);
  BlockCondition B;
  B.K = Coordinate;
  B.Axis = Axis;
  B.Op = Op;
  B.C = C;
  B.Varies = false;
  return B;
}

BlockCondition BlockCondition::gridIndex(IndexCompare Op, int64_t C) {
  BlockCondition B;
  B.K = GridIndex;
  B.Op = Op;
  B.C = C;
  return B;
}

BlockCondition BlockCondition::other(bool Varies) {
  BlockCondition B;
  B.Varies = Varies;
  return B;
}

BlockCondition BlockCondition::both(BlockCondition A, BlockCondition B) {
  BlockCondition C;
  C.K = And;
  C.Varies = A.Varies || B.Varies;
  C.Operands = {std::move(A), std::move(B)};
  return C;
}

BlockCondition BlockCondition::either(BlockCondition A, BlockCondition B) {
  BlockCondition C = both(std::move(A), std::move(B));
  C.K = Or;
  return C;
}

BlockCondition BlockCondition::negated() const {
  BlockCondition B = *this;
  switch (K) {
  case Coordinate:
  case GridIndex:
    B.Op = inverted(Op);
    break;
  case Other:
    break;
  case And:
  case Or:
    B.K = K == And ? Or : And;
    for (BlockCondition &O : B.Operands)
      O = O.negated();
    break;
  }
  return B;
}

std::optional<int64_t> BlockCondition::pinnedBlock(bool WhenTrue) const {
  BlockFacts Facts;
  Facts.note(*this, WhenTrue);
  return Facts.contradict() ? std::nullopt : Facts.only(0);
}

void BlockFacts::note(const BlockCondition &C, bool Taken) { force(Taken ? C : C.negated()); }

void BlockFacts::force(const BlockCondition &C) {
  switch (C.K) {
  case BlockCondition::And:
    for (const BlockCondition &O : C.Operands)
      force(O);
    return;
  case BlockCondition::Coordinate:
    force(C.Axis, C.Op, C.C);
    return;
  case BlockCondition::GridIndex:
    // tid == 0 passed: the thread is thread 0 of block 0.
    if (std::optional<int64_t> B = gridIndexPinnedBy(C.Op, C.C, /*WhenTrue=*/true))
      force(0, IndexCompare::EQ, *B);
    return;
  case BlockCondition::Other:
  case BlockCondition::Or: // an || passed forces none of its operands
    return;
  }
}

void BlockFacts::force(unsigned Axis, IndexCompare Op, int64_t C) {
  Range &R = Axes[Axis];
  switch (Op) {
  case IndexCompare::EQ: R.Lo = std::max(R.Lo, C), R.Hi = std::min(R.Hi, C); break;
  case IndexCompare::NE: R.NotEqual.push_back(C); break;
  case IndexCompare::LT: R.Hi = std::min(R.Hi, C - 1); break;
  case IndexCompare::LE: R.Hi = std::min(R.Hi, C); break;
  case IndexCompare::GT: R.Lo = std::max(R.Lo, C + 1); break;
  case IndexCompare::GE: R.Lo = std::max(R.Lo, C); break;
  }
  // A value excluded at an end of the range moves the end.
  for (bool Moved = true; Moved && R.Lo <= R.Hi;) {
    Moved = false;
    for (int64_t N : R.NotEqual) {
      if (N == R.Lo)
        ++R.Lo, Moved = true;
      else if (N == R.Hi)
        --R.Hi, Moved = true;
    }
  }
}

void BlockFacts::add(const BlockFacts &Other) {
  for (unsigned I = 0; I < 3; ++I) {
    force(I, IndexCompare::GE, Other.Axes[I].Lo);
    force(I, IndexCompare::LE, Other.Axes[I].Hi);
    for (int64_t N : Other.Axes[I].NotEqual)
      force(I, IndexCompare::NE, N);
  }
}

bool BlockFacts::contradict() const {
  return llvm::any_of(Axes, [](const Range &R) { return R.Lo > R.Hi; });
}

std::optional<int64_t> BlockFacts::only(unsigned Axis) const {
  const Range &R = Axes[Axis];
  return R.Lo == R.Hi ? std::optional<int64_t>(R.Lo) : std::nullopt;
}

std::optional<bool> BlockFacts::decide(unsigned Axis, IndexCompare Op, int64_t C) const {
  const Range &R = Axes[Axis];
  // Where every value left passes, or none does.
  auto Whole = [](bool AllPass, bool NonePass) {
    return AllPass ? std::optional<bool>(true) : NonePass ? std::optional<bool>(false) : std::nullopt;
  };
  switch (Op) {
  case IndexCompare::EQ:
  case IndexCompare::NE: {
    const bool Outside = C < R.Lo || C > R.Hi || llvm::is_contained(R.NotEqual, C);
    std::optional<bool> Equal = Whole(R.Lo == C && R.Hi == C, Outside);
    if (Equal && Op == IndexCompare::NE)
      return !*Equal;
    return Equal;
  }
  case IndexCompare::LT: return Whole(R.Hi < C, R.Lo >= C);
  case IndexCompare::LE: return Whole(R.Hi <= C, R.Lo > C);
  case IndexCompare::GT: return Whole(R.Lo > C, R.Hi <= C);
  case IndexCompare::GE: return Whole(R.Lo >= C, R.Hi < C);
  }
  return std::nullopt;
}

std::optional<bool> BlockFacts::decide(const BlockCondition &C) const {
  switch (C.K) {
  case BlockCondition::Coordinate:
    return decide(C.Axis, C.Op, C.C);
  case BlockCondition::GridIndex:
    // Passed only in one block: it fails in every other.
    if (std::optional<int64_t> B = gridIndexPinnedBy(C.Op, C.C, /*WhenTrue=*/true);
        B && decide(0, IndexCompare::EQ, *B) == false)
      return false;
    if (std::optional<int64_t> B = gridIndexPinnedBy(C.Op, C.C, /*WhenTrue=*/false);
        B && decide(0, IndexCompare::EQ, *B) == false)
      return true;
    return std::nullopt;
  case BlockCondition::Other:
    return std::nullopt;
  case BlockCondition::And:
  case BlockCondition::Or: {
    // An && is false once one operand is, an || true once one is.
    const bool Settles = C.K == BlockCondition::Or;
    bool AllKnown = true;
    for (const BlockCondition &O : C.Operands) {
      std::optional<bool> V = decide(O);
      if (V == Settles)
        return Settles;
      AllKnown &= V.has_value();
    }
    return AllKnown ? std::optional<bool>(!Settles) : std::nullopt;
  }
  }
  return std::nullopt;
}

bool decidedForBlock(const BlockCondition &Test, const BlockFacts &Facts) {
  return Facts.contradict() || Facts.decide(Test).has_value();
}

std::string divergentBarrierMessage(bool Reduces, StringRef ConditionWhere) {
  std::string M = Reduces ? "this block barrier (__syncthreads_count/_and/_or)" : "this block barrier (__syncthreads)";
  M += " is reached under a condition";
  if (!ConditionWhere.empty())
    M += " at " + ConditionWhere.str();
  M += " that threads of one block may decide differently, so some threads may skip it, leave before it or reach "
       "it a different number of times; a block barrier must be reached by every thread of the block or by none "
       "(undefined behaviour otherwise: on an H100 such a barrier completed once the skipping threads had exited, "
       "and neither compute-sanitizer tool reported it); move the barrier out of the condition, or make the "
       "condition the same for the whole block";
  return M;
}

bool sameAcrossWarp(StringRef Name) {
  std::optional<StringRef> What = blockVaryingSource(Name);
  return What && *What == "a value of the thread's warp";
}

bool sameAcrossBlock(StringRef Name) {
  return Name == "__syncthreads_count" || Name == "__syncthreads_and" || Name == "__syncthreads_or" ||
         Name.starts_with("llvm.nvvm.barrier.cta.red.") || Name.starts_with("llvm.nvvm.barrier0.");
}

StrideForm strideSum(StrideForm A, StrideForm B) {
  if (A == StrideForm::Other || B == StrideForm::Other)
    return StrideForm::Other;
  if (A == StrideForm::ThreadPlusBlocks && B == StrideForm::ThreadPlusBlocks)
    return StrideForm::Other; // twice the thread's index
  return A == StrideForm::ThreadPlusBlocks || B == StrideForm::ThreadPlusBlocks ? StrideForm::ThreadPlusBlocks
                                                                              : StrideForm::BlockSizes;
}

StrideForm strideScaled(StrideForm A, std::optional<int64_t> Factor) {
  return A == StrideForm::BlockSizes && Factor && *Factor >= 1 ? StrideForm::BlockSizes : StrideForm::Other;
}

bool isWarpBroadcast(StringRef CudaName, unsigned C) {
  return shuffleMode(CudaName) == ShuffleMode::Idx && C == shuffleClamp(ShuffleMode::Idx, WarpLanes);
}

std::optional<StringRef> tileCollective(StringRef Method) {
  // any() and all() take a ballot of the tile and test it.
  return StringSwitch<std::optional<StringRef>>(Method)
      .Case("shfl", StringRef("__shfl_sync"))
      .Case("shfl_up", StringRef("__shfl_up_sync"))
      .Case("shfl_down", StringRef("__shfl_down_sync"))
      .Case("shfl_xor", StringRef("__shfl_xor_sync"))
      .Cases({"ballot", "any", "all"}, StringRef("__ballot_sync"))
      .Case("match_any", StringRef("__match_any_sync"))
      .Case("match_all", StringRef("__match_all_sync"))
      .Case("sync", StringRef("__syncwarp"))
      .Default(std::nullopt);
}

std::optional<WarpSyncCall> warpSyncCall(StringRef Name) {
  // CUDA spellings: the mask is the first argument.
  static const StringLiteral Cuda[] = {"__shfl_sync",      "__shfl_up_sync",   "__shfl_down_sync",
                                       "__shfl_xor_sync",  "__ballot_sync",    "__any_sync",
                                       "__all_sync",       "__uni_sync",       "__match_any_sync",
                                       "__match_all_sync", "__syncwarp"};
  for (StringLiteral C : Cuda)
    if (Name == C)
      return WarpSyncCall{C, 0};
  if (Name.starts_with("__reduce_") && Name.ends_with("_sync"))
    return WarpSyncCall{Name, 0};
  // NVVM's: llvm.nvvm.shfl.sync.<mode>.<type>, llvm.nvvm.vote.<op>.sync,
  // llvm.nvvm.match.<op>.sync.<type>, llvm.nvvm.bar.warp.sync (mask first);
  // llvm.nvvm.redux.sync.<op> (mask last, second).
  StringRef Rest = Name;
  if (Rest.consume_front("llvm.nvvm.shfl.sync.")) {
    StringRef Mode = Rest.split('.').first;
    StringRef C = StringSwitch<StringRef>(Mode)
                      .Case("idx", "__shfl_sync")
                      .Case("up", "__shfl_up_sync")
                      .Case("down", "__shfl_down_sync")
                      .Case("bfly", "__shfl_xor_sync")
                      .Default("");
    return C.empty() ? std::nullopt : std::optional<WarpSyncCall>(WarpSyncCall{C, 0});
  }
  if (Rest.consume_front("llvm.nvvm.vote.")) {
    StringRef C = StringSwitch<StringRef>(Rest)
                      .Case("ballot.sync", "__ballot_sync")
                      .Case("any.sync", "__any_sync")
                      .Case("all.sync", "__all_sync")
                      .Case("uni.sync", "__uni_sync")
                      .Default("");
    return C.empty() ? std::nullopt : std::optional<WarpSyncCall>(WarpSyncCall{C, 0});
  }
  if (Rest.consume_front("llvm.nvvm.match.")) {
    if (Rest.starts_with("any.sync"))
      return WarpSyncCall{"__match_any_sync", 0};
    if (Rest.starts_with("all.sync"))
      return WarpSyncCall{"__match_all_sync", 0};
    return std::nullopt;
  }
  if (Name == "llvm.nvvm.bar.warp.sync")
    return WarpSyncCall{"__syncwarp", 0};
  if (Rest.consume_front("llvm.nvvm.redux.sync.")) {
    StringRef C = StringSwitch<StringRef>(Rest)
                      .Case("add", "__reduce_add_sync")
                      .Cases({"min", "umin"}, "__reduce_min_sync")
                      .Cases({"max", "umax"}, "__reduce_max_sync")
                      .Case("and", "__reduce_and_sync")
                      .Case("or", "__reduce_or_sync")
                      .Case("xor", "__reduce_xor_sync")
                      .Default("");
    return C.empty() ? std::nullopt : std::optional<WarpSyncCall>(WarpSyncCall{C, 1});
  }
  return std::nullopt;
}

std::optional<ShuffleMode> shuffleMode(StringRef CudaName) {
  return StringSwitch<std::optional<ShuffleMode>>(CudaName)
      .Case("__shfl_sync", ShuffleMode::Idx)
      .Case("__shfl_up_sync", ShuffleMode::Up)
      .Case("__shfl_down_sync", ShuffleMode::Down)
      .Case("__shfl_xor_sync", ShuffleMode::Bfly)
      .Default(std::nullopt);
}

unsigned shuffleClamp(ShuffleMode M, unsigned Width) {
  return ((WarpLanes - Width) << 8) | (M == ShuffleMode::Up ? 0u : 0x1fu);
}

std::optional<unsigned> shuffleSource(ShuffleMode M, unsigned Lane, unsigned B, unsigned C) {
  // The PTX ISA's pseudo-code, on 5-bit fields.
  const int BVal = B & 0x1f, CVal = C & 0x1f, SegMask = (C >> 8) & 0x1f, L = Lane & 0x1f;
  const int MaxLane = (L & SegMask) | (CVal & ~SegMask), MinLane = L & SegMask;
  int J = L;
  bool Take = false;
  switch (M) {
  case ShuffleMode::Up:
    J = L - BVal;
    Take = J >= MaxLane;
    break;
  case ShuffleMode::Down:
    J = L + BVal;
    Take = J <= MaxLane;
    break;
  case ShuffleMode::Bfly:
    J = L ^ BVal;
    Take = J <= MaxLane;
    break;
  case ShuffleMode::Idx:
    J = MinLane | (BVal & ~SegMask);
    Take = J <= MaxLane;
    break;
  }
  if (!Take || J == L)
    return std::nullopt;
  return static_cast<unsigned>(J);
}

std::optional<ShuffleOutsideMask> shuffleReadsOutsideMask(ShuffleMode M, uint32_t Mask, unsigned B, unsigned C) {
  for (unsigned Lane = 0; Lane < static_cast<unsigned>(WarpLanes); ++Lane)
    if (Mask & (1u << Lane))
      if (std::optional<unsigned> J = shuffleSource(M, Lane, B, C); J && !(Mask & (1u << *J)))
        return ShuffleOutsideMask{Lane, *J};
  return std::nullopt;
}

std::string shuffleSourceMessage(StringRef Call, uint32_t Mask, ShuffleOutsideMask Read) {
  std::string Hex;
  raw_string_ostream(Hex) << format_hex(Mask, 10);
  const std::string Lane = std::to_string(Read.Lane), Source = std::to_string(Read.Source);
  return "this " + Call.str() + " reads, for lane " + Lane + ", lane " + Source + ", which its mask (" + Hex +
         ") does not name: a lane outside the mask takes no part in the shuffle, so what lane " + Lane +
         " receives is undefined; give the shuffle the width of the lanes that take part (its last argument), or "
         "name lane " + Source + " in the mask and have it execute the call";
}

std::string warpMaskMessage(StringRef Call, StringRef ConditionWhere) {
  std::string M = "this " + Call.str() + " names every lane of the warp in its mask (0xffffffff), but is reached under "
                  "a condition";
  if (!ConditionWhere.empty())
    M += " at " + ConditionWhere.str();
  M += " that lanes of one warp may decide differently: a lane the mask names that does not execute the call "
       "leaves the result undefined (on an H100, a shuffle under if (lane < 16) gave lane 15 0 instead of lane 16's "
       "value, and neither compute-sanitizer tool reported it); take the mask from __ballot_sync(0xffffffff, "
       "condition) before the branch, or move the call out of it";
  return M;
}

} // namespace cuda_scope
