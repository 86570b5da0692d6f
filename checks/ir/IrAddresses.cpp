//===- IrAddresses.cpp - what an address computation says, read from the IR ===//
#include "IrAddresses.h"
#include "llvm/IR/CFG.h"
#include <functional>
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace cuda_scope {
namespace ir {

bool isBlockRegister(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return true;
  default:
    return false;
  }
}

/// What \p BO computes, in the model's words. A remainder that -O2 expanded
/// because its quotient is used too (DivRemPairs: x % n as x - (x / n) * n)
/// is a remainder, as the source wrote it.
static Arith arithOf(const BinaryOperator *BO) {
  using namespace PatternMatch;
  const Value *X = nullptr, *N = nullptr;
  switch (BO->getOpcode()) {
  case Instruction::Add: return Arith::Add;
  case Instruction::Sub:
    if (match(BO, m_Sub(m_Value(X), m_c_Mul(m_CombineOr(m_UDiv(m_Deferred(X), m_Value(N)),
                                                             m_SDiv(m_Deferred(X), m_Value(N))),
                                                 m_Deferred(N)))))
      return Arith::Rem;
    return Arith::Sub;
  case Instruction::Mul: return Arith::Mul;
  case Instruction::Shl: return Arith::Shl;
  case Instruction::Or: return cast<PossiblyDisjointInst>(BO)->isDisjoint() ? Arith::DisjointOr : Arith::Or;
  case Instruction::UDiv:
  case Instruction::SDiv: return Arith::Div;
  case Instruction::URem:
  case Instruction::SRem: return Arith::Rem;
  case Instruction::And: {
    // Clears only bits above the 24th that the operand may have set.
    const auto *Mask = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (Mask && Mask->getBitWidth() <= 64) {
      KnownBits Known = computeKnownBits(BO->getOperand(0), BO->getModule()->getDataLayout());
      APInt Cleared = ~Mask->getValue() & ~Known.Zero;
      if (truncatesOnlyHighBits(Cleared.getZExtValue()))
        return Arith::Truncate;
    }
    return Arith::And;
  }
  case Instruction::Xor: return Arith::Xor;
  case Instruction::LShr:
  case Instruction::AShr: return Arith::Shr;
  default: return Arith::Other;
  }
}

/// The address as canonical text: the same text, the same computation (so
/// the same address for the same thread), whichever instructions compute it;
/// what cannot be followed is named by its own identity. The AST front end
/// reads its indices the same way.
static const CallBase *BoundCall = nullptr;

BindCallArguments::BindCallArguments(const CallBase *Call) : Saved(BoundCall) { BoundCall = Call; }
BindCallArguments::~BindCallArguments() { BoundCall = Saved; }

/// The one value a merge gives wherever it is defined: -O2 joins a value
/// with undef (or poison) on the paths where the source never set it (a
/// field read only in one branch, used only after it), and the merge is
/// that value. So is a web of such merges (a loop that carries the value
/// from one round to the next: do { for (...) { if (w < stop) v = wl[w];
/// ...; if (w < stop) use(v); } } while (again)). Null where two defined
/// values meet.
const Value *definedValue(const Value *V) {
  const auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi)
    return nullptr;
  SmallVector<const PHINode *, 8> Work{Phi};
  SmallPtrSet<const PHINode *, 16> Web{Phi};
  const Value *One = nullptr;
  while (!Work.empty()) {
    for (const Value *In : Work.pop_back_val()->incoming_values()) {
      if (isa<UndefValue>(In))
        continue;
      if (const auto *Merge = dyn_cast<PHINode>(In)) {
        if (Web.insert(Merge).second)
          Work.push_back(Merge);
        if (Web.size() > 16)
          return nullptr;
        continue;
      }
      if (One && One != In)
        return nullptr;
      One = In;
    }
  }
  return One;
}

/// Whether a path leads from \p From to \p To (llvm::isPotentiallyReachable
/// answers yes past 32 blocks, and kernels have thousands).
static bool reaches(const BasicBlock *From, const BasicBlock *To) {
  SmallVector<const BasicBlock *, 32> Work{From};
  SmallPtrSet<const BasicBlock *, 32> Seen{From};
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (B == To)
      return true;
    for (const BasicBlock *Next : successors(B))
      if (Seen.insert(Next).second)
        Work.push_back(Next);
  }
  return false;
}

