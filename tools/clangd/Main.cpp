//===- Main.cpp - clangd with the cuda-scope-* clang-tidy checks built in -===//
// USAGE: cuda-scope-clangd [clangd options]   (an editor starts it; docs/tools.md, "Editors")
// The checks come in through plugin/TidyModule.cpp, linked into this executable: its
// ClangTidyModuleRegistry entry makes cuda-scope-* known to clangd's clang-tidy. A .clangd file
// enables them (Diagnostics: ClangTidy: Add: [cuda-scope-*], FastCheckFilter: None).
#include <cstring>
#include <vector>

namespace clang {
namespace clangd {
// Defined in Debian's libclangdMain.a; no installed header declares it.
int clangdMain(int argc, char *argv[]);
} // namespace clangd
} // namespace clang

int main(int argc, char *argv[]) {
  // clangd looks for clang's headers relative to its own executable, which is not in the LLVM
  // tree; default to the resource directory of the clang we were configured with.
  bool HasResourceDir = false;
  for (int I = 1; I < argc; ++I)
    if (std::strncmp(argv[I], "--resource-dir", 14) == 0 ||
        std::strncmp(argv[I], "-resource-dir", 13) == 0)
      HasResourceDir = true;
  std::vector<char *> Args(argv, argv + argc);
  static char ResourceDir[] = "--resource-dir=" CUDA_SCOPE_CLANG_RESOURCE_DIR;
  if (!HasResourceDir)
    Args.insert(Args.begin() + 1, ResourceDir);
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1, Args.data());
}
