; A tree refit as -O2 leaves warp's bvh_refit_with_solid_angle_kernel: the test of the arrival count
; (if (finished == 1) {...} else break;) branches twice on one i1, once where the count is read,
; deciding what the iteration runs, and again at the loop's latch, where both arms join, deciding
; whether to go round. The first decides: the reads of the children follow it, with no acquire.
; (Written by hand, without debug locations: the remark names the IR's own values.)
; RUN: %opt -load-pass-plugin=%cuda_scope_pass -passes=cuda-scope -pass-remarks-analysis=cuda-scope \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --implicit-check-not=remark:
; CHECK: remark: {{.*}}kernel argument 'count' is received here (atomicrmw add, relaxed) and kernel argument 'nodes' is read after it
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @refit(ptr %parents, ptr %count, ptr %nodes) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %id = add i32 %m, %tid
  %id64 = sext i32 %id to i64
  %own = getelementptr inbounds float, ptr %nodes, i64 %id64
  store float 1.0, ptr %own
  br label %head

head:
  %index = phi i32 [ %id, %entry ], [ %next, %latch ]
  %i64 = sext i32 %index to i64
  %pp = getelementptr inbounds i32, ptr %parents, i64 %i64
  %parent = load i32, ptr %pp
  %root = icmp eq i32 %parent, -1
  br i1 %root, label %exit, label %arrive

arrive:
  call void @llvm.nvvm.membar.gl()
  %p64 = sext i32 %parent to i64
  %cp = getelementptr inbounds i32, ptr %count, i64 %p64
  %old = atomicrmw add ptr %cp, i32 1 monotonic
  %second = icmp eq i32 %old, 1
  br i1 %second, label %work, label %latch

work:
  %l = shl i64 %p64, 1
  %lp = getelementptr inbounds float, ptr %nodes, i64 %l
  %lv = load float, ptr %lp
  %r = add i64 %l, 1
  %rp = getelementptr inbounds float, ptr %nodes, i64 %r
  %rv = load float, ptr %rp
  %sum = fadd float %lv, %rv
  %dst = getelementptr inbounds float, ptr %nodes, i64 %p64
  store float %sum, ptr %dst
  br label %latch

latch:
  %next = phi i32 [ %index, %arrive ], [ %parent, %work ]
  br i1 %second, label %head, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.membar.gl()