std::string canonical(const Value *V, IndexDeps &Deps, unsigned Depth) {
  if (!V)
    return "?";
  V = V->stripPointerCasts();
  while (const Value *Defined = definedValue(V))
    V = Defined->stripPointerCasts();
  if (Depth > 24)
    return "@" + utohexstr(reinterpret_cast<uintptr_t>(V));
  if (const auto *A = dyn_cast<Argument>(V); A && BoundCall && A->getParent() == BoundCall->getCalledFunction() &&
                                             A->getArgNo() < BoundCall->arg_size()) {
    const CallBase *Call = BoundCall;
    BindCallArguments Caller(nullptr); // the argument is the caller's value
    return canonical(Call->getArgOperand(A->getArgNo()), Deps, Depth + 1);
  }
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return std::to_string(C->getSExtValue());
  if (const auto *GEP = dyn_cast<GEPOperator>(V)) {
    std::string Text = canonical(GEP->getPointerOperand(), Deps, Depth + 1) + "{" +
                       std::to_string(GEP->getSourceElementType()->getTypeID()) + "}";
    for (const Use &Index : GEP->indices())
      Text += "[" + canonical(Index.get(), Deps, Depth + 1) + "]";
    return Text;
  }
  if (isa<CastInst, FreezeInst>(V)) // freeze: what -O2 puts on a value a moved test reads
    return canonical(cast<Instruction>(V)->getOperand(0), Deps, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(V)) {
    IndexDeps L, R;
    std::string Text = "(" + std::string(BO->getOpcodeName()) + " " + canonical(BO->getOperand(0), L, Depth + 1) +
                       " " + canonical(BO->getOperand(1), R, Depth + 1) + ")";
    auto Constant = [](const Value *Op) -> std::optional<int64_t> {
      if (const auto *C = dyn_cast<ConstantInt>(Op); C && C->getBitWidth() <= 64)
        return C->getSExtValue();
      return std::nullopt;
    };
    Deps |= combineIndex(arithOf(BO), L, R, Constant(BO->getOperand(1)), Constant(BO->getOperand(0)));
    return Text;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: Deps.Block = Deps.Varies = true; break;
    case Intrinsic::nvvm_read_ptx_sreg_tid_x: Deps.Thread = Deps.Varies = Deps.ThreadVaries = true; break;
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x: Deps.Grid = true; break;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x: Deps |= blockSizeIndex(); break;
    case Intrinsic::nvvm_read_ptx_sreg_tid_y: // y and z keep nothing apart the rules read, and vary
    case Intrinsic::nvvm_read_ptx_sreg_tid_z: Deps.Varies = Deps.ThreadVaries = true; break;
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: Deps.Varies = true; break;
    default: break;
    }
  }
  // What is loaded from an address computed from the thread's index (a
  // worklist's item, wl[i]) is named by that address, as the AST names it.
  if (const auto *Load = dyn_cast<LoadInst>(V)) {
    IndexDeps Address;
    std::string Text = "*(" + canonical(Load->getPointerOperand(), Address, Depth + 1) + ")";
    Deps |= loadedIndex(Address);
    return Text;
  }
  // A grid-stride loop's variable stays the thread's own: each thread starts
  // apart and steps over the whole grid.
  if (const auto *Phi = dyn_cast<PHINode>(V); Phi && Phi->getNumIncomingValues() == 2) {
    // Every value the loop feeds back is the variable itself, the variable
    // stepped by a multiple of the grid's size (k -= blockDim.x * gridDim.x,
    // in some branches only), or its start again (an outer loop that begins
    // the walk anew: do { for (w = tid; ...; w += grid) ... } while (again),
    // which -O2 makes one loop).
    auto Steps = [&](const Value *Back, const Value *Start) {
      SmallVector<const Value *, 4> Work{Back};
      SmallPtrSet<const Value *, 8> Seen;
      bool Stepped = false;
      while (!Work.empty()) {
        const Value *X = Work.pop_back_val();
        if (X == Phi || X == Start || !Seen.insert(X).second)
          continue;
        if (const auto *Join = dyn_cast<PHINode>(X)) {
          Work.append(Join->incoming_values().begin(), Join->incoming_values().end());
          continue;
        }
        const auto *Next = dyn_cast<BinaryOperator>(X);
        if (!Next || (Next->getOpcode() != Instruction::Add && Next->getOpcode() != Instruction::Sub))
          return false;
        const Value *Step = Next->getOperand(0) == Phi ? Next->getOperand(1)
                            : Next->getOperand(1) == Phi && Next->getOpcode() == Instruction::Add
                                ? Next->getOperand(0)
                                : nullptr;
        IndexDeps StepDeps;
        if (!Step)
          return false;
        canonical(Step, StepDeps, Depth + 1);
        if (!StepDeps.Grid)
          return false;
        Stepped = true;
      }
      return Stepped;
    };
    // A start that reads a loop's value (w = tid + round, round counted by a
    // loop around the walk) begins each round elsewhere: another thread's
    // items, in a round that thread may not have reached. A loop's value is
    // a merge that the walk's own block can reach again; a merge of two
    // branches before the walk is one value for the whole walk.
    std::function<bool(const Value *, unsigned)> ReadsLoopValue = [&](const Value *X, unsigned Steps) {
      if (const auto *Merge = dyn_cast<PHINode>(X))
        return any_of(Merge->blocks(), [&](const BasicBlock *From) { return reaches(Phi->getParent(), From); });
      const auto *I = dyn_cast<Instruction>(X);
      if (!I || Steps > 8 || !(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<FreezeInst>(I)))
        return false;
      return any_of(I->operands(), [&](const Value *Op) { return ReadsLoopValue(Op, Steps + 1); });
    };
    for (unsigned Start = 0; Start < 2; ++Start) {
      if (!Steps(Phi->getIncomingValue(1 - Start), Phi->getIncomingValue(Start)) ||
          ReadsLoopValue(Phi->getIncomingValue(Start), 0))
        continue;
      IndexDeps StartDeps;
      std::string Text = canonical(Phi->getIncomingValue(Start), StartDeps, Depth + 1);
      if (std::optional<IndexDeps> Own = strideIndex(StartDeps)) {
        Deps |= *Own;
        return "stride(" + Text + ")";
      }
    }
    // A range its bounds delimit (a CSR row).
    if (std::optional<RangeWalk> Walk = rangeWalk(Phi, Depth)) {
      IndexDeps Ignored;
      Deps |= Walk->Deps;
      return "range(" + canonical(Walk->Start, Ignored, Depth + 1) + ")";
    }
  }
  if (const auto *Call = dyn_cast<CallBase>(V))
    if (const Function *F = Call->getCalledFunction(); F && F->isIntrinsic() && Call->arg_empty() &&
                                                       Call->doesNotAccessMemory())
      return F->getName().str(); // llvm.nvvm.read.ptx.sreg.ctaid.x
  if (V->hasName() && (isa<GlobalValue>(V) || isa<Argument>(V)))
    return V->getName().str();
  if (const auto *Arg = dyn_cast<Argument>(V))
    return "arg" + std::to_string(Arg->getArgNo());
  return "@" + utohexstr(reinterpret_cast<uintptr_t>(V));
}

