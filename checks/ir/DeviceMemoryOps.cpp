//===- DeviceMemoryOps.cpp - every memory operation a kernel performs -----===//
#include "DeviceMemoryOps.h"
#include "IrAddresses.h"
#include "model/Engine.h"
#include "model/Hierarchy.h"
#include "model/Ptx.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;

namespace cuda_scope {

// NVPTX address spaces, as LLVM names them.
MemorySpace spaceOf(unsigned AS) {
  switch (AS) {
  case NVPTXAS::ADDRESS_SPACE_GENERIC: return MemorySpace::Generic;
  case NVPTXAS::ADDRESS_SPACE_GLOBAL: return MemorySpace::Global;
  case NVPTXAS::ADDRESS_SPACE_SHARED: return MemorySpace::Shared;
  case NVPTXAS::ADDRESS_SPACE_CONST: return MemorySpace::Constant;
  case NVPTXAS::ADDRESS_SPACE_LOCAL: return MemorySpace::Local;
  case NVPTXAS::ADDRESS_SPACE_SHARED_CLUSTER: return MemorySpace::SharedCluster;
  case NVPTXAS::ADDRESS_SPACE_PARAM: return MemorySpace::Param;
  }
  return MemorySpace::Unknown;
}

namespace {

struct IntrinsicRow {
  Intrinsic::ID ID;
  OpKind What;
  Scope S;
  Order O;
};
const IntrinsicRow IntrinsicTable[] = {
#define NVVM_INTRINSIC(Suffix, Kind, Sc, Ord)                                                      \
  {Intrinsic::nvvm_##Suffix, OpKind::Kind, Scope::Sc, Order::Ord},
#include "model/NvvmIntrinsics.def"
};

const IntrinsicRow *lookupIntrinsic(Intrinsic::ID ID) {
  for (const IntrinsicRow &R : IntrinsicTable)
    if (R.ID == ID)
      return &R;
  return nullptr;
}

Order orderOf(AtomicOrdering AO) {
  switch (AO) {
  case AtomicOrdering::NotAtomic: return Order::Plain;
  case AtomicOrdering::Unordered:
  case AtomicOrdering::Monotonic: return Order::Relaxed;
  case AtomicOrdering::Acquire: return Order::Acquire;
  case AtomicOrdering::Release: return Order::Release;
  case AtomicOrdering::AcquireRelease: return Order::AcqRel;
  case AtomicOrdering::SequentiallyConsistent: return Order::SeqCst;
  }
  return Order::Plain;
}

std::optional<Scope> scopeOf(const Instruction &I, SyncScope::ID ID) {
  SmallVector<StringRef, 8> Names;
  I.getContext().getSyncScopeNames(Names);
  if (ID >= Names.size())
    return std::nullopt;
  return scopeFromSyncScope(ID == SyncScope::System ? StringRef() : Names[ID]);
}

namespace {
/// Whether \p V reads the block index through operations that keep blocks
/// apart. A merge (phi, select) does only when every way into it does: a
/// pointer that starts at the block's own node and moves to one a loaded
/// value names (node = &nodes[parent]) reaches other blocks' nodes, as the
/// AST front end's merged pointer does (ObjectIdentity's mergedPointee). A
/// way that steps from the merge itself (p + 1, i + stride) keeps what the
/// other ways give; one that loads through it (index = parents[index]) does
/// not, as the AST does not follow a variable set twice. What a load reads
/// is named by its address (a worklist's item), as in IrAddresses'
/// canonical text.
struct BlockReads {
  DenseMap<std::pair<const Value *, unsigned>, bool> Known;
  SmallPtrSet<const Value *, 8> Open;
  unsigned Steps = 0;

  /// \p Loaded: \p V is (part of) an address a load reads from. A merge
  /// met again through a load is a pointer chase (p = parent[p], a tree
  /// walked up): the values it reaches are shared, not the block's own.
  bool reads(const Value *V, bool Loaded = false) {
    if (auto It = Known.find({V, Loaded}); It != Known.end())
      return It->second;
    if (Open.count(V))
      return !Loaded; // a way back into a merge being decided: a step keeps it, a chase does not
    if (++Steps > 512)
      return false;
    Open.insert(V);
    bool R = decide(V, Loaded);
    Open.erase(V);
    Known[{V, Loaded}] = R;
    return R;
  }

  bool decide(const Value *V, bool Loaded) {
    if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
      switch (II->getIntrinsicID()) {
      // Only the components that keep blocks apart count (the model says which).
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return separatesBlocks('x');
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return separatesBlocks('y');
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return separatesBlocks('z');
      default: return false;
      }
    }
    if (isa<PHINode, SelectInst>(V)) {
      SmallVector<const Value *, 4> Ways;
      if (const auto *Phi = dyn_cast<PHINode>(V))
        Ways.append(Phi->incoming_values().begin(), Phi->incoming_values().end());
      else
        Ways = {cast<SelectInst>(V)->getTrueValue(), cast<SelectInst>(V)->getFalseValue()};
      bool Any = false;
      for (const Value *W : Ways) {
        if (isa<UndefValue>(W))
          continue; // a way on which the value was never set
        if (!reads(W, Loaded))
          return false;
        Any = true;
      }
      return Any;
    }
    if (const auto *Inst = dyn_cast<Instruction>(V)) {
      // What an atomic returns is what some thread wrote last, not an item
      // of the block's own (the AST names a call's value by itself too).
      if (isa<CallBase, AtomicRMWInst, AtomicCmpXchgInst>(Inst))
        return false;
      if (const auto *Load = dyn_cast<LoadInst>(Inst))
        return !Load->isAtomic() && reads(Load->getPointerOperand(), /*Loaded=*/true);
      return any_of(Inst->operands(), [&](const Value *Op) { return reads(Op, Loaded); });
    }
    if (const auto *CE = dyn_cast<ConstantExpr>(V))
      return any_of(CE->operands(), [&](const Value *Op) { return reads(Op, Loaded); });
    return false;
  }
};
} // namespace

/// True when the address computation reads the block index, so that each
/// block touches its own element (out[blockIdx.x]).
bool dependsOnBlockIndex(const Value *Ptr) { return BlockReads().reads(Ptr); }

void setAddress(IROp &Op, const Value *Ptr) {
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return;
  Op.Address = Ptr->stripPointerCasts();
  Op.Object = ir::underlyingObject(Ptr);
  // An address that -O2 merged from several (a loop's first and next
  // element: cur = table[k].next, then table[cur].next) is a phi or a select;
  // when every way into it is based on one object, so is the address.
  if (isa<PHINode, SelectInst>(Op.Object)) {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects);
    // A way in that is undef (a pointer set in one branch only: if (tid <
    // n) p = base[k]; ... later *p in a thread of that branch) names no
    // object: a thread that came that way and used it would have no defined
    // behaviour, so the access is to what the other ways name.
    erase_if(Objects, [](const Value *O) { return isa<UndefValue>(O); });
    if (Objects.size() == 1)
      Op.Object = Objects.front();
    // Every way into it based on a kernel argument or a variable of its
    // own: the access is to one of them, each as its branch wrote it.
    else if (Objects.size() <= 4 && all_of(Objects, [](const Value *O) { return isa<Argument, GlobalVariable>(O); })) {
      Op.Object = Objects.front();
      Op.OtherObjects.assign(Objects.begin() + 1, Objects.end());
    }
  }
  if (Op.Space == MemorySpace::Unknown || Op.Space == MemorySpace::Generic)
    Op.Space = spaceOf(Ptr->getType()->getPointerAddressSpace());
  Op.PerBlock = dependsOnBlockIndex(Ptr);
}

/// A generic address's state space, from the object it is based on (once
/// objects are named across calls: a device function's parameter is what
/// its caller passes).
MemorySpace spaceOfObject(const Value *Object) {
  if (const auto *GV = dyn_cast<GlobalVariable>(Object))
    return spaceOf(GV->getAddressSpace());
  if (isa<Argument>(Object))
    return MemorySpace::Global; // kernel pointer arguments point to global memory
  if (isa<AllocaInst>(Object))
    return MemorySpace::Local;
  if (const auto *Cast = dyn_cast<AddrSpaceCastOperator>(Object))
    return spaceOf(Cast->getSrcAddressSpace());
  return MemorySpace::Generic;
}

std::optional<int64_t> constantOperand(const Value *V) {
  if (const auto *C = dyn_cast<ConstantInt>(V); C && C->getBitWidth() <= 64)
    return C->getSExtValue();
  return std::nullopt;
}

std::string spell(const Instruction &I) {
  std::string S;
  raw_string_ostream OS(S);
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    OS << "atomicrmw " << AtomicRMWInst::getOperationName(RMW->getOperation());
  else
    OS << I.getOpcodeName();
  return S;
}

/// clang lowers CUDA's atomicAdd to a seq_cst atomicrmw at system scope, while
/// CUDA defines it (and nvcc compiles it) as relaxed at device scope. Where the
/// debug locations show the access was inlined from a CUDA builtin, take the
/// builtin's meaning from the model instead.
void refineFromBuiltin(IROp &Op) {
  for (const DILocation *L = Op.I->getDebugLoc().get(); L; L = L->getInlinedAt()) {
    const DISubprogram *SP = L->getScope() ? L->getScope()->getSubprogram() : nullptr;
    if (!SP)
      continue;
    std::optional<DeviceBuiltin> B = parseDeviceBuiltin(SP->getName());
    if (!B || B->What == DeviceBuiltin::BlockBarrier || B->What == DeviceBuiltin::WarpBarrier)
      continue;
    if (B->What == DeviceBuiltin::Fence) {
      Op.Ord = Order::SeqCst;
    } else {
      Op.Ord = Order::Relaxed;
    }
    Op.ScopeQual = B->S;
    Op.Spelling = SP->getName().str();
    return;
  }
}

/// The pointer an integer address was made from: an mbarrier's operand is
/// the barrier's shared-window address, (uint32_t)__cvta_generic_to_shared(&b),
/// which -O2 leaves as ptrtoint, possibly truncated, of the pointer.
const Value *pointerBehindInteger(const Value *V) {
  for (unsigned Depth = 0; V && Depth < 4 && V->getType()->isIntegerTy(); ++Depth) {
    if (const auto *Cast = dyn_cast<Operator>(V);
        Cast && (Cast->getOpcode() == Instruction::Trunc || Cast->getOpcode() == Instruction::ZExt ||
                 Cast->getOpcode() == Instruction::PtrToInt))
      V = Cast->getOperand(0);
    else
      return nullptr;
  }
  return V;
}

void collectAsm(const CallBase &CB, std::vector<IROp> &Out) {
  const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  // Map asm operand numbers to call arguments: direct outputs are return
  // values, every other operand is the next argument.
  SmallVector<int, 8> ArgOfOperand;
  unsigned NextArg = 0;
  for (const InlineAsm::ConstraintInfo &C : IA->ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber || C.Type == InlineAsm::isLabel)
      continue;
    bool DirectOutput = C.Type == InlineAsm::isOutput && !C.isIndirect;
    ArgOfOperand.push_back(DirectOutput ? -1 : static_cast<int>(NextArg++));
  }
  for (const PtxInstr &P : parsePtx(IA->getAsmString())) {
    std::optional<OpKind> Kind = opKindOf(P);
    if (!Kind)
      continue;
    IROp Op{*Kind, &CB};
    Op.Ord = P.Sem;
    Op.ScopeQual = P.ScopeQual;
    Op.Space = P.Space;
    Op.Multicast = P.Multicast;
    Op.Spelling = P.Mnemonic;
    auto ArgOf = [&](std::optional<unsigned> N) -> const Value * {
      if (N && *N < ArgOfOperand.size())
        if (int Arg = ArgOfOperand[*N]; Arg >= 0 && static_cast<unsigned>(Arg) < CB.arg_size())
          return CB.getArgOperand(Arg);
      return nullptr;
    };
    if (const Value *Address = ArgOf(P.addressOperandNumber()))
      setAddress(Op, P.What == PtxInstr::MBarrier ? pointerBehindInteger(Address) : Address);
    // A barrier object's arrive or wait with no object would read as the
    // block's barrier (__syncthreads()): without its object it is left out.
    if (P.What == PtxInstr::MBarrier && !Op.Object)
      continue;
    if (*Kind == OpKind::RMW)
      if (const Value *V = ArgOf(P.valueOperandNumber()))
        Op.Operand = constantOperand(V);
    Out.push_back(std::move(Op));
  }
}

