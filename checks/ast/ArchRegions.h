//===- ArchRegions.h - code a host compilation sees only for want of __CUDA_ARCH__ ===//
//
// A CUDA file is compiled once for the host and once per GPU architecture.
// On the host side __CUDA_ARCH__ is not defined, so in device code the host
// compiler takes the arm of `#if __CUDA_ARCH__ >= 700 ... #else ... #endif`
// (or `#ifndef __CUDA_ARCH__`) that no GPU of the build may ever run: a
// pre-Volta fallback in a build for sm_90, a host fallback in a __host__
// __device__ function. What a GPU runs is the device side's to read, for each
// architecture the build has. So the host side's device rules leave such arms
// out; its host rules keep them (that code is what the host runs).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_AST_ARCHREGIONS_H
#define CUDA_SCOPE_AST_ARCHREGIONS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <utility>
#include <vector>

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

namespace cuda_scope {

class ArchRegions {
public:
  /// Records, while \p PP preprocesses a host-side CUDA compilation, the arms
  /// it takes of conditionals that test __CUDA_ARCH__. Safe to call from
  /// every check: a translation unit is tracked once.
  static void track(const clang::SourceManager &SM, clang::Preprocessor *PP);
  /// What was recorded for \p SM's translation unit; null where nothing was
  /// tracked (a device-side or non-CUDA compilation).
  static std::shared_ptr<const ArchRegions> of(const clang::SourceManager &SM);

  /// \p Loc (its expansion) lies in an arm the host side took because
  /// __CUDA_ARCH__ is not defined there.
  bool hostOnly(clang::SourceLocation Loc) const;

  /// Arms taken, as [begin, end) offsets per file; filled by the callbacks.
  void add(clang::FileID File, unsigned Begin, unsigned End) { Arms[File].push_back({Begin, End}); }

  explicit ArchRegions(const clang::SourceManager &SM) : SM(SM) {}

private:
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, std::vector<std::pair<unsigned, unsigned>>> Arms;
};

} // namespace cuda_scope

#endif
