//===- TUFacts.h - what one file tells the analysis of the whole program --===//
//
// The host-API checks see one translation unit. A callback or a capture whose
// path leaves it (a call to a function another file defines, a virtual call
// whose overriders live elsewhere, a callback defined in another file) is
// beyond them. Each file's run writes the part of its call graph such paths
// can take: the functions other files can call, the callbacks registered and
// the calls made during captures, and every function they reach that leads
// to an API call or out of the file, each with its own API calls (in each
// rule's words), its calls inside the file and its calls that leave it. The
// cuda-scope command merges the files of a project and walks the merged
// graph (tools/cuda_scope/facts.py; the format is docs/facts.md). The size is
// linear in the file's call graph: nothing is written per path.
//
// Written only when asked, by the option FactsFile (of either check, or
// global), else by $CUDA_SCOPE_FACTS; the file is written when the last check
// of the translation unit lets go of it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_TUFACTS_H
#define CUDA_SCOPE_HOST_TUFACTS_H

#include "ast/TUCallGraph.h"
#include "TUThreads.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ASTNameGenerator;
class FunctionDecl;
} // namespace clang

namespace cuda_scope {

class TUFacts {
public:
  static constexpr int Version = 3;

  /// The facts of \p Ctx's translation unit, shared by the checks.
  static std::shared_ptr<TUFacts> get(clang::ASTContext &Ctx);

  explicit TUFacts(clang::ASTContext &Ctx);
  ~TUFacts();

  /// Where to write: the first non-empty \p Option a check was configured
  /// with, else $CUDA_SCOPE_FACTS; nothing is collected when neither is set.
  /// \p Pools: the project's functions that run an argument on another
  /// thread (option ThreadFunctions), added to those of every check.
  void configure(llvm::StringRef Option,
                 llvm::ArrayRef<std::pair<std::string, unsigned>> Pools = {});
  bool enabled() const { return !Path.empty(); }

  /// Adds \p Root (and what it reaches that matters) to the graph written,
  /// and the functions other files can call, the first time.
  void include(TUCallGraph &Graph, const clang::FunctionDecl *Root = nullptr);
  /// The functions written so far, in the order they were added.
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const { return Order; }

  /// An API call or launch \p F makes itself that rule \p Rule ("callback",
  /// "capture") reports; \p Event holds the rule's own fields.
  void event(const clang::FunctionDecl *F, llvm::StringRef Rule, clang::SourceLocation At,
             llvm::json::Object Event);
  /// Sets \p Key to \p Value on the calls \p F makes at \p Loc (inside the
  /// file, or out of it): "guarded" (a capture walk does not take them: they
  /// run only when not capturing), or the state a capture walk takes on.
  void markCalls(const clang::FunctionDecl *F, clang::SourceLocation Loc, llvm::StringRef Key,
                 llvm::json::Value Value);

  /// A host callback registered here.
  void callback(const Registration &R);

  /// A call made while the capture begun at \p Begin is open: \p Inside (to
  /// a function this file defines) or \p Open (one that leaves it), with the
  /// capture's side of the rule in \p Region (CaptureFacts).
  void captureCall(clang::SourceLocation Begin, llvm::json::Object Region, const CallEdge *Inside,
                   const CudaEvent *Open);

  /// A capture that \p F begins at \p Begin, whatever it calls: \p Region
  /// holds its side of the rule (CaptureFacts). The other-thread rule needs
  /// every one.
  void region(TUCallGraph &Graph, const clang::FunctionDecl *F, clang::SourceLocation Begin,
              llvm::json::Object Region);

  /// A location as the facts give it: [file, line, column], the file an
  /// index into the file's table of absolute paths; a macro's expansion point.
  llvm::json::Value place(clang::SourceLocation L);
  /// The identity of a function across translation units (its mangled name;
  /// with the file for one of internal linkage).
  std::string id(const clang::FunctionDecl *F);
  /// A kernel's symbol in the device IR (what the IR pass calls it).
  std::string deviceSymbol(const clang::FunctionDecl *F);

private:
  struct Function {
    llvm::json::Array Callback, Capture;
    llvm::json::Array Edges, Calls; ///< inside the file; out of it
    /// The index in Edges / Calls of the calls made at a place.
    llvm::DenseMap<unsigned, llvm::SmallVector<std::pair<bool, unsigned>, 1>> Sites;
  };
  Function *add(TUCallGraph &Graph, const clang::FunctionDecl *F);
  std::string mangledId(const clang::FunctionDecl *F);
  void write();
  /// The locks \p F holds at \p Loc, as the facts give them (none: nothing).
  void addLocks(llvm::json::Object &Site, const clang::FunctionDecl *F, clang::SourceLocation Loc);
  void threads(TUCallGraph &Graph);

  clang::ASTContext &Ctx;
  std::string Path;
  bool Configured = false, Exported = false;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Function>> Functions;
  std::vector<const clang::FunctionDecl *> Order;
  llvm::DenseMap<const clang::FunctionDecl *, std::string> Ids;
  std::unique_ptr<clang::ASTNameGenerator> Names;
  llvm::json::Array Callbacks, Captures, Regions, Threads;
  std::vector<std::pair<std::string, unsigned>> Pools;
  std::unique_ptr<TUThreads> ThreadInfo;
  llvm::DenseSet<unsigned> RegionSites;
  llvm::DenseMap<clang::FileID, unsigned> FileIndex;
  llvm::json::Array Files;
  llvm::DenseSet<std::pair<unsigned, unsigned>> CaptureSites;
};

} // namespace cuda_scope

#endif
