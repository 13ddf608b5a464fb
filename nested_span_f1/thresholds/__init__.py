"""Scored predictions: precision-recall curves at every threshold, average precision, thresholds chosen on dev,
top k per sentence, and calibration (bootstrap intervals at a threshold:
:func:`nested_span_f1.benchmark.threshold_intervals`).

>>> from nested_span_f1.thresholds import threshold_curve
>>> threshold_curve([[(0, 2, "PER")]], [[(0, 2, "PER", 0.7), (2, 3, "PER", 0.9)]]).best
{'threshold': 0.7, 'precision': 0.5, 'recall': 1.0, 'f1': 0.6666666666666666}
"""
from .calibration import calibration, reliability
from .curve import ThresholdCurve
from .score import DECODINGS, METRICS, ScoredPair, apply_thresholds, scored_pair, threshold_curve
from .topk import TopKCurve, top_k_curve

__all__ = ["DECODINGS", "METRICS", "ScoredPair", "ThresholdCurve", "TopKCurve", "apply_thresholds", "calibration",
           "reliability", "scored_pair", "threshold_curve", "top_k_curve"]
