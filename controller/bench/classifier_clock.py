"""`bench vision`'s account of where a full read's time goes: the share spent in the piece classifier.

`ClockedClassifier` wraps the classifier the benchmark's readers use and adds up the reading thread's CPU time
inside `predict` (the networks' forward passes, their second looks, preprocessing and the join). The benchmark
reads the sum before and after each timed read; what is left of the read is board checking, cutting, the
lookalikes, the set fit, the stands' ink and the rest of the reader's own work.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


class ClockedClassifier:
    """A classifier whose `predict` calls are clocked (`cpu_seconds`); every other attribute is the wrapped
    classifier's."""

    def __init__(self, classifier: Any, clock: Callable[[], float] = time.thread_time) -> None:
        self._classifier = classifier
        self._clock = clock
        self.cpu_seconds = 0.0
        """Clock seconds spent inside `predict` since the wrapper was made."""

    def predict(self, crops: Any, **options: Any) -> Any:
        """The wrapped classifier's prediction, its time added to `cpu_seconds`."""
        start = self._clock()
        try:
            return self._classifier.predict(crops, **options)
        finally:
            self.cpu_seconds += self._clock() - start

    def __getattr__(self, name: str) -> Any:
        return getattr(self._classifier, name)
