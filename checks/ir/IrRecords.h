//===- IrRecords.h - a module's device operations as the engine's records -===//
//
// The device-IR front end of the memory-model engine (model/Engine.h): every
// kernel's memory operations (DeviceMemoryOps), as MemOps, with program order
// read from each function's control-flow graph (IrOrder) and the place where
// each read's value is tested. Kernels are contexts; each function a kernel
// reaches is a thread of program order under that kernel.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_SCOPE_IR_IRRECORDS_H
#define CUDA_SCOPE_IR_IRRECORDS_H

#include "DeviceMemoryOps.h"
#include "IrOrder.h"
#include "model/Engine.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include <memory>

namespace cuda_scope {

class IrRecords : public ProgramOrder {
public:
  /// \p OneBlock: the kernels every launch of which runs one block (the
  /// host's launches, which the device IR does not show).
  /// \p Overlaps: the kernels two grids of which may run at once, whose
  /// "block 0" is one block of each grid.
  explicit IrRecords(const llvm::Module &M, const llvm::StringSet<> &OneBlock = {},
                     const llvm::StringSet<> &Overlaps = {});
  ~IrRecords() override;

  llvm::ArrayRef<MemOp> ops() const { return Ops; }
  const IROp &irOp(unsigned I) const { return IROps[I]; }
  /// The kernel operation \p I runs under.
  const llvm::Function *kernelOf(unsigned I) const { return Kernels[Ops[I].Context]; }
  llvm::ArrayRef<const llvm::Function *> kernels() const { return Kernels; }

  bool mayPrecede(unsigned A, unsigned B) const override;
  bool afterTest(unsigned A, unsigned B) const override;
  bool alwaysBefore(unsigned A, unsigned B) const override;
  bool inCommonLoop(unsigned A, unsigned B) const override;
  bool blocksApart(unsigned A, unsigned B) const override;
  bool inSpinLoop(unsigned A, unsigned B) const override;

private:
  const FunctionOrder &orderOf(const llvm::Function *F) const;
  /// Where \p Op's value is tested, and how; \p Others collects its other
  /// tests (IROp::OtherTests).
  std::pair<const llvm::Instruction *, ValueTest>
  testedAt(unsigned First, unsigned Last, const IROp &Op, bool *AgainstGrid, bool *GoalVaries, bool *GoalIsGrid,
           llvm::SmallVectorImpl<const llvm::Instruction *> *Others = nullptr) const;
  /// \p Guard, or, where its one effect is to set a relay, the relay's test.
  const llvm::Instruction *throughSetter(unsigned First, unsigned Last, const llvm::Instruction *Guard,
                                         bool *AgainstGrid, bool *GoalVaries, bool *GoalIsGrid) const;

  std::vector<IROp> IROps;
  std::vector<MemOp> Ops;
  std::vector<const llvm::Function *> Kernels;
  mutable llvm::DenseMap<const llvm::Function *, std::unique_ptr<FunctionOrder>> Orders;
};

/// The rule's name: "cuda-scope-mismatch".
llvm::StringRef checkName(Finding::Kind K);

} // namespace cuda_scope

#endif
