//===- MemoryModel.h - scopes and orders, read from every CUDA spelling ---===//
//
// The scope lattice and memory orders that every check and the IR pass share.
// A scope written as a libcu++ template argument, a builtin's name, a PTX
// qualifier, an LLVM syncscope or a numeric builtin argument all map to the
// same cuda_scope::Scope, so a rule is written once.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MODEL_MEMORYMODEL_H
#define CUDA_SCOPE_MODEL_MEMORYMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_scope {

/// The threads an atomic operation or fence is guaranteed to be atomic or
/// ordered with respect to. Ordered narrowest first.
enum class Scope : uint8_t {
#define CUDA_SCOPE(Name, ...) Name,
#include "Scopes.def"
};

/// True when every thread in scope \p Inner is also in scope \p Outer.
inline bool includes(Scope Outer, Scope Inner) { return Outer >= Inner; }

/// The threads that can share an object of a given kind of memory, i.e. the
/// narrowest scope that includes every thread able to touch it.
enum class MemorySpace : uint8_t { Unknown, Generic, Global, Shared, SharedCluster, Local, Constant, Param };

/// libcu++ spelling: "thread_scope_block".
llvm::StringRef libcuName(Scope S);
/// PTX spelling without the dot: "cta", "gpu"; empty for thread scope.
llvm::StringRef ptxQualifier(Scope S);
/// A short name for messages: "block", "device".
llvm::StringRef shortName(Scope S);

/// "thread_scope_block", "cuda::thread_scope_block", "cuda::std::thread_scope_block".
std::optional<Scope> scopeFromLibcuName(llvm::StringRef Name);
/// The integer value of a libcu++ cuda::thread_scope enumerator.
std::optional<Scope> scopeFromLibcuValue(int64_t V);
/// "cta", ".cta", "cluster", "gpu", "sys". membar's "gl" is accepted as gpu.
std::optional<Scope> scopeFromPtxQualifier(llvm::StringRef Q);
/// An LLVM NVPTX syncscope name: "" is system, "block", "cluster", "device", "singlethread".
std::optional<Scope> scopeFromSyncScope(llvm::StringRef Name);
/// The value of a __NV_THREAD_SCOPE_* enumerator (the __nv_atomic_* builtins).
std::optional<Scope> scopeFromNvAtomicValue(int64_t V);
/// The value of a clang __MEMORY_SCOPE_* macro (the __scoped_atomic_* builtins).
std::optional<Scope> scopeFromClangMemoryScope(int64_t V);
/// The names of those two enumerations' spellings, for matching macro names.
std::optional<Scope> scopeFromEnumeratorName(llvm::StringRef Name);

/// How an access orders other memory operations.
enum class Order : uint8_t { Plain, Volatile, Relaxed, Consume, Acquire, Release, AcqRel, SeqCst };
bool hasAcquire(Order O);
bool hasRelease(Order O);
/// True for accesses that take part in synchronization (anything atomic,
/// volatile counted: it is how legacy CUDA code spells a relaxed access).
inline bool isStrong(Order O) { return O != Order::Plain; }
llvm::StringRef orderName(Order O);
/// "memory_order_acquire", "cuda::std::memory_order_acquire", "__ATOMIC_ACQUIRE",
/// "__NV_ATOMIC_ACQUIRE", "acquire" (PTX), "acq_rel", "sc".
std::optional<Order> orderFromName(llvm::StringRef Name);
/// The value of a C11 / __ATOMIC_* order (0 relaxed .. 5 seq_cst), which the
/// __NV_ATOMIC_* enumerators share.
std::optional<Order> orderFromC11Value(int64_t V);

/// What a CUDA device builtin does to memory: "atomicAdd_block",
/// "__threadfence_system", "__syncthreads".
struct DeviceBuiltin {
  enum Kind : uint8_t { AtomicRMW, AtomicCAS, AtomicExchange, Fence, BlockBarrier, WarpBarrier } What;
  Scope S;
  llvm::StringRef Operation; // "atomicAdd" for atomicAdd_block
};
std::optional<DeviceBuiltin> parseDeviceBuiltin(llvm::StringRef Name);

/// The name of the CUDA atomic builtin doing \p Operation ("atomicAdd") at
/// scope \p S: "atomicAdd_block", "atomicAdd", "atomicAdd_system". None for
/// the scopes every toolkit does not spell (thread; cluster is CUDA 12.8+).
std::optional<std::string> deviceBuiltinName(llvm::StringRef Operation, Scope S);

