//===- CudaScopePass.cpp - the device-IR analysis and its reporting passes ===//
#include "CudaScopePass.h"
#include "model/Wording.h"
#include <set>
#include <tuple>
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdlib>
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace cuda_scope {

// The IR pass's options, as the clang-tidy checks' (docs/ir-pass.md): with opt,
// after -load-pass-plugin; with clang, -Xclang -load -Xclang <plugin> makes
// them known to -mllvm.
static cl::opt<Strictness> StrictnessOption(
    "cuda-scope-strictness", cl::desc("How wide a net the release/acquire and fence rules cast"),
    cl::values(clEnumValN(Strictness::Evidence, "evidence", "what the code shows is a message (default)"),
               clEnumValN(Strictness::Wide, "wide", "also flags and data whose pairing the code does not show")),
    cl::init(Strictness::Evidence));
static cl::opt<bool> AcrossKernelsOption("cuda-scope-across-kernels",
                                         cl::desc("Accesses of different kernels may run at once"),
                                         cl::init(false));

static cl::opt<bool> WideScopeOption("cuda-scope-wide-scope",
                                     cl::desc("Also report fences and ordering atomics at a scope wider than "
                                              "every thread that can see their memory (a cost; off by default)"),
                                     cl::init(false));

static cl::opt<std::string> LaunchesOption(
    "cuda-scope-launches",
    cl::desc("A file of what the host side's facts say of the program's launches (the cuda-scope "
             "command writes it): a kernel symbol alone on a line, every launch of it runs one block; "
             "'not-cooperative', symbol, name, how, where (tab-separated), a launch of it that is not "
             "cooperative; 'grid-grows', symbol, name, how, where, input, a launch of it that is not "
             "cooperative on a grid that grows with that input; 'overlaps', symbol, a kernel two grids of "
             "which may run at once; default $CUDA_SCOPE_LAUNCHES"),
    cl::init(""));

AnalysisKey CudaScopeAnalysis::Key;

namespace {
struct NamedLaunch {
  std::string Kernel;
  KernelLaunch Launch;
};
/// What the host side's facts say of the launches: the device IR does not
/// see them (docs/facts.md).
struct LaunchFacts {
  /// The kernels every launch of which runs one block.
  StringSet<> OneBlock;
  /// Per kernel symbol, its name as the source spells it and a launch of
  /// it that is not cooperative.
  StringMap<NamedLaunch> NotCooperative;
  /// Per kernel symbol, a launch of it that is not cooperative on a grid
  /// that grows with the input.
  StringMap<NamedLaunch> GridGrows;
  /// The kernels two grids of which may run at once (a launch on a stream
  /// picked from several).
  StringSet<> Overlaps;
};
} // namespace

static LaunchFacts launchFacts() {
  LaunchFacts Out;
  std::string Path = LaunchesOption;
  if (Path.empty())
    if (const char *Env = std::getenv("CUDA_SCOPE_LAUNCHES"))
      Path = Env;
  if (Path.empty())
    return Out;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    errs() << "cuda-scope: cannot read the launches file " << Path << ": " << Buf.getError().message() << "\n";
    return Out;
  }
  SmallVector<StringRef, 16> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.empty())
      continue;
    // not-cooperative TAB symbol TAB name TAB how TAB where.
    if (L.consume_front("not-cooperative\t")) {
      SmallVector<StringRef, 4> Fields;
      L.split(Fields, '\t');
      if (Fields.size() == 4 && !Fields[0].empty())
        Out.NotCooperative.try_emplace(Fields[0], NamedLaunch{Fields[1].str(), {Fields[2].str(), Fields[3].str(), LaunchForm::Plain, GridSize::Unknown, ""}});
      continue;
    }
    // grid-grows TAB symbol TAB name TAB how TAB where TAB input.
    if (L.consume_front("grid-grows\t")) {
      SmallVector<StringRef, 5> Fields;
      L.split(Fields, '\t');
      if (Fields.size() == 5 && !Fields[0].empty())
        Out.GridGrows.try_emplace(Fields[0], NamedLaunch{Fields[1].str(), {Fields[2].str(), Fields[3].str(),
                                                                           LaunchForm::Plain, GridSize::Input,
                                                                           Fields[4].str()}});
      continue;
    }
    // overlaps TAB symbol.
    if (L.consume_front("overlaps\t")) {
      if (!L.empty())
        Out.Overlaps.insert(L);
      continue;
    }
    Out.OneBlock.insert(L);
  }
  return Out;
}

