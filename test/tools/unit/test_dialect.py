"""The nvcc dialect kinds that need more than a message to be told from a real error (the notes,
the source around them, the side, the errors before them): each with a case clang 22 printed for
code nvcc 13 compiles, and a case of the same message that nvcc rejects too and stays an error."""
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools"))
from cuda_scope import diagnostics  # noqa: E402


class DialectKinds(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def source(self, text):
        path = os.path.join(self.dir.name, "t.cu")
        with open(path, "w") as fh:
            fh.write(textwrap.dedent(text).lstrip("\n"))
        return path

    def kinds(self, output, host=False):
        """The kind of each error of clang's output ('' for an error that is no known dialect)."""
        diags = diagnostics.parse_output(textwrap.dedent(output).strip().replace("FILE", self.path))
        known, rest = diagnostics.split_dialect(diags, {}, host)
        kinds = {id(d): k.name for d, k in known}
        return [kinds.get(id(d), "") for d in diags if d.is_error]

    def test_shared_variable_with_a_host_constructor(self):
        self.path = self.source("""
            __global__ void k(float *out) {
              union S { float a[32]; S() {} };
              __shared__ S tmp;
              S local;
              __shared__ T other;
            }
            """)
        out = """
            FILE:3:16: error: no matching constructor for initialization of 'S'
            FILE:2:26: note: candidate constructor not viable: call to __host__ function from __global__ function
            FILE:4:5: error: no matching constructor for initialization of 'S'
            FILE:2:26: note: candidate constructor not viable: call to __host__ function from __global__ function
            FILE:5:16: error: no matching constructor for initialization of 'T'
            FILE:2:26: note: candidate constructor not viable: requires 1 argument, but 0 were provided
            """
        # nvcc runs no constructor for a __shared__ variable; the local one it calls, and rejects; T
        # has no default constructor at all.
        self.assertEqual(self.kinds(out), ["shared-host-ctor", "", ""])

    def test_member_of_the_current_instantiation(self):
        self.path = self.source("""
            template <typename E, int R> struct Matrix;
            template <typename E> struct Matrix<E, 3> {
              static Matrix rotation(E c) { Matrix m; m.set_slice(c); return m; }
            };
            struct Plain { void f() { Matrix<int, 3> m; m.set_slice(1); } };
            """)
        out = """
            FILE:3:45: error: no member named 'set_slice' in 'Matrix<E, 3>'
            FILE:5:47: error: no member named 'set_slice' in 'Matrix<int, 3>'
            FILE:5:47: error: no member named 'set_slice' in 'Matrix<E, 3>'
            FILE:5:30: note: in instantiation of function template specialization 'g<int>' requested here
            """
        # The second names a specialization outside its template; the third is in an instantiation,
        # where nvcc looks the member up too.
        self.assertEqual(self.kinds(out), ["current-instantiation-member", "", ""])

    def test_const_member_assigned_in_a_class_template(self):
        self.path = self.source("""
            template <typename C>
            struct Ref {
              const C *s;
              const unsigned length;
              Ref &operator=(const Ref &r) { s = r.s; length = r.length; return *this; }
            };
            struct Plain {
              const unsigned length;
              Plain &operator=(const Plain &r) { length = r.length; return *this; }
            };
            """)
        out = """
            FILE:5:51: error: cannot assign to non-static data member 'length' with const-qualified type 'const unsigned int'
            FILE:9:46: error: cannot assign to non-static data member 'length' with const-qualified type 'const unsigned int'
            """
        self.assertEqual(self.kinds(out), ["const-member-template", ""])

    def test_device_body_on_the_host_side_only(self):
        self.path = self.source("""
            template <int N> struct Shape;
            template <int N> __device__ int tile() {
              return Shape<4 * N>::k;
            }
            template <int N> __host__ __device__ int both() {
              return Shape<4 * N>::k;
            }
            """)
        out = """
            FILE:3:10: error: implicit instantiation of undefined template 'Shape<8>'
            FILE:9:40: note: in instantiation of function template specialization 'tile<2>' requested here
            FILE:3:10: error: implicit instantiation of undefined template 'Shape<8>'
            FILE:6:10: error: implicit instantiation of undefined template 'Shape<8>'
            FILE:9:40: note: in instantiation of function template specialization 'both<2>' requested here
            """
        # The second error is the first one's instantiation again: clang prints its notes once.
        self.assertEqual(self.kinds(out, host=True), ["device-body-on-host", "device-body-on-host", ""])
        self.assertEqual(self.kinds(out, host=False), ["", "", ""])

    def test_use_of_a_function_whose_instantiation_failed(self):
        self.path = self.source("""
            template <int C> __global__ void norm(float *p) {
              Sums<8, 4>::dispatch<C>(p);
            }
            void launch() { cudaFuncSetAttribute(norm<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }
            void other() { cudaFuncSetAttribute(scale<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }
            """)
        out = """
            FILE:2:3: error: reference to overloaded function could not be resolved; did you mean to call it?
            FILE:4:38: note: in instantiation of function template specialization 'norm<2>' requested here
            FILE:4:17: error: no matching function for call to 'cudaFuncSetAttribute'
            /cuda/cuda_runtime_api.h:4030:58: note: candidate function not viable: no overload of 'norm' matching 'const void *' for 1st argument
            FILE:5:16: error: no matching function for call to 'cudaFuncSetAttribute'
            /cuda/cuda_runtime_api.h:4030:58: note: candidate function not viable: no overload of 'scale' matching 'const void *' for 1st argument
            """
        self.assertEqual(self.kinds(out), ["template-keyword", "template-keyword-use", ""])

    def test_names_declared_in_what_a_pragma_macro_made_clang_skip(self):
        self.path = self.source("""
            #define UNROLL #pragma unroll
            __device__ int total(const int *x) {
              int s = 0;
              UNROLL
              for (int i = 0; i < 4; ++i) { s += x[i]; }
              int t = s * 2;
              return t + s + u;
            }
            """)
        out = """
            FILE:4:3: error: expected expression
            FILE:1:16: note: expanded from macro 'UNROLL'
            FILE:7:10: error: use of undeclared identifier 't'
            FILE:7:18: error: use of undeclared identifier 'u'
            """
        self.assertEqual(self.kinds(out), ["pragma-macro", "pragma-macro-skipped", ""])

    def test_constant_through_a_reference_parameter(self):
        self.path = self.source("""
            template <int M> __device__ void gemm(const Frag (&a)[M]) { static_assert(a[0].REGS * M == 8, ""); }
            """)
        out = """
            FILE:1:75: error: static assertion expression is not an integral constant expression
            FILE:1:75: note: function parameter 'a' with unknown value cannot be used in a constant expression
            FILE:1:75: error: static assertion expression is not an integral constant expression
            FILE:1:75: note: read of non-constexpr variable 'n' is not allowed in a constant expression
            """
        self.assertEqual(self.kinds(out), ["unknown-reference", ""])


if __name__ == "__main__":
    unittest.main()
