//===- ModelTest.cpp - unit tests of checks/model: scopes, orders, API, PTX ===//
#include "model/CudaApi.h"
#include "model/Engine.h"
#include "model/Hierarchy.h"
#include "model/MemoryModel.h"
#include "model/Ptx.h"
#include "gtest/gtest.h"

using namespace cuda_scope;

TEST(Scope, EverySpellingOfOneScopeAgrees) {
  // Block scope, as each layer of CUDA writes it.
  EXPECT_EQ(scopeFromLibcuName("cuda::thread_scope_block"), Scope::Block);
  EXPECT_EQ(scopeFromLibcuValue(2), Scope::Block);
  EXPECT_EQ(parseDeviceBuiltin("atomicAdd_block")->S, Scope::Block);
  EXPECT_EQ(parseDeviceBuiltin("__threadfence_block")->S, Scope::Block);
  EXPECT_EQ(scopeFromPtxQualifier(".cta"), Scope::Block);
  EXPECT_EQ(scopeFromSyncScope("block"), Scope::Block);
  EXPECT_EQ(scopeFromNvAtomicValue(1), Scope::Block);
  EXPECT_EQ(scopeFromClangMemoryScope(2), Scope::Block);
  EXPECT_EQ(scopeFromEnumeratorName("__MEMORY_SCOPE_WRKGRP"), Scope::Block);

  // Device scope.
  EXPECT_EQ(scopeFromLibcuName("thread_scope_device"), Scope::Device);
  EXPECT_EQ(scopeFromLibcuValue(1), Scope::Device);
  EXPECT_EQ(parseDeviceBuiltin("atomicAdd")->S, Scope::Device);
  EXPECT_EQ(parseDeviceBuiltin("__threadfence")->S, Scope::Device);
  EXPECT_EQ(scopeFromPtxQualifier("gpu"), Scope::Device);
  EXPECT_EQ(scopeFromPtxQualifier("gl"), Scope::Device); // membar.gl
  EXPECT_EQ(scopeFromSyncScope("device"), Scope::Device);
  EXPECT_EQ(scopeFromNvAtomicValue(3), Scope::Device);
  EXPECT_EQ(scopeFromClangMemoryScope(1), Scope::Device);

  // System scope: libcu++'s default and LLVM's unnamed syncscope.
  EXPECT_EQ(scopeFromLibcuValue(0), Scope::System);
  EXPECT_EQ(parseDeviceBuiltin("atomicCAS_system")->S, Scope::System);
  EXPECT_EQ(scopeFromPtxQualifier("sys"), Scope::System);
  EXPECT_EQ(scopeFromSyncScope(""), Scope::System);

  EXPECT_EQ(scopeFromPtxQualifier("cluster"), Scope::Cluster);
  EXPECT_EQ(scopeFromSyncScope("cluster"), Scope::Cluster);
  EXPECT_EQ(scopeFromSyncScope("singlethread"), Scope::Thread);
}

TEST(Scope, UnknownSpellingsAreRejected) {
  EXPECT_FALSE(scopeFromLibcuName("thread_scope_galaxy"));
  EXPECT_FALSE(scopeFromPtxQualifier("b32"));
  EXPECT_FALSE(scopeFromPtxQualifier(""));
  EXPECT_FALSE(scopeFromSyncScope("agent"));
  EXPECT_FALSE(scopeFromLibcuValue(7));
  EXPECT_FALSE(parseDeviceBuiltin("atomicFoo"));
  EXPECT_FALSE(parseDeviceBuiltin("__threadfence_galaxy"));
  EXPECT_FALSE(parseDeviceBuiltin("printf"));
}

TEST(Scope, LatticeIsOrderedNarrowestFirst) {
  EXPECT_TRUE(includes(Scope::Device, Scope::Block));
  EXPECT_TRUE(includes(Scope::System, Scope::Device));
  EXPECT_TRUE(includes(Scope::Block, Scope::Block));
  EXPECT_FALSE(includes(Scope::Block, Scope::Device));
  EXPECT_FALSE(includes(Scope::Cluster, Scope::Device));
  EXPECT_EQ(libcuName(Scope::Cluster), "thread_scope_cluster");
  EXPECT_EQ(ptxQualifier(Scope::Device), "gpu");
  EXPECT_EQ(shortName(Scope::Block), "block");
}

TEST(Order, EverySpellingAgrees) {
  EXPECT_EQ(orderFromName("cuda::std::memory_order_acquire"), Order::Acquire);
  EXPECT_EQ(orderFromName("memory_order_release"), Order::Release);
  EXPECT_EQ(orderFromName("__ATOMIC_ACQ_REL"), Order::AcqRel);
  EXPECT_EQ(orderFromName("__NV_ATOMIC_RELAXED"), Order::Relaxed);
  EXPECT_EQ(orderFromName("sc"), Order::SeqCst);
  EXPECT_EQ(orderFromC11Value(2), Order::Acquire);
  EXPECT_FALSE(orderFromC11Value(9));
  EXPECT_FALSE(orderFromName("memory_order_sometimes"));
  EXPECT_TRUE(hasRelease(Order::AcqRel));
  EXPECT_FALSE(hasAcquire(Order::Release));
}

TEST(DeviceBuiltin, KindsAndOperations) {
  auto B = parseDeviceBuiltin("atomicExch_block");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->What, DeviceBuiltin::AtomicExchange);
  EXPECT_EQ(B->Operation, "atomicExch");
  EXPECT_EQ(parseDeviceBuiltin("__syncthreads")->What, DeviceBuiltin::BlockBarrier);
  EXPECT_EQ(parseDeviceBuiltin("__threadfence_system")->What, DeviceBuiltin::Fence);
}

TEST(CudaApi, TableLookups) {
  const CudaApiInfo *Malloc = lookupCudaApi("cudaMalloc");
  ASSERT_NE(Malloc, nullptr);
  EXPECT_EQ(Malloc->Capture, CaptureEffect::UnsafeInCapture);
  EXPECT_EQ(lookupCudaApi("cudaMemcpy")->Capture, CaptureEffect::LegacyWork);
  EXPECT_EQ(lookupCudaApi("cudaMemcpyAsync")->StreamArg, 4);
  EXPECT_EQ(lookupCudaApi("cudaLaunchHostFunc")->CallbackArg, 1);
  EXPECT_EQ(lookupCudaApi("cudaUserObjectCreate")->CallbackArg, 2);
  EXPECT_EQ(lookupCudaApi("cudaGraphAddHostNode")->Callback, CallbackForm::HostNodeParams);
  EXPECT_EQ(lookupCudaApi("cudaStreamBeginCaptureToGraph")->ModeArg, 5);
  EXPECT_EQ(lookupCudaApi("cudaEventQuery")->Capture, CaptureEffect::Sync);
  EXPECT_EQ(lookupCudaApi("cudaStreamAddCallback")->Capture, CaptureEffect::Unsupported);
  EXPECT_EQ(lookupCudaApi("somethingElse"), nullptr);
  // A device-wide synchronize breaks another thread's capture too.
  EXPECT_EQ(lookupCudaApi("cudaDeviceSynchronize")->Capture, CaptureEffect::DeviceSync);
  EXPECT_EQ(lookupCudaApi("cudaStreamSynchronize")->Capture, CaptureEffect::Sync);
}

TEST(CudaApi, LibraryHandles) {
  // The headers call cublasCreate cublasCreate_v2; the table lists the name users write.
  EXPECT_EQ(lookupCudaApi("cublasCreate_v2")->Family, ApiFamily::Library);
  EXPECT_EQ(lookupCudaApi("cublasCreate_v2")->Capture, CaptureEffect::UnsafeInCapture);
  EXPECT_EQ(lookupCudaApi("cublasDestroy_v2")->Capture, CaptureEffect::DeviceSync);
  EXPECT_EQ(lookupCudaApi("cusparseDestroy")->Capture, CaptureEffect::Neutral);
  EXPECT_TRUE(isCudaCallName("cufftPlan1d"));
  EXPECT_TRUE(isCudaCallName("cudaFoo"));
  EXPECT_FALSE(isCudaCallName("cublasUnknownThing")) << "not spelled like the CUDA API, not listed";
  EXPECT_FALSE(looksLikeCudaApiName("cublasCreate"));
}

TEST(CudaApi, VersionedNamesNormalize) {
  EXPECT_EQ(normalizeApiName("cuMemAlloc_v2"), "cuMemAlloc");
  EXPECT_EQ(normalizeApiName("cudaMemcpy_ptds"), "cudaMemcpy");
  EXPECT_EQ(normalizeApiName("cuMemcpyHtoDAsync_v2_ptsz"), "cuMemcpyHtoDAsync");
  EXPECT_EQ(lookupCudaApi("cuStreamBeginCapture_v2")->Capture, CaptureEffect::BeginCapture);
  EXPECT_EQ(lookupCudaApi("cuMemAlloc_v2")->Capture, CaptureEffect::UnsafeInCapture);
}

TEST(CudaApi, NamesThatLookLikeTheApi) {
  EXPECT_TRUE(looksLikeCudaApiName("cudaFree"));
  EXPECT_TRUE(looksLikeCudaApiName("cuStreamWaitEvent"));
  EXPECT_FALSE(looksLikeCudaApiName("cuda"));
  EXPECT_FALSE(looksLikeCudaApiName("cudaify"));
  EXPECT_FALSE(looksLikeCudaApiName("cublasSgemm"));
  EXPECT_FALSE(looksLikeCudaApiName("curry"));
  EXPECT_FALSE(looksLikeCudaApiName("__cudaPushCallConfiguration"));
}