/// The read half of a write of a bitfield (node.i = v; node.b = 1), which
/// the source only writes, as the AST front end records it: a load whose
/// value, cleared by a constant mask or merged with another (and, or, shifts,
/// casts), only reaches a store back to the same address, plain or volatile
/// as the load is. clang gives a bitfield's storage no type-based alias
/// information, where it gives every other access of the optimized code
/// some: a load or store that carries `!tbaa` is the source's own (`x |= m`
/// reads x).
bool readHalfOfBitfieldWrite(const LoadInst &L) {
  if (L.isAtomic() || L.use_empty() || L.getMetadata(LLVMContext::MD_tbaa))
    return false;
  SmallVector<const Value *, 8> Work{&L};
  SmallPtrSet<const Value *, 8> Seen;
  bool Stored = false, Combined = false;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > 16)
      return false;
    for (const User *U : V->users()) {
      if (const auto *St = dyn_cast<StoreInst>(U)) {
        if (St->getValueOperand() != V || St->isVolatile() != L.isVolatile() || St->isAtomic() ||
            St->getMetadata(LLVMContext::MD_tbaa) || St->getPointerOperand() != L.getPointerOperand() ||
            St->getParent() != L.getParent())
          return false;
        Stored = true;
        continue;
      }
      const auto *BO = dyn_cast<BinaryOperator>(U);
      if (BO && (BO->getOpcode() == Instruction::And || BO->getOpcode() == Instruction::Or))
        Combined = true;
      if ((BO && (BO->getOpcode() == Instruction::And || BO->getOpcode() == Instruction::Or || BO->isShift())) ||
          isa<CastInst>(U)) {
        Work.push_back(U);
        continue;
      }
      return false;
    }
  }
  return Stored && Combined;
}