/// What an H100 took, in cycles, for a store and a fence.acq_rel at scope \p S
/// (\p Fence), or for an acq_rel atomic (Scopes.def); none where not measured.
std::optional<unsigned> measuredCycles(Scope S, bool Fence);

/// The names through which device code reads the block index: the builtin
/// variable ("blockIdx", as in blockIdx.x) and the NVVM builtins that read the
/// %ctaid registers ("__nvvm_read_ptx_sreg_ctaid_x").
bool isBlockIndexName(llvm::StringRef Name);
/// The same for the thread index: "threadIdx", "__nvvm_read_ptx_sreg_tid_x".
bool isThreadIndexName(llvm::StringRef Name);
/// The same for the grid's size in blocks: "gridDim", "__nvvm_read_ptx_sreg_nctaid_x".
bool isGridSizeName(llvm::StringRef Name);

/// The block's size in x, which the warp rules take to be a multiple of the
/// warp size: "blockDim" (its x), "__nvvm_read_ptx_sreg_ntid_x".
bool isBlockSizeXName(llvm::StringRef Name);
/// A comparison of a (non-negative) index with a constant, as written with
/// the index on the left: blockIdx.x < 1.
enum class IndexCompare : uint8_t { EQ, NE, LT, LE, GT, GE };
/// The comparison with its operands swapped: C < blockIdx.x is blockIdx.x > C.
IndexCompare swapped(IndexCompare Op);
/// The comparison that holds where \p Op fails: < is >=, == is !=.
IndexCompare inverted(IndexCompare Op);
/// The one block whose threads see `blockIdx.x <Op> C` come out \p WhenTrue,
/// if only one does: == C when it holds, != C when it fails, < 1 and <= 0
/// when they hold, > 0 and >= 1 when they fail (block 0). A truth test of
/// the index, if (blockIdx.x), is != 0. Both front ends pin an operation's
/// block with it, through !, && and || (and, after -O2, (a | b) == 0).
std::optional<int64_t> blockPinnedBy(IndexCompare Op, int64_t C, bool WhenTrue);
/// The bound a comparison of threadIdx.x with a constant puts on the threads
/// for which it comes out \p WhenTrue: only those below it (< C: C; <= C and
/// == C: C + 1; a failed >= C: C). None where the threads it leaves are not
/// the first ones (>= C, != C when they hold). Both front ends read a branch's
/// guard with it, one comparison at a time: a conjunction's (tid < 32 &&
/// lane == 0) are the branches -O2 leaves, and its bound is the least.
std::optional<int64_t> threadsBelow(IndexCompare Op, int64_t C, bool WhenTrue);

/// Which threads a guard on the thread's index lets run an operation. Group
/// 0: those whose index (threadIdx.x, the block's linear index, or the lane)
/// is below Below. Otherwise the guard reads the thread's rank in aligned
/// groups of Group threads (a power of two other than the warp's 32: a
/// cooperative-groups tile's thread_rank(), threadIdx.x % 16), and Below
/// counts the ranks of each group it lets run (rank == 15: 1), which may be
/// any of the group's.
struct ThreadBound {
  int64_t Below = 0;
  int64_t Group = 0;
};
/// The size of the aligned groups that `index & Mask` (\p IsMask) or
/// `index % Divisor` ranks the threads in: a power of two of at least 2, 0
/// for the lane (31, 32: the index's own bound, as the warp rules read it),
/// none for any other operand.
std::optional<int64_t> rankGroupOf(int64_t Operand, bool IsMask);
/// threadsBelow for a comparison of the rank in groups of \p Group (0: the
/// index, as threadsBelow): for a rank, how many ranks of each group it lets
/// run; none where that is every rank (rank < 16 with 16-thread tiles),
/// which bounds nothing, or none.
std::optional<ThreadBound> threadsBelow(IndexCompare Op, int64_t C, bool WhenTrue, int64_t Group);
/// The bound of two guards that both hold: the one on the index where only
/// one is (it says which threads of the block run it), else the lesser share
/// of each group.
ThreadBound bothBounds(ThreadBound A, ThreadBound B);
/// An operation bounded by \p Fewer (Below/Group) runs in fewer of the
/// block's threads than one bounded by \p More, each as MemOp::ThreadBelow and
/// MemOp::RankGroup say (Below -1: no bound, every thread).
bool runsInFewerThreads(int64_t FewerBelow, int64_t FewerGroup, int64_t MoreBelow, int64_t MoreGroup);
/// The same for the thread's index in a one-dimensional grid, threadIdx.x +
/// blockIdx.x * blockDim.x (any order): only 0 names one block (tid == 0 is
/// thread 0 of block 0, since no term is negative and blockDim.x is at least
/// 1); tid == 5 is one thread, but of a block the size decides.
inline std::optional<int64_t> gridIndexPinnedBy(IndexCompare Op, int64_t C, bool WhenTrue) {
  std::optional<int64_t> B = blockPinnedBy(Op, C, WhenTrue);
  return B && *B == 0 ? B : std::nullopt;
}

