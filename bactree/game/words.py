"""Word lists: the secrets and the allowed guesses of a word game, read from a file or a shipped list.

A list is plain UTF-8 text, one word a line; blank lines and lines starting
with `#` are skipped. Each word is normalised the way a typed guess must be
too (`normalise_word`), so `Käse`, `käse` and a decomposed `käse` are one
word. Any alphabet works: German, Russian, Turkish, number codes.

Pure Python, no numpy: the walker imports this module.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .errors import BactreeError

__all__ = [
    "SHIPPED_WORD_LISTS",
    "WORD_LIST_LIMIT",
    "InvalidWordListError",
    "WordList",
    "describe_shipped_word_list",
    "normalise_word",
    "read_word_list",
    "shipped_word_lists",
]

WORD_LIST_LIMIT = 50_000  # the engine's limit (BUILD_LIMIT.codes): a guess x secret answer table of 2.5 GB

# The shipped lists (bactree/game/wordlists/NAME.txt) and what each holds; scripts/make_word_lists.py
# makes them and writes each description into its file's header.
SHIPPED_WORD_LISTS = {
    "en-4": "English common words of 4 letters, no letter repeated (SCOWL size 35, vulgar words left out)",
    "en-4-guesses": "English words of 4 letters, letters may repeat (SCOWL size 60, vulgar words left out); holds en-4",
    "en-5": "English common words of 5 letters, no letter repeated (SCOWL size 35, vulgar words left out)",
    "en-5-guesses": "English words of 5 letters, letters may repeat (SCOWL size 60, vulgar words left out); holds en-5",
    "en-5-jotto": "English common words of 5 letters for Jotto: en-5 with one word per set of anagrams, the first in code-point order",
}


class InvalidWordListError(BactreeError):
    """A word list that cannot be read or played: the message names the file, and the line where there is one."""


@dataclass(frozen=True)
class WordList:
    """The words of a list, normalised, unique and sorted by code point, with what reading it dropped.

    `digest` is the sha256 (hex) of the words joined by newlines: two lists with the
    same words have the same digest, however their files were laid out.
    """

    name: str | None  # the shipped list's name, None for a file of the user's
    path: Path
    words: tuple[str, ...] = field(repr=False)
    digest: str
    warnings: tuple[str, ...] = ()  # one line each, such as the count of duplicates dropped

    @property
    def length(self) -> int:
        """The letters (code points) of every word."""
        return len(self.words[0])

    @property
    def short_digest(self) -> str:
        """The first 12 hex digits of the digest: what names a file list's trees, so two lists never share a file."""
        return self.digest[:12]


def normalise_word(entry: str) -> str:
    """`entry` in NFC and lower case; kept as given (in NFC) when its lower case has another length.

    The exception keeps Turkish `İ`, whose lower case is `i` and a combining dot,
    from gaining a letter: a word's length is its count of code points.
    """
    composed = unicodedata.normalize("NFC", entry)
    lower = unicodedata.normalize("NFC", composed.lower())
    return lower if len(lower) == len(composed) else composed


def shipped_word_lists() -> list[str]:
    """The names of the shipped word lists, sorted."""
    return sorted(SHIPPED_WORD_LISTS)


def shipped_list_named(words: tuple[str, ...]) -> str | None:
    """The name of the shipped list that holds exactly `words` (sorted, unique), or None."""
    for name in shipped_word_lists():
        if _shipped(name).words == words:
            return name
    return None


@lru_cache(maxsize=None)
def _shipped(name: str) -> WordList:
    """A shipped list, read once per process (the package's data does not change while it runs)."""
    return _read(_shipped_path(name), name)


def describe_shipped_word_list(name: str) -> str:
    """One line for listings: the name, the count of words and where they come from."""
    if name not in SHIPPED_WORD_LISTS:
        raise InvalidWordListError(_unknown(name))
    return f"{name}: {len(_read(_shipped_path(name), name).words):,} words, {SHIPPED_WORD_LISTS[name]}"