TEST(Hierarchy, LaunchApisSayHowBlocksRun) {
  ASSERT_NE(lookupLaunchApi("cudaLaunchKernel"), nullptr);
  EXPECT_EQ(lookupLaunchApi("cudaLaunchKernel")->Form, LaunchForm::Plain);
  EXPECT_EQ(lookupLaunchApi("cudaLaunchKernel")->KernelArg, 0);
  EXPECT_EQ(lookupLaunchApi("cudaLaunchCooperativeKernel")->Form, LaunchForm::Cooperative);
  EXPECT_EQ(lookupLaunchApi("cudaLaunchCooperativeKernel_ptsz")->Form, LaunchForm::Cooperative);
  EXPECT_EQ(lookupLaunchApi("cuLaunchCooperativeKernel")->Form, LaunchForm::Cooperative);
  EXPECT_EQ(lookupLaunchApi("cudaLaunchKernelEx")->Form, LaunchForm::Attributes);
  EXPECT_EQ(lookupLaunchApi("cudaMemcpyAsync"), nullptr);
  // The launch table leaves the capture table whole.
  ASSERT_NE(lookupCudaApi("cudaLaunchCooperativeKernel"), nullptr);
  EXPECT_EQ(lookupCudaApi("cudaLaunchCooperativeKernel")->Capture, CaptureEffect::StreamOrdered);
}

TEST(Hierarchy, GridSyncNeedsEveryLaunchCooperative) {
  KernelLaunch Triple{std::string(TripleChevronLaunch), "a.cu:3", LaunchForm::Plain, GridSize::Unknown, ""};
  KernelLaunch Coop{"cudaLaunchCooperativeKernel", "a.cu:4", LaunchForm::Cooperative, GridSize::Unknown, ""};
  KernelLaunch Ex{"cudaLaunchKernelEx", "a.cu:5", LaunchForm::Attributes, GridSize::Unknown, ""};
  EXPECT_EQ(launchWithoutCooperation({}), std::nullopt);
  EXPECT_EQ(launchWithoutCooperation({Coop}), std::nullopt);
  EXPECT_EQ(launchWithoutCooperation({Ex}), std::nullopt); // the attributes decide; not read
  EXPECT_EQ(launchWithoutCooperation({Coop, Triple}), 1u);
  std::string M = gridSyncMessage("step", gridBarrierName(Scope::Device), Triple);
  EXPECT_NE(M.find("kernel 'step' synchronizes its whole grid here (grid_group::sync())"), std::string::npos);
  EXPECT_NE(M.find("launched with <<<...>>> at a.cu:3"), std::string::npos);
  EXPECT_NE(M.find("cudaErrorLaunchFailure"), std::string::npos);
  EXPECT_EQ(gridBarrierName(Scope::System), "multi_grid_group::sync()");
}

TEST(Hierarchy, WhatVariesWithinABlock) {
  for (const char *Name : {"threadIdx", "__nvvm_read_ptx_sreg_tid_x", "llvm.nvvm.read.ptx.sreg.tid.y",
                           "llvm.nvvm.read.ptx.sreg.laneid", "__shfl_sync", "__shfl_down_sync", "__ballot_sync",
                           "llvm.nvvm.shfl.sync.down.i32", "llvm.nvvm.vote.ballot.sync", "clock64"})
    EXPECT_TRUE(blockVaryingSource(Name).has_value()) << Name;
  for (const char *Name : {"blockIdx", "blockDim", "gridDim", "llvm.nvvm.read.ptx.sreg.ctaid.x",
                           "llvm.nvvm.read.ptx.sreg.ntid.x", "__syncthreads", "clockwise", "threadIdxCopy"})
    EXPECT_FALSE(blockVaryingSource(Name).has_value()) << Name;
  EXPECT_TRUE(blockVaryingAsm("mov.u32 %0, %laneid;").has_value());
  EXPECT_FALSE(blockVaryingAsm("mov.u32 %0, %ctaid.x;").has_value());
  EXPECT_TRUE(isWholeBlockBarrierAsm("bar.sync 0;"));
  EXPECT_TRUE(isWholeBlockBarrierAsm("barrier.sync.aligned 0;"));
  EXPECT_FALSE(isWholeBlockBarrierAsm("bar.sync 1, 64;"));
  EXPECT_FALSE(isWholeBlockBarrierAsm("barrier.cluster.arrive;"));
  EXPECT_NE(divergentBarrierMessage(true, "a.cu:3").find("(__syncthreads_count/_and/_or) is reached under a "
                                                         "condition at a.cu:3"),
            std::string::npos);
}

TEST(MemoryModel, WhichArithmeticKeepsBlocksApart) {
  // out[b + k], out[b * n], out[b << 2] are one element per block; out[b % n], out[b / n],
  // out[b & 3], out[b >> 1] are shared by several blocks.
  for (Arith A : {Arith::Add, Arith::Sub, Arith::Mul, Arith::Shl, Arith::DisjointOr})
    EXPECT_TRUE(keepsIndicesApart(A));
  for (Arith A : {Arith::Div, Arith::Rem, Arith::And, Arith::Or, Arith::Xor, Arith::Shr, Arith::Other})
    EXPECT_FALSE(keepsIndicesApart(A));
}

TEST(MemoryModel, IndexFactsCombineOnceForBothFrontEnds) {
  IndexDeps Block, Thread, Read;
  Block.Block = true;
  Thread.Thread = true;
  Read.Read = true;
  // blockIdx.x * n + threadIdx.x: the thread's own element.
  IndexDeps Own = combineIndex(Arith::Add, combineIndex(Arith::Mul, Block, IndexDeps(), std::nullopt), Thread,
                               std::nullopt);
  EXPECT_TRUE(Own.Block && Own.Thread && !Own.Read);
  // blockIdx.x % n: blocks b and b + n meet.
  EXPECT_FALSE(combineIndex(Arith::Rem, Block, IndexDeps(), 64).Block);
  // threadIdx.x / 32 and threadIdx.x >> 5: the thread's warp; / 16 is not.
  EXPECT_TRUE(combineIndex(Arith::Div, Thread, IndexDeps(), 32).Warp);
  EXPECT_TRUE(combineIndex(Arith::Shr, Thread, IndexDeps(), 5).Warp);
  EXPECT_FALSE(combineIndex(Arith::Div, Thread, IndexDeps(), 16).Warp);
  EXPECT_FALSE(combineIndex(Arith::Div, Block, IndexDeps(), 32).Warp);
  // slot & (size - 1) keeps nothing apart, and still varies with the slot.
  IndexDeps Masked = combineIndex(Arith::And, Read, IndexDeps(), 1023);
  EXPECT_TRUE(Masked.Read && !Masked.Block);
  // A worklist's item read at the thread's own element is the thread's own.
  IndexDeps Item = loadedIndex(Own);
  EXPECT_TRUE(Item.Block && Item.Thread && Item.Read);
  // threadIdx.x % 32, the lane: it keeps no two warps apart, yet a warp's
  // threads compute different values, so an address made of it is not the
  // same for every thread (MemOp::FixedAddress).
  IndexDeps Tid = Thread;
  Tid.Varies = true;
  IndexDeps Lane = combineIndex(Arith::Rem, Tid, IndexDeps(), 32);
  EXPECT_TRUE(!Lane.Thread && Lane.Varies);
  EXPECT_TRUE(combineIndex(Arith::And, Tid, IndexDeps(), 31).Varies);
  EXPECT_TRUE(loadedIndex(Lane).Varies);
  EXPECT_FALSE(combineIndex(Arith::Rem, Read, IndexDeps(), 32).Varies);
}

TEST(MemoryModel, TheGridsWarpsAndTheRangesTheyOwn) {
  IndexDeps Block, Thread, Grid, None;
  Block.Block = Block.Varies = true;
  Thread.Thread = Thread.Varies = Thread.ThreadVaries = true;
  Grid.Grid = true;
  // (threadIdx.x + blockIdx.x * 256) / 32: the warp's index in the grid,
  // whichever side the constant is written on.
  IndexDeps Scaled = combineIndex(Arith::Mul, Block, None, 256);
  EXPECT_TRUE(Scaled.InWarps);
  EXPECT_TRUE(combineIndex(Arith::Mul, None, Block, std::nullopt, 256).InWarps);
  IndexDeps GridWarp = combineIndex(Arith::Div, combineIndex(Arith::Add, Thread, Scaled, std::nullopt), None, 32);
  EXPECT_TRUE(GridWarp.Block && GridWarp.Warp && !GridWarp.Thread);
  // ... and through a shift, with the block's size as the pitch.
  IndexDeps ByDim = combineIndex(Arith::Mul, Block, blockSizeIndex(), std::nullopt);
  EXPECT_TRUE(combineIndex(Arith::Shr, combineIndex(Arith::Add, ByDim, Thread, std::nullopt), None, 5).Block);
  // (threadIdx.x + blockIdx.x * 48) / 32: blocks 0 and 1 share a quotient.
  IndexDeps Straddles =
      combineIndex(Arith::Div, combineIndex(Arith::Add, Thread, combineIndex(Arith::Mul, Block, None, 48), std::nullopt),
                   None, 32);
  EXPECT_TRUE(Straddles.Warp && !Straddles.Block);
  // (threadIdx.x + blockIdx.x) / 32, blockIdx.x / 32: no pitch of whole warps.
  EXPECT_FALSE(combineIndex(Arith::Div, combineIndex(Arith::Add, Thread, Block, std::nullopt), None, 32).Block);
  EXPECT_FALSE(combineIndex(Arith::Div, Block, None, 32).Block);
  // blockIdx.x << 8 is whole warps; (gridDim.x * 256) / 32 steps over the grid's warps.
  EXPECT_TRUE(combineIndex(Arith::Shl, Block, None, 8).InWarps);
  EXPECT_TRUE(combineIndex(Arith::Div, combineIndex(Arith::Mul, Grid, None, 256), None, 32).Grid);
  EXPECT_FALSE(combineIndex(Arith::Div, Grid, None, 32).Grid);
  // A grid-stride loop from the warp's index is the warp's own; from the lane's, nobody's.
  std::optional<IndexDeps> WarpStride = strideIndex(GridWarp);
  ASSERT_TRUE(WarpStride);
  EXPECT_TRUE(WarpStride->Block && WarpStride->Warp && !WarpStride->Thread);
  EXPECT_FALSE(strideIndex(combineIndex(Arith::Rem, Thread, None, 32)));
  // -O2's (gridDim.x << 3) & 0x7fffff8, and a source's x & 0xffffff, clear only bits above the
  // 24th: the value itself for an index below 2^24; x & 0xffff is a remainder.
  EXPECT_TRUE(truncatesOnlyHighBits(~uint64_t(0x7fffff8) & ~uint64_t(7) & 0xffffffffu));
  EXPECT_TRUE(truncatesOnlyHighBits(~uint64_t(0xffffff) & 0xffffffffu));
  EXPECT_FALSE(truncatesOnlyHighBits(~uint64_t(0xffff) & 0xffffffffu));
  EXPECT_TRUE(combineIndex(Arith::Truncate, Block, None, 0xffffff).Block);
  // A value read from memory is no whole number of warps, whatever its address.
  EXPECT_FALSE(loadedIndex(Scaled).InWarps);
  // for (e = rowStart[v] + lane; e < rowStart[v + 1]; e += 32): the warp's row.
  IndexDeps Item = loadedIndex(GridWarp);
  IndexDeps Lane = combineIndex(Arith::Rem, Thread, None, 32);
  std::optional<IndexDeps> Row =
      rangeIndex(combineIndex(Arith::Add, loadedIndex(Item), Lane, std::nullopt), None, loadedIndex(Item));
  ASSERT_TRUE(Row);
  EXPECT_TRUE(Row->Block && Row->Warp && Row->InRange);
  // What the row holds (an edge's other end) is no item of the warp's.
  IndexDeps Neighbour = loadedIndex(*Row);
  EXPECT_TRUE(Neighbour.Read && !Neighbour.Block && !Neighbour.Warp);
  // Bounded by what nobody owns (a kernel's n), or stepped by the thread's index: no range.
  EXPECT_FALSE(rangeIndex(Item, None, None));
  EXPECT_FALSE(rangeIndex(Item, Thread, Item));
}

