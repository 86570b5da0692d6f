//===- TUFacts.cpp - what one file tells the analysis of the whole program ===//
#include "TUFacts.h"
#include "ast/ProjectCode.h"
#include "CallChains.h"
#include "ast/PerTU.h"
#include "ast/KernelLaunches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace clang;
using namespace llvm;

namespace cuda_scope {

std::shared_ptr<TUFacts> TUFacts::get(ASTContext &Ctx) { return sharedPerTU<TUFacts>(Ctx); }

TUFacts::TUFacts(ASTContext &Ctx) : Ctx(Ctx) {}

TUFacts::~TUFacts() {
  if (enabled())
    write();
}

void TUFacts::configure(StringRef Option, ArrayRef<std::pair<std::string, unsigned>> More) {
  for (const auto &P : More)
    if (!is_contained(Pools, P))
      Pools.push_back(P);
  if (!Path.empty())
    return;
  if (!Option.empty()) {
    Path = Option.str();
    return;
  }
  if (Configured)
    return;
  Configured = true;
  if (const char *Env = std::getenv("CUDA_SCOPE_FACTS"))
    Path = Env;
}

namespace {

class ExportFinder : public ProjectCodeVisitor<ExportFinder> {
public:
  ExportFinder(const SourceManager &SM, std::vector<const FunctionDecl *> &Out) : ProjectCodeVisitor(SM), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitFunctionDecl(const FunctionDecl *F) {
    // A function defined in a header is defined in every file that includes
    // it, which then calls it directly: only the main file's are reached
    // from other files only.
    if (!F->doesThisDeclarationHaveABody() || F->isDependentContext())
      return true;
    // An override is reached through its base from files that may not
    // include its header: it is written wherever it is defined, outside
    // system headers.
    const auto *MD = dyn_cast<CXXMethodDecl>(F);
    bool Overrides = MD && MD->size_overridden_methods() > 0;
    SourceLocation At = SM.getExpansionLoc(F->getLocation());
    if (Overrides ? SM.isInSystemHeader(At) : !SM.isInMainFile(At))
      return true;
    if ((F->isExternallyVisible() || Overrides) && Seen.insert(F).second)
      Out.push_back(F);
    return true;
  }

private:
  std::vector<const FunctionDecl *> &Out;
  DenseSet<const FunctionDecl *> Seen;
};

} // namespace

// What makes a function worth writing: it leads to an API call, a launch, or
// out of the file.
static const unsigned Relevant = (1u << CudaEvent::ApiCall) | (1u << CudaEvent::KernelLaunch) |
                                 (1u << CudaEvent::OpenCall);

void TUFacts::include(TUCallGraph &Graph, const FunctionDecl *Root) {
  if (!Exported) {
    Exported = true;
    std::vector<const FunctionDecl *> Out;
    ExportFinder(Ctx.getSourceManager(), Out).TraverseAST(Ctx);
    for (const FunctionDecl *F : Out)
      add(Graph, F);
    threads(Graph);
  }
  if (Root)
    add(Graph, Root);
}

TUFacts::Function *TUFacts::add(TUCallGraph &Graph, const FunctionDecl *Root) {
  std::vector<const FunctionDecl *> Work{Root};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    std::unique_ptr<Function> &Slot = Functions[F];
    if (Slot)
      continue;
    Slot = std::make_unique<Function>();
    Function *Fn = Slot.get();
    Order.push_back(F);
    const TUCallGraph::Summary *S = Graph.summary(F);
    if (!S)
      continue;
    for (const CallEdge &E : S->Calls) {
      if (!(Graph.reachableEvents(E.Callee) & Relevant))
        continue;
      Fn->Sites[E.Loc.getRawEncoding()].push_back({false, Fn->Edges.size()});
      json::Object Edge{{"to", id(E.Callee)},
                        {"at", place(E.Loc)},
                        {"message", chainNotes({&E}).front().second}};
      addLocks(Edge, F, E.Loc);
      Fn->Edges.push_back(std::move(Edge));
      if (!Functions.count(E.Callee))
        Work.push_back(E.Callee);
    }
    for (const CudaEvent &E : S->Events) {
      if (E.What != CudaEvent::OpenCall || !E.Target)
        continue;
      Fn->Sites[E.E->getBeginLoc().getRawEncoding()].push_back({true, Fn->Calls.size()});
      std::string Name = E.Target->getQualifiedNameAsString();
      json::Object Call{{"callee", id(E.Target)},
                        {"name", Name},
                        {"virtual", E.Virtual},
                        {"message", callStepNote(Name, E.Virtual ? CallStep::Virtual : CallStep::Call)},
                        {"at", place(E.E->getBeginLoc())}};
      addLocks(Call, F, E.E->getBeginLoc());
      Fn->Calls.push_back(std::move(Call));
    }
  }
  return Functions[Root].get();
}

