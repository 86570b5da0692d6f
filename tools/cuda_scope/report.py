"""Output: text as clang-tidy prints it (streamed per file on a terminal), SARIF 2.1.0 for code
scanning, JSON, and exported fix-its."""
import hashlib
import json
import os
import re
import sys
import urllib.parse

from .common import VERSION, Fatal, find_up, source_line
from .diagnostics import parse_output, pass_diagnostics, place_of
from .locate import doc_summary, help_uri_base
from .facts import snippet
from .rewrite import map_diags
from .rules import PASS_RULES
from .suppress import Suppressions

def display_column(file, line, col, cache):
    """clang counts columns in bytes; SARIF here counts Unicode code points."""
    text = source_line(file, line, cache)
    return col if text is None else len(text[:max(col - 1, 0)].decode("utf-8", "replace")) + 1


def artifact(file, root):
    rel = os.path.relpath(file, root) if file.startswith(root.rstrip(os.sep) + os.sep) else None
    if rel:
        return {"uri": urllib.parse.quote(rel.replace(os.sep, "/")), "uriBaseId": "SRCROOT"}
    return {"uri": "file://" + urllib.parse.quote(file.replace(os.sep, "/"))}


def sarif_region(d, cache):
    region = {"startLine": max(d.line, 1)}
    if d.col:
        region["startColumn"] = display_column(d.file, d.line, d.col, cache)
    return region


def repository_root(start=None):
    """The root of the repository the command runs in (the nearest folder up with .git), which
    SARIF paths are relative to, wherever in it the command runs; the current folder outside one."""
    here = os.path.abspath(start or os.getcwd())
    return find_up(here, ".git") or here


def line_text(file, line, cache):
    text = source_line(file, line, cache)
    return "" if text is None else text.decode("utf-8", "replace").rstrip("\r")


def fingerprint(f, root, cache, seen):
    """A result's identity across commits, for code scanning's partialFingerprints: the rule, the
    file, and the text of the line without its spacing, so that lines moving up or down keep it; the
    n-th same result in a file gets n."""
    rel = os.path.relpath(f.file, root) if f.file else ""
    text = re.sub(r"\s+", "", line_text(f.file, f.line, cache)) if f.file else ""
    digest = hashlib.sha256("\0".join((f.check or "", rel.replace(os.sep, "/"), text)).encode()).hexdigest()[:32]
    seen[digest] = seen.get(digest, 0) + 1
    return f"{digest}:{seen[digest]}"


def help_base_of(docs, given):
    """The prefix of each rule's helpUri: --help-uri-base, else the pages of the cuda-scope repository
    the command comes from, else the docs found beside the command as file:// URIs."""
    base = given or help_uri_base(docs) or ("file://" + urllib.parse.quote(docs) + "/" if docs else None)
    return base + "/" if base and not base.endswith("/") else base


