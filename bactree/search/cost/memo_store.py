"""Proven values of sets kept on disk, so that an exact search stopped midway starts again from what it proved.

A `CostSearch` remembers, per (set, guesses left), the least cost with the
lowest guess reaching it, or a proven lower bound. Both belong to the set
and the guesses left alone, whatever guesses led to the set (the lowest
best guess is the least of its orbit under any history's symmetries, so a
tree read back from a reloaded value is the same). A search that runs for
hours (one second guess of 5 of 9's largest parts) loses all of it when
it is stopped; a `MemoKeeper` notes each set whose search (or two-deep
bound, `deep.deeper_bound`) took at least `KEEP_SECONDS` of CPU and
writes those sets' values to a file every `SAVE_SECONDS` and when asked,
and `restore` puts a file's values back into a fresh search. `gather`
merges the files of several workers into one: an exact value wins over a
bound, the higher of two bounds is kept.

The file (NumPy's .npz, no pickles) holds a JSON header naming the game,
cost and mode, the sets' indices end to end with their offsets, and per
set its guesses left, value and guess (-1 for a lower bound), with a
SHA-256 digest of all of it: a file that does not match is refused in one
line, never trusted. Its values are proofs nothing here re-checks, so
only files this module wrote are read, and only those of this search code:
the header names the code that proved them
(`bactree.search.provenance.search_code`), and a file of other code (or
of version 1, which names none) is not loaded (`read_memo` gives None),
so its sets are searched again.
"""

from __future__ import annotations

import hashlib
import io
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import orjson

from ...game import BactreeError, Game
from ...treefile import write_atomic
from ..provenance import search_code

if TYPE_CHECKING:
    from .state import SearchState

FORMAT = "bactree-cost-memo"
VERSION = 2  # version 1 named no search code
# A set is kept when its search (or its bound two guesses deep, `deep.deeper_bound`) took at least this much CPU
# (seconds): the proofs worth not redoing. The two-deep bounds of the parts of 5 of 9's third-level sets take about
# 0.4 s each, and replaying a guess they ruled out costs milliseconds once they are reloaded, against 2 s.
KEEP_SECONDS = 0.1
# A keeper writes its file at most this often (CPU seconds), besides when asked (at the end of each task).
SAVE_SECONDS = 300.0

# The search keys a set by its indices' bytes as int64 (`Solver.all_guesses`, the kernels' parts).
SET_DTYPE = np.dtype(np.int64)
Key = tuple[bytes, int]
# (set bytes as the search keys it, guesses left) -> (value, guess or -1 for a proven lower bound)
Entries = dict[Key, tuple[int, int]]


def memo_files(checkpoint: Path) -> list[Path]:
    """The memo files beside a build's resume file: the merged one and each worker's."""
    return sorted(checkpoint.parent.glob(checkpoint.name + ".memo*"))


def merged(*stores: Entries) -> Entries:
    """One store of several: per set an exact value over a bound (they cannot disagree), else the highest bound."""
    out: Entries = {}
    for store in stores:
        for key, (value, guess) in store.items():
            held = out.get(key)
            if held is None or (held[1] < 0 and (guess >= 0 or value > held[0])):
                out[key] = (value, guess)
    return out


def entries_of(search: SearchState, keys: set[Key]) -> Entries:
    """The search's values of `keys`, as a store."""
    exact, lower = search.exact, search.lower
    out: Entries = {}
    for key in keys:
        if key in exact:
            out[key] = exact[key]
        elif key in lower:
            out[key] = (lower[key], -1)
    return out


def restore(search: SearchState, entries: Entries) -> None:
    """Put `entries` into `search`'s memo (a bound only raises what it holds; an exact value replaces it)."""
    for key, (value, guess) in entries.items():
        if guess >= 0:
            search.exact[key] = (value, guess)
            search.lower.pop(key, None)
        elif key not in search.exact:
            search.lower[key] = max(search.lower.get(key, 0), value)


def _header(game: Game, cost: str, hard: bool) -> bytes:
    return orjson.dumps({"format": FORMAT, "version": VERSION, "game": [game.length, game.symbols, game.repeats],
                         "cost": cost, "hard": hard, "code": search_code()}, option=orjson.OPT_SORT_KEYS)


def _of_other_code(header: bytes, game: Game, cost: str, hard: bool) -> bool:
    """Whether `header` is this build's (game, cost, mode) but for the search code or the version before it."""
    try:
        saved = orjson.loads(header)
        ours = orjson.loads(_header(game, cost, hard))
    except orjson.JSONDecodeError:
        return False
    if not isinstance(saved, dict) or saved.get("version") not in (1, VERSION):
        return False
    keep = set(ours) - {"version", "code"}
    return {key: saved.get(key) for key in keep} == {key: ours[key] for key in keep}