/// The pointers the integer \p V is made from (ptrtoint), through
/// arithmetic, casts and merges (a loop's counter); every other leaf is an
/// offset (a constant, a parameter, a special register, a value read from
/// memory). False where it cannot be followed (a call's result).
static bool addressLeaves(const Value *V, SmallPtrSetImpl<const Value *> &Pointers,
                          SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return true;
  if (Seen.size() > 64)
    return false;
  if (isa<Constant>(V) && !isa<ConstantExpr>(V))
    return true;
  if (const auto *Op = dyn_cast<Operator>(V); Op && Op->getOpcode() == Instruction::PtrToInt) {
    Pointers.insert(Op->getOperand(0)->stripPointerCasts());
    return true;
  }
  // A pointer read from memory as an integer (through a union) is not
  // followed: the AST front end does not follow it either.
  if (isa<Argument, IntrinsicInst, CmpInst, LoadInst>(V))
    return true;
  if (isa<BinaryOperator, CastInst, PHINode, SelectInst>(V))
    return all_of(cast<Instruction>(V)->operands(),
                  [&](const Value *Op) { return isa<BasicBlock>(Op) || addressLeaves(Op, Pointers, Seen); });
  return false;
}

const Value *underlyingObject(const Value *Ptr) {
  const Value *Object = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  for (unsigned Step = 0; Step < 4; ++Step) {
    const auto *Made = dyn_cast<Operator>(Object);
    if (!Made || Made->getOpcode() != Instruction::IntToPtr)
      break;
    SmallPtrSet<const Value *, 2> Pointers;
    SmallPtrSet<const Value *, 16> Seen;
    if (!addressLeaves(Made->getOperand(0), Pointers, Seen) || Pointers.size() != 1)
      break;
    Object = getUnderlyingObject(*Pointers.begin(), /*MaxLookup=*/0);
  }
  return Object;
}

