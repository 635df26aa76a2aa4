"""How every bench reports: one JSON object per line, and percentiles of timings."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

Emit = Callable[[str], None]


def metric(emit: Emit, name: str, value: float, unit: str, **labels: object) -> None:
    """One figure; ``labels`` say what it is of, where a run reports several (a store, a
    number of processes)."""
    emit(json.dumps({"metric": name, "value": round(value, 3), "unit": unit, **labels}))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
