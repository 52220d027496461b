"""Sets refuted within d guesses, remembered up to symmetry, so a search refutes each shape once.

A least-height search asks the same question of many sets: is there a tree
that solves this set within d guesses? The answer depends on the set alone,
not on the guesses that led to it, and it is the same for every image of
the set under the game's symmetries (a relabelling of positions and
symbols keeps every answer, so it maps trees onto trees). Measured on the
312-secret set of 5 of 10 (see the docs' notes), the parts that a search
of it refutes within three guesses recur as images of one another far more
often than byte for byte. `RefutationStore` keeps each refuted set under a
key that every image shares (`shape_key`: the sorted rows of the sorted
answers its secrets give one another) and, on a matching key, confirms an
image by finding a map (`_set_maps`), so a hit is always exact.

Only refutations are kept: a set that has a tree is searched again, so the
guess a search returns, and with it every tree, stays what it was.

A store can be saved to a file and loaded into another search of the same
game (`save`, `load`): loading several files merges them, so long runs
split over processes or sessions never refute a set twice. A file names
its game and carries a digest of its entries; a file of another game, of
another format, or whose entries do not match the digest is refused.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import orjson

from ..game import BactreeError, Game
from ..treefile import game_to_json, write_atomic
from ._symmetry import _set_maps

STORE_FORMAT = "bactree-refutations"
STORE_VERSION = 1

# Most symbol maps `_set_maps` checks to confirm one image; past it the set counts as not known.
CONFIRM_CAP = 4096


def shape_key(table: np.ndarray, subset: np.ndarray, depth: int) -> bytes:
    """Bytes that every image of the set `subset` shares (with `depth`): a digest of its sorted rows of sorted mutual answers.

    A digest, not the rows (a set's size squared in bytes): keys that
    collide only cost a failed search for a map.
    """
    block = np.sort(table[np.ix_(subset, subset)], axis=1)
    block = block[np.lexsort(block.T[::-1])]
    digest = hashlib.blake2b(np.ascontiguousarray(block).tobytes(), digest_size=16).digest()
    return depth.to_bytes(2, "little") + len(subset).to_bytes(4, "little") + digest


class RefutationStore:
    """Sets known to have no tree within some number of guesses, found again in any image.

    `max_bytes` caps what the stored sets and their keys hold; past it the
    store starts afresh (a refutation forgotten is only searched again).
    """

    def __init__(
        self, codes: np.ndarray, table: np.ndarray, perms: np.ndarray, num_symbols: int, index_of: np.ndarray,
        max_bytes: int = 256 << 20,
    ) -> None:
        self.codes = codes
        self.table = table
        self.perms = perms
        self.num_symbols = num_symbols
        self.index_of = index_of
        self.max_bytes = max_bytes
        self.held = 0
        self.hits = 0
        self._sets: dict[bytes, list[np.ndarray]] = {}
        self._member = np.zeros(len(codes), np.bool_)

    def __len__(self) -> int:
        return sum(len(sets) for sets in self._sets.values())

    def refuted(self, subset: np.ndarray, depth: int) -> bool:
        """True if an image of `subset` is stored as refuted within `depth` guesses (counted in `hits`)."""
        found = self._holds(subset, depth)
        self.hits += found
        return found

    def _holds(self, subset: np.ndarray, depth: int) -> bool:
        """True if an image of `subset` is stored within `depth` guesses."""
        stored = self._sets.get(shape_key(self.table, subset, depth))
        if not stored:
            return False
        member = self._member
        member[subset] = True
        try:
            for other in stored:
                found = _set_maps(
                    self.codes, other, subset, member, self.perms, self.num_symbols, self.index_of, CONFIRM_CAP, 1
                )[0]
                if len(found):
                    return True
            return False
        finally:
            member[subset] = False

    def add(self, subset: np.ndarray, depth: int) -> None:
        """Remember that `subset` has no tree within `depth` guesses."""
        key = shape_key(self.table, subset, depth)
        size = subset.nbytes + len(key)
        if self.held + size > self.max_bytes:
            self._sets.clear()
            self.held = 0
        self._sets.setdefault(key, []).append(subset.copy())
        self.held += size

    def entries(self) -> list[list]:
        """Every stored refutation as [depth, [code indices]], sorted (depth, size, codes): what `save` writes."""
        found = [
            [int.from_bytes(key[:2], "little"), subset.tolist()] for key, sets in self._sets.items() for subset in sets
        ]
        return sorted(found, key=lambda entry: (entry[0], len(entry[1]), entry[1]))

    def save(self, path: Path, game: Game) -> None:
        """Write the store to `path` atomically: its game, its entries and their digest."""
        entries = self.entries()
        document = {
            "format": STORE_FORMAT,
            "version": STORE_VERSION,
            "game": game_to_json(game),
            "digest": _digest(entries),
            "entries": entries,
        }
        write_atomic(path, orjson.dumps(document))

    def load(self, path: Path, game: Game) -> int:
        """Add the refutations saved in `path` (a store of `game`); how many. Raises `BactreeError` for a bad file."""
        try:
            document = orjson.loads(Path(path).read_bytes())
        except (OSError, orjson.JSONDecodeError) as err:
            raise BactreeError(f"cannot read the refutation store {path}: {getattr(err, 'strerror', None) or err}") from None
        if not isinstance(document, dict) or document.get("format") != STORE_FORMAT:
            raise BactreeError(f"{path} is not a bactree refutation store")
        if document.get("version") != STORE_VERSION:
            raise BactreeError(f"{path}: refutation store version {document.get('version')!r}, not {STORE_VERSION}")
        if document.get("game") != game_to_json(game):
            raise BactreeError(f"{path} is a refutation store of another game ({document.get('game')})")
        entries = document.get("entries")
        if not isinstance(entries, list) or document.get("digest") != _digest(entries):
            raise BactreeError(f"{path}: the refutation store's entries do not match its digest (damaged?)")
        checked = []
        for entry in entries:
            ok = isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and entry[0] >= 1
            codes = entry[1] if ok else None
            ok = ok and isinstance(codes, list) and codes and all(isinstance(c, int) for c in codes)
            ok = ok and codes == sorted(set(codes)) and 0 <= codes[0] and codes[-1] < len(self.codes)
            if not ok:
                raise BactreeError(f"{path}: a refutation store entry is not [depth, sorted code indices]: {entry!r}"[:200])
            checked.append((np.array(codes, np.int64), entry[0]))
        for subset, depth in checked:
            if not self._holds(subset, depth):  # an image already held (merging stores) is kept once
                self.add(subset, depth)
        return len(checked)


def _digest(entries: list) -> str:
    """A digest of the entries as saved: a file whose entries were changed after saving no longer matches it."""
    return hashlib.blake2b(orjson.dumps(entries), digest_size=16).hexdigest()
