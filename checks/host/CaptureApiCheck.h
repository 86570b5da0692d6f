//===- CaptureApiCheck.h - calls that break or escape a stream capture ----===//
#ifndef CUDA_SCOPE_HOST_CAPTUREAPICHECK_H
#define CUDA_SCOPE_HOST_CAPTUREAPICHECK_H

#include "CaptureRegions.h"
#include "StreamIdentity.h"
#include "ast/TUCallGraph.h"
#include "TUFacts.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace cuda_scope {

/// Flags calls that invalidate or silently escape a CUDA stream capture, and unbalanced captures.
/// Documentation: docs/checks/capture-api.md
class CaptureApiCheck : public clang::tidy::ClangTidyCheck {
public:
  CaptureApiCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);
  // Host code that drives CUDA lives in .c and .cpp files too.
  bool isLanguageVersionSupported(const clang::LangOptions &) const override { return true; }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

  /// A call to \p Callee begins a capture: a table row or BeginCaptureFunctions.
  bool beginsCapture(const clang::NamedDecl *Callee) const;
  /// A call to \p Callee creates a stream (table effect CreateStream).
  static bool createsStream(const clang::NamedDecl *Callee);
  /// The declaration that makes \p F capture-safe (the annotated one, or \p F
  /// itself when CaptureSafeFunctions names it), or null.
  /// The capture mode \p F's contract promises safety in: the annotation's
  /// second argument ([[clang::annotate("cuda-scope:capture-safe", "relaxed")]])
  /// or the option entry's (name=relaxed); global by default.
  CaptureMode contractMode(const clang::FunctionDecl *F, const clang::Decl *Contract);
  const clang::Decl *captureSafeDecl(const clang::FunctionDecl *F) const;

private:
  const std::string AllowedFunctionsOption;
  const std::string BeginOption;
  const std::string EndOption;
  const std::string SafeOption;
  const std::string FactsFileOption;
  const std::string ThreadFunctionsOption;
  std::vector<std::pair<std::string, unsigned>> ThreadFunctions;
  llvm::StringSet<> Allowed;
  std::vector<CaptureWrapper> BeginWrappers, EndWrappers;
  /// CaptureSafeFunctions: a name pattern and the mode it promises.
  std::vector<std::pair<std::string, CaptureMode>> SafePatterns;

  std::shared_ptr<TUCallGraph> Graph;
  std::shared_ptr<TUFacts> Facts;
  /// Functions to analyse, in the order the TU holds them: those that begin
  /// a capture and those declared capture-safe.
  std::vector<const clang::FunctionDecl *> Roots;
  llvm::DenseSet<const clang::FunctionDecl *> RootSet;
  llvm::DenseMap<const clang::FunctionDecl *, const clang::Decl *> Contracts;
  llvm::DenseMap<const clang::FunctionDecl *, CaptureMode> ContractModes;
  /// Stream variables and fields the TU creates, with their flags.
  CreatedStreams Created;
};

} // namespace cuda_scope

#endif
