"""Entity F1 inside the harnesses people evaluate language models with: lm-evaluation-harness (``lm_eval``),
inspect-ai (``inspect_ai``) and lighteval (``lighteval``), a module each, none of them imported here.

Each harness scores a sample at a time; each module counts every answer with
:func:`~nested_span_f1.answers.tally.count_answer` (counts that add) and its
corpus-level figures (:mod:`.figures`) sum those counts, so the entity F1 a harness
prints is the one ``nested-span-f1 answers`` gives on the same answers, never a
mean of per-sample F1. docs/harnesses.md has the whole task file for each.
"""