TEST(Hierarchy, WarpSynchronousCalls) {
  EXPECT_EQ(warpSyncCall("__shfl_down_sync")->Name, "__shfl_down_sync");
  EXPECT_EQ(warpSyncCall("llvm.nvvm.shfl.sync.down.i32")->Name, "__shfl_down_sync");
  EXPECT_EQ(warpSyncCall("llvm.nvvm.shfl.sync.bfly.f32")->Name, "__shfl_xor_sync");
  EXPECT_EQ(warpSyncCall("llvm.nvvm.vote.ballot.sync")->Name, "__ballot_sync");
  EXPECT_EQ(warpSyncCall("llvm.nvvm.bar.warp.sync")->Name, "__syncwarp");
  EXPECT_EQ(warpSyncCall("llvm.nvvm.redux.sync.umax")->Name, "__reduce_max_sync");
  EXPECT_EQ(warpSyncCall("llvm.nvvm.redux.sync.umax")->MaskArg, 1u);
  EXPECT_EQ(warpSyncCall("__shfl_down"), std::nullopt); // pre-Volta: no mask
  EXPECT_EQ(warpSyncCall("__syncthreads"), std::nullopt);
  EXPECT_TRUE(sameAcrossWarp("__ballot_sync"));
  EXPECT_TRUE(sameAcrossWarp("llvm.nvvm.vote.any.sync"));
  EXPECT_FALSE(sameAcrossWarp("__shfl_sync"));
  EXPECT_FALSE(sameAcrossWarp("threadIdx"));
  EXPECT_TRUE(sameAcrossBlock("__syncthreads_or"));
  EXPECT_TRUE(sameAcrossBlock("llvm.nvvm.barrier.cta.red.popc.aligned.all"));
  EXPECT_FALSE(sameAcrossBlock("__syncthreads"));
  EXPECT_FALSE(sameAcrossBlock("__ballot_sync"));
  // A tile's collectives are the warp-synchronous calls they make.
  EXPECT_EQ(tileCollective("shfl_xor"), llvm::StringRef("__shfl_xor_sync"));
  EXPECT_EQ(tileCollective("any"), llvm::StringRef("__ballot_sync"));
  EXPECT_EQ(tileCollective("sync"), llvm::StringRef("__syncwarp"));
  EXPECT_EQ(tileCollective("thread_rank"), std::nullopt);
}

/// An index's term as a front end reads it: scaled where its text multiplies.
static IndexTerm Term(std::string Text, IndexDeps D, bool Alike, bool Negated = false) {
  IndexTerm T;
  T.Text = std::move(Text);
  T.Deps = D;
  T.BlockUniform = Alike;
  T.Negated = Negated;
  T.Scaled = T.Text.find('*') != std::string::npos;
  return T;
}

TEST(MemoryModel, ABlocksRegionIsItsAlikeTerms) {
  IndexDeps Block, Thread, None;
  Block.Block = true;
  Thread.Thread = true;
  // base + pitch * b + t and base + pitch * b + slot (an atomic's result): one region.
  std::string Read = blockPart({Term("base", None, true), Term("pitch*b", Block, true), Term("t", Thread, false)});
  std::string Write = blockPart({Term("slot", None, false), Term("pitch*b", Block, true), Term("base", None, true)});
  EXPECT_FALSE(Read.empty());
  EXPECT_EQ(Read, Write);
  // A neighbour's region (+ pitch), or the last block's (- 1), is another.
  EXPECT_NE(Read, blockPart({Term("base", None, true), Term("pitch*b", Block, true), Term("pitch", None, true),
                             Term("t", Thread, false)}));
  EXPECT_NE(blockPart({Term("pitch*b", Block, true)}),
            blockPart({Term("pitch*b", Block, true), Term("1", None, true, true)}));
  // An unscaled block index (a[b + t]) overlaps the next block's window: no region.
  EXPECT_TRUE(blockPart({Term("b", Block, true), Term("t", Thread, false)}).empty());
  // No term reads the block's index: no region.
  EXPECT_TRUE(blockPart({Term("base", None, true), Term("t", Thread, false)}).empty());

  // A constant added to the column is the column's where the pitch is a value (slot - 128), or
  // where it is below a constant pitch; a whole constant pitch is the neighbour's region.
  auto Constant = [&](int64_t C) {
    IndexTerm T = Term(std::to_string(std::abs(C)), None, true, C < 0);
    T.Constant = C;
    return T;
  };
  auto Factor = [&](std::string Text, int64_t F) {
    IndexTerm T = Term(std::move(Text), Block, true);
    T.Factor = F;
    return T;
  };
  EXPECT_EQ(Write, blockPart({Term("slot", None, false), Constant(-128), Term("pitch*b", Block, true),
                              Term("base", None, true)}));
  std::string Row = blockPart({Factor("256*b", 256), Term("t", Thread, false)});
  EXPECT_EQ(Row, blockPart({Factor("256*b", 256), Constant(3), Term("t", Thread, false)}));
  EXPECT_NE(Row, blockPart({Factor("256*b", 256), Constant(256), Term("t", Thread, false)}));
  // With no column, a constant is a place of its own: the word before the region.
  EXPECT_NE(blockPart({Term("pitch*b", Block, true)}), blockPart({Term("pitch*b", Block, true), Constant(-1)}));
}

TEST(MemoryModel, AnIndexFromARowsBoundsStaysInTheRow) {
  using K = RowTermKind;
  RowTerm Start{K::Start, "X[v]"}, End{K::End, "X[v]"}, Lane{K::Column, ""}, One{K::Column, "", true};
  RowTerm Cursor{K::Cursor, "X[v]"}, Other{K::Other, ""};
  EXPECT_EQ(rowOf({Start, Lane}), "X[v]");            // rowStart[v] + lane
  EXPECT_EQ(rowOf({End, One}), "X[v]");               // rowStart[v + 1] - 1: the row's last element
  EXPECT_EQ(rowOf({End, Lane}), std::nullopt);        // rowStart[v + 1] + lane: the next row's
  EXPECT_EQ(rowOf({Cursor, One, Lane}), "X[v]");      // rp - below
  EXPECT_EQ(rowOf({Start, Other}), std::nullopt);     // what reads another owner moves anywhere
  EXPECT_EQ(rowOf({Start, Cursor}), std::nullopt);    // two bounds: no row
  EXPECT_EQ(rowOf({RowTerm{K::Start, "X[v]", true}, Lane}), std::nullopt); // lane - rowStart[v]
  EXPECT_EQ(rowOf({Lane}), std::nullopt);
  RowTerm LessStart{K::Start, "X[v]", true};
  EXPECT_EQ(rowOf({Start, End, LessStart, One}), "X[v]"); // beg + (end - beg) - 1
  EXPECT_EQ(rowOf({Start, End, LessStart}), std::nullopt); // beg + (end - beg): the next row's start
  EXPECT_TRUE(rowColumn({End, LessStart}));            // end - beg: the row's length
  EXPECT_TRUE(rowColumn({Lane, One}));
  EXPECT_FALSE(rowColumn({End, One}));                 // end - 1: a place in the row
  EXPECT_FALSE(rowColumn({End, LessStart, Other}));
  EXPECT_TRUE(rowColumn({Cursor, LessStart}));         // a cursor less the start: its offset
  EXPECT_FALSE(rowColumn({Cursor, RowTerm{K::Start, "X[w]", true}}));
  using V = CursorValueKind;
  CursorValue InRow{V::Row, "X[v]"}, Self{V::Self, ""}, None{V::Sentinel, ""}, Elsewhere{V::Row, "X[w]"};
  EXPECT_EQ(rowCursor({InRow, Self}, true), "X[v]");  // read = beg + 32; read = max(read, lp)
  EXPECT_EQ(rowCursor({None, InRow}, true), "X[v]");  // found = -1; found = j
  EXPECT_EQ(rowCursor({InRow}, false), std::nullopt); // lp += other[k]: a step that reads an owner
  EXPECT_EQ(rowCursor({InRow, Elsewhere}, true), std::nullopt);
  EXPECT_EQ(rowCursor({None, Self}, true), std::nullopt); // never in a row
  EXPECT_EQ(rowCursor({InRow, CursorValue{}}, true), std::nullopt);
  IndexDeps Warp, Thread;
  Warp.Warp = true;
  Thread.Thread = true;
  EXPECT_TRUE(shuffleKeepsRow(Warp));
  EXPECT_FALSE(shuffleKeepsRow(Thread));
  EXPECT_TRUE(picksAnOperand("max"));
  EXPECT_TRUE(picksAnOperand("std::min"));
  EXPECT_TRUE(picksAnOperand("llvm.smax.i32"));
  EXPECT_FALSE(picksAnOperand("maxof"));
}

