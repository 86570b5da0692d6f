"""Unit tests of the cuda-scope command's parts that need no clang: the nvcc translation, the
architecture mapping, the check globs, the merging of the two front ends' findings, the reading of
the IR pass's remarks and the exported fix-its. Run by test/tools/unit.test:
    python3 -m unittest discover -s test/tools/unit"""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope import cli, database, diagnostics, locate, merge, nvcc, report, rules, runner  # noqa: E402


def translate(words, file="/src/k.cu", directory="/build"):
    return database.translate_entry(nvcc.Translator(set()), file, directory, words, "test")


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
        self.assertEqual(nvcc.arch_of("sm_100f"), "sm_100a")
        self.assertEqual(nvcc.arch_of("compute_120f"), "sm_120a")
        self.assertEqual(nvcc.arch_of("sm_90a"), "sm_90a")
        self.assertIsNone(nvcc.arch_of("native"))

    def test_unknown_architectures_fall_back_to_an_older_one(self):
        self.assertEqual(nvcc.clang_arch("sm_90"), "sm_90")
        self.assertEqual(nvcc.clang_arch("sm_130"), "sm_121")
        self.assertEqual(nvcc.clang_arch("sm_99"), "sm_90")
        self.assertIsNone(nvcc.clang_arch("sm_10"))


class Globs(unittest.TestCase):
    def test_later_globs_win(self):
        self.assertTrue(rules.glob_selects("cuda-scope-*", "cuda-scope-proxy-fence"))
        self.assertFalse(rules.glob_selects("-*,cuda-scope-callback-api", "cuda-scope-proxy-fence"))
        self.assertFalse(rules.glob_selects("cuda-scope-*,-cuda-scope-proxy-fence", "cuda-scope-proxy-fence"))
        self.assertTrue(rules.glob_selects("-*,cuda-scope-proxy-*", "cuda-scope-proxy-fence"))

    def test_run_clang_tidy_spellings(self):
        argv = cli.run_clang_tidy_spellings(["-header-filter=.*", "-fix", "-config-file=c.yaml", "-p", "b"])
        self.assertEqual(argv[0], "--header-filter=.*")
        self.assertEqual(argv[1], "--fix")
        self.assertEqual(argv[2], "--tidy-arg=--config-file=" + os.path.abspath("c.yaml"))
        self.assertEqual(argv[3:], ["-p", "b"])


class HelpPages(unittest.TestCase):
    def test_a_forge_remote_has_a_web_page_and_a_path_has_none(self):
        self.assertEqual(locate.web_url("git@github.com:o/cuda-scope.git"), "https://github.com/o/cuda-scope")
        self.assertEqual(locate.web_url("https://tok@gitlab.com/g/sub/r.git"), "https://gitlab.com/g/sub/r")
        self.assertEqual(locate.web_url("ssh://git@host.example:2222/o/r"), "https://host.example/o/r")
        self.assertIsNone(locate.web_url("/srv/git/cuda-scope.git"))
        self.assertIsNone(locate.web_url("file:///srv/git/cuda-scope"))


