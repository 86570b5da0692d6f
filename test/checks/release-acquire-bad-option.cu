// Option values the check cannot use are reported as configuration errors, not ignored.
// RUN: not %cuda_scope_tidy -checks='-*,cuda-scope-release-acquire' \
// RUN:   -config="{CheckOptions: {cuda-scope-release-acquire.AcrossKernels: maybe, cuda-scope-release-acquire.FenceFunctions: 'ok::fence;not a name', cuda-scope-release-acquire.Strictness: loose}}" \
// RUN:   %s -- %cuda_device_flags 2>&1 | FileCheck %s
// CHECK-DAG: error: invalid value 'maybe' for option 'AcrossKernels' of check 'cuda-scope-release-acquire': expected 'true' or 'false'
// CHECK-DAG: error: invalid value 'loose' for option 'Strictness' of check 'cuda-scope-release-acquire': expected 'evidence' or 'wide'
// CHECK-DAG: error: invalid entry 'not a name' in option 'FenceFunctions' of check 'cuda-scope-release-acquire': expected a function name, qualified or not, optionally ending in '*'
__global__ void k() {}