bool sameForEveryThread(StringRef Text, const IndexDeps &Deps) {
  size_t Special = Text.count("llvm.nvvm") - Text.count("llvm.nvvm.read.ptx.sreg.nctaid") -
                   Text.count("llvm.nvvm.read.ptx.sreg.ntid");
  return !Deps.Block && !Deps.Thread && !Deps.Warp && !Deps.Varies && Text.count('@') == 0 && Special == 0 &&
         Text.count("*(") == 0;
}

/// Visits every use of \p Memory (a local, or a __shared__ variable) with
/// the byte of it that the use is at, through GEPs of constant offsets and
/// pointer casts; false where a step's offset varies, the walk runs too
/// long, or \p Visit says to stop. Uses in functions \p Counts leaves out
/// (another kernel's, for a variable) are not visited.
static bool visitLocalUses(const Value &Memory, FunctionFilter Counts,
                           function_ref<bool(const User *U, const Value *Ptr, int64_t At)> Visit) {
  const Module *M = isa<GlobalValue>(Memory) ? cast<GlobalValue>(Memory).getParent()
                                             : cast<Instruction>(Memory).getModule();
  const DataLayout &DL = M->getDataLayout();
  SmallVector<std::pair<const Value *, int64_t>, 8> Work{{&Memory, 0}};
  for (unsigned Step = 0; !Work.empty() && Step < 64; ++Step) {
    auto [Ptr, At] = Work.pop_back_val();
    for (const User *U : Ptr->users()) {
      if (const auto *I = dyn_cast<Instruction>(U); I && Counts && !Counts(*I->getFunction()))
        continue;
      if (const auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, Off))
          return false;
        Work.push_back({GEP, At + Off.getSExtValue()});
      } else if (const auto *Cast = dyn_cast<Operator>(U);
                 Cast && (Cast->getOpcode() == Instruction::BitCast || Cast->getOpcode() == Instruction::AddrSpaceCast)) {
        Work.push_back({Cast, At});
      } else if (!Visit(U, Ptr, At)) {
        return false;
      }
    }
  }
  return Work.empty();
}

/// \p S keeps the local's address \p Ptr: in another local (a lambda's
/// capture by reference, read back there), or elsewhere, where it escapes.
static bool escapes(const StoreInst &S, const Value *Ptr) {
  return S.getValueOperand() == Ptr && !isa<AllocaInst>(getUnderlyingObject(S.getPointerOperand()));
}

const Value *storedOnce(const Value &Local, int64_t Offset, FunctionFilter Counts) {
  const Value *Stored = nullptr;
  bool Whole = visitLocalUses(Local, Counts, [&](const User *U, const Value *Ptr, int64_t At) {
    if (const auto *S = dyn_cast<StoreInst>(U)) {
      if (escapes(*S, Ptr))
        return false;
      if (S->getValueOperand() == Ptr || At != Offset)
        return true;
      // Stores of one pointer (a closure filled again on each unrolled
      // iteration) keep that pointer.
      if ((Stored && Stored != S->getValueOperand()) || !S->getValueOperand()->getType()->isPointerTy())
        return false;
      Stored = S->getValueOperand();
      return true;
    }
    return isa<LoadInst, CallBase>(U);
  });
  return Whole ? Stored : nullptr;
}

