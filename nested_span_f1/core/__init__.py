"""The engine the three metrics share: spans, fragments, counts that add, the exact matcher, scores.

Nothing here knows tags, files or Hugging Face: the flat, lenient and nested
metrics build their spans, hand them to :func:`core.matching.match_exact` (or
the lenient matcher), and turn the counts into numbers with :mod:`core.scores`.
"""
