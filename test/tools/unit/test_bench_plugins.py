"""The measurement scripts (bench/realcode/run.py, bench/mutation/run.py) refuse a plugin directory
without the nvcc-compatibility layer beside the module: analysed without it, nvcc's dialect costs
whole files, and the figures would not compare with any run made with it. Run by
test/tools/unit.test."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCRIPTS = [os.path.join(ROOT, "bench", "realcode", "run.py"), os.path.join(ROOT, "bench", "mutation", "run.py")]


@unittest.skipUnless(shutil.which("clang-tidy-22"), "needs clang-tidy-22 (the scripts look for it first)")
class PluginDirectory(unittest.TestCase):
    def test_a_copy_without_the_layer_is_refused(self):
        plugins = tempfile.mkdtemp(prefix="plugins-without-include-")
        try:
            for name in ("libCudaScopeTidy.so", "libCudaScopePass.so"):
                open(os.path.join(plugins, name), "wb").close()
            for script in SCRIPTS:
                p = subprocess.run([sys.executable, script, "--src", plugins, "--plugin-dir", plugins, "-q"],
                                   capture_output=True, text=True, timeout=120)
                self.assertNotEqual(p.returncode, 0, script)
                self.assertIn(os.path.join(plugins, "include", "cuda-scope-nvcc.h") + " not found", p.stderr, script)
        finally:
            shutil.rmtree(plugins, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
