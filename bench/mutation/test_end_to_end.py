"""End-to-end check of the mutation benchmark on its own examples (examples/): the unmutated files
are silent, and a fence mutant and a capture mutant are reported. Runs clang-tidy-22 and clang++-22
with the plugins of build/plugin (skipped when they are not built); about a minute.

USAGE: cd bench/mutation && python3 -m unittest test_end_to_end
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLUGINS = os.environ.get("CUDA_SCOPE_PLUGIN_DIR", os.path.join(ROOT, "build", "plugin"))


@unittest.skipUnless(os.path.isfile(os.path.join(PLUGINS, "libCudaScopePass.so")) and shutil.which("clang-tidy-22"),
                     "needs the built plugins and clang-tidy-22")
class Examples(unittest.TestCase):
    def test_silent_unmutated_and_reported_mutants(self):
        out = tempfile.mkdtemp(prefix="mutation-e2e-")
        try:
            result = os.path.join(out, "out.json")
            p = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "--corpus",
                                os.path.join(HERE, "examples", "corpus.json"), "--src", HERE, "--plugin-dir", PLUGINS,
                                "--file", "handoff|graph", "--kinds", "fence,capture", "--max-per-tu", "1", "--max-per-kind", "1", "-j", "2",
                                "-o", result], capture_output=True, text=True, timeout=900)
            print(p.stdout)
            self.assertEqual(p.returncode, 0, p.stderr[-3000:])
            with open(result, encoding="utf-8") as fh:
                doc = json.load(fh)
        finally:
            shutil.rmtree(out, ignore_errors=True)
        tus = {t["file"]: t for t in doc["tus"]}
        self.assertEqual(set(tus), {"handoff.cu", "graph.cu"})
        for t in tus.values():
            self.assertEqual(t["status"], "measured")
            self.assertEqual(t["baseline_findings"], {"clang-tidy": 0, "ir-pass": 0})
        by_kind = {m["kind"]: m for m in doc["mutants"]}
        self.assertEqual(set(by_kind), {"fence", "capture"})
        fence, capture = by_kind["fence"], by_kind["capture"]
        self.assertEqual(fence["status"], "broken")
        self.assertEqual(fence["front_ends"]["clang-tidy"]["verdict"], "reported")
        self.assertEqual(fence["front_ends"]["ir-pass"]["verdict"], "reported")
        self.assertEqual(capture["status"], "broken")
        self.assertEqual(capture["front_ends"]["clang-tidy"]["verdict"], "reported")
        self.assertEqual(capture["front_ends"]["ir-pass"]["verdict"], "n/a")
        self.assertIn("cuda-scope-capture-api", {f["check"] for f in capture["front_ends"]["clang-tidy"]["near"]})


    def test_left_out_with_reasons(self):
        p = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "--corpus",
                            os.path.join(HERE, "examples", "corpus.json"), "--src", HERE, "--plugin-dir", PLUGINS,
                            "--file", "leftout", "--kinds", "fence,scope", "--max-per-tu", "8", "--max-per-kind", "8",
                            "-j", "2", "-o", "/dev/stdout", "-q"], capture_output=True, text=True, timeout=900)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        doc = json.JSONDecoder().raw_decode(p.stdout)[0]
        got = sorted((m["line"], m["operator"], m["status"]) for m in doc["mutants"])
        self.assertEqual(got, [(20, "scope.builtin", "equivalent"), (24, "scope.builtin", "does-not-parse"),
                               (26, "fence.delete", "not-compiled"), (26, "fence.narrow", "not-compiled"),
                               (29, "fence.delete", "equivalent"), (29, "fence.narrow", "equivalent"),
                               (30, "fence.delete", "equivalent"), (30, "fence.narrow", "equivalent"),
                               (47, "fence.delete", "not-compiled"), (47, "fence.narrow", "not-compiled"),
                               (48, "scope.builtin", "not-compiled")])
        self.assertTrue(all(m.get("reason") for m in doc["mutants"]))
        unused = [m for m in doc["mutants"] if m["line"] in (47, 48)]
        self.assertTrue(all("neither side generates it" in m["reason"] for m in unused))

    def test_cases_no_call_selects(self):
        # A helper's switch over the order: the cases no caller's constant selects are folded away
        # at -O2 (the same program); the cases the callers take are broken and reported.
        p = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "--corpus",
                            os.path.join(HERE, "examples", "corpus.json"), "--src", HERE, "--plugin-dir", PLUGINS,
                            "--file", "orders", "--kinds", "order,scope", "--max-per-tu", "8", "--max-per-kind", "8",
                            "-j", "2", "-o", "/dev/stdout", "-q"], capture_output=True, text=True, timeout=900)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        doc = json.JSONDecoder().raw_decode(p.stdout)[0]
        got = {(m["line"], m["operator"]): m for m in doc["mutants"]}
        self.assertEqual(set(got), {(8, "scope.ptx"), (9, "scope.ptx"), (9, "order.ptx"),
                                    (17, "scope.ptx"), (18, "scope.ptx"), (18, "order.ptx")})
        for key in ((8, "scope.ptx"), (17, "scope.ptx")):
            self.assertEqual(got[key]["status"], "not-compiled", got[key])
            self.assertIn("no call of this TU reaches it", got[key]["reason"])
        for key in ((9, "scope.ptx"), (9, "order.ptx"), (18, "scope.ptx"), (18, "order.ptx")):
            self.assertEqual(got[key]["status"], "broken", got[key])
            for fe in ("clang-tidy", "ir-pass"):
                self.assertEqual(got[key]["front_ends"][fe]["verdict"], "reported", (key, fe))

    def test_unused_code_under_relocatable_device_code(self):
        # Relocatable device code (-dc) names the module by hashing the command line, and a
        # mutant's command names its own overlay: unused code must still compare equal.
        p = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "--corpus",
                            os.path.join(HERE, "examples", "corpus.json"), "--src", HERE, "--plugin-dir", PLUGINS,
                            "--projects", "examples-rdc", "--kinds", "fence,scope",
                            "--max-per-tu", "8", "--max-per-kind", "8", "-j", "2", "-o", "/dev/stdout", "-q"],
                           capture_output=True, text=True, timeout=900)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        doc = json.JSONDecoder().raw_decode(p.stdout)[0]
        got = {(m["line"], m["operator"]): m for m in doc["mutants"]}
        self.assertEqual(set(got), {(10, "fence.delete"), (10, "fence.narrow"), (11, "scope.builtin"),
                                    (18, "fence.delete"), (18, "fence.narrow"), (19, "scope.builtin")})
        for m in got.values():
            self.assertEqual(m["status"], "not-compiled", m)
            self.assertIn("neither side generates it", m["reason"])


if __name__ == "__main__":
    unittest.main()
