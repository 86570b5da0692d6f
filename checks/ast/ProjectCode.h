//===- ProjectCode.h - walk the project's code, not the toolkit's ----------===//
//
// The toolkit's and the standard library's headers are most of a CUDA file's
// AST (CCCL's templates and their instantiations). The checks judge the
// project's code: what a library's own functions do is the library's (a
// library launches its own kernels, starts its own threads, registers its
// own callbacks), and its template instantiations with the project's types
// are the library's code too. The device side's IR pass sees what is
// inlined from them, where that matters.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_AST_PROJECTCODE_H
#define CUDA_SCOPE_AST_PROJECTCODE_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace cuda_scope {

/// A RecursiveASTVisitor that does not enter declarations written in system
/// headers (namespaces and linkage specifications aside, which hold the
/// project's declarations too).
template <typename Derived> class ProjectCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
public:
  explicit ProjectCodeVisitor(const clang::SourceManager &SM) : SM(SM) {}
  bool TraverseDecl(clang::Decl *D) {
    if (D && !llvm::isa<clang::TranslationUnitDecl, clang::NamespaceDecl, clang::LinkageSpecDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return clang::RecursiveASTVisitor<Derived>::TraverseDecl(D);
  }

protected:
  const clang::SourceManager &SM;
};

} // namespace cuda_scope

#endif
