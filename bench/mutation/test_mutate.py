"""Unit tests of the mutation operators (mutate.py) and of how run.py judges a mutant.

USAGE: cd bench/mutation && python3 -m unittest test_mutate
"""
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402


def mutants(text, kinds=mutate.KINDS, path="t.cu", extra=None):
    files = {path: text}
    files.update(extra or {})
    return mutate.mutants_of(files, kinds)


def applied(m, text):
    return m.apply(text)


class Common(unittest.TestCase):
    def one(self, text, op, kinds=mutate.KINDS):
        """The only mutant of text with operator op; checks it changes one place and keeps lines."""
        ms = [m for m in mutants(text, kinds) if m.op == op]
        self.assertEqual(len(ms), 1, [m.mutated for m in ms])
        m = ms[0]
        self.assertEqual(applied(m, text).count("\n"), text.count("\n"))
        return m, applied(m, text)


# Comments and strings that mention every construct the operators change.
DECOYS = ('// __threadfence(); cuda::memory_order_release atomicAdd( cudaMemcpyAsync(\n'
          '/* asm volatile("fence.sc.gpu;"); __threadfence_system(); thread_scope_device */\n'
          'const char *s = "__threadfence(); memory_order_acquire ld.acquire.gpu atomicAdd(";\n'
          "const char c = '\"';\n")


class Lexer(unittest.TestCase):
    def test_comments_and_literals_are_not_code(self):
        toks = mutate.lex(DECOYS)
        ids = [t.text for t in toks if t.kind == "id"]
        self.assertNotIn("__threadfence", ids)
        self.assertNotIn("atomicAdd", ids)
        self.assertEqual([t.kind for t in toks if t.kind in ("str", "chr")], ["str", "chr"])

    def test_raw_strings_digit_separators_and_error_text(self):
        text = ('auto r = R"x(__threadfence(); )" )x";\nint n = 1\'000\'000;\n#error don\'t\n'
                '__global__ void k() { __threadfence(); }\n')
        toks = mutate.lex(text)
        self.assertEqual(sum(t.text == "__threadfence" for t in toks), 1)
        self.assertIn("1'000'000", [t.text for t in toks])

    def test_decoys_give_no_mutant(self):
        self.assertEqual(mutants(DECOYS), [])


