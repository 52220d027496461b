"""The fixed alphabet of long-key games: the paper's 37 symbols, then more letters.

Eisert, Mikula and Waigel crack keys over a-z, 0-9 and space (37 symbols).
Keys without repeats longer than 37 need more symbols, so the alphabet goes
on with the upper- and lower-case letters of Latin-1 Supplement, Latin
Extended-A and B, Greek and Cyrillic, in code-point order. Those blocks'
letter categories have not changed across Unicode versions, so the first K
symbols are the same on every Python.
"""

from __future__ import annotations

import unicodedata

PAPER_SYMBOLS = "abcdefghijklmnopqrstuvwxyz0123456789 "

_LETTER_BLOCKS = ((0x00C0, 0x024F), (0x0391, 0x03C9), (0x0410, 0x044F))


def _further_letters() -> str:
    """Upper- and lower-case letters of the blocks above, in code-point order."""
    letters = []
    for first, last in _LETTER_BLOCKS:
        for point in range(first, last + 1):
            char = chr(point)
            if unicodedata.category(char) in ("Lu", "Ll"):
                letters.append(char)
    return "".join(letters)


FIXED_ALPHABET = PAPER_SYMBOLS + _further_letters()


def first_symbols(count: int) -> str:
    """The first `count` symbols of the fixed alphabet."""
    from ..game import InvalidGameError

    if not 1 <= count <= len(FIXED_ALPHABET):
        raise InvalidGameError(f"--alphabet-size must be between 1 and {len(FIXED_ALPHABET)}, got {count}")
    return FIXED_ALPHABET[:count]