std::optional<std::pair<const Value *, int64_t>> copiedOnce(const Value &Local, int64_t Offset,
                                                           FunctionFilter Counts) {
  const DataLayout &DL = isa<GlobalValue>(Local) ? cast<GlobalValue>(Local).getParent()->getDataLayout()
                                                 : cast<Instruction>(Local).getModule()->getDataLayout();
  std::optional<std::pair<const Value *, int64_t>> Copied;
  // Bytes [At, At + Size) written by a store or a copy cover Offset.
  auto Covers = [Offset](int64_t At, uint64_t Size) { return At <= Offset && Offset < At + int64_t(Size); };
  bool Whole = visitLocalUses(Local, Counts, [&](const User *U, const Value *Ptr, int64_t At) {
    if (const auto *S = dyn_cast<StoreInst>(U))
      return !escapes(*S, Ptr) &&
             !(S->getPointerOperand() == Ptr &&
               Covers(At, DL.getTypeStoreSize(S->getValueOperand()->getType()).getFixedValue()));
    if (const auto *MT = dyn_cast<MemTransferInst>(U)) {
      if (MT->getRawDest() != Ptr)
        return true; // a copy out of the local reads it
      const auto *Len = dyn_cast<ConstantInt>(MT->getLength());
      if (!Len || (Covers(At, Len->getZExtValue()) && Copied))
        return false;
      if (Covers(At, Len->getZExtValue()))
        Copied = std::make_pair(MT->getRawSource(), Offset - At);
      return true;
    }
    if (const auto *MS = dyn_cast<MemSetInst>(U))
      return MS->getRawDest() != Ptr;
    return isa<LoadInst, CallBase>(U);
  });
  return Whole ? Copied : std::nullopt;
}

const Value *constantBase(const Value *Ptr, int64_t &Offset) {
  for (unsigned Step = 0; Ptr && Step < 16; ++Step) {
    if (const auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
      const DataLayout *DL = nullptr;
      if (const auto *I = dyn_cast<Instruction>(GEP))
        DL = &I->getModule()->getDataLayout();
      else if (const auto *GV = dyn_cast<GlobalValue>(getUnderlyingObject(GEP)))
        DL = &GV->getParent()->getDataLayout(); // a constant step into a variable
      if (!DL)
        return Ptr;
      APInt Off(DL->getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(*DL, Off))
        return Ptr;
      Offset += Off.getSExtValue();
      Ptr = GEP->getPointerOperand();
    } else if (const auto *Cast = dyn_cast<Operator>(Ptr); Cast && (Cast->getOpcode() == Instruction::AddrSpaceCast ||
                                                                 Cast->getOpcode() == Instruction::BitCast)) {
      Ptr = Cast->getOperand(0);
    } else {
      return Ptr;
    }
  }
  return Ptr;
}

std::optional<std::pair<const AllocaInst *, int64_t>> localSlot(const Value *Ptr) {
  const DataLayout *DL = nullptr;
  int64_t Offset = 0;
  for (unsigned Step = 0; Ptr && Step < 8; ++Step) {
    Ptr = Ptr->stripPointerCasts();
    if (const auto *Local = dyn_cast<AllocaInst>(Ptr))
      return std::make_pair(Local, Offset);
    const auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP)
      return std::nullopt;
    if (!DL)
      if (const auto *I = dyn_cast<Instruction>(GEP))
        DL = &I->getModule()->getDataLayout();
    if (!DL)
      return std::nullopt;
    APInt Off(DL->getIndexTypeSizeInBits(GEP->getType()), 0);
    if (!GEP->accumulateConstantOffset(*DL, Off))
      return std::nullopt;
    Offset += Off.getSExtValue();
    Ptr = GEP->getPointerOperand();
  }
  return std::nullopt;
}

bool fixedAddress(const Value *Address, unsigned Depth) {
  if (!Address || Depth > 8)
    return false;
  const Value *P = Address->stripPointerCasts();
  if (const auto *GEP = dyn_cast<GEPOperator>(P)) {
    for (const Use &Index : GEP->indices()) {
      IndexDeps Deps;
      if (!sameForEveryThread(canonical(Index.get(), Deps), Deps))
        return false;
    }
    return fixedAddress(GEP->getPointerOperand(), Depth + 1);
  }
  if (const auto *Load = dyn_cast<LoadInst>(P)) {
    // A pointer read from a local is the one its one store left there (each
    // thread's &buf[tid] differs; a closure's captures are the same).
    if (auto Slot = localSlot(Load->getPointerOperand())) {
      const Value *Stored = storedOnce(*Slot->first, Slot->second);
      return Stored && fixedAddress(Stored, Depth + 1);
    }
    return fixedAddress(Load->getPointerOperand(), Depth + 1);
  }
  return isa<Argument, GlobalVariable, AllocaInst>(P);
}

