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
// the AST front end, which walks into the call, sees them there. Both
// read only the callee's paths that a call's constant arguments leave
// open (a memory order handed down: load(ord) is a switch over ord), as
// clang-tidy follows the parameter to its value.
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
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
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

/// \p P, a pointer in \p Call's callee, is only read through: every use,
/// through address arithmetic, is a load from it.
bool onlyRead(const Value *P, unsigned Depth = 0) {
  return Depth < 4 && all_of(P->users(), [&](const User *U) {
           if (const auto *L = dyn_cast<LoadInst>(U))
             return L->getPointerOperand() == P && L->isSimple();
           return isa<GetElementPtrInst>(U) && onlyRead(U, Depth + 1);
         });
}

/// A store into a local of the caller: where, how many bytes, what.
struct LocalStore {
  int64_t At;
  int64_t Size;
  const Value *Stored;
};

/// The stores into \p AI, a local of \p Call's caller, where nothing else
/// may write it: every use, through constant offsets, is a load, a store
/// into it, a lifetime marker, a call of \p Call's callee that only reads
/// the parameter it is handed, or a store of its address into another such
/// local. None where anything else uses it.
std::optional<SmallVector<LocalStore, 4>> localStores(const AllocaInst *AI, const CallBase &Call, unsigned Depth = 0) {
  const DataLayout &DL = Call.getModule()->getDataLayout();
  const Function *Callee = Call.getCalledFunction();
  SmallVector<LocalStore, 4> Stores;
  SmallVector<std::pair<const Value *, int64_t>, 8> Work{{AI, 0}};
  while (!Work.empty()) {
    auto [V, At] = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I || I->getFunction() != Call.getFunction())
        return std::nullopt;
      if (const auto *G = dyn_cast<GetElementPtrInst>(I)) {
        APInt D(64, 0);
        if (!G->accumulateConstantOffset(DL, D) || Work.size() > 32)
          return std::nullopt;
        Work.push_back({G, At + D.getSExtValue()});
      } else if (const auto *S = dyn_cast<StoreInst>(I)) {
        if (!S->isSimple())
          return std::nullopt;
        if (U.getOperandNo() == StoreInst::getPointerOperandIndex()) {
          Stores.push_back({At, int64_t(DL.getTypeStoreSize(S->getValueOperand()->getType())), S->getValueOperand()});
          continue;
        }
        const auto *Into = dyn_cast<AllocaInst>(getUnderlyingObject(S->getPointerOperand()));
        if (Depth > 1 || !Into || Into == AI || !localStores(Into, Call, Depth + 1))
          return std::nullopt;
      } else if (const auto *C = dyn_cast<CallBase>(I)) {
        if (!C->isLifetimeStartOrEnd() &&
            (C->getCalledFunction() != Callee || !C->isArgOperand(&U) || C->getArgOperandNo(&U) >= Callee->arg_size() ||
             !onlyRead(Callee->getArg(C->getArgOperandNo(&U)))))
          return std::nullopt;
      } else if (!isa<LoadInst>(I) || !cast<LoadInst>(I)->isSimple()) {
        return std::nullopt;
      }
    }
  }
  return Stores;
}

/// The one value \p Call's caller ever stores into the \p Size bytes at
/// \p Off of its local \p AI, where nothing else may write them
/// (localStores): the only defined value a load there can return. None
/// where it stores there twice, or partly.
const Value *onlyStoreAt(const AllocaInst *AI, int64_t Off, int64_t Size, const CallBase &Call) {
  std::optional<SmallVector<LocalStore, 4>> Stores = localStores(AI, Call);
  if (!Stores)
    return nullptr;
  const Value *Found = nullptr;
  for (const LocalStore &S : *Stores) {
    if (S.At == Off && S.Size == Size && !Found)
      Found = S.Stored;
    else if (S.At < Off + Size && Off < S.At + S.Size)
      return nullptr;
  }
  return Found;
}

/// The local of \p Call's caller, and the byte in it, that the pointer
/// \p P of its callee names at the call: a parameter handed the local's
/// address, or a pointer the callee loads from such a local where the caller
/// stored one there once (a lambda's closure: a capture by reference).
/// The callee must only read through each.
std::optional<std::pair<const AllocaInst *, int64_t>> callerLocal(const Value *P, const CallBase &Call,
                                                                  unsigned Depth) {
  const DataLayout &DL = Call.getModule()->getDataLayout();
  APInt Off(64, 0);
  P = P->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
  const Value *There = nullptr;
  if (const auto *A = dyn_cast<Argument>(P)) {
    if (A->getParent() == Call.getCalledFunction() && A->getArgNo() < Call.arg_size() && onlyRead(A))
      There = Call.getArgOperand(A->getArgNo());
  } else if (const auto *L = dyn_cast<LoadInst>(P);
             L && Depth < 4 && L->isSimple() && L->getType()->isPointerTy() && onlyRead(L)) {
    if (auto Loc = callerLocal(L->getPointerOperand(), Call, Depth + 1))
      There = onlyStoreAt(Loc->first, Loc->second, DL.getTypeStoreSize(L->getType()), Call);
  }
  if (!There)
    return std::nullopt;
  APInt More(64, 0);
  const auto *AI = dyn_cast<AllocaInst>(There->stripAndAccumulateConstantOffsets(DL, More, true));
  if (!AI || AI->getFunction() != Call.getFunction())
    return std::nullopt;
  return std::make_pair(AI, Off.getSExtValue() + More.getSExtValue());
}

