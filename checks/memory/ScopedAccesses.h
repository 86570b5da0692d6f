//===- ScopedAccesses.h - every scoped atomic, fence and barrier of a TU --===//
//
// Collected once per translation unit and shared by every check that asks
// (ScopedAccesses::get): the atomic accesses, fences and barrier operations
// that kernels, the device functions they call and host functions perform,
// each with its kind, order and scope, the object it touches and the context
// it runs in (the kernel, or host code).
//
// Device code is walked from each kernel down through the functions the TU
// defines (outside system headers), with every call's arguments bound to the
// callee's parameters, so that a pointer passed down is known by where it
// came from. Object identity follows what the TU shows: variables, fields
// reached through the same base, elements of one array, kernel parameters
// within a kernel, locals through their initializers (when never assigned),
// values returned by functions with one return, and the host variable a
// kernel parameter is bound to at every launch.
//
// For the rules about messages (model/EngineMessages.cpp), the same walk also collects
// device code's plain and volatile loads and stores of memory it does not
// own, where each read's value decides a branch (directly, through the
// variables it is stored to, or through a helper's return), the if and ?:
// arms on the way to each access, and the calls made.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_SCOPEDACCESSES_H
#define CUDA_SCOPE_MEMORY_SCOPEDACCESSES_H

#include "model/Engine.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cuda_scope {

/// The object an access touches: a root declaration and the way from it.
struct ObjectRef {
  /// A variable, a parameter, or after a launch binding the host variable a
  /// kernel parameter comes from.
  const clang::ValueDecl *Root = nullptr;
  /// Fields and dereferences after the root, in order; a null entry is a
  /// dereference ("*p", "p->x", "p[i]").
  llvm::SmallVector<const clang::FieldDecl *, 2> Path;
  ObjectHome Home = ObjectHome::Unknown;
  /// The element indices on the way, as canonical text (locals replaced by
  /// their initializers, parameters by the arguments); empty for none.
  std::string Index;
  /// Points into the object at an element chosen at run time, named \p At
  /// (a phi of addresses, a handle moved along): no block, warp or lane is
  /// known to own it.
  void atElementChosenAtRunTime(std::string At);
  /// The address depends on the block index: some index reads blockIdx.
  bool BlockDependent = false;
  /// Index up to the first component that keeps blocks apart: the block's
  /// own part of the object (a row of a pitched array); empty for none.
  std::string BlockSegment;
  /// The step that gives BlockSegment keeps the block's warps apart too.
  bool WarpSegment = false;
  /// The block's region of the object a flat index lies in (model:
  /// blockPart): the index up to that subscript, then its terms every
  /// thread of a block computes alike; empty for none.
  std::string BlockPart;
  /// The additive terms of the address's index, where it takes one
  /// (MemOp::Flat); null for none or several.
  std::shared_ptr<const std::vector<IndexTerm>> Flat;
  /// Some index reads threadIdx.x, so that with BlockDependent the element
  /// is the thread's own (out[blockIdx.x * blockDim.x + threadIdx.x]).
  bool ThreadDependent = false;
  /// Some index is a value read from memory or returned by a call the walk
  /// does not follow (a slot claimed from a counter, the ring's head, the slot
  /// an atomicAdd hands out): threads may compute different addresses.
  bool ReadDependent = false;
  /// Some index reads a thread's or block's index through any step (the
  /// lane, threadIdx.x % 32, keeps no two warps apart, and still differs
  /// between a warp's threads): IndexDeps::Varies.
  bool IndexVaries = false;
  /// ... the thread's index in its block among them: IndexDeps::ThreadVaries.
  bool ThreadVaries = false;
  /// The address came from a function that returns another GPU's memory
  /// (model: returnsPeerAddress; MemOp::Peer).
  bool Peer = false;
  /// How many subscripts the address takes, and, for one that is threadIdx.x
  /// plus a constant (s[tid + 16]), that constant (MemOp::LaneOffset).
  unsigned Subscripts = 0;
  std::optional<int64_t> LaneOffset;
  /// The other subscripts, which every lane of a warp computes alike, as
  /// text (MemOp::LaneBase); LaneOffset is void when one differs between
  /// lanes or two are lane subscripts.
  std::string LaneBase;
  bool LaneVoid = false;
  /// How to name the object in a message: "flag", "state->count".
  std::string Spelling;
  /// For a kernel parameter bound to a part of a host object that the
  /// launch carves into several (base + offA and base + offB given to two
  /// parameters): the part's offset, as text. Each part is an array of its
  /// own, as each parameter is to the kernel.
  std::string Carve;
  /// For a local pointer set to one of several objects (dst = b or a, as a
  /// pass's direction picks), named by the pointer itself: the home every
  /// one of them has. Unknown where they differ or for any other object.
  ObjectHome WaysHome = ObjectHome::Unknown;

