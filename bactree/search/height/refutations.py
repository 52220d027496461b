"""Sets refuted within d guesses, remembered up to symmetry, so a search refutes each shape once.

A least-height search asks the same question of many sets: is there a tree
that solves this set within d guesses? The answer depends on the set alone,
not on the guesses that led to it, and it is the same for every image of
the set under the game's symmetries (a relabelling of positions and
symbols keeps every answer, so it maps trees onto trees). Measured on the
312-secret set of 5 of 10 (see the docs' notes), the parts that a search
of it refutes within three guesses recur as images of one another far more
often than byte for byte. `RefutationStore` keeps each refuted set under a
key that every image shares (`shape_key`: per secret, how many of the
others give each answer to it, the rows sorted) and, on a matching key, confirms an
image by finding a map (`_set_maps`), so a hit is always exact.

Only refutations are kept: a set that has a tree is searched again, so the
guess a search returns, and with it every tree, stays what it was.

A store can be saved to a file and loaded into another search of the same
game (`save`, `load`): loading several files merges them, so long runs
split over processes or sessions never refute a set twice. A file names
its game and carries a digest of its entries; a file of another game, of
another format, or whose entries do not match the digest is refused.

A file's digest says it is intact, not that its entries are true, so a file
also names the search code that refuted its entries
(`bactree.search.provenance.search_code`). Only a file of the same code is
believed; the entries of any other (or of a version 1 file, which names no
code) are claims (`RefutationStore.claims`): they steer a search (guesses
leaving a claimed part are tried last) but refute nothing, and a tree found
for a claimed set is an error naming the entry (`ClaimContradicted`).
Saved again, a file keeps its claims apart from what this code refuted.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import orjson

from ...game import BactreeError, Game
from ...game.codes import decode_answer, solved_slot
from ...treefile import Node, game_to_json, write_atomic
from .._symmetry import _answer_counts, _set_maps
from ..provenance import search_code

STORE_FORMAT = "bactree-refutations"
STORE_VERSION = 2  # version 1 named no search code: its entries are read as claims

# Most symbol maps `_set_maps` checks to confirm one image; past it the set counts as not known.
CONFIRM_CAP = 4096
# A store kept in a file (`kept_in`) is saved at least this often while it grows, so a run killed
# without warning loses at most this much of its refutations.
AUTOSAVE_SECONDS = 300.0


def shape_key(table: np.ndarray, subset: np.ndarray, depth: int, num_slots: int) -> bytes:
    """Bytes that every image of the set `subset` shares (with `depth`): a digest of its secrets' answer counts.

    Row i counts, per answer, the secrets of the set that give it to
    secret i's code: the same as secret i's sorted row of mutual answers,
    in |answers| numbers instead of |subset|. The rows are sorted, so an
    image (its secrets relabelled and reordered) gets the same bytes. A
    digest, not the rows: keys that collide only cost a failed search for a map.
    `num_slots`: the table's range of answers (`bactree.game.codes.num_slots`).
    """
    counts = _answer_counts(table, subset, num_slots)
    counts = counts[:, counts.any(axis=0)]  # the answers the set uses: images use the same ones
    counts = counts[np.lexsort(counts.T[::-1])]
    digest = hashlib.blake2b(np.ascontiguousarray(counts).tobytes(), digest_size=16).digest()
    return depth.to_bytes(2, "little") + len(subset).to_bytes(4, "little") + digest


class ClaimContradicted(BactreeError):
    """A set a loaded file claims refuted has a tree the search found: the file is wrong, and no tree is written."""


class RefutationStore:
    """Sets known to have no tree within some number of guesses, found again in any image.

    `max_bytes` caps what the stored sets and their keys hold; past it the
    refutations of the fewest guesses go first, since they are the cheapest
    to find again (a refutation forgotten is only searched again).
    """

    def __init__(
        self, codes: np.ndarray, table: np.ndarray, perms: np.ndarray, num_symbols: int, index_of: np.ndarray | None,
        max_bytes: int = 256 << 20, num_slots: int | None = None,
    ) -> None:
        """`index_of`: `Solver.index_of`, to find a set's images under relabellings; None for a game without them
        (a word list), whose sets are found again only as they are. `num_slots`: the rule's range of answers
        (`bactree.game.codes.num_slots`), bulls and cows' `(length + 1) ** 2` if not given; the keys do not depend
        on it (they keep only the answers a set gets), so long as it holds every answer of the table."""
        self.codes = codes
        self.num_slots = (codes.shape[1] + 1) ** 2 if num_slots is None else num_slots
        self.table = table
        self.perms = perms
        self.num_symbols = num_symbols
        self.index_of = index_of
        self.max_bytes = max_bytes
        self.held = 0
        self.hits = 0
        self._sets: dict[bytes, list[np.ndarray]] = {}
        self._member = np.zeros(len(codes), np.bool_)
        self._autosave: tuple[Path, Game, float, int] | None = None  # `kept_in`'s file, game, seconds, min_depth
        self._saved_at = 0.0
        self._sizes: set[tuple[int, int]] = set()  # (depth, size) of every set added: a quick filter before a key
        # Sets that files of other search code say are refuted (`load`): they steer a search, never refute.
        self.claims: RefutationStore | None = None
        self.source: Path | None = None  # the file the claims came from, for `ClaimContradicted`'s message

    def __len__(self) -> int:
        return sum(len(sets) for sets in self._sets.values())

    def key(self, subset: np.ndarray, depth: int) -> bytes:
        """The `shape_key` of `subset` within `depth` guesses: what its images share."""
        return shape_key(self.table, subset, depth, self.num_slots)

    def refuted(self, subset: np.ndarray, depth: int, key: bytes | None = None) -> bool:
        """True if an image of `subset` is stored as refuted within `depth` guesses (counted in `hits`).

        `key`: the set's `key` when the caller has it (it costs |subset|**2 reads of the table).
        """
        found = self._holds(subset, depth, key)
        self.hits += found
        return found

    def _holds(self, subset: np.ndarray, depth: int, key: bytes | None = None) -> bool:
        """True if an image of `subset` is stored within `depth` guesses."""
        return self.match(subset, depth, key) is not None

    def sizes(self, depth: int) -> list[int]:
        """The sizes of the sets added within `depth` guesses (some may have been evicted since)."""
        return sorted(size for held, size in self._sizes if held == depth)

    def match(self, subset: np.ndarray, depth: int, key: bytes | None = None) -> np.ndarray | None:
        """The stored set within `depth` guesses that `subset` is an image of, if any."""
        if (depth, len(subset)) not in self._sizes:
            return None
        stored = self._sets.get(self.key(subset, depth) if key is None else key)
        if not stored:
            return None
        if self.index_of is None:  # a game without symmetry (a word list): only the set itself
            return next((other for other in stored if np.array_equal(other, subset)), None)
        member = self._member
        member[subset] = True
        try:
            for other in stored:
                found = _set_maps(
                    self.codes, other, subset, member, self.perms, self.num_symbols, self.index_of, CONFIRM_CAP, 1
                )[0]
                if len(found):
                    return other
            return None
        finally:
            member[subset] = False

    def check_solved(self, subset: np.ndarray, within: int) -> None:
        """Raise `ClaimContradicted` if a stored set refuted within `within` or more guesses is an image of `subset`,
        which a search has just solved within `within`."""
        for depth in sorted({depth for depth, size in self._sizes if size == len(subset) and depth >= within}):
            found = self.match(subset, depth)
            if found is not None:
                listed = ", ".join(map(str, found[:4].tolist())) + (", ..." if len(found) > 4 else "")
                raise ClaimContradicted(
                    f"{self.source}: its entry [{depth}, [{listed}]] ({len(found)} secrets) says no tree solves that "
                    f"set within {depth} guesses, but the search found one within {within}: the file is wrong "
                    "(remove the entry or the file)"
                )

    def check_tree(self, game: Game, table: np.ndarray, root: Node) -> None:
        """Raise `ClaimContradicted` if `root`, a tree of all of `game`'s codes, solves a stored set (an image of one)
        within its stored number of guesses: every set the tree's nodes are reached by is checked."""
        index = {code: i for i, code in enumerate(game.codes)}
        solved = solved_slot(game)

        def height(node: Node, subset: np.ndarray) -> int:
            guess = index[node["guess"]]
            answers = table[guess, subset]
            below = 0
            for answer in np.unique(answers):
                if answer != solved:
                    below = max(below, height(node["next"][str(decode_answer(game, int(answer)))], subset[answers == answer]))
            self.check_solved(subset, below + 1)
            return below + 1

        if self._sizes:
            height(root, np.arange(len(self.codes), dtype=np.int64))

    def add(self, subset: np.ndarray, depth: int, key: bytes | None = None) -> None:
        """Remember that `subset` has no tree within `depth` guesses (`key`: its `key`, if at hand)."""
        key = self.key(subset, depth) if key is None else key
        size = subset.nbytes + len(key)
        while self._sets and self.held + size > self.max_bytes:
            self._evict()
        self._sets.setdefault(key, []).append(subset.copy())
        self._sizes.add((depth, len(subset)))
        self.held += size
        if self._autosave is not None and time.monotonic() - self._saved_at >= self._autosave[2]:
            path, game, _, min_depth = self._autosave
            self.save(path, game, min_depth)

    def _evict(self) -> None:
        """Forget the refutations of the fewest guesses held: the cheapest to find again."""
        least = min(_depth(key) for key in self._sets)
        for key in [key for key in self._sets if _depth(key) == least]:
            for subset in self._sets.pop(key):
                self.held -= subset.nbytes + len(key)

    def entries(self, min_depth: int = 1) -> list[list]:
        """The stored refutations within `min_depth` or more guesses as [depth, [code indices]], sorted (depth, size,
        codes): what `save` writes."""
        found = [
            [_depth(key), subset.tolist()] for key, sets in self._sets.items() if _depth(key) >= min_depth
            for subset in sets
        ]
        return sorted(found, key=lambda entry: (entry[0], len(entry[1]), entry[1]))

    def save(self, path: Path, game: Game, min_depth: int = 1) -> None:
        """Write the store to `path` atomically: its game, this search code's digest, its entries (within `min_depth`
        or more guesses), the claims it holds that it has not refuted itself, and a digest of it all."""
        entries = self.entries(min_depth)
        claims = [] if self.claims is None else [
            [depth, codes] for depth, codes in self.claims.entries() if not self._holds(np.array(codes, np.int64), depth)
        ]
        code = search_code()
        document = {
            "format": STORE_FORMAT,
            "version": STORE_VERSION,
            "game": game_to_json(game),
            "code": code,
            "digest": _digest([code, entries, claims]),
            "entries": entries,
            "claims": claims,
        }
        write_atomic(path, orjson.dumps(document))
        self._saved_at = time.monotonic()

    def load(self, path: Path, game: Game) -> tuple[int, int]:
        """Add the refutations saved in `path` (a store of `game`): (how many believed, how many taken as claims).

        Believed: the entries of a file of this search code. The others (a
        file of other code or of version 1, and every file's claims) go to
        `claims`. Raises `BactreeError` for a bad file.
        """
        try:
            document = orjson.loads(Path(path).read_bytes())
        except (OSError, orjson.JSONDecodeError) as err:
            raise BactreeError(f"cannot read the refutation store {path}: {getattr(err, 'strerror', None) or err}") from None
        if not isinstance(document, dict) or document.get("format") != STORE_FORMAT:
            raise BactreeError(f"{path} is not a bactree refutation store")
        version = document.get("version")
        if version not in (1, STORE_VERSION):
            raise BactreeError(f"{path}: refutation store version {version!r}, not 1 or {STORE_VERSION}")
        if document.get("game") != game_to_json(game):
            raise BactreeError(f"{path} is a refutation store of another game ({document.get('game')})")
        entries, claims, code = document.get("entries"), document.get("claims", []), document.get("code")
        lists = isinstance(entries, list) and isinstance(claims, list)
        if not lists or document.get("digest") != (_digest(entries) if version == 1 else _digest([code, entries, claims])):
            raise BactreeError(f"{path}: the refutation store's entries do not match its digest (damaged?)")
        same = code == search_code()
        believed = self._checked(path, entries) if same else []
        claimed = self._checked(path, claims if same else entries + claims)
        for subset, depth in believed:
            if not self._holds(subset, depth):  # an image already held (merging stores) is kept once
                self.add(subset, depth)
        if claimed:
            if self.claims is None:
                self.claims = RefutationStore(
                    self.codes, self.table, self.perms, self.num_symbols, self.index_of, num_slots=self.num_slots
                )
            self.source = self.claims.source = Path(path)
            for subset, depth in claimed:
                if not self.claims._holds(subset, depth):
                    self.claims.add(subset, depth)
        return len(believed), len(claimed)

    def _checked(self, path: Path, entries: list) -> list[tuple[np.ndarray, int]]:
        """`entries` of file `path` as (set, depth), each checked to be [depth, sorted code indices of the game]."""
        checked = []
        for entry in entries:
            ok = isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and entry[0] >= 1
            codes = entry[1] if ok else None
            ok = ok and isinstance(codes, list) and codes and all(isinstance(c, int) for c in codes)
            ok = ok and codes == sorted(set(codes)) and 0 <= codes[0] and codes[-1] < len(self.codes)
            if not ok:
                raise BactreeError(f"{path}: a refutation store entry is not [depth, sorted code indices]: {entry!r}"[:200])
            checked.append((np.array(codes, np.int64), entry[0]))
        return checked


