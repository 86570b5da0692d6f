//===- TUFacts.h - what one file tells the analysis of the whole program --===//
//
// The host-API checks see one translation unit. A callback or a capture whose
// path leaves it (a call to a function another file defines, a virtual call
// whose overriders live elsewhere, a callback defined in another file) is
// beyond them. Each check writes here what it knows of such paths, in its own
// words; the cuda-scope command merges the files of a project and follows the
// paths across them (tools/cuda_scope/facts.py; the format: docs/facts.md).
//
// Written only when asked, by the option FactsFile (of either check, or
// global), else by $CUDA_SCOPE_FACTS; the file is written when the last check
// of the translation unit lets go of it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_TIDY_TUFACTS_H
#define CUDA_SCOPE_TIDY_TUFACTS_H

#include "TUCallGraph.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace cuda_scope {

class TUFacts {
public:
  static constexpr int Version = 1;

  /// The facts of \p Ctx's translation unit, shared by the checks.
  static std::shared_ptr<TUFacts> get(clang::ASTContext &Ctx);

  explicit TUFacts(clang::ASTContext &Ctx);
  ~TUFacts();

  /// Where to write: the first non-empty \p Option a check was configured
  /// with, else $CUDA_SCOPE_FACTS; nothing is collected when neither is set.
  void configure(llvm::StringRef Option);
  bool enabled() const { return !Path.empty(); }

  /// The functions defined here that other files can reach: externally
  /// visible ones and virtual overriders, outside system headers.
  const std::vector<const clang::FunctionDecl *> &exported();

  using Notes = std::vector<std::pair<clang::SourceLocation, std::string>>;

  /// Something \p F does, reachable in this TU, that rule \p Rule
  /// ("callback", "capture") reports; \p Event holds the rule's own fields.
  void event(const clang::FunctionDecl *F, llvm::StringRef Rule, clang::SourceLocation At,
             llvm::json::Object Event, const Notes &Chain);

  /// The calls reachable from \p F that leave this TU, once per function.
  void openCalls(TUCallGraph &Graph, const clang::FunctionDecl *F);

  /// A host callback registered here.
  void callback(const Registration &R);

  /// A call made while the capture begun at \p Begin is open whose callee
  /// leaves this TU; \p Region holds the capture's stream, mode and flags.
  void captureCall(clang::SourceLocation Begin, llvm::json::Object Region, const CudaEvent &Open,
                   const Notes &Chain);

  /// A location as the facts give it: {"file", "line", "column"}, the file
  /// absolute; a macro's expansion point.
  llvm::json::Value place(clang::SourceLocation L) const;
  /// The identity of a function across translation units (its mangled name;
  /// with the file for one of internal linkage).
  std::string id(const clang::FunctionDecl *F);

private:
  struct Function {
    llvm::json::Array Callback, Capture, Calls;
    llvm::DenseSet<const clang::Expr *> CallSites;
    bool CallsDone = false;
  };
  Function &function(const clang::FunctionDecl *F);
  llvm::json::Array notes(const Notes &Chain) const;
  void write();

  clang::ASTContext &Ctx;
  std::string Path;
  bool Configured = false;
  std::unique_ptr<std::vector<const clang::FunctionDecl *>> Exported;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Function>> Functions;
  std::vector<const clang::FunctionDecl *> Order;
  llvm::json::Array Callbacks, Captures;
  llvm::DenseSet<std::pair<const void *, unsigned>> CaptureSites;
};

} // namespace cuda_scope

#endif
