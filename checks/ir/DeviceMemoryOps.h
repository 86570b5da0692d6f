//===- DeviceMemoryOps.h - every memory operation a kernel performs -------===//
//
// Collects, for one kernel and every function it calls, the memory operations
// that matter for synchronization: LLVM atomics and fences with their
// syncscope, volatile accesses, NVVM intrinsics (by Intrinsic:: ID) and inline
// PTX (through the shared parser in model/), each with its scope, order,
// memory space and the object its address is based on.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_DEVICEMEMORYOPS_H
#define CUDA_SCOPE_IR_DEVICEMEMORYOPS_H

#include "model/Engine.h"
#include "model/MemoryModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include <string>
#include <vector>

namespace cuda_scope {

struct IROp {
  IROp(OpKind What, const llvm::Instruction *I) : What(What), I(I) {}
  OpKind What;
  const llvm::Instruction *I;
  Order Ord = Order::Plain;
  std::optional<Scope> ScopeQual;
  MemorySpace Space = MemorySpace::Unknown;
  bool Multicast = false;               ///< multimem.*: every GPU's copy (MemOp::Peer)
  bool Transfer = false;                ///< a library's transfer to or from a peer (MemOp::Peer)
  const llvm::Value *Address = nullptr; ///< the address, casts stripped
  const llvm::Value *Object = nullptr; ///< underlying object of the address
  bool PerBlock = false;               ///< the address depends on the block index
  /// When Object is a pointer read from memory (a load): where it was kept.
  PointerKeeper Keeper = PointerKeeper::Other;
  std::string Spelling;                ///< "st.release.cta.b32", "atomicrmw add syncscope(\"block\")"
  /// For a read-modify-write: its value operand, when it is a constant
  /// (countsArrivals: adding 0 counts nothing).
  std::optional<int64_t> Operand;
  /// For a write: the value it leaves, when constant (MemOp::Stored); for a
  /// compare-and-swap also the value it expects.
  std::optional<int64_t> Stored, Expected;
  /// For a read: the branch (or select) its value decides, directly or
  /// through a variable it was relayed through; null when none.
  const llvm::Instruction *Test = nullptr;
  /// The value's other tests (read once, tested twice): what any of them
  /// guards runs on the value too.
  llvm::SmallVector<const llvm::Instruction *, 1> OtherTests;
  /// Its value is compared with the grid's size (MemOp::AgainstGrid), and
  /// that size is the grid's width itself (MemOp::GoalIsGrid).
  bool AgainstGrid = false, GoalIsGrid = false;
  /// ... with a value that can differ between uses (MemOp::GoalVaries).
  bool GoalVaries = false;
  /// A call whose callee's memory effects are not shown (MemOp::Opaque).
  bool Opaque = false;
  /// A call of a function the module defines and -O2 did not inline: its
  /// operations are its own list's; FenceCall, when they (or those of what
  /// it calls) order anything (MemOp::FenceCall).
  const llvm::Function *Callee = nullptr;
  bool FenceCall = false;
  /// Where -O2 merged the accesses of two branches into one through a phi
  /// or select of their addresses (if (done) x = pref[i]; else x = agg[i];),
  /// the other objects the address may be based on: the access is one of
  /// several, as the source wrote them. collectDeviceOps gives each its own
  /// op, marked Alternative, at the same instruction.
  llvm::SmallVector<const llvm::Value *, 2> OtherObjects;
  bool Alternative = false;
  /// A copy of a callee's operation at a call of it (Callee) that -O2 kept
  /// out of line: it runs in the caller's order at this call, with the
  /// callee's parameters bound to the call's arguments (copyAtCallSites).
  const llvm::CallBase *Site = nullptr;

  bool isAccess() const { return isAccessKind(What); }
  bool isStrongAccess() const { return isAccess() && isStrong(Ord); }
};

bool isKernel(const llvm::Function &F);
/// The state space an NVPTX address space names.
MemorySpace spaceOf(unsigned AddrSpace);

/// The operations of \p Kernel and of every function it calls that the
/// module defines, in program order per function.
std::vector<IROp> collectDeviceOps(const llvm::Function &Kernel);

/// What cooperative groups' grid sync (and the like: model/barrierFunction)
/// is made of, once inlined: a release and an acquire on the barrier's own
/// word. Its operations are the barrier, not a flag of the user's
/// (IrCalls.cpp).
class BarrierFunctions {
public:
  /// The grid barrier, or the sync of a tile of several warps
  /// (BarrierFunction::OfTile), that a call of \p F is.
  std::optional<BarrierFunction> ofFunction(const llvm::Function &F);
  /// The grid barrier or tile sync \p I was inlined from, if any.
  std::optional<BarrierFunction> inlinedFrom(const llvm::Instruction &I);

private:
  std::optional<BarrierFunction> lookup(const llvm::DISubprogram *SP, llvm::StringRef Mangled);
  llvm::DenseMap<const void *, std::optional<BarrierFunction>> Known;
};

/// What \p Functions (a kernel, first, and what it calls) say of the size
/// of the kernel's blocks and tiles (model: TileShapes): the kernel's
/// launch bound, and the calls of this_thread_block<M> and
/// tiled_partition<N> that were inlined into them (their debug locations
/// name them with their template arguments) or that they make.
TileShapes tileShapesOf(llvm::ArrayRef<const llvm::Function *> Functions);

/// \p Op becomes the block barrier that the tile sync it was inlined from
/// is, the tile being the whole block.
void becomeBlockBarrier(IROp &Op);
/// Every operation of a function a call in \p Ops calls out of line, copied
/// to the call (IROp::Site), so that the caller's order holds what the
/// callee does where it does it, as inlining would (and the AST's walk into
/// the call does). The callee's own list stays. One level: a copy's calls
/// stand for what their callees order (FenceCall).
void copyAtCallSites(std::vector<IROp> &Ops);

/// \p Op becomes the grid barrier of scope \p S it was inlined from.
void becomeGridBarrier(IROp &Op, Scope S);

/// The transfer (model: peerTransferOf) a call of \p F makes by its
/// contract; \p Name is set to F's plain qualified name.
PeerTransfer transferOfFunction(const llvm::Function &F, std::string &Name);
/// That transfer's operation, at \p At; \p Name the function's plain name.
IROp transferOp(const llvm::Instruction &At, PeerTransfer T, std::string Name);
/// The operations Out[First..] that were inlined from one call of a transfer
/// function become that call's operation, at the first of them (IrCalls.cpp).
void replaceTransfers(std::vector<IROp> &Out, size_t First);
/// Sets FenceCall on each call of a function \p Ops holds the operations of.
void markOrderingCalls(std::vector<IROp> &Ops);

/// How describeObject names an object -O2 computed and left unnamed.
inline constexpr const char *UnnamedObject = "what a computed pointer points to";
/// "flag", "kernel argument 'out'", "shared variable 'tile'".
std::string describeObject(const llvm::Value *Object);

} // namespace cuda_scope

#endif
