"""Unit tests of NOLINT as clang-tidy reads it (tools/cuda_scope/suppress.py), which the command
applies to the IR pass's and the whole program's findings. Run by test/tools/unit.test."""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope.suppress import Suppressions, directives  # noqa: E402

CHECK = "cuda-scope-grid-barrier"


class Directives(unittest.TestCase):
    def test_forms(self):
        self.assertEqual(directives("f(); // NOLINT"), [("", None)])
        self.assertEqual(directives("// NOLINT(a, b-*)"), [("", "a, b-*")])
        self.assertEqual(directives("// NOLINTNEXTLINE(x)"), [("NEXTLINE", "x")])
        self.assertEqual(directives("/* NOLINTBEGIN */"), [("BEGIN", None)])
        self.assertEqual(directives("// NOLINTEND(y)"), [("END", "y")])
        # No closing parenthesis: no list, every check.
        self.assertEqual(directives("// NOLINT(cuda-scope"), [("", None)])
        self.assertEqual(directives("nothing here"), [])


class Suppressed(unittest.TestCase):
    def file(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_lines(self):
        path = self.file("a; // NOLINT(cuda-scope-*)\n"
                         "// NOLINTNEXTLINE(cuda-scope-grid-barrier)\n"
                         "b;\n"
                         "c; // NOLINT(*,-cuda-scope-grid-barrier)\n"
                         "d; // NOLINT(cuda-scope-mismatch)\n"
                         "e;\n")
        s = Suppressions()
        self.assertTrue(s.suppressed(path, 1, CHECK))
        self.assertTrue(s.suppressed(path, 3, CHECK))
        self.assertFalse(s.suppressed(path, 4, CHECK))
        self.assertTrue(s.suppressed(path, 4, "cuda-scope-mismatch"))
        self.assertFalse(s.suppressed(path, 5, CHECK))
        self.assertFalse(s.suppressed(path, 6, CHECK))

    def test_regions(self):
        path = self.file("// NOLINTBEGIN(cuda-scope-grid-barrier)\n"
                         "a;\n"
                         "// NOLINTBEGIN\n"
                         "b;\n"
                         "// NOLINTEND\n"
                         "c;\n"
                         "// NOLINTEND(cuda-scope-grid-barrier)\n"
                         "d;\n"
                         "// NOLINTBEGIN(cuda-scope-mismatch)\n"
                         "e;\n"
                         "// NOLINTEND(cuda-scope-*)\n")
        s = Suppressions()
        self.assertTrue(s.suppressed(path, 2, CHECK))
        self.assertTrue(s.suppressed(path, 4, "cuda-scope-mismatch"))  # the inner region: every check
        self.assertFalse(s.suppressed(path, 6, "cuda-scope-mismatch"))
        self.assertTrue(s.suppressed(path, 6, CHECK))
        self.assertFalse(s.suppressed(path, 8, CHECK))
        # A BEGIN whose END names another list matches nothing.
        self.assertFalse(s.suppressed(path, 10, "cuda-scope-mismatch"))

    def test_no_file(self):
        s = Suppressions()
        self.assertFalse(s.suppressed("/nonexistent/x.cu", 3, CHECK))
        self.assertFalse(s.suppressed(None, 3, CHECK))


if __name__ == "__main__":
    unittest.main()