def load_baseline(path):
    """The results of an earlier run's SARIF report (--baseline), each with its rule and fingerprint."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        results = [r for run in doc["runs"] for r in run.get("results", [])]
        for r in results:
            r["ruleId"], r["partialFingerprints"]["primaryLocationLineHash"]  # noqa: B018 (both must be there)
    except OSError as e:
        raise Fatal(f"--baseline={path}: {e.strerror} (nothing was analysed)")
    except (ValueError, KeyError, TypeError, AttributeError):
        raise Fatal(f"--baseline={path}: not a SARIF report of cuda-scope (--format=sarif writes one): each result "
                    "needs its ruleId and partialFingerprints.primaryLocationLineHash (nothing was analysed)")
    return results


def _baseline_match(found, baseline, root):
    """({id(finding): 'new' or 'unchanged'}, the baseline's results no finding matches), matching by
    rule and fingerprint (the line's text, not its number: a finding whose line moved is unchanged),
    each baseline result at most once."""
    cache, seen, left = {}, {}, {}
    for n, r in enumerate(baseline):
        left.setdefault((r["ruleId"], r["partialFingerprints"]["primaryLocationLineHash"]), []).append(n)
    states, matched = {}, set()
    for f in found:
        slot = left.get((f.check, fingerprint(f, root, cache, seen)))
        if slot:
            matched.add(slot.pop(0))
            states[id(f)] = "unchanged"
        else:
            states[id(f)] = "new"
    return states, [r for n, r in enumerate(baseline) if n not in matched]


def baseline_states(found, baseline, root):
    return _baseline_match(found, baseline, root)[0]


def absent_results(found, baseline, root):
    return _baseline_match(found, baseline, root)[1]


def to_sarif(findings, errors, checks, docs, help_base, root, analysed, notes=(), troubles=(), states=None,
             absent=()):
    """A SARIF 2.1.0 log; help_base is --help-uri-base (None: the docs' folder). troubles: what kept
    the run from analysing everything (a file not planned, a run that failed, timed out or was not
    run); with any, or any error, the invocation did not succeed."""
    help_base = help_base_of(docs, help_base)
    cache = {}
    seen = {}
    ids = sorted(set(checks) | {f.check for f in findings})
    rules = []
    for rid in ids:
        summary = doc_summary(docs, rid) or f"{rid} (see its documentation)"
        rule = {"id": rid, "name": rid, "shortDescription": {"text": summary},
                "fullDescription": {"text": summary},
                "defaultConfiguration": {"level": "warning"}}
        if rid.startswith("cuda-scope-") and help_base:
            rule["helpUri"] = help_base + rid[len("cuda-scope-"):] + ".md"
            rule["help"] = {"text": f"{summary} See {rule['helpUri']}."}
        rules.append(rule)
    index = {r["id"]: n for n, r in enumerate(rules)}
    results = []
    for f in findings:
        res = {"ruleId": f.check, "ruleIndex": index[f.check],
               "level": "error" if f.level in ("error", "fatal error") else "warning",
               "message": {"text": f.message},
               "locations": [{"physicalLocation": {"artifactLocation": artifact(f.file, root),
                                                   "region": sarif_region(f, cache)}}]}
        related = []
        for n, note in enumerate(f.notes, 1):
            loc = {"id": n, "message": {"text": note.message}}
            if note.file:
                loc["physicalLocation"] = {"artifactLocation": artifact(note.file, root),
                                           "region": sarif_region(note, cache)}
            related.append(loc)
        if related:
            res["relatedLocations"] = related
        res["partialFingerprints"] = {"primaryLocationLineHash": fingerprint(f, root, cache, seen)}
        res["properties"] = {"sides": f.sides}
        if states is not None:
            res["baselineState"] = states[id(f)]
        results.append(res)
    # The baseline's findings that are gone, as SARIF keeps them: absent.
    for r in absent:
        gone = {k: v for k, v in r.items() if k != "ruleIndex"}
        gone["baselineState"] = "absent"
        results.append(gone)
    notifications = []
    for e in list(errors) + list(notes):
        n = {"level": "error" if e.is_error else "note", "message": {"text": e.message}}
        if e.file:
            n["locations"] = [{"physicalLocation": {"artifactLocation": artifact(e.file, root),
                                                    "region": sarif_region(e, cache)}}]
        notifications.append(n)
    notifications += [{"level": "error", "message": {"text": t}} for t in troubles]
    driver = {"name": "cuda-scope", "version": VERSION, "semanticVersion": VERSION, "rules": rules}
    if help_base:
        driver["informationUri"] = urllib.parse.urljoin(help_base, "../tools.md")
    return {
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {"SRCROOT": {"uri": "file://" + urllib.parse.quote(
                root.replace(os.sep, "/").rstrip("/") + "/")}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": not errors and not troubles,
                             "toolExecutionNotifications": notifications}],
            "results": results,
            "properties": {"translationUnits": analysed},
        }],
    }


def to_json(findings, errors, files, failed, notes, skipped, problems=(), interrupted=False, states=None,
            absent=()):
    """The --format=json report. files: those analysed (every run finished); failed: the runs that
    failed, timed out or did not run; errors: clang's errors, and what kept files from being planned."""
    out = {"version": VERSION, "complete": not errors and not failed and not problems and not interrupted,
           "interrupted": interrupted,
           "findings": [dict(diag_json(d), **({"baseline_state": states[id(d)]} if states is not None else {}))
                        for d in findings],
           "errors": [diag_json(d) for d in errors] + [{"file": None, "line": 0, "column": 0, "level": "error",
                                                        "message": p, "sides": []} for p in problems],
           "files": files,
           "failed": [{"file": f, "side": s, "reason": r} for f, s, r in failed],
           "notes": [{"file": n.file, "line": n.line, "column": n.col, "message": n.message} for n in notes],
           "skipped": [{"file": k.file, "line": k.line, "column": k.col, "kind": k.dialect.name,
                        "what": k.what, "reason": k.dialect.why, "sides": k.sides}
                       for k in sorted(skipped, key=lambda k: (k.file, k.line, k.col))]}
    if states is not None:
        out["absent"] = [{"check": r["ruleId"], "message": r.get("message", {}).get("text", ""),
                          "location": (r.get("locations") or [{}])[0].get("physicalLocation", {})} for r in absent]
    return out


def diag_json(d):
    out = {"file": d.file, "line": d.line, "column": d.col, "level": d.level, "message": d.message}
    if d.check:
        out["check"] = d.check
    out["sides"] = d.sides
    if d.notes:
        out["notes"] = [{"file": n.file, "line": n.line, "column": n.col, "message": n.message} for n in d.notes]
    return out


class Stream:
    """Shows each file's findings as soon as all of its runs have finished, for a person watching a
    terminal; the final report, sorted and merged, is then not printed again. Where the report goes
    to a pipe or a file, nothing streams and the report stays the same for every -j."""

    def __init__(self, jobs, out, enabled, rewrites=None):
        self.out, self.enabled, self.rewrites = out, enabled, rewrites
        self.left = {}
        for j in jobs:
            self.left[j.t.file] = self.left.get(j.t.file, 0) + 1
        self.done = {}
        self.shown = set()
        self.nolint = Suppressions()

    def finished(self, job, out, err):
        if not self.enabled:
            return
        self.done.setdefault(job.t.file, []).append((job, out, err))
        self.left[job.t.file] -= 1
        if not self.left[job.t.file]:
            self._show(job.t.file)

    def dropped(self, job):
        """A run that was planned and is not made (a device side that cannot differ from the host's)."""
        if not self.enabled:
            return
        self.left[job.t.file] -= 1
        if not self.left[job.t.file] and job.t.file in self.done:
            self._show(job.t.file)

    def _show(self, file):
        diags = []
        for j, o, e in self.done.pop(file):
            found = [d for d in pass_diagnostics(e, j.record)[0]] if j.side == "pass" else parse_output(o)
            map_diags(found, self.rewrites, j.t.directory, snippet)
            for d in found:
                if d.level == "remark":
                    d.level = "warning"
                if d.is_error or not d.check or (j.side == "pass" and d.check not in PASS_RULES):
                    continue
                if j.side == "pass" and d.file and self.nolint.suppressed(
                        os.path.normpath(os.path.join(j.t.directory, d.file)), d.line, d.check):
                    continue  # NOLINT, as clang-tidy honours it in its own (suppress.py)
                place = place_of(d)
                if place not in self.shown:
                    self.shown.add(place)
                    diags.append(d)
        sys.stderr.write("\r\033[K")
        print_text(sorted(diags, key=lambda d: (d.file or "", d.line, d.col, d.check or "")), self.out)
        self.out.flush()


def print_text(diags, out):
    for d in diags:
        print(d.header(), file=out)
        for line in d.snippet:
            print(line, file=out)
        for n in d.notes:
            print(n.header(), file=out)
            for line in n.snippet:
                print(line, file=out)


FIX_ITEM = re.compile(r"DiagnosticName:\s*(?P<check>\S+)\s+DiagnosticMessage:.*?FilePath:\s*'?(?P<file>[^'\n]*)'?\s+"
                      r"FileOffset:\s*(?P<offset>\d+)\s+Replacements:\s*(?P<fixes>\[\]|\n\s+- )", re.S)


def fixed_findings(yaml_paths):
    """(check, file, line) of each diagnostic with replacements in clang-tidy's exported fixes, the
    line read from the file as it is before the fixes apply."""
    out, texts = set(), {}
    for path in yaml_paths:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for item in re.split(r"\n(?=  - DiagnosticName:)", text):
            m = FIX_ITEM.search(item)
            if not m or m.group("fixes") == "[]":
                continue
            file = m.group("file")
            if file not in texts:
                try:
                    with open(file, "rb") as src:
                        texts[file] = src.read()
                except OSError:
                    texts[file] = b""
            out.add((m.group("check"), file, texts[file][:int(m.group("offset"))].count(b"\n") + 1))
    return out


def write_fixes(path, fixes_dir):
    """One YAML file with the fix-its of every run, as run-clang-tidy -export-fixes writes it: the
    runs' Diagnostics lists joined, each diagnostic once."""
    items, seen = [], set()
    for name in sorted(os.listdir(fixes_dir), key=lambda n: int(n.split(".")[0]) if n.split(".")[0].isdigit() else 0):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(fixes_dir, name), encoding="utf-8") as fh:
            text = fh.read()
        body = text.split("\nDiagnostics:", 1)[1] if "\nDiagnostics:" in text else ""
        body = body.split("\n...", 1)[0]
        for item in re.split(r"\n(?=  - )", "\n" + body.strip("\n"))[1:] if body.strip() not in ("", "[]") else []:
            if item not in seen:
                seen.add(item)
                items.append(item)
    with open(path, "w", encoding="utf-8") as out:
        out.write("---\nMainSourceFile:  ''\nDiagnostics:" + ("\n" + "\n".join(items) if items else " []") + "\n...\n")