/// A warp shuffle, which hands a lane's value to the other lanes of its warp:
/// __shfl_sync and its up/down/xor forms (and the pre-CUDA-9 ones), and the
/// NVVM intrinsics they lower to (llvm.nvvm.shfl.sync.idx.i32). A value read
/// by one lane and shuffled to the warp decides what the warp does where the
/// shuffled value is tested (a warp-wide lock taken by lane 1).
bool isWarpShuffleName(llvm::StringRef Name);

/// A library function (by its qualified name) whose body the AST front end
/// reads where it returns one expression, as -O2 inlines it for the pass:
/// cooperative groups' ranks and sizes, index arithmetic on threadIdx and
/// blockDim (a 16-thread tile's thread_rank() is the block's linear index &
/// 15). Other system-header functions stay unread.
bool readsLibraryFunctionBody(llvm::StringRef QualifiedName);

/// A library function (by its qualified name) that the AST front end walks
/// as the kernel's own code though a system header declares it (the toolkit
/// installs it): a communication library's device API, whose barriers,
/// signals and waits run in the user's kernel with the orders the user passes
/// (bar.sync(coop, cuda::memory_order_relaxed)), as -O2 inlines them for the
/// pass. CCCL's atomics are known by name instead (classifyLibcu), and other
/// system-header functions stay unwalked.
bool walksLibraryFunction(llvm::StringRef QualifiedName);

/// A function (by its qualified name) whose result is an address in another
/// GPU's memory: a team peer's slot of a symmetric window, or every GPU's copy
/// through a multicast address (NCCL's device API: ncclGetLsaPointer,
/// ncclGetPeerPointer, ncclGetMultimemPointer and the resource-buffer forms;
/// NVSHMEM's nvshmem_ptr). The peer's own threads read and write that memory,
/// synchronized with this kernel only by what the two sides signal; the local
/// forms (ncclGetLocalPointer) are this GPU's memory.
bool returnsPeerAddress(llvm::StringRef QualifiedName);

/// "cooperative_groups::details::grid::sync" from a demangled name such as
/// "void cooperative_groups::__v1::details::grid::sync<int>(unsigned int*)":
/// without the return type, inline namespaces (__v1), template arguments and
/// parameters.
std::string plainFunctionName(llvm::StringRef Demangled);

/// Whether an address computed from block-index component \p Component ('x',
/// 'y' or 'z') keeps the blocks of a grid apart: blockIdx.x does in the usual
/// one-dimensional grid; .y or .z alone leaves every block of a row on one
/// element (tickets[blockIdx.y] is shared by the blocks of row y).
inline bool separatesBlocks(char Component) { return Component == 'x'; }

/// Integer arithmetic, in one vocabulary for every front end.
/// Truncate: an `and` that clears only bits above the 24th of a value whose
/// lower bits it keeps (the IR's form of (x << 8) >> 5 for 32-bit unsigned
/// x, (x << 3) & 0x7fffff8): the value itself for any index below 2^24.
enum class Arith : uint8_t { Add, Sub, Mul, Shl, DisjointOr, Truncate, Div, Rem, And, Or, Xor, Shr, Other };
/// Whether an index computed with \p A from a value that differs between
/// blocks (threads) still differs: +, -, * and << keep distinct blocks on
/// distinct elements; /, %, &, |, ^ and >> can map several to one
/// (out[blockIdx.x % n] is shared by blocks b and b + n). An `or` of
/// operands with no common bit is an add. A remainder -O2 expands
/// (x - (x / n) * n) is a remainder: the IR front end reads it back.
/// Whether an `and` that clears the bits \p Cleared (those its mask clears
/// that the operand may have set) is a Truncate: it clears none below the
/// 24th, so any index below 2^24 keeps its value.
inline bool truncatesOnlyHighBits(uint64_t Cleared) { return (Cleared & ((uint64_t(1) << 24) - 1)) == 0; }
inline bool keepsIndicesApart(Arith A) {
  return A == Arith::Add || A == Arith::Sub || A == Arith::Mul || A == Arith::Shl || A == Arith::DisjointOr ||
         A == Arith::Truncate;
}