  bool sameObject(const ObjectRef &O) const { return Root == O.Root && Path == O.Path && Carve == O.Carve; }
  /// Every thread computes the same address: no index reads the thread's
  /// identity or memory, and every index is a value the file shows (as the
  /// IR front end decides it from its canonical address).
  bool sameForEveryThread() const {
    return !BlockDependent && !ThreadDependent && !WarpSegment && !ReadDependent && !IndexVaries &&
           llvm::StringRef(Index).count('@') == 0;
  }
  /// The same bytes for the same object (Root, Path and Carve), for maps.
  std::string key() const;
};

/// One atomic access, fence or barrier operation, in one context.
struct ScopedAccess {
  OpKind What = OpKind::Load;
  Order Ord = Order::SeqCst;
  Scope S = Scope::System;
  /// The object; none for fences and __syncthreads().
  std::optional<ObjectRef> Object;

  /// How the access is written.
  enum Form : uint8_t {
    LibcuType,     ///< a member of cuda::atomic_ref, cuda::atomic, cuda::barrier, ... (or std::)
    DeviceBuiltin, ///< atomicAdd_block, __threadfence, __syncthreads
    ScopeArgument, ///< __nv_atomic_*, __scoped_atomic_*, cuda::atomic_thread_fence
    InlinePtx,     ///< an instruction of an asm statement
    Plain,         ///< a plain or volatile load or store of a scalar (Ord Plain or Volatile)
  } How = LibcuType;
  /// "cuda::atomic_ref<int, thread_scope_block>::store", "atomicAdd_block",
  /// "st.release.cta.b32".
  std::string Name;
  /// For a read-modify-write: the value it applies, when it is a constant
  /// (countsArrivals: adding 0 counts nothing).
  std::optional<int64_t> Operand;
  /// For a write: the value it leaves, when constant (MemOp::Stored).
  std::optional<int64_t> Stored;
  const clang::Stmt *Site = nullptr; ///< the call, operator call or asm statement
  clang::SourceLocation Loc;         ///< where it is written
  /// Where a diagnostic about it goes when Loc is in a library's code (a
  /// system header): the project's call that reaches it. Invalid otherwise.
  clang::SourceLocation Shown;
  clang::SourceLocation reportLoc() const { return Shown.isValid() ? Shown : Loc; }