TEST(MemoryModel, AWordPastEveryShareIsNoBlocksShare) {
  IndexDeps Block, Thread, None;
  Block.Block = true;
  Thread.Thread = true;
  auto Share = [&](std::string Extent) {
    IndexTerm T = Term("b*(" + Extent + "/grid)", Block, true);
    T.ShareOf = std::move(Extent);
    return T;
  };
  auto Bag = [&](std::string Extent) {
    IndexTerm T = Term("(" + Extent + "/grid/3)*(v%3)", None, true);
    T.BagOf = std::move(Extent);
    return T;
  };
  auto Positive = [&](std::string Text) {
    IndexTerm T = Term(std::move(Text), None, true);
    T.NonNegative = true;
    return T;
  };
  // base + b * (size / grid) + bag + t, and base + size + e (e not negative): apart.
  std::vector<IndexTerm> Read{Term("base", None, true), Share("size"), Bag("size"), Term("t", Thread, false)};
  std::vector<IndexTerm> Stats{Term("base", None, true), Term("size", None, true), Positive("e")};
  EXPECT_TRUE(pastEveryShare(Read, Stats));
  EXPECT_FALSE(pastEveryShare(Stats, Read)); // the statistics' index has no share
  // The base both have alike may sit anywhere in either; constants are the column's.
  IndexTerm Minus = Term("4", None, true, true);
  Minus.Constant = -4;
  EXPECT_TRUE(pastEveryShare({Share("size"), Term("t", Thread, false), Minus, Term("base", None, true)},
                             {Positive("e"), Term("size", None, true), Term("base", None, true)}));
  // Taken away from the past index (base + size - e), or of a sign not known: inside a share.
  EXPECT_FALSE(pastEveryShare(Read, {Term("base", None, true), Term("size", None, true), Term("e", None, true, true)}));
  EXPECT_FALSE(pastEveryShare(Read, {Term("base", None, true), Term("size", None, true), Term("e", None, true)}));
  // Another extent, or a base the past index lacks: no answer.
  EXPECT_FALSE(pastEveryShare(Read, {Term("base", None, true), Term("other", None, true), Positive("e")}));
  EXPECT_FALSE(pastEveryShare(Read, {Term("size", None, true), Positive("e")}));
  // An alike term of the share that is no bag (a bag nothing bounds), or two bags: no answer.
  EXPECT_FALSE(pastEveryShare({Term("base", None, true), Share("size"), Term("(size/grid/3)*v", None, true)}, Stats));
  EXPECT_FALSE(pastEveryShare({Term("base", None, true), Share("size"), Bag("size"), Bag("size")}, Stats));
  // A share of a split the host chose (no ShareOf): no answer.
  EXPECT_FALSE(pastEveryShare({Term("base", None, true), Term("b*(size/parts)", Block, true)}, Stats));
}

TEST(Hierarchy, ABlockStridesRoundIsTheBlocks) {
  using F = StrideForm;
  // threadIdx.x + k * blockDim.x (k >= 0) by blockDim.x or a whole positive number of it.
  EXPECT_EQ(strideSum(F::ThreadPlusBlocks, F::BlockSizes), F::ThreadPlusBlocks);
  EXPECT_EQ(strideSum(F::BlockSizes, F::BlockSizes), F::BlockSizes);
  EXPECT_EQ(strideScaled(F::BlockSizes, 4), F::BlockSizes);
  EXPECT_TRUE(strideRoundAlike(strideSum(F::ThreadPlusBlocks, strideScaled(F::BlockSizes, 2)), F::BlockSizes));
  // Twice the thread's index, a negative or unknown multiple, or a divisor that is no block size: no.
  EXPECT_EQ(strideSum(F::ThreadPlusBlocks, F::ThreadPlusBlocks), F::Other);
  EXPECT_EQ(strideScaled(F::BlockSizes, -1), F::Other);
  EXPECT_EQ(strideScaled(F::BlockSizes, std::nullopt), F::Other);
  EXPECT_EQ(strideScaled(F::ThreadPlusBlocks, 2), F::Other);
  EXPECT_FALSE(strideRoundAlike(F::ThreadPlusBlocks, F::Other));
  EXPECT_FALSE(strideRoundAlike(F::BlockSizes, F::BlockSizes));
}

TEST(Hierarchy, IndexLessItsLaneBitsIsTheWarps) {
  // t - (t & 31), t - (t & 63), t - t % 32, t - t % 64: a warp's (or a larger aligned group's)
  // first thread, the same for every lane.
  EXPECT_TRUE(isLaneBitsMask(31));
  EXPECT_TRUE(isLaneBitsMask(63));
  EXPECT_TRUE(isLaneBitsDivisor(32));
  EXPECT_TRUE(isLaneBitsDivisor(96));
  // t - (t & 15), t - t % 16: the two halves of a warp differ. A mask that is not the low bits
  // (t & 32) keeps lane bits in what is left.
  EXPECT_FALSE(isLaneBitsMask(15));
  EXPECT_FALSE(isLaneBitsMask(32));
  EXPECT_FALSE(isLaneBitsMask(0));
  EXPECT_FALSE(isLaneBitsDivisor(16));
  EXPECT_FALSE(isLaneBitsDivisor(0));
}

TEST(Hierarchy, WhichLaneAShuffleReads) {
  const unsigned Warp = shuffleClamp(ShuffleMode::Down, 32), Half = shuffleClamp(ShuffleMode::Down, 16);
  EXPECT_EQ(Warp, 0x1fu);
  EXPECT_EQ(Half, 0x101fu);
  EXPECT_EQ(shuffleClamp(ShuffleMode::Up, 16), 0x1000u);
  // Down by 8: lane 8 reads lane 16 across the warp, keeps its own in a segment of 16.
  EXPECT_EQ(shuffleSource(ShuffleMode::Down, 8, 8, Warp), 16u);
  EXPECT_EQ(shuffleSource(ShuffleMode::Down, 8, 8, Half), std::nullopt);
  EXPECT_EQ(shuffleSource(ShuffleMode::Down, 24, 8, Warp), std::nullopt); // past lane 31: its own
  // Up: below the segment's first lane, a lane keeps its own.
  EXPECT_EQ(shuffleSource(ShuffleMode::Up, 16, 1, shuffleClamp(ShuffleMode::Up, 32)), 15u);
  EXPECT_EQ(shuffleSource(ShuffleMode::Up, 16, 1, shuffleClamp(ShuffleMode::Up, 16)), std::nullopt);
  EXPECT_EQ(shuffleSource(ShuffleMode::Up, 0, 1, shuffleClamp(ShuffleMode::Up, 32)), std::nullopt);
  // Index: the lane within the lane's own segment.
  EXPECT_EQ(shuffleSource(ShuffleMode::Idx, 20, 3, shuffleClamp(ShuffleMode::Idx, 16)), 19u);
  EXPECT_EQ(shuffleSource(ShuffleMode::Idx, 20, 3, shuffleClamp(ShuffleMode::Idx, 32)), 3u);
  EXPECT_EQ(shuffleSource(ShuffleMode::Bfly, 5, 16, Warp), 21u);
  // The rule: the first lane of the mask whose source the mask leaves out.
  std::optional<ShuffleOutsideMask> R = shuffleReadsOutsideMask(ShuffleMode::Down, 0xffffu, 8, Warp);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Lane, 8u);
  EXPECT_EQ(R->Source, 16u);
  EXPECT_FALSE(shuffleReadsOutsideMask(ShuffleMode::Down, 0xffffu, 8, Half));
  EXPECT_FALSE(shuffleReadsOutsideMask(ShuffleMode::Down, 0xffffffffu, 8, Warp));
  EXPECT_FALSE(shuffleReadsOutsideMask(ShuffleMode::Idx, 0xffff0000u, 0, shuffleClamp(ShuffleMode::Idx, 16)));
  R = shuffleReadsOutsideMask(ShuffleMode::Idx, 0xfu, 4, Warp);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Lane, 0u);
  EXPECT_EQ(R->Source, 4u);
  EXPECT_EQ(shuffleMode("__shfl_xor_sync"), ShuffleMode::Bfly);
  EXPECT_EQ(shuffleMode("__ballot_sync"), std::nullopt);
  EXPECT_NE(shuffleSourceMessage("__shfl_down_sync", 0xffffu, *shuffleReadsOutsideMask(ShuffleMode::Down, 0xffffu, 8,
                                                                                       Warp))
                .find("for lane 8, lane 16, which its mask (0x0000ffff)"),
            std::string::npos);
}

