"""Scored predictions: precision-recall curves at every threshold, average precision, thresholds chosen on dev.

>>> from nested_span_f1.thresholds import threshold_curve
>>> threshold_curve([[(0, 2, "PER")]], [[(0, 2, "PER", 0.7), (2, 3, "PER", 0.9)]]).best
{'threshold': 0.7, 'precision': 0.5, 'recall': 1.0, 'f1': 0.6666666666666666}
"""
from .curve import ThresholdCurve
from .score import DECODINGS, METRICS, ScoredPair, apply_thresholds, scored_pair, threshold_curve

__all__ = ["DECODINGS", "METRICS", "ScoredPair", "ThresholdCurve", "apply_thresholds", "scored_pair",
           "threshold_curve"]
