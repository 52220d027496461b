"""Make the shipped English word lists (bactree/game/wordlists/) from SCOWL, byte for byte.

Usage: python scripts/make_word_lists.py [--check] [--source DIR] [--readme FILE]

The source is SCOWL 2020.12.07 as Debian's package `scowl` 2020.12.07-2
installs it (`apt-get install scowl=2020.12.07-2`): the word files in
/usr/share/dict/scowl and the README in /usr/share/doc/scowl. Every file
read is pinned by its sha256 below; another version is refused, so the
lists come out the same on every machine.

Each list takes SCOWL's `english-words` and `american-words` files up to a
size (SCOWL's sizes are cumulative: size 35 is the files .10, .20 and .35),
keeps the words of the length that are all a-z (which drops SCOWL's
possessives, accented words and any capitalised entry; proper nouns and
abbreviations are in files not read at all), and drops the words of
scripts/word-exclusions.txt. The secrets (`en-4`, `en-5`: size 35, no
letter repeated) are every word of their guesses list (`en-4-guesses`,
`en-5-guesses`: size 60, letters may repeat) that meets the stricter rule,
so a secret is always an allowed guess. Jotto's list (`en-5-jotto`) is
`en-5` with one word per set of anagrams, the first in code-point order
standing for its set, so that a Jotto answer of 5 means the word is found
(Norvig's rule in his Jotto notebook). NOTICE is the preface below and the
README's copyright section, as its licence asks.

Writes the files (atomically) and prints each one's count of words, or with
`--check` compares them with the shipped ones and writes nothing. Exit 0
when written or identical, 1 when `--check` finds a difference, 2 on a
source that is missing or not the pinned one, or a stale exclusion.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from bactree.game.words import SHIPPED_WORD_LISTS, read_word_list
from bactree.treefile import write_atomic

REPO = Path(__file__).resolve().parent.parent
LISTS = REPO / "bactree" / "game" / "wordlists"
EXCLUSIONS = REPO / "scripts" / "word-exclusions.txt"
SCOWL = "SCOWL 2020.12.07 (Debian package scowl 2020.12.07-2)"
SIZES = (10, 20, 35, 40, 50, 55, 60)
PINNED = {  # sha256 of each file read, as scowl 2020.12.07-2 installs it
    "english-words.10": "108251985a4ae80bd64861b5ffa8e96cbbf4c1b19a1c216f58ae923284c1c776",
    "english-words.20": "81e3554e71857b22ede83d0bb6378657f8419b57e5ceeb53c43c0818d36db465",
    "english-words.35": "2a7cb13fb22495dfec81e4a67efb13cdb5e2f6f052e8788efe506cc98eb652d0",
    "english-words.40": "6d6f347d5cad7f2884d1e295033e16f6333abf19d8d8ee9b291c56ac8bc10f4c",
    "english-words.50": "f0d0ceabd1391b6d9dd86b9a4f7a6c7029776600b04599e10503ab1ee76f561d",
    "english-words.55": "cbf4c3684c653d441fe0fa15b5bb13f24420fb565843b6d84b4e837dbfabd75e",
    "english-words.60": "5e5c64594982db241146e8028506f0a0e9755c0cfaf36fcf0c7831be225e3d6b",
    "american-words.10": "6ed66394d8b46ed12feac7aad989dfc4620c4f2051316ab774560aae71140994",
    "american-words.20": "a7ae730cd5f2ee11b584c163bf0750cc7659e336c3a04da1a8a2e9c44b604b9e",
    "american-words.35": "c999d002cfe31a2c3d9726eee1b87697402bb71cc831a2c63d064403c6a3a7fb",
    "american-words.40": "b01689c8dad23d0e6f15386f73b220bc87e63ca42164a49dbc31ccc02bbd4e5c",
    "american-words.50": "1846537a15d7cf9f0b5fde8d2f69a9d3606856695c68de1701fc85d698646994",
    "american-words.55": "d5b6d504b907ef159b164286519fc96168737d60a62310ff5d74d2076ed97027",
    "american-words.60": "3296121b977bcc2fc3fab374b69d2a0891c825bb473ef8078161245b2a990f2f",
    "README": "23243cedb0d5ef29e8a17ca56552f9fd65b11139b1611d1c35e0234dfc53c475",  # README.gz, unzipped
}
NOTICE_PREFACE = f"""\
The word lists in this folder (en-4.txt, en-4-guesses.txt, en-5.txt,
en-5-guesses.txt, en-5-jotto.txt) are made from {SCOWL}
by scripts/make_word_lists.py, which keeps SCOWL's words of 4 or 5 letters
a-z of its english-words and american-words files up to a size and leaves
out the words of scripts/word-exclusions.txt. SCOWL is by Kevin Atkinson,
http://wordlist.aspell.net/. Its copyright, sources and credits, as its
README gives them:

