//===- IrCalls.cpp - calls as operations ----------------------------------===//
//
// Three kinds of call stand for something other than the instructions the
// pass reads inside them.
//
// Cooperative groups' grid sync, inlined or called, is the grid barrier its
// table names (model/barrierFunction), not its arrive and wait words.
//
// A call of a function -O2 did not inline (a lambda called from several
// places) runs its operations in its own list; at the call, the caller's
// list has one operation that orders what a fence would where the callee
// (or what it calls) holds a fence, a barrier, an acquire or a release, as
// the AST front end, which walks into the call, sees them there.
//
// A communication library's transfer (NCCL's ncclGin put, get and signal:
// model/peerTransferOf) is, once -O2 inlines it, the library's posting of a
// descriptor for a proxy thread or a NIC: stores into a queue, a wait for
// room in it, a doorbell. What the rules need is what the contract says the
// call does, a write or read of a peer's memory or a signal into it; the
// AST front end puts that operation at the call and does not walk its body.
// Here the operations inlined from one call of such a function become that
// one operation, at the first of them.
//
//===----------------------------------------------------------------------===//
#include "DeviceMemoryOps.h"
#include "IrAddresses.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include <functional>

using namespace llvm;

namespace cuda_scope {
namespace {

/// The plain qualified name of a function the debug information names:
/// from its linkage name where there is one; line tables alone give the
/// bare name, whose file says whose method it is (the file that defines
/// ncclGin_BackendMask's methods: gin__funcs.h, in the toolkit and in NCCL's
/// own tree).
std::string nameOf(const DISubprogram &SP) {
  if (!SP.getLinkageName().empty())
    return plainFunctionName(demangle(SP.getLinkageName()));
  StringRef Name = SP.getName().split('<').first;
  if (SP.getFilename().ends_with("gin__funcs.h") && !Name.starts_with("ncclGin"))
    return ("ncclGin_BackendMask::" + Name).str();
  return Name.str();
}

} // namespace

std::optional<Scope> BarrierFunctions::ofFunction(const Function &F) { return lookup(F.getSubprogram(), F.getName()); }

std::optional<Scope> BarrierFunctions::inlinedFrom(const Instruction &I) {
  for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt())
    if (const DISubprogram *SP = L->getScope() ? L->getScope()->getSubprogram() : nullptr)
      if (std::optional<Scope> S = lookup(SP, StringRef()))
        return S;
  return std::nullopt;
}

std::optional<Scope> BarrierFunctions::lookup(const DISubprogram *SP, StringRef Mangled) {
  const void *Key = SP ? static_cast<const void *>(SP) : Mangled.data();
  auto It = Known.find(Key);
  if (It != Known.end())
    return It->second;
  StringRef Linkage = SP && !SP->getLinkageName().empty() ? SP->getLinkageName() : Mangled;
  std::optional<Scope> S;
  std::optional<BarrierFunction> B;
  if (!Linkage.empty())
    B = barrierFunction(demangle(Linkage));
  // Line tables alone (-gline-tables-only, or the locations -Rpass keeps)
  // name a function without its namespaces: cooperative groups' file says
  // whose it is.
  else if (SP && SP->getFilename().contains("cooperative_groups"))
    B = barrierFunction(("cooperative_groups::details::" + SP->getName()).str());
  // Only the grid barrier stands for what is inside it; a block barrier's
  // inside is the barrier instruction, which the pass reads itself.
  if (B && B->What == OpKind::GridBarrier)
    S = B->S;
  Known[Key] = S;
  return S;
}

void becomeGridBarrier(IROp &Op, Scope S) {
  Op.What = OpKind::GridBarrier;
  Op.Ord = Order::AcqRel;
  Op.ScopeQual = S;
  Op.Object = Op.Address = nullptr;
  Op.Space = MemorySpace::Unknown;
  Op.PerBlock = false;
  Op.Spelling = "grid sync";
}

PeerTransfer transferOfFunction(const Function &F, std::string &Name) {
  Name = F.getSubprogram() ? nameOf(*F.getSubprogram()) : plainFunctionName(demangle(F.getName()));
  return peerTransferOf(Name);
}

IROp transferOp(const Instruction &At, PeerTransfer T, std::string Name) {
  TransferOp Kind = transferOp(T);
  IROp Op{Kind.What, &At};
  Op.Ord = Kind.Ord;
  Op.ScopeQual = Kind.S;
  Op.Transfer = true;
  Op.Spelling = transferName(Name);
  return Op;
}