std::string TUFacts::deviceSymbol(const FunctionDecl *F) {
  // The host side mangles a kernel as its launch stub (_Z18__device_stub__kPi);
  // the device side, as itself (_Z1kPi): the stub's name less its prefix.
  if (!Names)
    Names = std::make_unique<ASTNameGenerator>(Ctx);
  std::string Stub = Names->getName(F), Out;
  StringRef Rest(Stub), Prefix("__device_stub__");
  size_t At = Rest.find(Prefix);
  if (At == StringRef::npos)
    return Stub;
  size_t Digits = At;
  while (Digits > 0 && isDigit(Rest[Digits - 1]))
    --Digits;
  unsigned Length = 0;
  if (Digits == At || Rest.slice(Digits, At).getAsInteger(10, Length) || Length <= Prefix.size())
    return Stub;
  return (Rest.take_front(Digits) + Twine(Length - Prefix.size()) + Rest.drop_front(At + Prefix.size())).str();
}

std::string TUFacts::id(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  std::string &Cached = Ids[F];
  if (Cached.empty())
    Cached = mangledId(F);
  return Cached;
}

std::string TUFacts::mangledId(const FunctionDecl *F) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto MainFile = [&] {
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    SmallString<256> File(Main ? Main->getName() : StringRef("?"));
    SM.getFileManager().makeAbsolutePath(File);
    sys::path::remove_dots(File, true);
    return std::string(File.str());
  };
  // Each program's main is its own: a project of several programs (tests,
  // examples, benchmarks) has several, which run in different processes.
  if (F->isMain())
    return "main:" + MainFile();
  if (!Names)
    Names = std::make_unique<ASTNameGenerator>(Ctx);
  std::string Name = Names->getName(F);
  if (Name.empty())
    Name = F->getQualifiedNameAsString();
  if (F->isExternallyVisible())
    return Name;
  // Only this file can name it: the file makes it one.
  return "internal:" + MainFile() + ":" + Name;
}

json::Value TUFacts::place(SourceLocation L) {
  const SourceManager &SM = Ctx.getSourceManager();
  L = SM.getExpansionLoc(L);
  FileID FID = SM.getFileID(L);
  if (L.isInvalid() || FID.isInvalid())
    return nullptr;
  auto [It, New] = FileIndex.try_emplace(FID, Files.size());
  if (New) {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID);
    SmallString<256> File(Entry ? Entry->getName() : StringRef("<unknown>"));
    SM.getFileManager().makeAbsolutePath(File);
    sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    Files.push_back(File.str().str());
  }
  return json::Array{It->second, SM.getSpellingLineNumber(L), SM.getSpellingColumnNumber(L)};
}

void TUFacts::event(const FunctionDecl *F, StringRef Rule, SourceLocation At, json::Object Event) {
  auto It = Functions.find(F);
  if (It == Functions.end())
    return;
  Event["at"] = place(At);
  addLocks(Event, F, At);
  (Rule == "callback" ? It->second->Callback : It->second->Capture).push_back(std::move(Event));
}

void TUFacts::markCalls(const FunctionDecl *F, SourceLocation Loc, StringRef Key, json::Value Value) {
  auto It = Functions.find(F);
  if (It == Functions.end())
    return;
  Function &Fn = *It->second;
  auto Site = Fn.Sites.find(Loc.getRawEncoding());
  if (Site == Fn.Sites.end())
    return;
  for (auto [Open, Index] : Site->second)
    (*(Open ? Fn.Calls : Fn.Edges)[Index].getAsObject())[Key] = Value;
}

void TUFacts::callback(const Registration &R) {
  Callbacks.push_back(json::Object{{"callback", id(R.Callback)},
                                   {"name", R.Callback->getQualifiedNameAsString()},
                                   {"registrar", R.Registrar.str()},
                                   {"at", place(R.Site->getBeginLoc())}});
}

void TUFacts::captureCall(SourceLocation Begin, json::Object Region, const CallEdge *Inside,
                          const CudaEvent *Open) {
  SourceLocation At = Inside ? Inside->Loc : Open->E->getBeginLoc();
  if (!CaptureSites.insert({Begin.getRawEncoding(), At.getRawEncoding()}).second)
    return;
  Region["begin"] = place(Begin);
  Region["at"] = place(At);
  if (Inside) {
    Region["to"] = id(Inside->Callee);
    Region["message"] = chainNotes({Inside}).front().second;
  } else {
    std::string Name = Open->Target->getQualifiedNameAsString();
    Region["callee"] = id(Open->Target);
    Region["name"] = Name;
    Region["virtual"] = Open->Virtual;
    Region["message"] = callStepNote(Name, Open->Virtual ? CallStep::Virtual : CallStep::Call);
  }
  Captures.push_back(std::move(Region));
}

void TUFacts::addLocks(json::Object &Site, const FunctionDecl *F, SourceLocation Loc) {
  if (!ThreadInfo)
    ThreadInfo = std::make_unique<TUThreads>(Ctx, Pools);
  SmallVector<std::string, 1> Locks = ThreadInfo->locksAt(F, Loc);
  if (!Locks.empty())
    Site["locks"] = json::Array(Locks);
}

