"""Keeping the memory one block of work frees for the next (glibc's malloc).

:func:`nested_span_f1.flat.count_tags` decodes a large input a block of sentences
at a time so that each block reuses the memory the one before it freed. glibc's
malloc gives the top of its heap back to the system as soon as more than its
trim threshold (128 KiB at first) lies free there, and a block's working arrays
then come back as fresh pages: one page fault per 4 KiB, some 3 us each on the
benchmark machine, a seventh of a first call at 35k sentences. glibc raises the
trim threshold to twice the size of any mmap-ed allocation that is freed (its
dynamic mmap threshold), the state of most processes once they have freed one
large array; :func:`keep_freed_memory` brings a fresh process there by
allocating and freeing one such allocation, never touched. It never lowers a
threshold, glibc skips it where the thresholds were set (``mallopt``,
``MALLOC_TRIM_THRESHOLD_`` and the like), and other allocators just map and
unmap the buffer.
"""
from __future__ import annotations

import numpy as np


def keep_freed_memory(nbytes: int) -> None:
    """Let up to ``2 * nbytes`` of freed memory stay in the process for reuse (on glibc).

    Costs a few microseconds: the buffer is mapped and unmapped, none of its pages touched.
    """
    np.empty(nbytes, dtype=np.uint8)
