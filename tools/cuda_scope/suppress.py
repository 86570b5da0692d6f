"""clang-tidy's NOLINT comments, for the findings clang-tidy does not report itself: the IR pass's
remarks and the whole program's findings. The syntax and its meaning are clang-tidy's
(clang-tools-extra/docs/clang-tidy/index.rst, "Suppressing undesired diagnostics"):

    NOLINT                  this line, every check
    NOLINT(glob, ...)       this line, the checks the globs select ('-' removes, as in --checks)
    NOLINTNEXTLINE[(...)]   the next line
    NOLINTBEGIN[(...)]      every line up to the NOLINTEND with the same check list; a BEGIN or END
    NOLINTEND[(...)]        that matches none suppresses nothing (clang-tidy reports it)

A list with no closing parenthesis is no list: the directive covers every check. The directives
are found anywhere in the line's text, as clang-tidy finds them. A finding is suppressed by the
directives around its primary location."""
import re

from .rules import glob_selects

DIRECTIVE = re.compile(r"NOLINT(NEXTLINE|BEGIN|END)?")


def directives(text):
    """(kind, checks) of each directive in one line: kind '', 'NEXTLINE', 'BEGIN' or 'END'; checks
    the text between the parentheses, or None for every check."""
    out = []
    for m in DIRECTIVE.finditer(text):
        checks = None
        rest = text[m.end():]
        if rest.startswith("("):
            close = rest.find(")")
            if close >= 0:
                checks = rest[1:close]
        out.append((m.group(1) or "", checks))
    return out


def covers(checks, check):
    return checks is None or glob_selects(checks, check)


class Suppressions:
    """The NOLINT directives of the files findings are in, read once per file."""

    def __init__(self):
        self.files = {}  # path -> (the directives per line, the NOLINTBEGIN/END regions)

    def _of(self, path):
        if path not in self.files:
            try:
                with open(path, errors="replace") as f:
                    lines = f.read().split("\n")
            except OSError:
                lines = []
            per_line = [directives(line) if "NOLINT" in line else [] for line in lines]
            regions, open_ = [], []
            for n, found in enumerate(per_line, 1):
                for kind, checks in found:
                    if kind == "BEGIN":
                        open_.append((checks, n))
                    elif kind == "END":
                        # The most recent BEGIN with the same list; none: the END matches nothing.
                        for i in range(len(open_) - 1, -1, -1):
                            if open_[i][0] == checks:
                                regions.append((open_[i][1], n, checks))
                                del open_[i]
                                break
            self.files[path] = (per_line, regions)
        return self.files[path]

    def suppressed(self, path, line, check):
        """Whether a finding of check at path:line is under a NOLINT that covers it."""
        if not path or not line or not check:
            return False
        per_line, regions = self._of(path)
        here = per_line[line - 1] if 0 < line <= len(per_line) else []
        before = per_line[line - 2] if 1 < line <= len(per_line) + 1 else []
        if any(kind == "" and covers(checks, check) for kind, checks in here):
            return True
        if any(kind == "NEXTLINE" and covers(checks, check) for kind, checks in before):
            return True
        return any(first <= line <= last and covers(checks, check) for first, last, checks in regions)
