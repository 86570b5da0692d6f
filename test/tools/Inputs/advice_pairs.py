"""Pairs the clang-tidy warnings and the IR pass's remarks of one file by place and prints, for each
place, whether the two front ends give the same advice (the text after 'consider').
USAGE: advice_pairs.py TIDY_OUTPUT IR_OUTPUT"""
import re
import sys

LINE = re.compile(r"^\S*?:(\d+):(\d+): (?:warning|remark): .*?; consider (.*) \[[-\w=]+\]$")


def advice(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                out.setdefault(f"{m.group(1)}:{m.group(2)}", set()).add(m.group(3))
    return out


tidy, ir = advice(sys.argv[1]), advice(sys.argv[2])
for place in sorted(set(tidy) | set(ir), key=lambda p: tuple(map(int, p.split(":")))):
    if place not in ir:
        print(f"{place} only clang-tidy: {sorted(tidy[place])}")
    elif place not in tidy:
        print(f"{place} only the IR pass: {sorted(ir[place])}")
    elif tidy[place] == ir[place]:
        print(f"{place} same: {' | '.join(sorted(tidy[place]))}")
    else:
        print(f"{place} differ: clang-tidy {sorted(tidy[place])}, the IR pass {sorted(ir[place])}")
