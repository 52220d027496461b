"""A strategy that follows a tree file, e.g. an optimal tree from `trees/`."""

from __future__ import annotations

import os
from pathlib import Path

from ..game.codes import decode_answer
from ..game import BactreeError, Game
from ..treefile import Node, check_document, check_header, read_document
from .base import InconsistentHistoryError, Strategy


class TreeStrategy(Strategy):
    """Follow a tree file (format `bactree-tree`), e.g. an optimal tree from `trees/`.

    The file is fully verified on loading; its state is the current node.
    """

    def __init__(self, game: Game, path: str | os.PathLike[str], seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.path = Path(path)
        doc = read_document(self.path)
        tree_game = check_header(doc, str(self.path))
        if tree_game != game:
            raise BactreeError(f"tree file {str(self.path)!r} is for {tree_game}, not {game}")
        check_document(doc, str(self.path))
        self.name = f"tree:{self.path.stem}"
        self.optimal = doc["optimal"]
        self.root: Node = doc["root"]

    def start(self) -> Node:
        return self.root

    def choose(self, state: Node) -> int:
        return self.game.code_index[state["guess"]]

    def advance(self, state: Node, guess: int, answer: int) -> Node:
        key = str(decode_answer(self.game, answer))
        child = state.get("next", {}).get(key) if state["guess"] == self.game.codes[guess] else None
        if child is None:
            raise InconsistentHistoryError(
                f"{self.name}: the tree does not continue after {self.game.codes[guess]} got {key}"
            )
        return child
