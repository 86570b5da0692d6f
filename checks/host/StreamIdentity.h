//===- StreamIdentity.h - which stream an expression names ----*- C++ -*-===//
//
// The capture analysis compares streams: the stream a capture begins on with
// the one it ends on, the captured stream with the one a call synchronizes.
// Two expressions name one stream when they name the same variable through
// the same member chain (streamKey). The TU's stream creations say how each
// stream variable was created (CreatedStreams), which decides what legacy
// work does to its capture (model/Capture.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_HOST_STREAMIDENTITY_H
#define CUDA_SCOPE_HOST_STREAMIDENTITY_H

#include "model/Capture.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Decl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace cuda_scope {

/// Argument \p Index of \p CE, or null (a negative index: none).
const clang::Expr *argOrNull(const clang::CallExpr *CE, int Index);

/// \p E's value when it is an integer constant.
std::optional<int64_t> constantValue(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The variable or field a stream expression names: s, &s, obj.s, s[i].
const clang::Decl *identityDecl(const clang::Expr *E);

/// The stream handle \p A spells as a constant (0, NULL, nullptr, a defaulted
/// argument, cudaStreamLegacy, cudaStreamPerThread), or Other.
StreamHandle streamHandleOf(const clang::Expr *A);

/// A kernel launch <<<...>>> whose stream is the legacy stream.
bool launchIsOnLegacyStream(const clang::Expr *E);

/// The source text of \p E ("the stream" when there is none).
std::string streamText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// A key equal for two expressions that name the same stream: the same
/// variable through the same member chain, or else the same text.
std::string streamKey(const clang::Expr *E, const clang::ASTContext &Ctx);

/// A stream key with a subscript by a local integer (Streams[I]): each pass
/// of a loop over I names another element.
bool indexedByLocal(llvm::StringRef Key);

/// The streams the TU creates (cudaStreamCreate*, cuStreamCreate*), by
/// variable or field, with the flags they are created with.
class CreatedStreams {
public:
  /// Records the creation \p CE (a call to a CreateStream row).
  void add(const clang::CallExpr *CE, const clang::ASTContext &Ctx);
  /// How the stream \p Identity was created; Unknown when the TU does not
  /// show it, or shows it created two ways.
  StreamFlags flagsOf(const clang::Decl *Identity) const;
  /// \p Stream is a local variable of \p F that \p F creates a stream into.
  bool createdIn(const clang::Expr *Stream, const clang::FunctionDecl *F) const;
  void clear() { Flags.clear(); }

private:
  llvm::DenseMap<const clang::Decl *, StreamFlags> Flags;
};

} // namespace cuda_scope

#endif