class Order(Common):
    def test_memory_order_argument_of_an_atomic_member(self):
        text = DECOYS + "__device__ void f(cuda::atomic_ref<int, cuda::thread_scope_device> a) {\n" \
                        "  a.store(1, cuda::memory_order_release); // memory_order_release\n}\n"
        m, out = self.one(text, "order.access", ("order",))
        self.assertIn("a.store(1, cuda::memory_order_relaxed); // memory_order_release", out)
        self.assertTrue(out.startswith(DECOYS))
        self.assertEqual(m.line, 6)
        self.assertEqual(mutate.expected_rules(m.op), ("cuda-scope-release-acquire",))

    def test_scoped_enum_form_and_fence_order(self):
        text = ("__device__ int g(cuda::std::atomic<int> &a) {\n"
                "  cuda::atomic_thread_fence(cuda::std::memory_order::acq_rel, cuda::thread_scope_device);\n"
                "  return a.load(std::memory_order::acquire);\n}\n")
        ms = mutants(text, ("order",))
        self.assertEqual([m.op for m in ms], ["order.fence", "order.access"])
        self.assertIn("memory_order::relaxed, cuda::thread_scope_device", ms[0].mutated)
        self.assertIn("a.load(std::memory_order::relaxed)", ms[1].mutated)

    def test_not_an_argument(self):
        text = ("__device__ int f(int *p, cuda::memory_order o = cuda::memory_order_seq_cst) {\n"
                "  switch (o) { case cuda::memory_order_acquire: return 1; default: break; }\n"
                "  if (o == cuda::memory_order_release) return 2;\n"
                "  return load<cuda::memory_order_acquire>(p);\n}\n")
        self.assertEqual(mutants(text, ("order",)), [])

    def test_nv_and_gcc_builtins(self):
        text = ("__device__ int f(int *p) {\n"
                "  __atomic_store_n(p, 1, __ATOMIC_RELEASE);\n"
                "  return __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);\n}\n")
        ms = mutants(text, ("order",))
        self.assertEqual([m.mutated for m in ms], ["__atomic_store_n(p, 1, __ATOMIC_RELAXED);",
                                                   "return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED, "
                                                   "__NV_THREAD_SCOPE_DEVICE);"])

    def test_ptx_orders_in_asm_only(self):
        text = ('const char *doc = "ld.acquire.gpu.u32";\n'
                '__device__ unsigned f(unsigned *p) {\n  unsigned v;\n'
                '  asm volatile("\\n\\tld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");\n'
                '  return v;\n}\n')
        m, out = self.one(text, "order.ptx", ("order",))
        self.assertIn('asm volatile("\\n\\tld.relaxed.gpu.global.u32 %0, [%1];"', out)
        self.assertIn('"ld.acquire.gpu.u32"', out)
        self.assertEqual(m.line, 4)

    def test_ptx_release_store_and_rmw(self):
        text = ('__device__ void f(unsigned *p) {\n'
                '  asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(p), "r"(1u));\n'
                '  asm volatile("red.acq_rel.gpu.global.add.u32 [%0], %1;" :: "l"(p), "r"(1u));\n}\n')
        ms = [m for m in mutants(text, ("order",))]
        self.assertEqual([m.mutated.split('"')[1] for m in ms],
                         ["st.relaxed.sys.global.u32 [%0], %1;", "red.relaxed.gpu.global.add.u32 [%0], %1;"])


