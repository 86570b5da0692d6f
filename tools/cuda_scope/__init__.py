"""cuda-scope, the command: runs the cuda-scope clang-tidy checks and the device-IR pass over a
project, both sides of every CUDA file, in parallel, and merges what they find.

One job per module, as in run-clang-tidy:
  nvcc         nvcc command lines -> clang 22 flags (the option table, GPU architectures)
  database     the compile database or the flags after --, read into what to analyse
  locate       clang-tidy, clang++, the module, the pass plugin, the toolkit, the docs
  rules        check globs, the project's .clang-tidy, the IR pass's rules
  runner       one job per file side, run in parallel with a time limit
  diagnostics  reading clang-tidy's output and the pass's remarks; the nvcc dialect clang rejects
  merge        one finding per bug across sides and front ends
  report       text, SARIF, JSON, fix-its
  cli          the options and main()
Standard library only, so it runs wherever python3 does.
"""
from . import common

__version__ = common.VERSION