/// \p V's value in \p Call's callee once its parameters are the call's
/// constant arguments, where the arithmetic -O2 leaves between them folds.
std::optional<APInt> foldAt(const Value *V, const CallBase &Call, unsigned Depth = 0) {
  if (Depth > 12)
    return std::nullopt;
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return C->getValue();
  if (const auto *A = dyn_cast<Argument>(V)) {
    const auto *C = A->getParent() == Call.getCalledFunction() && A->getArgNo() < Call.arg_size()
                        ? dyn_cast<ConstantInt>(Call.getArgOperand(A->getArgNo()))
                        : nullptr;
    return C ? std::optional<APInt>(C->getValue()) : std::nullopt;
  }
  if (const auto *F = dyn_cast<FreezeInst>(V))
    return foldAt(F->getOperand(0), Call, Depth + 1);
  // A value the callee reads from its caller's memory (an order a lambda
  // captured by reference) that the caller stored once.
  if (const auto *L = dyn_cast<LoadInst>(V); L && L->isSimple() && L->getType()->isIntegerTy() && onlyRead(L->getPointerOperand()))
    if (auto Loc = callerLocal(L->getPointerOperand(), Call, 0)) {
      const DataLayout &DL = Call.getModule()->getDataLayout();
      const auto *C = dyn_cast_or_null<ConstantInt>(
          onlyStoreAt(Loc->first, Loc->second, DL.getTypeStoreSize(L->getType()), Call));
      return C ? std::optional<APInt>(C->getValue()) : std::nullopt;
    }
  if (const auto *Sel = dyn_cast<SelectInst>(V)) {
    std::optional<APInt> C = foldAt(Sel->getCondition(), Call, Depth + 1);
    return C ? foldAt(C->isZero() ? Sel->getFalseValue() : Sel->getTrueValue(), Call, Depth + 1) : std::nullopt;
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !I->getType()->isIntegerTy() || I->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned Bits = I->getType()->getIntegerBitWidth();
  if (const auto *Cast = dyn_cast<CastInst>(I)) {
    std::optional<APInt> X = foldAt(Cast->getOperand(0), Call, Depth + 1);
    if (!X)
      return std::nullopt;
    switch (Cast->getOpcode()) {
    case Instruction::ZExt: return X->zext(Bits);
    case Instruction::SExt: return X->sext(Bits);
    case Instruction::Trunc: return X->trunc(Bits);
    default: return std::nullopt;
    }
  }
  if (!isa<ICmpInst, BinaryOperator>(I))
    return std::nullopt;
  std::optional<APInt> L = foldAt(I->getOperand(0), Call, Depth + 1);
  std::optional<APInt> R = L ? foldAt(I->getOperand(1), Call, Depth + 1) : std::nullopt;
  if (!R)
    return std::nullopt;
  if (const auto *Cmp = dyn_cast<ICmpInst>(I))
    return APInt(1, ICmpInst::compare(*L, *R, Cmp->getPredicate()));
  switch (I->getOpcode()) {
  case Instruction::Add: return *L + *R;
  case Instruction::Sub: return *L - *R;
  case Instruction::And: return *L & *R;
  case Instruction::Or: return *L | *R;
  case Instruction::Xor: return *L ^ *R;
  case Instruction::Shl: return R->ult(Bits) ? std::optional<APInt>(L->shl(*R)) : std::nullopt;
  case Instruction::LShr: return R->ult(Bits) ? std::optional<APInt>(L->lshr(*R)) : std::nullopt;
  default: return std::nullopt;
  }
}

/// The blocks of the function \p Call calls that can run at this call: a
/// branch or switch whose condition folds (foldAt) goes one way. None when
/// the call passes no constant: every block can run.
class OpenPaths {
public:
  const DenseSet<const BasicBlock *> *at(const CallBase &Call) {
    auto [It, New] = Known.try_emplace(&Call);
    if (New && Call.getCalledFunction() && !Call.getCalledFunction()->isDeclaration() &&
        any_of(Call.args(), [](const Use &A) {
          return isa<ConstantInt>(A.get()) || isa<AllocaInst>(getUnderlyingObject(A.get()));
        }))
      It->second = walk(Call);
    return It->second ? &*It->second : nullptr;
  }
  bool open(const IROp &Op, const CallBase &Call) {
    const DenseSet<const BasicBlock *> *Open = at(Call);
    return !Open || Open->contains(Op.I->getParent());
  }

private:
  static DenseSet<const BasicBlock *> walk(const CallBase &Call) {
    const BasicBlock *Entry = &Call.getCalledFunction()->getEntryBlock();
    DenseSet<const BasicBlock *> Open{Entry};
    SmallVector<const BasicBlock *, 16> Work{Entry};
    auto Go = [&](const BasicBlock *BB) {
      if (Open.insert(BB).second)
        Work.push_back(BB);
    };
    while (!Work.empty()) {
      const Instruction *T = Work.pop_back_val()->getTerminator();
      if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
        if (std::optional<APInt> C = foldAt(Br->getCondition(), Call)) {
          Go(Br->getSuccessor(C->isZero() ? 1 : 0));
          continue;
        }
      if (const auto *Sw = dyn_cast<SwitchInst>(T))
        if (std::optional<APInt> C = foldAt(Sw->getCondition(), Call)) {
          const BasicBlock *To = Sw->getDefaultDest();
          for (const auto &Case : Sw->cases())
            if (Case.getCaseValue()->getValue() == *C)
              To = Case.getCaseSuccessor();
          Go(To);
          continue;
        }
      for (const BasicBlock *S : successors(T))
        Go(S);
    }
    return Open;
  }
  DenseMap<const CallBase *, std::optional<DenseSet<const BasicBlock *>>> Known;
};

} // namespace