class Fence(Common):
    def test_threadfence_deleted_or_narrowed(self):
        text = DECOYS + "__global__ void k(int *d, int *f) {\n  d[0] = 1;\n  __threadfence();\n  f[0] = 1;\n}\n"
        m, out = self.one(text, "fence.delete", ("fence",))
        self.assertIn("  ((void)0);\n", out)
        self.assertTrue(out.startswith(DECOYS))
        m, out = self.one(text, "fence.narrow", ("fence",))
        self.assertIn("  __threadfence_block();\n", out)
        self.assertEqual(mutate.expected_rules(m.op), ("cuda-scope-release-acquire", "cuda-scope-insufficient"))

    def test_system_fence_and_block_fence(self):
        text = "__global__ void k() { __threadfence_system(); __syncthreads(); __threadfence_block(); }\n"
        ms = mutants(text, ("fence",))
        self.assertEqual(sorted(m.op for m in ms), ["fence.delete", "fence.narrow"])
        self.assertIn("__threadfence_block(); __syncthreads();", [m for m in ms if m.op == "fence.narrow"][0].mutated)

    def test_libcu_fence_spanning_lines_keeps_lines(self):
        text = ("__device__ void f() {\n  cuda::atomic_thread_fence(cuda::memory_order_seq_cst,\n"
                "                            cuda::thread_scope_device);\n  int after = 0;\n}\n")
        m, out = self.one(text, "fence.delete", ("fence",))
        self.assertEqual(out.splitlines()[3], "  int after = 0;")
        m, out = self.one(text, "fence.narrow", ("fence",))
        self.assertIn("cuda::thread_scope_block);", out)

    def test_unscoped_std_fence_is_deleted_not_narrowed(self):
        text = "void f() { std::atomic_thread_fence(std::memory_order_release); }\n"
        ms = mutants(text, ("fence",))
        self.assertEqual([m.op for m in ms], ["fence.delete"])

    def test_ptx_fences(self):
        text = ('__device__ void f() {\n'
                '  asm volatile("fence.acq_rel.gpu;" ::: "memory");\n'
                '  asm volatile("membar.gl;" ::: "memory");\n'
                '  asm volatile("fence.proxy.async;" ::: "memory");\n'
                '  asm volatile("fence.sc.cta;" ::: "memory");\n}\n')
        ms = mutants(text, ("fence",))
        got = [(m.op, m.mutated) for m in ms]
        self.assertIn(("fence.delete", 'asm volatile("" ::: "memory");'), got)
        self.assertIn(("fence.narrow", 'asm volatile("fence.acq_rel.cta;" ::: "memory");'), got)
        self.assertIn(("fence.narrow", 'asm volatile("membar.cta;" ::: "memory");'), got)
        self.assertFalse(any("proxy" not in m.original and "proxy" in m.mutated for m in ms))
        # fence.sc.cta: deleted (it is a fence) but not narrowed (already block scope)
        self.assertEqual(sum(1 for m in ms if m.line == 5), 1)

    def test_macro_body_and_declaration(self):
        text = ("__device__ void __threadfence();\n"
                "#define FENCE() \\\n  __threadfence()\n"
                "#define FENCE2 __threadfence()\n")
        ms = mutants(text, ("fence",))
        self.assertEqual(sorted((m.line, m.op) for m in ms),
                         [(3, "fence.delete"), (3, "fence.narrow"), (4, "fence.delete"), (4, "fence.narrow")])

    def test_adjacent_fence_of_equal_or_wider_scope_is_equivalent(self):
        text = ("__global__ void k() {\n  __threadfence();\n  __threadfence_system();\n  x();\n"
                "  __threadfence(); /* nothing between */ ;\n}\n")
        ms = mutants(text, ("fence",))
        first = [m for m in ms if m.line == 2]
        self.assertTrue(all(m.equivalent for m in first))
        self.assertIn("line 3", first[0].equivalent)
        # the system fence is not covered by the device-scope fence before it
        self.assertTrue(all(not m.equivalent for m in ms if m.line == 3))
        self.assertTrue(all(not m.equivalent for m in ms if m.line == 5))

    def test_last_statement_of_a_kernel_is_equivalent(self):
        text = ("__global__ void k(int *d) {\n  d[0] = 1;\n  __threadfence();\n}\n"
                "__device__ void f(int *d) {\n  d[0] = 1;\n  __threadfence();\n}\n")
        ms = mutants(text, ("fence",))
        self.assertEqual([(m.line, bool(m.equivalent)) for m in ms], [(3, True), (3, True), (7, False), (7, False)])
        self.assertIn("last statement of a kernel", ms[0].equivalent)

    def test_adjacent_asm_fences(self):
        text = ('__global__ void f() {\n  asm volatile("fence.acq_rel.gpu;" ::: "memory");\n'
                '  asm volatile("fence.sc.gpu;" ::: "memory");\n  g();\n}\n')
        ms = mutants(text, ("fence",))
        self.assertTrue(all(m.equivalent for m in ms if m.line == 2))
        self.assertTrue(all(not m.equivalent for m in ms if m.line == 3))