def read_word_list(source: str | os.PathLike[str]) -> WordList:
    """Read a word list from a file, or a shipped list by name (`en-4`); an existing path wins over a name.

    Raises InvalidWordListError, one line naming the file and line, for a file
    that cannot be read or is not UTF-8, an entry holding whitespace or a control
    character, words of different lengths, no words, or more than WORD_LIST_LIMIT.
    Duplicates (after normalisation) are dropped with one line in `warnings`.
    """
    if not str(source).strip():  # Path("") is the current folder
        raise InvalidWordListError(f"an empty name is no word list: give a file or a shipped list's name ({', '.join(shipped_word_lists())})")
    path = Path(source)
    if _exists(path):
        return _read(path, None)
    if str(source) in SHIPPED_WORD_LISTS:
        return _read(_shipped_path(str(source)), str(source))
    raise InvalidWordListError(_unknown(str(source)))


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte: no such file
        return False


def _unknown(name: str) -> str:
    return f"no such file or shipped word list {name!r} (shipped: {', '.join(shipped_word_lists())})"


def _shipped_path(name: str) -> Path:
    return Path(str(importlib.resources.files(__package__).joinpath("wordlists", f"{name}.txt")))


def _read(path: Path, name: str | None) -> WordList:
    label = str(path)
    first: str | None = None  # the first word, whose length every other word must have
    lines: dict[str, int] = {}  # each word and the line it was first read from
    duplicates = 0
    first_duplicate = ("", 0)
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                entry = _entry(raw, number == 1, f"{label}:{number}")
                if not entry or entry.startswith("#"):
                    continue
                _check(entry, f"{label}:{number}")
                word = normalise_word(entry)
                if first is None:
                    first = word
                elif len(word) != len(first):
                    raise InvalidWordListError(
                        f"{label}:{number}: {word!r} has {_letters(len(word))}, the list's first word {first!r} has {len(first)}"
                    )
                if word in lines:
                    duplicates += 1
                    if duplicates == 1:
                        first_duplicate = (word, number)
                    continue
                if len(lines) == WORD_LIST_LIMIT:
                    raise InvalidWordListError(f"{label}:{number}: more than {WORD_LIST_LIMIT:,} words, the most a word list may hold")
                lines[word] = number
    except IsADirectoryError:
        raise InvalidWordListError(f"{label}: is a folder, not a word list") from None
    except OSError as err:
        raise InvalidWordListError(f"{label}: cannot read ({err.strerror or err})") from None
    if not lines:
        raise InvalidWordListError(f"{label}: no words")
    words = tuple(sorted(lines))
    warnings = ()
    if duplicates:
        word, number = first_duplicate
        where = f"first: {word!r}, line {number}" if duplicates > 1 else f"{word!r}, line {number}"
        warnings = (f"{label}: {duplicates:,} duplicate {'words' if duplicates > 1 else 'word'} dropped ({where})",)
    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()
    return WordList(name=name, path=path, words=words, digest=digest, warnings=warnings)


def _entry(raw: bytes, first_line: bool, where: str) -> str:
    """One line's text, its line ending and the whitespace around it removed."""
    if first_line and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a byte order mark, as some editors write at the start of a UTF-8 file
    raw = raw.removesuffix(b"\n").removesuffix(b"\r")
    try:
        entry = raw.decode("utf-8").strip()
    except UnicodeDecodeError as err:
        raise InvalidWordListError(f"{where}: not UTF-8 text (byte 0x{raw[err.start]:02x} at column {err.start + 1})") from None
    return entry


def _check(entry: str, where: str) -> None:
    """Refuse an entry that holds whitespace or a control character: a word is one run of letters."""
    if any(char.isspace() for char in entry):
        raise InvalidWordListError(f"{where}: {entry!r} holds whitespace")
    control = next((char for char in entry if unicodedata.category(char) == "Cc"), None)
    if control is not None:
        raise InvalidWordListError(f"{where}: {entry!r} holds a control character (U+{ord(control):04X})")


def _letters(count: int) -> str:
    return f"{count} letter" if count == 1 else f"{count} letters"
