"""Word lists: reading a file or a shipped list, normalising its words, and every bad list's one-line error."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bactree.game import BactreeError
from bactree.game.words import (
    SHIPPED_WORD_LISTS,
    WORD_LIST_LIMIT,
    InvalidWordListError,
    WordList,
    describe_shipped_word_list,
    normalise_word,
    read_word_list,
    shipped_word_lists,
)

REPO = Path(__file__).resolve().parent.parent
SCOWL = Path("/usr/share/dict/scowl")


def write(folder: Path, text: str, name: str = "words.txt") -> str:
    """The list written as UTF-8 in `folder`, and its path relative to there (the test runs in it)."""
    (folder / name).write_bytes(text.encode("utf-8"))
    return name


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in its own folder, so a file is named as a user types it: `words.txt`."""
    monkeypatch.chdir(tmp_path)


def error(source: str) -> str:
    with pytest.raises(InvalidWordListError) as caught:
        read_word_list(source)
    assert isinstance(caught.value, BactreeError)
    return str(caught.value)


def test_a_file_is_read_normalised_unique_and_sorted(tmp_path: Path) -> None:
    listed = read_word_list(write(tmp_path, "# four letters\n\nCake\n  bead  \r\nable\n   # indented comment\n"))
    assert listed == WordList(
        name=None,
        path=Path("words.txt"),
        words=("able", "bead", "cake"),
        digest=hashlib.sha256(b"able\nbead\ncake").hexdigest(),
        warnings=(),
    )
    assert (listed.length, listed.short_digest) == (4, listed.digest[:12])
    assert repr(listed) == f"WordList(name=None, path=PosixPath('words.txt'), digest='{listed.digest}', warnings=())"


def test_the_digest_is_of_the_words_not_of_the_file(tmp_path: Path) -> None:
    one = read_word_list(write(tmp_path, "able\nbead\n", "one.txt"))
    other = read_word_list(write(tmp_path, "\ufeff# the same words\r\nBEAD\r\nable\r\nable\r\n", "other.txt"))
    assert one.digest == other.digest and one.words == other.words


def test_german_russian_turkish_and_number_codes(tmp_path: Path) -> None:
    german = read_word_list(write(tmp_path, "Käse\nGRU\u1e9e\nSpaß\nÖFEN\nkäse\n", "de.txt"))  # capital ẞ lowers to ß
    assert german.words == ("gruß", "käse", "spaß", "öfen")
    assert german.warnings == ("de.txt: 1 duplicate word dropped ('käse', line 5)",)
    decomposed = read_word_list(write(tmp_path, unicodedata.normalize("NFD", "Bär\nöde\n"), "nfd.txt"))
    assert decomposed.words == ("bär", "öde") and decomposed.length == 3
    assert read_word_list(write(tmp_path, "КОТЫ\nслон\nЁЖИК\n", "ru.txt")).words == ("коты", "слон", "ёжик")  # by code point: ё is U+0451
    # İ lowers to i and a combining dot, one letter more: İZMİR is kept as given; I lowers to i, not ı, in every locale
    turkish = read_word_list(write(tmp_path, "İZMİR\nIŞIKS\nçiçek\nışık\u0131\n", "tr.txt"))
    assert turkish.words == ("işiks", "çiçek", "İZMİR", "ışıkı")
    assert read_word_list(write(tmp_path, "0123\n9876\n0123\n", "codes.txt")).words == ("0123", "9876")


def test_words_of_another_length(tmp_path: Path) -> None:
    assert error(write(tmp_path, "able\nbake\n\n# x\ncard\n\n\nabc\n")) == "words.txt:8: 'abc' has 3 letters, the list's first word 'able' has 4"
    assert error(write(tmp_path, "able\nA\n")) == "words.txt:2: 'a' has 1 letter, the list's first word 'able' has 4"
    assert error(write(tmp_path, "Straße\nİZMİR\n")) == "words.txt:2: 'İZMİR' has 5 letters, the list's first word 'straße' has 6"


def test_no_words(tmp_path: Path) -> None:
    assert error(write(tmp_path, "")) == "words.txt: no words"
    assert error(write(tmp_path, "# only a comment\n\n   \n")) == "words.txt: no words"


def test_whitespace_or_a_control_character_inside(tmp_path: Path) -> None:
    assert error(write(tmp_path, "able\nbake\nab c\n")) == "words.txt:3: 'ab c' holds whitespace"
    assert error(write(tmp_path, "ab\tc\n")) == "words.txt:1: 'ab\\tc' holds whitespace"
    assert error(write(tmp_path, "ab\u00a0c\n")) == "words.txt:1: 'ab\\xa0c' holds whitespace"
    assert error(write(tmp_path, "able\nab\x07c\n")) == "words.txt:2: 'ab\\x07c' holds a control character (U+0007)"
    assert error(write(tmp_path, "ab\x00c\n")) == "words.txt:1: 'ab\\x00c' holds a control character (U+0000)"


def test_duplicates_are_dropped_with_one_warning(tmp_path: Path) -> None:
    listed = read_word_list(write(tmp_path, "able\nbake\ncard\n\nbake\nABLE\nable\n"))
    assert listed.words == ("able", "bake", "card")
    assert listed.warnings == ("words.txt: 3 duplicate words dropped (first: 'bake', line 5)",)


def test_too_many_words(tmp_path: Path) -> None:
    words = [f"{n:05d}" for n in range(WORD_LIST_LIMIT + 1)]
    assert len(read_word_list(write(tmp_path, "# codes\n" + "\n".join(words[:-1]) + "\n00000\n")).words) == WORD_LIST_LIMIT
    message = error(write(tmp_path, "# codes\n" + "\n".join(words) + "\n"))
    assert message == f"words.txt:{WORD_LIST_LIMIT + 2}: more than 50,000 words, the most a word list may hold"