/// The address up to the first step that keeps blocks apart (a GEP with an
/// index read from blockIdx.x), as canonical text: the block's own part of
/// the object. Empty for none. \p WarpApart: that step keeps the block's
/// warps apart too.
/// A GEP's address with \p Index replaced by the row it lies in.
static std::string rowPart(const GEPOperator *GEP, const Use &Index, const std::string &Row) {
  IndexDeps Ignored;
  std::string Text = canonical(GEP->getPointerOperand(), Ignored) + "{" +
                     std::to_string(GEP->getSourceElementType()->getTypeID()) + "}";
  for (const Use &Before : GEP->indices())
    Text += "[" + (&Before == &Index ? Row : canonical(Before.get(), Ignored)) + "]";
  return Text;
}

std::string blockSegment(const Value *Address, bool &WarpApart, unsigned Depth) {
  SmallVector<const GEPOperator *, 4> Chain;
  const Value *Base = Address ? Address->stripPointerCasts() : nullptr;
  while (Base) {
    const auto *GEP = dyn_cast<GEPOperator>(Base);
    if (!GEP)
      break;
    Chain.push_back(GEP);
    Base = GEP->getPointerOperand()->stripPointerCasts();
  }
  // What a pointer read from the block's own part of an array points to is
  // the block's own too (a channel per block: channels[b].inbound), as an
  // index read there is (a worklist's item); the AST names it so.
  if (const auto *Load = dyn_cast_or_null<LoadInst>(Base); Load && Depth < 4) {
    std::string Outer = blockSegment(Load->getPointerOperand(), WarpApart, Depth + 1);
    if (!Outer.empty())
      return "*(" + Outer + ")";
  }
  for (const GEPOperator *GEP : llvm::reverse(Chain))
    for (const Use &Index : GEP->indices()) {
      IndexDeps Deps;
      canonical(Index.get(), Deps);
      if (Deps.Block) {
        IndexDeps Ignored;
        WarpApart = Deps.Warp || Deps.Thread;
        // A range the owner's bounds delimit is the part its start's owned
        // term names: e[j] for j from rowStart[v] + lane, as e[rowStart[v]].
        IndexDeps Owner;
        if (std::optional<std::string> Row = Deps.InRange ? rangeRow(Index.get()) : indexRow(Index.get(), Owner))
          return rowPart(GEP, Index, *Row);
        return canonical(GEP, Ignored);
      }
    }
  // A cursor in an owner's row reads no owner itself (lp from rowStart[v]):
  // the row names its part, the owner's as a range walk's is (model:
  // rowCursor).
  for (const GEPOperator *GEP : llvm::reverse(Chain))
    for (const Use &Index : GEP->indices()) {
      IndexDeps Owner;
      if (isa<Constant>(Index.get()))
        continue;
      if (std::optional<std::string> Row = indexRow(Index.get(), Owner)) {
        WarpApart = Owner.Warp || Owner.Thread;
        return rowPart(GEP, Index, *Row);
      }
      break; // the first variable index decides
    }
  return std::string();
}

