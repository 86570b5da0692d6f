//===- Ptx.cpp - the one parser of inline PTX ------------------------------===//
#include "Ptx.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace cuda_scope {
namespace {

std::string stripComments(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size();) {
    if (Text.substr(I).starts_with("//")) {
      size_t End = Text.find('\n', I);
      I = End == StringRef::npos ? Text.size() : End;
    } else if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == StringRef::npos ? Text.size() : End + 2;
      Out.push_back(' ');
    } else {
      Out.push_back(Text[I++]);
    }
  }
  return Out;
}

std::optional<MemorySpace> spaceFromQualifier(StringRef Q) {
  return StringSwitch<std::optional<MemorySpace>>(Q)
      .Case("global", MemorySpace::Global)
      .Cases({"shared", "shared::cta"}, MemorySpace::Shared)
      .Case("shared::cluster", MemorySpace::SharedCluster)
      .Case("local", MemorySpace::Local)
      .Case("const", MemorySpace::Constant)
      .Case("param", MemorySpace::Param)
      .Default(std::nullopt);
}

/// Splits operands at top-level commas: "[%0+4], {%1, %2}" is two operands.
SmallVector<std::string, 4> splitOperands(StringRef Text) {
  SmallVector<std::string, 4> Ops;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Text.size(); ++I) {
    char C = I < Text.size() ? Text[I] : ',';
    if (C == '[' || C == '{' || C == '(')
      ++Depth;
    else if (C == ']' || C == '}' || C == ')')
      --Depth;
    else if (C == ',' && Depth <= 0) {
      StringRef Op = Text.slice(Start, I).trim();
      if (!Op.empty())
        Ops.push_back(Op.str());
      Start = I + 1;
    }
  }
  return Ops;
}

/// Drops a leading "label:" (but not the "::" of shared::cta).
StringRef dropLabel(StringRef S) {
  size_t I = 0;
  while (I < S.size() && (isAlnum(S[I]) || S[I] == '_' || S[I] == '$'))
    ++I;
  if (I > 0 && I < S.size() && S[I] == ':' && (I + 1 == S.size() || S[I + 1] != ':'))
    return S.drop_front(I + 1).ltrim();
  return S;
}

void decodeAccess(PtxInstr &In) {
  for (const std::string &Q : In.Qualifiers) {
    StringRef QR(Q);
    if (auto O = orderFromName(QR))
      In.Sem = *O;
    else if (auto S = scopeFromPtxQualifier(QR))
      In.ScopeQual = *S;
    else if (auto Sp = spaceFromQualifier(QR))
      In.Space = *Sp;
  }
  // atom and red are relaxed at .gpu scope unless told otherwise; a volatile
  // ld/st behaves as relaxed at system scope.
  if (In.What == PtxInstr::Atomic || In.What == PtxInstr::Reduction) {
    if (In.Sem == Order::Plain)
      In.Sem = Order::Relaxed;
    if (!In.ScopeQual)
      In.ScopeQual = Scope::Device;
  } else if (In.Sem == Order::Volatile && !In.ScopeQual) {
    In.ScopeQual = Scope::System;
  }
  for (unsigned I = 0; I < In.Operands.size(); ++I)
    if (StringRef(In.Operands[I]).starts_with("[")) {
      In.AddressOperand = I;
      break;
    }
}

