"""Small trees for the walker and play tests, built here so the tests need no solver or shipped file."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from bactree import treefile
from bactree.game import Answer, Game
from bactree.treefile import Node

Picker = Callable[[Game, list[str]], str]


def split(game: Game, guess: str, secrets: list[str]) -> dict[Answer, list[str]]:
    """The secrets grouped by the answer each gives to `guess`."""
    parts: dict[Answer, list[str]] = {}
    for secret in secrets:
        parts.setdefault(game.score(guess, secret), []).append(secret)
    return parts


def greedy_pick(game: Game, secrets: list[str]) -> str:
    """The guess whose largest answer group is smallest; ties go to a still-possible secret, then code order."""
    possible = set(secrets)
    return min(
        game.codes,
        key=lambda g: (max(len(p) for p in split(game, g, secrets).values()), g not in possible),
    )


def first_pick(game: Game, secrets: list[str]) -> str:
    """The first still-possible secret: cheap enough for 4 of 10 in a test."""
    return secrets[0]


def build_root(game: Game, pick: Picker = greedy_pick, secrets: list[str] | None = None) -> Node:
    """A complete tree for `game` choosing each guess with `pick` (a word game's guesses come from its allowed words)."""
    secrets = list(game.secret_codes) if secrets is None else secrets
    guess = pick(game, secrets)
    children = {
        answer: build_root(game, pick, group)
        for answer, group in split(game, guess, secrets).items()
        if answer != game.solved
    }
    return treefile.node(guess, children)


def write_tree(path: Path, game: Game, pick: Picker = greedy_pick) -> Path:
    """Build a tree for `game` and write it as a tree file at `path`."""
    doc = treefile.document(game, treefile.Objective("worst-case"), False, build_root(game, pick))
    treefile.write_atomic(path, treefile.dumps(doc))
    return path


def probe_pick(game: Game, secrets: list[str]) -> str:
    """Like `greedy_pick`, but ties go to a guess that cannot be the secret: trees with such nodes."""
    if len(secrets) == 1:
        return secrets[0]
    possible = set(secrets)
    return min(
        game.codes,
        key=lambda g: (max(len(p) for p in split(game, g, secrets).values()), g in possible),
    )
