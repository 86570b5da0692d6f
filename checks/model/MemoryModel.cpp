//===- MemoryModel.cpp - scopes and orders, read from every CUDA spelling -===//
#include "MemoryModel.h"
#include "CudaApi.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace cuda_scope {
namespace {
struct ScopeRow {
  Scope S;
  StringRef Libcu, Ptx, SyncScope, BuiltinSuffix, NvName, ClangName;
  int64_t LibcuValue, NvValue, ClangValue;
  int FenceCycles, OrderedAtomicCycles;
};
constexpr ScopeRow Rows[] = {
#define CUDA_SCOPE(Name, Libcu, Ptx, Sync, Suffix, NvName, ClangName, LV, NV, CV, Fence, Atomic)    \
  {Scope::Name, Libcu, Ptx, Sync, Suffix, NvName, ClangName, LV, NV, CV, Fence, Atomic},
#include "Scopes.def"
};

/// "cuda::std::memory_order_acquire" -> "memory_order_acquire".
StringRef unqualified(StringRef Name) {
  size_t Colons = Name.rfind("::");
  return Colons == StringRef::npos ? Name : Name.drop_front(Colons + 2);
}

const ScopeRow &row(Scope S) { return Rows[static_cast<unsigned>(S)]; }

template <typename Pred> std::optional<Scope> find(Pred P) {
  for (const ScopeRow &R : Rows)
    if (P(R))
      return R.S;
  return std::nullopt;
}
} // namespace

StringRef libcuName(Scope S) { return row(S).Libcu; }
StringRef ptxQualifier(Scope S) { return row(S).Ptx; }
StringRef shortName(Scope S) { return row(S).Libcu.drop_front(strlen("thread_scope_")); }

std::optional<Scope> scopeFromLibcuName(StringRef Name) {
  Name = unqualified(Name);
  return find([&](const ScopeRow &R) { return R.Libcu == Name; });
}
std::optional<Scope> scopeFromLibcuValue(int64_t V) {
  return find([&](const ScopeRow &R) { return R.LibcuValue == V; });
}
std::optional<Scope> scopeFromPtxQualifier(StringRef Q) {
  Q.consume_front(".");
  if (Q == "gl") // membar.gl
    return Scope::Device;
  if (Q.empty())
    return std::nullopt;
  return find([&](const ScopeRow &R) { return R.Ptx == Q; });
}
std::optional<Scope> scopeFromSyncScope(StringRef Name) {
  return find([&](const ScopeRow &R) { return R.SyncScope == Name; });
}
std::optional<Scope> scopeFromNvAtomicValue(int64_t V) {
  return find([&](const ScopeRow &R) { return R.NvValue == V; });
}
std::optional<Scope> scopeFromClangMemoryScope(int64_t V) {
  return find([&](const ScopeRow &R) { return R.ClangValue == V; });
}
std::optional<Scope> scopeFromEnumeratorName(StringRef Name) {
  if (auto S = scopeFromLibcuName(Name))
    return S;
  return find([&](const ScopeRow &R) { return R.NvName == Name || R.ClangName == Name; });
}

bool hasAcquire(Order O) {
  return O == Order::Acquire || O == Order::AcqRel || O == Order::SeqCst || O == Order::Consume;
}
bool hasRelease(Order O) { return O == Order::Release || O == Order::AcqRel || O == Order::SeqCst; }

StringRef orderName(Order O) {
  switch (O) {
  case Order::Plain: return "plain";
  case Order::Volatile: return "volatile";
  case Order::Relaxed: return "relaxed";
  case Order::Consume: return "consume";
  case Order::Acquire: return "acquire";
  case Order::Release: return "release";
  case Order::AcqRel: return "acq_rel";
  case Order::SeqCst: return "seq_cst";
  }
  return "plain";
}

