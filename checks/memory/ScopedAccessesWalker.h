//===- ScopedAccessesWalker.h - the walk behind ScopedAccesses ---------===//
//
// The walker that collects ScopedAccesses, declared once for the files that
// implement it: ObjectIdentity.cpp (what object an expression names),
// AccessWalk.cpp (program order, tested values, plain accesses, calls),
// AccessForms.cpp (the atomic, fence and barrier spellings) and
// ScopedAccesses.cpp (launches, homes, the collection itself). Private to
// checks/memory.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_MEMORY_SCOPEDACCESSESWALKER_H
#define CUDA_SCOPE_MEMORY_SCOPEDACCESSESWALKER_H

#include "ScopedAccesses.h"
#include "ast/ArchRegions.h"
#include "ast/CheckUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace cuda_scope {
namespace impl {

/// A (cuda::)std::memory_order.
bool isMemoryOrderType(clang::QualType T);
/// The definition the TU holds of \p F, outside dependent contexts.
const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *F);
/// The initializers of \p IL are the fields of \p FD's struct, in order.
bool initializesFields(const clang::InitListExpr *IL, const clang::FieldDecl *FD);

/// The scalar fields a copy of a value of type \p T reads (writes), each as
/// its path of fields, nested structs' fields included (a box of two
/// vectors: lo.x, lo.y, ..., hi.z), as the IR's loads (stores) of them are;
/// bit-fields are left out (bits of a word they share); a base's fields are
/// the record's own, and every member of a union is a leaf (all name its
/// bytes); false for a type that is no struct, or one with an array, a
/// virtual base or more than \p Limit scalars.
bool scalarLeaves(clang::QualType T, llvm::SmallVectorImpl<llvm::SmallVector<const clang::FieldDecl *, 2>> &Out,
                  unsigned Limit = 16);

/// How a body modifies one of its variables: how many times, and the value
/// of a plain assignment.
struct Modification {
  unsigned Count = 0;
  const clang::Expr *Assigned = nullptr; ///< the right-hand side of the last plain `v = ...`
  unsigned Plain = 0;                     ///< plain assignments `v = ...`
  unsigned Other = 0;                     ///< ++, --, &v, references, member calls, other compounds
  /// The right-hand sides of every plain `v = ...` of the whole variable.
  llvm::SmallVector<const clang::Expr *, 2> Values;
  /// What `v += e`, `v -= e`, `v = v + e` and `v = v - e` step by.
  llvm::SmallVector<const clang::Expr *, 2> Steps;
  /// For a local array: the right-hand sides of plain assignments to one of
  /// its elements (`ptrs[i] = comm->buffers[peer]`).
  llvm::SmallVector<const clang::Expr *, 2> Elements;
  /// Where each change is written (assignments, steps, ++, calls that may change it).
  llvm::SmallVector<clang::SourceLocation, 2> Sites;
};

/// The value the constructor \p Ctor leaves in \p FD: its initializer, or
/// the one plain assignment of its body; null when it sets it otherwise
/// (ConstructedFields.cpp).
const clang::Expr *constructorValue(const clang::CXXConstructorDecl *Ctor, const clang::FieldDecl *FD);
/// Every method of \p RD but its constructors leaves \p FD alone, or is a
/// copy or move assignment that copies it from the other object.
bool onlyCopiedOutsideConstructors(const clang::CXXRecordDecl *RD, const clang::FieldDecl *FD);
/// \p Body assigns \p FD, changes it otherwise (++, a compound assignment) or takes its address.
bool writesField(const clang::Stmt *Body, const clang::FieldDecl *FD);

/// A comparison of an index with a constant, in the model's words.
std::optional<IndexCompare> indexCompareOf(clang::BinaryOperatorKind K);

constexpr unsigned MaxDepth = 12;       // calls followed down from a root
constexpr unsigned MaxResolve = 100;     // steps resolving one expression
// Calls a resolution may enter below the walk's own (a helper that returns a
// proxy, at the bottom of a container's call chain): MaxResolve bounds it too.
constexpr unsigned MaxResolveDepth = MaxDepth + 8;
constexpr unsigned WalkBudget = 200000; // statements walked per root

} // namespace impl

struct ScopedAccesses::Launch {
  const clang::FunctionDecl *Kernel = nullptr;
  /// What each argument points to (pointer parameters) or is (the others).
  llvm::SmallVector<std::optional<ObjectRef>, 4> Args;
  bool OneBlock = false;
};