TEST(Ptx, LibcuxxStoreAndLoad) {
  auto Is = parsePtx("st.release.cta.b32 [$0],$1;");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].What, PtxInstr::Store);
  EXPECT_EQ(Is[0].Sem, Order::Release);
  EXPECT_EQ(Is[0].ScopeQual, Scope::Block);
  EXPECT_EQ(Is[0].addressOperandNumber(), 0u);

  Is = parsePtx("ld.acquire.gpu.global.b32 %0, [%1+8];");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].What, PtxInstr::Load);
  EXPECT_EQ(Is[0].Sem, Order::Acquire);
  EXPECT_EQ(Is[0].ScopeQual, Scope::Device);
  EXPECT_EQ(Is[0].Space, MemorySpace::Global);
  EXPECT_EQ(Is[0].addressOperandNumber(), 1u);
}

TEST(Ptx, ValueOperandOfUpdates) {
  // The operand after the address, for atom and red only: what the update applies.
  auto Is = parsePtx("atom.add.relaxed.gpu.u32 %0,[%1],%2; red.release.gpu.global.add.u32 [$0], $1; "
                     "st.relaxed.gpu.b32 [%0], %1; atom.cas.b32 %0,[%1],%2,%3;");
  ASSERT_EQ(Is.size(), 4u);
  EXPECT_EQ(Is[0].valueOperandNumber(), 2u);
  EXPECT_EQ(Is[1].valueOperandNumber(), 1u);
  EXPECT_FALSE(Is[2].valueOperandNumber());
  EXPECT_EQ(Is[3].valueOperandNumber(), 2u);
  // An immediate names no operand.
  Is = parsePtx("atom.add.u32 %0,[%1],0;");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_FALSE(Is[0].valueOperandNumber());
}

TEST(Ptx, AtomDefaultsToRelaxedGpu) {
  auto Is = parsePtx("atom.add.s32 $0,[$1],$2;");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].What, PtxInstr::Atomic);
  EXPECT_EQ(Is[0].Sem, Order::Relaxed);
  EXPECT_EQ(Is[0].ScopeQual, Scope::Device);
  Is = parsePtx("red.release.sys.global.add.u32 [%0], 1;");
  EXPECT_EQ(Is[0].What, PtxInstr::Reduction);
  EXPECT_EQ(Is[0].ScopeQual, Scope::System);
}

TEST(Ptx, MultimemAccesses) {
  // The multicast forms access every device's copy: a load, a store and a
  // reduction, weak unless a semantics is written; red is relaxed .gpu.
  auto Is = parsePtx("multimem.ld_reduce.global.add.f32 %0, [%1];"
                     "multimem.ld_reduce.acquire.sys.global.add.u32 %0, [%1];"
                     "multimem.st.global.v4.f32 [%0], {%1,%2,%3,%4};"
                     "multimem.st.release.gpu.global.b32 [%0], %1;"
                     "multimem.red.release.sys.global.add.u32 [%0], 1;"
                     "multimem.red.global.add.u32 [%0], %1;");
  ASSERT_EQ(Is.size(), 6u);
  EXPECT_EQ(Is[0].What, PtxInstr::Load);
  EXPECT_EQ(Is[0].Sem, Order::Plain);
  EXPECT_FALSE(Is[0].ScopeQual);
  EXPECT_EQ(Is[0].addressOperandNumber(), 1u);
  EXPECT_EQ(Is[1].Sem, Order::Acquire);
  EXPECT_EQ(Is[1].ScopeQual, Scope::System);
  EXPECT_EQ(Is[2].What, PtxInstr::Store);
  EXPECT_EQ(Is[2].Sem, Order::Plain);
  EXPECT_EQ(Is[2].addressOperandNumber(), 0u);
  EXPECT_EQ(Is[3].Sem, Order::Release);
  EXPECT_EQ(Is[3].ScopeQual, Scope::Device);
  EXPECT_EQ(Is[4].What, PtxInstr::Reduction);
  EXPECT_EQ(Is[4].Sem, Order::Release);
  EXPECT_EQ(Is[4].ScopeQual, Scope::System);
  EXPECT_EQ(Is[4].addressOperandNumber(), 0u);
  EXPECT_EQ(Is[5].Sem, Order::Relaxed);
  EXPECT_EQ(Is[5].ScopeQual, Scope::Device);
  EXPECT_EQ(Is[5].valueOperandNumber(), 1u);
  // Every one reaches every GPU's copy.
  EXPECT_TRUE(llvm::all_of(Is, [](const PtxInstr &I) { return I.Multicast; }));
  EXPECT_FALSE(parsePtx("red.release.sys.global.add.u32 [%0], 1;")[0].Multicast);
  // Not an access: no kind.
  Is = parsePtx("multimem.cp.async.bulk.global.shared::cta [%0], [%1], %2;");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].What, PtxInstr::Other);
}

TEST(Model, PeerAddressesByFunction) {
  // A peer's slot of a window and the multicast address are other GPUs'
  // memory; the window's local slot is this GPU's.
  for (const char *F : {"ncclGetLsaPointer", "ncclGetPeerPointer", "ncclGetLsaMultimemPointer",
                        "ncclGetMultimemPointer", "ncclGetResourceBufferPeerPointer", "nvshmem_ptr"})
    EXPECT_TRUE(returnsPeerAddress(F)) << F;
  for (const char *F : {"ncclGetLocalPointer", "ncclGetResourceBufferLocalPointer", "lsaPtr", "malloc"})
    EXPECT_FALSE(returnsPeerAddress(F)) << F;
}

TEST(Model, PeerTransfersByFunction) {
  // ncclGin's methods and the C API's functions are transfers by contract;
  // its waits, reads of its own signals and flush are the kernel's code.
  EXPECT_EQ(peerTransferOf("ncclGin_BackendMask::put"), PeerTransfer::Put);
  EXPECT_EQ(peerTransferOf("ncclGin_BackendMask::putValue"), PeerTransfer::Put);
  EXPECT_EQ(peerTransferOf("ncclGin_BackendMask::get"), PeerTransfer::Get);
  EXPECT_EQ(peerTransferOf("ncclGin_BackendMask::signal"), PeerTransfer::Signal);
  EXPECT_EQ(peerTransferOf("ncclGinPut"), PeerTransfer::Put);
  EXPECT_EQ(peerTransferOf("ncclGinPutValue_v2"), PeerTransfer::Put);
  EXPECT_EQ(peerTransferOf("ncclGinSignal_v2"), PeerTransfer::Signal);
  EXPECT_EQ(peerTransferOf("ncclGinGet"), PeerTransfer::Get);
  for (const char *F : {"ncclGin_BackendMask::waitSignal", "ncclGin_BackendMask::flush", "ncclGin_BackendMask::readSignal",
                        "ncclGinWaitSignal", "ncclGinFlush", "put", "signal", "nccl::proxy::put", "ncclGin_BackendMask::put2"})
    EXPECT_EQ(peerTransferOf(F), PeerTransfer::None) << F;
  // A put is a plain write and a get a plain read, as the NIC makes them; a
  // signal a release at system scope.
  EXPECT_EQ(transferOp(PeerTransfer::Put).What, OpKind::Store);
  EXPECT_EQ(transferOp(PeerTransfer::Put).Ord, Order::Plain);
  EXPECT_EQ(transferOp(PeerTransfer::Get).What, OpKind::Load);
  EXPECT_EQ(transferOp(PeerTransfer::Signal).What, OpKind::RMW);
  EXPECT_EQ(transferOp(PeerTransfer::Signal).Ord, Order::Release);
  EXPECT_EQ(transferOp(PeerTransfer::Signal).S, Scope::System);
  EXPECT_EQ(transferName("ncclGin_BackendMask::put"), "ncclGin::put");
  EXPECT_EQ(transferName("ncclGinPut"), "ncclGinPut");
}

TEST(Ptx, VolatileIsRelaxedSystem) {
  auto Is = parsePtx("ld.volatile.global.u32 %0, [%1];");
  EXPECT_EQ(Is[0].Sem, Order::Volatile);
  EXPECT_EQ(Is[0].ScopeQual, Scope::System);
  Is = parsePtx("ld.global.u32 %0, [%1];");
  EXPECT_EQ(Is[0].Sem, Order::Plain);
  EXPECT_FALSE(Is[0].ScopeQual);
}

TEST(Ptx, FencesAndBarriers) {
  auto Is = parsePtx("fence.acq_rel.gpu; membar.cta; fence.sc.sys; fence.cta;");
  ASSERT_EQ(Is.size(), 4u);
  EXPECT_EQ(Is[0].Sem, Order::AcqRel);
  EXPECT_EQ(Is[0].ScopeQual, Scope::Device);
  EXPECT_EQ(Is[1].Sem, Order::SeqCst);
  EXPECT_EQ(Is[1].ScopeQual, Scope::Block);
  EXPECT_EQ(Is[2].ScopeQual, Scope::System);
  EXPECT_EQ(Is[3].Sem, Order::AcqRel);

  Is = parsePtx("barrier.cluster.arrive.relaxed.aligned;\n barrier.cluster.wait;\nbar.sync 0;");
  ASSERT_EQ(Is.size(), 3u);
  EXPECT_EQ(Is[0].What, PtxInstr::ClusterArrive);
  EXPECT_EQ(Is[0].Sem, Order::Relaxed);
  EXPECT_EQ(Is[1].What, PtxInstr::ClusterWait);
  EXPECT_EQ(Is[2].What, PtxInstr::BlockBarrier);
}