/// The threads of a warp, on every architecture CUDA supports.
constexpr int64_t WarpSize = 32;

/// What an index (or an address) reads of the running thread's identity,
/// the facts both front ends compute for every index, by the same rules
/// (combineIndex, loadedIndex): the AST from the expression, the IR from
/// the instructions -O2 leaves.
struct IndexDeps {
  bool Block = false;  ///< reads blockIdx.x through steps that keep blocks apart
  bool Thread = false; ///< reads threadIdx.x likewise
  bool Grid = false;   ///< reads gridDim.x: a step over the whole grid
  bool Warp = false;   ///< reads the thread's warp (threadIdx.x >> 5)
  bool Read = false;   ///< reads memory, or what a call the front end does not follow returns
  /// Reads a thread's or block's index through any step, those that keep
  /// nothing apart too (threadIdx.x % 32, the lane): threads may compute
  /// different values, so the address is not the same for every thread.
  bool Varies = false;
  /// Of those, the thread's index in its block (threadIdx.x, the lane, the
  /// warp): the threads of one block may compute different values.
  bool ThreadVaries = false;
  /// The value is a whole number of warps: a constant multiple of the warp
  /// size, the block's size (blockIdx.x's pitch, which the warp rules take
  /// to be whole warps: isBlockSizeXName), a product with one, a shift left
  /// by at least the warp size's log.
  bool WarpMultiple = false;
  /// What the value reads of blockIdx.x and gridDim.x it reads scaled by a
  /// whole number of warps (blockIdx.x * 256 + threadIdx.x): divided by the
  /// warp size, it still keeps blocks apart, and steps over the grid's warps.
  bool InWarps = false;
  /// The index walks a range its owner's bounds delimit (rangeIndex: a CSR
  /// row, rowStart[v] .. rowStart[v + 1]): the elements are the owner's, but
  /// what they hold is not an item of its (an edge's other end is shared).
  bool InRange = false;
  IndexDeps &operator|=(const IndexDeps &O) {
    Varies |= O.Varies;
    ThreadVaries |= O.ThreadVaries;
    Block |= O.Block;
    Thread |= O.Thread;
    Grid |= O.Grid;
    Warp |= O.Warp;
    Read |= O.Read;
    WarpMultiple |= O.WarpMultiple;
    InWarps |= O.InWarps;
    InRange |= O.InRange;
    return *this;
  }
};
/// The facts of a value computed with \p A from operands with facts \p L
/// and \p R (\p RHS, \p LHS: an operand's value where it is a constant):
/// +, -, * and << keep blocks and threads apart (keepsIndicesApart); any
/// other operation keeps only that the value reads memory, except that a
/// division by the warp size (a shift right by its log) of a value that
/// reads the thread's index (or warp) is the thread's warp, and of a value
/// that reads the block's index (the grid's size) in whole warps keeps
/// blocks apart (steps over the grid): (threadIdx.x + blockIdx.x * 256) / 32
/// is the warp's index in the grid, (gridDim.x * blockDim.x) >> 5 the
/// grid's warps.
IndexDeps combineIndex(Arith A, const IndexDeps &L, const IndexDeps &R, std::optional<int64_t> RHS,
                       std::optional<int64_t> LHS = std::nullopt);