void collectFunction(const Function &F, std::vector<IROp> &Out, SetVector<const Function *> &Callees,
                     BarrierFunctions &Barriers) {
  const size_t First = Out.size();
  for (const Instruction &I : instructions(F)) {
    IROp Op{OpKind::Load, &I};
    Op.Spelling = spell(I);
    if (const auto *L = dyn_cast<LoadInst>(&I)) {
      if (readHalfOfBitfieldWrite(*L))
        continue; // the write is the access
      Op.What = OpKind::Load;
      Op.Ord = L->isVolatile() && !L->isAtomic() ? Order::Volatile : orderOf(L->getOrdering());
      Op.ScopeQual = L->isAtomic() ? scopeOf(I, L->getSyncScopeID())
                                   : (L->isVolatile() ? std::optional<Scope>(Scope::System) : std::nullopt);
      setAddress(Op, L->getPointerOperand());
    } else if (const auto *S = dyn_cast<StoreInst>(&I)) {
      Op.What = OpKind::Store;
      Op.Ord = S->isVolatile() && !S->isAtomic() ? Order::Volatile : orderOf(S->getOrdering());
      Op.ScopeQual = S->isAtomic() ? scopeOf(I, S->getSyncScopeID())
                                   : (S->isVolatile() ? std::optional<Scope>(Scope::System) : std::nullopt);
      setAddress(Op, S->getPointerOperand());
      Op.Stored = constantOperand(S->getValueOperand());
    } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Op.What = OpKind::RMW;
      Op.Ord = orderOf(RMW->getOrdering());
      Op.ScopeQual = scopeOf(I, RMW->getSyncScopeID());
      setAddress(Op, RMW->getPointerOperand());
      Op.Operand = constantOperand(RMW->getValOperand());
      if (RMW->getOperation() == AtomicRMWInst::Xchg)
        Op.Stored = Op.Operand;
      refineFromBuiltin(Op);
    } else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Op.What = OpKind::RMW;
      Op.Ord = orderOf(CX->getSuccessOrdering());
      Op.ScopeQual = scopeOf(I, CX->getSyncScopeID());
      setAddress(Op, CX->getPointerOperand());
      Op.Stored = constantOperand(CX->getNewValOperand());
      Op.Expected = constantOperand(CX->getCompareOperand());
      refineFromBuiltin(Op);
    } else if (const auto *Fe = dyn_cast<FenceInst>(&I)) {
      Op.What = OpKind::Fence;
      Op.Ord = orderOf(Fe->getOrdering());
      Op.ScopeQual = scopeOf(I, Fe->getSyncScopeID());
    } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm()) {
        collectAsm(*CB, Out);
        continue;
      }
      // A struct copied or cleared whole (-O2 makes `(vec3 &)node = b` and
      // `Box b = boxes[i]` a memcpy): it reads its source and writes its
      // destination, as the AST's copy does.
      if (const auto *MI = dyn_cast<MemIntrinsic>(CB)) {
        Order Plain = MI->isVolatile() ? Order::Volatile : Order::Plain;
        std::optional<Scope> Qual = MI->isVolatile() ? std::optional<Scope>(Scope::System) : std::nullopt;
        if (const auto *MT = dyn_cast<MemTransferInst>(MI)) {
          IROp Read{OpKind::Load, &I};
          Read.Spelling = Op.Spelling;
          Read.Ord = Plain;
          Read.ScopeQual = Qual;
          setAddress(Read, MT->getRawSource());
          Out.push_back(std::move(Read));
        }
        Op.What = OpKind::Store;
        Op.Ord = Plain;
        Op.ScopeQual = Qual;
        setAddress(Op, MI->getRawDest());
        Out.push_back(std::move(Op));
        continue;
      }
      const Function *Callee = CB->getCalledFunction();
      if (!Callee)
        continue;
      if (const IntrinsicRow *R = lookupIntrinsic(Callee->getIntrinsicID())) {
        Op.What = R->What;
        Op.ScopeQual = R->S;
        Op.Ord = R->O;
        Op.Spelling = Callee->getName().str();
        if (R->What == OpKind::RMW || R->What == OpKind::AsyncSharedRead)
          for (const Value *Arg : CB->args())
            if (Arg->getType()->isPointerTy()) {
              // The bulk copy's source is its second pointer (dst, src, ...).
              if (R->What == OpKind::AsyncSharedRead && Arg == CB->getArgOperand(0))
                continue;
              setAddress(Op, Arg);
              break;
            }
      } else if (std::optional<BarrierFunction> B = Barriers.ofFunction(*Callee); B && !B->OfTile) {
        becomeGridBarrier(Op, B->S); // not inlined: the call is the barrier
      } else if (Callee->isIntrinsic() && warpSyncCall(Callee->getName())) {
        // __syncwarp and the warp's *_sync calls order the lanes that take part.
        Op.What = OpKind::WarpBarrier;
        Op.Ord = Order::AcqRel;
        Op.Spelling = Callee->getName().str();
      } else if (std::string Name; transferOfFunction(*Callee, Name) != PeerTransfer::None) {
        Out.push_back(transferOp(I, peerTransferOf(Name), Name)); // not inlined: the call is the transfer
        continue;
      } else if (!Callee->isDeclaration()) {
        Callees.insert(Callee);
        Op.What = OpKind::Call;
        Op.Callee = Callee;
        Op.Spelling = Callee->getName().str();
      } else if (Callee->isIntrinsic() || Callee->doesNotAccessMemory() || Callee->getName() == "vprintf" ||
                 Callee->getName().starts_with("__nv_")) {
        continue; // printf's argument buffer is the thread's own; libdevice's math touches nothing
      } else {
        // A function of another unit (-rdc): what it does to memory is not shown.
        Op.What = OpKind::Call;
        Op.Opaque = true;
        Op.Spelling = Callee->getName().str();
      }
    } else {
      continue;
    }
    Out.push_back(std::move(Op));
  }
  replaceTransfers(Out, First);
  for (size_t I = First; I < Out.size(); ++I)
    if (Out[I].What != OpKind::GridBarrier)
      if (std::optional<BarrierFunction> B = Barriers.inlinedFrom(*Out[I].I); B && !B->OfTile)
        becomeGridBarrier(Out[I], B->S);
}

