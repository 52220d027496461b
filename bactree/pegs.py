"""Mastermind codes as coloured pegs at the terminal: one colour-blind-safe colour per symbol.

A Mastermind player reads colours, not digits, so where standard output is
a terminal the sessions paint each symbol of a Mastermind code on its own
background colour, the symbol still printed on it (the text is unchanged,
so it can be copied and typed back). Bulls and Cows keeps plain digits, and
so does any output that is not a terminal, or when NO_COLOR is set and not
empty (https://no-color.org). The palette is Okabe and Ito's eight colours,
told apart with every common colour vision deficiency; the page uses the
same palette, in the same order (bactree/page/page.css).
"""

from __future__ import annotations

import os
from typing import Callable, TextIO

from .game import Game

__all__ = ["PALETTE", "code_painter", "paint_code", "wants_colour"]

Painter = Callable[[str], str]

# Okabe-Ito, as xterm 256-colour indices (nearest cube colour) with a legible text colour for each:
# (name, hex of the Okabe-Ito colour, background index, foreground SGR).
PALETTE: tuple[tuple[str, str, int, int], ...] = (
    ("orange", "#E69F00", 214, 30),
    ("sky blue", "#56B4E9", 74, 30),
    ("bluish green", "#009E73", 36, 30),
    ("yellow", "#F0E442", 185, 30),
    ("blue", "#0072B2", 25, 97),
    ("vermillion", "#D55E00", 166, 30),
    ("reddish purple", "#CC79A7", 175, 30),
    ("black", "#000000", 16, 97),
)
RESET = "\x1b[0m"


def wants_colour(stream: TextIO) -> bool:
    """True when `stream` is a terminal and NO_COLOR is unset or empty."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def has_pegs(game: Game) -> bool:
    """Mastermind games (repeats allowed) with no more symbols than the palette has colours."""
    return game.repeats and game.num_symbols <= len(PALETTE)


def paint_code(game: Game, code: str) -> str:
    """`code` with each symbol on its peg colour (ANSI escapes); other text and other games unchanged."""
    painted = []
    for symbol in code:
        at = game.symbols.find(symbol)
        if at < 0:
            painted.append(symbol)
            continue
        _, _, background, foreground = PALETTE[at]
        painted.append(f"\x1b[1;{foreground};48;5;{background}m{symbol}")
    return "".join(painted) + RESET


def code_painter(game: Game, stream: TextIO) -> Painter:
    """How to show a code of `game` on `stream`: painted pegs for Mastermind on a colour terminal, else as is."""
    if has_pegs(game) and wants_colour(stream):
        return lambda code: paint_code(game, code)
    return str