static std::string displayName(const FunctionDecl *F, const SourceManager &SM) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(F); MD && MD->getParent()->isLambda()) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(MD->getParent()->getLocation()));
    if (P.isValid())
      return ("the lambda at " + sys::path::filename(P.getFilename()) + ":" + Twine(P.getLine())).str();
  }
  return F->getQualifiedNameAsString();
}

void TUFacts::threads(TUCallGraph &Graph) {
  if (!ThreadInfo)
    ThreadInfo = std::make_unique<TUThreads>(Ctx, Pools);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ThreadStart &T : ThreadInfo->starts()) {
    if (const FunctionDecl *Def = TUCallGraph::definitionOf(T.Entry))
      add(Graph, Def);
    add(Graph, T.Spawner);
    std::string Name = displayName(T.Entry, SM);
    json::Object Start{{"entry", id(T.Entry)},
                       {"name", Name},
                       {"note", threadStartNote(Name, T.How, T.Many)},
                       {"how", T.How},
                       {"at", place(T.Site->getBeginLoc())},
                       {"in", id(T.Spawner)},
                       {"many", T.Many}};
    if (T.Joined.isValid())
      Start["joined"] = place(T.Joined);
    Threads.push_back(std::move(Start));
  }
}

void TUFacts::region(TUCallGraph &Graph, const FunctionDecl *F, SourceLocation Begin,
                     json::Object Region) {
  if (!RegionSites.insert(Begin.getRawEncoding()).second)
    return;
  add(Graph, F);
  Region["in"] = id(F);
  Region["begin"] = place(Begin);
  addLocks(Region, F, Begin);
  Regions.push_back(std::move(Region));
}

void TUFacts::write() {
  const SourceManager &SM = Ctx.getSourceManager();
  json::Array Fns;
  for (const FunctionDecl *F : Order) {
    Function &Fn = *Functions[F];
    json::Array Overrides;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(F))
      for (const CXXMethodDecl *O : MD->overridden_methods())
        Overrides.push_back(id(O));
    Fns.push_back(json::Object{{"id", id(F)},
                               {"name", displayName(F, SM)},
                               {"at", place(F->getLocation())},
                               {"overrides", std::move(Overrides)},
                               {"callback", std::move(Fn.Callback)},
                               {"capture", std::move(Fn.Capture)},
                               {"edges", std::move(Fn.Edges)},
                               {"calls", std::move(Fn.Calls)}});
  }
  // The launches, for the IR pass: a kernel every launch of which in the
  // whole program runs one block cannot race across blocks.
  json::Array Launches;
  if (Ctx.getLangOpts().CUDA) {
    std::shared_ptr<KernelLaunches> Kernels = KernelLaunches::get(Ctx);
    for (const auto &[F, K] : Kernels->kernels()) {
      // And the launches that are not cooperative, for the grid sync rule.
      json::Array NotCooperative;
      for (const KernelLaunches::Site &Site : K.Sites)
        if (Site.Form == LaunchForm::Plain) {
          PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Site.E->getBeginLoc()));
          // And what its grid is computed from, for the grid barrier rule.
          NotCooperative.push_back(json::Object{
              {"how", Site.How},
              {"where", P.isValid() ? launchPlace(P.getFilename(), P.getLine(), SM.getFileManager()) : ""},
              {"grid", gridSizeName(Site.Grid)},
              {"grows_with", Site.GrowsWith}});
        }
      Launches.push_back(json::Object{{"kernel", deviceSymbol(F)},
                                      {"name", F->getQualifiedNameAsString()},
                                      {"launches", K.Launches},
                                      {"one_block", K.OneBlock},
                                      {"escapes", K.Escapes},
                                      {"overlaps", K.Overlaps},
                                      {"not_cooperative", std::move(NotCooperative)}});
    }
  }
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  SmallString<256> File(Main ? Main->getName() : StringRef());
  SM.getFileManager().makeAbsolutePath(File);
  sys::path::remove_dots(File, true);
  json::Object Doc{{"format", "cuda-scope-facts"},
                   {"version", Version},
                   {"file", File.str().str()},
                   {"files", std::move(Files)},
                   {"functions", std::move(Fns)},
                   {"callbacks", std::move(Callbacks)},
                   {"captures", std::move(Captures)},
                   {"regions", std::move(Regions)},
                   {"threads", std::move(Threads)},
                   {"launches", std::move(Launches)}};
  // Written whole, then renamed, so that a reader never sees half a file.
  std::string Tmp = Path + ".tmp";
  std::error_code EC;
  {
    raw_fd_ostream OS(Tmp, EC, sys::fs::OF_Text);
    if (EC) {
      errs() << "cuda-scope: cannot write the facts file " << Path << ": " << EC.message() << "\n";
      return;
    }
    OS << json::Value(std::move(Doc)) << "\n";
  }
  if ((EC = sys::fs::rename(Tmp, Path)))
    errs() << "cuda-scope: cannot write the facts file " << Path << ": " << EC.message() << "\n";
}

} // namespace cuda_scope
