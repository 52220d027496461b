"""What the cost search's helpers use of the search that calls them, as protocols.

`deep`'s bounds, `greedy_trees` and `memo_store`'s keeper take the running
`CostSearch` as an argument and call back into it. Typed by `SearchState`
here instead of by the class, none of them imports `search`, which imports
them: the files of this package form no circle, type-only imports included.
`CostSearch` satisfies the protocol as it stands (a test checks it).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from ...treefile import Node
from ..height.solver import Solver
from .cost_model import Cost


class SetKeeper(Protocol):
    """Notes the sets that took long to settle, for a memo file (`memo_store.MemoKeeper`)."""

    def searched(self, key: tuple[bytes, int], started: float) -> None: ...


class SearchState(Protocol):
    """The parts of a `CostSearch` its helpers read and call."""

    solver: Solver
    cost: Cost
    hard: bool
    greedy_rule: str
    context: Any  # the kernels' constant state, a numba structref (`_context`)
    keeper: SetKeeper | None
    exact: dict[tuple[bytes, int], tuple[int, int]]
    lower: dict[tuple[bytes, int], int]
    greedy_tree_memo: dict[tuple[bytes, int, tuple[int, ...]], tuple[int, Node]]
    greedy_total_memo: dict[tuple[bytes, int, tuple[int, ...]], tuple[int, int]]

    @property
    def kernel_max_set(self) -> int: ...

    def floor_at(self, depth: int) -> np.ndarray: ...

    def between_steps(self) -> None: ...

    def solve(
        self, subset: np.ndarray, depth: int, bound: int = ..., history: tuple[int, ...] = (), kernel: bool = True
    ) -> int: ...

    def tree(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> Node: ...

    def lookahead_bound(self, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> int: ...

    def memo_bound(self, subset: np.ndarray, depth: int) -> int: ...

    def remember_lower(self, subset: np.ndarray, depth: int, bound: int) -> None: ...

    def candidates(
        self, subset: np.ndarray, depth: int, history: tuple[int, ...], bound: int = ..., dedupe: bool = True,
        own_symmetry: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, int]: ...
