"""keep_freed_memory: after it, memory a block frees is reused by the next block, not faulted in afresh.

Checked in fresh processes (the test process's allocator has long been warmed),
by the page faults of allocating and filling an array a second time, which is
what every block of a large input does. Needs glibc on Linux.
"""
from __future__ import annotations

import platform
import subprocess
import sys

import pytest

CHILD = """
import resource, sys
import numpy as np
from nested_span_f1.heap import keep_freed_memory
if sys.argv[1] == "keep":
    keep_freed_memory(4 << 20)
block = np.ones(3_000_000, dtype=np.uint8)  # a block's working memory, under the 4 MiB kept
del block
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
block = np.ones(3_000_000, dtype=np.uint8)  # the next block
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, check=True)
    return int(out.stdout)


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")
def test_freed_block_memory_is_reused():
    fresh = _faults("fresh")
    if fresh < 400:
        pytest.skip(f"this allocator already reuses a freed 3 MB block ({fresh} page faults)")
    assert _faults("keep") < 10  # against some 650, one per 4 KiB page