class Merging(unittest.TestCase):
    def test_both_front_ends_claim_the_same_thing(self):
        tidy = diagnostics.Diag("warning", "/k.cu", 8, 7, "'Flag' is published here with a relaxed store", "x")
        ir = diagnostics.Diag("remark", "/k.cu", 8, 7, "kernel argument 1 is published here (store, relaxed)", "x")
        other = diagnostics.Diag("warning", "/k.cu", 8, 7, "'Flag' is received here with a relaxed load", "x")
        self.assertEqual(diagnostics.claim_of(tidy.message), diagnostics.claim_of(ir.message))
        self.assertNotEqual(diagnostics.claim_of(tidy.message), diagnostics.claim_of(other.message))

    def run_merge(self, runs):
        t = nvcc.Translation("/k.cu", "/", "test", lang="cuda", checks="cuda-scope-*")
        m = merge.Merge(timeout=5)
        for side, arch, rc, out, err, record in runs:
            job = runner.Job(t, side, arch, [], record)
            m.add(job, rc, out, err)
        return m

    def test_host_device_and_pass_report_one_bug_once(self):
        tidy = "/k.cu:8:7: warning: 'Flag' is published here with a relaxed store [cuda-scope-release-acquire]\n"
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("--- !Analysis\nPass: cuda-scope\nName: cuda-scope-release-acquire\n"
                    "DebugLoc: { File: '/k.cu', Line: 8, Column: 7 }\n...\n")
        try:
            m = self.run_merge([
                ("host", "sm_90", 0, tidy, "", None),
                ("device", "sm_90", 0, tidy, "", None),
                ("pass", "sm_90", 0, "", "/k.cu:8:7: remark: kernel argument 1 is published here (store, relaxed) "
                 "[-Rpass-analysis=cuda-scope]\n", f.name)])
        finally:
            os.remove(f.name)
        self.assertEqual(len(m.findings), 1)
        only = next(iter(m.findings.values()))
        self.assertEqual(only.sides, ["host", "device sm_90", "IR pass sm_90"])
        self.assertEqual((m.errors, m.failed), ({}, []))

    def test_a_remark_without_a_column_is_the_finding_on_its_line_in_either_order(self):
        # -O2 merges two loads of one line into a phi's load, whose location keeps the line only.
        tidy = "/k.cu:8:7: warning: 'Flag' is published here with a relaxed store [cuda-scope-release-acquire]\n"
        other = "/k.cu:8:9: warning: 'Flag' is received here with a relaxed load [cuda-scope-release-acquire]\n"
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write("--- !Analysis\nPass: cuda-scope\nName: cuda-scope-release-acquire\n"
                    "DebugLoc: { File: '/k.cu', Line: 8, Column: 0 }\n...\n")
        remark = "/k.cu:8:0: remark: kernel argument 1 is published here (store, relaxed) [-Rpass-analysis=cuda-scope]\n"
        try:
            for runs in ([("host", "sm_90", 0, tidy + other, "", None), ("pass", "sm_90", 0, "", remark, f.name)],
                         [("pass", "sm_90", 0, "", remark, f.name), ("host", "sm_90", 0, tidy + other, "", None)]):
                m = self.run_merge(runs)
                self.assertEqual(sorted((d.line, d.col, tuple(sorted(d.sides))) for d in m.findings.values()),
                                 [(8, 7, ("IR pass sm_90", "host")), (8, 9, ("host",))])
        finally:
            os.remove(f.name)

    def test_a_crash_without_diagnostics_is_a_failed_run_and_a_timeout_is_named(self):
        m = self.run_merge([("host", "sm_90", 139, "", "Stack dump:\n0. clang-tidy\n", None),
                            ("device", "sm_90", runner.TIMED_OUT, "", "", None)])
        self.assertEqual([(side, why.split(" (")[0]) for _, side, why in m.failed],
                         [("host", "clang-tidy failed"), ("device sm_90", "timed out after 5 s")])
        self.assertEqual(len(m.errors), 2)

    def test_warnings_as_errors_are_findings(self):
        m = self.run_merge([("host", "sm_90", 1, "/k.cu:3:1: error: 'cudaFree' called from a host callback "
                             "[cuda-scope-callback-api,-warnings-as-errors]\n", "", None)])
        self.assertEqual(len(m.findings), 1)
        self.assertEqual(m.failed, [])


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
            remarks, others = diagnostics.pass_diagnostics(err, f.name)
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
            report.write_fixes(out, d)
            with open(out) as fh:
                text = fh.read()
        self.assertEqual(text.count("DiagnosticName:"), 1)
        self.assertTrue(text.startswith("---\nMainSourceFile:"))


if __name__ == "__main__":
    unittest.main()


class CacheInputs(unittest.TestCase):
    def test_depfile(self):
        from cuda_scope.cache import parse_depfile
        text = "k.o: /src/k.cu /src/my\\ dir/a.h \\\n  /usr/include/stdio.h\\\n /src/b\\#c.h\n"
        self.assertEqual(parse_depfile(text), ["/src/k.cu", "/src/my dir/a.h", "/usr/include/stdio.h", "/src/b#c.h"])

    def test_key_leaves_out_temporary_paths(self):
        from cuda_scope.cache import Cache
        with tempfile.TemporaryDirectory() as d:
            cache = Cache(os.path.join(d, "c"), [], None, [])
            t = translate(["clang++", "-c", os.path.join(d, "k.cu")], file=os.path.join(d, "k.cu"), directory=d)
            a = runner.Job(t, "pass", "sm_90", ["clang++", "-foptimization-record-file=/tmp/x/1.yaml", "k.cu"])
            b = runner.Job(t, "pass", "sm_90", ["clang++", "-foptimization-record-file=/tmp/y/7.yaml", "k.cu"])
            c = runner.Job(t, "pass", "sm_90", ["clang++", "-O1", "-foptimization-record-file=/tmp/y/7.yaml", "k.cu"])
            self.assertEqual(cache.key(a), cache.key(b))
            self.assertNotEqual(cache.key(a), cache.key(c))
