"""Arrow and Parquet corpora, scored in bounded memory with all cores: :func:`count_arrow`, :func:`score_arrow`.

The flow: :mod:`.sources` cuts a Parquet file or folder, a pyarrow table or a
``datasets.Dataset`` into parts; :mod:`.count` counts a record batch with the
metric's own counting function (:mod:`.columns` reads span structs from the
Arrow buffers); :mod:`.score` runs the parts in ``num_proc`` processes and adds
their counts. Needs pyarrow (the ``evaluate`` extra brings it).
"""
from .score import BATCH_ROWS, count_arrow, score_arrow

__all__ = ["BATCH_ROWS", "count_arrow", "score_arrow"]
