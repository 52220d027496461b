"""What a cracker returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

# Called now and then with (questions so far, positions right so far): the positions located,
# or for `anneal` the most bulls any question has got.
Progress = Callable[[int, int], None]


@dataclass
class CrackResult:
    """The code a cracker settled on and what it cost.

    `solved` is true when the last question was `found` and got n bulls;
    `wrong` is n minus the bulls of that last question (0 when solved).
    """

    found: np.ndarray
    queries: int
    solved: bool
    wrong: int