TEST(Ptx, MBarrierArriveAndWait) {
  // An mbarrier's arrive releases and its test_wait/try_wait acquires, at .cta
  // scope unless a scope is written; .relaxed orders nothing. The forms that
  // only set the barrier up or count bytes order nothing and have no kind.
  auto Is = parsePtx("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
                     "mbarrier.test_wait.shared.b64 p, [%1], %2;"
                     "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;"
                     "mbarrier.arrive.relaxed.cta.shared::cta.b64 %0, [%1];"
                     "mbarrier.arrive_drop.shared.b64 _, [%0];"
                     "mbarrier.init.shared.b64 [%0], %1;"
                     "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;");
  ASSERT_EQ(Is.size(), 8u);
  EXPECT_EQ(Is[0].What, PtxInstr::MBarrier);
  EXPECT_EQ(Is[0].Sem, Order::Release);
  EXPECT_EQ(Is[0].ScopeQual, Scope::Block);
  EXPECT_EQ(Is[0].Space, MemorySpace::Shared);
  EXPECT_EQ(Is[0].addressOperandNumber(), 1u);
  EXPECT_EQ(opKindOf(Is[0]), OpKind::BlockBarrier);
  EXPECT_EQ(Is[1].Sem, Order::Acquire);
  EXPECT_EQ(Is[1].ScopeQual, Scope::Block);
  EXPECT_EQ(opKindOf(Is[1]), OpKind::BlockBarrier);
  EXPECT_EQ(Is[2].Sem, Order::Acquire);
  EXPECT_EQ(Is[3].Sem, Order::Release);
  EXPECT_EQ(Is[3].ScopeQual, Scope::Cluster);
  EXPECT_EQ(Is[4].Sem, Order::Relaxed);
  EXPECT_EQ(Is[5].Sem, Order::Release);
  EXPECT_EQ(Is[6].Sem, Order::Plain);
  EXPECT_FALSE(opKindOf(Is[6]));
  EXPECT_FALSE(opKindOf(Is[7]));
}

TEST(Ptx, AsyncProxy) {
  auto Is = parsePtx("fence.proxy.async.shared::cta;\n"
                     "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                     "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;");
  ASSERT_EQ(Is.size(), 4u);
  EXPECT_EQ(Is[0].What, PtxInstr::ProxyFence);
  EXPECT_EQ(Is[0].Proxy, "async.shared::cta");
  EXPECT_EQ(Is[1].What, PtxInstr::BulkCopy);
  EXPECT_EQ(Is[1].Destination, MemorySpace::Global);
  EXPECT_EQ(Is[1].Source, MemorySpace::Shared);
  EXPECT_EQ(Is[2].What, PtxInstr::BulkGroup);
  EXPECT_EQ(Is[3].What, PtxInstr::BulkGroup);
  Is = parsePtx("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;");
  EXPECT_EQ(Is[0].What, PtxInstr::BulkCopy);
  EXPECT_EQ(Is[0].Source, MemorySpace::Shared);
}

TEST(Ptx, BlocksPredicatesLabelsComments) {
  auto Is = parsePtx("{\n .reg .pred p; // a predicate\n"
                     "LAB_WAIT: ld.acquire.gpu.b32 %0, [%1];\n"
                     "  @!p bra LAB_WAIT; /* spin */\n}");
  ASSERT_EQ(Is.size(), 2u);
  EXPECT_EQ(Is[0].What, PtxInstr::Load);
  EXPECT_EQ(Is[1].Opcode, "bra");
  EXPECT_TRUE(Is[1].Predicated);
  EXPECT_EQ(Is[1].What, PtxInstr::Other);
}

TEST(Ptx, GarbageYieldsNothingAndNeverCrashes) {
  EXPECT_TRUE(parsePtx("").empty());
  EXPECT_TRUE(parsePtx(";;;{}").empty());
  EXPECT_TRUE(parsePtx("   \n\t").empty());
  for (const char *Bad : {"st.", "ld [", "@", "@p", "[%", "fence.", "cp.async.bulk", "%9999999999999"})
    (void)parsePtx(Bad);
  auto Is = parsePtx("ld.acquire.gpu.b32 %0, [%");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_FALSE(Is[0].addressOperandNumber());
}

TEST(DeviceBuiltin, NameAtAnotherScope) {
  EXPECT_EQ(deviceBuiltinName("atomicAdd", Scope::Device), "atomicAdd");
  EXPECT_EQ(deviceBuiltinName("atomicCAS", Scope::System), "atomicCAS_system");
  EXPECT_EQ(deviceBuiltinName("atomicExch", Scope::Block), "atomicExch_block");
  EXPECT_FALSE(deviceBuiltinName("atomicAdd", Scope::Thread));
  EXPECT_FALSE(deviceBuiltinName("atomicAdd", Scope::Cluster));
  // The name round-trips through the parser.
  EXPECT_EQ(parseDeviceBuiltin(*deviceBuiltinName("atomicMax", Scope::System))->S, Scope::System);
}

TEST(BlockIndex, Spellings) {
  EXPECT_TRUE(isBlockIndexName("blockIdx"));
  EXPECT_TRUE(isBlockIndexName("__nvvm_read_ptx_sreg_ctaid_y"));
  EXPECT_FALSE(isBlockIndexName("threadIdx"));
  EXPECT_FALSE(isBlockIndexName("__nvvm_read_ptx_sreg_tid_x"));
}

TEST(SyncType, LibcuAndStandardTypes) {
  auto Ref = parseSyncType("cuda::atomic_ref");
  ASSERT_TRUE(Ref);
  EXPECT_EQ(Ref->What, SyncType::AtomicRef);
  EXPECT_EQ(Ref->ScopeArg, 1);
  EXPECT_EQ(parseSyncType("cuda::atomic")->ScopeArg, 1);
  EXPECT_EQ(parseSyncType("cuda::barrier")->What, SyncType::Barrier);
  EXPECT_EQ(parseSyncType("cuda::barrier")->ScopeArg, 0);
  EXPECT_EQ(parseSyncType("cuda::latch")->ScopeArg, 0);
  // cuda::std:: and std:: are system scope.
  EXPECT_EQ(parseSyncType("cuda::std::atomic_ref")->ScopeArg, -1);
  EXPECT_EQ(parseSyncType("std::atomic")->ScopeArg, -1);
  EXPECT_EQ(parseSyncType("cuda::std::barrier")->ScopeArg, -1);
  EXPECT_EQ(parseSyncType("cuda::std::__latch_base")->What, SyncType::Latch);
  EXPECT_EQ(parseSyncType("cuda::std::__latch_base")->ScopeArg, 0);
  EXPECT_FALSE(parseSyncType("atomic_ref"));
  EXPECT_FALSE(parseSyncType("cuda::atomic_flag"));
  EXPECT_FALSE(parseSyncType("boost::atomic"));
}

TEST(SyncType, Members) {
  EXPECT_EQ(parseSyncMember(SyncType::AtomicRef, "load")->What, OpKind::Load);
  EXPECT_EQ(parseSyncMember(SyncType::AtomicRef, "operator T")->What, OpKind::Load);
  EXPECT_EQ(parseSyncMember(SyncType::Atomic, "operator=")->What, OpKind::Store);
  EXPECT_EQ(parseSyncMember(SyncType::Atomic, "fetch_max")->What, OpKind::RMW);
  EXPECT_EQ(parseSyncMember(SyncType::AtomicRef, "compare_exchange_strong")->What, OpKind::RMW);
  EXPECT_EQ(parseSyncMember(SyncType::Atomic, "operator++")->What, OpKind::RMW);
  EXPECT_EQ(parseSyncMember(SyncType::AtomicRef, "store")->DefaultOrder, Order::SeqCst);
  EXPECT_FALSE(parseSyncMember(SyncType::AtomicRef, "notify_all"));
  EXPECT_FALSE(parseSyncMember(SyncType::Atomic, "is_lock_free"));
  EXPECT_EQ(parseSyncMember(SyncType::Barrier, "arrive")->DefaultOrder, Order::Release);
  EXPECT_EQ(parseSyncMember(SyncType::Barrier, "wait")->DefaultOrder, Order::Acquire);
  EXPECT_EQ(parseSyncMember(SyncType::Barrier, "arrive_and_wait")->What, OpKind::BlockBarrier);
  EXPECT_EQ(parseSyncMember(SyncType::Latch, "count_down")->DefaultOrder, Order::Release);
  EXPECT_FALSE(parseSyncMember(SyncType::Barrier, "max"));
}

TEST(SyncType, FenceFunctions) {
  EXPECT_EQ(parseFenceFunction("cuda::atomic_thread_fence")->ScopeArg, 1);
  EXPECT_EQ(parseFenceFunction("cuda::std::atomic_thread_fence")->ScopeArg, -1);
  EXPECT_EQ(parseFenceFunction("std::atomic_thread_fence")->OrderArg, 0);
  EXPECT_FALSE(parseFenceFunction("cuda::atomic_signal_fence"));
}

TEST(ScopedAtomicBuiltin, ArgumentPositions) {
  auto Add = parseScopedAtomicBuiltin("__nv_atomic_fetch_add");
  ASSERT_TRUE(Add);
  EXPECT_EQ(Add->What, OpKind::RMW);
  EXPECT_EQ(Add->From, ScopedAtomicBuiltin::Nv);
  EXPECT_EQ(Add->OrderArg, 2);
  EXPECT_EQ(Add->ScopeArg, 3);
  EXPECT_EQ(parseScopedAtomicBuiltin("__nv_atomic_add")->What, OpKind::RMW);
  EXPECT_EQ(parseScopedAtomicBuiltin("__nv_atomic_load_n")->ScopeArg, 2);
  EXPECT_EQ(parseScopedAtomicBuiltin("__nv_atomic_compare_exchange")->ScopeArg, 6);
  EXPECT_EQ(parseScopedAtomicBuiltin("__nv_atomic_thread_fence")->What, OpKind::Fence);
  auto Clang = parseScopedAtomicBuiltin("__scoped_atomic_store_n");
  ASSERT_TRUE(Clang);
  EXPECT_EQ(Clang->From, ScopedAtomicBuiltin::Clang);
  EXPECT_EQ(Clang->What, OpKind::Store);
  EXPECT_EQ(parseScopedAtomicBuiltin("__scoped_atomic_add_fetch")->What, OpKind::RMW);
  EXPECT_FALSE(parseScopedAtomicBuiltin("__scoped_atomic_frobnicate"));
  EXPECT_FALSE(parseScopedAtomicBuiltin("__atomic_fetch_add"));
  EXPECT_EQ(scopeFromBuiltinValue(ScopedAtomicBuiltin::Nv, 1), Scope::Block);
  EXPECT_EQ(scopeFromBuiltinValue(ScopedAtomicBuiltin::Clang, 2), Scope::Block);
  EXPECT_EQ(scopeFromBuiltinValue(ScopedAtomicBuiltin::Nv, 4), Scope::System);
}

TEST(Allocation, WhatEachAllocatorReturns) {
  EXPECT_EQ(allocationByApi("cudaMalloc"), Allocation::Device);
  EXPECT_EQ(allocationByApi("cuMemAlloc_v2"), Allocation::Device);
  EXPECT_EQ(allocationByApi("cudaMallocManaged"), Allocation::Managed);
  EXPECT_EQ(allocationByApi("cuMemAllocManaged"), Allocation::Managed);
  EXPECT_EQ(allocationByApi("cudaMallocHost"), Allocation::MappedHost);
  EXPECT_EQ(allocationByApi("cudaHostAlloc"), Allocation::MappedHost);
  EXPECT_FALSE(allocationByApi("cudaFree"));
  EXPECT_FALSE(allocationByApi("malloc"));
}

TEST(Model, WhichBlockAComparisonPins) {
  // blockIdx.x == 3 holds in block 3 alone; != 3 fails there alone.
  EXPECT_EQ(blockPinnedBy(IndexCompare::EQ, 3, true), 3);
  EXPECT_FALSE(blockPinnedBy(IndexCompare::EQ, 3, false));
  EXPECT_EQ(blockPinnedBy(IndexCompare::NE, 3, false), 3);
  EXPECT_FALSE(blockPinnedBy(IndexCompare::NE, 3, true));
  // Ranges from 0: one block when the range is {0}.
  EXPECT_EQ(blockPinnedBy(IndexCompare::LT, 1, true), 0);
  EXPECT_FALSE(blockPinnedBy(IndexCompare::LT, 2, true));
  EXPECT_EQ(blockPinnedBy(IndexCompare::LE, 0, true), 0);
  EXPECT_EQ(blockPinnedBy(IndexCompare::GT, 0, false), 0);
  EXPECT_FALSE(blockPinnedBy(IndexCompare::GT, 0, true));
  EXPECT_EQ(blockPinnedBy(IndexCompare::GE, 1, false), 0);
  EXPECT_FALSE(blockPinnedBy(IndexCompare::GE, 1, true));
  // Written the other way round: 0 < blockIdx.x is blockIdx.x > 0.
  EXPECT_EQ(blockPinnedBy(swapped(IndexCompare::LT), 0, false), 0);
  EXPECT_EQ(swapped(IndexCompare::GE), IndexCompare::LE);
  EXPECT_EQ(swapped(IndexCompare::EQ), IndexCompare::EQ);
  // No block index is negative.
  EXPECT_FALSE(blockPinnedBy(IndexCompare::EQ, -1, true));
}

TEST(Model, WhichThreadsAComparisonBounds) {
  // tid < 32 and tid <= 31 leave threads 0..31; tid == 0 leaves thread 0.
  EXPECT_EQ(threadsBelow(IndexCompare::LT, 32, true), 32);
  EXPECT_EQ(threadsBelow(IndexCompare::LE, 31, true), 32);
  EXPECT_EQ(threadsBelow(IndexCompare::EQ, 0, true), 1);
  // Failed: tid >= 32 fails below 32, tid > 31 too, tid != 0 in thread 0.
  EXPECT_EQ(threadsBelow(IndexCompare::GE, 32, false), 32);
  EXPECT_EQ(threadsBelow(IndexCompare::GT, 31, false), 32);
  EXPECT_EQ(threadsBelow(IndexCompare::NE, 0, false), 1);
  // What leaves the later threads is no bound from above.
  EXPECT_FALSE(threadsBelow(IndexCompare::GE, 32, true));
  EXPECT_FALSE(threadsBelow(IndexCompare::NE, 0, true));
  EXPECT_FALSE(threadsBelow(IndexCompare::EQ, 0, false));
  EXPECT_FALSE(threadsBelow(IndexCompare::LT, 32, false));
  EXPECT_FALSE(threadsBelow(IndexCompare::LT, -1, true));
}

TEST(Model, WhichThreadsARankInAGroupBounds) {
  // tile.thread_rank() is index & 15 for 16-thread tiles; the lane (& 31,
  // % 32) is the index's own bound; other masks rank nothing.
  EXPECT_EQ(rankGroupOf(15, /*IsMask=*/true), 16);
  EXPECT_EQ(rankGroupOf(16, /*IsMask=*/false), 16);
  EXPECT_EQ(rankGroupOf(31, true), 0);
  EXPECT_EQ(rankGroupOf(32, false), 0);
  EXPECT_EQ(rankGroupOf(63, true), 64);
  EXPECT_FALSE(rankGroupOf(12, true));
  EXPECT_FALSE(rankGroupOf(0, true));
  EXPECT_FALSE(rankGroupOf(1, false));
  // rank == 15 in tiles of 16: one thread of each (a count of ranks, not a
  // bound); rank < 16 is every one; rank != 15 fifteen; a failed rank >= 4 four.
  std::optional<ThreadBound> B = threadsBelow(IndexCompare::EQ, 15, true, 16);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Below, 1);
  EXPECT_EQ(B->Group, 16);
  EXPECT_EQ(threadsBelow(IndexCompare::NE, 15, true, 16)->Below, 15);
  EXPECT_EQ(threadsBelow(IndexCompare::GE, 4, false, 16)->Below, 4);
  EXPECT_FALSE(threadsBelow(IndexCompare::LT, 16, true, 16));
  EXPECT_FALSE(threadsBelow(IndexCompare::EQ, 16, true, 16));
  EXPECT_EQ(threadsBelow(IndexCompare::LT, 16, true, 0)->Below, 16);
  // Both hold: the bound on the index says which threads; else the lesser share.
  EXPECT_EQ(bothBounds({32, 0}, {1, 16}).Group, 0);
  EXPECT_EQ(bothBounds({1, 16}, {32, 0}).Below, 32);
  EXPECT_EQ(bothBounds({4, 16}, {2, 16}).Below, 2);
  EXPECT_EQ(bothBounds({1, 16}, {4, 32}).Group, 16);
  // One thread of each 16 runs in fewer threads than every thread, and than
  // two of each 16; not than a bound on the index, which the block's size decides.
  EXPECT_TRUE(runsInFewerThreads(1, 16, -1, 0));
  EXPECT_TRUE(runsInFewerThreads(1, 16, 2, 16));
  EXPECT_FALSE(runsInFewerThreads(1, 16, 32, 0));
  EXPECT_TRUE(runsInFewerThreads(1, 0, 32, 0));
  EXPECT_FALSE(runsInFewerThreads(32, 0, 32, 0));
  EXPECT_FALSE(runsInFewerThreads(-1, 0, -1, 0));
  EXPECT_FALSE(runsInFewerThreads(1, 0, UnknownThreadGuard, 0));
}