/// Where $CUDA_SCOPE_KERNELS names a file, the kernels of \p M, one symbol a
/// line: the launch facts this run depends on are those of these kernels.
/// The command's --merge replays a shard's run of the pass only where the
/// whole program's facts say of them what the shard's said (docs/tools.md).
static void writeKernels(const Module &M) {
  const char *Path = std::getenv("CUDA_SCOPE_KERNELS");
  if (!Path || !*Path)
    return;
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "cuda-scope: cannot write the kernels file " << Path << ": " << EC.message() << "\n";
    return;
  }
  for (const Function &F : M)
    if (isKernel(F))
      OS << F.getName() << "\n";
}

/// At -O0 every address sits behind a stack slot and every call is a call, so
/// no access names its object. Analyse a copy instead, optimised as at -O2
/// (inlining, SROA); debug locations survive, so remarks keep their lines.
static std::shared_ptr<Module> optimizedCopy(const Module &M) {
  std::shared_ptr<Module> Copy = CloneModule(M);
  for (Function &F : *Copy) {
    F.removeFnAttr(Attribute::OptimizeNone);
    if (!F.hasFnAttribute(Attribute::AlwaysInline))
      F.removeFnAttr(Attribute::NoInline);
  }
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(*Copy, MAM);
  return Copy;
}

/// With CUDA_SCOPE_DUMP_OPS set, where each record the engine is handed comes
/// from: its kernel, its source line and its instruction, by record number
/// (the clang-tidy side prints the same for its records).
static void dumpSites(const IrRecords &Rec) {
  if (!dumpingOps())
    return;
  for (unsigned I = 0; I < Rec.ops().size(); ++I) {
    const IROp &Op = Rec.irOp(I);
    const DILocation *L = Op.I->getDebugLoc().get();
    errs() << "  site #" << I << " " << Rec.kernelOf(I)->getName() << " "
           << (L ? sys::path::filename(L->getFilename()) : StringRef("?")) << ":" << (L ? L->getLine() : 0) << " "
           << Op.Spelling << "\n";
  }
}

