"""evaluate's own multi-process protocol, run for real: two processes, one ``experiment_id``, as evaluate documents it.

:func:`run_scenarios` starts one process a rank (``multiprocessing``'s spawn: fresh interpreters, as ``torchrun`` or
``accelerate`` start them) and each runs every scenario in turn, under an ``experiment_id`` of its own: it loads the
module with ``num_process`` and its ``process_id``, adds its batches and calls ``compute``. What each rank got comes
back. The processes start once for all the scenarios (each pays for importing evaluate). Imported by the spawned
processes, so it imports no test module.
"""
from __future__ import annotations

import multiprocessing
import tempfile
import uuid
from typing import Any, NamedTuple

Batch = tuple[Any, Any]


class Scenario(NamedTuple):
    """One run: the module, each rank's batches (None: a rank that never comes), ``compute``'s options, and
    evaluate's ``timeout`` (seconds a rank waits for the others)."""

    name: str
    per_rank: list[list[Batch] | None]
    options: dict[str, Any]
    timeout: float = 60


def _rank(rank: int, scenarios: list[Scenario], experiments: list[str], cache: str, out: Any) -> None:
    import evaluate

    import nested_span_f1

    for k, (name, per_rank, options, timeout) in enumerate(scenarios):
        if per_rank[rank] is None:
            continue
        try:
            metric = evaluate.load(nested_span_f1.metric_path(name), num_process=len(per_rank), process_id=rank,
                                   experiment_id=experiments[k], cache_dir=cache, timeout=timeout)
            for predictions, references in per_rank[rank]:
                metric.add_batch(predictions=predictions, references=references)
            out.put((k, rank, "result", metric.compute(**options)))
        except Exception as error:  # the rank's error is what the test asserts
            out.put((k, rank, type(error).__name__, str(error)))


def run_scenarios(scenarios: list[Scenario]) -> list[dict[int, tuple[str, Any]]]:
    """For each scenario, ``{rank: (outcome, value)}`` of the ranks that ran: ``outcome`` is ``"result"`` (the value
    ``compute`` returned: rank 0's scores, None elsewhere) or the error's class name (the value its message)."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    experiments, cache = [uuid.uuid4().hex for _ in scenarios], tempfile.mkdtemp(prefix="evaluate-ranks-")
    world = len(scenarios[0].per_rank)
    processes = [context.Process(target=_rank, args=(rank, scenarios, experiments, cache, out)) for rank in range(world)]
    for process in processes:
        process.start()
    got: list[dict[int, tuple[str, Any]]] = [{} for _ in scenarios]
    for _ in range(sum(batches is not None for scenario in scenarios for batches in scenario.per_rank)):
        k, rank, outcome, value = out.get(timeout=600)
        got[k][rank] = (outcome, value)
    for process in processes:
        process.join(60)
    return got