TEST(Model, LibraryBodiesReadAsInlined) {
  EXPECT_TRUE(readsLibraryFunctionBody("cooperative_groups::__v1::details::cta::thread_rank"));
  EXPECT_TRUE(readsLibraryFunctionBody("cooperative_groups::thread_rank"));
  EXPECT_FALSE(readsLibraryFunctionBody("cuda::std::__4::__atomic_load"));
  EXPECT_FALSE(readsLibraryFunctionBody("std::min"));
}

TEST(Model, WarpShuffles) {
  for (const char *Name : {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__shfl_down",
                           "llvm.nvvm.shfl.sync.idx.i32", "llvm.nvvm.shfl.sync.bfly.f32p"})
    EXPECT_TRUE(isWarpShuffleName(Name)) << Name;
  for (const char *Name : {"__syncwarp", "__ballot_sync", "__shfl_sync_extra", "llvm.nvvm.vote.ballot.sync"})
    EXPECT_FALSE(isWarpShuffleName(Name)) << Name;
}

TEST(Model, WhereAKeptPointerPoints) {
  // The host gives kernels, and writes into device variables, pointers to
  // device memory: every block reaches what they point to.
  EXPECT_EQ(pointeeHome(PointerKeeper::KernelParameter), ObjectHome::Global);
  EXPECT_EQ(pointeeHome(PointerKeeper::DeviceVariable), ObjectHome::Global);
  // A pointer kept in shared memory, or a device function's parameter, may
  // point to a block's shared memory as well.
  EXPECT_EQ(pointeeHome(PointerKeeper::SharedVariable), ObjectHome::Unknown);
  EXPECT_EQ(pointeeHome(PointerKeeper::Other), ObjectHome::Unknown);
}

TEST(Model, AnInstructionsStateSpaceSaysWhereItsObjectIs) {
  // red.global through a pointer whose origin neither front end can follow.
  EXPECT_EQ(homeInSpace(MemorySpace::Global, ObjectHome::Unknown), ObjectHome::Global);
  // Managed and mapped memory are in the global space too.
  EXPECT_EQ(homeInSpace(MemorySpace::Global, ObjectHome::Managed), ObjectHome::Managed);
  EXPECT_EQ(homeInSpace(MemorySpace::Global, ObjectHome::MappedHost), ObjectHome::MappedHost);
  EXPECT_EQ(homeInSpace(MemorySpace::Shared, ObjectHome::Unknown), ObjectHome::Shared);
  EXPECT_EQ(homeInSpace(MemorySpace::Local, ObjectHome::Unknown), ObjectHome::Local);
  // Another block's shared memory (shared::cluster) is not one block's.
  EXPECT_EQ(homeInSpace(MemorySpace::SharedCluster, ObjectHome::Shared), ObjectHome::Unknown);
  // A generic access is where its object is.
  EXPECT_EQ(homeInSpace(MemorySpace::Generic, ObjectHome::Shared), ObjectHome::Shared);
  EXPECT_EQ(homeInSpace(MemorySpace::Unknown, ObjectHome::Unknown), ObjectHome::Unknown);
}