CudaScopeAnalysis::Result CudaScopeAnalysis::run(Module &M, ModuleAnalysisManager &) {
  Result R;
  if (!M.getTargetTriple().isNVPTX())
    return R; // device compilation only
  const Module *Analysed = &M;
  if (any_of(M, [](const Function &F) { return isKernel(F) && F.hasOptNone(); })) {
    R.OptimizedCopy = optimizedCopy(M);
    Analysed = R.OptimizedCopy.get();
  }
  LaunchFacts Launches = launchFacts();
  writeKernels(*Analysed);
  R.Records = std::make_unique<IrRecords>(*Analysed, Launches.OneBlock, Launches.Overlaps);
  dumpSites(*R.Records);
  EngineOptions Opts;
  Opts.Net = StrictnessOption;
  Opts.AcrossKernels = AcrossKernelsOption;
  if (WideScopeOption)
    Opts.Rules |= EngineOptions::Wide;
  R.Findings = analyse(R.Records->ops(), *R.Records, Opts);
  // The grid sync rule: a kernel's first grid barrier, when the facts show a
  // launch of it under which the barrier cannot complete.
  for (unsigned K = 0; K < R.Records->kernels().size(); ++K) {
    auto It = Launches.NotCooperative.find(R.Records->kernels()[K]->getName());
    if (It == Launches.NotCooperative.end() || !launchWithoutCooperation(It->second.Launch))
      continue;
    for (unsigned I = 0; I < R.Records->ops().size(); ++I)
      if (R.Records->ops()[I].Context == static_cast<int>(K) && R.Records->ops()[I].What == OpKind::GridBarrier) {
        R.GridSyncs.push_back({I, It->second.Kernel, It->second.Launch});
        break;
      }
  }
  // The grid barrier rule: a kernel's first wait of the whole grid, when the
  // facts show a launch of it past residency; and a counting barrier used
  // again on the same goal, however launched.
  std::vector<GridWait> Waits = gridWaits(R.Records->ops(), *R.Records);
  R.ReusedBarriers = reusedGridBarriers(R.Records->ops(), *R.Records, Waits);
  if (!Launches.GridGrows.empty()) {
    std::set<int> Seen;
    for (const GridWait &W : Waits) {
      int K = R.Records->ops()[W.Wait].Context;
      auto It = Launches.GridGrows.find(R.Records->kernels()[K]->getName());
      if (It == Launches.GridGrows.end() || !launchBeyondResidency(It->second.Launch) || !Seen.insert(K).second)
        continue;
      R.GridBarriers.push_back({W, It->second.Kernel, It->second.Launch});
    }
  }
  R.WarpRaces = warpRaces(R.Records->ops(), *R.Records);
  for (const Function *K : R.Records->kernels()) {
    for (const DivergentBarrier &B : divergentBarriers(*K))
      R.DivergentBarriers.push_back(B);
    for (const MaskedWarpCall &W : fullMaskCallsUnderDivergence(*K))
      R.WarpMasks.push_back(W);
    for (const ShuffleOutside &S : shufflesOutsideMask(*K))
      R.ShuffleSources.push_back(S);
  }
  return R;
}

/// A file of the toolkit, the compiler or the system: what clang's CUDA
/// compilation includes as system headers (the toolkit's include directory,
/// clang's resource directory, /usr/include and /usr/local/include).
static bool isSystemFile(const DIScope *Scope) {
  if (!Scope)
    return false;
  SmallString<256> Path(Scope->getDirectory());
  sys::path::append(Path, Scope->getFilename());
  StringRef P = Path;
  if (P.starts_with("/usr/include/") || P.starts_with("/usr/local/include/") || P.starts_with("/usr/lib/"))
    return true;
  return P.contains("/lib/clang/") || P.contains("/include/cccl/") || P.contains("/cuda/include/") ||
         P.contains("/targets/x86_64-linux/include/") || (P.contains("/cuda-") && P.contains("/include/"));
}

/// Where the user wrote the operation: after inlining, an access inside
/// libcu++ or the toolkit carries the header's line, inlined at the user's
/// call. The rules the clang-tidy checks share are reported where those
/// report them: the innermost location outside the system headers (a helper
/// of the project's own, say). The async-proxy and cluster rules, the pass's
/// own, point at the kernel's code: the outermost location.
static DebugLoc userLoc(const Instruction *I, bool Outermost = false) {
  const DILocation *L = I->getDebugLoc().get();
  if (!Outermost)
    for (const DILocation *Up = L; Up; Up = Up->getInlinedAt())
      if (!isSystemFile(Up->getScope()))
        return DebugLoc(const_cast<DILocation *>(Up));
  while (L && L->getInlinedAt())
    L = L->getInlinedAt();
  return DebugLoc(const_cast<DILocation *>(L));
}

/// The calls that reach the place userLoc reports \p I at, from the kernel:
/// the inlining chain above it, innermost first, as far as the project's
/// code goes (clang-tidy's notes of the same calls).
static SmallVector<DebugLoc, 6> callsReaching(const Instruction *I) {
  SmallVector<DebugLoc, 6> Out;
  const DILocation *L = I->getDebugLoc().get();
  while (L && L->getInlinedAt() && isSystemFile(L->getScope()))
    L = L->getInlinedAt();
  for (const DILocation *Up = L ? L->getInlinedAt() : nullptr; Up && Out.size() < 6; Up = Up->getInlinedAt())
    if (!isSystemFile(Up->getScope()))
      Out.push_back(DebugLoc(const_cast<DILocation *>(Up)));
  return Out;
}