void markOrderingCalls(std::vector<IROp> &Ops) {
  // What each function holds itself, and what it calls.
  DenseMap<const Function *, bool> Orders;
  DenseMap<const Function *, SmallVector<const Function *, 4>> Calls;
  for (const IROp &Op : Ops) {
    const Function *F = Op.I->getFunction();
    if (Op.Callee) {
      Calls[F].push_back(Op.Callee);
      continue;
    }
    bool Ordering = Op.What == OpKind::Fence || Op.What == OpKind::BlockBarrier || Op.What == OpKind::GridBarrier ||
                    Op.What == OpKind::WarpBarrier || Op.What == OpKind::ClusterArrive ||
                    Op.What == OpKind::ClusterWait || Op.What == OpKind::ChildLaunch || Op.Opaque ||
                    (Op.isAccess() && (hasRelease(Op.Ord) || hasAcquire(Op.Ord)));
    Orders[F] |= Ordering;
  }
  // Through the calls, each function once (a recursive call adds nothing).
  DenseMap<const Function *, bool> Done;
  std::function<bool(const Function *)> Reaches = [&](const Function *F) {
    auto [It, New] = Done.try_emplace(F, false);
    if (!New)
      return It->second;
    bool R = Orders.lookup(F);
    for (const Function *C : Calls.lookup(F))
      R = R || Reaches(C);
    Done[F] = R;
    return R;
  };
  for (IROp &Op : Ops)
    if (Op.Callee)
      Op.FenceCall = Reaches(Op.Callee);
}

void copyAtCallSites(std::vector<IROp> &Ops) {
  // A bound on what copies add to one kernel's list.
  constexpr size_t MaxCopies = 4096;
  DenseMap<const Function *, SmallVector<unsigned, 16>> Of;
  for (unsigned I = 0; I < Ops.size(); ++I)
    Of[Ops[I].I->getFunction()].push_back(I);
  const size_t Original = Ops.size();
  for (unsigned C = 0; C < Original; ++C) {
    const auto *Call = dyn_cast<CallBase>(Ops[C].I);
    const Function *Callee = Ops[C].Callee;
    if (!Call || !Callee || Callee == Call->getFunction())
      continue;
    auto It = Of.find(Callee);
    if (It == Of.end() || Ops.size() - Original + It->second.size() > MaxCopies)
      continue;
    for (unsigned I : It->second) {
      IROp Copy = Ops[I];
      Copy.Site = Call;
      // The callee's parameter is what this call passes.
      if (const auto *A = dyn_cast_or_null<Argument>(Copy.Object); A && A->getParent() == Callee &&
                                                                   A->getArgNo() < Call->arg_size())
        Copy.Object = ir::underlyingObject(Call->getArgOperand(A->getArgNo()));
      Ops.push_back(std::move(Copy));
    }
  }
}

void replaceTransfers(std::vector<IROp> &Out, size_t First) {
  DenseMap<const DISubprogram *, std::pair<PeerTransfer, std::string>> Known;
  auto Lookup = [&](const DISubprogram *SP) -> const std::pair<PeerTransfer, std::string> & {
    auto [It, New] = Known.try_emplace(SP);
    if (New && SP) {
      It->second.second = nameOf(*SP);
      It->second.first = peerTransferOf(It->second.second);
    }
    return It->second;
  };
  // The call an operation was inlined through, outermost first: its
  // call-site location is one per inlined call.
  DenseMap<const DILocation *, bool> Placed;
  std::vector<IROp> Kept(std::make_move_iterator(Out.begin() + First), std::make_move_iterator(Out.end()));
  Out.erase(Out.begin() + First, Out.end());
  for (IROp &Op : Kept) {
    const DILocation *Site = nullptr;
    std::pair<PeerTransfer, std::string> Which; // a copy: Lookup may grow the map
    for (const DILocation *L = Op.I->getDebugLoc().get(); L && L->getInlinedAt(); L = L->getInlinedAt()) {
      const DISubprogram *SP = L->getScope() ? L->getScope()->getSubprogram() : nullptr;
      if (const auto &W = Lookup(SP); W.first != PeerTransfer::None) {
        Site = L->getInlinedAt();
        Which = W;
      }
    }
    if (!Site) {
      Out.push_back(std::move(Op));
      continue;
    }
    if (Placed.try_emplace(Site, true).second)
      Out.push_back(transferOp(*Op.I, Which.first, Which.second));
  }
}

} // namespace cuda_scope
