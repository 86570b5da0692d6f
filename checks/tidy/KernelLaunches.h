//===- KernelLaunches.h - how the translation unit launches its kernels ---===//
//
// Every kernel the file launches or names, outside the system headers: how
// many <<<...>>> launches, how many of them run one block, and whether the
// kernel escapes to a launch the file does not show (its address taken,
// cudaLaunchKernel). A kernel every launch of which runs one block, and that
// does not escape, cannot race across blocks. The scope checks read this for
// the file; the whole-program facts write it for the IR pass, which merges
// it over the program (docs/facts.md): one rule, both front ends.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_TIDY_KERNELLAUNCHES_H
#define CUDA_SCOPE_TIDY_KERNELLAUNCHES_H

#include "llvm/ADT/MapVector.h"
#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace cuda_scope {

class KernelLaunches {
public:
  struct Kernel {
    unsigned Launches = 0, OneBlock = 0;
    bool Escapes = false;
    bool runsOneBlock() const { return Launches && OneBlock == Launches && !Escapes; }
  };

  /// The launches of \p Ctx's translation unit, found once and shared.
  static std::shared_ptr<KernelLaunches> get(clang::ASTContext &Ctx);
  explicit KernelLaunches(clang::ASTContext &Ctx);

  /// By canonical declaration, in the order the file names them.
  const llvm::MapVector<const clang::FunctionDecl *, Kernel> &kernels();
  /// The kernel's launches in the file, or none.
  Kernel of(const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  std::unique_ptr<llvm::MapVector<const clang::FunctionDecl *, Kernel>> Found;
};

} // namespace cuda_scope

#endif
