"""Unit tests of the rewrite of a braced list in a launch's configuration (tools/cuda_scope/rewrite.py):
what the scan finds and leaves, and how the copy's columns, offsets and fix-its map back to the file.
Run by test/tools/unit.test."""
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope import diagnostics, nvcc, rewrite  # noqa: E402


def rewritten(text):
    new, _, _ = rewrite.rewrite_text(text.encode())
    return None if new is None else new.decode()


class Scan(unittest.TestCase):
    def test_grid_and_block(self):
        self.assertEqual(rewritten("k<<<n, {32, 4, 1}, 0, s>>>(p);"), "k<<<n, dim3(32, 4, 1), 0, s>>>(p);")
        self.assertEqual(rewritten("k<<<{a, b}, {8, 8}>>>(p);"), "k<<<dim3(a, b), dim3(8, 8)>>>(p);")
        self.assertEqual(rewritten("k<<<{}, 1>>>();"), "k<<<dim3(), 1>>>();")

    def test_nothing_to_do_is_no_copy(self):
        for text in ("k<<<n, 32>>>(p);", "int a[] = {1, 2};", "k<<<n, dim3{32, 1}>>>(p);",
                     "k<<<n, b, {}, s>>>(p);"):   # the shared memory size is no dim3
            self.assertIsNone(rewritten(text), text)

    def test_comments_and_strings_are_not_code(self):
        self.assertIsNone(rewritten('// k<<<g, {1}>>>(p);\nconst char *s = "k<<<g, {1}>>>"; /* <<<g, {1}>>> */'))
        self.assertIsNone(rewritten('auto r = R"x(k<<<g, {1}>>>)x"; char c = \'{\';'))
        self.assertIsNone(rewritten("// a comment \\\n k<<<g, {1}>>>(p);"))
        self.assertEqual(rewritten('k<<<n, /* {1} */ {32}, 0, s /* >>> */>>>(p); auto x = 1\'000;'),
                         'k<<<n, /* {1} */ dim3(32), 0, s /* >>> */>>>(p); auto x = 1\'000;')

    def test_template_arguments_and_operators_in_the_configuration(self):
        self.assertEqual(rewritten("k<<<f<T>(n), {32, 1, 1}>>>(p);"), "k<<<f<T>(n), dim3(32, 1, 1)>>>(p);")
        self.assertEqual(rewritten("k<<<Div<int, 2>::v, {32}>>>(p);"), "k<<<Div<int, 2>::v, dim3(32)>>>(p);")
        # A comparison is no template argument list: read again without them.
        self.assertEqual(rewritten("k<<<n < 4 ? 1 : 2, {32}>>>(p);"), "k<<<n < 4 ? 1 : 2, dim3(32)>>>(p);")
        self.assertEqual(rewritten("k<<<1 << s, {32}>>>(p);"), "k<<<1 << s, dim3(32)>>>(p);")
        self.assertEqual(rewritten("k<<<q->n, {32}>>>(p);"), "k<<<q->n, dim3(32)>>>(p);")
        self.assertEqual(rewritten("k<<<(n + 1) / 2, {B, 1}, sizeof(std::pair<int, int>), s>>>(p);"),
                         "k<<<(n + 1) / 2, dim3(B, 1), sizeof(std::pair<int, int>), s>>>(p);")
        self.assertEqual(rewritten("k<<<n, {f({1, 2}), g[{0}]}>>>(p);"), "k<<<n, dim3(f({1, 2}), g[{0}])>>>(p);")

    def test_no_launch(self):
        self.assertIsNone(rewritten("friend std::ostream &operator<<<T>(std::ostream &, const X<T> &); int a[] = {1};"))
        self.assertIsNone(rewritten("k<<<n, {32; int x = {1}; >>>"))

    def test_lines_are_kept_and_macros_rewritten(self):
        text = "#define L(k, g) k<<<g, {32, 1, 1}>>>()\nk<<<n,\n  {32,\n   4}>>>(p);\n"
        new = rewritten(text)
        self.assertEqual(new.count("\n"), text.count("\n"))
        self.assertEqual(new, "#define L(k, g) k<<<g, dim3(32, 1, 1)>>>()\nk<<<n,\n  dim3(32,\n   4)>>>(p);\n")