std::optional<BarrierFunction> BarrierFunctions::ofFunction(const Function &F) {
  return lookup(F.getSubprogram(), F.getName());
}

std::optional<BarrierFunction> BarrierFunctions::inlinedFrom(const Instruction &I) {
  for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt())
    if (const DISubprogram *SP = L->getScope() ? L->getScope()->getSubprogram() : nullptr)
      if (std::optional<BarrierFunction> B = lookup(SP, StringRef()))
        return B;
  return std::nullopt;
}

/// A function's name as the model's tables spell it, with the first
/// template argument its debug name or mangled name shows.
static std::string plainNameOf(const DISubprogram *SP, StringRef Mangled, std::optional<uint64_t> *Arg = nullptr) {
  StringRef Linkage = SP && !SP->getLinkageName().empty() ? SP->getLinkageName() : Mangled;
  if (!Linkage.empty()) {
    std::string D = demangle(Linkage);
    if (Arg) {
      // The demangler keeps pointing into the name it was given.
      std::string Kept = Linkage.str();
      ItaniumPartialDemangler PD;
      *Arg = std::nullopt;
      if (!PD.partialDemangle(Kept.c_str()))
        if (char *Base = PD.getFunctionName(nullptr, nullptr)) {
          *Arg = firstTemplateInteger(Base);
          std::free(Base);
        }
    }
    return plainFunctionName(D);
  }
  // Line tables alone (-gline-tables-only, or the locations -Rpass keeps)
  // name a function without its namespaces, with its template arguments
  // ("tiled_partition<128U, cooperative_groups::__v1::thread_block>"):
  // cooperative groups' file says whose it is.
  if (SP && SP->getFilename().contains("cooperative_groups")) {
    if (Arg)
      *Arg = firstTemplateInteger(SP->getName());
    return ("cooperative_groups::" + SP->getName().take_until([](char C) { return C == '<'; })).str();
  }
  return std::string();
}

std::optional<BarrierFunction> BarrierFunctions::lookup(const DISubprogram *SP, StringRef Mangled) {
  const void *Key = SP ? static_cast<const void *>(SP) : Mangled.data();
  auto It = Known.find(Key);
  if (It != Known.end())
    return It->second;
  std::optional<BarrierFunction> B;
  std::string Name = plainNameOf(SP, Mangled);
  if (!Name.empty()) {
    B = barrierFunction(Name);
    // Line tables name details::sync_warps and details::grid::sync alike.
    if (!B && StringRef(Name).starts_with("cooperative_groups::"))
      B = barrierFunction("cooperative_groups::details::" + StringRef(Name).rsplit("::").second.str());
  }
  // Only the grid barrier and a tile's sync stand for what is inside them;
  // a block barrier's inside is the barrier instruction, which the pass
  // reads itself.
  if (B && B->What != OpKind::GridBarrier && !B->OfTile)
    B = std::nullopt;
  Known[Key] = B;
  return B;
}

