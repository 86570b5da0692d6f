#!/usr/bin/env python3
"""Coverage-guided fuzzing (atheris, libFuzzer for Python) of the parts of tools/cuda-scope that
read untrusted text: the compile database reader and the nvcc/gcc/clang flag translation.
Any exception other than the tool's own Fatal (a clear error for the user) is a crash.

USAGE: python3 tools/fuzz/fuzz_database.py [libFuzzer flags, e.g. -max_total_time=60] [CORPUS_DIR]
"""
import json
import os
import sys
import tempfile

import atheris

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from cuda_scope import common, database, nvcc  # noqa: E402

nvcc.warn = lambda *args, **kwargs: None  # the translator names each flag it drops; not needed here
atheris.instrument_all()  # coverage feedback from every Python function loaded, the tool's included

WORK = tempfile.mkdtemp(prefix="cuda-scope-fuzz-")
COMPILERS = ["nvcc", "/usr/local/cuda/bin/nvcc", "clang++", "g++", "ccache nvcc", "cc", ""]


def one_input(data):
    fdp = atheris.FuzzedDataProvider(data)
    db = os.path.join(WORK, "compile_commands.json")
    if fdp.ConsumeBool():
        # Raw bytes as the database: malformed JSON, wrong shapes, odd encodings.
        with open(db, "wb") as fh:
            fh.write(fdp.ConsumeBytes(fdp.remaining_bytes()))
    else:
        # A well-formed database whose commands are fuzzed: nvcc flag translation.
        entries = []
        for _ in range(fdp.ConsumeIntInRange(1, 3)):
            words = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 300))
            entry = {"directory": fdp.ConsumeUnicodeNoSurrogates(8) or ".", "file": "k.cu"}
            if fdp.ConsumeBool():
                entry["command"] = fdp.PickValueInList(COMPILERS) + " " + words
            else:
                entry["arguments"] = [fdp.PickValueInList(COMPILERS)] + words.split(" ")
            entries.append(entry)
        with open(db, "w", encoding="utf-8") as fh:
            json.dump(entries, fh)
    try:
        entries, _ = database.load_database(db)
        translator = nvcc.Translator(set())
        for e in entries:
            database.translate_entry(translator, e["file"], e["directory"], e["words"], e["origin"])
    except common.Fatal:
        pass


def main():
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