/// "file:line" of a location, the file's path made absolute as the host
/// side's facts make it.
static std::string placeOf(const DebugLoc &L) {
  if (!L)
    return std::string();
  const DILocation *D = L.get();
  SmallString<256> Path(D->getFilename());
  if (!sys::path::is_absolute(Path)) {
    Path = D->getDirectory();
    sys::path::append(Path, D->getFilename());
  }
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return (Path + ":" + Twine(D->getLine())).str();
}

/// Some frame of \p I's inlining chain is the project's code. The hierarchy
/// rules read what the project wrote, as the clang-tidy checks do (they
/// analyse no function of a system header): a barrier and its condition
/// wholly inside a library's own kernel (CUB's) are the library's.
static bool inProjectCode(const Instruction *I) {
  for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt())
    if (!isSystemFile(L->getScope()))
      return true;
  return false;
}

namespace {
/// "block", "device"; "no" for a plain access.
StringRef scopeWord(const MemOp &Op) { return Op.S ? shortName(*Op.S) : StringRef("no"); }

/// A fence the user wrote as a CUDA builtin (__threadfence_block(), which
/// is llvm.nvvm.membar.cta once clang has lowered it): advice names the
/// builtin of the needed scope, as clang-tidy's does (model/Wording).
bool builtinFence(const IROp &Op) {
  return parseDeviceBuiltin(Op.Spelling).has_value() || StringRef(Op.Spelling).starts_with("llvm.nvvm.membar");
}

/// Words \p F as the remark for \p R.
void word(const IrRecords &Rec, const Finding &F, OptimizationRemarkAnalysis &R) {
  const IROp &At = Rec.irOp(F.At);
  const MemOp &AtOp = Rec.ops()[F.At];
  const bool Outermost = F.What == Finding::ProxyFence || F.What == Finding::ClusterWait;
  auto Loc = [&](int I) { return userLoc(Rec.irOp(I).I, Outermost); };
  std::string Kernel = demangle(Rec.kernelOf(F.At)->getName().str());
  // Where a flag accessed in a helper is used: the calls that reach it.
  auto Calls = [&](const Instruction *I) {
    bool First = true;
    for (const DebugLoc &Call : callsReaching(I)) {
      R << (First ? " (called from " : ", from ") << ore::NV("CallLocation", Call);
      First = false;
    }
    if (!First)
      R << ")";
  };
  switch (F.What) {
  case Finding::NoRelease:
  case Finding::NoAcquire:
  case Finding::NarrowFence: {
    std::string Flag = describeObject(Rec.irOp(F.Flag).Object);
    std::string Data = describeObject(Rec.irOp(F.Data).Object);
    // The advice, as clang-tidy gives it (model/Wording): the flag's form
    // is what its access takes, an order or none.
    const IROp &FlagOp = Rec.irOp(F.Flag);
    bool Publish = F.What == Finding::NoRelease;
    FlagForm Form = !isStrong(FlagOp.Ord) || FlagOp.Ord == Order::Volatile ? FlagForm::Plain
                    : parseDeviceBuiltin(FlagOp.Spelling)                  ? FlagForm::NoOrder
                                                                           : FlagForm::Ordered;
    // A partner instance may run on another GPU: advise a fence that includes it.
    std::string Consider = messageAdvice(Publish, Form, FlagOp.What, F.Partner ? Scope::System : F.Needed);
    // Another GPU's memory, reached through integer arithmetic, often has no
    // name: the place names it.
    const std::string Peer = Data == UnnamedObject || !Rec.irOp(F.Data).Object
                                 ? std::string("another GPU's memory")
                                 : Data + " in another GPU's memory";
    if (F.Peer && Publish)
      R << ore::NV("Flag", Flag) << " signals the other GPUs here (" << ore::NV("Access", At.Spelling) << ", "
        << orderName(At.Ord) << ") after " << orderName(Rec.irOp(F.Data).Ord) << " writes to " << ore::NV("Data", Peer)
        << " at " << ore::NV("OtherLocation", Loc(F.Data)) << " with no release between them; " << peerReason(true)
        << "; consider " << Consider;
    else if (F.Peer)
      R << ore::NV("Flag", Flag) << " is waited for here (" << ore::NV("Access", At.Spelling) << ", "
        << orderName(At.Ord) << ") and " << ore::NV("Data", Peer) << (F.WriteWrite ? " is written" : " is read")
        << " after it at " << ore::NV("OtherLocation", Loc(F.Data)) << " with no acquire between them; "
        << peerReason(false, F.WriteWrite) << "; consider " << Consider;
    else if (F.ByOthers)
      R << ore::NV("Flag", Flag) << " is " << (Publish ? "published" : "received") << " here ("
        << ore::NV("Access", At.Spelling) << ", " << orderName(At.Ord) << ") by fewer threads than "
        << (Publish ? "write " : "read ") << ore::NV("Data", Data) << " at " << ore::NV("OtherLocation", Loc(F.Data))
        << (Publish ? " before it" : " after it") << ", with no barrier between them; " << byOthersReason(Publish)
        << "; consider " << byOthersAdvice(Publish);
    else if (F.What == Finding::NoRelease && F.Via >= 0)
      R << ore::NV("Flag", Flag) << " is published here (" << ore::NV("Access", At.Spelling) << ", "
        << orderName(At.Ord) << ") after " << ore::NV("Via", describeObject(Rec.irOp(F.Via).Object))
        << " was received at " << ore::NV("ViaLocation", Loc(F.Via)) << ", which carries " << ore::NV("Data", Data)
        << " (written at " << ore::NV("OtherLocation", Loc(F.Data))
        << "), with no release between them; a consumer can see the flag before the data; consider " << Consider;
    else if (F.What == Finding::NoRelease)
      R << ore::NV("Flag", Flag) << " is published here (" << ore::NV("Access", At.Spelling) << ", "
        << orderName(At.Ord) << ") after " << orderName(Rec.irOp(F.Data).Ord) << " writes to "
        << ore::NV("Data", Data) << " at "
        << ore::NV("OtherLocation", Loc(F.Data)) << " with no release between them, and "
        << (F.Partner ? "the partner instance of kernel " : "kernel ") << ore::NV("Kernel", Kernel)
        << (F.Partner ? " (the same kernel on another GPU or grid) waits on it as " +
                            describeObject(Rec.irOp(F.Other).Object) + "; a consumer can see the flag before the data; "
                            "consider "
            : F.WriteWrite ? " waits on it and then writes the same; that later write can be overwritten by this "
                             "earlier one (the two writes race); consider "
                           : " waits on it; a consumer can see the flag before the data; consider ")
        << Consider;
    else if (F.What == Finding::NoAcquire && F.WriteWrite)
      R << ore::NV("Flag", Flag) << " is received here (" << ore::NV("Access", At.Spelling) << ", "
        << orderName(At.Ord) << ") and " << ore::NV("Data", Data) << " is written after it at "
        << ore::NV("OtherLocation", Loc(F.Data))
        << " with no acquire between them; the write can be ordered before one made before the flag was published, "
           "which then overwrites it (the two writes race); consider "
        << Consider;
    else if (F.What == Finding::NoAcquire)
      R << ore::NV("Flag", Flag) << " is received here (" << ore::NV("Access", At.Spelling) << ", "
        << orderName(At.Ord) << ") and " << ore::NV("Data", Data) << " is read after it at "
        << ore::NV("OtherLocation", Loc(F.Data)) << " with no acquire between them; the read can return stale data"
        << (F.Partner ? ", which the kernel's partner instance (the same kernel on another GPU or grid) publishes as " +
                            describeObject(Rec.irOp(F.Other).Object)
                      : std::string())
        << "; consider " << Consider;
    else
      R << "the " << ore::NV("Scope", scopeWord(AtOp)) << "-scope fence (" << ore::NV("Access", At.Spelling)
        << ") orders the message through " << ore::NV("Flag", Flag) << " (at " << ore::NV("OtherLocation", Loc(F.Flag))
        << ") and " << ore::NV("Data", Data) << ", but the other side may be in another block; consider "
        << widerFenceAdvice(F.Needed, builtinFence(At));
    if (F.What != Finding::NarrowFence)
      Calls(At.I);
    return;
  }
  case Finding::ClusterWait:
    R << ore::NV("Access", At.Spelling) << " reads " << ore::NV("Object", "another block's shared memory")
      << " after barrier.cluster.arrive (" << ore::NV("OtherLocation", Loc(F.Other))
      << ") but before the matching barrier.cluster.wait; the other block may not have written it yet; consider "
         "barrier.cluster.wait (cluster.sync()) before the read";
    return;
  case Finding::ProxyFence:
    R << ore::NV("Access", At.Spelling) << " reads shared memory through the async proxy after generic-proxy writes to "
      << ore::NV("Object", describeObject(Rec.irOp(F.Other).Object)) << " with no fence.proxy.async between them"
      << "; the write is at " << ore::NV("OtherLocation", Loc(F.Other))
      << "; consider fence.proxy.async.shared::cta after the writes";
    return;
  case Finding::FenceTooNarrow: {
    const IROp &Access = Rec.irOp(F.Other);
    R << "the " << ore::NV("Scope", scopeWord(AtOp)) << "-scope fence (" << ore::NV("Access", At.Spelling)
      << ") orders the relaxed " << opKindName(Access.What) << " of "
      << ore::NV("Object", describeObject(Access.Object)) << " at " << ore::NV("OtherLocation", Loc(F.Other))
      << ", but every block reaches it; a fence's scope must include the threads it synchronizes with; consider "
      << widerFenceAdvice(F.Needed, builtinFence(At));
    return;
  }
  case Finding::ScopeWider: {
    const bool Fence = At.What == OpKind::Fence;
    const bool Builtin = builtinFence(At);
    R << "the " << ore::NV("Scope", scopeWord(AtOp)) << "-scope " << (Fence ? "fence" : opKindName(At.What)) << " ("
      << ore::NV("Access", At.Spelling) << ") " << (Fence ? "orders memory" : "orders shared memory")
      << ", wider than needed: " << wideScopeReason(Fence, *AtOp.S, F.Needed) << "; consider "
      << (Fence && Builtin ? fenceFor(F.Needed) : libcuName(F.Needed).str());
    return;
  }
  case Finding::ScopeMismatch:
  case Finding::ScopeInsufficient:
    R << ore::NV("Object", describeObject(At.Object)) << " is accessed with " << ore::NV("Scope", scopeWord(AtOp))
      << " scope (" << ore::NV("Access", At.Spelling) << ") in kernel " << ore::NV("Kernel", Kernel);
    if (F.What == Finding::ScopeMismatch)
      R << ", and with " << ore::NV("OtherScope", scopeWord(Rec.ops()[F.Other])) << " scope ("
        << ore::NV("OtherAccess", Rec.irOp(F.Other).Spelling) << ") at " << ore::NV("OtherLocation", Loc(F.Other))
        << "; every block reaches it, so the scopes must include each other";
    else if (F.OutsideKernel)
      R << ", but nothing in the kernel reads it and the kernel waits on writes from outside it: its reader runs "
           "outside the kernel, while it runs, and "
        << scopeWord(AtOp) << " scope cannot include it";
    else
      R << ", but every block reaches it; " << scopeWord(AtOp) << " scope cannot include the other blocks";
    R << "; consider " << shortName(F.Needed) << " scope";
    if (F.OutsideKernel)
      R << " (system scope where the reader is the host or another GPU)";
    return;
  }
}
} // namespace

