"""Mastermind codes as coloured pegs at the terminal: one colour-blind-safe colour per symbol.

A Mastermind player reads colours, not digits, so where standard output is
a terminal the sessions paint each symbol of a Mastermind code on its own
background colour, the symbol still printed on it (the text is unchanged,
so it can be copied and typed back). Bulls and Cows keeps plain digits, and
so does any output that is not a terminal, or when NO_COLOR is set and not
empty (https://no-color.org). The palette is Okabe and Ito's eight colours,
told apart with every common colour vision deficiency, given to the symbols
in order; a letter that names a colour (R red, G green, B blue, Y yellow,
O orange, P purple, K black, W white) gets that colour instead, so
`--symbols RGBYOP` reads as it is written. The page uses the same colours,
chosen here (`peg_colours`), as the classes p0..p8 of bactree/page/page.css.
"""

from __future__ import annotations

import os
from typing import Callable, TextIO

from .game import Game

__all__ = ["COLOURS", "PALETTE", "code_painter", "paint_code", "peg_colours", "wants_colour"]

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
WHITE = ("white", "#FFFFFF", 231, 30)  # only for a symbol W: the palette's eight are given in order
COLOURS = (*PALETTE, WHITE)  # a peg's colour is an index into these
NAMED = {"O": 0, "G": 2, "Y": 3, "B": 4, "R": 5, "P": 6, "K": 7, "W": 8}  # colour initials, as COLOURS indices
RESET = "\x1b[0m"


def wants_colour(stream: TextIO) -> bool:
    """True when `stream` is a terminal and NO_COLOR is unset or empty."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def has_pegs(game: Game) -> bool:
    """Mastermind games (repeats allowed) with no more symbols than the palette has colours."""
    return game.pegs and game.num_symbols <= len(PALETTE)


def peg_colours(game: Game) -> tuple[int, ...]:
    """Each symbol's colour, an index into `COLOURS`: a letter naming a colour gets it (the first such letter,
    either case), the other symbols the palette's unused colours in order. The terminal and the page share it;
    a game drawn without pegs (`has_pegs`) has none."""
    if not has_pegs(game):
        return ()
    named: dict[int, int] = {}
    for at, symbol in enumerate(game.symbols):
        colour = NAMED.get(symbol.upper())
        if colour is not None and colour not in named.values():
            named[at] = colour
    free = iter([c for c in range(len(PALETTE)) if c not in named.values()])
    return tuple(named[at] if at in named else next(free) for at in range(game.num_symbols))


def paint_code(game: Game, code: str) -> str:
    """`code` with each symbol on its peg colour (ANSI escapes); other text and other games unchanged."""
    colours = peg_colours(game)
    painted = []
    for symbol in code:
        at = game.symbols.find(symbol)
        if at < 0:
            painted.append(symbol)
            continue
        _, _, background, foreground = COLOURS[colours[at]]
        painted.append(f"\x1b[1;{foreground};48;5;{background}m{symbol}")
    return "".join(painted) + RESET


def code_painter(game: Game, stream: TextIO) -> Painter:
    """How to show a code of `game` on `stream`: painted pegs for Mastermind on a colour terminal, else as is."""
    if has_pegs(game) and wants_colour(stream):
        return lambda code: paint_code(game, code)
    return str
