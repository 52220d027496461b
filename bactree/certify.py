"""Check a least-height certificate: a proof that no tree finds every secret of a game within d guesses.

This file is the whole checker. It imports numpy and the standard library
only, nothing else of bactree (no search, no kernels, not even its game
model): it scores codes itself, so trusting a certificate needs this file
and nothing more. `python -m bactree.certify FILE` (or `python
bactree/certify.py FILE`) checks one; `docs/certificates.md` describes the
format. With a tree file that finds every secret within d + 1 guesses
(`bactree verify` replays one), the least height is d + 1.

The games: codes of `length` symbols of an alphabet, with or without
repeats, scored in bulls (right symbol, right place) and cows (shared
symbols counted with multiplicity, less the bulls): Bulls and Cows and
Mastermind. A tree may guess any code; it finds a secret within d guesses
when one of its first d guesses is the secret.

Why a certificate proves what it claims. Write parts(S, h) for the sets
into which guess h splits the secrets S \\ {h} by answer (the all-bulls
answer comes from h alone), and class(h, b) for every code giving answer
b to h.

1. Symmetry. A map sigma (positions permuted by p, symbols relabelled by
   a bijection t: sigma(x)[p[i]] = t(x[i])) keeps answers: bulls are the
   positions where two codes agree, and sigma moves agreeing positions to
   agreeing positions; shared symbols are counted per symbol, and t only
   renames them. So a tree that finds every secret of S within d, applied
   through sigma (each guess g replaced by sigma(g), answers unchanged),
   finds every secret of sigma(S) within d.

2. Class bounds. Let cap(d; h, b) be a number at least the most secrets of
   class(h, b) that any one tree finds within d guesses. cap(0; h, b) = 0 holds.
   Given cap(d - 1), a tree finds at most
       [h in C] + sum over b != all bulls of min(|C & class(h, b)|, cap(d - 1; h, b))
   secrets of a class C within d, where h is its first guess: h itself,
   and under each answer b a subtree of d - 1 guesses, which finds at most
   cap(d - 1; h, b) of class(h, b), of which C & class(h, b) is a part.
   So cap(d; g, a), the most of that over every code h (and at most
   |class(g, a)|), holds for class(g, a). Codes with the same counts of
   symbols, sorted, are images of each other under a map of 1. (relabel
   symbols by their counts, then permute positions), whose classes are
   images of each other too: the bound is computed once per such orbit.

3. The rule of a node. A node claims that no tree finds every secret of
   its set S within d guesses. Suppose one did, with first guess h. Under
   each answer b its subtree finds every secret of the part of b within
   d - 1; so no part may exceed cap(d - 1; h, b), and no part the
   certificate refutes within d - 1 (a child node, checked the same way)
   may be one of h's. The checker therefore refutes each guess h of the
   game: by a part over its class bound, or by the node's entry for h
   (an answer and a child whose set is exactly that part), or as an image
   sigma(h') of a guess h' refuted so, under a map sigma of the node that
   sends S onto S (by 1., a tree for S starting with sigma(h') gives one
   starting with h'). Every guess refuted, no tree exists. Depths fall by
   one along each entry, so the induction ends; at depth 1 the bound alone
   decides (cap(0) = 0: any other secret refutes a guess).

The root's set is every code. A node with no entry and no map is refuted
by the bounds alone (at depth 2 exactly the sets no guess splits into
single secrets); an entry whose child is null names such a node.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

FORMAT = "bactree-height-certificate"
VERSION = 1
# Most codes whose answer table the checker builds (codes squared bytes): 25 MB for 4 of 10, 1 GB for Mastermind 5x8.
# Answers take a byte each, so codes of at most 15 symbols (256 answers).
MOST_CODES = 32_768


class CertificateError(ValueError):
    """A certificate that is malformed or does not prove its claim; the message names where."""


@dataclass(frozen=True)
class Game:
    """Codes of `length` symbols of `symbols`, with or without repeats, scored in bulls and cows."""

    length: int
    symbols: str
    repeats: bool

    def codes(self) -> list[str]:
        """Every code, in the order of their symbols' places in the alphabet."""
        pick = itertools.product if self.repeats else itertools.permutations
        rows = pick(self.symbols, repeat=self.length) if self.repeats else pick(self.symbols, self.length)
        return ["".join(row) for row in rows]

    @property
    def slots(self) -> int:
        """Answers are numbered bulls * (length + 1) + cows."""
        return (self.length + 1) ** 2

    @property
    def solved(self) -> int:
        return self.length * (self.length + 1)

    def answer_name(self, slot: int) -> str:
        return f"{slot // (self.length + 1)}B{slot % (self.length + 1)}C"

    def parse_answer(self, text: object) -> int:
        """The slot of an answer written `1B2C`; `CertificateError` for anything else."""
        if isinstance(text, str) and len(text) >= 4 and text[-1] == "C" and "B" in text:
            bulls, _, cows = text[:-1].partition("B")
            if bulls.isdigit() and cows.isdigit() and int(bulls) + int(cows) <= self.length:
                return int(bulls) * (self.length + 1) + int(cows)
        raise CertificateError(f"invalid answer {text!r}")


