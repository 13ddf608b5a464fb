"""Spark DataFrames scored on the cluster with the same counts: :func:`count_spark`, :func:`score_spark`.

Each partition is counted in the executors (``mapInArrow``) by the Arrow path's
record-batch counting, and Spark adds the counts (:mod:`.score`). Needs pyspark
3.5+ or 4.x (the ``spark`` extra) on the driver and the executors.
"""
from .score import count_spark, score_spark
from .session import SessionError, session

__all__ = ["SessionError", "count_spark", "score_spark", "session"]
