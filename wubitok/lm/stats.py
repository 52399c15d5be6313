"""The mean over seeds with its 95% interval (Student's t: a handful of seeds is not a normal sample)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

# t's 97.5th percentile by degrees of freedom (1-30); past 30 the normal 1.96 is within 2%.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def t975(df: int) -> float:
    return _T975[df - 1] if df <= len(_T975) else 1.96


@dataclass(frozen=True)
class Interval:
    mean: float
    half_width: float | None  # None from one value: no interval

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        n = len(values)
        mean = sum(values) / n
        if n < 2:
            return cls(mean, None)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        return cls(mean, t975(n - 1) * sd / math.sqrt(n))

    def __str__(self) -> str:
        return f"{self.mean:.4f}" if self.half_width is None else f"{self.mean:.4f} ± {self.half_width:.4f}"