/// The facts of the block's size in x (isBlockSizeXName): the same for every
/// thread, and a whole number of warps.
IndexDeps blockSizeIndex();
/// The facts of a grid-stride loop's variable, whose every step is over the
/// whole grid (reads gridDim.x), from those of its start: the thread's own
/// where the start keeps both blocks and a block's threads apart
/// (blockIdx.x * blockDim.x + threadIdx.x), the warp's own where it keeps
/// blocks and a block's warps apart (the warp's index in the grid, stepped
/// by the grid's warps); none otherwise.
std::optional<IndexDeps> strideIndex(const IndexDeps &Start);
/// The facts of a loop's variable that starts at \p Start, steps by what
/// reads nothing of the thread's identity (\p Step) and stops at \p Bound:
/// where the start and the bound are both the thread's (warp's, block's)
/// own, the variable walks the range between them, which the ownership
/// rules take as the owner's as they take a worklist's item (a CSR row:
/// for (e = rowStart[v] + lane; e < rowStart[v + 1]; e += 32)). What is read
/// at such an index is any value (loadedIndex). None otherwise.
std::optional<IndexDeps> rangeIndex(const IndexDeps &Start, const IndexDeps &Step, const IndexDeps &Bound);
/// The facts of a value loaded from an address with facts \p Address: the
/// value read at the thread's own element is the thread's own (a worklist's
/// item, wl[i], as the ownership rules assume), and it is read from memory;
/// what is read in a range the thread walks (rangeIndex) is no item of its.
IndexDeps loadedIndex(const IndexDeps &Address);
/// One additive term of a flat index, as a front end reads it: its
/// canonical text, its facts, whether it is taken away (- k), and whether
/// every thread of a block computes it alike (constants, kernel arguments
/// and fields of them, the block's and grid's registers, what is loaded
/// from one address for the whole block; not the thread's index, nor what
/// an atomic returned).
struct IndexTerm {
  std::string Text;
  IndexDeps Deps;
  bool Negated = false;
  bool BlockUniform = false;
  /// A product or shift (blockIdx.x * pitch): what it reads is scaled.
  bool Scaled = false;
  /// For a scaled term, its constant factor where it has one
  /// (blockIdx.x * 256, blockIdx.x << 8: 256).
  std::optional<int64_t> Factor;
  /// The term is this integer constant (an offset).
  std::optional<int64_t> Constant;
  /// The block's share of an extent the grid's blocks split evenly:
  /// blockIdx.x * (X / gridDim.x), with X's canonical text (model: pastEveryShare).
  std::string ShareOf;
  /// A bag of such a share: (X / gridDim.x / k) * (v % m) for constants
  /// m <= k, below the share's size; X's canonical text.
  std::string BagOf;
  /// The term's value is not negative: a constant that is not, or a term of
  /// an index computed in unsigned arithmetic (which the rules take not to
  /// wrap, as they take a column to stay within its pitch).
  bool NonNegative = false;
};
/// The block's region of an object that a flat index lies in
/// (base + blockIdx.x * pitch + column): the terms every thread of a block
/// computes alike, where one of them scales the block's index by a pitch,
/// as canonical text; empty for none. An unscaled block index (a[blockIdx.x
/// + threadIdx.x]) makes windows that overlap their neighbours': no region. Equal text, one block's region, as for a row
/// pointer (the ownership rules assume a column stays within its pitch).
/// Every alike term is part of it, so a neighbour's region
/// (blockIdx.x * pitch + pitch + column, flags[blockIdx.x - 1]) is another.
/// What threads of a block compute apart is the column, and so is a
/// constant added to a column, where it stays within the pitch: any
/// constant where the pitch is a value (the assumption made of the column
/// itself: base + blockIdx.x * pitch + (slot - 128) is the block's region),
/// one below the pitch where it is a constant (blockIdx.x * 256 + 256 + t
/// is the neighbour's). A constant with no column is a fixed place of its
/// own (blockIdx.x * pitch - 1, the word before the region).
std::string blockPart(const std::vector<IndexTerm> &Terms);
/// Whether the flat index \p Past lies past every block's share that the
/// flat index \p Share lies in, so the two never name the
/// same element. \p Share is base + blockIdx.x * (X / gridDim.x) + what
/// the block adds within its share: the column (terms its threads compute
/// apart, and constants), and at most one bag (BagOf X). \p Past is base +
/// X + terms that are not negative. Since blockIdx.x < gridDim.x, every
/// share lies below base + X. The base is the terms both indices have
/// alike; what the block adds stays within its share, as the ownership
/// rules assume of a column and its pitch. A split into parts the host
/// chose (X / parts), an alike term of the share that \p Past lacks and
/// is no bag, or a term taken away from \p Past: no answer.
bool pastEveryShare(const std::vector<IndexTerm> &Share, const std::vector<IndexTerm> &Past);