StringRef checkName(Finding::Kind K) {
  switch (K) {
  case Finding::ScopeMismatch: return "cuda-scope-mismatch";
  case Finding::ScopeWider: return WideScopeCheckName;
  case Finding::ScopeInsufficient:
  case Finding::FenceTooNarrow: return "cuda-scope-insufficient";
  case Finding::NoRelease:
  case Finding::NoAcquire:
  case Finding::NarrowFence: return "cuda-scope-release-acquire";
  case Finding::ProxyFence: return "cuda-scope-proxy-fence";
  case Finding::ClusterWait: return "cuda-scope-cluster-wait";
  }
  return "cuda-scope";
}

PreservedAnalyses CudaScopeRemarkPass::run(Module &M, ModuleAnalysisManager &AM) {
  const CudaScopeAnalysis::Result &Res = AM.getResult<CudaScopeAnalysis>(M);
  // A callee's own operation and its copy at a call (IROp::Site) may make
  // the same finding: one remark for each place and wording.
  std::set<std::pair<std::string, std::string>> Reported;
  for (const Finding &F : Res.Findings) {
    const Instruction *I = Res.Records->irOp(F.At).I;
    OptimizationRemarkEmitter ORE(I->getFunction());
    OptimizationRemarkAnalysis R("cuda-scope", checkName(F.What),
                                 userLoc(I, F.What == Finding::ProxyFence || F.What == Finding::ClusterWait),
                                 I->getParent());
    word(*Res.Records, F, R);
    const DiagnosticLocation &Where = R.getLocation();
    std::string Place = Where.isValid() ? (Where.getRelativePath() + ":" + Twine(Where.getLine()) + ":" +
                                           Twine(Where.getColumn())).str()
                                        : std::string();
    if (Reported.insert({Place, R.getMsg()}).second)
      ORE.emit(R);
  }
  // One remark per barrier place and condition: an unrolled loop's barrier
  // is several calls.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> BarrierPlaces;
  for (const DivergentBarrier &B : Res.DivergentBarriers) {
    if (!inProjectCode(B.Barrier) && !inProjectCode(B.Branch))
      continue;
    DebugLoc At = userLoc(B.Barrier);
    if (At && !BarrierPlaces.insert({placeOf(At), At.getLine(), At.getCol(), placeOf(userLoc(B.Branch))}).second)
      continue;
    OptimizationRemarkEmitter ORE(B.Barrier->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", DivergentBarrierCheckName, userLoc(B.Barrier),
                                   B.Barrier->getParent());
      R << divergentBarrierMessage(B.Reduces, placeOf(userLoc(B.Branch)));
      return R;
    });
  }
  // One remark per place: a 64-bit shuffle is two intrinsic calls.
  std::set<std::tuple<std::string, unsigned, unsigned>> MaskPlaces;
  for (const MaskedWarpCall &W : Res.WarpMasks) {
    if (!inProjectCode(W.Call) && !inProjectCode(W.Branch))
      continue;
    DebugLoc At = userLoc(W.Call);
    if (At && !MaskPlaces.insert({placeOf(At), At.getLine(), At.getCol()}).second)
      continue;
    OptimizationRemarkEmitter ORE(W.Call->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", WarpMaskCheckName, At, W.Call->getParent());
      R << warpMaskMessage(W.Name, placeOf(userLoc(W.Branch)));
      return R;
    });
  }
  // The first of the shuffles at one place, in the kernel's order: a 64-bit
  // shuffle is two calls, an unrolled loop one per step.
  for (const ShuffleOutside &S : Res.ShuffleSources) {
    if (!inProjectCode(S.Call))
      continue;
    DebugLoc At = userLoc(S.Call);
    if (At && !MaskPlaces.insert({placeOf(At), At.getLine(), At.getCol()}).second)
      continue;
    OptimizationRemarkEmitter ORE(S.Call->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", WarpMaskCheckName, At, S.Call->getParent());
      R << shuffleSourceMessage(S.Name, S.Mask, S.Read);
      return R;
    });
  }
  for (const CudaScopeAnalysis::GridSync &G : Res.GridSyncs) {
    const IROp &Op = Res.Records->irOp(G.At);
    OptimizationRemarkEmitter ORE(Op.I->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", GridSyncCheckName, userLoc(Op.I), Op.I->getParent());
      R << gridSyncMessage(G.Kernel, gridBarrierName(Op.ScopeQual.value_or(Scope::Device)), G.Launch);
      return R;
    });
  }
  // One remark per place: a statement's load and store may both race.
  std::set<std::tuple<std::string, unsigned, unsigned>> RacePlaces;
  for (const WarpRace &W : Res.WarpRaces) {
    const IROp &At = Res.Records->irOp(W.At), &Other = Res.Records->irOp(W.Other);
    if (!inProjectCode(At.I) && !inProjectCode(Other.I))
      continue;
    DebugLoc Loc = userLoc(At.I);
    if (Loc && !RacePlaces.insert({placeOf(Loc), Loc.getLine(), Loc.getCol()}).second)
      continue;
    OptimizationRemarkEmitter ORE(At.I->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", WarpRaceCheckName, Loc, At.I->getParent());
      R << warpRaceMessage(Res.Records->ops()[W.At].writes(), Res.Records->ops()[W.Other].writes(), W.Lanes,
                           placeOf(userLoc(Other.I)));
      return R;
    });
  }
  for (const CudaScopeAnalysis::GridBarrier &G : Res.GridBarriers) {
    const IROp &Wait = Res.Records->irOp(G.Wait.Wait);
    OptimizationRemarkEmitter ORE(Wait.I->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", GridBarrierCheckName, userLoc(Wait.I), Wait.I->getParent());
      R << gridBarrierMessage(G.Kernel, placeOf(userLoc(Res.Records->irOp(G.Wait.Arrival).I)), G.Launch);
      return R;
    });
  }
  // One finding per place: -O2 may copy a spin's read (a rotated loop's
  // first test and its latch), each a wait of its own to the model.
  std::set<std::tuple<std::string, unsigned, unsigned>> ReusePlaces;
  for (const ReusedGridBarrier &B : Res.ReusedBarriers) {
    const IROp &Wait = Res.Records->irOp(B.Wait);
    DebugLoc Loc = userLoc(Wait.I);
    if (Loc && !ReusePlaces.insert({placeOf(Loc), Loc.getLine(), Loc.getCol()}).second)
      continue;
    OptimizationRemarkEmitter ORE(Wait.I->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("cuda-scope", GridBarrierCheckName, userLoc(Wait.I), Wait.I->getParent());
      const Function *Kernel = Res.Records->kernels()[Res.Records->ops()[B.Wait].Context];
      R << reusedGridBarrierMessage(plainFunctionName(demangle(Kernel->getName().str())),
                                    placeOf(userLoc(Res.Records->irOp(B.Again).I)), B.Second);
      return R;
    });
  }
  return PreservedAnalyses::all();
}

