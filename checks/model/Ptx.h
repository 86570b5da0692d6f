//===- Ptx.h - the one parser of inline PTX, for the AST checks and the pass ===//
//
// Reads the text of an inline asm statement (as written in an asm() in the
// source, or as the string of an LLVM InlineAsm) into the memory operations it
// performs, with their scope, order, state space and proxy. Operands are kept
// as text ("%1", "[%0+4]"); callers map "%N" to their own operand lists.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_PTX_H
#define CUDA_SCOPE_MODEL_PTX_H

#include "MemoryModel.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace cuda_scope {

struct PtxInstr {
  enum Kind : uint8_t {
    Load,          ///< ld
    Store,         ///< st
    Atomic,        ///< atom: read-modify-write, returns the old value
    Reduction,     ///< red: read-modify-write, returns nothing
    Fence,         ///< fence.sc / fence.acq_rel / membar
    ProxyFence,    ///< fence.proxy.*
    BlockBarrier,  ///< bar.sync / barrier.sync / bar.red
    ClusterArrive, ///< barrier.cluster.arrive
    ClusterWait,   ///< barrier.cluster.wait
    MBarrier,      ///< mbarrier.*
    BulkCopy,      ///< cp.async.bulk[.tensor] / cp.reduce.async.bulk: the async proxy
    BulkGroup,     ///< cp.async.bulk.commit_group / wait_group
    Wgmma,         ///< wgmma.*: reads shared memory through the async proxy
    Other,
  };
  Kind What = Other;
  std::string Mnemonic;            ///< "st.release.cta.global.b32"
  std::string Opcode;              ///< "st"
  llvm::SmallVector<std::string, 6> Qualifiers; ///< "release", "cta", "global", "b32"
  llvm::SmallVector<std::string, 4> Operands;   ///< as written, trimmed
  Order Sem = Order::Plain;
  std::optional<Scope> ScopeQual;  ///< the written scope, or the instruction's default
  MemorySpace Space = MemorySpace::Generic;
  /// For BulkCopy: the space read and the space written.
  MemorySpace Source = MemorySpace::Unknown, Destination = MemorySpace::Unknown;
  /// For ProxyFence: "async", "async.shared::cta", "alias", ...
  std::string Proxy;
  /// Index into Operands of the memory address ("[...]"), if any.
  std::optional<unsigned> AddressOperand;
  bool Predicated = false;
  /// multimem.*: the address is a multicast one, every GPU's copy of the object.
  bool Multicast = false;

  bool isMemoryAccess() const { return What == Load || What == Store || What == Atomic || What == Reduction; }
  bool hasQualifier(llvm::StringRef Q) const;
  /// The asm operand number the address names ("[%1+8]" -> 1), if it names one.
  std::optional<unsigned> addressOperandNumber() const;
  /// For atom and red: the asm operand number of the value the update
  /// applies, the operand after the address ("atom.add %0,[%1],%2" -> 2).
  std::optional<unsigned> valueOperandNumber() const;
};

/// Parses every instruction in \p Text. Unknown instructions come back as
/// Kind::Other; text that is not PTX at all yields no instructions. Never fails.
std::vector<PtxInstr> parsePtx(llvm::StringRef Text);

llvm::StringRef ptxKindName(PtxInstr::Kind K);

/// What \p P does, in the vocabulary the rules share: ld, st, atom and red,
/// fences, bar.sync, the cluster barrier, an mbarrier's arrive (a release)
/// and wait (an acquire) as a barrier object's, fence.proxy.async, and the async
/// proxy reading shared memory (a bulk copy out of it, wgmma). None for the
/// rest.
std::optional<OpKind> opKindOf(const PtxInstr &P);

} // namespace cuda_scope

#endif
