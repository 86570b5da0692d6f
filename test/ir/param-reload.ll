; A loop bounded by a field of the kernel's by-value parameter, as -O2 leaves faiss's
; binaryDistanceLimitSize: the field is read again after a warp's vote decides a merge (a branch
; the warp takes alike, the block not), and the bound the loop tests is a phi of the two reads. Both
; read one word of the kernel's own copy of its argument, which nothing writes, so the phi is one
; value for the block whichever way its warps went, and the barriers in the loop are reached alike.
; (Written by hand; the debug locations name lines of a source that does not exist, as the rule
; reports only what a project's own file holds.)
; RUN: %opt -load-pass-plugin=%cuda_scope_pass -passes=cuda-scope -pass-remarks-analysis=cuda-scope \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --implicit-check-not=remark:
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Rows = type { ptr, [2 x i64] }

; no-remark: both ways into the latch give the same word of the unwritten by-value parameter.
define ptx_kernel void @boundReloadedAfterWarpMerge(ptr readonly byval(%Rows) align 8 captures(none) %vecs, ptr %out) !dbg !10 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sizep = getelementptr inbounds i8, ptr %vecs, i64 8
  %size0 = load i64, ptr %sizep, align 8
  %any = icmp sgt i64 %size0, 0
  br i1 %any, label %head, label %exit

head:
  %bound = phi i64 [ %size0, %entry ], [ %bound.next, %latch ]
  %b = phi i64 [ 0, %entry ], [ %b.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %latch ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !11
  %add = add i32 %acc, %tid
  %big = icmp sgt i32 %add, 7
  %vote = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %big)
  br i1 %vote, label %merge, label %latch, !dbg !12

merge:
  store volatile i32 %add, ptr %out, align 4
  %size1 = load i64, ptr %sizep, align 8
  br label %latch

latch:
  %bound.next = phi i64 [ %size1, %merge ], [ %bound, %head ]
  %acc.next = phi i32 [ 0, %merge ], [ %add, %head ]
  %b.next = add nsw i64 %b, 32
  %more = icmp slt i64 %b.next, %bound.next
  br i1 %more, label %head, label %exit, !dbg !13

exit:
  ret void
}

; The same loop, but the merge reads the other field: the bound the warps that merged test differs
; from the one the others test, so they may leave the loop apart and skip the barrier.
; CHECK: remark: param-reload.cu:34:5: this block barrier (__syncthreads) is reached under a condition at {{.*}}param-reload.cu:32 that threads of one block may decide differently
define ptx_kernel void @boundChangedByWarpMerge(ptr readonly byval(%Rows) align 8 captures(none) %vecs, ptr %out) !dbg !20 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sizep = getelementptr inbounds i8, ptr %vecs, i64 8
  %otherp = getelementptr inbounds i8, ptr %vecs, i64 16
  %size0 = load i64, ptr %sizep, align 8
  %any = icmp sgt i64 %size0, 0
  br i1 %any, label %head, label %exit

head:
  %bound = phi i64 [ %size0, %entry ], [ %bound.next, %latch ]
  %b = phi i64 [ 0, %entry ], [ %b.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %latch ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !21
  %add = add i32 %acc, %tid
  %big = icmp sgt i32 %add, 7
  %vote = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %big)
  br i1 %vote, label %merge, label %latch, !dbg !22

merge:
  store volatile i32 %add, ptr %out, align 4
  %size1 = load i64, ptr %otherp, align 8
  br label %latch

latch:
  %bound.next = phi i64 [ %size1, %merge ], [ %bound, %head ]
  %acc.next = phi i32 [ 0, %merge ], [ %add, %head ]
  %b.next = add nsw i64 %b, 32
  %more = icmp slt i64 %b.next, %bound.next
  br i1 %more, label %head, label %exit, !dbg !23

exit:
  ret void
}

; no-remark: the bound lies in constant memory, which no thread writes while the kernel runs.
@limit = internal addrspace(4) global [2 x i64] zeroinitializer, align 8
define ptx_kernel void @boundInConstantMemory(ptr %out) !dbg !30 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sizep = getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(4) @limit to ptr), i64 8
  %size0 = load i64, ptr %sizep, align 8
  %any = icmp sgt i64 %size0, 0
  br i1 %any, label %head, label %exit

head:
  %bound = phi i64 [ %size0, %entry ], [ %bound.next, %latch ]
  %b = phi i64 [ 0, %entry ], [ %b.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %latch ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
  %add = add i32 %acc, %tid
  %big = icmp sgt i32 %add, 7
  %vote = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %big)
  br i1 %vote, label %merge, label %latch, !dbg !32

merge:
  store volatile i32 %add, ptr %out, align 4
  %size1 = load i64, ptr %sizep, align 8
  br label %latch

latch:
  %bound.next = phi i64 [ %size1, %merge ], [ %bound, %head ]
  %acc.next = phi i32 [ 0, %merge ], [ %add, %head ]
  %b.next = add nsw i64 %b, 32
  %more = icmp slt i64 %b.next, %bound.next
  br i1 %more, label %head, label %exit, !dbg !33

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "param-reload.cu", directory: "/project")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "boundReloadedAfterWarpMerge", scope: !1, file: !1, line: 10, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!11 = !DILocation(line: 14, column: 5, scope: !10)
!12 = !DILocation(line: 16, column: 9, scope: !10)
!13 = !DILocation(line: 12, column: 3, scope: !10)
!20 = distinct !DISubprogram(name: "boundChangedByWarpMerge", scope: !1, file: !1, line: 30, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 34, column: 5, scope: !20)
!22 = !DILocation(line: 36, column: 9, scope: !20)
!23 = !DILocation(line: 32, column: 3, scope: !20)
!30 = distinct !DISubprogram(name: "boundInConstantMemory", scope: !1, file: !1, line: 50, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!31 = !DILocation(line: 54, column: 5, scope: !30)
!32 = !DILocation(line: 56, column: 9, scope: !30)
!33 = !DILocation(line: 52, column: 3, scope: !30)
