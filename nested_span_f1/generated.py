"""The public names of :mod:`nested_span_f1.answers` under the package's earlier name, ``nested_span_f1.generated``.

The part that reads language models' answers lived in a folder called
``generated/``, the name tools and linters take for machine-written code and skip;
it is ``answers/`` now (docs/DESIGN.md, 'Generated entity lists'). Code written
against the earlier name keeps working: ``from nested_span_f1.generated import
score_generated`` gives the same function.
"""
from .answers import *  # noqa: F403
from .answers import __all__ as __all__