class OrderEquivalence(unittest.TestCase):
    def test_fences_around_an_acquire_load_and_a_release_store(self):
        text = ('__device__ void fence() {\n#if __CUDA_ARCH__ < 700\n  asm volatile("membar.gl;" ::: "memory");\n'
                '#else\n  asm volatile("fence.acq_rel.gpu;" ::: "memory");\n#endif\n}\n'
                '__device__ int load_acquire(int *p) {\n  int v;\n'
                '  asm volatile("ld.acquire.gpu.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");\n'
                '  fence();\n  return v;\n}\n'
                '__device__ void store_release(int *p, int v) {\n  __threadfence();\n'
                '  asm volatile("st.release.sys.s32 [%0], %1;" :: "l"(p), "r"(v) : "memory");\n}\n'
                '__device__ void store_release2(int *p, int v) {\n  __threadfence();\n'
                '  asm volatile("st.release.gpu.s32 [%0], %1;" :: "l"(p), "r"(v) : "memory");\n}\n')
        ms = {m.line: m for m in mutants(text, ("order",))}
        self.assertIn("acquire pattern", ms[10].equivalent)
        self.assertIn("line 11: fence();", ms[10].equivalent)
        self.assertIsNone(ms[16].equivalent)   # the device-scope fence does not cover a .sys release
        self.assertIn("release pattern", ms[20].equivalent)

    def test_cxx_orders_need_a_system_fence(self):
        text = ("__device__ void f(cuda::atomic_ref<int, cuda::thread_scope_device> a) {\n"
                "  __threadfence_system();\n  a.store(1, cuda::memory_order_release);\n"
                "  __threadfence();\n  a.store(2, cuda::memory_order_release);\n"
                "  if (a.load(cuda::memory_order_acquire)) { g(); }\n  __threadfence_system();\n}\n")
        ms = {m.line: m for m in mutants(text, ("order",))}
        self.assertIn("release pattern", ms[3].equivalent)
        self.assertIsNone(ms[5].equivalent)
        self.assertIsNone(ms[6].equivalent)   # a loop or branch condition is not a plain statement


class Scope(Common):
    def test_builtin_atomics(self):
        text = DECOYS + ("__global__ void k(int *c) {\n  atomicAdd(c, 1);\n  atomicCAS_system(c, 0, 1);\n"
                         "  atomicAdd_block(c, 1);\n}\n")
        ms = mutants(text, ("scope",))
        self.assertEqual([m.mutated for m in ms], ["atomicAdd_block(c, 1);", "atomicCAS_block(c, 0, 1);"])
        self.assertEqual(mutate.expected_rules("scope.builtin"), ("cuda-scope-mismatch", "cuda-scope-insufficient"))

    def test_atomic_ref_template_only(self):
        text = ("__global__ void k(int *f) {\n"
                "  cuda::atomic_ref<int, cuda::thread_scope_system> r(*f);\n"
                "  __shared__ cuda::barrier<cuda::thread_scope_device> *b;\n"
                "  using A = cuda::atomic<unsigned, cuda::thread_scope_device>;\n}\n")
        ms = mutants(text, ("scope",))
        self.assertEqual([(m.line, m.op) for m in ms], [(2, "scope.template"), (4, "scope.template")])
        self.assertIn("thread_scope_block> r(*f)", ms[0].mutated)

    def test_nv_builtin_scope(self):
        text = "__device__ void f(int *p) { __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM); }\n"
        m, out = self.one(text, "scope.builtin", ("scope",))
        self.assertIn("__NV_THREAD_SCOPE_BLOCK", out)

    def test_ptx_scopes(self):
        text = ('__device__ void f(int *p) {\n'
                '  asm volatile("atom.relaxed.gpu.global.add.s32 %0, [%1], 1;" : "=r"(x) : "l"(p));\n'
                '  asm volatile("ld.relaxed.gpu.shared.u32 %0, [%1];" : "=r"(x) : "r"(s));\n'
                '  asm volatile("ld.relaxed.gpu.shared::cluster.u32 %0, [%1];" : "=r"(x) : "r"(s));\n}\n')
        ms = mutants(text, ("scope",))
        self.assertEqual([(m.line, bool(m.equivalent)) for m in ms], [(2, False), (3, True), (4, False)])
        self.assertIn("atom.relaxed.cta.global.add.s32", ms[0].mutated)

    def test_shared_memory_atomics_are_equivalent(self):
        text = ("__global__ void k(int *g) {\n  __shared__ int hist[256], total;\n"
                "  extern __shared__ float smem[];\n  float *part = smem + 32;\n"
                "  atomicAdd(&hist[threadIdx.x], 1);\n  atomicAdd(&total, 1);\n  atomicAdd(part, 1.0f);\n"
                "  atomicAdd(g, 1);\n}\n__global__ void other(int *hist) { atomicAdd(hist, 1); }\n")
        ms = mutants(text, ("scope",))
        self.assertEqual([(m.line, bool(m.equivalent)) for m in ms],
                         [(5, True), (6, True), (7, True), (8, False), (10, False)])
        self.assertIn("'hist' is __shared__", ms[0].equivalent)


