"""Checks the layout of checks/ that the build enforces, with messages a reader can act on:
every folder is a room that checks/CMakeLists.txt declares with cuda_scope_room(); an include of
another room's header names it as "<room>/X.h" and only rooms the including room USES (the build
would fail on the others, with a bare "No such file"); no include walks around this with "../" or
an absolute path; and no C++ file is over MAX_LINES lines, so each room stays made of parts a
reader can hold."""
import pathlib
import re
import sys

MAX_LINES = 800

checks = pathlib.Path(sys.argv[1])
declared = {}
for m in re.finditer(r"^cuda_scope_room\((\w+)(?:\s+USES\s+([\w\s]+))?\)", (checks / "CMakeLists.txt").read_text(),
                     re.M):
    declared[m.group(1)] = set((m.group(2) or "").split())


def closure(room):
    seen, work = set(), [room]
    while work:
        for used in declared.get(work.pop(), ()):
            if used not in seen:
                seen.add(used)
                work.append(used)
    return seen


problems = []
folders = sorted(p.name for p in checks.iterdir() if p.is_dir())
for folder in folders:
    if folder not in declared:
        problems.append(f"checks/{folder}/ is not a room: declare it with cuda_scope_room() in checks/CMakeLists.txt")
for room in declared:
    if room not in folders:
        problems.append(f"room '{room}' has no folder checks/{room}/")
    allowed = closure(room) | {room}
    for f in sorted((checks / room).glob("*")):
        if f.suffix not in (".cpp", ".h", ".def"):
            continue
        text = f.read_text()
        if f.suffix in (".cpp", ".h") and text.count("\n") > MAX_LINES:
            problems.append(f"checks/{room}/{f.name}: {text.count(chr(10))} lines, over {MAX_LINES}: split it")
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            where = f"checks/{room}/{f.name}:{n}"
            if inc.startswith(("../", "/")) or "/../" in inc:
                problems.append(f"{where}: '{inc}' walks around the rooms; include it as \"<room>/X.h\"")
                continue
            head = inc.split("/")[0]
            if "/" in inc and head in declared and head not in allowed:
                problems.append(f"{where}: room '{room}' may not include '{inc}' (it uses: "
                                f"{', '.join(sorted(allowed - {room})) or 'nothing'})")

for p in problems:
    print(p)
print(f"{len(declared)} rooms, {len(problems)} problems")
sys.exit(1 if problems else 0)