void decode(PtxInstr &In) {
  StringRef Op = In.Opcode;
  auto Has = [&](StringRef Q) { return In.hasQualifier(Q); };
  if (Op == "ld" || Op == "ldu") {
    In.What = PtxInstr::Load;
    decodeAccess(In);
  } else if (Op == "st") {
    In.What = PtxInstr::Store;
    decodeAccess(In);
  } else if (Op == "atom") {
    In.What = PtxInstr::Atomic;
    decodeAccess(In);
  } else if (Op == "red") {
    In.What = PtxInstr::Reduction;
    decodeAccess(In);
  } else if (Op == "multimem" && !In.Qualifiers.empty()) {
    // multimem.ld_reduce, .st, .red: one access of every device's copy of a
    // multicast object (sm_90). ld_reduce and st are weak unless a
    // semantics is written (.relaxed/.acquire, .relaxed/.release); red is
    // relaxed at .gpu scope unless told otherwise, as red is.
    StringRef Form = In.Qualifiers.front();
    if (Form == "ld_reduce")
      In.What = PtxInstr::Load;
    else if (Form == "st")
      In.What = PtxInstr::Store;
    else if (Form == "red")
      In.What = PtxInstr::Reduction;
    else
      return;
    In.Multicast = true;
    decodeAccess(In);
    if (In.What != PtxInstr::Reduction && In.Sem != Order::Plain && !In.ScopeQual)
      In.ScopeQual = Scope::Device;
  } else if (Op == "fence" || Op == "membar") {
    if (!In.Qualifiers.empty() && In.Qualifiers.front() == "proxy") {
      In.What = PtxInstr::ProxyFence;
      In.Proxy = join(ArrayRef<std::string>(In.Qualifiers).drop_front(), ".");
      return;
    }
    In.What = PtxInstr::Fence;
    // fence without a semantics qualifier is fence.acq_rel; membar is fence.sc.
    In.Sem = Op == "membar" ? Order::SeqCst : Order::AcqRel;
    for (const std::string &Q : In.Qualifiers) {
      if (auto O = orderFromName(Q))
        In.Sem = *O;
      else if (auto S = scopeFromPtxQualifier(Q))
        In.ScopeQual = *S;
    }
  } else if (Op == "bar" || Op == "barrier") {
    if (Has("cluster")) {
      bool Arrive = Has("arrive");
      In.What = Arrive ? PtxInstr::ClusterArrive : Has("wait") ? PtxInstr::ClusterWait : PtxInstr::Other;
      In.ScopeQual = Scope::Cluster;
      In.Sem = Has("relaxed") ? Order::Relaxed : Arrive ? Order::Release : Order::Acquire;
    } else if (!Has("warp")) {
      In.What = PtxInstr::BlockBarrier;
      In.ScopeQual = Scope::Block;
      In.Sem = Order::AcqRel;
    }
  } else if (Op == "mbarrier" && !In.Qualifiers.empty()) {
    // An arrive (arrive_drop, arrive.expect_tx) is a release and a
    // test_wait/try_wait that succeeds an acquire, at .cta scope, unless
    // another semantics or scope is written. init, inval, expect_tx,
    // complete_tx and pending_count only set the barrier up or count bytes:
    // they order nothing (Sem stays Plain).
    In.What = PtxInstr::MBarrier;
    decodeAccess(In);
    StringRef Form = In.Qualifiers.front();
    bool Arrive = Form == "arrive" || Form == "arrive_drop";
    bool Wait = Form == "test_wait" || Form == "try_wait";
    if (!Arrive && !Wait) {
      In.Sem = Order::Plain;
      In.ScopeQual.reset();
    } else {
      if (In.Sem == Order::Plain)
        In.Sem = Arrive ? Order::Release : Order::Acquire;
      if (!In.ScopeQual)
        In.ScopeQual = Scope::Block;
    }
  } else if ((Op == "cp" || Op == "cp.reduce") && Has("async") && Has("bulk")) {
    if (Has("commit_group") || Has("wait_group")) {
      In.What = PtxInstr::BulkGroup;
      return;
    }
    if (Has("prefetch"))
      return;
    In.What = PtxInstr::BulkCopy;
    // cp{.reduce}.async.bulk{.tensor.Nd}.dst.src...: the first state space
    // named is written, the second read.
    SmallVector<MemorySpace, 2> Spaces;
    for (const std::string &Q : In.Qualifiers)
      if (auto Sp = spaceFromQualifier(Q))
        Spaces.push_back(*Sp);
    if (!Spaces.empty())
      In.Destination = Spaces[0];
    if (Spaces.size() > 1)
      In.Source = Spaces[1];
  } else if (Op == "wgmma") {
    In.What = PtxInstr::Wgmma;
  }
}

} // namespace

bool PtxInstr::hasQualifier(StringRef Q) const {
  return any_of(Qualifiers, [&](const std::string &X) { return X == Q; });
}

/// The asm operand number \p Text names ("%1", "[%1+8]", LLVM's "$1" or
/// "${1:mod}"), if it names one.
static std::optional<unsigned> operandNumber(StringRef Text) {
  StringRef A = Text.trim("[] \t");
  if (!A.consume_front("%") && !A.consume_front("${") && !A.consume_front("$"))
    return std::nullopt;
  unsigned N = 0;
  size_t Digits = 0;
  while (Digits < A.size() && isDigit(A[Digits]))
    N = N * 10 + (A[Digits++] - '0');
  if (Digits == 0)
    return std::nullopt;
  return N;
}