TileShapes tileShapesOf(ArrayRef<const Function *> Functions) {
  TileShapes Shapes;
  if (Functions.empty())
    return Shapes;
  Attribute Bound = Functions.front()->getFnAttribute("nvvm.maxntid");
  uint64_t Max;
  if (Bound.isStringAttribute() && !Bound.getValueAsString().getAsInteger(10, Max))
    Shapes.noteLaunchBound(Max);
  DenseSet<const DISubprogram *> Seen;
  auto Note = [&](const DISubprogram *SP, StringRef Mangled) {
    std::optional<uint64_t> Arg;
    std::string Name = plainNameOf(SP, Mangled, &Arg);
    if (!Name.empty())
      Shapes.noteCall(Name, Arg);
    // -O2 may leave nothing of tiled_partition<N> itself; the functions that
    // take the tile name its type ("leave_qstate<cooperative_groups::__v1::
    // thread_block_tile<128U, cooperative_groups::__v1::thread_block> >").
    StringRef Printed = SP ? SP->getName() : StringRef();
    for (size_t At = Printed.find("thread_block_tile<"); At != StringRef::npos;
         At = Printed.find("thread_block_tile<", At + 1))
      if (std::optional<uint64_t> N = firstTemplateInteger(Printed.drop_front(At)))
        Shapes.noteTile(*N);
  };
  DenseSet<const Function *> Called;
  for (const Function *F : Functions) {
    if (Called.insert(F).second)
      Note(F->getSubprogram(), F->getName());
    for (const Instruction &I : instructions(*F)) {
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction();
            Callee && !Callee->isIntrinsic() && Called.insert(Callee).second)
          Note(Callee->getSubprogram(), Callee->getName());
      for (const DILocation *L = I.getDebugLoc().get(); L && L->getInlinedAt(); L = L->getInlinedAt())
        if (const DISubprogram *SP = L->getScope() ? L->getScope()->getSubprogram() : nullptr)
          if (Seen.insert(SP).second)
            Note(SP, StringRef());
    }
  }
  return Shapes;
}

void becomeBlockBarrier(IROp &Op) {
  Op.What = OpKind::BlockBarrier;
  Op.Ord = Order::AcqRel;
  Op.ScopeQual = Scope::Block;
  Op.Object = Op.Address = nullptr;
  Op.Space = MemorySpace::Unknown;
  Op.PerBlock = false;
  Op.Spelling = "tile sync";
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

static bool orders(const IROp &Op) {
  return Op.What == OpKind::Fence || Op.What == OpKind::BlockBarrier || Op.What == OpKind::GridBarrier ||
         Op.What == OpKind::WarpBarrier || Op.What == OpKind::ClusterArrive || Op.What == OpKind::ClusterWait ||
         Op.What == OpKind::ChildLaunch || Op.Opaque || (Op.isAccess() && (hasRelease(Op.Ord) || hasAcquire(Op.Ord)));
}

void markOrderingCalls(std::vector<IROp> &Ops) {
  // What each function holds itself, and what it calls.
  DenseMap<const Function *, bool> Orders;
  DenseMap<const Function *, SmallVector<const Function *, 4>> Calls;
  DenseMap<const Function *, SmallVector<const IROp *, 16>> Of;
  for (const IROp &Op : Ops) {
    const Function *F = Op.I->getFunction();
    Of[F].push_back(&Op);
    if (Op.Callee) {
      Calls[F].push_back(Op.Callee);
      continue;
    }
    Orders[F] |= orders(Op);
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
  // At a call, only what the paths its constant arguments leave open hold.
  OpenPaths Paths;
  for (IROp &Op : Ops) {
    const auto *Call = dyn_cast<CallBase>(Op.I);
    if (!Op.Callee || !Call || Call->getCalledFunction() != Op.Callee || !Paths.at(*Call)) {
      Op.FenceCall = Op.Callee && Reaches(Op.Callee);
      continue;
    }
    Op.FenceCall = any_of(Of.lookup(Op.Callee), [&](const IROp *In) {
      return Paths.open(*In, *Call) && (In->Callee ? Reaches(In->Callee) : orders(*In));
    });
  }
}

void copyAtCallSites(std::vector<IROp> &Ops) {
  // A bound on what copies add to one kernel's list.
  constexpr size_t MaxCopies = 4096;
  DenseMap<const Function *, SmallVector<unsigned, 16>> Of;
  for (unsigned I = 0; I < Ops.size(); ++I)
    Of[Ops[I].I->getFunction()].push_back(I);
  const size_t Original = Ops.size();
  OpenPaths Paths;
  for (unsigned C = 0; C < Original; ++C) {
    const auto *Call = dyn_cast<CallBase>(Ops[C].I);
    const Function *Callee = Ops[C].Callee;
    if (!Call || !Callee || Callee == Call->getFunction())
      continue;
    auto It = Of.find(Callee);
    if (It == Of.end() || Ops.size() - Original + It->second.size() > MaxCopies)
      continue;
    for (unsigned I : It->second) {
      if (!Paths.open(Ops[I], *Call))
        continue;
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