/// An owner's row of an offsets array. An array X that a kernel reads at an
/// owner's item v and at v + 1 delimits v's row: the elements from X[v] to
/// X[v + 1] (a CSR row, rowStart[v] .. rowStart[v + 1]). An index made of
/// one bound of the row and of columns, terms that read nothing of another
/// owner (the lane, a count the warp's ballot agrees on, a constant), lies
/// in the row: the rules assume it stays there, as they assume a column
/// stays within its pitch. A cursor (rowCursor) moves in the row likewise.
/// The row is named by the text of its start, X[v], which the front end
/// gives for every kind of term.
enum class RowTermKind : uint8_t {
  Column, ///< reads nothing that keeps blocks apart (IndexDeps::Block unset)
  Start,  ///< X[v]: v the owner's, X read at v + 1 too
  End,    ///< X[v + 1]: the next row's start, so v's row only with something taken away
  Cursor, ///< a local that moves in one row (rowCursor)
  Other,  ///< anything else: what reads another owner, an array with no end
};
struct RowTerm {
  RowTermKind Kind = RowTermKind::Other;
  std::string Row; ///< for Start, End and Cursor: the text of the row's start
  bool Negated = false;
};
/// The row an index made of \p Terms lies in: one Start, or one Cursor,
/// added, or one End added with a column taken away (rowStart[v + 1] - 1, the
/// row's last element; rowStart[v + 1] + lane is the next row's), and
/// columns; a bound both added and taken away cancels (beg + (len - 1) with
/// len = end - beg is end - 1). None for anything else.
std::optional<std::string> rowOf(llvm::ArrayRef<RowTerm> Terms);
/// The row of a choice between two indices (c ? a : b, a select, max or
/// min): the row both lie in; none where either lies in none or they differ.
inline std::optional<std::string> choiceRow(const std::optional<std::string> &A, const std::optional<std::string> &B) {
  return A && B && *A == *B ? A : std::nullopt;
}
/// Whether an index part made of \p Terms positions nothing in a row: only
/// columns are left once the places in one row cancel in pairs of opposite
/// signs, a distance within the row (its length end - beg: min(32, end -
/// beg) is a column, as 32 is; a cursor's offset lp - beg).
bool rowColumn(llvm::ArrayRef<RowTerm> Terms);
/// One value a local is given (its initializer, a plain assignment).
enum class CursorValueKind : uint8_t {
  Row,      ///< an index in a row (rowOf), or the local's own value moved by columns
  Self,     ///< the local's own value (read = max(read, lp)'s read): no row of its own
  Sentinel, ///< a negative constant: "none", which no access takes as an index (it is out of bounds)
  Other,
};
struct CursorValue {
  CursorValueKind Kind = CursorValueKind::Other;
  std::string Row;
};
/// The row a cursor moves in: a local whose every value is in one row (or
/// its own, or a sentinel), at least one in a row, and whose every step
/// (+= e, -= e) is a column (\p StepsAreColumns). The rules take it to stay
/// in that row, as a partition's two cursors do (lp from rowStart[v] up by
/// what the warp's ballot counts, rp from rowStart[v + 1] - 1 down). None
/// otherwise.
std::optional<std::string> rowCursor(llvm::ArrayRef<CursorValue> Values, bool StepsAreColumns);
/// Whether a shuffle of an index in the row of an owner with facts \p Owner
/// leaves the index in that row: the lanes of a warp share the owner's row
/// when the owner reads no thread's own index (a warp's or a block's item);
/// a thread's own item is another lane's row.
inline bool shuffleKeepsRow(const IndexDeps &Owner) { return !Owner.Thread; }
/// A call whose value is one of its two operands, the larger or the smaller
/// (CUDA's max and min and their unsigned and 64-bit forms, std::max, and the
/// intrinsics -O2 makes of them, llvm.smax.i32): in a row where both are.
bool picksAnOperand(llvm::StringRef Name);

/// Whether a thread index divided by \p Divisor (or shifted right by
/// \p Shift) is the thread's warp: threadIdx.x / 32, threadIdx.x >> 5.
inline bool isWarpDivisor(int64_t Divisor) { return Divisor == WarpSize; }
inline bool isWarpShift(int64_t Shift) { return Shift >= 0 && Shift < 62 && (int64_t(1) << Shift) == WarpSize; }
/// Whether a constant term keeps the lanes of a warp in one warp when added
/// to the thread's index: a multiple of the warp size (256, 0), or a shift
/// left by at least its log (x << 8). (threadIdx.x + blockIdx.x * 256) / 32
/// is the warp's index in the grid, the same for its lanes.
inline bool isWarpMultiple(int64_t C) { return C % WarpSize == 0; }
inline bool isWarpMultipleShift(int64_t Shift) { return Shift >= 5 && Shift < 62; }
/// Whether the thread's index less what \p Mask keeps of it (x - (x & 31)),
/// or less its remainder by \p Divisor (x - x % 32), is the same for every
/// lane of a warp: the index of the warp's first lane (or of a larger
/// aligned group's), where the part taken away holds at least the lane bits.
/// x - (x & 15) differs between a warp's two halves.
inline bool isLaneBitsMask(int64_t Mask) {
  return Mask > 0 && Mask < (int64_t(1) << 62) && ((Mask + 1) & Mask) == 0 && isWarpMultiple(Mask + 1);
}
inline bool isLaneBitsDivisor(int64_t Divisor) { return Divisor > 0 && isWarpMultiple(Divisor); }

