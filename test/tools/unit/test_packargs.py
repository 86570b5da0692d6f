"""Unit tests of the alias given to a template argument clang rejects for a type-pack template template
parameter (tools/cuda_scope/packargs.py): which alias templates own such a parameter, which templates
have defaults from clang's place on, where the alias is declared, and what is left alone. Run by
test/tools/unit.test."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope import packargs, rewrite  # noqa: E402

MAKE = "template <template <class...> class Map, class K, class V>\nusing make = Map<K, V>;\n"


def place(s, needle, nth=0):
    """(line, col) of the nth occurrence of needle in s."""
    at = -1
    for _ in range(nth + 1):
        at = s.index(needle, at + 1)
    return s.count("\n", 0, at) + 1, at - (s.rfind("\n", 0, at) + 1) + 1


def apply(s, places):
    new, _, _ = rewrite.rewrite_text(s.encode("latin-1"), packargs.argument_edits(s, places))
    return None if new is None else new.decode("latin-1")


class Owners(unittest.TestCase):
    def test_an_alias_template_that_uses_the_pack_parameter_as_a_template(self):
        s = MAKE
        self.assertEqual(packargs.owners(s), {"make": {s.index("Map,"): 0}})
        named = "template <class T, template <typename... Ts> typename M> using wrap = M<T>;"
        self.assertEqual(packargs.owners(named), {"wrap": {named.index("M>"): 1}})

    def test_left_alone(self):
        for s in ("template <template <class...> class Map> struct holder { Map<int> m; };",  # a class
                  "template <template <class...> class Map> using pass_on = other<Map>;",     # not Map<...>
                  "template <template <class, class> class Map> using two = Map<int, int>;",  # no pack
                  "template <template <int...> class Map> using ints = Map<1>;"):              # a value pack
            self.assertEqual(packargs.owners(s), {}, s)


class Defaults(unittest.TestCase):
    def test_every_later_parameter_has_one(self):
        s = "template <class K, class V, cuda::thread_scope S = cuda::thread_scope_device, int B = 16> struct bcht;"
        self.assertTrue(packargs.defaults_from(s, *place(s, "S =")))
        s = "template <class K, int B, class H = int> struct t;"
        self.assertFalse(packargs.defaults_from(s, *place(s, "B,")))

    def test_a_default_on_another_declaration(self):
        # clang points at the definition; the defaults are on the forward declaration.
        s = ("template <class K, class V, int S = 1, int B = 16> struct table;\n"
             "template <class K, class V, int S, int B> struct table {};\n")
        self.assertTrue(packargs.defaults_from(s, *place(s, "S,")))
        s = ("template <class K, class V, int S = 1, int B> struct table;\n"
             "template <class K, class V, int S, int B> struct table {};\n")
        self.assertFalse(packargs.defaults_from(s, *place(s, "S,")))
        # Another template of the same name in another key is not a declaration of it.
        s = ("template <class K, int S = 1> union table;\n"
             "template <class K, int S> struct table {};\n")
        self.assertFalse(packargs.defaults_from(s, *place(s, "S>")))


class Edits(unittest.TestCase):
    def test_alias_before_the_declaration_on_its_line(self):
        s = MAKE + "namespace n {\ntypedef types<make<bght::bcht, int, int>, make<bght::bcht, int, long>> all;\n}\n"
        new = apply(s, [place(s, "bcht, int, int")] + [place(s, "bght::bcht", 1)])
        self.assertEqual(new.splitlines()[3],
                         "template <class... __cuda_scope_T> using __cuda_scope_bght_bcht = bght::bcht<__cuda_scope_T...>; "
                         "typedef types<make<__cuda_scope_bght_bcht, int, int>, make<__cuda_scope_bght_bcht, int, long>> all;")
        self.assertEqual(len(new.splitlines()), len(s.splitlines()))

    def test_a_leading_scope_is_its_own_alias(self):
        s = MAKE + "typedef types<make<::table, int, int>> all;\n"
        self.assertIn("using __cuda_scope__table = ::table<__cuda_scope_T...>; typedef types<make<__cuda_scope__table,",
                      apply(s, [place(s, "table")]))

    def test_after_a_directive_and_a_template_head(self):
        s = MAKE + "#define X 1\ntemplate <class T> using one = make<bght::bcht, T, int>;\n"
        line = apply(s, [place(s, "bcht")]).splitlines()[3]
        self.assertTrue(line.startswith("template <class... __cuda_scope_T> using __cuda_scope_bght_bcht"), line)
        self.assertTrue(line.endswith("template <class T> using one = make<__cuda_scope_bght_bcht, T, int>;"), line)

    def test_left_alone(self):
        cases = [
            # in a function body, a class body: the alias at namespace scope might not see the name
            MAKE + "void f() { using m = make<bght::bcht, int, int>; }\n",
            MAKE + "struct s { using m = make<bght::bcht, int, int>; };\n",
            # a name the declaration's own template head declares
            MAKE + "template <template <class, class, int> class bcht> using m = make<bcht, int, int>;\n",
            # no plain name
            MAKE + "using m = make<decltype(x)::tmpl, int, int>;\n",
        ]
        for s in cases:
            self.assertIsNone(apply(s, [place(s, "bcht" if "bcht" in s else "tmpl", s.count("bcht") - 1 if "bcht" in s else 0)]), s)

    def test_spread_within_the_declaration(self):
        s = MAKE + ("typedef types<make<bght::bcht, int, int>, make<bght::iht, int, int>,\n"
                    "              make<bght::bcht, char, int>, other<bght::bcht, int>> all;\n"
                    "typedef types<make<bght::bcht, long, int>> more;\n")
        got = packargs.spread(s, *place(s, "bcht"), "make", 0)
        self.assertEqual(got, [place(s, "bght::bcht"), place(s, "bght::bcht", 1)])


class Rejected(unittest.TestCase):
    def test_clangs_notes(self):
        out = ("t.cu:18:29: error: template argument for non-type template parameter must be an expression\n"
               "t.cu:21:20: note: template template argument has different template parameters than its "
               "corresponding template template parameter\n"
               "t.cu:18:37: note: previous template template parameter is here\n"
               "inc/t.h:6:48: note: template parameter is declared here\n"
               "t.cu:30:1: error: something else\n"
               "t.cu:31:20: note: template template argument has different template parameters than its "
               "corresponding template template parameter\n"
               "t.cu:32:1: error: the notes are another error's\n"
               "t.cu:18:37: note: previous template template parameter is here\n")
        join = lambda d, f: os.path.normpath(os.path.join(d, f))
        self.assertEqual(packargs.rejected(out, "/p", join),
                         [(("/p/t.cu", 21, 20), ("/p/t.cu", 18, 37), ("/p/inc/t.h", 6, 48))])


if __name__ == "__main__":
    unittest.main()
