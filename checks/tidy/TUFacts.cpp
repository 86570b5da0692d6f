//===- TUFacts.cpp - what one file tells the analysis of the whole program ===//
#include "TUFacts.h"
#include "CheckUtils.h"
#include "PerTU.h"
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

void TUFacts::configure(StringRef Option) {
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

class ExportFinder : public RecursiveASTVisitor<ExportFinder> {
public:
  ExportFinder(const SourceManager &SM, std::vector<const FunctionDecl *> &Out) : SM(SM), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitFunctionDecl(const FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || F->isDependentContext() ||
        SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      return true;
    const auto *MD = dyn_cast<CXXMethodDecl>(F);
    bool Overrides = MD && MD->size_overridden_methods() > 0;
    if ((F->isExternallyVisible() || Overrides) && Seen.insert(F).second)
      Out.push_back(F);
    return true;
  }

private:
  const SourceManager &SM;
  std::vector<const FunctionDecl *> &Out;
  DenseSet<const FunctionDecl *> Seen;
};

} // namespace

const std::vector<const FunctionDecl *> &TUFacts::exported() {
  if (!Exported) {
    Exported = std::make_unique<std::vector<const FunctionDecl *>>();
    ExportFinder(Ctx.getSourceManager(), *Exported).TraverseAST(Ctx);
  }
  return *Exported;
}

std::string TUFacts::id(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  ASTNameGenerator Gen(Ctx);
  std::string Name = Gen.getName(F);
  if (Name.empty())
    Name = F->getQualifiedNameAsString();
  if (F->isExternallyVisible())
    return Name;
  // Only this file can name it: the file makes it one.
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  return ("internal:" + (Main ? Main->getName() : StringRef("?")) + ":" + Name).str();
}

json::Value TUFacts::place(SourceLocation L) const {
  const SourceManager &SM = Ctx.getSourceManager();
  L = SM.getExpansionLoc(L);
  PresumedLoc P = SM.getPresumedLoc(L, /*UseLineDirectives=*/false);
  if (P.isInvalid())
    return nullptr;
  SmallString<256> File(P.getFilename());
  SM.getFileManager().makeAbsolutePath(File);
  sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  return json::Object{{"file", File.str().str()}, {"line", P.getLine()}, {"column", P.getColumn()}};
}

json::Array TUFacts::notes(const Notes &Chain) const {
  json::Array Out;
  for (const auto &[Loc, Text] : Chain)
    Out.push_back(json::Object{{"at", place(Loc)}, {"message", Text}}); // Text: a std::string, copied
  return Out;
}

TUFacts::Function &TUFacts::function(const FunctionDecl *F) {
  std::unique_ptr<Function> &Slot = Functions[F];
  if (!Slot) {
    Slot = std::make_unique<Function>();
    Order.push_back(F);
  }
  return *Slot;
}

void TUFacts::event(const FunctionDecl *F, StringRef Rule, SourceLocation At, json::Object Event,
                    const Notes &Chain) {
  Event["at"] = place(At);
  Event["notes"] = notes(Chain);
  Function &Fn = function(F);
  (Rule == "callback" ? Fn.Callback : Fn.Capture).push_back(std::move(Event));
}

void TUFacts::openCalls(TUCallGraph &Graph, const FunctionDecl *F) {
  Function &Fn = function(F);
  if (Fn.CallsDone)
    return;
  Fn.CallsDone = true;
  Graph.forEachReachable(
      F, 1u << CudaEvent::ExternalCall, [](const CudaEvent &E) { return E.Target != nullptr; },
      [&](const TUCallGraph::Path &P) {
        if (!Fn.CallSites.insert(P.Event->E).second)
          return;
        Fn.Calls.push_back(json::Object{{"callee", id(P.Event->Target)},
                                        {"name", P.Event->Target->getQualifiedNameAsString()},
                                        {"virtual", P.Event->Virtual},
                                        {"at", place(P.Event->E->getBeginLoc())},
                                        {"notes", notes(chainNotes(P.Chain))}});
      });
}

void TUFacts::callback(const Registration &R) {
  Callbacks.push_back(json::Object{{"callback", id(R.Callback)},
                                   {"name", R.Callback->getQualifiedNameAsString()},
                                   {"registrar", R.Registrar.str()},
                                   {"at", place(R.Site->getBeginLoc())}});
}

void TUFacts::captureCall(SourceLocation Begin, json::Object Region, const CudaEvent &Open,
                          const Notes &Chain) {
  if (!CaptureSites.insert({Open.E, Begin.getRawEncoding()}).second)
    return;
  Region["begin"] = place(Begin);
  Region["callee"] = id(Open.Target);
  Region["name"] = Open.Target->getQualifiedNameAsString();
  Region["virtual"] = Open.Virtual;
  Region["at"] = place(Open.E->getBeginLoc());
  Region["notes"] = notes(Chain);
  Captures.push_back(std::move(Region));
}

void TUFacts::write() {
  const SourceManager &SM = Ctx.getSourceManager();
  json::Array Fns;
  for (const FunctionDecl *F : Order) {
    Function &Fn = *Functions[F];
    if (Fn.Callback.empty() && Fn.Capture.empty() && Fn.Calls.empty())
      continue;
    json::Array Overrides;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(F))
      for (const CXXMethodDecl *O : MD->overridden_methods())
        Overrides.push_back(id(O));
    Fns.push_back(json::Object{{"id", id(F)},
                               {"name", F->getQualifiedNameAsString()},
                               {"at", place(F->getLocation())},
                               {"overrides", std::move(Overrides)},
                               {"callback", std::move(Fn.Callback)},
                               {"capture", std::move(Fn.Capture)},
                               {"calls", std::move(Fn.Calls)}});
  }
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  SmallString<256> File(Main ? Main->getName() : StringRef());
  SM.getFileManager().makeAbsolutePath(File);
  sys::path::remove_dots(File, true);
  json::Object Doc{{"format", "cuda-scope-facts"},
                   {"version", Version},
                   {"file", File.str().str()},
                   {"functions", std::move(Fns)},
                   {"callbacks", std::move(Callbacks)},
                   {"captures", std::move(Captures)}};
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
