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
    """capture: (line, {key: sentence parts}) per call that breaks a capture under those keys."""
    return {"id": fid, "name": fid, "at": at(file, line), "overrides": list(overrides),
            "edges": [{"to": t, "at": at(file, l), "message": f"'{t}' is called here"} for l, t in edges],
            "callback": [{"at": at(file, l), "message": m, "notes": []} for l, m in callback],
            "capture": [event(file, l, breaks) for l, breaks in capture],
            "calls": [{"callee": c, "name": c, "virtual": v, "at": at(file, l), "notes": [],
                       "message": f"'{c}' may be called here, through a virtual call" if v else f"'{c}' is called here"}
                      for l, c, v in calls]}


def event(file, line, breaks, locks=()):
    e = {"at": at(file, line), "breaks": [{"keys": [k], "message": m} for k, m in breaks.items()]}
    if locks:
        e["locks"] = list(locks)
    return e


WORDS = ["while stream 'S' is being captured", "'S'"]


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
        found = facts.findings(p)
        self.assertEqual(summary(found), [("c.cpp", 4, "cuda-scope-callback-api", ["a.cu:9", "a.cu:5"])])
        # The call's own note, as its file words it, then the file that defines what runs.
        self.assertEqual(found[0].notes[1].message, "'Base::free' may be called here, through a virtual call; "
                                                    "'Leaf::free', defined in /c.cpp, overrides it")

    def test_a_path_inside_one_file_is_left_to_its_own_check(self):
        p = program(doc("/a.cu", [fn("cb", "/a.cu", 3, edges=[(5, "helper")]),
                                  fn("helper", "/a.cu", 7, callback=[(8, "m")])],
                        callbacks=[{"callback": "cb", "name": "cb", "registrar": "r", "at": at("/a.cu", 9)}]))
        self.assertEqual(facts.findings(p), [])

    def test_a_callback_defined_in_another_file_is_followed_from_its_registration(self):
        p = program(doc("/a.cu", callbacks=[{"callback": "cb", "name": "cb", "registrar": "r", "at": at("/a.cu", 9)}]),
                    doc("/b.cu", [fn("cb", "/b.cu", 3, callback=[(4, "m")])]))
        self.assertEqual(summary(facts.findings(p)), [("b.cu", 4, "cuda-scope-callback-api", ["a.cu:9", "a.cu:9"])])


def capture(key, at_line=4, **extra):
    """A call out of /a.cu made while a capture is open, in the capture's key `key` (state "s0"; "s1"
    gives key+"'")."""
    return {"state": "s0", "keys": {"s0": key, "s1": key + "'"}, "words": WORDS, "note": "capture of 'S' begins here",
            "begin": at("/a.cu", 3), "callee": "op", "name": "op", "virtual": False, "message": "'op' is called here",
            "at": at("/a.cu", at_line), **extra}


class Captures(unittest.TestCase):
    """The merge decides nothing: a call's facts hold its sentence per key, the capture's its key."""

    def op(self):
        return doc("/b.cu", [fn("op", "/b.cu", 2, capture=[
            (3, {"A": ["'cudaMalloc' called ", 0, " invalidates the capture"]}),
            (4, {"A": ["U ", 0, ": if ", 1, " is non-blocking"], "B": ["N ", 0]})])])

    def test_the_capture_fills_in_its_words(self):
        found = facts.findings(program(doc("/a.cu", captures=[capture("A")]), self.op()))
        self.assertEqual([d.message for d in found],
                         ["'cudaMalloc' called while stream 'S' is being captured invalidates the capture",
                          "U while stream 'S' is being captured: if 'S' is non-blocking"])
        self.assertEqual([n.message for n in found[0].notes],
                         ["capture of 'S' begins here", "'op' is called here; it is defined in /b.cu"])

    def test_the_capture_s_key_picks_the_sentence_and_a_call_without_it_is_silent(self):
        found = facts.findings(program(doc("/a.cu", captures=[capture("B")]), self.op()))
        self.assertEqual([(d.line, d.message) for d in found], [(4, "N while stream 'S' is being captured")])
        self.assertEqual(facts.findings(program(doc("/a.cu", captures=[capture("C")]), self.op())), [])


