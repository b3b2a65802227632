"""Confidence intervals for tournament summaries."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): a normal-approximation 95% interval of the mean."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def clustered_mean(
    clusters: Sequence[Sequence[float]], z: float = Z95
) -> tuple[float, float, float]:
    """(mean, low, high) of values that come in clusters, such as an agent's
    seats in one lobby, which share the lobby and are not independent.

    The mean is over all values; its standard error is the cluster-robust one
    (the sandwich estimator with the usual ``G / (G - 1)`` correction over
    ``G`` clusters), which with equally sized clusters equals the standard
    error of the per-cluster means. With fewer than two clusters there is no
    interval (``nan``).

    >>> mean, low, high = clustered_mean([[1, 2], [3, 4], [5, 6], [7, 8]])
    >>> mean, round(high - mean, 3)
    (4.5, 2.53)
    >>> clustered_mean([[1, 8]])[1]
    nan
    """
    groups = [list(c) for c in clusters if len(c)]
    total = sum(len(c) for c in groups)
    if total == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(sum(c) for c in groups) / total
    g = len(groups)
    if g < 2:
        return (mean, math.nan, math.nan)
    half = z * math.sqrt(_clustered_variance(groups, mean, total))
    return (mean, mean - half, mean + half)


def _clustered_variance(groups: list[list[float]], mean: float, total: int) -> float:
    """Cluster-robust variance of the overall mean of ``groups``."""
    g = len(groups)
    spread = sum(sum(v - mean for v in c) ** 2 for c in groups)
    return g / (g - 1) * spread / (total * total)


def clustered_rate(
    clusters: Sequence[Sequence[bool]], z: float = Z95
) -> tuple[float, float, float]:
    """(rate, low, high) of a proportion whose trials come in clusters (an
    agent's seats in one lobby): a Wilson interval on the effective sample
    size ``p (1 - p) / SE²``, SE being the cluster-robust standard error of
    the rate (Wilson with a design effect). It never counts more trials than
    there are; at a rate of 0 or 1, where SE says nothing, every cluster
    counts as one trial.

    >>> rate, low, high = clustered_rate([[True, False], [False, False], [True, True]])
    >>> round(rate, 3), round(low, 3), round(high, 3)
    (0.5, 0.125, 0.875)
    >>> clustered_rate([[False, False]] * 10)[2] == wilson(0, 10)[1]
    True
    """
    groups = [[1.0 if v else 0.0 for v in c] for c in clusters if len(c)]
    total = sum(len(c) for c in groups)
    if total == 0:
        return (math.nan, 0.0, 1.0)
    rate = sum(sum(c) for c in groups) / total
    g = len(groups)
    if 0 < rate < 1 and g >= 2:
        variance = _clustered_variance(groups, rate, total)
        n_eff = total if variance == 0 else min(total, rate * (1 - rate) / variance)
    else:
        n_eff = g
    low, high = wilson_rate(rate, max(n_eff, 1.0), z)
    return (rate, low, high)


def wilson_rate(rate: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``rate`` observed over ``n``
    trials, ``n`` possibly an effective (fractional) count.

    >>> wilson_rate(0.5, 10) == wilson(5, 10)
    True
    """
    if n <= 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