/// Walks each root function once, from kernels down through the calls the TU
/// defines, recording accesses into its owner.
class ScopedAccesses::Walker {
public:
  /// What becomes of the value of the expression being walked: it decides a
  /// branch (Tested), or it is stored to a variable (RelayTo).
  /// What a relay is: a variable (its VarDecl) or a word of memory (an entry
  /// of RelayWords).
  using RelayKey = const void *;
  struct ValueUse {
    bool Tested = false;
    RelayKey RelayTo = nullptr;
    /// How the value is compared on the way (none: a truth test, if any).
    ValueTest Compare = ValueTest::None;
    /// The statement whose outcome the test decides (an if, a loop, ?:, &&).
    const clang::Stmt *Guard = nullptr;
    /// Nothing uses the value: a statement of its own, or what a function
    /// returns to a call whose value is dropped. A load whose value is
    /// dropped reads no data.
    bool Discarded = false;
    /// The value is compared with the grid's size (gridDim.x - 1).
    bool AgainstGrid = false;
    /// ... with such a value that can differ between uses (MemOp::GoalVaries).
    bool GoalVaries = false;
    /// ... with the grid's width itself (MemOp::GoalIsGrid).
    bool GoalIsGrid = false;
  };

  /// A call into a function: its arguments bind the callee's parameters, and
  /// a member call's object binds 'this'.
  struct Frame {
    const clang::FunctionDecl *F = nullptr;
    const clang::Expr *Call = nullptr; ///< the clang::CallExpr or CXXConstructExpr that entered F
    const Frame *Parent = nullptr;
    const clang::Expr *This = nullptr; ///< the object of a member call, in Parent
    bool ThisIsPointer = false;
    unsigned Depth = 0;
    /// What the caller does with the call's value: the callee's return
    /// statements hand their values to it.
    ValueUse Result;
  };

  /// The frame of the function that declares a variable of \p DC, if it is
  /// on the walk's stack.
  static const Frame *frameOf(const clang::DeclContext *DC, const Frame *Fr) {
    for (; Fr; Fr = Fr->Parent)
      if (Fr->F == DC)
        return Fr;
    return nullptr;
  }

  Walker(ScopedAccesses &Owner)
      : Owner(Owner), Ctx(Owner.Ctx), SM(Ctx.getSourceManager()), HostArms(ArchRegions::of(SM)) {}

  void walkRoot(const clang::FunctionDecl *F, ScopedAccess::RootKind K) {
    Root = F;
    Kind = K;
    Seq = 0;
    Budget = impl::WalkBudget;
    OnlyBlock = -1;
    ElectedBy = nullptr;
    Chain.clear();
    Arms.clear();
    Use = ValueUse();
    Relays.clear();
    VarFlows.clear();
    ConstantSets.clear();
    Defs.clear();
    Broken = false;
    GuardEnd.clear();
    HandleFields.clear();
    HandedFromMemory.clear();
    NotedConstructions.clear();
    RootReached.clear();
    const size_t FirstAll = Owner.All.size(), FirstPlain = Owner.Plain.size();
    Frame Top;
    Top.F = F;
    Active.insert(F);
    walkBody(F, &Top);
    Active.erase(F);
    resolveRelays();
    resolveSetters(FirstAll, FirstPlain);
    resolveGuards(FirstAll, FirstPlain);
    resolveHandleFields(FirstAll, FirstPlain);
    if (Broken)
      Owner.Unanalysed.insert(F);
  }

  llvm::DenseSet<const clang::FunctionDecl *> Reached; ///< functions walked under a kernel
  llvm::DenseMap<const clang::VarDecl *, Allocation> Allocations;

  // Object resolution; also used for launch arguments.
  std::optional<ObjectRef> lvalue(const clang::Expr *E, const Frame *Fr, unsigned Steps = 0);
  std::optional<ObjectRef> pointee(const clang::Expr *E, const Frame *Fr, unsigned Steps = 0);

private:
  void walkBody(const clang::FunctionDecl *F, const Frame *Fr) {
    if (Kind != ScopedAccess::Host)
      Reached.insert(F);
    RootReached.insert(F);
    if (const auto *Ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(F))
      for (const clang::CXXCtorInitializer *Init : Ctor->inits())
        walk(Init->getInit(), Fr);
    walk(F->getBody(), Fr);
  }