CAPTURE = """void run(cudaStream_t s, float *d, float *h, size_t n, cudaGraph_t *g) {
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); // cudaMemcpyAsync(
  cudaMemsetAsync(d, 0,
                  n, s);
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, 0);
  cudaMallocAsync(&d, n, s);
  cudaStreamEndCapture(s, g);
  cudaMemsetAsync(d, 0, n, s);
}
void other(cudaStream_t s, float *d) { cudaMemsetAsync(d, 0, 4, s); }
"""


class Capture(Common):
    def test_swaps_inside_the_capture_only(self):
        ms = mutants(CAPTURE, ("capture",))
        self.assertEqual([(m.line, m.op) for m in ms],
                         [(3, "capture.sync"), (4, "capture.memcpy"), (5, "capture.memset"), (7, "capture.memcpy"),
                          (8, "capture.malloc")])
        by_line = {m.line: m for m in ms}
        self.assertEqual(by_line[3].mutated, "CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)); "
                                             "cudaStreamSynchronize(s);")
        self.assertEqual(by_line[4].mutated, "cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); // cudaMemcpyAsync(")
        out = by_line[5].apply(CAPTURE)
        self.assertEqual(out.count("\n"), CAPTURE.count("\n"))
        self.assertIn("  cudaMemset(d, 0,\n                  n);\n", out)
        self.assertEqual(by_line[8].mutated, "cudaMalloc(&d, n);")
        self.assertEqual(mutate.expected_rules("capture.sync"), ("cuda-scope-capture-api",))

    def test_equivalences(self):
        ms = {m.line: m for m in mutants(CAPTURE, ("capture",))}
        self.assertIn("legacy stream", ms[7].equivalent)
        self.assertIsNone(ms[8].equivalent)
        relaxed = CAPTURE.replace("cudaStreamCaptureModeGlobal", "cudaStreamCaptureModeRelaxed")
        ms = {m.line: m for m in mutants(relaxed, ("capture",))}
        self.assertIn("Relaxed", ms[8].equivalent)
        self.assertIsNone(ms[4].equivalent)

    def test_begin_and_end_in_different_functions(self):
        text = "void a(cudaStream_t s) { cudaStreamBeginCapture(s, m); cudaMemsetAsync(p, 0, 4, s); }\n" \
               "void b(cudaStream_t s) { cudaMemsetAsync(p, 0, 4, s); cudaStreamEndCapture(s, &g); }\n"
        self.assertEqual(mutants(text, ("capture",)), [])