std::optional<unsigned> PtxInstr::addressOperandNumber() const {
  if (!AddressOperand)
    return std::nullopt;
  return operandNumber(Operands[*AddressOperand]);
}

std::optional<unsigned> PtxInstr::valueOperandNumber() const {
  if ((What != Atomic && What != Reduction) || !AddressOperand || *AddressOperand + 1 >= Operands.size())
    return std::nullopt;
  return operandNumber(Operands[*AddressOperand + 1]);
}

std::vector<PtxInstr> parsePtx(StringRef Text) {
  std::vector<PtxInstr> Out;
  std::string Clean = stripComments(Text);
  SmallVector<StringRef, 8> Statements;
  StringRef(Clean).split(Statements, ';');
  for (StringRef S : Statements) {
    S = S.trim(" \t\r\n{}");
    S = dropLabel(S);
    if (S.empty() || S.starts_with("."))
      continue;
    PtxInstr In;
    if (S.consume_front("@")) {
      In.Predicated = true;
      S = S.ltrim("!");
      size_t End = S.find_first_of(" \t");
      S = End == StringRef::npos ? StringRef() : S.drop_front(End).ltrim();
    }
    auto [Mnemonic, Rest] = S.split(' ');
    if (size_t Tab = Mnemonic.find('\t'); Tab != StringRef::npos) {
      Rest = S.drop_front(Tab);
      Mnemonic = Mnemonic.take_front(Tab);
    }
    if (Mnemonic.empty() || !isAlpha(Mnemonic.front()))
      continue;
    In.Mnemonic = Mnemonic.str();
    SmallVector<StringRef, 8> Parts;
    Mnemonic.split(Parts, '.');
    In.Opcode = Parts.front().str();
    if (In.Opcode == "cp" && Parts.size() > 1 && Parts[1] == "reduce") {
      In.Opcode = "cp.reduce";
      Parts.erase(Parts.begin() + 1);
    }
    for (StringRef P : ArrayRef<StringRef>(Parts).drop_front())
      In.Qualifiers.push_back(P.str());
    In.Operands = splitOperands(Rest);
    decode(In);
    Out.push_back(std::move(In));
  }
  return Out;
}

StringRef ptxKindName(PtxInstr::Kind K) {
  switch (K) {
  case PtxInstr::Load: return "load";
  case PtxInstr::Store: return "store";
  case PtxInstr::Atomic: return "atomic";
  case PtxInstr::Reduction: return "reduction";
  case PtxInstr::Fence: return "fence";
  case PtxInstr::ProxyFence: return "proxy-fence";
  case PtxInstr::BlockBarrier: return "block-barrier";
  case PtxInstr::ClusterArrive: return "cluster-arrive";
  case PtxInstr::ClusterWait: return "cluster-wait";
  case PtxInstr::MBarrier: return "mbarrier";
  case PtxInstr::BulkCopy: return "bulk-copy";
  case PtxInstr::BulkGroup: return "bulk-group";
  case PtxInstr::Wgmma: return "wgmma";
  case PtxInstr::Other: return "other";
  }
  return "other";
}

std::optional<OpKind> opKindOf(const PtxInstr &P) {
  switch (P.What) {
  case PtxInstr::Load: return OpKind::Load;
  case PtxInstr::Store: return OpKind::Store;
  case PtxInstr::Atomic:
  case PtxInstr::Reduction: return OpKind::RMW;
  case PtxInstr::Fence: return OpKind::Fence;
  case PtxInstr::BlockBarrier: return OpKind::BlockBarrier;
  case PtxInstr::ClusterArrive: return OpKind::ClusterArrive;
  case PtxInstr::ClusterWait: return OpKind::ClusterWait;
  case PtxInstr::MBarrier:
    // A barrier object's arrive or wait, as cuda::barrier's are.
    if (P.Sem == Order::Plain)
      return std::nullopt;
    return OpKind::BlockBarrier;
  case PtxInstr::ProxyFence:
    if (llvm::StringRef(P.Proxy).starts_with("async"))
      return OpKind::ProxyFence;
    return std::nullopt;
  case PtxInstr::BulkCopy:
    if (P.Source == MemorySpace::Shared)
      return OpKind::AsyncSharedRead;
    return std::nullopt;
  case PtxInstr::Wgmma: return OpKind::AsyncSharedRead;
  default: return std::nullopt;
  }
}

} // namespace cuda_scope