  const clang::FunctionDecl *Function = nullptr; ///< the function whose body holds it
  /// The kernel it runs under, the host function, or a device function no
  /// kernel of the TU reaches.
  const clang::FunctionDecl *Root = nullptr;
  enum RootKind : uint8_t { Kernel, DeviceFunction, Host } RootIs = Kernel;
  /// The calls from Root down to Function.
  llvm::SmallVector<const clang::Expr *, 2> CallChain;
  /// Program order within one walk of Root (loops and branches aside).
  unsigned Seq = 0;
  /// The if and ?: arms (and the calls) on the way from Root to the access:
  /// two accesses in different arms of one statement never follow each other.
  llvm::SmallVector<std::pair<const clang::Stmt *, unsigned>, 2> Arms;
  /// The one block that runs it, where a branch on blockIdx.x says so
  /// (if (blockIdx.x == 0) ...); -1 when any block may.
  int64_t OnlyBlock = -1;
  /// The ticket (a counting read-modify-write's call, drawn once per block
  /// and launch) whose chosen value elects the one block that runs it:
  /// if (__syncthreads_or(atomicInc(&c, gridDim.x - 1) == gridDim.x - 1)).
  const clang::Expr *ElectedBy = nullptr;
  /// For a load or read-modify-write whose value decides a branch (the
  /// condition of an if, a loop, ?:, && or ||), directly or through the
  /// variables it is stored to (t = atomicAdd(...); last = t == n; if (last)),
  /// or a libcu++ wait(): the Seq of that test.
  std::optional<unsigned> TestSeq;
  /// How that test compares the value.
  ValueTest Test = ValueTest::None;
  /// What the value is compared with is the grid's size in blocks, or a
  /// value computed from it (MemOp::AgainstGrid).
  bool AgainstGrid = false;
  /// ... with a value that can differ between uses (MemOp::GoalVaries).
  bool GoalVaries = false;
  /// ... with the grid's width itself (MemOp::GoalIsGrid).
  bool GoalIsGrid = false;
  /// The state space the instruction names (an inline PTX ld.global), if any.
  MemorySpace Space = MemorySpace::Unknown;
  /// A multicast access (multimem.*): every GPU's copy (MemOp::Peer).
  bool Multicast = false;
  /// A library's transfer into or out of another GPU's memory, in place of
  /// the call that makes it (model: peerTransferOf; MemOp::Peer).
  bool Transfer = false;
  /// A read-modify-write whose value nothing uses (MemOp::ValueUnused).
  bool ValueUnused = false;
  /// A wait of its own (libcu++'s wait(old)): it returns once the value
  /// differs, whatever statement holds it.
  bool Waits = false;
  /// It sits in a loop over the grid's blocks (MemOp::GridLoop).
  bool GridLoop = false;
  /// Only threads whose threadIdx.x is below this run it (MemOp::ThreadBelow).
  int64_t ThreadBelow = -1;
  /// ThreadBelow counts ranks of each group of this many threads (MemOp::RankGroup).
  int64_t RankGroup = 0;
  /// The statement whose outcome the test decides, and what runs on it: the
  /// Seqs from TestFrom (the test, or the end of a do-while it ends) to TestUntil
  /// (the end of the statement, or never where an arm leaves or a loop ends).
  const clang::Stmt *TestGuard = nullptr;
  unsigned TestFrom = 0, TestUntil = ~0u;
  /// The value's other tests, past the first (read once into a variable,
  /// tested twice: if (old != e) ..., then if (e == 2) ...): each one's
  /// statement and Seq, then the Seqs it guards, as TestFrom..TestUntil.
  /// What any of them guards runs on the value.
  llvm::SmallVector<std::pair<const clang::Stmt *, unsigned>, 1> OtherTests;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 1> OtherGuarded;
  /// Where the test was found through a setter (if (atomicCAS(l, 0, 1) == 0)
  /// done = 1; else done = 0;, then a loop on done): that if, the variable
  /// its arms set, and the constant each arm sets it to (none: the arm
  /// leaves it alone), so that the value under which the loop is left can be
  /// read back through the variable (PassWhen).
  const clang::IfStmt *SetterIf = nullptr;
  const clang::VarDecl *SetterVar = nullptr;
  std::optional<int64_t> SetterThen, SetterElse;
  /// Where the memory_order argument is written at the call, as an
  /// enumerator in the user's code, for a fix that changes the order.
  clang::SourceRange OrderSpelling;

  /// Where the scope is written, for a fix that widens it: the enumerator
  /// naming the scope in the template arguments (thread_scope_block in
  /// cuda::atomic_ref<int, cuda::thread_scope_block>), or the builtin's name
  /// (atomicAdd_block). Invalid where the scope is not written at the access
  /// (an alias, a template parameter, a macro, a system header).
  enum WidenForm : uint8_t { NoWiden, Enumerator, BuiltinName } Widen = NoWiden;
  clang::SourceRange ScopeSpelling;
  llvm::StringRef BuiltinOperation; ///< "atomicAdd" for atomicAdd_block


  bool isPlain() const { return How == Plain; }
  bool isMemoryAccess() const {
    return What == OpKind::Load || What == OpKind::Store || What == OpKind::RMW;
  }
};

/// Marks an arm (ScopedAccess::Arms) that ends in a return.
constexpr unsigned ArmReturns = 1u << 31;
/// The entry of ScopedAccess::Arms that a loop's condition and body sit in.
constexpr unsigned ArmLoop = 1u << 30;
/// Marks an arm that ends in a break or continue: it leaves the iteration of
/// its loop, so nothing in it precedes what follows it in that loop.
constexpr unsigned ArmLeavesIteration = 1u << 29;
/// Marks an arm that ends in a break: it leaves its loop.
constexpr unsigned ArmBreaks = 1u << 28;