class Callback(Common):
    def test_function_registered_by_name(self):
        text = ("static void CUDART_CB done(void *p) {\n  printf(\"done\");\n}\n"
                "void go(cudaStream_t s) { cudaLaunchHostFunc(s, done, nullptr); }\n")
        ms = mutants(text, ("callback",))
        self.assertEqual([(m.line, m.op, m.mutated) for m in ms],
                         [(1, "callback.api", "static void CUDART_CB done(void *p) { cudaFree(nullptr);"),
                          (1, "callback.sync", "static void CUDART_CB done(void *p) { cudaDeviceSynchronize();")])
        self.assertEqual(mutate.expected_rules("callback.sync"), ("cuda-scope-callback-api",))

    def test_defined_in_another_file_and_through_a_variable(self):
        header = "void CUDART_CB cb(cudaStream_t, cudaError_t, void *) {}\n"
        text = ("#include \"cb.h\"\nvoid go(cudaStream_t s) {\n  cudaStreamCallback_t fn = cb;\n"
                "  cudaStreamAddCallback(s, fn, nullptr, 0);\n}\n")
        ms = mutants(text, ("callback",), extra={"cb.h": header})
        self.assertEqual({m.file for m in ms}, {"cb.h"})
        self.assertEqual(ms[0].detail["registered"], "t.cu:4")

    def test_lambda_and_c_and_driver(self):
        text = "void go(cudaStream_t s) { cudaLaunchHostFunc(s, [](void *p) { free(p); }, q); }\n"
        ms = mutants(text, ("callback",))
        self.assertEqual(ms[1].mutated, "void go(cudaStream_t s) { cudaLaunchHostFunc(s, [](void *p) { "
                                        "cudaDeviceSynchronize(); free(p); }, q); }")
        c = "static void cb(void *p) { }\nvoid go(CUstream s) { cuLaunchHostFunc(s, cb, 0); }\n"
        ms = mutants(c, ("callback",), path="t.c")
        self.assertEqual([m.replacement for m in ms], [" cuMemFree(0);", " cuCtxSynchronize();"])


class Reached(unittest.TestCase):
    def test_reached_from_host_code_by_name(self):
        header = ("__device__ void fence_used() { __threadfence(); }\n"
                  "__device__ void fence_unused() { __threadfence(); }\n"
                  "__device__ void fence_only_unused_calls() { __threadfence(); }\n"
                  "__device__ void caller_unused() { fence_only_unused_calls(); }\n"
                  "#define FENCE() __threadfence()\n")
        text = ('#include "h.cuh"\n__global__ void k() { fence_used(); FENCE(); }\n'
                "__global__ void never_launched() { __threadfence(); g(); }\n"
                "void launch() { k<<<1, 1>>>(); }\n")
        ms = mutants(text, ("fence",), extra={"h.cuh": header})
        got = {(m.file, m.line, m.detail["function_name"], m.detail["function_reached"]) for m in ms}
        self.assertEqual(got, {("h.cuh", 1, "fence_used", True), ("h.cuh", 2, "fence_unused", False),
                               ("h.cuh", 3, "fence_only_unused_calls", False), ("h.cuh", 5, "FENCE", True),
                               ("t.cu", 3, "never_launched", False)})


class Macros(unittest.TestCase):
    def test_a_macro_defining_code_is_reached_and_its_expansions_are_listed(self):
        text = ("#define BIND(T) \\\n  __device__ T add(T *p, T v) { return atomicAdd(p, v); }\n"
                "BIND(int)\n#undef BIND\n#define UNUSED(p) atomicAdd(p, 1)\n")
        ms = {m.line: m for m in mutants(text, ("scope",))}
        self.assertEqual(ms[2].detail["function_name"], "BIND")
        self.assertTrue(ms[2].detail["function_reached"])
        self.assertEqual(ms[2].detail["expansions"], [("t.cu", 3)])
        self.assertFalse(ms[5].detail["function_reached"])


class HelperCalls(unittest.TestCase):
    def test_a_helpers_calls_are_listed(self):
        text = ("__device__ void fence_if(int o) { if (o) __threadfence(); }\n"
                "__device__ int get(int *p, int o) {\n  int v = *(volatile int *)p;\n  fence_if(o);\n  return v; }\n"
                "#define GET(p) (fence_if(1), *(p))\n")
        ms = [m for m in mutants(text, ("fence",)) if m.line == 1]
        self.assertEqual(ms[0].detail["function_name"], "fence_if")
        self.assertEqual(ms[0].detail["calls"], [("t.cu", 4), ("t.cu", 6)])


