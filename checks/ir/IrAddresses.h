//===- IrAddresses.h - what an address computation says, read from the IR ===//
//
// The address facts the IR front end hands the engine (MemOp::Element,
// Segment, FixedAddress, ThreadPrivate, HasLaneOffset): an address as
// canonical text, its block's part, its field, and the lanes it keeps apart.
// The AST front end reads its indices the same way (ObjectIdentity.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_IRADDRESSES_H
#define CUDA_SCOPE_IR_IRADDRESSES_H

#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Value.h"
#include <utility>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class AllocaInst;
class CallBase;
class Function;
class LoadInst;
class PHINode;
} // namespace llvm

namespace cuda_scope {
namespace ir {

/// What the address computation reads of the thread's identity: blockIdx.x
/// and threadIdx.x, through operations that keep distinct values apart.

/// The address as canonical text: the same text, the same computation (so
/// the same address for the same thread), whichever instructions compute it;
/// what cannot be followed is named by its own identity.
std::string canonical(const llvm::Value *V, IndexDeps &Deps, unsigned Depth = 0);

/// While one lives, canonical() reads a parameter of \p Call's callee as
/// the argument the call passes: the address of an operation copied to a
/// call that runs it (IROp::Site).
class BindCallArguments {
public:
  explicit BindCallArguments(const llvm::CallBase *Call);
  ~BindCallArguments();
  BindCallArguments(const BindCallArguments &) = delete;
  BindCallArguments &operator=(const BindCallArguments &) = delete;

private:
  const llvm::CallBase *Saved;
};

/// A loop's variable that walks a range its owner's bounds delimit (model:
/// rangeIndex): it steps by what reads nothing of the thread and a branch
/// that leaves its loop compares it with its bound. Its facts and start.
struct RangeWalk {
  IndexDeps Deps;
  const llvm::Value *Start = nullptr;
};
std::optional<RangeWalk> rangeWalk(const llvm::PHINode *Phi, unsigned Depth);
/// The owner's part a range walk \p Index lies in, as the canonical text of
/// its start's one term that keeps blocks apart (rowStart[v] of rowStart[v] +
/// lane), as the AST names it; none otherwise.
std::optional<std::string> rangeRow(const llvm::Value *Index);
/// The row of an offsets array \p Index lies in (model: rowOf, rowCursor), as
/// the canonical text of the row's start, with the facts of the owner's item
/// in \p Owner; none otherwise (IrRows.cpp).
std::optional<std::string> indexRow(const llvm::Value *Index, IndexDeps &Owner);

/// The address whose canonical text is \p Text, read with \p Deps, is the
/// same for every thread: no index reads the thread's identity or memory
/// (which may change between threads' reads: buf[*cursor]), and every step
/// has a name; the grid's and the block's sizes are the same for all. The
/// AST front end's ObjectRef::sameForEveryThread.
bool sameForEveryThread(llvm::StringRef Text, const IndexDeps &Deps);

/// The address \p Ptr is in another GPU's memory: a step of its computation
/// (a GEP, a cast, integer arithmetic on it, a phi or select of ways) was
/// inlined from a function that returns such an address (model:
/// returnsPeerAddress), as the debug locations name it. Loads end the walk: a
/// pointer read from memory is whatever was stored there. An access \p At
/// that such a function makes itself (reading its window's descriptor) is to
/// this GPU's memory.
bool peerAddress(const llvm::Instruction &At, const llvm::Value *Ptr);

/// Which functions' uses of a variable count (a kernel's own); all for none.
using FunctionFilter = llvm::function_ref<bool(const llvm::Function &)>;

/// The pointer that the stores to \p Local (a local, or a __shared__
/// variable: memory one thread or one block owns) at byte \p Offset write (one
/// store, or several of the same pointer), where
/// every other use of the local reads it, passes it to a call (which reads
/// it: a lambda's closure), stores at other offsets, or keeps its address in
/// another local (a capture by reference); none otherwise.
const llvm::Value *storedOnce(const llvm::Value &Local, int64_t Offset, FunctionFilter Counts = nullptr);
/// Where the bytes of \p Local at \p Offset come from, when one copy fills
/// them (a functor or a closure passed by value, copied into the launcher's
/// own object: `memcpy(&agent.op, &op, n)`): the copy's source and the byte
/// there. Every other use of the local must leave those bytes alone: it
/// reads the local, copies from it, stores elsewhere in it, or passes it to
/// a call, as storedOnce allows. None where a store or a second copy writes
/// them, or the local's address escapes.
std::optional<std::pair<const llvm::Value *, int64_t>> copiedOnce(const llvm::Value &Local, int64_t Offset,
                                                                 FunctionFilter Counts = nullptr);
/// Where a loaded pointer is kept: the value that holds it (a kernel
/// argument, a variable, or memory another kept pointer points to) and its
/// offset there. A run-time index picks an element of an array the holder
/// keeps (p.flags[t], comm->peers[rank]): Indexed.
struct KeptAt {
  const llvm::Value *Holder;
  int64_t Offset;
  bool Indexed;
};
/// Where \p L reads its pointer from: its address's constant steps, and a
/// local copy of the holder (copiedOnce) followed to where it was copied from.
std::optional<KeptAt> keptAt(const llvm::LoadInst &L);
/// Every element of an array is the array, as the AST front end names
/// p.flags[t] and p.flags[0] by the field: where the holder's type is known
/// (a kernel's argument passed by value, a variable), an offset inside an
/// array field is the array's.
KeptAt arrayAsOne(KeptAt At, const llvm::DataLayout &DL);
/// \p Ptr without its constant steps (GEPs of constant offsets, casts): the
/// base, with the steps' bytes added to \p Offset.
const llvm::Value *constantBase(const llvm::Value *Ptr, int64_t &Offset);
/// The local \p Ptr points into, and at which byte: constant steps from it.
std::optional<std::pair<const llvm::AllocaInst *, int64_t>> localSlot(const llvm::Value *Ptr);

/// Every thread computes the address \p Address alike: each index of it is
/// sameForEveryThread, and its base is an argument, a variable, or a pointer
/// read from such an address (a structure's field: table->count, whose
/// pointer every thread reads from the same word) or from a local where one
/// store left such a pointer. An index read from memory
/// still makes it differ (buf[*cursor]). The AST front end's
/// ObjectRef::sameForEveryThread, which reads only the indices.
bool fixedAddress(const llvm::Value *Address, unsigned Depth = 0);

/// The address up to the first step that keeps blocks apart, as canonical
/// text (empty for none); \p WarpApart: that step keeps warps apart too.
/// Through a pointer loaded from the block's own part, the pointee is the
/// block's own.
std::string blockSegment(const llvm::Value *Address, bool &WarpApart, unsigned Depth = 0);
/// The block's region of the object that \p Address lies in (model:
/// blockPart), as canonical text: the steps before the first index that
/// reads the block's index, then that index's terms every thread of a block
/// computes alike. Empty for none.
std::string blockPartOf(const llvm::Value *Address);
/// The additive terms of \p Address's one flat index (model: IndexTerm,
/// pastEveryShare): the sum of the indices of a chain of one-index steps
/// over one element type. Null where a step takes several indices or the
/// types differ.
std::shared_ptr<const std::vector<IndexTerm>> flatIndexOf(const llvm::Value *Address);

/// The object an address is based on (llvm::getUnderlyingObject), also
/// where the address was made from an integer: a pointer cast to an integer,
/// moved and cast back, or its bits rewritten through a union, points into
/// the object of the one pointer it was made from.
const llvm::Value *underlyingObject(const llvm::Value *Ptr);

/// The field of its object that an address names; -1 for none.
int64_t fieldOffset(const llvm::Value *Ptr, const llvm::DataLayout &DL);

/// A register every thread of a block reads alike: the block's index, the
/// block's size and the grid's size (%ctaid, %ntid, %nctaid).
bool isBlockRegister(llvm::Intrinsic::ID ID);

/// \p V is threadIdx.x plus a constant (through casts and constant adds):
/// the constant. The lane (threadIdx.x & 31) counts as the index: which lane
/// of a warp an address is, or which lanes of every warp a guard admits; so
/// does the block's linear index, threadIdx.x + blockDim.x * (threadIdx.y +
/// blockDim.y * threadIdx.z), which cooperative groups' thread_rank() is.
/// Where \p Group is given, the rank in aligned groups of other sizes
/// (index & 15, a 16-thread tile's thread_rank()) is read too, its group
/// size set (model/rankGroupOf); it stays 0 for the index itself.
std::optional<int64_t> threadIndexPlus(const llvm::Value *V, unsigned Depth = 0, int64_t *Group = nullptr);

/// The bits of \p V that may differ between the lanes of a warp.
uint64_t laneBits(const llvm::Value *V, llvm::SmallPtrSetImpl<const llvm::Value *> &Seen, unsigned Depth = 0);

/// The address as the thread's own element plus a constant (s[tid + 16]:
/// 16), and the indices every lane computes alike, as text.
struct LaneAddress {
  int Offset;
  std::string Base;
};
std::optional<LaneAddress> laneOffsetOf(const llvm::Value *Address, const llvm::DataLayout &DL);

/// The one value a merge gives wherever it is defined (a value joined with
/// undef or poison on the paths where the source never set it); null where
/// two defined values meet, or \p V is no merge.
const llvm::Value *definedValue(const llvm::Value *V);

/// Every thread of a block computes \p V alike and reads no memory that may
/// change (the block's and grid's registers, constants, the kernel's
/// parameters, arithmetic and comparisons of them): a branch on it sends the
/// whole block one way.
bool decidedAlikeInBlock(const llvm::Value *V);

/// An integer comparison of an index with a constant, in the model's words;
/// an index is never negative, so signed and unsigned comparisons agree.
std::optional<IndexCompare> indexCompareOf(llvm::CmpInst::Predicate P);

/// \p Cond, an i1, as block tests (model BlockCondition; AST:
/// memory/ThreadIndex.cpp blockConditionOf), through the forms -O2 leaves:
/// (blockIdx.x | threadIdx.x) == 0 is both zero, a select with a constant
/// arm an && or ||, an xor with true a !, and tid == 0 - ctaid * ntid the
/// grid's thread 0; any other test as one \p Varies says threads of one
/// block may decide differently.
BlockCondition blockConditionOf(const llvm::Value *Cond, llvm::function_ref<bool(const llvm::Value *)> Varies);

} // namespace ir
} // namespace cuda_scope

#endif
