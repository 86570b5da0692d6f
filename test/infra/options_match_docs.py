"""Compares the cuda-scope options clang-tidy --dump-config shows with the docs.
USAGE: options_match_docs.py DUMP_CONFIG.yaml DOCS_CHECKS_DIR
Each option line in a page's '## Options' section reads: - `Name` (default: `value`): text
"""
import os
import re
import sys


def dumped(path):
    options = {}
    for line in open(path):
        m = re.match(r"\s+(cuda-scope-[a-z-]+)\.(\w+):\s*'?(.*?)'?\s*$", line)
        if m:
            options[(m[1], m[2])] = m[3]
    return options


def documented(folder):
    options = {}
    for page in sorted(os.listdir(folder)):
        if not page.endswith(".md"):
            continue
        check = "cuda-scope-" + page[:-3]
        section = False
        for line in open(os.path.join(folder, page)):
            if line.startswith("## "):
                section = line.strip() == "## Options"
                continue
            m = re.match(r"- `(\w+)` \(default: `(.*?)`\)", line)
            if section and m:
                options[(check, m[1])] = m[2]
    return options


def main():
    have, docs = dumped(sys.argv[1]), documented(sys.argv[2])
    if not have:
        sys.exit("no cuda-scope options in --dump-config output")
    bad = False
    for key in sorted(set(have) | set(docs)):
        if key not in docs:
            print(f"{key[0]}.{key[1]} = '{have[key]}' is not documented"); bad = True
        elif key not in have:
            print(f"{key[0]}.{key[1]} is documented but not an option"); bad = True
        elif have[key] != docs[key]:
            print(f"{key[0]}.{key[1]}: default '{have[key]}', documented '{docs[key]}'"); bad = True
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