@contextmanager
def kept_in(
    store: RefutationStore, path: Path, game: Game, every: float = AUTOSAVE_SECONDS, min_depth: int = 1
) -> Iterator[tuple[int, int]]:
    """Within the block, `store` holds the refutations saved in `path` (if it exists; yields `load`'s counts) and is saved
    back to it every `every` seconds while it grows, and once more however the block ends (Ctrl-C included).

    So a search stopped by a budget, a signal or the end of a session leaves
    its refutations behind, and the next one with the same file starts
    from them. A bad file is refused before the block runs. Only
    refutations within `min_depth` or more guesses are saved: the kernel's
    (three guesses or fewer) come by thousands a minute and are quick to
    make again, so a file of them alone would grow by megabytes a minute.
    """
    loaded = store.load(path, game) if Path(path).exists() else (0, 0)
    store._autosave, store._saved_at = (Path(path), game, every, min_depth), time.monotonic()
    try:
        yield loaded
    finally:
        store._autosave = None
        store.save(path, game, min_depth)


def _depth(key: bytes) -> int:
    """The number of guesses a `shape_key` was made with."""
    return int.from_bytes(key[:2], "little")


def _digest(entries: list) -> str:
    """A digest of what a file holds as saved (its entries; since version 2 its code, entries and claims): a file
    changed after saving no longer matches it."""
    return hashlib.blake2b(orjson.dumps(entries), digest_size=16).hexdigest()