class EveryMutant(unittest.TestCase):
    def test_examples_one_change_each_lines_kept(self):
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
        files = {}
        for name in ("handoff.cu", "handoff.cuh", "graph.cu"):
            with open(os.path.join(here, name), encoding="utf-8") as fh:
                files[name] = fh.read()
        ms = mutate.mutants_of(files)
        self.assertEqual({m.kind for m in ms}, set(mutate.KINDS))
        for m in ms:
            text = files[m.file]
            out = m.apply(text)
            self.assertNotEqual(out, text)
            self.assertEqual(out.count("\n"), text.count("\n"))
            # the change is one contiguous edit: same text before start, same text after end
            self.assertEqual(out[:m.start], text[:m.start])
            self.assertEqual(out[len(out) - (len(text) - m.end):], text[m.end:])


class Judge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "mutation_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "run.py"))
        cls.bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.bench)

    def finding(self, line, check="cuda-scope-release-acquire", msg="'f' is published here", file="a.cu", notes=()):
        return {"file": file, "line": line, "column": 3, "check": check, "message": msg, "notes": list(notes)}

    def test_reported_near_elsewhere_and_other_rule(self):
        m = {"file": "a.cu", "line": 40, "end_line": 40, "function_lines": [30, 60],
             "expected": ["cuda-scope-release-acquire"]}
        base = [self.finding(100)]
        found = [self.finding(100), self.finding(58), self.finding(200),
                 self.finding(41, check="cuda-scope-mismatch", msg="m")]
        v = self.bench.judge(m, base, found, 10)
        self.assertEqual(v["verdict"], "reported")
        self.assertEqual([f["line"] for f in v["near"]], [58])
        self.assertEqual([f["line"] for f in v["elsewhere"]], [200])
        self.assertEqual([f["line"] for f in v["other_near"]], [41])

    def test_judged_equivalents_match_project_file_line_operator_and_tu(self):
        judged = self.bench.load_judged(os.path.join(os.path.dirname(os.path.abspath(__file__)), "judged.json"))
        self.assertTrue(all(j["reason"] for j in judged))
        j = {"project": "p", "tu": "t.cu", "file": "h.cuh", "line": 7, "operator": "fence.delete", "reason": "r"}
        rec = {"project": "p", "tu": "t.cu", "file": "h.cuh", "line": 7, "operator": "fence.delete"}
        self.assertEqual(self.bench.judged_equivalent(rec, [j]), "r")
        self.assertIsNone(self.bench.judged_equivalent(dict(rec, tu="other.cu"), [j]))
        self.assertEqual(self.bench.judged_equivalent(dict(rec, tu="other.cu"), [dict(j, tu="*")]), "r")
        self.assertIsNone(self.bench.judged_equivalent(dict(rec, operator="fence.narrow"), [j]))
        self.assertIsNone(self.bench.judged_equivalent(dict(rec, line=8), [j]))
        self.assertEqual(self.bench.judged_equivalent(dict(rec, line=8), [dict(j, line="*")]), "r")

    def test_old_findings_and_moved_columns_are_not_new(self):
        m = {"file": "a.cu", "line": 40, "end_line": 40, "expected": ["cuda-scope-release-acquire"]}
        base = [self.finding(42, msg="read after the flag at a.cu:40:9")]
        found = [self.finding(42, msg="read after the flag at a.cu:40:15")]
        self.assertEqual(self.bench.judge(m, base, found, 10)["verdict"], "missed")

    def test_a_finding_where_the_mutated_macro_is_expanded_counts(self):
        m = {"file": "a.cu", "line": 5, "end_line": 5, "expected": ["cuda-scope-mismatch"],
             "expansions": [["a.cu", 80]]}
        self.assertEqual(self.bench.judge(m, [], [self.finding(82, check="cuda-scope-mismatch")], 10)["verdict"],
                         "reported")

    def test_a_finding_at_a_call_of_the_mutated_helper_counts(self):
        m = {"file": "h.cuh", "line": 5, "end_line": 5, "expected": ["cuda-scope-release-acquire"],
             "function_lines": [3, 8], "calls": [["h.cuh", 60]]}
        f = self.finding(140, file="w.cuh", notes=[{"file": "h.cuh", "line": 58, "message": "f is called here"}])
        self.assertEqual(self.bench.judge(m, [], [f], 10)["verdict"], "reported")
        far = self.finding(140, file="w.cuh", notes=[{"file": "h.cuh", "line": 75, "message": "f is called here"}])
        self.assertEqual(self.bench.judge(m, [], [far], 10)["verdict"], "missed")

    def test_places_a_message_cites_count_as_notes(self):
        class TU:
            cwd = "/p/examples"

            class paths:
                @staticmethod
                def rel(path, cwd):
                    import os
                    return os.path.relpath(os.path.normpath(os.path.join(cwd, path)), "/p")
        m = {"file": "include/h.hpp", "line": 5, "end_line": 5, "expected": ["cuda-scope-release-acquire"]}
        f = self.finding(140, file="include/w.hpp",
                         msg="x is received here and y is read after it at ../include/h.hpp:7:3 with no acquire")
        placed = self.bench.with_places([f], TU)
        self.assertEqual(placed[0]["places"], [{"file": "include/h.hpp", "line": 7}])
        self.assertEqual(self.bench.judge(m, [], placed, 10)["verdict"], "reported")
        self.assertEqual(self.bench.judge(m, [], [f], 10)["verdict"], "missed")

    def test_a_note_at_the_mutation_counts(self):
        m = {"file": "h.cuh", "line": 5, "end_line": 5, "expected": ["cuda-scope-release-acquire"]}
        f = self.finding(90, file="a.cu", notes=[{"file": "h.cuh", "line": 6, "message": "written here"}])
        self.assertEqual(self.bench.judge(m, [], [f], 10)["verdict"], "reported")
        self.assertEqual(self.bench.judge(m, [], [self.finding(90, file="a.cu")], 10)["verdict"], "missed")

    def test_overlay_arguments(self):
        from dataclasses import dataclass

        @dataclass
        class Job:
            argv: list
            overlay: str = None
        job = Job(["clang-tidy", "-load=x", "a.cu", "--", "-x", "cuda"])
        self.assertEqual(self.bench.with_overlay(job, "o.yaml", "host").argv,
                         ["clang-tidy", "-load=x", "--vfsoverlay=o.yaml", "a.cu", "--", "-x", "cuda"])
        # The pass reads the job's overlay (realcode's pass_side), not an argument.
        passed = self.bench.with_overlay(job, "o.yaml", "pass")
        self.assertEqual((passed.argv, passed.overlay), (job.argv, "o.yaml"))
        # The mutant's overlay stands in for the TU's own (its rewritten copies), which it includes.
        rewritten = Job(["clang-tidy", "--vfsoverlay=r.yaml", "a.cu", "--", "-x", "cuda"], "r.yaml")
        self.assertEqual(self.bench.with_overlay(rewritten, "o.yaml", "device").argv,
                         ["clang-tidy", "--vfsoverlay=o.yaml", "a.cu", "--", "-x", "cuda"])
        self.assertIs(self.bench.with_overlay(rewritten, None, "host"), rewritten)

    def test_the_mutants_overlay_serves_the_rewritten_copies_too(self):
        import json
        import tempfile
        folder = tempfile.mkdtemp()
        text = "struct L { void f(); };\n__device__ void L::f() {}\n"
        overlay = self.bench.write_overlay(folder, "/p/a.cu", text, {"/p/a.cu": "/c/0-a.cu", "/p/h.cuh": "/c/1-h.cuh"})
        with open(overlay) as fh:
            roots = {r["name"]: r["external-contents"] for r in json.load(fh)["roots"]}
        self.assertEqual(roots["/p/h.cuh"], "/c/1-h.cuh")
        with open(roots["/p/a.cu"]) as fh:
            self.assertEqual(fh.read(), "struct L { __device__ void f(); };\n__device__ void L::f() {}\n")


if __name__ == "__main__":
    unittest.main()