"""


class SourceError(Exception):
    """The source files are missing or are not the pinned ones, or the exclusions are stale."""


@dataclass(frozen=True)
class Recipe:
    """One shipped list: its words' length, the largest SCOWL size read, whether a letter may repeat,
    and whether only one word of each set of anagrams is kept (Jotto's list)."""

    name: str
    length: int
    size: int
    repeats: bool
    one_per_anagram: bool = False

    def keeps(self, word: str) -> bool:
        return len(word) == self.length and (self.repeats or len(set(word)) == self.length)

    def words(self, found: set[str], left_out: set[str]) -> list[str]:
        """The list's words, sorted by code point, from SCOWL's words of the recipe's size."""
        words = sorted(word for word in found if self.keeps(word) and word not in left_out)
        return first_of_each_anagram_set(words) if self.one_per_anagram else words


RECIPES = (
    Recipe("en-4", 4, 35, False),
    Recipe("en-4-guesses", 4, 60, True),
    Recipe("en-5", 5, 35, False),
    Recipe("en-5-guesses", 5, 60, True),
    Recipe("en-5-jotto", 5, 35, False, one_per_anagram=True),
)


def first_of_each_anagram_set(words: list[str]) -> list[str]:
    """The words (sorted) whose letters no earlier word holds in another order: one word a set of anagrams."""
    seen: set[str] = set()
    kept = []
    for word in words:
        letters = "".join(sorted(word))
        if letters not in seen:
            seen.add(letters)
            kept.append(word)
    return kept


def pinned_text(path: Path, key: str) -> str:
    """The file's text, refused unless its bytes (unzipped for a .gz) have the pinned sha256."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise SourceError(f"cannot read {path} ({err.strerror}): install the source with `apt-get install scowl=2020.12.07-2`") from None
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    digest = hashlib.sha256(data).hexdigest()
    if digest != PINNED[key]:
        raise SourceError(f"{path}: sha256 {digest[:12]}..., not the pinned {PINNED[key][:12]}... of {SCOWL}")
    return data.decode("utf-8")


def scowl_words(source: Path) -> dict[int, set[str]]:
    """The words a-z of each size, cumulative: {35: every word of sizes 10, 20 and 35, ...}."""
    words: set[str] = set()
    by_size = {}
    for size in SIZES:
        for category in ("english-words", "american-words"):
            text = pinned_text(source / f"{category}.{size}", f"{category}.{size}")
            words.update(word for word in text.split("\n") if re.fullmatch("[a-z]+", word))
        by_size[size] = set(words)
    return by_size


def exclusions(candidates: set[str]) -> set[str]:
    """The words of scripts/word-exclusions.txt, each of which must be a word some list would hold."""
    found = set()
    for number, line in enumerate(EXCLUSIONS.read_text(encoding="utf-8").split("\n"), 1):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        if word in found or word not in candidates:
            why = "is there twice" if word in found else "is in no list: drop it"
            raise SourceError(f"{EXCLUSIONS.relative_to(REPO)}:{number}: {word!r} {why}")
        found.add(word)
    return found


def list_text(recipe: Recipe, words: list[str]) -> str:
    """The file: a header of comments (which readers skip), then the words, one a line."""
    header = (
        f"# {recipe.name}: {SHIPPED_WORD_LISTS[recipe.name]}\n"
        f"# {len(words):,} words from {SCOWL}, english-words and american-words\n"
        f"# up to size {recipe.size}; see NOTICE. Made by scripts/make_word_lists.py: do not edit.\n"
    )
    return header + "".join(f"{word}\n" for word in words)


def make(source: Path, readme: Path) -> dict[str, str]:
    """Every file to ship, by name: the lists and NOTICE."""
    by_size = scowl_words(source)
    candidates = {word for recipe in RECIPES for word in by_size[recipe.size] if recipe.keeps(word)}
    left_out = exclusions(candidates)
    files = {}
    for recipe in RECIPES:
        files[f"{recipe.name}.txt"] = list_text(recipe, recipe.words(by_size[recipe.size], left_out))
    text = pinned_text(readme, "README")
    credits = text[text.index("COPYRIGHT, SOURCES, and CREDITS:") : text.index("FUTURE PLANS:")]
    files["NOTICE"] = NOTICE_PREFACE + credits.rstrip("\n") + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped files; write nothing")
    parser.add_argument("--source", type=Path, default=Path("/usr/share/dict/scowl"), help="SCOWL's word files")
    parser.add_argument("--readme", type=Path, default=Path("/usr/share/doc/scowl/README.gz"), help="SCOWL's README")
    args = parser.parse_args(argv)
    try:
        files = make(args.source, args.readme)
    except SourceError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    differ = 0
    for name, text in files.items():
        path = LISTS / name
        data = text.encode("utf-8")
        if args.check:
            same = path.is_file() and path.read_bytes() == data
            differ += not same
            print(f"{name}: {'identical' if same else 'DIFFERS from what the source makes'}")
        else:
            write_atomic(path, data)
            size = f"{len(read_word_list(path).words):,} words" if name.endswith(".txt") else f"{len(data):,} bytes"
            print(f"{name}: {size}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