class Graph(unittest.TestCase):
    def test_an_inside_step_then_a_call_out_of_the_file_is_followed(self):
        a = fn("cb", "/a.cu", 3, edges=[(4, "helper")])
        helper = fn("helper", "/a.cu", 7, calls=[(8, "op", False)])
        p = program(doc("/a.cu", [a, helper],
                        callbacks=[{"callback": "cb", "name": "cb", "registrar": "r", "at": at("/a.cu", 9)}]),
                    doc("/b.cu", [fn("op", "/b.cu", 2, callback=[(3, "m")])]))
        self.assertEqual(summary(facts.findings(p)), [("b.cu", 3, "cuda-scope-callback-api", ["a.cu:9", "a.cu:4", "a.cu:8"])])

    def test_a_capture_does_not_take_a_guarded_call_and_a_call_s_state_picks_the_key(self):
        region = dict(capture("A"), to="run", message="'run' is called here")
        del region["callee"]
        run = fn("run", "/a.cu", 6, calls=[(7, "op", False), (8, "sync", False)])
        run["calls"][1]["guarded"] = True
        p = program(doc("/a.cu", [run], captures=[region]),
                    doc("/b.cu", [fn("op", "/b.cu", 2, capture=[(3, {"A": ["U ", 0]})]),
                                  fn("sync", "/b.cu", 5, capture=[(6, {"A": ["S ", 0]})])]))
        self.assertEqual(summary(facts.findings(p)), [("b.cu", 3, "cuda-scope-capture-api", ["a.cu:3", "a.cu:4", "a.cu:7"])])
        # A call that sets the walk's state: from there on the capture's key of that state.
        run["calls"][0]["state"] = "s1"
        for breaks, expect in (({"A": ["U"]}, []), ({"A'": ["U"]}, [3])):
            p = program(doc("/a.cu", [run], captures=[region]), doc("/b.cu", [fn("op", "/b.cu", 2, capture=[(3, breaks)])]))
            self.assertEqual([d.line for d in facts.findings(p)], expect, breaks)


def region(fid, file, line, key="G", locks=()):
    r = {"in": fid, "key": key, "words": WORDS, "note": "capture of 'S' begins here, in global mode",
         "begin": at(file, line)}
    if locks:
        r["locks"] = list(locks)
    return r


def thread(entry, spawner, file, line, joined=None, many=False):
    t = {"entry": entry, "name": entry, "how": "std::thread", "at": at(file, line), "in": spawner, "many": many,
         "note": f"a thread running '{entry}' is started here, through 'std::thread'"}
    if joined:
        t["joined"] = at(file, joined)
    return t


def unsafe(fid, file, line, keys=("G",), locks=(), **extra):
    """A function whose only capture event is one call that breaks a capture of each of `keys`; edges
    as fn() takes them."""
    f = fn(fid, file, line, edges=extra.pop("edges", ()))
    f["capture"] = [event(file, line, {k: ["m ", 0] for k in keys}, locks)]
    return f


class Threads(unittest.TestCase):
    """Another thread's call while a capture is open (facts.thread_findings): the call's keys hold the
    capture's."""

    def test_a_thread_s_call_breaks_a_capture_elsewhere_whose_key_it_holds(self):
        p = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)], regions=[region("record", "/cap.cu", 2)]),
                    doc("/w.cpp", [unsafe("work", "/w.cpp", 3), fn("start", "/w.cpp", 9)],
                        threads=[thread("work", "start", "/w.cpp", 10)]))
        found = facts.thread_findings(p)
        self.assertEqual([(d.file, d.line, d.message) for d in found],
                         [("/w.cpp", 3, "m while stream 'S' is being captured")])
        self.assertEqual([n.message for n in found[0].notes],
                         ["capture of 'S' begins here, in global mode, on the calling thread",
                          "a thread running 'work' is started here, through 'std::thread'"])

    def test_a_call_without_the_capture_s_key_is_silent(self):
        p = program(doc("/cap.cu", [fn("record", "/cap.cu", 1)], regions=[region("record", "/cap.cu", 2, "T")]),
                    doc("/w.cpp", [unsafe("work", "/w.cpp", 3), unsafe("sync", "/w.cpp", 5, ("G", "T")),
                                   fn("start", "/w.cpp", 9)],
                        threads=[thread("work", "start", "/w.cpp", 10), thread("sync", "start", "/w.cpp", 11)]))
        self.assertEqual([d.line for d in facts.thread_findings(p)], [5])

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
        p = program(doc("/a.cu", [main_a, unsafe("sync", "/a.cu", 5)],
                        threads=[thread("sync", "main:/a.cu", "/a.cu", 3)]),
                    doc("/b.cu", [main_b, fn("record", "/b.cu", 10)], regions=[region("record", "/b.cu", 11)]))
        self.assertEqual(facts.thread_findings(p), [])
        # The same capture in a's own program is reported.
        main_a["edges"] = [{"to": "record", "at": at("/a.cu", 4), "message": "'record' is called here"}]
        p = program(doc("/a.cu", [main_a, unsafe("sync", "/a.cu", 5)],
                        threads=[thread("sync", "main:/a.cu", "/a.cu", 3)]),
                    doc("/b.cu", [main_b, fn("record", "/b.cu", 10)], regions=[region("record", "/b.cu", 11)]))
        self.assertEqual([d.line for d in facts.thread_findings(p)], [5])


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
