//===- Engine.h - the memory-model rules, over abstract memory operations -===//
//
// One engine decides every scope and release/acquire finding, for both front
// ends. The clang-tidy checks extract MemOps from the AST (memory/ScopedAccesses),
// the IR pass from device IR after inlining (ir/DeviceMemoryOps); each hands
// the engine the operations it found and a ProgramOrder that answers what may
// run before what in one thread, and words the Findings the engine returns.
// A rule is written here once, in the PTX memory model's terms: a finding
// means the model allows a stale read or a race between the operations it
// names.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_ENGINE_H
#define CUDA_SCOPE_MODEL_ENGINE_H

#include "MemoryModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <vector>

namespace cuda_scope {

/// Where an object lives, as far as a front end can tell.
enum class ObjectHome : uint8_t {
  Unknown,    ///< behind a pointer whose origin is not shown
  Local,      ///< a thread's own variable or parameter
  Shared,     ///< __shared__: one per block
  Global,     ///< global memory: __device__ variables, what kernel arguments point to
  Managed,    ///< __managed__ variables and cudaMallocManaged memory: host and device
  MappedHost, ///< cudaMallocHost / cudaHostAlloc memory: host and device
  Host,       ///< host memory not shown to reach the device
};

/// Memory that threads of every block of a grid reach.
inline bool gridMemory(ObjectHome H) {
  return H == ObjectHome::Global || H == ObjectHome::Managed || H == ObjectHome::MappedHost;
}
/// Where an access is, when its instruction names a state space (ld.global,
/// red.shared::cta): that space, whatever a front end could tell of the
/// object from the address's origin (managed and mapped memory are in the
/// global space too). A generic access is where its object is.
inline ObjectHome homeInSpace(MemorySpace Named, ObjectHome OfObject) {
  switch (Named) {
  case MemorySpace::Global: return gridMemory(OfObject) ? OfObject : ObjectHome::Global;
  case MemorySpace::Shared: return ObjectHome::Shared;
  case MemorySpace::Local: return ObjectHome::Local;
  // Shared memory of any block of the cluster (not one block's), the
  // kernel's parameters and the constant bank: none of the homes the rules
  // reason about.
  case MemorySpace::SharedCluster:
  case MemorySpace::Param:
  case MemorySpace::Constant: return ObjectHome::Unknown;
  case MemorySpace::Generic:
  case MemorySpace::Unknown: return OfObject;
  }
}
/// Where a pointer that code reads from memory is kept (a field of what a
/// kernel is given, of a device variable, of a shared variable).
enum class PointerKeeper : uint8_t {
  KernelParameter, ///< a kernel's parameter, or memory a kernel's parameter points to
  DeviceVariable,  ///< a __device__ or __constant__ variable
  SharedVariable,  ///< a __shared__ variable
  Other,           ///< a device function's parameter, a local, an unknown address
};

/// Where a pointer points, by where it is kept. The host gives a kernel (and
/// writes into device variables) pointers to device memory: it cannot name a
/// block's shared memory. A pointer kept in shared memory, or passed to a
/// device function, may point to either.
inline ObjectHome pointeeHome(PointerKeeper K) {
  return K == PointerKeeper::KernelParameter || K == PointerKeeper::DeviceVariable ? ObjectHome::Global
                                                                                   : ObjectHome::Unknown;
}

/// Memory that host threads and device threads both reach.
inline bool sharedWithHost(ObjectHome H) { return H == ObjectHome::Managed || H == ObjectHome::MappedHost; }

/// Who runs an operation.
enum class Runner : uint8_t {
  Kernel,         ///< device code reached from a kernel
  DeviceFunction, ///< a device function no kernel of the unit reaches
  Host,           ///< host code
};

/// How a read's value decides a branch: compared for equality (==, !=, a
/// switch, a truth test: a flag, the last ticket), or only against a bound
/// (<, >=: a work cursor checked against its end, a slot against capacity).
enum class ValueTest : uint8_t { None, Equality, Bound };

/// A comparison's operator, with the tested value on the left.
enum class Comparison : uint8_t { EQ, NE, LT, LE, GT, GE };
/// How a comparison of a read's value tests it. == and != test it for a
/// value; <, <=, >, >= against a bound, except where they only ask whether
/// an unsigned value is zero (u > 0, u >= 1, u < 1, u <= 0), which is a
/// truth test, as the optimizer writes it (icmp ne u, 0). \p Other is the
/// constant the value is compared with, when there is one; \p C has the
/// tested value on the left (swap the operator for `0 < u`).
ValueTest comparisonTest(Comparison C, bool Unsigned, std::optional<int64_t> Other);

/// "atomicAdd", "fetch_sub", "atom.inc", "atomicrmw add", "red.add": an
/// update that counts (adds to or takes from the old value), as opposed to one
/// that swaps (exchange, compare-and-swap) or combines bits and extremes.
/// With \p Operand, the constant it adds or takes, when the front end knows
/// it: adding or taking 0 counts nothing (atomicAdd(p, 0) is how code reads a
/// word atomically: a barrier's wait on its arrival count). atomicInc's and
/// atomicDec's operand is a limit, not an addend: they always count.
bool countsArrivals(llvm::StringRef OperationName, std::optional<int64_t> Operand = std::nullopt);

/// A counting update whose draws return values no two draws share until it
/// wraps: it adds or takes a constant other than 0 (atomicAdd(&c, 1)), or it
/// is atomicInc/atomicDec, which wrap only at their limit (a grid's worth of
/// draws, one per block, stays within it). An addend that may be 0 (a
/// compaction's atomicAdd(&n, count)) hands two threads the same value: a
/// test for one value of it picks no one drawer.
bool drawsDistinctTickets(llvm::StringRef OperationName, std::optional<int64_t> Operand);

/// An update whose operand is its operation's identity (atomicAdd(p, 0),
/// atomicOr(p, 0), atomicXor(p, 0), atomicAnd(p, ~0)) writes back the value
/// it reads: to the model it is a read (a poll written as an update), never a
/// write that hands anything on.
bool writesNothing(llvm::StringRef OperationName, std::optional<int64_t> Operand);

/// How an update chooses the value it writes: from the old value and its
/// operand (add, or, max, inc), as its operand (exchange: "atomicExch",
/// "exchange", "atomicrmw xchg", "atom.exch"), or as its new value only
/// when the old one equals what it expects (compare-and-swap: "atomicCAS",
/// "compare_exchange_strong", "cmpxchg", "atom.cas"), writing nothing
/// otherwise.
enum class UpdateForm : uint8_t { Combines, Exchanges, ComparesAndSwaps };
UpdateForm updateForm(llvm::StringRef OperationName);

/// Two constants that front ends read at different widths name the same
/// value: equal, or equal in their low 32 bits where each is a 32-bit value
/// read signed or unsigned (0xffffffffu and -1).
bool sameValue(int64_t A, int64_t B);

/// A value read compared with a constant: value == C or value != C.
struct ValueCondition {
  Comparison Op = Comparison::EQ; ///< EQ or NE
  int64_t C = 0;
  bool holdsFor(int64_t V) const { return (Op == Comparison::EQ) == sameValue(V, C); }
};

/// Whether a later test \p Needed of a value can pass once the path has
/// passed \p Known of it, the value unchanged between them (a parameter
/// no statement writes): if (mode == 1) ...; if (mode == 2) ... never runs
/// both arms. False where the first test decides the second the other way,
/// so that no path runs through both arms; -O2 threads such branches, and
/// the AST front end closes them (DecidedPaths).
bool consistentTests(const ValueCondition &Known, const ValueCondition &Needed);

/// MemOp::ThreadBelow when a condition on the thread's index that no bound
/// reads decides the operation.
inline constexpr int UnknownThreadGuard = -2;

/// One memory operation, with what the rules need to know of it.
struct MemOp {
  OpKind What = OpKind::Load;
  Order Ord = Order::Plain;
  /// The scope it is atomic or ordered at; none for plain accesses.
  std::optional<Scope> S;
  ObjectHome Home = ObjectHome::Unknown;
  /// The state space the instruction names (ld.shared::cluster), if any.
  MemorySpace Space = MemorySpace::Unknown;
  /// The object, as an id the front end chose: equal ids, the same object.
  /// -1: none (fences, barriers) or not known.
  int Object = -1;
  /// The address within the object: equal Object and Element, the same
  /// address computation (so the same address for the same thread). -1: unknown.
  int Element = -1;
  /// The address keeps the blocks of a grid apart (out[blockIdx.x]).
  bool PerBlock = false;
  /// The part of the address that keeps blocks apart, as an id: equal
  /// Segments of one object are the same block's part of it (flags[blockIdx.x],
  /// or a row row = base + blockIdx.x * pitch, whatever the column). -1: none.
  int Segment = -1;
  /// The Segment keeps a block's warps apart too ((blockIdx.x * warps + warp)
  /// * size): only the lanes of one warp touch it.
  bool WarpSegment = false;
  /// The block's region of the object that a flat index lies in, as an id
  /// (model: blockPart): equal BlockParts of one object, one block's region
  /// (base + blockIdx.x * pitch + column, whatever the column). -1: none.
  int BlockPart = -1;
  /// The additive terms of the address's one flat index, for an access of
  /// an element of its object (State::addressesApart); null for none.
  std::shared_ptr<const std::vector<IndexTerm>> Flat;
  /// Only this block of its grid runs the operation (if (blockIdx.x == 0),
  /// or a kernel launched with one block); -1 when any block may.
  int OnlyBlock = -1;
  /// Only the block that a ticket elects runs it: the block whose draw of a
  /// counting update, made once per launch, returned the value a test
  /// chooses (if (atomicInc(&done, gridDim.x - 1) == gridDim.x - 1)), as an
  /// id of that draw; -1: none. Which block that is the front end cannot
  /// say, but it is one block, the same for every operation of one draw.
  int ElectedBy = -1;
  /// What runs it: the kernel, device function or host function, as an id.
  /// Operations of different contexts are concurrent only across kernels.
  int Context = 0;
  Runner RunBy = Runner::Kernel;
  /// Program order: operations of different Threads never follow each other
  /// in one thread; within one, A before B implies A.Seq < B.Seq.
  unsigned Thread = 0;
  unsigned Seq = 0;
  /// A read whose value decides a branch or a loop's exit (ProgramOrder::
  /// afterTest says what runs after that test), and how it is compared.
  bool Tested = false;
  ValueTest Test = ValueTest::None;
  /// A read-modify-write that counts (countsArrivals).
  bool Counts = false;
  /// A read-modify-write whose operand leaves the value as it was
  /// (writesNothing): a read.
  bool WritesNothing = false;
  /// A read-modify-write whose old value the thread never uses: a reduction
  /// (atomicAdd(&hist[b], 1) as a statement, red.add). It writes the object
  /// and tells the thread nothing of what others did.
  bool ValueUnused = false;
  /// The read's value decides the exit of a loop that holds the read: the
  /// thread waits for it (a spin).
  bool Spins = false;
  /// The read's value is compared with the grid's size in blocks (gridDim,
  /// %nctaid), or a value computed from it (gridDim.x * gridDim.y - 1).
  bool AgainstGrid = false;
  /// That value can differ between two runs of the read by one thread: it is
  /// computed from a loop's counter, from what the thread read (the ticket an
  /// arrival returned), or from anything else that is not the grid's size,
  /// the block's and the thread's indices, constants and parameters, by
  /// arithmetic (a goal that grows with each use: gridDim.x * (round + 1)).
  bool GoalVaries = false;
  /// That value is the grid's width in blocks itself (gridDim.x, %nctaid.x),
  /// not a value computed from it: two waits with this set wait for the same
  /// goal.
  bool GoalIsGrid = false;
  /// It sits in a loop over the grid's blocks: a loop whose exit compares
  /// its counter with the grid's size (for (b = 0; b < gridDim.x; ++b)).
  bool GridLoop = false;
  /// The element is the thread's own index plus a constant, in elements
  /// (s[threadIdx.x + 16]: 16), when HasLaneOffset.
  bool HasLaneOffset = false;
  int LaneOffset = 0;
  /// The rest of the address, which every lane of a warp computes alike (a
  /// warp's own part of the object: s + warp * 64), as an id: lane offsets
  /// compare only between accesses with equal LaneBase.
  int LaneBase = -1;
  /// Only threads whose threadIdx.x is below this run it (if (tid < 32)), or,
  /// for a guard on the lane (if (lane < 16)), only those lanes of every warp:
  /// the warp rules read it one warp at a time, where the two agree;
  /// -1: no such bound is shown; UnknownThreadGuard: a condition on the
  /// thread's index the front end cannot bound decides it (if ((tid & n) == n)),
  /// so which lanes run it is not known.
  int ThreadBelow = -1;
  /// Where the guard reads the thread's rank in aligned groups of this many
  /// threads (a 16-thread tile's thread_rank() == 15): ThreadBelow then counts
  /// the ranks of each group that run it, which may be any (ThreadBound).
  int RankGroup = 0;
  /// The element is the thread's own: its index keeps both the grid's blocks
  /// and a block's threads apart (out[blockIdx.x * blockDim.x + threadIdx.x]).
  bool ThreadPrivate = false;
  /// Every thread computes the same address (a field of a structure all
  /// threads share: p->count), so different Elements of one Object with
  /// this set are different locations for every thread.
  bool FixedAddress = false;
  /// The threads of one block compute different addresses: the index reads
  /// the thread's index in its block through any step (data[threadIdx.x],
  /// s[lane]; IndexDeps::ThreadVaries).
  bool ThreadApart = false;
  /// The address is in another GPU's memory: a team peer's slot of a
  /// symmetric window or every GPU's copy through a multicast address
  /// (returnsPeerAddress, multimem.*). That GPU's threads read and write it,
  /// in this kernel or in what they run after it.
  bool Peer = false;
  /// For a write: the value it leaves, where the front end knows it and it
  /// does not depend on what was there: a store's or an exchange's constant,
  /// a compare-and-swap's new value (the only value it ever writes).
  std::optional<int64_t> Stored;
  /// For a read that Spins: the thread leaves the loop, and runs what
  /// follows it, only when the value read meets this condition (while
  /// (atomicCAS(l, 0, 1) != 0) {} leaves on == 0). None where the loop has
  /// another way out or the test is not one comparison with a constant.
  std::optional<ValueCondition> PassWhen;
  /// For Call: the callee is a fence by the user's word (an option), or
  /// may be one: a front end did not follow the call (clang-tidy's walk
  /// stops at a depth) and so does not know what it orders.
  bool FenceCall = false;
  /// For Call: what the callee does to memory is not shown (a function
  /// defined in another unit, an external declaration): it may touch any.
  bool Opaque = false;