/// One name per object across the functions a kernel calls and the times a
/// pointer is read: a device function's pointer parameter stands for what
/// every call passes (when all pass the same), and every read of the same
/// field of the same holder (a kernel argument, a global variable, or a
/// pointer kept in turn) stands for the first such read, as the AST names
/// `comm->flag` by its text. (Code that changes the field between two reads
/// is not told apart, in either front end.)
class ObjectNames {
public:
  explicit ObjectNames(const SetVector<const Function *> &Functions) : Functions(Functions) {}

  const Value *canonical(const Value *Obj, unsigned Depth = 0) {
    if (!Obj || Depth > 6)
      return Obj;
    if (auto It = Done.find(Obj); It != Done.end())
      return It->second;
    Done[Obj] = Obj; // a recursive call sees the object as itself
    const Value *Result = Obj;
    if (const auto *A = dyn_cast<Argument>(Obj))
      Result = bound(*A, Depth);
    else if (const auto *L = dyn_cast<LoadInst>(Obj))
      Result = kept(*L, Depth);
    Done[Obj] = Result;
    return Result;
  }

  /// Where the pointer a canonical load reads is kept.
  PointerKeeper keeper(const Value *Obj) const {
    auto It = Keepers.find(Obj);
    return It == Keepers.end() ? PointerKeeper::Other : It->second;
  }

private:
  const Value *bound(const Argument &A, unsigned Depth) {
    const Function &F = *A.getParent();
    if (isKernel(F) || !A.getType()->isPointerTy())
      return &A;
    const Value *Bound = nullptr;
    for (const User *U : F.users()) {
      const auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledFunction() != &F || !Functions.contains(CB->getFunction()))
        continue;
      const Value *Passed = canonical(ir::underlyingObject(CB->getArgOperand(A.getArgNo())), Depth + 1);
      if (Bound && Bound != Passed)
        return &A;
      Bound = Passed;
    }
    return Bound ? Bound : &A;
  }

  const Value *kept(const LoadInst &L, unsigned Depth) {
    if (!L.getType()->isPointerTy())
      return &L;
    std::optional<ir::KeptAt> At = ir::keptAt(L);
    if (!At)
      return traced(L, Depth);
    const Value *Holder = canonical(At->Holder, Depth + 1);
    PointerKeeper K = PointerKeeper::Other;
    if (const auto *A = dyn_cast<Argument>(Holder))
      K = isKernel(*A->getParent()) ? PointerKeeper::KernelParameter : PointerKeeper::Other;
    else if (const auto *GV = dyn_cast<GlobalVariable>(Holder); GV && blockOwn(*GV) && !At->Indexed) {
      // A pointer the kernel stages in shared memory (one thread stores it,
      // the block reads it after a barrier) is the pointer stored, where it
      // is the same for every block.
      if (const Value *Stored = stagedPointer(*GV, At->Offset))
        return canonical(ir::underlyingObject(Stored), Depth + 1);
      // Or one the block copied, with the rest of what it was given.
      if (const Value *Traced = traced(L, Depth); Traced != &L)
        return Traced;
      K = PointerKeeper::SharedVariable;
    } else if (const auto *GV = dyn_cast<GlobalVariable>(Holder))
      K = GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED ? PointerKeeper::SharedVariable : PointerKeeper::DeviceVariable;
    else if (isa<LoadInst>(Holder))
      // Kept in memory a kept pointer points to: device memory if that is.
      K = pointeeHome(keeper(Holder)) == ObjectHome::Global ? keeper(Holder) : PointerKeeper::Other;
    else if (const auto *Local = dyn_cast<AllocaInst>(Holder); Local && !At->Indexed)
      // Kept in a local that one store fills at that offset (a lambda's
      // captures, handed to a function that is not inlined): the pointer stored.
      if (const Value *Stored = ir::storedOnce(*Local, At->Offset))
        return canonical(ir::underlyingObject(Stored), Depth + 1);
      else
        return traced(L, Depth);
    else
      return traced(L, Depth);
    if (K == PointerKeeper::Other && !At->Indexed)
      if (const Value *Traced = traced(L, Depth); Traced != &L)
        return Traced;
    const Value *First = Firsts.try_emplace({Holder, {At->Offset, At->Indexed}}, &L).first->second;
    Keepers.try_emplace(First, K);
    return First;
  }

  static bool blockOwn(const GlobalVariable &GV) { return GV.getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED; }

  /// The kernel's own functions: a variable's uses in another kernel are
  /// another launch's.
  bool inKernel(const Function &F) const { return Functions.contains(&F); }

  /// The one pointer the kernel stores into the __shared__ variable \p GV at
  /// \p Offset, where no store keeps the variable's own address and the
  /// pointer is the same for every block; null otherwise.
  const Value *stagedPointer(const GlobalVariable &GV, int64_t Offset) const {
    const Value *Stored = ir::storedOnce(GV, Offset, [this](const Function &F) { return inKernel(F); });
    return Stored && !dependsOnBlockIndex(Stored) ? Stored : nullptr;
  }

  using Place = std::pair<const Value *, int64_t>;
  using Places = SmallVector<Place, 4>;

  /// Where the bytes at \p Ptr + \p Offset may be, when no step of the way
  /// depends on the thread: through constant steps, the copy that fills a
  /// local (a launcher's copy of the functor it was handed), the pointer one
  /// store keeps in a local (a closure's capture by reference), and what
  /// each call of a function passes for its parameter (two launch paths
  /// handing their own closures to one function that is not inlined). Each
  /// place is a kernel argument, a variable, a local, or the first read of a
  /// pointer kept in memory (as kept names it); false where a step cannot be
  /// followed.
  bool origins(const Value *Ptr, int64_t Offset, unsigned Depth, Places &Out) {
    if (Depth > 12 || Out.size() > 8)
      return false;
    Ptr = ir::constantBase(Ptr, Offset);
    auto Add = [&Out](const Value *V, int64_t At) {
      if (!is_contained(Out, Place(V, At)))
        Out.push_back({V, At});
      return true;
    };
    if (const auto *Local = dyn_cast<AllocaInst>(Ptr)) {
      if (auto Copied = ir::copiedOnce(*Local, Offset))
        return origins(Copied->first, Copied->second, Depth + 1, Out);
      return Add(Ptr, Offset);
    }
    if (const auto *GV = dyn_cast<GlobalVariable>(Ptr)) {
      // A block's copy of what the kernel was given (`plan = *plans`), the
      // same for every block.
      if (blockOwn(*GV))
        if (auto Copied = ir::copiedOnce(*GV, Offset, [this](const Function &F) { return inKernel(F); }); Copied && !dependsOnBlockIndex(Copied->first))
          return origins(Copied->first, Copied->second, Depth + 1, Out);
      return Add(Ptr, Offset);
    }
    if (const auto *A = dyn_cast<Argument>(Ptr)) {
      const Function &F = *A->getParent();
      if (isKernel(F))
        return Add(Ptr, Offset);
      bool Called = false;
      for (const User *U : F.users()) {
        const auto *CB = dyn_cast<CallBase>(U);
        if (!CB || CB->getCalledFunction() != &F || !Functions.contains(CB->getFunction()))
          continue;
        Called = true;
        if (!origins(CB->getArgOperand(A->getArgNo()), Offset, Depth + 1, Out))
          return false;
      }
      return Called;
    }
    if (const auto *Read = dyn_cast<LoadInst>(Ptr); Read && Read->getType()->isPointerTy()) {
      Places Slots;
      if (!origins(Read->getPointerOperand(), 0, Depth + 1, Slots))
        return false;
      for (auto [Holder, At] : Slots) {
        if (const auto *GV = dyn_cast<GlobalVariable>(Holder); GV && blockOwn(*GV))
          if (const Value *Stored = stagedPointer(*GV, At)) {
            if (!origins(Stored, Offset, Depth + 1, Out))
              return false;
            continue;
          }
        if (const auto *Local = dyn_cast<AllocaInst>(Holder)) {
          const Value *Stored = ir::storedOnce(*Local, At);
          if (!Stored || !origins(Stored, Offset, Depth + 1, Out))
            return false;
          continue;
        }
        // A pointer read from memory: named as kept names it.
        const Value *Named = Slots.size() == 1 ? canonical(Read, Depth + 1) : nullptr;
        if (!Named || !isa<LoadInst>(Named))
          return false;
        Add(Named, Offset);
      }
      return true;
    }
    return false;
  }

  /// A pointer read that kept cannot place by its own steps, placed by
  /// origin: read from a kernel argument, a variable, or device memory a kept
  /// pointer points to, through copies and captures of its holder.
  const Value *traced(const LoadInst &L, unsigned Depth) {
    Places Slots;
    if (!origins(L.getPointerOperand(), 0, Depth + 1, Slots) || Slots.size() != 1 ||
        isa<AllocaInst>(Slots.front().first))
      return &L;
    ir::KeptAt At = ir::arrayAsOne(ir::KeptAt{Slots.front().first, Slots.front().second, false}, L.getModule()->getDataLayout());
    PointerKeeper K = PointerKeeper::Other;
    if (isa<Argument>(At.Holder))
      K = PointerKeeper::KernelParameter;
    else if (const auto *GV = dyn_cast<GlobalVariable>(At.Holder))
      K = GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED ? PointerKeeper::SharedVariable : PointerKeeper::DeviceVariable;
    else if (pointeeHome(keeper(At.Holder)) == ObjectHome::Global)
      K = keeper(At.Holder);
    else
      return &L;
    const Value *First = Firsts.try_emplace({At.Holder, {At.Offset, At.Indexed}}, &L).first->second;
    Keepers.try_emplace(First, K);
    return First;
  }

  const SetVector<const Function *> &Functions;
  DenseMap<const Value *, const Value *> Done;
  std::map<std::pair<const Value *, std::pair<int64_t, bool>>, const Value *> Firsts;
  DenseMap<const Value *, PointerKeeper> Keepers;
};

} // namespace

