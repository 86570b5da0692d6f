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
#ifndef CUDA_SCOPE_AST_KERNELLAUNCHES_H
#define CUDA_SCOPE_AST_KERNELLAUNCHES_H

#include "model/CudaApi.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class FileManager;
class FunctionDecl;
} // namespace clang

namespace cuda_scope {

/// Whether a launch's grid is one block: <<<1, N>>>, <<<dim3(1), N>>>,
/// <<<dim3(1, 1, 1), N>>>.
bool isOneBlockGrid(const clang::Expr *Grid, const clang::ASTContext &Ctx);

class KernelLaunches {
public:
  /// One launch the file shows, with how it runs the kernel's blocks.
  struct Site {
    const clang::Expr *E;
    llvm::StringRef How; ///< "<<<...>>>" or the API's name
    LaunchForm Form;
    /// What the grid's size is computed from (gridSizeOf).
    GridSize Grid = GridSize::Unknown;
    std::string GrowsWith; ///< for GridSize::Input: the value, as written
    bool Divides = false;  ///< for GridSize::Input: the grid divides the input among its blocks
  };
  struct Kernel {
    unsigned Launches = 0, OneBlock = 0;
    bool Escapes = false;
    /// Two of its grids may run at once: a launch on a stream picked at run
    /// time from several (streams[i]). Block 0 of one grid is then not the
    /// only block 0, and a block's scope does not hold the others'.
    bool Overlaps = false;
    /// Every launch, <<<...>>> or through an API of CudaApi.def's LAUNCH_API
    /// rows, in the file's order.
    llvm::SmallVector<Site, 1> Sites;
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

/// Where a launch (or any statement a message names) is, as messages and
/// the host facts name it: the file's absolute path, a colon, the line.
std::string launchPlace(llvm::StringRef File, unsigned Line, clang::FileManager &FM);

} // namespace cuda_scope

#endif