/// The entries of ScopedAccess::Arms (or CallSite::Arms) of two operations
/// sit in one loop (the same walk of it) that neither leaves once it has run:
/// no arm either sits in, inside that loop, ends in a return or in a break
/// of that loop. The IR's loops are the same: a tail that always leaves
/// cannot reach the loop's header, and LoopInfo holds it outside.
bool inCommonLoop(llvm::ArrayRef<std::pair<const clang::Stmt *, unsigned>> ArmsA,
                  llvm::ArrayRef<std::pair<const clang::Stmt *, unsigned>> ArmsB);

/// A call made by device code, where the walk met it.
struct CallSite {
  const clang::FunctionDecl *Callee = nullptr;
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Root = nullptr;
  unsigned Seq = 0;
  /// The walk stopped above the callee (MaxDepth): what it does is not
  /// known, so it may be a fence (a library's atomic wrapper that fences
  /// around its access, whose access a shallower sibling call did record).
  bool Unfollowed = false;
  llvm::SmallVector<std::pair<const clang::Stmt *, unsigned>, 2> Arms;
};

/// True when \p A may run before \p B in one thread: both are in one walk of
/// the same root, \p A comes first, and they are not in different arms of one
/// if or ?: statement. Loops are not followed back.
bool mayPrecede(const ScopedAccess &A, const ScopedAccess &B);
bool mayPrecede(const ScopedAccess &A, const CallSite &B);
bool mayPrecede(const CallSite &A, const ScopedAccess &B);


class ScopedAccesses {
public:
  /// The collection of \p Ctx's translation unit, made on first use and
  /// shared by every caller until the last one lets go of it.
  static std::shared_ptr<ScopedAccesses> get(clang::ASTContext &Ctx);

  explicit ScopedAccesses(clang::ASTContext &Ctx);
  ~ScopedAccesses();

  /// Every access, in the order the walks met them; collected on first call.
  llvm::ArrayRef<ScopedAccess> accesses();

  /// The plain and volatile loads and stores of scalars that device code
  /// makes to objects it does not own (variables outside the function, what
  /// pointers and references reach), with their objects. They synchronize
  /// nothing (volatile aside) and make no group: rules about the data a flag
  /// publishes read them.
  llvm::ArrayRef<ScopedAccess> plainAccesses();

  /// The calls device code makes, in walk order.
  llvm::ArrayRef<CallSite> calls();

  /// The roots left out because their code has errors.
  const llvm::DenseSet<const clang::FunctionDecl *> &unanalysed() const { return Unanalysed; }

  /// Every launch of \p Kernel in the TU runs one block (<<<1, N>>>).
  bool runsOneBlock(const clang::FunctionDecl *Kernel) const;

  /// The threads of a block all take the same arm of \p Branch (an if or
  /// ?:), wherever the walk met it: its condition reads only what they
  /// compute alike (the block's index, the grid's size, constants and
  /// parameters), nothing read from memory (model: ProgramOrder::blocksApart).
  bool decidedAlikeInBlock(const clang::Stmt *Branch) const {
    auto It = BranchAlike.find(Branch);
    return It != BranchAlike.end() && It->second;
  }

  /// "'flag'", "shared variable 'tile'".
  static std::string describe(const ObjectRef &O);

  clang::ASTContext &context() { return Ctx; }

  struct Launch;
  class Walker;

private:
  void collect();
  void bindLaunches();
  ObjectHome homeOf(const ObjectRef &O, bool FromLaunch) const;
  ObjectHome homeOfRoot(const ObjectRef &O) const;

  clang::ASTContext &Ctx;
  bool Collected = false;
  std::vector<ScopedAccess> All, Plain;
  std::vector<CallSite> Calls;
  std::vector<std::unique_ptr<Launch>> Launches;
  llvm::DenseMap<const clang::FunctionDecl *, bool> OneBlock;
  llvm::DenseSet<const clang::FunctionDecl *> Unanalysed;
  llvm::DenseMap<const clang::Stmt *, bool> BranchAlike;
  llvm::DenseMap<const clang::VarDecl *, Allocation> Allocations;
};

/// "kernel 'k'", "device function 'f'", "host function 'main'": what \p A
/// runs under.
std::string describeRoot(const ScopedAccess &A);

/// "loaded", "stored", "updated", "used as a barrier".
llvm::StringRef accessVerb(OpKind K);

} // namespace cuda_scope

#endif