bool isKernel(const Function &F) {
  return !F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel;
}

std::vector<IROp> collectDeviceOps(const Function &Kernel) {
  std::vector<IROp> Out;
  SetVector<const Function *> Functions;
  Functions.insert(&Kernel);
  BarrierFunctions Barriers;
  for (unsigned I = 0; I < Functions.size(); ++I)
    collectFunction(*Functions[I], Out, Functions, Barriers);
  // A tile's sync, inlined, is the block's barrier where the kernel's tiles
  // are its blocks; otherwise its atomics and warp syncs stay what they are.
  TileShapes Shapes = tileShapesOf(Functions.getArrayRef());
  if (dumpingOps())
    errs() << "cuda-scope: " << Kernel.getName() << ": " << Shapes.describe() << "\n";
  if (Shapes.syncIsBlockBarrier(std::nullopt))
    for (IROp &Op : Out)
      if (Op.What != OpKind::GridBarrier)
        if (std::optional<BarrierFunction> B = Barriers.inlinedFrom(*Op.I); B && B->OfTile)
          becomeBlockBarrier(Op);
  markOrderingCalls(Out);
  copyAtCallSites(Out);
  ObjectNames Names(Functions);
  std::vector<IROp> Expanded;
  Expanded.reserve(Out.size());
  for (IROp &Op : Out) {
    SmallVector<const Value *, 2> Others = std::move(Op.OtherObjects);
    Op.OtherObjects.clear();
    Expanded.push_back(std::move(Op));
    for (const Value *Other : Others) {
      IROp Alt = Expanded.back();
      Alt.Object = Other;
      Alt.Alternative = true;
      Expanded.push_back(std::move(Alt));
    }
  }
  for (IROp &Op : Expanded)
    if (Op.Object) {
      Op.Object = Names.canonical(Op.Object);
      Op.Keeper = Names.keeper(Op.Object);
      if (Op.Space == MemorySpace::Unknown || Op.Space == MemorySpace::Generic)
        Op.Space = spaceOfObject(Op.Object);
    }
  return Expanded;
}