/// What an operation does, in one vocabulary for every front end.
enum class OpKind : uint8_t {
  Load,
  Store,
  RMW,
  Fence,           ///< fence.sc, fence.acq_rel, membar, __threadfence*, atomic_thread_fence
  BlockBarrier,    ///< __syncthreads(), bar.sync, a libcu++ barrier's arrive/wait
  GridBarrier,     ///< cooperative groups' grid sync: orders everything before it for everything after
  WarpBarrier,     ///< __syncwarp() and the warp's *_sync calls: orders the lanes of a warp that take part
  ChildLaunch,     ///< a device-side kernel launch: orders what came before it for the child grid
  Call,            ///< a call the front end does not see into (for options that name fence functions)
  ClusterArrive,   ///< barrier.cluster.arrive
  ClusterWait,     ///< barrier.cluster.wait
  ProxyFence,      ///< fence.proxy.async
  AsyncSharedRead, ///< the async proxy reads shared memory (bulk copy out of it, wgmma)
};
llvm::StringRef opKindName(OpKind K);
inline bool isAccessKind(OpKind K) { return K == OpKind::Load || K == OpKind::Store || K == OpKind::RMW; }

/// What a library call does to another GPU's memory by its contract, where
/// the library's own code is a transport and not the accesses it stands for:
/// NCCL's GPU-initiated networking (ncclGin) posts descriptors to a proxy
/// thread or a NIC, which moves the bytes later. Its put and putValue write
/// the peer's window (Put: a plain write into a peer's memory, as the NIC
/// makes it), its get reads a peer's window (Get), and its signal adds to a
/// signal word in the peer's memory (Signal), which the peer sees only after
/// the payloads the context sent before it: a release at system scope. A
/// put's own signal action is not counted (the front ends do not read which
/// action a call passes). The front ends put these operations where the call
/// is, in place of what its body does (its posting, its waits for credit).
enum class PeerTransfer : uint8_t { None, Put, Get, Signal };
/// \p QualifiedName as plainQualifiedName gives it: "ncclGin_BackendMask::put",
/// "ncclGinPut".
PeerTransfer peerTransferOf(llvm::StringRef QualifiedName);
/// The operation a transfer is to the rules: a Put is a plain write into a
/// peer's memory, a Get a plain read of it, a Signal a read-modify-write at
/// system scope with release whose value the thread does not use.
struct TransferOp {
  OpKind What;
  Order Ord;
  std::optional<Scope> S;
};
TransferOp transferOp(PeerTransfer T);
/// How a message names a transfer: "ncclGin::put".
std::string transferName(llvm::StringRef QualifiedName);


/// A function that is a barrier: cooperative groups' grid_group::sync (and
/// what implements it) for every thread of a grid, multi_grid_group::sync
/// for every grid of a multi-device launch, thread_block::sync for a block.
/// \p QualifiedName as demangled or printed
/// ("cooperative_groups::__v1::grid_group::sync"): plainFunctionName makes it
/// plain. The front ends see the block barrier inside thread_block::sync
/// too once they look into it; the grid barrier's inside (a release and an
/// acquire on its own word) stands for the barrier.
struct BarrierFunction {
  OpKind What; ///< GridBarrier, BlockBarrier or WarpBarrier (a tile of one warp or less)
  Scope S;     ///< the threads it orders
  /// A tile of several warps' sync (thread_block_tile<64..512>::sync, and
  /// details::sync_warps that implements it: acquire/release atomics at CTA
  /// scope on a shared word, and __syncwarp). It orders the tile's threads
  /// for each other: the block's barrier only where the tile is the whole
  /// block (TileShapes::syncIsBlockBarrier); otherwise no barrier of the
  /// block's.
  bool OfTile = false;
};
std::optional<BarrierFunction> barrierFunction(llvm::StringRef QualifiedName);

/// The first template argument of a printed name, where it is an integer:
/// "tiled_partition<128U, cooperative_groups::thread_block>" gives 128.
std::optional<uint64_t> firstTemplateInteger(llvm::StringRef PrintedName);