  void walk(const clang::Stmt *S, const Frame *Fr);
  void call(const clang::CallExpr *CE, const Frame *Fr);
  bool recordCall(const clang::CallExpr *CE, const Frame *Fr);
  bool libcuMember(const clang::CallExpr *CE, const clang::CXXMethodDecl *MD, const clang::Expr *Obj, const Frame *Fr);
  void atomicExpr(const clang::AtomicExpr *AE, const Frame *Fr);
  void inlineAsm(const clang::GCCAsmStmt *A, const Frame *Fr);
  /// A library call whose contract is a transfer to or from another GPU
  /// (model: peerTransferOf): its operation, in place of its body.
  void transfer(const clang::CallExpr *CE, PeerTransfer T, const Frame *Fr);
  void launch(const clang::CUDAKernelCallExpr *K, const Frame *Fr);
  void allocation(const clang::CallExpr *CE);
  void record(ScopedAccess A, const clang::Stmt *Site, const Frame *Fr, bool PlainList = false);
  void plainAccess(const clang::Expr *E, OpKind K, const clang::Stmt *Site, clang::SourceLocation Loc, const Frame *Fr);
  /// The store a placement new makes into the memory its address names.
  void placementNew(const clang::CXXNewExpr *New, const Frame *Fr);
  /// A plain access of \p O, a value of type \p T (each scalar field of a struct).
  void plainAccessAt(ObjectRef O, clang::QualType T, const clang::Expr *E, OpKind K, const clang::Stmt *Site,
                     clang::SourceLocation Loc, const Frame *Fr);
  void plainAccessOf(ObjectRef O, const clang::Expr *E, OpKind K, const clang::Stmt *Site, clang::SourceLocation Loc,
                     const Frame *Fr);
  bool control(const clang::Stmt *S, const Frame *Fr);
  std::optional<int64_t> pinnedBlock(const clang::Expr *Cond, bool WhenTrue);
  /// The bound \p Cond coming out \p WhenTrue puts on threadIdx.x (tid < 32: 32), or on the
  /// thread's rank in a tile (model/ThreadBound).
  std::optional<ThreadBound> threadBound(const clang::Expr *Cond, bool WhenTrue, const Frame *Fr);
  /// \p E is threadIdx.x plus a constant, through locals, arguments and calls that return one
  /// expression: the constant. The lane and the block's linear index (cooperative groups'
  /// thread_rank()) count as the index; where \p Group is given, so does a rank in aligned
  /// groups of another size (a 16-thread tile's thread_rank(), index & 15), its size set.
  std::optional<int64_t> threadIndexPlus(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0,
                                         int64_t *Group = nullptr);
  /// "threadIdx" or "blockDim" where \p E is that variable, here or through the parameter it
  /// was passed as (cooperative groups' vec3_to_linear(threadIdx, blockDim)); empty otherwise.
  llvm::StringRef builtinVariableOf(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// The component ('x', 'y', 'z') of threadIdx (\p Thread) or of blockDim that \p E reads.
  std::optional<char> componentOf(const clang::Expr *E, const Frame *Fr, bool Thread);
  /// \p E is blockDim.x times what reads only threadIdx.y/z and blockDim.y, or a sum of such:
  /// the threads of the rows before the thread's in the block's linear index.
  bool rowsBeforeThread(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// The bits of \p E that may differ between the lanes of a warp: those that depend on the low
  /// bits of threadIdx.x, through shifts, masks and arithmetic; every bit for memory, calls,
  /// threadIdx.y. None: every lane computes it alike (the warp's index, threadIdx.x / 32).
  uint64_t laneBits(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// The value of a condition the compiler knows in this instantiation (if
  /// constexpr, !Traits::value, sizeof(T) == 4); none when it depends on the run.
  /// Also one this call decides: a parameter compared with a constant where
  /// every call that led here passes a constant (switch (order) in an atomic
  /// wrapper called with memory_order_relaxed), as inlining folds it.
  std::optional<bool> knownCondition(const clang::Expr *Cond, const Frame *Fr);
  /// The integer \p E holds in this call: a constant, or a parameter (a local
  /// set once) that holds one through the arguments of the calls that led here.
  std::optional<int64_t> valueIn(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// Where a value written to \p LHS lands, for the relays: a variable, the
  /// caller's variable a reference parameter is bound to (ld_flag(unsigned
  /// &flag, ...) fills the caller's loop variable), or a word of memory every
  /// thread addresses alike (wordKey).
  RelayKey relayTarget(const clang::Expr *LHS, const Frame *Fr, unsigned Depth = 0);
  /// A word of memory that \p E names at one address for every thread (a
  /// __shared__ variable through a pointer, a word carved from a dynamic
  /// shared array at a fixed offset), as a relay: the same key wherever the
  /// same word is named, as the IR compares the addresses' canonical text.
  /// Null for anything else.
  RelayKey wordKey(const clang::Expr *E, const Frame *Fr);
  /// Records where the value of the relay \p From goes under the current
  /// use: to the test that decides on it, or to the relay it is stored to.
  void flowFrom(RelayKey From);
  llvm::StringSet<> RelayWords;
  /// A switch: only the case its condition selects where that is known, else
  /// each case as its own arm (cases are alternatives, as the IR's blocks are).
  void walkSwitch(const clang::SwitchStmt *Sw, const Frame *Fr);
  /// \p E computes the grid's size in blocks, or a value of it: gridDim,
  /// cooperative groups' grid size, through locals and the arguments of the
  /// calls that led here (model/Hierarchy.h, the grid barrier rule).
  bool computesGridSize(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// \p E is the grid's width in blocks itself (gridDim.x), through locals
  /// and arguments, not a value computed from it (MemOp::GoalIsGrid).
  bool isGridWidth(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// \p E is the same at every run by one thread: built from builtin
  /// variables (gridDim, blockIdx, ...), constants and parameters by
  /// arithmetic, through locals set once (MemOp::GoalVaries is its negation).
  bool sameEveryUse(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  void walkWith(const clang::Stmt *S, const Frame *Fr, ValueUse U);
  void walkArm(const clang::Stmt *S, const Frame *Fr, const clang::Stmt *Owner, unsigned Arm);
  void resolveRelays();
  void resolveSetters(size_t FirstAll, size_t FirstPlain);
  void resolveGuards(size_t FirstAll, size_t FirstPlain);
  /// The Seq at the end of each statement that guards a test.
  /// Where each walk of a guarding statement ends, in walk order: a device
  /// function called twice walks its loops twice, and a test belongs to the
  /// walk it was read in (the first end after it).
  llvm::DenseMap<const clang::Stmt *, llvm::SmallVector<unsigned, 2>> GuardEnd;
  /// The end of the walk of \p Guard that holds \p Seq, if one was recorded.
  std::optional<unsigned> guardEnd(const clang::Stmt *Guard, unsigned Seq) const {
    auto It = GuardEnd.find(Guard);
    if (It == GuardEnd.end())
      return std::nullopt;
    // An end at the test's own Seq: the statement runs no access after its
    // test, so the test guards none.
    for (unsigned End : It->second)
      if (End >= Seq)
        return End;
    return std::nullopt;
  }

  std::optional<ObjectRef> pointerIn(const clang::Expr *L, const Frame *Fr, unsigned Steps);
  /// A pointer parameter that its function moves, in statements of its body's
  /// top level (no branch or loop holds them), by the steps it adds (out +=
  /// blockIdx.x * k;), all before \p Use: the part it then points to.
  std::optional<ObjectRef> movedParameter(const clang::ParmVarDecl *P, const clang::Expr *Use, const Frame *Fr);
  /// A field of the functor whose call operator is the walk's root, as a library kernel runs it
  /// (ObjectIdentity.cpp): the field itself names it, as a kernel's parameter does.
  std::optional<ObjectRef> functorField(const clang::FieldDecl *FD, const Frame *Fr);
  /// A pointer field of a local object that its constructor set from what it was given
  /// (ConstructedFields.cpp): what that points to.
  std::optional<ObjectRef> constructedField(const clang::MemberExpr *ME, const Frame *Fr, unsigned Steps);
  /// What a record object holds (ConstructedFields.cpp): the expression whose value it is, through
  /// copies, bound parameters, unmodified locals, calls' one return, and the record fields of
  /// objects built in view; then \p Fields of that value, outermost first. The expression is a
  /// construction, an initializer list, or an lvalue the walk cannot step through (a kernel's
  /// parameter).
  struct RecordSource {
    const clang::Expr *E = nullptr;
    const Frame *Fr = nullptr;
    llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
    /// Local copies on the way whose methods are called: what they were
    /// copied from holds only where nothing writes the fields read.
    llvm::SmallVector<const clang::VarDecl *, 1> KeptCopies;
  };
  std::optional<RecordSource> recordSource(const clang::Expr *E, const Frame *Fr, unsigned Steps);
  /// Something writes a field of the chain \p Src reads through its kept copies, then \p FD.
  static bool fieldsChanged(const RecordSource &Src, const clang::FieldDecl *FD);
  /// The pointer field \p FD of the temporary \p Object: a construction, or
  /// a call whose one return constructs it.
  std::optional<ObjectRef> temporaryField(const clang::Expr *Object, const clang::FieldDecl *FD, const Frame *Fr,
                                          unsigned Steps);
  /// \p Use reads the local \p V before any change of it can have run (ValuesAtUse.cpp): its
  /// value there is its initializer's.
  bool readBeforeAnyChange(const clang::DeclRefExpr *Use, const clang::VarDecl *V);
  std::optional<ObjectRef> mergedPointee(const clang::VarDecl *VD, const Frame *Fr, unsigned Steps);
  std::optional<ObjectRef> storedInElements(const clang::ArraySubscriptExpr *AS, const Frame *Fr, unsigned Steps);
  std::optional<ObjectRef> oneObjectOf(llvm::ArrayRef<const clang::Expr *> Ways, const Frame *Own, unsigned Steps,
                                       std::string Index);
  std::optional<ObjectRef> atomicRefTarget(const clang::Expr *E, const Frame *Fr, unsigned Steps = 0);
  std::optional<std::pair<const clang::Expr *, const Frame *>> structValue(const clang::Expr *E, const Frame *Fr,
                                                                    unsigned Steps);
  std::optional<std::pair<const clang::Expr *, const Frame *>> argumentFor(const clang::ParmVarDecl *P, const Frame *Fr);
  std::optional<std::pair<const clang::Expr *, const Frame *>> returned(const clang::CallExpr *CE, const Frame *Fr);
  /// The return every run of a function body reaches (ObjectIdentity.cpp), or null.
  const clang::ReturnStmt *onlyReturn(const clang::Stmt *Body, const Frame *Fr, unsigned Depth = 0);
  /// An address made from an integer (IntegerAddresses.cpp): what the one pointer it was made from
  /// points to, at an element the integer picks.
  std::optional<ObjectRef> throughInteger(const clang::Expr *Int, const Frame *Fr, unsigned Steps);
  /// A pointer member of a local union read after another member rewrote its bits.
  std::optional<ObjectRef> unionPointer(const clang::MemberExpr *ME, const Frame *Fr, unsigned Steps);
  /// Variables a value may be followed through: unmodified locals only, or any with an initializer.
  enum class Vars { UnmodifiedLocals, Initialized };
  /// One step back to where a value comes from: a parameter to its argument at the call, a call to
  /// what it returns, a variable to its initializer. False when the TU does not show it.
  bool stepToSource(const clang::Expr *&E, const Frame *&Fr, Vars Which);
  void addIndex(ObjectRef &R, const clang::Expr *Index, const Frame *Fr);
  /// The additive terms of an index (model: IndexTerm), through parameters'
  /// arguments and locals given their value once.
  void additiveTerms(const clang::Expr *E, const Frame *Fr, bool Negated, std::vector<IndexTerm> &Out,
                     unsigned Depth = 0);
  /// \p E through parameters' arguments and locals given their value once.
  const clang::Expr *followed(const clang::Expr *E, const Frame *&Fr);
  /// The share and bag facts of a product (model: IndexTerm::ShareOf, BagOf).
  void shareFacts(const clang::BinaryOperator *Mul, const Frame *Fr, IndexTerm &T);
  bool opaqueCall(const clang::Expr *E, const Frame *Fr, unsigned Depth = 0);
  /// Every thread of a block computes \p E alike, reading no memory.
  bool alikeInBlock(const clang::Expr *E, const Frame *Fr);
  /// Notes whether the threads of a block take one arm of \p Branch.
  void noteBranch(const clang::Stmt *Branch, const clang::Expr *Cond, const Frame *Fr);
  using IndexDeps = cuda_scope::IndexDeps; // model/MemoryModel.h, shared with the IR front end
  /// A loop variable that starts at the thread's own index and steps by the
  /// grid's size (for (i = tid; i < n; i += blockDim.x * gridDim.x)): where
  /// it starts, or null.
  const clang::Expr *gridStrideStart(const clang::VarDecl *V, const Frame *Fr, unsigned Depth);
  /// A loop's variable that walks a range its owner's bounds delimit:
  /// changed once, by a step inside a loop, and compared with an owned bound
  /// by a test that ends that loop (its condition, or an if that breaks out
  /// of it or returns) (model: rangeIndex). Its text, with \p Deps set;
  /// none for other variables.
  std::optional<std::string> rangeWalk(const clang::VarDecl *V, const Frame *Fr, IndexDeps &Deps, unsigned Depth);
  llvm::DenseSet<const clang::VarDecl *> RangeWalks; ///< being read by rangeWalk
  llvm::DenseSet<const clang::VarDecl *> StrideWalks; ///< being read by gridStrideStart
  /// What a function's body says of a variable rangeWalk reads: whether a
  /// step changes it (and by what, for += and -=), what the tests that end a
  /// loop around the step compare it with.
  struct RangeShape {
    bool Stepped = false;
    const clang::Expr *Step = nullptr;
    llvm::SmallVector<const clang::Expr *, 2> Compared;
  };
  llvm::DenseMap<const clang::VarDecl *, RangeShape> RangeShapes;
  /// The owner's part that a range walk (rangeWalk) \p Index lies in, as the
  /// text of its start's one term that keeps blocks apart; none otherwise.
  std::optional<std::string> rangeRow(const clang::Expr *Index, const Frame *Fr);
  std::string canon(const clang::Expr *E, const Frame *Fr, IndexDeps &Deps, unsigned Depth = 0);
  /// The row of an offsets array that \p Index lies in (model: rowOf), as
  /// the text of the row's start, with the facts of the owner's item in
  /// \p Owner; none otherwise (IndexRows.cpp).
  std::optional<std::string> indexRow(const clang::Expr *Index, const Frame *Fr, IndexDeps &Owner,
                                      unsigned Depth = 0);
  /// An index's additive part, as indexRow reads it.
  struct RowRoot {
    const clang::Expr *E;
    const Frame *Fr;
    bool Negated;
  };
  std::optional<std::string> termsRow(llvm::ArrayRef<RowRoot> Roots, IndexDeps &Owner, unsigned Depth);
  /// \p E's additive terms, through parameters' arguments and locals given their value once.
  void rowRoots(const clang::Expr *E, const Frame *Fr, bool Negated, llvm::SmallVectorImpl<RowRoot> &Out,
                unsigned Steps);
  /// \p E positions nothing in a row (model: rowColumn).
  bool rowColumnPart(const clang::Expr *E, const Frame *Fr, unsigned Depth);
  /// One additive term of such an index.
  RowTerm rowTerm(const clang::Expr *E, const Frame *Fr, bool Negated, IndexDeps &Owner, unsigned Depth);
  /// A local that moves in one row (model: rowCursor).
  std::optional<std::string> cursorRow(const clang::VarDecl *V, const Frame *Fr, IndexDeps &Owner, unsigned Depth);
  llvm::DenseSet<const clang::VarDecl *> CursorWalks; ///< being read by cursorRow
  /// Every subscript of a function's body: where an offsets array is read.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::ArraySubscriptExpr *>> Subscripts;
  ObjectRef rootRef(const clang::ValueDecl *D);
  bool modified(const clang::VarDecl *V);
  bool inSystemHeader(clang::SourceLocation L) const { return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L)); }
  void writtenScope(const clang::Expr *Obj, int ScopeArg, ScopedAccess &A);

  ScopedAccesses &Owner;
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  /// On the host side, the arms of #if __CUDA_ARCH__ ... #else the host took:
  /// device code there is no GPU's (ast/ArchRegions.h).
  std::shared_ptr<const ArchRegions> HostArms;
  const clang::FunctionDecl *Root = nullptr;
  ScopedAccess::RootKind Kind = ScopedAccess::Kernel;
  unsigned Seq = 0, Budget = 0;
  /// The walk met code with errors (a missing header, an unknown name).
  bool Broken = false;
  llvm::SmallVector<const clang::Expr *, 4> Chain;
  llvm::SmallVector<std::pair<const clang::Stmt *, unsigned>, 8> Arms;
  /// How many of the loops being walked are over the grid's blocks.
  unsigned GridLoops = 0;
  /// The one block that runs what is walked now, under if (blockIdx.x == C); -1: any.
  int64_t OnlyBlock = -1;
  /// The bound the conditions around the walk put on threadIdx.x (if (tid < 32)); -1: none.
  int64_t ThreadBelow = -1;
  /// Where that bound counts ranks of each tile: the tile's size (ThreadBound).
  int64_t RankGroup = 0;
  /// Adds a guard's bound to ThreadBelow/RankGroup (model/bothBounds).
  void bound(const ThreadBound &B) {
    ThreadBound Now = ThreadBelow < 0 ? B : bothBounds({ThreadBelow, RankGroup}, B);
    ThreadBelow = Now.Below;
    RankGroup = Now.Group;
  }
  /// The ticket whose drawing elects the one block that runs what is walked
  /// now (ScopedAccess::ElectedBy); null: none.
  const clang::Expr *ElectedBy = nullptr;
  /// What the conditions around the walk say of who runs it, to restore after an arm.
  struct Narrowing {
    int64_t OnlyBlock, ThreadBelow, RankGroup;
    const clang::Expr *ElectedBy;
  };
  Narrowing narrowing() const { return {OnlyBlock, ThreadBelow, RankGroup, ElectedBy}; }
  void restore(const Narrowing &N) {
    OnlyBlock = N.OnlyBlock;
    ThreadBelow = N.ThreadBelow;
    RankGroup = N.RankGroup;
    ElectedBy = N.ElectedBy;
  }
  /// What runs where \p Cond is \p WhenTrue: the one block a branch on
  /// blockIdx.x pins (pinnedBlock), or the one a ticket elects (electingTicket).
  void narrowTo(const clang::Expr *Cond, bool WhenTrue, const Frame *Fr);
  /// The ticket a block draws (a counting read-modify-write whose draws are
  /// distinct, drawsDistinctTickets, in no loop: one per launch) that \p Cond, when \p WhenTrue, says this block drew the
  /// chosen value of: ticket == gridDim.x - 1, through a local set to that
  /// test (last = ticket == n - 1, or false), and __syncthreads_or(last). Each
  /// ticket is drawn once, so one block (at most) runs what it elects.
  const clang::Expr *electingTicket(const clang::Expr *Cond, bool WhenTrue, const Frame *Fr, unsigned Depth = 0);
  const clang::Expr *ticketDrawn(const clang::Expr *E, const Frame *Fr, unsigned Depth);
  /// How one side of the comparison \p BO (the left one with \p Left) is
  /// used where the comparison's value is used as Use says: compared with the
  /// other side, by the operator seen from its side, with the grid's size
  /// where the other side computes it. Not at all where one side is computed
  /// from the other (next == f(value)): that is arithmetic, not a test of
  /// what other threads did, as the IR front end reads it (derivesFrom).
  ValueUse comparedUse(const clang::BinaryOperator *BO, bool Left, const Frame *Fr);
  /// \p E is computed, by arithmetic, casts and the values of locals, from
  /// the value the variable or word \p Key holds at \p At (the comparison's
  /// range: a read inside it is the value compared):
  /// a local that took the variable's value before the variable was given
  /// another holds an earlier value (old = t; t = atomicCAS(p, t, n);
  /// while (t != old)), as the IR's phi carried round a loop does.
  bool computedFrom(const clang::Expr *E, RelayKey Key, const Frame *Fr, clang::SourceRange At,
                    unsigned Depth = 0);
  /// The local \p K may be given another value after its value is taken at
  /// \p From and before \p To: a change written between them, or, where
  /// \p From follows \p To in a loop the walk is in, a change after \p From
  /// or before \p To in that loop (the value comes round it).
  bool changedBetween(const clang::VarDecl *K, clang::SourceLocation From, clang::SourceLocation To);
  ValueUse Use;
  /// Accesses whose value is stored to a variable: which list, which entry, which variable.
  struct Relay {
    bool InPlain;
    size_t Index;
    RelayKey To;
    ValueTest Compare;
    bool AgainstGrid;
    bool GoalVaries;
    bool GoalIsGrid;
  };
  llvm::SmallVector<Relay, 8> Relays;
  /// Variables read where the value decides a branch (To null) or is stored to another (To).
  struct VarFlow {
    RelayKey From, To;
    unsigned Seq;
    ValueTest Compare;
    const clang::Stmt *Guard;
    bool AgainstGrid;
    bool GoalVaries;
    bool GoalIsGrid;
  };
  std::vector<VarFlow> VarFlows;
  /// Assignments of a constant to a relay (done = 1, *advance = true), with
  /// the relay each assigns in the frame it was walked in: an if whose arm
  /// is one of them sets that relay (resolveSetters).
  llvm::DenseMap<const clang::BinaryOperator *, RelayKey> ConstantSets;
  /// Where each relay is given a value (its declaration, an assignment), by
  /// Seq, in walk order, with the arms it sits in: a test after a later def
  /// on the read's path tests another value (the same variable in a second
  /// call of its function); a def in the other arm of a statement around the
  /// read (childCount = atomicAdd(...) in both arms of an if) is not on it.
  /// (The IR front end needs no such cut: each call's value is its own SSA
  /// value, and a phi merges the two arms' draws.)
  /// Flows: how many VarFlows the walk had recorded then, which orders a def
  /// and a flow of one Seq (prev = seen; seen = atomicAdd(...): the copy is
  /// made before the new value arrives).
  struct Def {
    unsigned Seq;
    size_t Flows;
    llvm::SmallVector<std::pair<const clang::Stmt *, unsigned>, 4> Arms;
  };
  llvm::DenseMap<RelayKey, llvm::SmallVector<Def, 4>> Defs;
  /// \p E reads the relay \p Key (a variable, or the word it names).
  bool mentions(const clang::Stmt *E, RelayKey Key, const Frame *Fr, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return false;
    if (const auto *X = llvm::dyn_cast<clang::Expr>(E)) {
      X = X->IgnoreParenImpCasts();
      if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(X); DRE && DRE->getDecl() == Key)
        return true;
      if (llvm::isa<clang::MemberExpr, clang::UnaryOperator, clang::ArraySubscriptExpr>(X) && wordKey(X, Fr) == Key)
        return true;
    }
    return llvm::any_of(E->children(), [&](const clang::Stmt *C) { return mentions(C, Key, Fr, Depth + 1); });
  }
  /// A def of \p Var after the flow or access at (\p After, \p AfterFlow;
  /// -1: the access itself) and before the flow at (\p Before,
  /// \p BeforeFlow), on the path of the arms \p From.
  bool definedBetween(RelayKey Var, unsigned After, int AfterFlow, unsigned Before, size_t BeforeFlow,
                      llvm::ArrayRef<std::pair<const clang::Stmt *, unsigned>> From) const {
    auto It = Defs.find(Var);
    if (It == Defs.end())
      return false;
    return llvm::any_of(It->second, [&](const Def &D) {
      const bool PastAfter = D.Seq > After || (AfterFlow >= 0 && D.Seq == After && D.Flows > size_t(AfterFlow));
      const bool BeforeFlowOf = D.Seq < Before || (D.Seq == Before && D.Flows <= BeforeFlow);
      if (!PastAfter || !BeforeFlowOf)
        return false;
      size_t I = 0;
      while (I < From.size() && I < D.Arms.size() && From[I] == D.Arms[I])
        ++I;
      return !(I < From.size() && I < D.Arms.size() && From[I].first == D.Arms[I].first);
    });
  }
  llvm::DenseSet<const clang::FunctionDecl *> Active;
  using Modifications = llvm::DenseMap<const clang::VarDecl *, impl::Modification>;
  llvm::DenseMap<const clang::DeclContext *, std::unique_ptr<Modifications>> Modified;
  const Modifications *modificationsOf(const clang::VarDecl *V);
  /// What \p F's body does to each variable it changes, locals or not.
  const Modifications *modificationsIn(const clang::FunctionDecl *F);
  /// The one plain assignment the kernel's body makes to the __shared__
  /// variable \p VD, where it makes no other change to it: the value the
  /// kernel stages there for the block.
  const clang::Expr *stagedValue(const clang::VarDecl *VD);
  /// The field \p FD of a local handle \p VD that its function re-assigns
  /// whole from new constructions, where the class only copies the field
  /// outside its constructors: the one object every construction's value
  /// points into, at an element chosen at run time.
  std::optional<ObjectRef> reassignedField(const clang::VarDecl *VD, const clang::CXXConstructExpr *Init,
                                           const clang::FieldDecl *FD, const Frame *Fr, unsigned Steps);
  /// A field read in the body of the constructor that sets it, in a
  /// construction the walk follows: the value the constructor set it to.
  std::optional<ObjectRef> fieldInOwnConstructor(const clang::MemberExpr *ME, const clang::FieldDecl *FD,
                                                 const Frame *Fr, unsigned Steps);
  std::optional<RecordSource> stagedRecord(const clang::VarDecl *VD, unsigned Steps);
  std::optional<ObjectRef> stagedPointee(const clang::VarDecl *VD, const Frame *Fr, unsigned Steps);
  /// The value of a local declared without one and assigned exactly once.
  const clang::Expr *singleAssignment(const clang::VarDecl *V);
  std::vector<std::unique_ptr<Frame>> FramesKeepAlive;
  /// A frame for resolving through \p F entered by \p Call under \p Parent;
  /// it lives as long as the walker (results keep declarations, never frames).
  Frame *resolutionFrame(const clang::FunctionDecl *F, const clang::Expr *Call, const Frame *Parent) {
    FramesKeepAlive.push_back(std::make_unique<Frame>());
    Frame *Sub = FramesKeepAlive.back().get();
    Sub->F = F;
    Sub->Call = Call;
    Sub->Parent = Parent;
    Sub->Depth = Parent ? Parent->Depth + 1 : 1;
    return Sub;
  }
  // HandleFields.cpp: what every object of a handle class points to.
  /// A construction the walk meets (\p Fr: where it is made): what each
  /// pointer field its constructor sets points to, and the same for the
  /// members its constructor builds.
  void noteConstruction(const clang::CXXConstructExpr *CE, const Frame *Fr, unsigned Depth = 0);
  /// An object of \p RD handed on whole (copied, assigned, bound to a
  /// reference, a method's object): from memory, its fields may hold what no
  /// construction of the walk gave them. A null \p Source: from nowhere the walk shows.
  void noteHandedObject(const clang::Expr *Source, const clang::CXXRecordDecl *RD);
  void noteHandedObjects(const clang::Expr *S);
  /// Re-names accesses through a handle's pointer field (FieldPointee).
  void resolveHandleFields(size_t FirstAll, size_t FirstPlain);
  /// What the constructions of the walk set one pointer field to (each
  /// distinct object once), or Mixed where one cannot be followed.
  struct FieldPointee {
    llvm::SmallVector<ObjectRef, 2> Ways;
    bool Mixed = false;
  };
  llvm::DenseMap<const clang::FieldDecl *, FieldPointee> HandleFields;
  llvm::DenseSet<const clang::CXXRecordDecl *> HandedFromMemory;
  llvm::DenseSet<const clang::CXXConstructExpr *> NotedConstructions;
  /// Functions the walk of the root entered, constructors noted included.
  llvm::DenseSet<const clang::FunctionDecl *> RootReached;
  /// constructedField's answers that do not depend on the walk: per local object and field, the
  /// value its constructor leaves there (null: none the walk can follow).
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::FieldDecl *>, const clang::Expr *> ConstructedValues;
};

} // namespace cuda_scope

#endif
