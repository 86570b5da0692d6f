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


def doc(file, functions=(), callbacks=(), captures=(), regions=(), threads=()):
    return {"format": "cuda-scope-facts", "version": facts.VERSION, "file": file, "functions": list(functions),
            "callbacks": list(callbacks), "captures": list(captures), "regions": list(regions),
            "threads": list(threads)}


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


def region(fid, file, line, mode="global", flags="nonblocking", locks=()):
    r = {"in": fid, "stream": "S", "mode": mode, "flags": flags, "begin": at(file, line)}
    if locks:
        r["locks"] = list(locks)
    return r


def thread(entry, spawner, file, line, joined=None, many=False):
    t = {"entry": entry, "name": entry, "how": "std::thread", "at": at(file, line), "in": spawner, "many": many}
    if joined:
        t["joined"] = at(file, joined)
    return t


def unsafe(fid, file, line, api="cudaMalloc", kind="unsafe", locks=(), **extra):
    """A function whose only capture event is one call; edges as fn() takes them."""
    f = fn(fid, file, line, edges=extra.pop("edges", ()))
    e = {"at": at(file, line), "kind": kind, "api": api, "message": "m", **extra}
    if locks:
        e["locks"] = list(locks)
    f["capture"] = [e]
    return f


class Threads(unittest.TestCase):
    """Another thread's call while a capture is open (the rule facts.thread_findings applies)."""

    def test_a_thread_s_unsafe_call_breaks_a_global_capture_elsewhere(self):
        p = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)], regions=[region("record", "/cap.cu", 2)]),
                    doc("/w.cpp", [unsafe("work", "/w.cpp", 3), fn("start", "/w.cpp", 9)],
                        threads=[thread("work", "start", "/w.cpp", 10)]))
        found = facts.thread_findings(p)
        self.assertEqual([(d.file, d.line) for d in found], [("/w.cpp", 3)])
        self.assertIn("global mode", found[0].message)

    def test_thread_local_and_relaxed_captures_let_other_threads_allocate_but_not_synchronize_the_device(self):
        for mode in ("thread-local", "relaxed"):
            p = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)], regions=[region("record", "/cap.cu", 2, mode)]),
                        doc("/w.cpp", [unsafe("work", "/w.cpp", 3), unsafe("sync", "/w.cpp", 5, "cudaDeviceSynchronize",
                                                                           "sync", device=True),
                                       fn("start", "/w.cpp", 9)],
                            threads=[thread("work", "start", "/w.cpp", 10), thread("sync", "start", "/w.cpp", 11)]))
            self.assertEqual([d.line for d in facts.thread_findings(p)], [5], mode)

    def test_a_lock_held_on_every_way_to_both_sides_orders_them(self):
        # work is reached from the thread entry two ways: one under the lock, one not.
        entry = fn("entry", "/w.cpp", 20, edges=[(21, "work")])
        entry["edges"][0]["locks"] = ["var:M"]
        both = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)],
                           regions=[region("record", "/cap.cu", 2, locks=["var:M"])]),
                       doc("/w.cpp", [unsafe("work", "/w.cpp", 3), entry, fn("start", "/w.cpp", 9)],
                           threads=[thread("entry", "start", "/w.cpp", 10)]))
        self.assertEqual(facts.thread_findings(both), [])
        other = fn("other", "/w.cpp", 30, edges=[(31, "work")])  # a second entry, no lock
        one_way = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)],
                              regions=[region("record", "/cap.cu", 2, locks=["var:M"])]),
                          doc("/w.cpp", [unsafe("work", "/w.cpp", 3), entry, other, fn("start", "/w.cpp", 9)],
                              threads=[thread("entry", "start", "/w.cpp", 10), thread("other", "start", "/w.cpp", 11)]))
        self.assertEqual([d.line for d in facts.thread_findings(one_way)], [3])
        unknown = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)], regions=[region("record", "/cap.cu", 2)]),
                          doc("/w.cpp", [unsafe("work", "/w.cpp", 3, locks=["?"]), fn("start", "/w.cpp", 9)],
                              threads=[thread("work", "start", "/w.cpp", 10)]))
        self.assertEqual(facts.thread_findings(unknown), [], "a lock the facts cannot name may be the same")

    def test_a_thread_waited_for_runs_only_beside_what_its_starter_does_before_waiting(self):
        main = fn("main", "/m.cpp", 1, edges=[(3, "record"), (6, "record")])
        for start, joined, expect in ((2, 4, [3]), (4, 5, [])):  # started before the first record, or between
            p = program(doc("/m.cpp", [main, fn("record", "/m.cpp", 10), unsafe("work", "/m.cpp", 20)],
                            regions=[region("record", "/m.cpp", 11)],
                            threads=[thread("work", "main", "/m.cpp", start, joined=joined)]))
            self.assertEqual([d.line for d in facts.thread_findings(p)], [20] if expect else [], (start, joined))

    def test_one_thread_started_in_a_loop_breaks_its_twins_capture(self):
        worker = unsafe("worker", "/w.cpp", 3, edges=[(4, "record")])
        for many in (True, False):
            p = program(doc("/w.cpp", [worker, fn("record", "/w.cpp", 10), fn("start", "/w.cpp", 20)],
                            regions=[region("record", "/w.cpp", 11)],
                            threads=[thread("worker", "start", "/w.cpp", 21, joined=22, many=many)]))
            self.assertEqual(len(facts.thread_findings(p)), 1 if many else 0, many)

    def test_a_project_of_several_programs_relates_a_thread_to_its_own_program_only(self):
        # Two programs (two mains): a's thread synchronizes the device; b captures.
        main_a = fn("main:/a.cu", "/a.cu", 1)
        main_b = fn("main:/b.cu", "/b.cu", 1, edges=[(2, "record")])
        p = program(doc("/a.cu", [main_a, unsafe("sync", "/a.cu", 5, "cudaDeviceSynchronize", "sync", device=True)],
                        threads=[thread("sync", "main:/a.cu", "/a.cu", 3)]),
                    doc("/b.cu", [main_b, fn("record", "/b.cu", 10)], regions=[region("record", "/b.cu", 11)]))
        self.assertEqual(facts.thread_findings(p), [])
        # The same capture in a's own program is reported.
        main_a["edges"] = [{"to": "record", "at": at("/a.cu", 4), "message": "'record' is called here"}]
        p = program(doc("/a.cu", [main_a, unsafe("sync", "/a.cu", 5, "cudaDeviceSynchronize", "sync", device=True)],
                        threads=[thread("sync", "main:/a.cu", "/a.cu", 3)]),
                    doc("/b.cu", [main_b, fn("record", "/b.cu", 10)], regions=[region("record", "/b.cu", 11)]))
        self.assertEqual([d.line for d in facts.thread_findings(p)], [5])

    def test_legacy_work_of_another_thread_breaks_only_a_blocking_capture(self):
        for flags, n in (("blocking", 1), ("nonblocking", 0), ("unknown", 0)):
            p = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)],
                            regions=[region("record", "/cap.cu", 2, "relaxed", flags)]),
                        doc("/w.cpp", [unsafe("work", "/w.cpp", 3, "cudaMemset", "legacy"), fn("start", "/w.cpp", 9)],
                            threads=[thread("work", "start", "/w.cpp", 10)]))
            self.assertEqual(len(facts.thread_findings(p)), n, flags)


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

    def test_a_problem_names_the_source_file_whose_run_wrote_the_facts(self):
        with tempfile.TemporaryDirectory() as d:
            old = os.path.join(d, "3.json")
            with open(old, "w") as f:
                json.dump(dict(doc("/src/c.cu"), version=99), f)
            _, problems = facts.load([(old, "/src/c.cu")])
        self.assertTrue(problems[0].startswith(f"/src/c.cu (the facts its host run wrote, {old}): facts version 99"),
                        problems[0])


if __name__ == "__main__":
    unittest.main()