def test_not_utf8_unreadable_a_folder(tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes("able\nkäse\n".encode("latin-1"))
    assert error("latin1.txt") == "latin1.txt:2: not UTF-8 text (byte 0xe4 at column 2)"
    (tmp_path / "lists").mkdir()
    assert error("lists") == "lists: is a folder, not a word list"
    if os.geteuid() != 0:  # root reads any file
        (tmp_path / "locked.txt").write_text("able\n")
        (tmp_path / "locked.txt").chmod(0)
        assert error("locked.txt") == "locked.txt: cannot read (Permission denied)"


def test_an_unknown_name() -> None:
    shipped = "en-4, en-4-guesses, en-5, en-5-guesses, en-5-jotto"
    assert error("en-9") == f"no such file or shipped word list 'en-9' (shipped: {shipped})"
    assert error("x" * 5000) == f"no such file or shipped word list '{'x' * 5000}' (shipped: {shipped})"
    with pytest.raises(InvalidWordListError, match=r"^no such file or shipped word list 'en-9' \(shipped: en-4,"):
        describe_shipped_word_list("en-9")


def test_an_existing_path_wins_over_a_name(tmp_path: Path) -> None:
    write(tmp_path, "able\n", "en-4")
    listed = read_word_list("en-4")
    assert (listed.name, listed.path, listed.words) == (None, Path("en-4"), ("able",))


@given(st.text(max_size=12))
def test_normalising_is_idempotent(entry: str) -> None:
    once = normalise_word(entry)
    assert normalise_word(once) == once
    assert once == unicodedata.normalize("NFC", once)
    assert len(once) == len(unicodedata.normalize("NFC", entry))


word_text = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), min_size=3, max_size=3)


@given(st.lists(word_text.filter(lambda w: not w.startswith("#") and w == w.strip() and len(normalise_word(w)) == 3), min_size=1, max_size=30))
def test_a_list_reads_as_its_normalised_words_sorted_and_unique(entries: list[str]) -> None:
    Path("words.txt").write_text("".join(f"{entry}\n" for entry in entries), encoding="utf-8")
    listed = read_word_list("words.txt")
    expected = sorted({normalise_word(entry) for entry in entries})
    assert list(listed.words) == expected
    assert listed.digest == hashlib.sha256("\n".join(expected).encode()).hexdigest()
    assert bool(listed.warnings) == (len(expected) < len(entries))


def test_the_shipped_lists() -> None:
    assert shipped_word_lists() == ["en-4", "en-4-guesses", "en-5", "en-5-guesses", "en-5-jotto"] == sorted(SHIPPED_WORD_LISTS)
    lists = {name: read_word_list(name) for name in shipped_word_lists()}
    exclusions = {line for line in (REPO / "scripts" / "word-exclusions.txt").read_text(encoding="utf-8").split("\n") if line and line[0] != "#"}
    for name, listed in lists.items():
        assert listed.name == name and listed.warnings == () and listed.path.name == f"{name}.txt"
        assert all(re.fullmatch("[a-z]+", word) for word in listed.words) and not exclusions & set(listed.words)
        header = listed.path.read_text().split("\n")[:2]
        assert header[0] == f"# {name}: {SHIPPED_WORD_LISTS[name]}"
        assert header[1].startswith(f"# {len(listed.words):,} words from SCOWL 2020.12.07")
        assert describe_shipped_word_list(name) == f"{name}: {len(listed.words):,} words, {SHIPPED_WORD_LISTS[name]}"
    for length in (4, 5):
        secrets, guesses = lists[f"en-{length}"], lists[f"en-{length}-guesses"]
        assert secrets.length == guesses.length == length
        assert all(len(set(word)) == length for word in secrets.words)  # no letter repeated
        assert set(secrets.words) < set(guesses.words)
        assert any(len(set(word)) < length for word in guesses.words)  # letters may repeat in a guess
    first_of_each_set: dict[frozenset[str], str] = {}
    for word in lists["en-5"].words:  # sorted by code point: the first word of each set of letters stands for it
        first_of_each_set.setdefault(frozenset(word), word)
    assert lists["en-5-jotto"].words == tuple(sorted(first_of_each_set.values()))


def test_the_docs_give_the_shipped_lists_sizes() -> None:
    page = (REPO / "docs" / "word-games.md").read_text(encoding="utf-8")
    for name in shipped_word_lists():
        assert f"| `{name}` | {len(read_word_list(name).words):,} |" in page, name


@pytest.mark.skipif(not SCOWL.is_dir(), reason="SCOWL is not installed (apt-get install scowl=2020.12.07-2); .ci/word-lists installs it")
def test_the_script_makes_the_shipped_lists_byte_for_byte() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make_word_lists.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stdout
    assert result.stdout == "".join(f"{name}: identical\n" for name in ("en-4.txt", "en-4-guesses.txt", "en-5.txt", "en-5-guesses.txt", "en-5-jotto.txt", "NOTICE"))


def test_the_script_refuses_a_source_that_is_not_the_pinned_one(tmp_path: Path) -> None:
    for category in ("english-words", "american-words"):
        for size in (10, 20, 35, 40, 50, 55, 60):
            (tmp_path / f"{category}.{size}").write_text("able\n")
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make_word_lists.py"), "--check", "--source", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )
    digest = hashlib.sha256(b"able\n").hexdigest()
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"Error: {tmp_path}/english-words.10: sha256 {digest[:12]}..., not the pinned 108251985a4a... "
        "of SCOWL 2020.12.07 (Debian package scowl 2020.12.07-2)\n"
    )
