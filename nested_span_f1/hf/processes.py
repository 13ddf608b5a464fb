"""evaluate's distributed mode (``num_process`` > 1, one ``experiment_id``): what process 0 reads of every process.

Each process writes what it adds to an Arrow file of its own, under the feature set
of the kind of input it holds; at ``compute`` evaluate 0.4.6's process 0 reads all
the files under its own set (``EvaluationModule._finalize``). So a process whose
sentences were all empty (stored under the module's ``empty_kind``), or that added
another kind of input than process 0, failed there with pyarrow's ``ArrowTypeError``
("Unable to merge"); and a process that added nothing wrote no file, so process 0
waited evaluate's ``timeout`` for its lock and said "Expected to find locked file".
:func:`gather` reads each file on its own instead: a file of empty sentences takes
the kind the others hold (an empty sentence is valid input of any kind of tokens or
spans), two kinds are refused as one process refuses them, and a process that added
nothing (its file holds no row: :class:`~.metric.SpanMetric` writes one for it) is
named. :func:`named_process` names the process evaluate's timeouts are about.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .kinds import KIND_WORDS

DOCUMENT_KINDS = ("texts", "lists", "answers")
"""The kinds whose sentences are documents (dicts, strings), never an empty list."""

EMPTY_WORDS = "empty sentences ([], no document)"
"""How messages name sentences that are empty lists, beside documents."""


def mixed(kind: str | None, before: str | None, where: str = "this batch holds", earlier: str = "the batches added "
          "before it hold") -> TypeError:
    """The refusal of input of two kinds (None: empty sentences, which only documents cannot be beside)."""
    words = [KIND_WORDS[k] if k is not None else EMPTY_WORDS for k in (kind, before)]
    return TypeError(f"{where} {words[0]} but {earlier} {words[1]}; give every batch in one form")


def read_tables(paths: Sequence[str]) -> list[Any]:
    """The Arrow table of each process's cache file (evaluate's ``ArrowWriter`` writes the streaming format)."""
    import pyarrow as pa

    tables = []
    for path in paths:
        with pa.memory_map(path) as source:
            tables.append(pa.ipc.open_stream(source).read_all())
    return tables


def _all_empty(table: Any) -> bool:
    """Whether every sentence of both columns is an empty list."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return all(pa.types.is_list(column.type) and not pc.max(pc.list_value_length(column)).as_py()
               for column in table.columns)


def gather(tables: Sequence[Any], features: Sequence[Any], kinds: Sequence[str], empty_kind: str,
           num_process: int) -> tuple[str, Any]:
    """``(kind, table)`` of the processes' tables (``tables[k]`` process ``k``'s), each read under its own feature
    set (``features[i]`` that of ``kinds[i]``): the kind their non-empty sentences hold (``empty_kind`` when every
    sentence is empty), every table in it, in process order.

    Raises:
        ValueError: a process that added nothing, named.
        TypeError: processes that added two kinds of input, named (:func:`mixed`).
    """
    import pyarrow as pa

    idle = [k for k, table in enumerate(tables) if table.num_rows == 0]
    if idle:
        raise ValueError(f"process {idle[0]} (process_id={idle[0]} of num_process={num_process}) added nothing before "
                         "compute: in evaluate's distributed mode every process adds its share of the sentences, then "
                         "calls compute (a process with none to add adds an empty sentence, predictions=[[]], "
                         "references=[[]])")
    schemas = [f.arrow_schema for f in features]
    held = [next(kinds[i] for i, schema in enumerate(schemas) if table.schema.equals(schema, check_metadata=False))
            for table in tables]
    shown = {k: kind for k, (kind, table) in enumerate(zip(held, tables)) if not _all_empty(table)}
    first, kind = next(iter(shown.items()), (0, empty_kind))
    other = next((k for k, theirs in shown.items() if theirs != kind), None)
    if other is not None:
        raise mixed(shown[other], kind, f"process {other} added", f"process {first} added")
    if kind in DOCUMENT_KINDS and len(shown) < len(tables):
        empty = next(k for k in range(len(tables)) if k not in shown)
        raise mixed(None, kind, f"process {empty} added", f"process {first} added")
    schema = schemas[kinds.index(kind)]
    rows = [table if held[k] == kind else pa.table([pa.array([[]] * table.num_rows, field.type) for field in schema],
                                                   schema=schema)
            for k, table in enumerate(tables)]
    return kind, pa.concat_tables(rows)


_LOCK = re.compile(r"-(\d+)\.arrow(?:\.lock)?\b")


def named_process(error: ValueError, num_process: int, timeout: float) -> ValueError:
    """evaluate's error for a lock that never came (a process that did not add, or did not call ``compute``, within
    ``timeout`` seconds) naming the process; any other error as it is."""
    message = str(error)
    found = _LOCK.search(message)
    if found is None or not message.startswith(("Expected to find locked file", "Cannot acquire lock on cached file")):
        return error
    k = int(found.group(1))
    what = "add anything" if message.startswith("Expected") else "call compute"
    return ValueError(f"process {k} (process_id={k} of num_process={num_process}) did not {what} within {timeout} s; "
                      "in evaluate's distributed mode every process adds its share of the sentences, then calls compute "
                      "(raise timeout= when a process takes longer)")
