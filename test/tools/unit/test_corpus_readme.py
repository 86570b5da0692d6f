"""bench/realcode/README.md says how to fetch the corpus: its table of projects and its `get` lines
must name every project and dependency of bench/realcode/corpus.json, at the commit pinned there,
and nothing else, so that the steps reproduce what run.py reads. Every project is in one half of
the corpus (development, evaluation, holdout or holdout2), and the README's table of that half lists it
with its number of TUs. Run by test/tools/unit.test."""
import json
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CORPUS = os.path.join(ROOT, "bench", "realcode")

GET = re.compile(r"^get\s+(\S+)\s+(\S+)\s+([0-9a-f]{40})\s*$", re.M)
ROW = re.compile(r"^\|\s*([^|\s]+)\s*\|\s*([\w.-]+/[\w.-]+)\s*\|\s*`([0-9a-f]{40})`\s*\|", re.M)
ROW_TUS = re.compile(r"^\|\s*([^|\s]+)\s*\|\s*[\w.-]+/[\w.-]+\s*\|\s*`[0-9a-f]{40}`\s*\|\s*(\d+)\s*\|", re.M)
# "### Development half" / "### Evaluation half" / "### Holdout half" / "### Second holdout half": the table of
# each half, up to the next heading.
HALF = re.compile(r"^### (\w+(?: \w+)?) half\n(.*?)(?=^#)", re.M | re.S)
HALVES = ("development", "evaluation", "holdout", "holdout2")
SECTION = {"second holdout": "holdout2"}  # a heading's words, where they are not the half's name


class CorpusReadme(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(CORPUS, "corpus.json"), encoding="utf-8") as fh:
            self.corpus = json.load(fh)
        with open(os.path.join(CORPUS, "README.md"), encoding="utf-8") as fh:
            self.readme = fh.read()

    def wanted(self):
        """(folder under the corpus, owner/repo, commit) of every project and dependency run.py reads."""
        out = set()
        for p in self.corpus["projects"]:
            out.add((p.get("extract", p["name"]), p["repo"], p["commit"]))
            for d in p.get("deps", []):
                out.add((d["extract"], d["repo"], d["commit"]))
        return out

    def test_every_project_and_dependency_is_fetched_at_its_commit(self):
        fetched = set(GET.findall(self.readme))
        self.assertTrue(fetched, "no 'get <dir> <owner/repo> <commit>' lines in the README")
        self.assertEqual(sorted(self.wanted() - fetched), [], "in corpus.json, not fetched by the README")
        self.assertEqual(sorted(fetched - self.wanted()), [], "fetched by the README, not in corpus.json")

    def test_the_table_names_every_project_at_its_commit(self):
        rows = {(name, repo, commit) for name, repo, commit in ROW.findall(self.readme)}
        projects = {(p["name"], p["repo"], p["commit"]) for p in self.corpus["projects"]}
        self.assertEqual(sorted(projects - rows), [], "in corpus.json, not in the table of projects")

    def test_every_project_is_in_a_half(self):
        bad = sorted(p["name"] for p in self.corpus["projects"] if p.get("half") not in HALVES)
        self.assertEqual(bad, [], "projects of corpus.json without a half (development, evaluation, holdout or holdout2)")

    def test_each_half_has_its_table_with_the_tu_counts(self):
        tables = {SECTION.get(name.lower(), name.lower()): body for name, body in HALF.findall(self.readme)}
        self.assertEqual(sorted(tables), sorted(HALVES), "a '### <Half> half' section per half")
        for half in HALVES:
            rows = {name: int(tus) for name, tus in ROW_TUS.findall(tables[half])}
            want = {p["name"]: sum(len(g["tus"]) for g in p["groups"])
                    for p in self.corpus["projects"] if p.get("half") == half}
            self.assertEqual(rows, want, f"the {half} half's table: projects and TUs of corpus.json")


if __name__ == "__main__":
    unittest.main()