def _digest(header: bytes, arrays: list[np.ndarray]) -> str:
    digest = hashlib.sha256(header)
    for array in arrays:
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def write_memo(path: Path, game: Game, cost: str, hard: bool, entries: Entries) -> None:
    """Write `entries` to `path` atomically."""
    keys = sorted(entries)
    sets = [np.frombuffer(key[0], SET_DTYPE) for key in keys]
    offsets = np.zeros(len(keys) + 1, np.int64)
    offsets[1:] = np.cumsum([len(s) for s in sets])
    arrays = [
        np.concatenate(sets).astype(np.uint16) if sets else np.zeros(0, np.uint16),  # indices < BUILD_LIMIT < 2**16
        offsets,
        np.array([key[1] for key in keys], np.int64),
        np.array([entries[key][0] for key in keys], np.int64),
        np.array([entries[key][1] for key in keys], np.int64),
    ]
    header = _header(game, cost, hard)
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer, header=np.frombuffer(header, np.uint8), digest=np.frombuffer(_digest(header, arrays).encode(), np.uint8),
        sets=arrays[0], offsets=arrays[1], depths=arrays[2], values=arrays[3], guesses=arrays[4],
    )
    write_atomic(path, buffer.getvalue())


def read_memo(path: Path, game: Game, cost: str, hard: bool) -> Entries | None:
    """The entries of a file `write_memo` wrote for this game, cost and mode; None if other search code wrote it (its
    values prove nothing here); BactreeError (one line) otherwise."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header, digest = data["header"].tobytes(), data["digest"].tobytes().decode()
            arrays = [data[name] for name in ("sets", "offsets", "depths", "values", "guesses")]
    except Exception as err:  # a truncated zip, a missing array, not a file at all: all the same to the user
        raise BactreeError(f"{path}: not a bactree memo file ({type(err).__name__})") from None
    if header != _header(game, cost, hard):
        if _of_other_code(header, game, cost, hard):
            return None
        raise BactreeError(f"{path}: a memo of another game, cost or mode, not of this build")
    if digest != _digest(header, arrays):
        raise BactreeError(f"{path}: its digest does not match its contents (a damaged or edited file)")
    sets, offsets, depths, values, guesses = arrays
    count = len(depths)
    if not (len(offsets) == count + 1 and len(values) == len(guesses) == count and offsets[0] == 0
            and offsets[-1] == len(sets) and np.all(np.diff(offsets) > 0)
            and (len(sets) == 0 or (sets.min() >= 0 and sets.max() < len(game.codes)))):
        raise BactreeError(f"{path}: its sets do not fit the game")
    as_keys = sets.astype(SET_DTYPE)
    return {
        (as_keys[offsets[i] : offsets[i + 1]].tobytes(), int(depths[i])): (int(values[i]), int(guesses[i]))
        for i in range(count)
    }


def gather(checkpoint: Path, game: Game, cost: str, hard: bool) -> tuple[Entries, list[Path]]:
    """Merge every memo file of this search code beside `checkpoint` into `CHECKPOINT.memo` (the workers' own files
    then removed): (the merged entries, the files of other code: not read, and left where they are but for a
    `CHECKPOINT.memo` of other code, which is replaced)."""
    files = memo_files(checkpoint)
    read = {path: read_memo(path, game, cost, hard) for path in files}
    others = [path for path, entries in read.items() if entries is None]
    store = merged(*(entries for entries in read.values() if entries is not None))
    base = checkpoint.with_name(checkpoint.name + ".memo")
    if len(others) < len(files) or base in others:  # a base of other code is replaced, so workers never read it
        write_memo(base, game, cost, hard, store)
        for path in files:
            if path != base and path not in others:
                path.unlink(missing_ok=True)
    return store, others


class MemoKeeper:
    """Notes the sets a search took long to settle and writes their values to `path` now and then."""

    def __init__(self, search: SearchState, path: Path) -> None:
        self.search = search
        self.path = path
        self.keys: set[Key] = set()
        self.changed = False  # a kept set was settled again since the last write (a new one, or a better value)
        self.last_save = time.process_time()

    def searched(self, key: Key, started: float) -> None:
        """The search settled `key` (a value or a bound), having started it at CPU time `started`."""
        now = time.process_time()
        if now - started >= KEEP_SECONDS:
            self.keys.add(key)
        if key in self.keys:
            self.changed = True
        if now - self.last_save >= SAVE_SECONDS:
            self.save()

    def save(self) -> None:
        """Write the kept sets' values (nothing if none was settled since the last write)."""
        self.last_save = time.process_time()
        if not self.changed:
            return
        search = self.search
        write_memo(self.path, search.solver.game, search.cost.name, search.hard, entries_of(search, self.keys))
        self.changed = False
