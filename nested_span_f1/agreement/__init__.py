"""Agreement between annotators of the same documents, and a model's distance from it.

The design: docs/DESIGN.md, 'Agreement between annotators'.

:mod:`.annotations` reads and pairs the sets, :mod:`.spans` matches each pair
with the metrics' own matchers, :mod:`.chance` computes kappa and alpha on
positions, :mod:`.disagreements` groups what a pair disagrees on, :mod:`.score`
runs it all (``agreement()``) and :mod:`.report` is its view as text.
"""
from .score import agreement

__all__ = ["agreement"]