TEST(MemoryModel, ATileOfSeveralWarpsSyncsTheBlockOnlyWhereItIsTheBlock) {
  std::optional<BarrierFunction> B = barrierFunction("cooperative_groups::__v1::__static_size_multi_warp_tile_base<128U>::sync");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->What, OpKind::BlockBarrier);
  EXPECT_TRUE(B->OfTile);
  EXPECT_TRUE(barrierFunction("cooperative_groups::details::sync_warps")->OfTile);
  EXPECT_FALSE(barrierFunction("cooperative_groups::thread_block::sync")->OfTile);
  EXPECT_EQ(firstTemplateInteger("tiled_partition<128U, cooperative_groups::__v1::thread_block>"), 128u);
  EXPECT_EQ(firstTemplateInteger("this_thread_block<256u>"), 256u);
  EXPECT_EQ(firstTemplateInteger("tiled_partition"), std::nullopt);
  EXPECT_EQ(firstTemplateInteger("f<int>"), std::nullopt);

  // Nothing bounds the block: a launch of more threads makes several tiles.
  TileShapes None;
  None.noteCall("cooperative_groups::tiled_partition", 128);
  EXPECT_FALSE(None.syncIsBlockBarrier(128));
  EXPECT_FALSE(None.syncIsBlockBarrier(std::nullopt));
  // block_tile_memory<128>: at most 128 threads, one tile of 128.
  TileShapes Memory;
  Memory.noteCall("cooperative_groups::this_thread_block", 128);
  Memory.noteCall("cooperative_groups::tiled_partition", 128);
  Memory.noteCall("cooperative_groups::tiled_partition", 16); // a tile of one warp's part syncs as a warp
  EXPECT_TRUE(Memory.syncIsBlockBarrier(128));
  EXPECT_TRUE(Memory.syncIsBlockBarrier(std::nullopt));
  EXPECT_FALSE(Memory.syncIsBlockBarrier(64));
  // A block of up to 256 in tiles of 128.
  TileShapes Half;
  Half.noteLaunchBound(256);
  Half.noteCall("cooperative_groups::tiled_partition", 128);
  EXPECT_FALSE(Half.syncIsBlockBarrier(128));
  EXPECT_FALSE(Half.syncIsBlockBarrier(std::nullopt));
  // A tile whose size is a value: a sync the front end cannot place is no block barrier.
  TileShapes Dynamic;
  Dynamic.noteLaunchBound(128);
  Dynamic.noteCall("cooperative_groups::tiled_partition", 128);
  Dynamic.noteCall("cooperative_groups::tiled_partition", std::nullopt);
  EXPECT_TRUE(Dynamic.syncIsBlockBarrier(128));
  EXPECT_FALSE(Dynamic.syncIsBlockBarrier(std::nullopt));
}

TEST(BlockCondition, ATestOfTheBlockDecidesTheThreadTestItIsCombinedWith) {
  // if (blockIdx.x == 0 && threadIdx.x == 0) ... else if (blockIdx.x == 1) { barrier }
  BlockCondition First = BlockCondition::both(BlockCondition::coordinate(0, IndexCompare::EQ, 0),
                                              BlockCondition::other(/*Varies=*/true));
  BlockCondition Second = BlockCondition::coordinate(0, IndexCompare::EQ, 1);
  BlockFacts Facts;
  Facts.note(First, /*Taken=*/false);
  Facts.note(Second, /*Taken=*/true);
  EXPECT_FALSE(Facts.contradict());
  EXPECT_EQ(Facts.decide(First), false);
  EXPECT_TRUE(decidedForBlock(First, Facts));
  // ... else if (blockIdx.x != 1): block 0 reaches it, and decides First by thread.
  BlockFacts Open;
  Open.note(First, false);
  Open.note(Second, false);
  EXPECT_FALSE(decidedForBlock(First, Open));
}

TEST(BlockCondition, OrAndNotFollowTheirOperands) {
  BlockCondition Row3 = BlockCondition::coordinate(1, IndexCompare::EQ, 3);
  BlockCondition Either = BlockCondition::either(Row3, BlockCondition::other(true));
  BlockFacts InRow3;
  InRow3.note(Row3, true);
  EXPECT_EQ(InRow3.decide(Either), true);
  EXPECT_EQ(InRow3.decide(Either.negated()), false);
  // Failing an || tells each operand failed; passing it tells nothing.
  BlockFacts Failed, Passed;
  Failed.note(Either, false);
  Passed.note(Either, true);
  EXPECT_EQ(Failed.decide(Row3), false);
  EXPECT_EQ(Passed.decide(Row3), std::nullopt);
  // The other axes are not this one.
  EXPECT_EQ(InRow3.decide(BlockCondition::coordinate(0, IndexCompare::EQ, 3)), std::nullopt);
}

TEST(BlockCondition, FactsNoBlockPassesDecideEverything) {
  BlockFacts Facts;
  Facts.note(BlockCondition::coordinate(0, IndexCompare::EQ, 0), true);
  BlockFacts Later;
  Later.note(BlockCondition::coordinate(0, IndexCompare::NE, 0), true);
  EXPECT_FALSE(Facts.contradict());
  Facts.add(Later);
  EXPECT_TRUE(Facts.contradict());
  EXPECT_TRUE(decidedForBlock(BlockCondition::other(true), Facts));
  // 0xffffffff read unsigned and -1 read signed are one value.
  BlockFacts Wide;
  Wide.note(BlockCondition::coordinate(2, IndexCompare::EQ, 0xffffffff), true);
  EXPECT_EQ(Wide.decide(BlockCondition::coordinate(2, IndexCompare::NE, -1)), false);
  EXPECT_FALSE(decidedForBlock(BlockCondition::other(true), Wide));
}

TEST(BlockCondition, OrderingsBoundTheBlocksTheyLeave) {
  // if (blockIdx.x < 2) { if (blockIdx.x == 5 && threadIdx.x == 0) ...; barrier }
  BlockFacts Low;
  Low.note(BlockCondition::coordinate(0, IndexCompare::LT, 2), true);
  BlockCondition FiveAndThread =
      BlockCondition::both(BlockCondition::coordinate(0, IndexCompare::EQ, 5), BlockCondition::other(true));
  EXPECT_EQ(Low.decide(FiveAndThread), false);
  EXPECT_EQ(Low.decide(BlockCondition::coordinate(0, IndexCompare::LE, 1)), true);
  EXPECT_EQ(Low.decide(BlockCondition::coordinate(0, IndexCompare::EQ, 1)), std::nullopt);
  // blockIdx.x >= 1 beside < 2: block 1 only; beside != 1 as well: no block.
  Low.note(BlockCondition::coordinate(0, IndexCompare::GE, 1), true);
  EXPECT_EQ(Low.only(0), 1);
  Low.note(BlockCondition::coordinate(0, IndexCompare::NE, 1), true);
  EXPECT_TRUE(Low.contradict());
  // An ordering with a negative constant tests no block (a signed read's
  // < -1 holds for none, an unsigned one's for all): it decides nothing.
  BlockFacts None;
  None.note(BlockCondition::coordinate(0, IndexCompare::LT, -1), true);
  EXPECT_FALSE(None.contradict());
  EXPECT_EQ(None.only(0), std::nullopt);
}

TEST(BlockCondition, PinnedBlockIsWhatTheFactsLeave) {
  // The forms blockPinnedBy names, and their combinations.
  EXPECT_EQ(BlockCondition::coordinate(0, IndexCompare::EQ, 3).pinnedBlock(true), 3);
  EXPECT_EQ(BlockCondition::coordinate(0, IndexCompare::EQ, 3).pinnedBlock(false), std::nullopt);
  EXPECT_EQ(BlockCondition::coordinate(0, IndexCompare::NE, 3).pinnedBlock(false), 3);
  EXPECT_EQ(BlockCondition::coordinate(0, IndexCompare::LT, 1).pinnedBlock(true), 0);
  EXPECT_EQ(BlockCondition::coordinate(0, IndexCompare::GT, 0).pinnedBlock(false), 0);
  EXPECT_EQ(BlockCondition::coordinate(0, IndexCompare::LT, 2).pinnedBlock(true), std::nullopt);
  EXPECT_EQ(BlockCondition::coordinate(1, IndexCompare::EQ, 0).pinnedBlock(true), std::nullopt);
  BlockCondition OneThread =
      BlockCondition::both(BlockCondition::coordinate(0, IndexCompare::EQ, 0), BlockCondition::other(true));
  EXPECT_EQ(OneThread.pinnedBlock(true), 0);
  EXPECT_EQ(OneThread.pinnedBlock(false), std::nullopt);
  EXPECT_EQ(OneThread.negated().pinnedBlock(false), 0);
  BlockCondition Between = BlockCondition::both(BlockCondition::coordinate(0, IndexCompare::GE, 4),
                                                BlockCondition::coordinate(0, IndexCompare::LE, 4));
  EXPECT_EQ(Between.pinnedBlock(true), 4);
  // The grid's thread 0 is block 0's; the test fails in every other block.
  BlockCondition First = BlockCondition::gridIndex(IndexCompare::EQ, 0);
  EXPECT_EQ(First.pinnedBlock(true), 0);
  BlockFacts Block2;
  Block2.note(BlockCondition::coordinate(0, IndexCompare::EQ, 2), true);
  EXPECT_EQ(Block2.decide(First), false);
  EXPECT_EQ(Block2.decide(First.negated()), true);
  EXPECT_EQ(Block2.decide(BlockCondition::gridIndex(IndexCompare::EQ, 5)), std::nullopt);
}
