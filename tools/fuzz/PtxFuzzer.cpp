//===- PtxFuzzer.cpp - libFuzzer target for the inline-PTX parser ---------===//
// The PTX parser reads asm text from any source file it is pointed at, so it must
// accept every byte string without crashing and keep its own invariants.
// USAGE: scripts/fuzz.sh [SECONDS]   (builds with clang++-22 -fsanitize=fuzzer,address,undefined)
#include "model/Ptx.h"
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  for (const cuda_scope::PtxInstr &I : cuda_scope::parsePtx(Text)) {
    if (I.Mnemonic.empty() || I.Opcode.empty())
      abort();
    if (I.AddressOperand && *I.AddressOperand >= I.Operands.size())
      abort();
    if (I.isMemoryAccess() && I.What != cuda_scope::PtxInstr::Load && I.What != cuda_scope::PtxInstr::Store &&
        !I.ScopeQual)
      abort(); // atom and red always have a scope (.gpu by default)
    (void)I.addressOperandNumber();
    (void)cuda_scope::ptxKindName(I.What);
  }
  return 0;
}
