"""When a CUDA file's device-side clang-tidy run can differ from its host-side run.

clang parses the whole file on both sides: device functions, kernels and host code alike, with the
same declarations, and no cuda-scope check asks which side it runs on. What differs is what the
preprocessor keeps: code under `#if __CUDA_ARCH__` (or NV_IF_TARGET, which tests it) is seen by one
side only. So the device side is run where
- the host side did not parse cleanly (its errors may hide what the device side sees), or
- some file of the project that the host side read tests which side it is compiled for.
Elsewhere the device side would report what the host side reported, and is not run (--sides=both
runs it anyway). The toolkit's, the compiler's and the system's headers are not read for this: their
side-dependent parts are bodies the checks do not analyse, and the IR pass sees the device side
whatever this decides."""
import os
import re

from .cache import files_read

# The macros by which code tells the sides apart: __CUDA_ARCH__ and its kin (__CUDA_ARCH_LIST__,
# __CUDA_ARCH_FEAT_SM90_ALL, __CUDA_ARCH_SPECIFIC__, __CUDA_ARCH_FAMILY_SPECIFIC__), CCCL's target
# macros, the NVPTX target's own, and HIP's spelling for code written for both.
SIDE_TEST = re.compile(rb"__CUDA_ARCH|\bNV_IF_(?:ELSE_)?TARGET\b|\bNV_DISPATCH_TARGET\b|__NVPTX__|"
                       rb"__HIP_DEVICE_COMPILE__")
NOT_THE_PROJECT = ("/usr/include/", "/usr/lib/", "/usr/local/include/")


class Sides:
    """Decides, per host-side run, whether the file's device side must run too."""

    def __init__(self, clang, compat, toolkit_dirs):
        self.clang, self.compat = clang, compat
        self.outside = tuple(os.path.join(os.path.realpath(d), "") for d in toolkit_dirs if d) + NOT_THE_PROJECT
        # The nvcc-compatibility header (ours) gives bodies on the IR pass's side only, declarations to
        # both clang-tidy sides.
        self.outside += tuple(os.path.join(os.path.dirname(os.path.realpath(c)), "") for c in compat
                              if c.endswith(".h"))
        self.tests = {}      # path -> whether it tests the side

    def tests_side(self, path):
        if path not in self.tests:
            try:
                with open(path, "rb") as f:
                    self.tests[path] = bool(SIDE_TEST.search(f.read()))
            except OSError:
                self.tests[path] = True
        return self.tests[path]

    def device_needed(self, host, rc, out):
        """(whether the device side must run, why) for a finished host-side run."""
        if rc != 0 or re.search(r"^\S.*: (?:fatal )?error: ", out or "", re.M):
            return True, "the host side did not parse cleanly"
        files = host.inputs if host.inputs is not None else files_read(host, self.clang, self.compat)
        if files is None:
            return True, "the files the host side read could not be listed"
        for path in files:
            real = os.path.realpath(path)
            if real.startswith(self.outside):
                continue
            if self.tests_side(real):
                return True, f"{path} tests which side it is compiled for"
        return False, "no file of the project it reads tests which side it is compiled for"