std::string describeObject(const Value *Object) {
  if (!Object)
    return "an unknown object";
  if (const auto *GV = dyn_cast<GlobalVariable>(Object))
    return (GV->getAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED ? "shared variable '" : "'") + demangle(GV->getName().str()) + "'";
  if (const auto *A = dyn_cast<Argument>(Object)) {
    if (!isKernel(*A->getParent())) {
      // A device function's parameter no call binds alike (a closure that
      // two launch paths each hand over): named by the function.
      std::string Name = A->getParent()->getName().str();
      ItaniumPartialDemangler D;
      if (!D.partialDemangle(Name.c_str()))
        if (char *Base = D.getFunctionBaseName(nullptr, nullptr)) {
          Name = Base;
          std::free(Base);
        }
      return "argument " + std::to_string(A->getArgNo()) + " of device function '" + Name + "'";
    }
    return A->hasName() ? "kernel argument '" + A->getName().str() + "'"
                        : "kernel argument " + std::to_string(A->getArgNo());
  }
  if (const auto *L = dyn_cast<LoadInst>(Object)) {
    std::optional<ir::KeptAt> At = ir::keptAt(*L);
    if (!At)
      return "what a pointer read from memory points to";
    return std::string(At->Indexed ? "what the pointers in the array at offset " : "what the pointer at offset ") +
           std::to_string(At->Offset) + " of " + describeObject(getUnderlyingObject(At->Holder, 0)) +
           (At->Indexed ? " point to" : " points to");
  }
  // A pointer -O2 computed from others (a select between two backends' words).
  if (!Object->hasName())
    return UnnamedObject;
  return "'" + Object->getName().str() + "'";
}

} // namespace cuda_scope