std::optional<Order> orderFromName(StringRef Name) {
  Name = unqualified(Name);
  for (StringRef Prefix : {"memory_order_", "__ATOMIC_", "__NV_ATOMIC_"})
    if (Name.consume_front(Prefix))
      break;
  std::string Lower = Name.lower();
  return StringSwitch<std::optional<Order>>(Lower)
      .Case("relaxed", Order::Relaxed)
      .Case("consume", Order::Consume)
      .Case("acquire", Order::Acquire)
      .Case("release", Order::Release)
      .Case("acq_rel", Order::AcqRel)
      .Cases({"seq_cst", "sc"}, Order::SeqCst)
      .Case("volatile", Order::Volatile)
      .Default(std::nullopt);
}

std::optional<Order> orderFromC11Value(int64_t V) {
  static constexpr Order ByValue[] = {Order::Relaxed, Order::Consume, Order::Acquire,
                                      Order::Release, Order::AcqRel,  Order::SeqCst};
  if (V < 0 || V > 5)
    return std::nullopt;
  return ByValue[V];
}

std::optional<DeviceBuiltin> parseDeviceBuiltin(StringRef Name) {
  if (Name == "__syncthreads" || Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or")
    return DeviceBuiltin{DeviceBuiltin::BlockBarrier, Scope::Block, Name};
  if (Name == "__syncwarp")
    return DeviceBuiltin{DeviceBuiltin::WarpBarrier, Scope::Block, Name};
  if (Name.consume_front("__threadfence")) {
    if (Name.empty())
      return DeviceBuiltin{DeviceBuiltin::Fence, Scope::Device, "__threadfence"};
    for (const ScopeRow &R : Rows)
      if (!R.BuiltinSuffix.empty() && R.BuiltinSuffix == Name)
        return DeviceBuiltin{DeviceBuiltin::Fence, R.S, "__threadfence"};
    return std::nullopt;
  }
  if (!Name.starts_with("atomic"))
    return std::nullopt;
  // The unsuffixed builtin is device scope; _block, _system (and _cluster on
  // newer toolkits) narrow or widen it.
  StringRef Op = Name;
  Scope S = Scope::Device;
  for (const ScopeRow &R : Rows)
    if (!R.BuiltinSuffix.empty() && Name.ends_with(R.BuiltinSuffix)) {
      Op = Name.drop_back(R.BuiltinSuffix.size());
      S = R.S;
      break;
    }
  auto Kind = StringSwitch<std::optional<DeviceBuiltin::Kind>>(Op)
                  .Cases({"atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
                          "atomicAnd", "atomicOr", "atomicXor"},
                         DeviceBuiltin::AtomicRMW)
                  .Case("atomicExch", DeviceBuiltin::AtomicExchange)
                  .Case("atomicCAS", DeviceBuiltin::AtomicCAS)
                  .Default(std::nullopt);
  if (!Kind)
    return std::nullopt;
  return DeviceBuiltin{*Kind, S, Op};
}

std::optional<unsigned> measuredCycles(Scope S, bool Fence) {
  int C = Fence ? row(S).FenceCycles : row(S).OrderedAtomicCycles;
  return C >= 0 ? std::optional<unsigned>(C) : std::nullopt;
}

std::optional<std::string> deviceBuiltinName(StringRef Operation, Scope S) {
  if (S != Scope::Block && S != Scope::Device && S != Scope::System)
    return std::nullopt;
  return Operation.str() + row(S).BuiltinSuffix.str();
}

std::optional<BarrierFunction> barrierFunction(StringRef QualifiedName) {
  // cooperative_groups.h (CUDA 13): grid_group::sync() calls details::grid::sync,
  // which is sync_grids_arrive then sync_grids_wait (details/sync.h), a release
  // and an acquire on the grid's barrier word. The namespace __v1 inside
  // cooperative_groups is not inline: plainFunctionName drops it.
  using B = std::optional<BarrierFunction>;
  std::string Name = plainFunctionName(QualifiedName);
  return StringSwitch<B>(Name)
      .Cases({"cooperative_groups::grid_group::sync", "cooperative_groups::details::grid::sync",
              "cooperative_groups::details::sync_grids", "cooperative_groups::details::sync_grids_arrive",
              "cooperative_groups::details::sync_grids_wait"},
             BarrierFunction{OpKind::GridBarrier, Scope::Device})
      .Cases({"cooperative_groups::multi_grid_group::sync", "cooperative_groups::details::multi_grid::sync"},
             BarrierFunction{OpKind::GridBarrier, Scope::System})
      .Case("cooperative_groups::thread_block::sync", BarrierFunction{OpKind::BlockBarrier, Scope::Block})
      // A tile of several warps (64 to 512 threads): details/sync.h's
      // sync_warps, an atom.or.acq_rel.cta arrival on a shared word, an
      // ld.acquire.cta spin and __syncwarp around them.
      .Cases({"cooperative_groups::__static_size_multi_warp_tile_base::sync",
              "cooperative_groups::details::sync_warps"},
             BarrierFunction{OpKind::BlockBarrier, Scope::Block, /*OfTile=*/true})
      // A tile of one warp or less, and a coalesced group, sync with __syncwarp(mask) of their lanes.
      .Cases({"cooperative_groups::__static_size_thread_block_tile_base::sync",
              "cooperative_groups::coalesced_group::sync"},
             BarrierFunction{OpKind::WarpBarrier, Scope::Block})
      .Default(std::nullopt);
}

std::optional<uint64_t> firstTemplateInteger(StringRef PrintedName) {
  size_t Open = PrintedName.find('<');
  if (Open == StringRef::npos)
    return std::nullopt;
  StringRef Arg = PrintedName.drop_front(Open + 1);
  Arg = Arg.take_until([](char C) { return C == ',' || C == '>'; }).trim();
  Arg = Arg.rtrim("uUlL");
  uint64_t V;
  if (Arg.empty() || Arg.getAsInteger(0, V))
    return std::nullopt;
  return V;
}

void TileShapes::noteCall(StringRef PlainName, std::optional<uint64_t> TemplateArg) {
  if (PlainName == "cooperative_groups::this_thread_block") {
    if (TemplateArg)
      noteLaunchBound(*TemplateArg);
  } else if (PlainName == "cooperative_groups::tiled_partition") {
    if (!TemplateArg)
      SizeUnknown = true;
    else
      noteTile(*TemplateArg);
  }
}

void TileShapes::noteTile(uint64_t Threads) {
  if (Threads > uint64_t(WarpSize))
    SmallestTile = SmallestTile ? std::min(*SmallestTile, Threads) : Threads;
}

void TileShapes::noteLaunchBound(uint64_t MaxThreads) {
  if (MaxThreads > 0)
    MaxBlock = MaxBlock ? std::min(*MaxBlock, MaxThreads) : MaxThreads;
}

bool TileShapes::syncIsBlockBarrier(std::optional<uint64_t> SyncTile) const {
  if (!MaxBlock)
    return false;
  if (SyncTile)
    return *SyncTile >= *MaxBlock;
  return !SizeUnknown && SmallestTile && *SmallestTile >= *MaxBlock;
}

std::string TileShapes::describe() const {
  std::string Out = MaxBlock ? "block<=" + std::to_string(*MaxBlock) : "block unbounded";
  Out += SmallestTile ? " tiles>=" + std::to_string(*SmallestTile) : " no tile of several warps";
  return SizeUnknown ? Out + " and a tile of unknown size" : Out;
}

std::string plainFunctionName(StringRef Demangled) {
  // Drop what is inside <> and () at any depth, keep the last word at depth 0
  // (the return type comes first), then the inline namespaces.
  std::string Flat;
  int Angle = 0, Paren = 0;
  for (char C : Demangled) {
    if (C == '<')
      ++Angle;
    else if (C == '>' && Angle > 0)
      --Angle;
    else if (C == '(')
      ++Paren;
    else if (C == ')' && Paren > 0)
      --Paren;
    else if (Angle == 0 && Paren == 0)
      Flat += C;
  }
  StringRef Name = StringRef(Flat).trim();
  if (size_t Space = Name.rfind(' '); Space != StringRef::npos)
    Name = Name.drop_front(Space + 1);
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, "::");
  std::string Out;
  for (StringRef P : Parts) {
    if (P.starts_with("__v") && P.size() > 3 && all_of(P.drop_front(3), isDigit))
      continue;
    if (!Out.empty())
      Out += "::";
    Out += P.str();
  }
  return Out;
}

