//===- MemoryModel.cpp - scopes and orders, read from every CUDA spelling -===//
#include "MemoryModel.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace cuda_scope {
namespace {
struct ScopeRow {
  Scope S;
  StringRef Libcu, Ptx, SyncScope, BuiltinSuffix, NvName, ClangName;
  int64_t LibcuValue, NvValue, ClangValue;
};
constexpr ScopeRow Rows[] = {
#define CUDA_SCOPE(Name, Libcu, Ptx, Sync, Suffix, NvName, ClangName, LV, NV, CV)                   \
  {Scope::Name, Libcu, Ptx, Sync, Suffix, NvName, ClangName, LV, NV, CV},
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

} // namespace cuda_scope