class MemberSpaces(unittest.TestCase):
    """A member declared with no execution space and defined out of line as __device__: nvcc gives
    it the definition's space, clang rejects the definition."""
    LOCK = ("class Lock {\npublic:\n    Lock( int *p );\n    void acquire();\n    ~Lock();\n"
            "    int get() const { return *m; }\nprivate:\n    int *m;\n};\n"
            "inline __device__\nLock::Lock( int *p ) : m(p) {}\n"
            "inline __device__ void\nLock::acquire( ) { while (atomicCAS(m, 0, 1)); }\n"
            "__host__ __device__ Lock::~Lock() {}\n")

    def test_the_definitions_space_is_written_before_the_declaration(self):
        new = rewritten(self.LOCK)
        self.assertEqual(new.count("\n"), self.LOCK.count("\n"))
        self.assertIn("    __device__ Lock( int *p );\n    __device__ void acquire();\n"
                      "    __host__ __device__ ~Lock();\n", new)
        self.assertIn("    int get() const", new)          # defined in the class: left alone
        _, inserts, described = rewrite.rewrite_text(self.LOCK.encode())
        self.assertEqual([(i.line, i.col, i.size) for i in inserts], [(3, 5, 11), (4, 5, 11), (5, 5, 20)])
        self.assertEqual(described[0][:3], ("Lock::Lock declared with no execution space", 3, 5))

    def test_operators(self):
        text = ("struct S {\n  S& operator +=( int a );\n};\n"
                "inline __device__ __host__ S& S::operator +=( int a ) { return *this; }\n")
        self.assertIn("  __host__ __device__ S& operator +=( int a );", rewritten(text))

    def test_left_alone(self):
        for text in (
                # A declaration that names a space already.
                "struct S { __device__ void f(); };\n__device__ void S::f() {}\n",
                # Definitions with different spaces: which declaration is which is not decided.
                "struct S { void f(int); void f(); };\n__device__ void S::f(int) {}\nvoid S::f() {}\n",
                # A call through a qualified name, and a declaration only.
                "struct S { static int f(); };\n__device__ int g() { if (S::f()) { return 1; } return 0; }\n",
                # The class is not in the file.
                "__device__ void S::f() {}\n",
                # A class template's member.
                "template <class T> struct S { void f(); };\ntemplate <class T> __device__ void S<T>::f() {}\n",
                # A friend declaration.
                "struct S { friend void f(); };\n__device__ void S::f() {}\n"):
            self.assertIsNone(rewritten(text), text)

    def test_comments_are_not_code(self):
        self.assertIsNone(rewritten("struct S { void f(); };\n// __device__ void S::f() {}\n"))


class Mapping(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.file = os.path.join(self.folder, "k.cu")
        with open(self.file, "w") as fh:
            fh.write("void f() {\n  k<<<n, {32, 4}>>>(p); q<<<{1}, {2}>>>(p); use(p);\n}\n")
        self.rw = rewrite.Rewrites(os.path.join(self.folder, "copies"))
        t = nvcc.Translation(self.file, self.folder, "test")
        self.overlay = self.rw.prepare(t, [], [])

    def tearDown(self):
        self.rw.remove()

    def test_the_copy_and_its_overlay(self):
        with open(self.rw.copies[self.file]) as fh:
            self.assertEqual(fh.read().split("\n")[1], "  k<<<n, dim3(32, 4)>>>(p); q<<<dim3(1), dim3(2)>>>(p); use(p);")
        with open(self.overlay) as fh:
            text = fh.read()
        self.assertIn("'use-external-names': false", text)
        self.assertIn(f"'name': '{self.file}'", text)

    def test_columns(self):
        copy_line = "  k<<<n, dim3(32, 4)>>>(p); q<<<dim3(1), dim3(2)>>>(p); use(p);"
        line = "  k<<<n, {32, 4}>>>(p); q<<<{1}, {2}>>>(p); use(p);"
        for word in ("k<<<", "32", ">>>(p); q", "1)", "use"):
            orig_word = word.rstrip(")")
            self.assertEqual(self.rw.col(self.file, 2, copy_line.index(word) + 1), line.index(orig_word) + 1, word)
        # Inside the inserted 'dim3': the '{' it stands for.
        self.assertEqual(self.rw.col(self.file, 2, copy_line.index("dim3") + 3), line.index("{") + 1)
        # Other lines and other files do not move.
        self.assertEqual(self.rw.col(self.file, 3, 9), 9)
        self.assertEqual(self.rw.col("/elsewhere.cu", 2, 40), 40)

    def test_diagnostics_and_locations_in_messages(self):
        d = diagnostics.Diag("warning", "k.cu", 2, 49, "the write is at k.cu:2:49 and at other.cu:2:49", "x")
        rewrite.map_diags([d], self.rw, self.folder, lambda d: [f"at {d.col}"])
        self.assertEqual((d.col, d.snippet), (37, ["at 37"]))
        self.assertEqual(d.message, "the write is at k.cu:2:37 and at other.cu:2:49")

    def test_fixes(self):
        start = len("void f() {\n")
        use = start + len("  k<<<n, dim3(32, 4)>>>(p); q<<<dim3(1), dim3(2)>>>(p); ")
        inside = start + len("  k<<<n, di")
        text = ("---\nMainSourceFile:  ''\nDiagnostics:\n"
                f"  - DiagnosticName:  a\n    DiagnosticMessage:\n      Message:         m\n"
                f"      FilePath:        '{self.file}'\n      FileOffset:      {use}\n      Replacements:\n"
                f"        - FilePath:        '{self.file}'\n          Offset:          {use}\n"
                f"          Length:          3\n          ReplacementText: other\n"
                f"  - DiagnosticName:  b\n    DiagnosticMessage:\n      Message:         m\n"
                f"      FilePath:        '{self.file}'\n      FileOffset:      {inside}\n      Replacements:\n"
                f"        - FilePath:        '{self.file}'\n          Offset:          {inside}\n"
                f"          Length:          1\n          ReplacementText: x\n...\n")
        out = rewrite.map_fixes(text, self.rw)
        mapped = use - 12
        self.assertIn(f"FileOffset:      {mapped}\n", out)
        self.assertIn(f"Offset:          {mapped}\n          Length:          3\n", out)
        self.assertNotIn("DiagnosticName:  b", out)   # it would edit text the file does not have
        with open(self.file) as fh:
            self.assertEqual(fh.read()[mapped:mapped + 3], "use")


if __name__ == "__main__":
    unittest.main()