/// The constant factor an index is a multiple of, through casts (k << 4:
/// 16, k * 24: 24, (k * 3) << 3: 24); 1 for none.
static uint64_t constantFactor(const Value *Index, unsigned Depth = 0) {
  if (Depth > 4)
    return 1;
  if (const auto *Cast = dyn_cast<CastInst>(Index))
    return constantFactor(Cast->getOperand(0), Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(Index);
  const auto *C = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
  if (!C || C->getBitWidth() > 64 || C->isNegative())
    return 1;
  uint64_t K = C->getZExtValue();
  if (BO->getOpcode() == Instruction::Shl && K < 16)
    return (uint64_t(1) << K) * constantFactor(BO->getOperand(0), Depth + 1);
  if (BO->getOpcode() == Instruction::Mul && K > 0 && K < (uint64_t(1) << 20))
    return K * constantFactor(BO->getOperand(0), Depth + 1);
  return 1;
}

/// The field of its object that an address names: the constant offset past
/// the last variable index, when smaller than the element that index steps
/// over (p[k].w), or into a global variable of struct type; -1 for none (an
/// array element, or the whole object), as the AST front end reads fields.
int64_t fieldOffset(const Value *Ptr, const DataLayout &DL) {
  int64_t Offset = 0;
  const Value *V = Ptr->stripPointerCasts();
  // A merged address (a phi or a select of addresses) names the field every
  // way into it names; a way that steps from the merge itself (p = p + 1)
  // adds nothing to decide it.
  if (isa<PHINode, SelectInst>(V)) {
    std::optional<int64_t> Agreed;
    auto Way = [&](const Value *In) {
      if (isa<UndefValue>(In))
        return true; // a way on which the address was never set names nothing
      const auto *Step = dyn_cast<GEPOperator>(In->stripPointerCasts());
      if (In->stripPointerCasts() == V || (Step && Step->getPointerOperand()->stripPointerCasts() == V))
        return true;
      if (isa<PHINode, SelectInst>(In->stripPointerCasts()))
        return false; // one merge deep: nested ones are not followed
      int64_t F = fieldOffset(In, DL);
      if (Agreed && *Agreed != F)
        return false;
      Agreed = F;
      return true;
    };
    if (const auto *Phi = dyn_cast<PHINode>(V)) {
      for (const Value *In : Phi->incoming_values())
        if (!Way(In))
          return -1;
    } else if (const auto *Sel = dyn_cast<SelectInst>(V)) {
      if (!Way(Sel->getTrueValue()) || !Way(Sel->getFalseValue()))
        return -1;
    }
    return Agreed.value_or(-1);
  }
  for (unsigned Step = 0; Step < 16; ++Step) {
    if (const auto *GEP = dyn_cast<GEPOperator>(V)) {
      APInt Constant(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (GEP->accumulateConstantOffset(DL, Constant)) {
        Offset += Constant.getSExtValue();
        V = GEP->getPointerOperand()->stripPointerCasts();
        continue;
      }
      // Offset 0 is the element itself (p[k], as *p), or its first field.
      // -O2 writes p[k].f as a byte GEP of k * size (k << 4, k * 24) and a
      // constant past it: the element is as large as that factor.
      uint64_t Stride = DL.getTypeAllocSize(GEP->getResultElementType());
      if (GEP->getNumIndices() == 1)
        Stride *= constantFactor(GEP->getOperand(1));
      return Offset > 0 && static_cast<uint64_t>(Offset) < Stride && GEP->getNumIndices() == 1 ? Offset : -1;
    }
    if (const auto *GV = dyn_cast<GlobalVariable>(V))
      return GV->getValueType()->isStructTy() ? Offset : -1;
    return -1;
  }
  return -1;
}


/// Every lane of a warp computes \p V alike (laneBits: none of its bits
/// depends on the lane).
bool laneUniform(const Value *V) {
  SmallPtrSet<const Value *, 16> Seen;
  return laneBits(V, Seen) == 0;
}

/// The address as the thread's own element plus a constant: the object's
/// base, constant offsets, indices every lane of a warp computes alike, and
/// one index that is threadIdx.x (or the lane) + k. The constant, in
/// elements of that index (s[tid + 16]: 16), and the alike indices as text.
std::optional<LaneAddress> laneOffsetOf(const Value *Address, const DataLayout &DL) {
  int64_t Bytes = 0, Stride = 0;
  std::string Base;
  for (const Value *V = Address ? Address->stripPointerCasts() : nullptr; V;) {
    const auto *GEP = dyn_cast<GEPOperator>(V);
    if (!GEP)
      break;
    for (gep_type_iterator It = gep_type_begin(GEP), End = gep_type_end(GEP); It != End; ++It) {
      const Value *Index = It.getOperand();
      if (StructType *ST = It.getStructTypeOrNull()) {
        Bytes += DL.getStructLayout(ST)->getElementOffset(cast<ConstantInt>(Index)->getZExtValue());
        continue;
      }
      int64_t Size = It.getSequentialElementStride(DL).getFixedValue();
      if (const auto *C = dyn_cast<ConstantInt>(Index)) {
        Bytes += C->getSExtValue() * Size;
        continue;
      }
      std::optional<int64_t> K = threadIndexPlus(Index);
      if (!K) {
        if (!laneUniform(Index))
          return std::nullopt; // an index that differs between lanes otherwise
        IndexDeps Ignored;
        Base = "[" + canonical(Index, Ignored) + "*" + std::to_string(Size) + "]" + Base;
        continue;
      }
      if (Stride || !Size)
        return std::nullopt; // the thread's index twice
      Stride = Size;
      Bytes += *K * Size;
    }
    V = GEP->getPointerOperand()->stripPointerCasts();
  }
  if (!Stride || Bytes % Stride)
    return std::nullopt;
  return LaneAddress{static_cast<int>(Bytes / Stride), Base};
}

/// The offset of the array field of \p T that holds byte \p Offset, if one
/// does (a structure's fields followed down to the first array).
static std::optional<int64_t> arrayFieldStart(const DataLayout &DL, Type *T, int64_t Offset) {
  int64_t Start = 0;
  for (unsigned Depth = 0; T && T->isSized() && Offset >= 0 && Depth < 8; ++Depth) {
    if (isa<ArrayType>(T))
      return Start;
    auto *ST = dyn_cast<StructType>(T);
    if (!ST || ST->isOpaque())
      return std::nullopt;
    const StructLayout *SL = DL.getStructLayout(ST);
    if (uint64_t(Offset) >= SL->getSizeInBytes())
      return std::nullopt;
    unsigned I = SL->getElementContainingOffset(Offset);
    int64_t At = SL->getElementOffset(I);
    Start += At;
    Offset -= At;
    T = ST->getElementType(I);
  }
  return std::nullopt;
}

KeptAt arrayAsOne(KeptAt At, const DataLayout &DL) {
  Type *HolderType = nullptr;
  if (const auto *A = dyn_cast<Argument>(At.Holder))
    HolderType = A->getParamByValType();
  else if (const auto *GV = dyn_cast<GlobalVariable>(At.Holder))
    HolderType = GV->getValueType();
  if (std::optional<int64_t> Start = arrayFieldStart(DL, HolderType, At.Offset)) {
    At.Offset = *Start;
    At.Indexed = true;
  }
  return At;
}

std::optional<KeptAt> keptAt(const LoadInst &L) {
  const DataLayout &DL = L.getModule()->getDataLayout();
  int64_t Offset = 0;
  bool Indexed = false;
  const Value *Base = L.getPointerOperand();
  for (unsigned Step = 0; Step < 16; ++Step) {
    if (const auto *GEP = dyn_cast<GEPOperator>(Base)) {
      unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
      SmallMapVector<Value *, APInt, 4> Variable;
      APInt Constant(Bits, 0);
      if (!GEP->collectOffset(DL, Bits, Variable, Constant))
        return std::nullopt;
      Offset += Constant.getSExtValue();
      Indexed |= !Variable.empty();
      Base = GEP->getPointerOperand();
    } else if (const auto *Cast = dyn_cast<Operator>(Base);
               Cast && (Cast->getOpcode() == Instruction::AddrSpaceCast || Cast->getOpcode() == Instruction::BitCast)) {
      Base = Cast->getOperand(0);
    } else if (const auto *Local = dyn_cast<AllocaInst>(Base); Local && !Indexed) {
      // A local copy of what holds the pointer (a launcher's copy of the
      // functor it was handed): the pointer is kept where the copy came from.
      auto Copied = copiedOnce(*Local, Offset);
      if (!Copied)
        break;
      Base = Copied->first;
      Offset = Copied->second;
    } else {
      break;
    }
  }
  if (!isa<Argument>(Base) && !isa<GlobalVariable>(Base) && !isa<LoadInst>(Base))
    return std::nullopt;
  return arrayAsOne(KeptAt{Base, Offset, Indexed}, DL);
}

bool peerAddress(const Instruction &At, const Value *Ptr) {
  // The function a location was inlined from, and those it sits in.
  auto FromPeerFunction = [](const Instruction *I) {
    for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt())
      if (const DISubprogram *SP = L->getScope()->getSubprogram(); SP && returnsPeerAddress(SP->getName()))
        return true;
    return false;
  };
  if (FromPeerFunction(&At))
    return false;
  SmallVector<const Value *, 8> Work{Ptr};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second || isa<LoadInst, CallBase>(I))
      continue;
    // The step that moves the address by what the function computes (a
    // peer's stride, the window's offset): a field of its descriptor, at a
    // constant offset, is its own read.
    const auto *Moves = dyn_cast<GetElementPtrInst>(I);
    if ((Moves ? !Moves->hasAllConstantIndices() : isa<BinaryOperator, IntToPtrInst>(I)) && FromPeerFunction(I))
      return true;
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(I))
      Work.push_back(GEP->getPointerOperand());
    else if (isa<CastInst, PHINode, SelectInst, BinaryOperator>(I))
      for (const Value *V : I->operand_values())
        if (V->getType()->isPointerTy() || V->getType()->isIntegerTy(64))
          Work.push_back(V);
  }
  return false;
}

} // namespace ir
} // namespace cuda_scope
