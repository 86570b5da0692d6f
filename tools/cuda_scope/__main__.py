"""python3 -m cuda_scope: the cuda-scope command."""
import sys

from .cli import entry

sys.exit(entry(sys.argv[1:]))
