"""Unit tests of the whole-program merge (tools/cuda_scope/facts.py) on facts written by hand: what
crosses a file is reported once, with its path; what stays in one file is left to that file's check.
Run by test/tools/unit.test."""
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope import facts  # noqa: E402


def at(file, line, col=1):
    return {"file": file, "line": line, "column": col}


def doc(file, functions=(), callbacks=(), captures=()):
    return {"format": "cuda-scope-facts", "version": 1, "file": file, "functions": list(functions),
            "callbacks": list(callbacks), "captures": list(captures)}


def fn(fid, file, line, callback=(), capture=(), calls=(), overrides=(), edges=()):
    return {"id": fid, "name": fid, "at": at(file, line), "overrides": list(overrides),
            "edges": [{"to": t, "at": at(file, l), "message": f"'{t}' is called here"} for l, t in edges],
            "callback": [{"at": at(file, l), "message": m, "notes": []} for l, m in callback],
            "capture": [{"at": at(file, l), "kind": k, "message": m, "notes": []} for l, k, m in capture],
            "calls": [{"callee": c, "name": c, "virtual": v, "at": at(file, l), "notes": []} for l, c, v in calls]}


def program(*docs):
    p = facts.Program()
    for d in docs:
        facts.add(p, d)
    return p


def summary(found):
    return [(os.path.basename(d.file), d.line, d.check, [f"{os.path.basename(n.file)}:{n.line}" for n in d.notes])
            for d in found]


class Callbacks(unittest.TestCase):
    def test_a_virtual_call_reaches_overrides_of_overrides_in_other_files(self):
        p = program(
            doc("/a.cu", [fn("cb", "/a.cu", 3, calls=[(5, "Base::free", True)])],
                callbacks=[{"callback": "cb", "name": "cb", "registrar": "cudaLaunchHostFunc", "at": at("/a.cu", 9)}]),
            doc("/b.cpp", [fn("Mid::free", "/b.cpp", 2, overrides=["Base::free"])]),
            doc("/c.cpp", [fn("Leaf::free", "/c.cpp", 4, callback=[(4, "'cudaFree' called from a host callback")],
                              overrides=["Mid::free"])]))
        self.assertEqual(summary(facts.findings(p)),
                         [("c.cpp", 4, "cuda-scope-callback-api", ["a.cu:9", "a.cu:5"])])

    def test_a_path_inside_one_file_is_left_to_its_own_check(self):
        p = program(doc("/a.cu", [fn("cb", "/a.cu", 3, edges=[(5, "helper")]),
                                  fn("helper", "/a.cu", 7, callback=[(8, "m")])],
                        callbacks=[{"callback": "cb", "name": "cb", "registrar": "r", "at": at("/a.cu", 9)}]))
        self.assertEqual(facts.findings(p), [])

    def test_a_callback_defined_in_another_file_is_followed_from_its_registration(self):
        p = program(doc("/a.cu", callbacks=[{"callback": "cb", "name": "cb", "registrar": "r", "at": at("/a.cu", 9)}]),
                    doc("/b.cu", [fn("cb", "/b.cu", 3, callback=[(4, "m")])]))
        self.assertEqual(summary(facts.findings(p)), [("b.cu", 4, "cuda-scope-callback-api", ["a.cu:9", "a.cu:9"])])


class Captures(unittest.TestCase):
    def capture(self, mode, flags="unknown"):
        return {"stream": "S", "mode": mode, "flags": flags, "begin": at("/a.cu", 3), "callee": "op",
                "name": "op", "virtual": False, "at": at("/a.cu", 4), "notes": []}

    def op(self):
        return doc("/b.cu", [fn("op", "/b.cu", 2, capture=[
            (3, "unsafe", "'cudaMalloc' called {context} invalidates the capture"),
            (4, "legacy", {"blocking": "B {context}", "nonblocking": "N {context}",
                           "unknown": "U {context}: if {stream} is non-blocking"})])])

    def test_the_capture_fills_in_the_message(self):
        found = facts.findings(program(doc("/a.cu", captures=[self.capture("global")]), self.op()))
        self.assertEqual([d.message for d in found],
                         ["'cudaMalloc' called while stream 'S' is being captured invalidates the capture",
                          "U while stream 'S' is being captured: if 'S' is non-blocking"])

    def test_relaxed_mode_permits_unsafe_calls_and_flags_pick_the_legacy_wording(self):
        found = facts.findings(program(doc("/a.cu", captures=[self.capture("relaxed", "nonblocking")]), self.op()))
        self.assertEqual([d.message for d in found], ["N while stream 'S' is being captured"])


class Graph(unittest.TestCase):
    def test_an_inside_step_then_a_call_out_of_the_file_is_followed(self):
        a = fn("cb", "/a.cu", 3, edges=[(4, "helper")])
        helper = fn("helper", "/a.cu", 7, calls=[(8, "op", False)])
        p = program(doc("/a.cu", [a, helper],
                        callbacks=[{"callback": "cb", "name": "cb", "registrar": "r", "at": at("/a.cu", 9)}]),
                    doc("/b.cu", [fn("op", "/b.cu", 2, callback=[(3, "m")])]))
        self.assertEqual(summary(facts.findings(p)), [("b.cu", 3, "cuda-scope-callback-api", ["a.cu:9", "a.cu:4", "a.cu:8"])])

    def test_a_capture_does_not_take_a_call_that_runs_only_when_not_capturing(self):
        region = {"stream": "S", "mode": "global", "flags": "unknown", "begin": at("/a.cu", 3), "to": "run",
                  "message": "'run' is called here", "at": at("/a.cu", 4)}
        run = fn("run", "/a.cu", 6, calls=[(7, "op", False), (8, "sync", False)])
        run["calls"][1]["guarded"] = True
        p = program(doc("/a.cu", [run], captures=[region]),
                    doc("/b.cu", [fn("op", "/b.cu", 2, capture=[(3, "unsafe", "U {context}")]),
                                  fn("sync", "/b.cu", 5, capture=[(6, "sync", "S {context}")])]))
        self.assertEqual(summary(facts.findings(p)), [("b.cu", 3, "cuda-scope-capture-api", ["a.cu:3", "a.cu:4", "a.cu:7"])])
        run["calls"][0]["relaxed"] = True  # inside an exchange to relaxed mode: unsafe calls are allowed
        p = program(doc("/a.cu", [run], captures=[region]), doc("/b.cu", [fn("op", "/b.cu", 2, capture=[(3, "unsafe", "U")])]))
        self.assertEqual(facts.findings(p), [])


class Files(unittest.TestCase):
    def test_a_file_of_another_version_is_named_and_the_others_merged(self):
        with tempfile.TemporaryDirectory() as d:
            good, old, bad = (os.path.join(d, n) for n in ("good.json", "old.json", "bad.json"))
            with open(good, "w") as f:
                json.dump(doc("/b.cu", [fn("op", "/b.cu", 2)]), f)
            with open(old, "w") as f:
                json.dump(dict(doc("/c.cu"), version=99), f)
            with open(bad, "w") as f:
                f.write("{not json")
            p, problems = facts.load([good, old, bad])
        self.assertEqual(list(p.functions), ["op"])
        self.assertEqual(len(problems), 2)
        self.assertIn("facts version 99", problems[0])
        self.assertIn("cannot read the facts", problems[1])


if __name__ == "__main__":
    unittest.main()
