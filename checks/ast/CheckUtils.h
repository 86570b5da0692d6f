//===- CheckUtils.h - small helpers the cuda-scope checks share -----------===//
#ifndef CUDA_SCOPE_AST_CHECKUTILS_H
#define CUDA_SCOPE_AST_CHECKUTILS_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_scope {

/// The value of an integer constant expression, if it is one.
std::optional<int64_t> constantInt(const clang::Expr *E, const clang::ASTContext &Ctx);
/// The value of a condition the compiler folds (a template argument's trait,
/// a constant's comparison): the IR keeps only the arm it takes, and a rule
/// reading the AST prunes the other one as well.
std::optional<bool> foldedCondition(const clang::Expr *Cond, const clang::ASTContext &Ctx);

/// Strips what wraps an expression without changing its value or object:
/// parentheses, implicit casts, temporaries and cleanups.
const clang::Expr *stripWrappers(const clang::Expr *E);
/// \p E with parentheses, implicit casts and explicit casts that name the
/// same memory as another type stripped: (vec3 &)node, reinterpret_cast<
/// int4 &>(x), (const T &)v. An access through it is an access of what the
/// operand names.
const clang::Expr *sameMemory(const clang::Expr *E);

/// The name of \p D when it is an identifier; empty for operators and the like.
llvm::StringRef identifierOf(const clang::NamedDecl *D);

/// "ns::Class::f" for \p D: without inline or anonymous namespaces and
/// without template arguments, as users write names in options.
std::string plainQualifiedName(const clang::NamedDecl *D);

/// "A::f", "f", or a prefix ending in '*' ("engine::launch*", "thrust::*")
/// against a declaration's name.
bool matchesFunctionName(const clang::NamedDecl *D, llvm::StringRef Pattern);

/// True when \p P is a function name that matchesFunctionName accepts.
bool isFunctionPattern(llvm::StringRef P);

/// A boolean option's value, in the spellings clang-tidy accepts (true,
/// false, 1, 0, on, off); none for anything else.
std::optional<bool> parseBoolOption(llvm::StringRef Value);

/// The message of an option value that is not one of \p Expected ("'evidence'
/// or 'wide'"), with %0 the value and %1 the check, for configurationDiag.
std::string invalidOptionMessage(llvm::StringRef Option, llvm::StringRef Expected);

/// Splits a ';'-separated option value, dropping blanks around items.
std::vector<std::string> splitList(llvm::StringRef Value);

/// Parses "name:index;name:index". Entries that do not parse are returned in
/// \p Bad so the check can report them.
std::vector<std::pair<std::string, unsigned>> parseNameIndexList(llvm::StringRef Value,
                                                                 std::vector<std::string> &Bad);

} // namespace cuda_scope

#endif