IndexCompare swapped(IndexCompare Op) {
  switch (Op) {
  case IndexCompare::LT: return IndexCompare::GT;
  case IndexCompare::LE: return IndexCompare::GE;
  case IndexCompare::GT: return IndexCompare::LT;
  case IndexCompare::GE: return IndexCompare::LE;
  default: return Op;
  }
}

IndexCompare inverted(IndexCompare Op) {
  switch (Op) {
  case IndexCompare::EQ: return IndexCompare::NE;
  case IndexCompare::NE: return IndexCompare::EQ;
  case IndexCompare::LT: return IndexCompare::GE;
  case IndexCompare::LE: return IndexCompare::GT;
  case IndexCompare::GT: return IndexCompare::LE;
  case IndexCompare::GE: return IndexCompare::LT;
  }
  return Op;
}

std::optional<int64_t> blockPinnedBy(IndexCompare Op, int64_t C, bool WhenTrue) {
  if (C < 0)
    return std::nullopt;
  // The blocks for which the comparison comes out WhenTrue are {C}, or
  // [0, N) for some N: one block when that range is {0}.
  switch (Op) {
  case IndexCompare::EQ: return WhenTrue ? std::optional<int64_t>(C) : std::nullopt;
  case IndexCompare::NE: return WhenTrue ? std::nullopt : std::optional<int64_t>(C);
  case IndexCompare::LT: return WhenTrue && C == 1 ? std::optional<int64_t>(0) : std::nullopt;
  case IndexCompare::LE: return WhenTrue && C == 0 ? std::optional<int64_t>(0) : std::nullopt;
  case IndexCompare::GT: return !WhenTrue && C == 0 ? std::optional<int64_t>(0) : std::nullopt;
  case IndexCompare::GE: return !WhenTrue && C == 1 ? std::optional<int64_t>(0) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> threadsBelow(IndexCompare Op, int64_t C, bool WhenTrue) {
  if (C < 0)
    return std::nullopt;
  if (!WhenTrue)
    Op = inverted(Op);
  switch (Op) {
  case IndexCompare::LT: return C;
  case IndexCompare::LE:
  case IndexCompare::EQ: return C + 1;
  default: return std::nullopt;
  }
}

std::optional<int64_t> rankGroupOf(int64_t Operand, bool IsMask) {
  int64_t G = IsMask ? Operand + 1 : Operand;
  if (G < 2 || !isPowerOf2_64(static_cast<uint64_t>(G)))
    return std::nullopt;
  return G == WarpSize ? 0 : G;
}

std::optional<ThreadBound> threadsBelow(IndexCompare Op, int64_t C, bool WhenTrue, int64_t Group) {
  if (Group == 0) {
    std::optional<int64_t> B = threadsBelow(Op, C, WhenTrue);
    return B ? std::optional<ThreadBound>(ThreadBound{*B, 0}) : std::nullopt;
  }
  if (Group < 2 || Group > 1024)
    return std::nullopt;
  int64_t Ranks = 0;
  for (int64_t R = 0; R < Group; ++R) {
    bool Holds = Op == IndexCompare::EQ   ? R == C
                 : Op == IndexCompare::NE ? R != C
                 : Op == IndexCompare::LT ? R < C
                 : Op == IndexCompare::LE ? R <= C
                 : Op == IndexCompare::GT ? R > C
                                          : R >= C;
    Ranks += Holds == WhenTrue;
  }
  if (Ranks == 0 || Ranks == Group)
    return std::nullopt;
  return ThreadBound{Ranks, Group};
}

ThreadBound bothBounds(ThreadBound A, ThreadBound B) {
  if ((A.Group == 0) != (B.Group == 0))
    return A.Group == 0 ? A : B;
  if (A.Group == B.Group)
    return A.Below <= B.Below ? A : B;
  // Shares of different groups: the lesser share (1 of 16 before 4 of 32).
  return A.Below * B.Group <= B.Below * A.Group ? A : B;
}

bool runsInFewerThreads(int64_t FewerBelow, int64_t FewerGroup, int64_t MoreBelow, int64_t MoreGroup) {
  if (FewerBelow < 1)
    return false;
  if (MoreBelow == -1) // every thread runs the other
    return FewerGroup == 0 || FewerBelow < FewerGroup;
  if (MoreBelow < 0)
    return false;
  if (FewerGroup == MoreGroup)
    return FewerBelow < MoreBelow;
  // A share of each group against a bound on the index (or another group's
  // share): which is fewer depends on the block's size.
  return false;
}

bool readsLibraryFunctionBody(StringRef QualifiedName) {
  return QualifiedName.starts_with("cooperative_groups::") || walksLibraryFunction(QualifiedName);
}

bool walksLibraryFunction(StringRef QualifiedName) {
  // NCCL's device API (ncclLsaBarrierSession::sync, ncclGin::put,
  // nccl::utility::...) and NVSHMEM's (nvshmem_barrier_all, nvshmemx_*).
  return QualifiedName.starts_with("nccl") || QualifiedName.starts_with("nvshmem");
}

PeerTransfer peerTransferOf(StringRef QualifiedName) {
  // ncclGin is ncclGin_BackendMask<every backend>: its methods, and the C
  // API's functions (ncclGinPut, and the _v2 forms they call).
  if (QualifiedName.consume_front("ncclGin_BackendMask::"))
    return StringSwitch<PeerTransfer>(QualifiedName)
        .Cases({"put", "putValue"}, PeerTransfer::Put)
        .Case("get", PeerTransfer::Get)
        .Case("signal", PeerTransfer::Signal)
        .Default(PeerTransfer::None);
  QualifiedName.consume_back("_v2");
  return StringSwitch<PeerTransfer>(QualifiedName)
      .Cases({"ncclGinPut", "ncclGinPutValue"}, PeerTransfer::Put)
      .Case("ncclGinGet", PeerTransfer::Get)
      .Case("ncclGinSignal", PeerTransfer::Signal)
      .Default(PeerTransfer::None);
}

TransferOp transferOp(PeerTransfer T) {
  switch (T) {
  case PeerTransfer::Put: return {OpKind::Store, Order::Plain, std::nullopt};
  case PeerTransfer::Get: return {OpKind::Load, Order::Plain, std::nullopt};
  case PeerTransfer::Signal: return {OpKind::RMW, Order::Release, Scope::System};
  case PeerTransfer::None: break;
  }
  return {OpKind::Call, Order::Plain, std::nullopt};
}

std::string transferName(StringRef QualifiedName) {
  if (QualifiedName.consume_front("ncclGin_BackendMask::"))
    return ("ncclGin::" + QualifiedName).str();
  return QualifiedName.str();
}

bool returnsPeerAddress(StringRef QualifiedName) {
  // The peer index picks whose memory; the multicast forms reach every copy.
  return StringSwitch<bool>(QualifiedName)
      .Cases({"ncclGetLsaPointer", "ncclGetPeerPointer", "ncclGetMultimemPointer", "ncclGetLsaMultimemPointer"}, true)
      .Cases({"ncclGetResourceBufferLsaPointer", "ncclGetResourceBufferPeerPointer",
              "ncclGetResourceBufferMultimemPointer"},
             true)
      .Cases({"nvshmem_ptr", "nvshmemx_mc_ptr"}, true)
      .Default(false);
}

bool isWarpShuffleName(StringRef Name) {
  if (Name.starts_with("llvm.nvvm.shfl."))
    return true;
  Name.consume_back("_sync");
  return Name == "__shfl" || Name == "__shfl_up" || Name == "__shfl_down" || Name == "__shfl_xor";
}

bool isBlockIndexName(StringRef Name) {
  return Name == "blockIdx" || Name == "__nvvm_read_ptx_sreg_ctaid_x" ||
         Name == "__nvvm_read_ptx_sreg_ctaid_y" || Name == "__nvvm_read_ptx_sreg_ctaid_z";
}

bool isThreadIndexName(StringRef Name) {
  return Name == "threadIdx" || Name == "__nvvm_read_ptx_sreg_tid_x" || Name == "__nvvm_read_ptx_sreg_tid_y" ||
         Name == "__nvvm_read_ptx_sreg_tid_z";
}

bool isBlockSizeXName(StringRef Name) { return Name == "blockDim" || Name == "__nvvm_read_ptx_sreg_ntid_x"; }

bool isGridSizeName(StringRef Name) {
  return Name == "gridDim" || Name == "__nvvm_read_ptx_sreg_nctaid_x" || Name == "__nvvm_read_ptx_sreg_nctaid_y" ||
         Name == "__nvvm_read_ptx_sreg_nctaid_z";
}

StringRef opKindName(OpKind K) {
  switch (K) {
  case OpKind::Load: return "load";
  case OpKind::Store: return "store";
  case OpKind::RMW: return "read-modify-write";
  case OpKind::Fence: return "fence";
  case OpKind::BlockBarrier: return "barrier";
  case OpKind::GridBarrier: return "grid barrier";
  case OpKind::WarpBarrier: return "warp barrier";
  case OpKind::ChildLaunch: return "child launch";
  case OpKind::Call: return "call";
  case OpKind::ClusterArrive: return "cluster arrive";
  case OpKind::ClusterWait: return "cluster wait";
  case OpKind::ProxyFence: return "proxy fence";
  case OpKind::AsyncSharedRead: return "async read of shared memory";
  }
  return "operation";
}

std::optional<SyncType> parseSyncType(StringRef Name) {
  // cuda::atomic_ref<T, Scope>, cuda::atomic<T, Scope> (libcu++,
  // cuda/__atomic/atomic.h), cuda::barrier<Scope, Completion>,
  // cuda::latch<Scope>; cuda::std:: and std:: spell the system-scope forms.
  // cuda::std::latch is an alias of cuda::std::__latch_base<Scope = system>.
  if (Name == "cuda::std::__latch_base")
    return SyncType{SyncType::Latch, 0};
  bool Cuda = Name.consume_front("cuda::");
  bool Std = Name.consume_front("std::");
  if (!Cuda && !Std)
    return std::nullopt;
  int ScopeArgOfRef = Std ? -1 : 1, ScopeArgOfSync = Std ? -1 : 0;
  return StringSwitch<std::optional<SyncType>>(Name)
      .Case("atomic_ref", SyncType{SyncType::AtomicRef, ScopeArgOfRef})
      .Case("atomic", SyncType{SyncType::Atomic, ScopeArgOfRef})
      .Case("barrier", SyncType{SyncType::Barrier, ScopeArgOfSync})
      .Case("latch", SyncType{SyncType::Latch, ScopeArgOfSync})
      .Default(std::nullopt);
}

std::optional<SyncMember> parseSyncMember(SyncType::Kind K, StringRef Member) {
  using M = std::optional<SyncMember>;
  switch (K) {
  case SyncType::AtomicRef:
  case SyncType::Atomic:
    if (Member.starts_with("fetch_") || Member.starts_with("compare_exchange_"))
      return SyncMember{OpKind::RMW, Order::SeqCst};
    return StringSwitch<M>(Member)
        .Cases({"load", "wait", "operator T"}, SyncMember{OpKind::Load, Order::SeqCst})
        .Cases({"store", "operator="}, SyncMember{OpKind::Store, Order::SeqCst})
        .Cases({"exchange", "operator++", "operator--", "operator+=", "operator-=", "operator&=",
                "operator|=", "operator^="},
               SyncMember{OpKind::RMW, Order::SeqCst})
        .Default(std::nullopt);
  case SyncType::Barrier:
    return StringSwitch<M>(Member)
        .Cases({"arrive", "arrive_and_drop"}, SyncMember{OpKind::BlockBarrier, Order::Release})
        .Case("wait", SyncMember{OpKind::BlockBarrier, Order::Acquire})
        .Case("arrive_and_wait", SyncMember{OpKind::BlockBarrier, Order::AcqRel})
        .Default(std::nullopt);
  case SyncType::Latch:
    return StringSwitch<M>(Member)
        .Case("count_down", SyncMember{OpKind::BlockBarrier, Order::Release})
        .Cases({"wait", "try_wait"}, SyncMember{OpKind::BlockBarrier, Order::Acquire})
        .Case("arrive_and_wait", SyncMember{OpKind::BlockBarrier, Order::AcqRel})
        .Default(std::nullopt);
  }
  return std::nullopt;
}

std::optional<FenceFunction> parseFenceFunction(StringRef Name) {
  if (Name == "cuda::atomic_thread_fence")
    return FenceFunction{0, 1};
  if (Name == "cuda::std::atomic_thread_fence" || Name == "std::atomic_thread_fence")
    return FenceFunction{0, -1};
  return std::nullopt;
}

std::optional<ScopedAtomicBuiltin> parseScopedAtomicBuiltin(StringRef Name) {
  ScopedAtomicBuiltin::Family F;
  if (Name.consume_front("__nv_atomic_"))
    F = ScopedAtomicBuiltin::Nv;
  else if (Name.consume_front("__scoped_atomic_"))
    F = ScopedAtomicBuiltin::Clang;
  else
    return std::nullopt;
  // Operands before the order: the pointer and the values (and, for the
  // generic forms, pointers to them); compare-exchange has a weak flag and two
  // orders, the scope after both.
  if (Name == "thread_fence")
    return ScopedAtomicBuiltin{OpKind::Fence, F, -1, 0, 1};
  if (Name == "load_n")
    return ScopedAtomicBuiltin{OpKind::Load, F, 0, 1, 2};
  if (Name == "load")
    return ScopedAtomicBuiltin{OpKind::Load, F, 0, 2, 3};
  if (Name == "store" || Name == "store_n")
    return ScopedAtomicBuiltin{OpKind::Store, F, 0, 2, 3};
  if (Name == "exchange_n")
    return ScopedAtomicBuiltin{OpKind::RMW, F, 0, 2, 3};
  if (Name == "exchange")
    return ScopedAtomicBuiltin{OpKind::RMW, F, 0, 3, 4};
  if (Name == "compare_exchange" || Name == "compare_exchange_n")
    return ScopedAtomicBuiltin{OpKind::RMW, F, 0, 4, 6};
  static constexpr StringRef Ops[] = {"add", "sub", "and", "or", "xor", "nand", "min", "max", "uinc", "udec"};
  StringRef Op = Name;
  if (!Op.consume_front("fetch_"))
    Op.consume_back("_fetch");
  for (StringRef Known : Ops)
    if (Op == Known)
      return ScopedAtomicBuiltin{OpKind::RMW, F, 0, 2, 3};
  return std::nullopt;
}

std::optional<Scope> scopeFromBuiltinValue(ScopedAtomicBuiltin::Family F, int64_t V) {
  return F == ScopedAtomicBuiltin::Nv ? scopeFromNvAtomicValue(V) : scopeFromClangMemoryScope(V);
}

std::optional<Allocation> allocationByApi(StringRef Name) {
  return StringSwitch<std::optional<Allocation>>(normalizeApiName(Name))
      .Cases({"cudaMalloc", "cudaMallocAsync", "cudaMallocFromPoolAsync", "cudaMallocPitch", "cuMemAlloc",
              "cuMemAllocAsync", "cuMemAllocPitch"},
             Allocation::Device)
      .Cases({"cudaMallocManaged", "cuMemAllocManaged"}, Allocation::Managed)
      .Cases({"cudaMallocHost", "cudaHostAlloc", "cuMemAllocHost", "cuMemHostAlloc"}, Allocation::MappedHost)
      .Default(std::nullopt);
}

IndexDeps combineIndex(Arith A, const IndexDeps &L, const IndexDeps &R, std::optional<int64_t> RHS,
                       std::optional<int64_t> LHS) {
  IndexDeps Out;
  if (keepsIndicesApart(A)) {
    Out = L;
    Out |= R;
  }
  Out.Read = L.Read || R.Read; // slot & (size - 1) keeps nothing apart, and still varies with the slot
  Out.Varies = L.Varies || R.Varies; // so does the lane, tid & 31
  Out.ThreadVaries = L.ThreadVaries || R.ThreadVaries;
  // Whole warps: what reads the block's index (or the grid's size) through a
  // factor of whole warps, and sums of such terms and of terms that read
  // neither.
  auto Whole = [](const IndexDeps &D, std::optional<int64_t> K) {
    return D.WarpMultiple || (K && *K != 0 && isWarpMultiple(*K));
  };
  auto ReadsGrid = [](const IndexDeps &D) { return D.Block || D.Grid; };
  auto Scaled = [&](const IndexDeps &D) { return D.InWarps || !ReadsGrid(D); };
  bool LWhole = Whole(L, LHS), RWhole = Whole(R, RHS);
  switch (A) {
  case Arith::Add:
  case Arith::Sub:
  case Arith::DisjointOr:
    Out.WarpMultiple = LWhole && RWhole;
    Out.InWarps = ReadsGrid(Out) && Scaled(L) && Scaled(R);
    break;
  case Arith::Mul:
    Out.WarpMultiple = LWhole || RWhole;
    Out.InWarps = ReadsGrid(Out) && (LWhole || RWhole || (Scaled(L) && Scaled(R)));
    break;
  case Arith::Truncate:
    Out.WarpMultiple = L.WarpMultiple;
    Out.InWarps = L.InWarps;
    break;
  case Arith::Shl:
    Out.WarpMultiple = LWhole || (RHS && isWarpMultipleShift(*RHS));
    Out.InWarps = ReadsGrid(Out) && (Out.WarpMultiple || L.InWarps);
    break;
  default: break;
  }
  // The thread's warp keeps a block's warps apart; a block's (the grid's)
  // whole warps keep blocks apart (step over the grid) once divided.
  bool WarpStep = RHS && ((A == Arith::Shr && isWarpShift(*RHS)) || (A == Arith::Div && isWarpDivisor(*RHS)));
  if (!keepsIndicesApart(A) && WarpStep && (L.Thread || L.Warp))
    Out.Warp = true;
  if (!keepsIndicesApart(A) && WarpStep && L.InWarps) {
    Out.Block = L.Block;
    Out.Grid = L.Grid;
  }
  return Out;
}

IndexDeps blockSizeIndex() {
  IndexDeps Out;
  Out.WarpMultiple = true;
  return Out;
}

std::optional<IndexDeps> rangeIndex(const IndexDeps &Start, const IndexDeps &Step, const IndexDeps &Bound) {
  if (!Start.Block || !Bound.Block || Step.Block || Step.Thread || Step.Warp || Step.ThreadVaries)
    return std::nullopt;
  IndexDeps Out = Start;
  Out.Varies |= Step.Varies;
  Out.Read |= Step.Read;
  Out.WarpMultiple = Out.InWarps = false;
  Out.InRange = true;
  return Out;
}

std::optional<IndexDeps> strideIndex(const IndexDeps &Start) {
  if (!Start.Block || !(Start.Thread || Start.Warp))
    return std::nullopt;
  IndexDeps Out;
  Out.Block = true;
  Out.Thread = Start.Thread;
  Out.Warp = Start.Warp && !Start.Thread;
  Out.Varies = Out.ThreadVaries = true;
  return Out;
}

IndexDeps loadedIndex(const IndexDeps &Address) {
  IndexDeps Out = Address;
  Out.Read = true;
  Out.WarpMultiple = Out.InWarps = false; // what memory holds is any value
  if (Address.InRange)
    Out.Block = Out.Thread = Out.Warp = Out.InRange = false;
  return Out;
}

} // namespace cuda_scope
