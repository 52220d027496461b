"""Write a least-height certificate: the proof that `bactree.certify` checks, that no tree finds every secret within D guesses.

Usage:
  python scripts/write_certificate.py [--game mastermind] [-n 4] [--symbols 123456] [--guesses D] [-o FILE]

D defaults to one less than the game's least height, which the search
finds first (`Solver.min_height`); FILE to `certificates/GAME-height.json`
(`certificates/bulls-cows-4x10-height.json`), the name of the shipped ones. The certificate is made by the search
used as an oracle, top down: at each set, the guesses the checker's class
bounds do not refute are taken one per orbit of the set's own symmetries
(the maps that send it onto itself, written as generators); for each, a
part that the bounds refute within one guess less if there is one, else
the largest part the search finds no tree for, certified the same way
below. A set met twice at one depth is one node. The bytes depend on the
game and D alone. `docs/certificates.md` describes the file; `python -m
bactree.certify FILE` checks it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from bactree import certify
from bactree.game import BactreeError, Game, game_slug, make_game
from bactree.search import Solver
from bactree.search._symmetry import _stabiliser


class Writer:
    """One game's certificate, built node by node from the search's verdicts."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.solver = Solver(game)
        self.board = certify.Board(certify.Game(game.length, game.symbols, game.repeats))
        if self.board.names != list(game.codes) or not np.array_equal(self.board.table, self.solver.table):
            raise BactreeError("the checker's codes or answers differ from the search's")
        self.nodes: list[dict] = []
        self._named: dict[tuple[bytes, int], int] = {}

    def certificate(self, depth: int) -> dict:
        """The certificate that no tree finds every secret within `depth` guesses."""
        self.node(self.solver.all_guesses, depth, ())
        return {
            "format": certify.FORMAT,
            "version": certify.VERSION,
            "game": {"length": self.game.length, "symbols": self.game.symbols, "repeats": self.game.repeats,
                     "rule": "bulls-cows"},
            "guesses": depth,
            "nodes": self.nodes,
        }

    def node(self, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> int:
        """The index of the node refuting `subset` within `depth`, made with its descendants if new."""
        key = (subset.tobytes(), depth)
        if key in self._named:
            return self._named[key]
        index = self._named[key] = len(self.nodes)
        node: dict = {}
        self.nodes.append(node)
        refuted = self.board.over_caps(subset, depth)
        if refuted.all():
            return index
        maps, labels = self.symmetries(subset, history)
        entries = []
        with self.solver.screening(subset, depth):  # as the search decides a set, so its parts' verdicts are as fast
            for guess in np.flatnonzero(~refuted & (labels == np.arange(len(labels)))).tolist():
                slot, child = self.refutation(subset, depth, history, guess)
                entries.append([self.board.names[guess], self.board.game.answer_name(slot), child])
        if maps:
            node["maps"] = maps
        node["refuted"] = entries
        return index

    def refutation(self, subset: np.ndarray, depth: int, history: tuple[int, ...], guess: int) -> tuple[int, int | None]:
        """(answer, child) of a part of `guess` with no tree within `depth - 1`: the child None if the bounds refute it."""
        answers = self.solver.table[guess, subset]
        slots = [a for a in np.unique(answers).tolist() if a != self.board.game.solved]
        parts = sorted(((subset[answers == a], a) for a in slots), key=lambda item: (-len(item[0]), item[1]))
        after = history + (guess,)
        for part, slot in parts:
            # Within 2 guesses the bounds refute exactly the sets with no tree, which the search decides faster.
            if depth - 1 <= 2 and self.solver.find_guess(part, depth - 1, after) < 0:
                return slot, None
            if depth - 1 > 2 and self.board.over_caps(part, depth - 1).all():
                return slot, None
        for part, slot in parts:
            if self.solver.find_guess(part, depth - 1, after) < 0:
                return slot, self.node(part, depth - 1, after)
        raise BactreeError(f"{self.game.codes[guess]} starts a tree within {depth}: the claim is false")

    def symmetries(self, subset: np.ndarray, history: tuple[int, ...]) -> tuple[list, np.ndarray]:
        """(generators of the maps sending `subset` onto itself, as the certificate writes them; each code's least
        image under them): the set's own maps where the search lists them all, else those fixing the history."""
        solver = self.solver
        # The search's own listing of the group (private: the search exposes only the guesses it leaves), so the maps
        # written are those its canonical guesses were chosen by; the checker verifies each map anyway.
        group = solver.symmetry.set_group(subset)
        if group is None:
            rows, maps = _stabiliser(solver.codes[list(history)], solver.perms, self.game.num_symbols)
        else:
            rows, maps, _ = group
        free = [c for c in range(self.game.num_symbols) if (maps[:, c] < 0).all()] if len(maps) else []
        candidates = [(row.tolist(), np.where(m < 0, np.arange(len(m)), m).tolist()) for row, m in zip(rows, maps)]
        identity = list(range(self.game.length))
        for cycle in (free[:2], free):  # a transposition and a cycle of the free symbols make all their relabellings
            if len(cycle) >= 2:
                relabel = list(range(self.game.num_symbols))
                for a, b in zip(cycle, cycle[1:] + cycle[:1]):
                    relabel[a] = b
                candidates.append((identity, relabel))
        kept: list[list] = []
        images: list[np.ndarray] = []
        labels = np.arange(len(solver.codes))
        for positions, relabel in candidates:
            raw = [positions, "".join(self.game.symbols[c] for c in relabel)]
            image = self.board.map_of(raw)
            if np.array_equal(labels[image], labels):
                continue  # its orbits are those of the maps kept already
            kept.append(raw)
            images.append(image)
            labels = least_labels(images)
        return kept, labels


def least_labels(images: list[np.ndarray]) -> np.ndarray:
    """Each code's least index over its orbit under the group the permutations `images` generate."""
    inverses = [np.argsort(image) for image in images]
    labels = np.arange(len(images[0]))
    while True:
        grown = labels
        for image, inverse in zip(images, inverses):
            grown = np.minimum(np.minimum(grown, grown[image]), grown[inverse])
        if np.array_equal(grown, labels):
            return labels
        labels = grown


def dumps(certificate: dict) -> bytes:
    """Deterministic bytes: the header's keys in order, one node a line."""
    head = {key: value for key, value in certificate.items() if key != "nodes"}
    lines = [json.dumps(node, separators=(",", ":"), sort_keys=True) for node in certificate["nodes"]]
    text = json.dumps(head, separators=(", ", ": "))[:-1] + ', "nodes": [\n' + ",\n".join(lines) + "\n]}\n"
    return text.encode()


def shipped_path(game: Game) -> Path:
    """Where the repository keeps the game's certificate: `certificates/GAME-height.json`."""
    return Path(__file__).resolve().parents[1] / "certificates" / f"{game_slug(game)}-height.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int)
    parser.add_argument("--symbols")
    parser.add_argument("--guesses", type=int, help="the depth refuted (default: the least height less one)")
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    try:
        game = make_game(args.game, length=args.length, symbols=args.symbols)
        began = time.process_time()
        writer = Writer(game)
        depth = args.guesses if args.guesses is not None else writer.solver.min_height() - 1
        if depth < 1:
            raise BactreeError("one guess finds every secret: nothing to refute")
        data = dumps(writer.certificate(depth))
    except BactreeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    output = args.output or shipped_path(game)
    output.write_bytes(data)
    entries = sum(len(node.get("refuted", [])) for node in writer.nodes)
    print(f"{args.output or os.path.relpath(output)}: no tree within {depth} guesses; {len(writer.nodes)} nodes, {entries} entries, "
          f"{len(data):,} bytes, {time.process_time() - began:.1f}s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
