"""Unit tests of the cuda-scope command's parts that need no clang: the nvcc translation, the
architecture mapping, the check globs, the merging of the two front ends' findings, the reading of
the IR pass's remarks and the exported fix-its. Run by test/tools/unit.test:
    python3 -m unittest discover -s test/tools/unit"""
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def load_tool():
    sys.dont_write_bytecode = True
    loader = importlib.machinery.SourceFileLoader("cuda_scope_tool", os.path.join(ROOT, "tools", "cuda-scope"))
    spec = importlib.util.spec_from_loader("cuda_scope_tool", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


cs = load_tool()


def translate(words, file="/src/k.cu", directory="/build"):
    return cs.translate_entry(cs.Translator(set()), file, directory, words, "test")


class Translation(unittest.TestCase):
    def test_nvcc_command(self):
        t = translate(["nvcc", "-std=c++17", "-Xcompiler", "-fPIC,-Wall", "-rdc=true", "-DX=1",
                       "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-c", "/src/k.cu", "-o", "k.o"])
        self.assertTrue(t.nvcc)
        self.assertEqual(t.archs, ["sm_90"])
        self.assertTrue(t.rdc)
        for flag in ("-std=c++17", "-fPIC", "-Wall", "-DX=1"):
            self.assertIn(flag, t.flags)
        for flag in ("-c", "-o", "k.o", "-rdc=true"):
            self.assertNotIn(flag, t.flags)

    def test_compiler_options_split_like_the_shell(self):
        t = translate(["nvcc", "--compiler-options", "-fPIC -fvisibility=hidden", "-c", "/src/k.cu"])
        self.assertIn("-fPIC", t.flags)
        self.assertIn("-fvisibility=hidden", t.flags)

    def test_relative_include_stays_relative_to_the_entry(self):
        # clang-tidy runs in the entry's directory, so -I../x means the same as for nvcc there.
        t = translate(["nvcc", "-I../mis-cuda", "-c", "/src/k.cu"])
        self.assertIn("-I../mis-cuda", t.flags)

    def test_launcher_is_stripped(self):
        t = translate(["ccache", "nvcc", "-arch=sm_80", "-c", "/src/k.cu"])
        self.assertTrue(t.nvcc)
        self.assertEqual(t.archs, ["sm_80"])


class Architectures(unittest.TestCase):
    def test_family_targets_become_the_families_a_target(self):
        self.assertEqual(cs.arch_of("sm_100f"), "sm_100a")
        self.assertEqual(cs.arch_of("compute_120f"), "sm_120a")
        self.assertEqual(cs.arch_of("sm_90a"), "sm_90a")
        self.assertIsNone(cs.arch_of("native"))

    def test_unknown_architectures_fall_back_to_an_older_one(self):
        self.assertEqual(cs.clang_arch("sm_90"), "sm_90")
        self.assertEqual(cs.clang_arch("sm_130"), "sm_121")
        self.assertEqual(cs.clang_arch("sm_99"), "sm_90")
        self.assertIsNone(cs.clang_arch("sm_10"))


class Globs(unittest.TestCase):
    def test_later_globs_win(self):
        self.assertTrue(cs.glob_selects("cuda-scope-*", "cuda-scope-proxy-fence"))
        self.assertFalse(cs.glob_selects("-*,cuda-scope-callback-api", "cuda-scope-proxy-fence"))
        self.assertFalse(cs.glob_selects("cuda-scope-*,-cuda-scope-proxy-fence", "cuda-scope-proxy-fence"))
        self.assertTrue(cs.glob_selects("-*,cuda-scope-proxy-*", "cuda-scope-proxy-fence"))

    def test_run_clang_tidy_spellings(self):
        argv = cs.run_clang_tidy_spellings(["-header-filter=.*", "-fix", "-config-file=c.yaml", "-p", "b"])
        self.assertEqual(argv[0], "--header-filter=.*")
        self.assertEqual(argv[1], "--fix")
        self.assertEqual(argv[2], "--tidy-arg=--config-file=" + os.path.abspath("c.yaml"))
        self.assertEqual(argv[3:], ["-p", "b"])


class Merging(unittest.TestCase):
    def test_both_front_ends_claim_the_same_thing(self):
        tidy = cs.Diag("warning", "/k.cu", 8, 7, "'Flag' is published here with a relaxed store", "x")
        ir = cs.Diag("remark", "/k.cu", 8, 7, "kernel argument 1 is published here (store, relaxed)", "x")
        other = cs.Diag("warning", "/k.cu", 8, 7, "'Flag' is received here with a relaxed load", "x")
        self.assertEqual(cs.claim_of(tidy.message), cs.claim_of(ir.message))
        self.assertNotEqual(cs.claim_of(tidy.message), cs.claim_of(other.message))


class PassRemarks(unittest.TestCase):
    def test_remarks_get_their_rule_from_the_record(self):
        err = ("/k.cu:3:5: remark: reads shared memory through the async proxy [-Rpass-analysis=cuda-scope]\n"
               "/k.cu:7:2: remark: published here [-Rpass-analysis=cuda-scope]\n"
               "/k.cu:9:1: error: something clang says\n")
        record = ("--- !Analysis\nPass:            cuda-scope\nName:            cuda-scope-proxy-fence\n"
                  "DebugLoc:        { File: k.cu, Line: 3, Column: 5 }\n...\n"
                  "--- !Analysis\nPass:            cuda-scope\nName:            cuda-scope-release-acquire\n"
                  "DebugLoc:        { File: k.cu, Line: 7, Column: 2 }\n...\n")
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(record)
        try:
            remarks, others = cs.pass_diagnostics(err, f.name)
        finally:
            os.remove(f.name)
        self.assertEqual([(d.line, d.check) for d in remarks],
                         [(3, "cuda-scope-proxy-fence"), (7, "cuda-scope-release-acquire")])
        self.assertEqual(remarks[0].message, "reads shared memory through the async proxy")
        self.assertEqual([d.level for d in others], ["error"])


class ExportedFixes(unittest.TestCase):
    def test_runs_are_joined_and_each_diagnostic_is_written_once(self):
        one = ("---\nMainSourceFile:  '/a.cu'\nDiagnostics:\n  - DiagnosticName:  cuda-scope-x\n"
               "    DiagnosticMessage:\n      Message: 'm'\n...\n")
        empty = "---\nMainSourceFile:  '/b.cu'\nDiagnostics: []\n...\n"
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("0.yaml", one), ("1.yaml", one), ("2.yaml", empty)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            out = os.path.join(d, "fixes.out")
            cs.write_fixes(out, d)
            text = open(out).read()
        self.assertEqual(text.count("DiagnosticName:"), 1)
        self.assertTrue(text.startswith("---\nMainSourceFile:"))


if __name__ == "__main__":
    unittest.main()
