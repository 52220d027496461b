"""The answer classes of a set kept as bit masks, so that the three-left searches of its parts screen guesses fast.

With three guesses left, `_three_left_search` first rules out every code
with a part over its class's bound for two more guesses; counted secret by
secret, that screen is a count per secret and code (about 2.5 ms for a
part of 150 secrets of 5 of 10). When a set S is decided with four guesses
left, every such search is of a part of S, so S's answer classes under
every code, kept as bit masks over S, give each code's part sizes by
popcount, its largest class on S first: a code is mostly ruled out at its
first class (`_finder_kernels._screened_by_classes`; measured on 712 parts
of a 524-secret set of 5 of 10: 1.52 s -> 0.44 s, the same codes kept;
parts under `_finder_kernels.CLASS_SCREEN_LEAST` secrets are still
counted, since there a code's first classes seldom rule it out).
The masks take |codes| x |answers| x |S| / 8 bytes (78 MB for 524 secrets
of 5 of 10), made in about 0.15 s, so they are made only for sets of at
most `MOST_SECRETS` and only once `CALLS_FIRST` searches of their parts
have screened by count without them: a search whose crowds rule out most
codes first counts the few left one by one and never needs a screen
(`_finder_kernels._three_left_search`), and on the sets of a 5 of 10
refutation, where most searches are so, masks made after any
`CALLS_FIRST` searches were a quarter of the CPU (20 pairs of
`probe_height.py ... sample`, 8.0-8.5 s -> 5.9-6.2 s without them).
The screen keeps the same codes either way, so nothing the search returns
depends on it.
"""

from __future__ import annotations

import numpy as np

from . import _finder_kernels

# Sets larger than this keep the count (their masks would pass 150 MB on 5 of 10).
MOST_SECRETS = 1024
# Searches of a set's parts that screened by count before its masks are made: a set refuted at once never pays for them.
CALLS_FIRST = 16

# No classes at hand; its counter counts searches no screen reads (a scratch the kernels may write).
NO_CLASSES = (np.empty((0, 0, 0), np.uint64), np.empty((0, 0), np.int8), np.empty(0, np.int64), np.zeros(1, np.int64))


class ClassScreen:
    """One set's answer classes for the screens of its parts' three-left searches, made on demand."""

    def __init__(self, table: np.ndarray, outer: np.ndarray, num_slots: int, solved: int) -> None:
        self.table, self.outer, self.num_slots, self.solved = table, outer, num_slots, solved
        self.counted = np.zeros(1, np.int64)  # searches of its parts that screened by count: the kernel adds them
        self._none = (*NO_CLASSES[:3], self.counted)
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(bits, by_size, position, counted) for `_three_left_guess`; the first three empty while not worth making."""
        if self._arrays is None:
            if self.counted[0] < CALLS_FIRST or len(self.outer) > MOST_SECRETS:
                return self._none
            bits, by_size = _finder_kernels._answer_classes(self.table, self.outer, self.num_slots, self.solved)
            position = np.full(self.table.shape[1], -1, np.int64)
            position[self.outer] = np.arange(len(self.outer))
            self._arrays = (bits, by_size, position, self.counted)
        return self._arrays