PreservedAnalyses CudaScopePrinterPass::run(Module &M, ModuleAnalysisManager &AM) {
  const CudaScopeAnalysis::Result &Res = AM.getResult<CudaScopeAnalysis>(M);
  if (!Res.Records)
    return PreservedAnalyses::all();
  const IrRecords &Rec = *Res.Records;
  for (unsigned K = 0; K < Rec.kernels().size(); ++K) {
    OS << "kernel " << Rec.kernels()[K]->getName() << "\n";
    for (unsigned I = 0; I < Rec.ops().size(); ++I) {
      const MemOp &Op = Rec.ops()[I];
      const IROp &IR = Rec.irOp(I);
      if (Op.Context != static_cast<int>(K))
        continue;
      OS << "  " << opKindName(Op.What) << " " << orderName(Op.Ord) << " scope="
         << (IR.ScopeQual ? shortName(*IR.ScopeQual) : StringRef("-")) << " object="
         << (IR.Object ? describeObject(IR.Object) : std::string("-")) << (Op.PerBlock ? " per-block" : "")
         << (Op.Tested ? " tested" : "") << " [" << IR.Spelling << "]\n";
    }
    for (const Finding &F : Res.Findings)
      if (Rec.ops()[F.At].Context == static_cast<int>(K))
        OS << "  finding " << checkName(F.What) << " at [" << Rec.irOp(F.At).Spelling << "]\n";
  }
  return PreservedAnalyses::all();
}

} // namespace cuda_scope