def score(guess: str, secret: str) -> tuple[int, int]:
    """(bulls, cows) of `secret` to `guess`, plainly: the reference the tests hold the table to."""
    bulls = sum(g == s for g, s in zip(guess, secret))
    shared = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return bulls, shared - bulls


def answer_table(game: Game, codes: np.ndarray) -> np.ndarray:
    """table[g, s]: the answer slot of secret `codes[s]` to guess `codes[g]` (uint8), as one product of matrices.

    The slot is bulls * (n + 1) + cows = n * bulls + shared. Bulls are the positions where the codes agree: the dot
    product of their rows of [x[i] = c] over positions i and symbols c. Shared symbols are the sum over symbols c of
    min(count_c(g), count_c(s)) = the number of t >= 1 with both counts at least t: the dot product of their rows of
    [count_c(x) >= t]. So the table is P P^T scaled by n plus Q Q^T, in float32, exact for integers this small.
    Symmetric (bulls and shared symbols do not depend on which code is the guess), so that a part's answers to every
    guess are its secrets' rows (`Board.over_caps`); `Board` checks it."""
    n, k, num = game.length, len(game.symbols), len(codes)
    places = np.zeros((num, n, k), np.float32)
    places[np.arange(num)[:, None], np.arange(n), codes] = 1
    counts = np.zeros((num, k), np.int64)
    np.add.at(counts, (np.arange(num)[:, None], codes), 1)
    levels = (counts[:, :, None] >= np.arange(1, n + 1)).astype(np.float32).reshape(num, -1)
    levels = levels[:, levels.any(axis=0)]  # without repeats no count reaches 2: columns of zeros dropped
    left = np.concatenate([n * places.reshape(num, -1), levels], axis=1)
    right = np.ascontiguousarray(np.concatenate([places.reshape(num, -1), levels], axis=1).T)
    table = np.empty((num, num), np.uint8)
    step = max(1, (1 << 22) // num)
    for start in range(0, num, step):
        table[start : start + step] = left[start : start + step] @ right
    return table


def is_symmetric(table: np.ndarray, tile: int = 2048) -> bool:
    """Whether the square `table` equals its transpose, compared tile by tile (a whole transpose reads memory slowly)."""
    num = len(table)
    return all(
        np.array_equal(table[i : i + tile, j : j + tile], table[j : j + tile, i : i + tile].T)
        for i in range(0, num, tile)
        for j in range(i, num, tile)
    )


class Board:
    """One game's codes, answer table and class bounds: what checking its certificates reads."""

    def __init__(self, game: Game) -> None:
        self.game = game
        count = len(game.symbols) ** game.length if game.repeats else math.perm(len(game.symbols), game.length)
        if count > MOST_CODES or game.slots > 256:
            raise CertificateError(f"game too large to check: {count} codes of length {game.length}, "
                                   f"at most {MOST_CODES} codes of length at most 15")
        self.names = game.codes()
        self.index = {name: i for i, name in enumerate(self.names)}
        self.codes = self.code_rows(game, self.names)
        self.table = answer_table(game, self.codes)
        if not is_symmetric(self.table):
            raise CertificateError("the answer table is not symmetric")  # never: see `answer_table`
        counts = np.zeros((len(self.names), len(game.symbols)), np.int64)
        np.add.at(counts, (np.arange(len(self.names))[:, None], self.codes), 1)
        _, first, self.orbit_of = np.unique(-np.sort(-counts, axis=1), axis=0, return_index=True, return_inverse=True)
        self.orbit_of = self.orbit_of.reshape(-1)
        self.representatives = first
        self._joint = [self._joint_counts(int(r)) for r in first]
        self.caps = [np.zeros((len(first), game.slots), np.int64)]  # caps[d][orbit, answer], 2. of the docstring

    @staticmethod
    def code_rows(game: Game, names: list[str] | None = None) -> np.ndarray:
        """The codes (`game.codes()` unless given) as rows of symbol indices."""
        place = {c: i for i, c in enumerate(game.symbols)}
        names = game.codes() if names is None else names
        return np.array([[place[c] for c in name] for name in names], np.int64).reshape(-1, game.length)

    def _joint_counts(self, r: int) -> np.ndarray:
        """joint[h, a, b]: how many codes give answer a to code r and b to code h."""
        slots, num = self.game.slots, len(self.codes)
        joint = np.empty((num, slots * slots), np.int32)
        first = self.table[r].astype(np.int64) * slots
        step = max(1, (1 << 22) // num)
        for start in range(0, num, step):
            block = self.table[start : start + step].astype(np.int64) + first
            block += (np.arange(len(block)) * slots * slots)[:, None]
            joint[start : start + step] = np.bincount(block.ravel(), minlength=len(block) * slots * slots).reshape(
                len(block), -1
            )
        return joint.reshape(num, slots, slots)

    def cap(self, depth: int) -> np.ndarray:
        """`caps[depth][orbit, answer]`: at least the most secrets of that class one tree finds within `depth` (2.)."""
        while len(self.caps) <= depth:
            before = self.caps[-1]
            bound = before[self.orbit_of].copy()  # bound[h, b]: cap(d - 1; h, b)
            bound[:, self.game.solved] = 0
            rows = []
            for o, r in enumerate(self.representatives):
                joint = self._joint[o]
                inside = self.table[r] == np.arange(self.game.slots)[:, None]  # inside[a, h]: h in class(r, a)
                found = np.minimum(joint, bound[:, None, :]).sum(axis=2) + inside.T
                rows.append(np.minimum(found.max(axis=0), joint[0].sum(axis=1)))
            self.caps.append(np.array(rows, np.int64))
        return self.caps[depth]

    def over_caps(self, subset: np.ndarray, depth: int) -> np.ndarray:
        """For every guess, whether one of its parts of `subset` holds more than its class's bound within `depth - 1`."""
        slots = self.game.slots
        counts = np.zeros(len(self.codes) * slots, np.int64)
        where = np.arange(len(self.codes), dtype=np.int32) * slots
        step = max(1, (1 << 22) // len(self.codes))
        for start in range(0, len(subset), step):  # counts[h, b]: secrets whose answer to h is b (their rows, by symmetry)
            block = self.table[subset[start : start + step]].astype(np.int32) + where
            counts += np.bincount(block.ravel(), minlength=len(counts))
        counts = counts.reshape(-1, slots)
        counts[:, self.game.solved] = 0
        return (counts > self.cap(depth - 1)[self.orbit_of]).any(axis=1)

    def map_of(self, raw: object) -> np.ndarray:
        """The image index of every code under a map written [positions, symbols] (`docs/certificates.md`)."""
        n = self.game.length
        if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[1], str)):
            raise CertificateError(f"invalid map {raw!r}: not [positions, symbols]")
        positions, symbols = raw
        if not isinstance(positions, list) or any(type(p) is not int for p in positions) or sorted(positions) != list(range(n)):
            raise CertificateError(f"invalid map {raw!r}: positions are not a permutation of 0..{n - 1}")
        if sorted(symbols) != sorted(self.game.symbols):
            raise CertificateError(f"invalid map {raw!r}: symbols are not a relabelling of {self.game.symbols!r}")
        relabel = np.array([self.game.symbols.index(c) for c in symbols], np.int64)
        image = np.empty_like(self.codes)
        image[:, positions] = relabel[self.codes]
        return self._where[image @ self._weights]

    @cached_property
    def _weights(self) -> np.ndarray:
        return len(self.game.symbols) ** np.arange(self.game.length - 1, -1, -1)

    @cached_property
    def _where(self) -> np.ndarray:
        """_where[v]: the index of the code whose symbols read v in base k (every code's image is a code)."""
        where = np.full(len(self.game.symbols) ** self.game.length, -1, np.int64)
        where[self.codes @ self._weights] = np.arange(len(self.codes))
        return where


@dataclass
class Report:
    """What a checked certificate proved, and what checking it took."""

    game: Game
    guesses: int
    nodes: int
    entries: int
    maps: int
    seconds: float  # with building the game's table and bounds
    board: Board = field(repr=False, compare=False)

    def __str__(self) -> str:
        kind = "repeats" if self.game.repeats else "no repeats"
        return (
            f"proven: no tree finds every secret of {self.game.length} of {self.game.symbols!r} ({kind}) within "
            f"{self.guesses} guesses ({self.nodes} nodes, {self.entries} entries, {self.maps} maps; {self.seconds:.1f}s)"
        )


def check(certificate: dict, board: Board | None = None) -> Report:
    """Check a loaded certificate; `CertificateError` naming the first node that fails. `board`: its game's, if at hand."""
    start = time.perf_counter()
    if not isinstance(certificate, dict) or certificate.get("format") != FORMAT:
        raise CertificateError(f"not a certificate: format is not {FORMAT!r}")
    if certificate.get("version") != VERSION:
        raise CertificateError(f"unsupported certificate version {certificate.get('version')!r}, this checker reads {VERSION}")
    game = _game_of(certificate.get("game"))
    board = board if board is not None and board.game == game else Board(game)
    depth, nodes = certificate.get("guesses"), certificate.get("nodes")
    if not isinstance(depth, int) or depth < 1:
        raise CertificateError(f"invalid claim: guesses must be at least 1, got {depth!r}")
    if not isinstance(nodes, list) or not nodes:
        raise CertificateError("invalid certificate: no nodes")
    sets: dict[int, np.ndarray] = {0: np.arange(len(board.codes))}
    depths = {0: depth}
    entries = maps = 0
    for k, node in enumerate(nodes):
        if k not in sets:
            raise CertificateError(f"node {k}: no entry names it")
        entries += _check_node(board, node, k, sets, depths, len(nodes))
        maps += len(node.get("maps", []))
    return Report(game, depth, len(nodes), entries, maps, time.perf_counter() - start, board)


def _game_of(raw: object) -> Game:
    if not isinstance(raw, dict):
        raise CertificateError("invalid certificate: no game")
    length, symbols, repeats, rule = raw.get("length"), raw.get("symbols"), raw.get("repeats"), raw.get("rule")
    if rule != "bulls-cows":
        raise CertificateError(f"unsupported rule {rule!r}: this checker scores bulls and cows only")
    if not (isinstance(length, int) and length >= 1 and isinstance(symbols, str) and isinstance(repeats, bool)):
        raise CertificateError(f"invalid game {raw!r}")
    if len(set(symbols)) != len(symbols) or (not repeats and length > len(symbols)):
        raise CertificateError(f"invalid game {raw!r}")
    return Game(length, symbols, repeats)


def _check_node(
    board: Board, node: object, k: int, sets: dict[int, np.ndarray], depths: dict[int, int], num_nodes: int
) -> int:
    """Check node `k` (its set and depth known from the entry that named it, 3.); returns its entries' count."""
    if not isinstance(node, dict) or set(node) - {"maps", "refuted"}:
        raise CertificateError(f"node {k}: not an object of maps and refuted")
    subset, depth = sets[k], depths[k]
    refuted = board.over_caps(subset, depth)
    raw_entries = node.get("refuted", [])
    if not isinstance(raw_entries, list):
        raise CertificateError(f"node {k}: refuted is not a list")
    for entry in raw_entries:
        if not (isinstance(entry, list) and len(entry) == 3):
            raise CertificateError(f"node {k}: invalid entry {entry!r}: not [guess, answer, child]")
        name, answer, child = entry
        guess = board.index.get(name) if isinstance(name, str) else None
        if guess is None:
            raise CertificateError(f"node {k}: invalid guess {name!r}")
        slot = board.game.parse_answer(answer)
        part = subset[board.table[guess, subset] == slot]
        if slot == board.game.solved or not len(part):
            raise CertificateError(f"node {k}: guess {name} leaves no part {answer}")
        if depth <= 1:
            raise CertificateError(f"node {k}: an entry within 1 guess (the bound decides there)")
        if child is None:
            if not board.over_caps(part, depth - 1).all():
                raise CertificateError(f"node {k}: the part {answer} of {name} is not refuted by the bounds within {depth - 1}")
        elif type(child) is int and 0 < child < num_nodes:
            if child in sets and not np.array_equal(sets[child], part):
                raise CertificateError(f"node {k}: node {child} is not the part {answer} of {name}")
            if depths.setdefault(child, depth - 1) != depth - 1:
                raise CertificateError(f"node {k}: node {child} is named at two depths")
            sets[child] = part
        else:
            raise CertificateError(f"node {k}: invalid child {child!r} (a node's index, or null)")
        refuted[guess] = True
    raw_maps = node.get("maps", [])
    if not isinstance(raw_maps, list):
        raise CertificateError(f"node {k}: maps is not a list")
    images = [board.map_of(raw) for raw in raw_maps]
    for raw, image in zip(raw_maps, images):
        if not np.array_equal(np.sort(image[subset]), subset):
            raise CertificateError(f"node {k}: the map {raw!r} does not send the node's set onto itself")
    while True:  # close the refuted guesses under the maps (1.)
        grown = refuted.copy()
        for image in images:
            grown[image[grown]] = True
        if np.array_equal(grown, refuted):
            break
        refuted = grown
    if not refuted.all():
        guess = board.names[int(np.flatnonzero(~refuted)[0])]
        raise CertificateError(f"node {k}: guess {guess} is not refuted within {depth} guesses ({len(subset)} secrets)")
    return len(raw_entries)


def tree_height(tree: object, board: Board) -> int:
    """The most guesses the tree (a tree file, `docs/tree-format.md`, loaded) takes over every secret of `board`'s
    game, replayed here; `CertificateError` if it is of another game or leaves a secret unfound."""
    if not isinstance(tree, dict) or tree.get("format") != "bactree-tree" or not isinstance(tree.get("game"), dict):
        raise CertificateError("not a tree file")
    declared = tree["game"]
    if (declared.get("length"), declared.get("symbols"), declared.get("repeats"), declared.get("rule", "bulls-cows")) != (
        board.game.length, board.game.symbols, board.game.repeats, "bulls-cows",
    ) or "secrets" in declared:
        raise CertificateError("the tree is of another game than the certificate")
    deepest = 0
    pending = [(tree.get("root"), np.arange(len(board.codes)), 1)]
    while pending:
        node, secrets, depth = pending.pop()
        guess = board.index.get(node.get("guess")) if isinstance(node, dict) else None
        if guess is None:
            raise CertificateError(f"the tree has an invalid node at depth {depth}")
        answers = board.table[guess, secrets]
        if (answers == board.game.solved).any():
            deepest = max(deepest, depth)
        after = node.get("next") or {}
        for slot in np.unique(answers[answers != board.game.solved]).tolist():
            child = after.get(board.game.answer_name(slot)) if isinstance(after, dict) else None
            if child is None:
                raise CertificateError(f"the tree leaves {board.names[secrets[answers == slot][0]]} unfound")
            pending.append((child, secrets[answers == slot], depth + 1))
    return deepest


def load(path: Path) -> object:
    """A file read as JSON; `CertificateError` if it cannot be read or is not JSON."""
    try:
        return json.loads(Path(path).read_bytes())
    except (OSError, ValueError) as error:
        raise CertificateError(f"cannot read {path}: {error}") from None


def main(argv: list[str]) -> int:
    """`python -m bactree.certify CERTIFICATE [--tree TREE]`: one line, exit 1 if the certificate (or tree) fails."""
    parser = argparse.ArgumentParser(prog="python -m bactree.certify", description=__doc__.splitlines()[0])
    parser.add_argument("certificate", type=Path)
    parser.add_argument("--tree", type=Path, help="a tree file of the game, replayed: with it the least height is proven")
    args = parser.parse_args(argv)
    try:
        report = check(load(args.certificate))
        print(f"{args.certificate}: {report}")
        if args.tree is not None:
            height = tree_height(load(args.tree), report.board)
            least = "is" if height == report.guesses + 1 else f"is between {report.guesses + 1} and"
            print(f"{args.tree}: finds every secret within {height} guesses: the least height {least} {height}")
    except CertificateError as error:
        print(f"REFUSED: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