  bool isAccess() const { return What == OpKind::Load || What == OpKind::Store || What == OpKind::RMW; }
  bool isStrongAccess() const { return isAccess() && isStrong(Ord); }
  bool writes() const { return What == OpKind::Store || (What == OpKind::RMW && !WritesNothing); }
  bool reads() const { return What == OpKind::Load || What == OpKind::RMW; }
};

/// Program order, as a front end sees it. The engine asks only about
/// operations of one Thread.
class ProgramOrder {
public:
  virtual ~ProgramOrder();
  /// Operation \p A may run before operation \p B in one thread: loops are
  /// not followed back, and operations in exclusive branches never precede
  /// each other.
  virtual bool mayPrecede(unsigned A, unsigned B) const = 0;
  /// The value read by \p A has decided a branch (or a loop's exit) when
  /// operation \p B may run after it.
  virtual bool afterTest(unsigned A, unsigned B) const = 0;
  /// Every thread that runs \p B has run \p A before it (A dominates B).
  virtual bool alwaysBefore(unsigned A, unsigned B) const = 0;
  /// \p A and \p B sit in one loop: an iteration's later operations precede
  /// the next iteration's earlier ones.
  virtual bool inCommonLoop(unsigned A, unsigned B) const = 0;
  /// \p B sits in the loop that the spinning read \p A is left by (not only
  /// in a loop around it): it runs on the values with which that loop goes
  /// on (while (flag != 0) { read data }). By default, any common loop.
  virtual bool inSpinLoop(unsigned A, unsigned B) const { return inCommonLoop(A, B); }
  /// No block runs both \p A and \p B: they lie in the two arms of a
  /// branch whose condition every thread of a block computes alike (from
  /// the block's index, the grid's size, constants and parameters), and no
  /// loop takes one block through both arms. By default, not known.
  virtual bool blocksApart(unsigned A, unsigned B) const { return false; }
};

/// How wide a net the message rules cast.
enum class Strictness : uint8_t {
  /// Report what the operations show: a flag the consumer waits on or
  /// branches on, data another thread writes before it, and nothing else
  /// that orders them.
  Evidence,
  /// Also report flags and data whose pairing the code does not show.
  Wide,
};
std::optional<Strictness> strictnessFromName(llvm::StringRef Name);
llvm::StringRef strictnessName(Strictness S);

struct EngineOptions {
  /// Operations of different kernels may be concurrent (kernels running at
  /// once in different streams); by default only those of one kernel are.
  bool AcrossKernels = false;
  Strictness Net = Strictness::Evidence;
  /// Which rules to apply.
  /// Wide (scopes wider than needed, a cost, not a bug) runs only when asked.
  enum RuleSet : uint8_t { Scopes = 1, Fences = 2, Messages = 4, Async = 8, AllRules = 15, Wide = 16 };
  uint8_t Rules = AllRules;
};

/// A finding, naming operations by their index in the list given.
struct Finding {
  enum Kind : uint8_t {
    ScopeMismatch,     ///< At's scope leaves out threads that Other (wide enough) includes
    ScopeInsufficient, ///< no access is wide enough for the threads that touch the object
    FenceTooNarrow,    ///< At is a fence narrower than the relaxed access Other it orders
    NoRelease,         ///< At publishes Flag after Data is written, with no release between
    NoAcquire,         ///< At receives Flag and Data is read after, with no acquire between
    NarrowFence,       ///< At is the widest fence between Flag and Data, too narrow for Needed
    ProxyFence,        ///< At reads shared memory through the async proxy after write Other
    ClusterWait,       ///< At reads another block's shared memory after arrive Other, before the wait
    ScopeWider,        ///< At orders at a scope wider than every thread that can see its memory: Needed is enough
  } What;
  unsigned At = 0;
  /// The other operation: the wider access (mismatch), the access on the
  /// other side of host and device (insufficient), the relaxed access a fence
  /// orders, the other side of a message (a receive of a publish's flag, a
  /// publish for a receive), the write before an async read, the arrive.
  int Other = -1;
  int Flag = -1, Data = -1, Fence = -1;
  /// NoRelease through a relay: the receive of another flag that brought
  /// Data (written by another thread) to the publisher.
  int Via = -1;
  /// The scope that includes every thread on the other side.
  Scope Needed = Scope::Device;
  /// Host threads access the object too.
  bool WithHost = false;
  /// Scope findings: nothing in the kernel reads the object that a release
  /// writes, and the kernel waits on writes from outside it, so the reader
  /// runs outside the kernel while it runs (outside every block).
  bool OutsideKernel = false;
  /// Message findings: the flag's publish and receive are one word under two
  /// names, through the kernel's partner instance (EngineMirrors.cpp), and
  /// Other is the access under the other name.
  bool Partner = false;
  /// NarrowFence: the fence stands on the receiving side (between the flag's
  /// read and the data's access), not the publishing side.
  bool Receiving = false;
  /// The data is only written, on both sides (a critical section that only
  /// writes): without the order, one side's write can be ordered before the
  /// other's, so the value left is not the last writer's.
  bool WriteWrite = false;
  /// The data is accessed by threads that do not run the flag's access (one
  /// thread, chosen by its index, publishes or receives for its block or
  /// warp), and no barrier between makes the one thread's order theirs: a
  /// release orders only its own thread's writes (and what that thread has
  /// observed), an acquire only its own thread's reads.
  bool ByOthers = false;
  /// NoRelease / NoAcquire between the kernel and the other GPUs of its team
  /// (EnginePeers.cpp): Data is in their memory (MemOp::Peer), Flag is the
  /// kernel's signal to them or its wait for them, and the other side, the
  /// peers' threads, may read or have written it outside this kernel.
  bool Peer = false;
};

/// \p Ops with the words of an object that its atomics use apart from its
/// data given an object of their own: one buffer that holds every block's
/// partials and, past them, the ticket the blocks draw (atomicAdd(buf + n *
/// gridDim.x, 1) beside buf[i + n * blockIdx.x]). A word is an element every
/// atomic of the object uses, at an address that is the same for every
/// thread, while plain accesses use addresses the threads compute apart: in a
/// program without a data race those plain accesses never touch the word,
/// so the word is a location of its own, and a flag whose data is the rest.
/// An object whose atomics also use addresses the threads compute apart
/// keeps one id.
std::vector<MemOp> separateWords(llvm::ArrayRef<MemOp> Ops);

/// Every finding over \p Ops, in the order of the operations they are
/// reported at (separateWords first).
std::vector<Finding> analyse(llvm::ArrayRef<MemOp> Ops, const ProgramOrder &PO, const EngineOptions &Opts);
/// CUDA_SCOPE_DUMP_OPS=1: analyse prints every operation it is handed, and a
/// front end may print where each comes from, to compare two front ends' records.
bool dumpingOps();

} // namespace cuda_scope

#endif