/// What a kernel's code says of the size of its blocks and of the
/// cooperative groups tiles of several warps it makes. The block has at
/// most M threads where __launch_bounds__(M) says so, or where it is made
/// with this_thread_block(block_tile_memory<M>&), whose scratch serves at
/// most M threads by its contract. tiled_partition<N>(parent) makes tiles
/// of N threads; tiled_partition(parent, n) a tile whose size is a value.
/// tiled_partition<N> needs N to divide the block's threads, so a tile of N
/// in a block of at most N threads is the whole block.
class TileShapes {
public:
  /// A call of \p PlainName (plainFunctionName: "cooperative_groups::
  /// this_thread_block", "cooperative_groups::tiled_partition") whose first
  /// template argument is \p TemplateArg (none: not a template's).
  void noteCall(llvm::StringRef PlainName, std::optional<uint64_t> TemplateArg);
  void noteLaunchBound(uint64_t MaxThreads);
  /// A tile of \p Threads that the kernel handles (a thread_block_tile<N,
  /// ...> its functions take: only tiled_partition<N> makes one).
  void noteTile(uint64_t Threads);
  /// A tile's sync (BarrierFunction::OfTile) orders every thread of the
  /// block: the block has a known maximum, and the tile synced (\p SyncTile,
  /// where the front end knows its size; otherwise every tile of several
  /// warps the kernel makes, none of a size it cannot see) has at least
  /// that many threads.
  bool syncIsBlockBarrier(std::optional<uint64_t> SyncTile) const;
  /// "block<=128 tiles>=128" (CUDA_SCOPE_DUMP_OPS).
  std::string describe() const;

private:
  std::optional<uint64_t> MaxBlock;
  std::optional<uint64_t> SmallestTile; ///< of the tiles of several warps
  bool SizeUnknown = false;             ///< tiled_partition(parent, n)
};



/// A libcu++ or standard synchronization type, by its qualified name without
/// inline namespaces: "cuda::atomic_ref", "cuda::std::atomic", "std::atomic_ref",
/// "cuda::barrier", "cuda::latch". The cuda:: forms take a thread_scope
/// template argument (system by default); the std:: and cuda::std:: forms are
/// always system scope. libcu++'s cuda::std::latch is an alias of
/// "cuda::std::__latch_base", whose first template argument is the scope.
struct SyncType {
  enum Kind : uint8_t { AtomicRef, Atomic, Barrier, Latch } What;
  int ScopeArg; ///< index of the thread_scope template argument; -1: system scope
};
std::optional<SyncType> parseSyncType(llvm::StringRef QualifiedName);

/// What a member of such a type does: "fetch_add" of an atomic is a
/// read-modify-write, "arrive" of a barrier a release. \p Member is the
/// function's name; "operator T" stands for a conversion operator.
struct SyncMember {
  OpKind What;
  Order DefaultOrder; ///< the order when no memory_order argument is given
};
std::optional<SyncMember> parseSyncMember(SyncType::Kind K, llvm::StringRef Member);

/// A fence function by its qualified name: "cuda::atomic_thread_fence" (order,
/// scope = system), "cuda::std::atomic_thread_fence", "std::atomic_thread_fence".
/// ScopeArg is -1 where the fence is always system scope.
struct FenceFunction {
  int OrderArg, ScopeArg;
};
std::optional<FenceFunction> parseFenceFunction(llvm::StringRef QualifiedName);

/// The builtins that take their scope as an argument: nvcc's __nv_atomic_*
/// (scope values __NV_THREAD_SCOPE_*, default system) and clang's
/// __scoped_atomic_* (scope values __MEMORY_SCOPE_*). Arguments are indices;
/// a ScopeArg past the end of a call means the default, system scope.
struct ScopedAtomicBuiltin {
  OpKind What;
  enum Family : uint8_t { Nv, Clang } From;
  int PointerArg; ///< -1 for fences
  int OrderArg;
  int ScopeArg;
};
std::optional<ScopedAtomicBuiltin> parseScopedAtomicBuiltin(llvm::StringRef Name);
std::optional<Scope> scopeFromBuiltinValue(ScopedAtomicBuiltin::Family F, int64_t V);

/// The memory a CUDA allocation function returns through its first argument:
/// device memory (cudaMalloc), managed memory that host and device threads
/// share (cudaMallocManaged), or pinned host memory the device reaches too
/// (cudaMallocHost, cudaHostAlloc). Versioned driver names are accepted.
enum class Allocation : uint8_t { Device, Managed, MappedHost };
std::optional<Allocation> allocationByApi(llvm::StringRef Name);

} // namespace cuda_scope

#endif
