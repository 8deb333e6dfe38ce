"""Numeric constants shared by every engine (one definition each)."""

__all__ = ["EPS", "KS_TOLERANCE", "QUANTILE_TOLERANCE"]

EPS = 2.220446049250313e-16  # numpy.finfo(float64).eps: scikit-learn's log-loss clipping bound, the MAPE floor
KS_TOLERANCE = 1e-12  # gaps TPR - FPR this close to the largest tie (ks_threshold)
QUANTILE_TOLERANCE = 1e-12  # weight sums this close (relative to the total) are equal (weighted quantiles)
