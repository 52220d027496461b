"""Tree files (format `bactree-tree`, versions 1 and 2): write, read, replay and check.

The contract is `shared/tree-format.md`. Pure Python plus orjson, so that the
walker can load trees without numpy or numba.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import orjson

from .game import (
    BULLS_COWS, READ_LIMIT, RULES, AnyAnswer, BactreeError, Game, InvalidAnswerError, InvalidCodeError, InvalidGameError,
)

FORMAT = "bactree-tree"
VERSION = 1  # what a game of every code over its symbols, answered in bulls and cows, is written in
VERSIONS = (1, 2)  # what this reader reads: 2 adds lists of secrets and guesses, and answer rules (`game.RULES`)
# The largest tree file a reader loads: parsed, JSON takes several times its size in memory.
# A tree has a node per secret, so this holds any tree of a game within READ_LIMIT.
MAX_FILE_BYTES = 256 * 1024 * 1024
# Games up to this many codes are listed straight away (a fraction of a second), so that a
# defect is named precisely; larger ones only after the tree is found to have a node per code.
LISTED_UNCOUNTED = 100_000

Node = dict[str, Any]


class TreeFormatError(BactreeError):
    """A tree file that breaks the format; the message names the file and the defect."""


@dataclass(frozen=True)
class Objective:
    """What a builder minimised, as recorded in the file."""

    name: str
    tie_breaks: tuple[str, ...] = ()
    hard_mode: bool = False
    max_guesses: int | None = None
    # The first guess when the user fixed it (`optimal` is then among the trees that start with it); else None, and
    # the field is left out of the file, so files built without it stay as they were.
    first_guess: str | None = None

    def to_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "name": self.name,
            "tie_breaks": list(self.tie_breaks),
            "hard_mode": self.hard_mode,
            "max_guesses": self.max_guesses,
        }
        if self.first_guess is not None:
            fields["first_guess"] = self.first_guess
        return fields


@dataclass(frozen=True)
class Replay:
    """Figures obtained by playing every secret of the game through a tree."""

    secrets: int
    max_guesses: int
    total_guesses: int
    nodes: int
    histogram: dict[int, int]

    def to_stats(self, lower_bound: int | None = None) -> dict[str, Any]:
        stats: dict[str, Any] = {
            "secrets": self.secrets,
            "max_guesses": self.max_guesses,
            "total_guesses": self.total_guesses,
            "mean_guesses": self.total_guesses / self.secrets,
            "nodes": self.nodes,
            "histogram": {str(k): self.histogram[k] for k in sorted(self.histogram)},
        }
        if lower_bound is not None:
            stats["lower_bound"] = lower_bound
        return stats


def node(guess: str, children: dict[AnyAnswer, Node] | None = None) -> Node:
    """A tree node with `next` keys in the rule's ascending order ((bulls, cows)); final nodes have no `next`."""
    if not children:
        return {"guess": guess}
    return {"guess": guess, "next": {str(a): children[a] for a in sorted(children)}}


def game_to_json(game: Game) -> dict[str, Any]:
    """The file's `game` object, keys in the format's order; in version 2 with its rule, and its lists if it has them."""
    fields: dict[str, Any] = {"length": game.length, "symbols": game.symbols, "repeats": game.repeats}
    if version_of(game) == 2:
        fields["rule"] = game.rule.name
    if game.has_lists:
        fields["secrets"] = list(game.secrets or ())
        if game.guesses is not None:
            fields["guesses"] = list(game.guesses)
    return fields


def version_of(game: Game) -> int:
    """The format version a game is written in: 2 exactly when it has lists or another rule than bulls and cows
    (every version 1 file stays as it was)."""
    return 2 if game.has_lists or game.rule is not BULLS_COWS else VERSION


def document(game: Game, objective: Objective, optimal: bool, root: Node, lower_bound: int | None = None) -> dict[str, Any]:
    """The whole file as a dict in the format's key order; stats come from a replay."""
    replay = replay_tree(game, root)
    return {
        "format": FORMAT,
        "version": version_of(game),
        "game": game_to_json(game),
        "objective": objective.to_json(),
        "optimal": optimal,
        "stats": replay.to_stats(lower_bound),
        "root": root,
    }


def renamed(doc: dict[str, Any], symbols: str) -> dict[str, Any]:
    """`doc` for the game with these symbols: each symbol replaced by the one at its position in `symbols`.

    Answers do not change under a renaming of symbols, and the alphabet's
    order is kept, so the tree is the same strategy, as optimal, for the
    renamed game, with the same figures. `symbols` must be as many as the game's.
    """
    old = doc["game"]["symbols"]
    if len(symbols) != len(old):
        raise ValueError(f"{len(symbols)} symbols cannot rename {len(old)}")
    table = str.maketrans(old, symbols)

    def rename(current: Node) -> Node:
        children = current.get("next")
        if not children:
            return {"guess": current["guess"].translate(table)}
        return {"guess": current["guess"].translate(table), "next": {key: rename(child) for key, child in children.items()}}

    return {**doc, "game": {**doc["game"], "symbols": symbols}, "root": rename(doc["root"])}


def dumps(doc: dict[str, Any]) -> bytes:
    """Serialise a document: indented, keys in insertion order, newline at the end."""
    return json_bytes(doc, indent=True) + b"\n"


def json_bytes(value: Any, indent: bool = False) -> bytes:
    """`value` as JSON, compact or indented by two: orjson's bytes, or the standard library's (the same bytes, slower)
    for a value nested past orjson's 255 levels, as a tree of over 127 guesses is (a guess nests two: node, next).
    A value too deep for either (a tree of about 450 guesses) raises `TreeFormatError`."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0)
    except orjson.JSONEncodeError as err:
        if "Recursion" not in str(err):
            raise
    try:
        text = json.dumps(value, ensure_ascii=False, indent=2 if indent else None, separators=None if indent else (",", ":"))
    except RecursionError:
        raise TreeFormatError("too deeply nested to be written as JSON (a tree of over about 450 guesses)") from None
    return text.encode()


def write_new(path: str | os.PathLike[str], data: bytes, replace: bool = False) -> None:
    """`write_atomic`, but never over a file that holds something else unless `replace` (the command's --force).

    A file of the same bytes is written again (a command run twice is not
    an error); a different one, such as the tree a page was asked of, is
    refused in one line.
    """
    target = Path(path)
    if not replace and target.is_file():
        try:
            same = target.read_bytes() == data
        except OSError as err:
            raise _write_error(path, err) from None
        if not same:
            raise BactreeError(f"{str(path)!r} exists and holds something else: pass --force to replace it")
    write_atomic(target, data)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder, then rename.

    Raises BactreeError `cannot write PATH: REASON` when the file cannot be
    written (the old file, if any, is left as it was). The folder must
    exist: a folder missing is more often a typo than a wish, so none is made.
    """
    target = Path(path)
    try:
        _existing_folder(target)  # for its errors: a folder, a missing folder, a path through a file, said plainly
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise _write_error(path, err) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a tree file is for sharing
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as err:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise _write_error(path, err) from None
        raise


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise the error `write_atomic` would, before long work: `path` must not be a folder, its folder must exist and be writable.

    Probes with a temporary file in that folder (removed at once).
    """
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=_existing_folder(target))
        os.close(fd)
        os.unlink(tmp)
    except OSError as err:
        raise _write_error(path, err) from None


def _existing_folder(target: Path) -> Path:
    """`target`'s folder; OSError when `target` is a folder, a file is on the way, or the folder does not exist."""
    if target.is_dir():
        raise IsADirectoryError(21, "it is a folder")
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise NotADirectoryError(20, f"{str(folder)!r} is not a folder")
    if folder != target.parent:
        raise FileNotFoundError(2, f"folder {str(target.parent)!r} does not exist")
    return folder


def _write_error(path: str | os.PathLike[str], err: OSError) -> BactreeError:
    """The one-line error for a file that cannot be written."""
    return BactreeError(f"cannot write {str(path)!r}: {err.strerror or err}")


def _umask() -> int:
    """The process umask (reading it means setting it, so set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a tree file's JSON and check its header; `TreeFormatError` names the file."""
    name = str(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device (/dev/zero) could block or never end
            raise TreeFormatError(f"{name}: not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise TreeFormatError(f"{name}: {info.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} a tree file may have")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # the file may have grown since
    except OSError as err:
        raise TreeFormatError(f"{name}: cannot read: {err.strerror or err}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise TreeFormatError(f"{name}: more than the {MAX_FILE_BYTES:,} bytes a tree file may have")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        why = "its bytes are not UTF-8 text" if "UTF-8" in str(err) else str(err)  # orjson's word is about str
        raise TreeFormatError(f"{name}: not valid JSON: {why}") from None
    check_header(doc, name)
    return doc


def check_header(doc: Any, name: str) -> Game:
    """Check format, version, game, objective and stats fields; return the game."""

    def fail(problem: str) -> TreeFormatError:
        return TreeFormatError(f"{name}: {problem}")

    if not isinstance(doc, dict):
        raise fail("the top level is not a JSON object")
    if doc.get("format") != FORMAT:
        raise fail(f"not a bactree tree file (format is {doc.get('format')!r}, expected {FORMAT!r})")
    if type(doc.get("version")) is not int or doc["version"] not in VERSIONS:  # not true, not 1.0
        known = " and ".join(map(str, VERSIONS))
        raise fail(f"unsupported version {doc.get('version')!r} (this reader knows versions {known})")
    for field in ("game", "objective", "optimal", "stats", "root"):
        if field not in doc:
            raise fail(f"missing field {field!r}")
    raw_game = doc["game"]
    if not isinstance(raw_game, dict):
        raise fail("'game' is not an object")
    length, symbols, repeats = raw_game.get("length"), raw_game.get("symbols"), raw_game.get("repeats")
    if not isinstance(length, int) or isinstance(length, bool):
        raise fail(f"game.length must be an integer, got {length!r}")
    if not isinstance(symbols, str):
        raise fail(f"game.symbols must be a string, got {symbols!r}")
    if not isinstance(repeats, bool):
        raise fail(f"game.repeats must be true or false, got {repeats!r}")
    *lists, rule = _read_game_fields(raw_game, doc["version"], fail)
    try:
        game = Game(length, symbols, repeats, *lists, rule=rule)
        game.check_size(READ_LIMIT)
    except InvalidGameError as err:
        raise fail(str(err)) from None
    objective = doc["objective"]
    if not isinstance(objective, dict) or not isinstance(objective.get("name"), str):
        raise fail("'objective' must be an object with a string 'name'")
    if not isinstance(doc["optimal"], bool):
        raise fail("'optimal' must be true or false")
    stats = doc["stats"]
    if not isinstance(stats, dict):
        raise fail("'stats' is not an object")
    for field in ("secrets", "max_guesses", "total_guesses", "mean_guesses", "nodes", "histogram"):
        if field not in stats:
            raise fail(f"missing field stats.{field}")
    if not isinstance(doc["root"], dict):
        raise fail("'root' is not a node object")
    if "first_guess" in objective and objective["first_guess"] != doc["root"].get("guess"):
        # optimal then claims "best among the trees that start with it": a file naming another first guess is wrong.
        raise fail(f"objective.first_guess {objective['first_guess']!r} is not the root's guess "
                   f"{doc['root'].get('guess')!r}")
    return game


def _read_game_fields(
    raw_game: dict[str, Any], version: int, fail: Callable[[str], TreeFormatError]
) -> tuple[Any, Any, str]:
    """(secrets, guesses, rule) of a version 2 `game`: the lists as tuples, or None where absent; version 1 has
    neither list and the rule of bulls and cows."""
    if version == 1:
        extra = {"rule", "secrets", "guesses"} & set(raw_game)
        if extra:
            raise fail(f"game.{sorted(extra)[0]} needs version 2 (this file says version 1)")
        return None, None, BULLS_COWS.name
    rule = raw_game.get("rule")
    if not isinstance(rule, str) or rule not in RULES:
        raise fail(f"game.rule {rule!r} is not a rule this reader knows (it knows {', '.join(RULES)})")
    lists = []
    for field in ("secrets", "guesses"):
        words = raw_game.get(field)
        if words is not None and (not isinstance(words, list) or not all(isinstance(word, str) for word in words)):
            raise fail(f"game.{field} must be a list of strings")
        if words is not None and len(words) > READ_LIMIT.codes:
            raise fail(f"game.{field} holds {len(words):,} codes (at most {READ_LIMIT.codes:,})")
        lists.append(None if words is None else tuple(words))
    if lists[0] is None and lists[1] is not None:
        raise fail("game.guesses needs game.secrets")
    return lists[0], lists[1], rule


def check_node_count(game: Game, root: Node, name: str = "tree") -> None:
    """Refuse a tree with fewer nodes than its game has codes, before any code is listed.

    Every secret is solved at a node of its own (the one guessing it), so such
    a tree cannot be right; counting first keeps a small file that declares a
    large game from costing a listing of all its codes. Stops counting at the
    number of codes, and never follows anything but dicts. Games of up to
    `LISTED_UNCOUNTED` codes pass: listing them is cheap, and the replay then
    names the defect more precisely.
    """
    secrets = game.num_secrets
    if secrets <= LISTED_UNCOUNTED:
        return
    count, stack = 0, [root]
    while stack and count < secrets:
        current = stack.pop()
        count += 1
        children = current.get("next") if isinstance(current, dict) else None
        if isinstance(children, dict):
            stack.extend(children.values())
    if count < secrets:
        raise TreeFormatError(
            f"{name}: the tree has {count:,} node(s) but its game has {secrets:,} secrets, each needing a node of its own"
        )


def replay_tree(game: Game, root: Node, name: str = "tree", secrets: Sequence[str] | None = None) -> Replay:
    """Play every secret (or only `secrets`) through the tree, checking every rule of the format on the way.

    Raises `TreeFormatError` naming the first defect: an invalid guess or
    answer key, a `next` that does not hold exactly the answers still-possible
    secrets give, a final node that does not end the game, a secret never solved.
    """
    if secrets is None:
        check_node_count(game, root, name)
    everyone = game.secret_codes if secrets is None else secrets
    solved = game.solved
    histogram: dict[int, int] = {}
    nodes = 0
    total = 0
    # Iterative walk: (node, still-possible secrets, depth, path of answers).
    stack: list[tuple[Any, list[str], int, str]] = [(root, list(everyone), 1, "root")]
    while stack:
        current, reaching, depth, where = stack.pop()
        nodes += 1
        if not isinstance(current, dict) or "guess" not in current:
            raise TreeFormatError(f"{name}: node at {where} is not an object with a 'guess'")
        extra = set(current) - {"guess", "next"}
        if extra:
            raise TreeFormatError(f"{name}: node at {where} has unknown field(s) {sorted(extra)}")
        guess = current["guess"]
        if not isinstance(guess, str):
            raise TreeFormatError(f"{name}: node at {where}: guess {guess!r} is not a string")
        try:
            code = game.parse_code(guess)
        except InvalidCodeError as err:
            raise TreeFormatError(f"{name}: node at {where}: {err}") from None
        if code != guess:  # parse_code forgives surrounding space; a file must not have it
            raise TreeFormatError(f"{name}: node at {where}: guess {guess!r} is not written as {code!r}")
        children = current.get("next") or {}
        if not isinstance(children, dict):
            raise TreeFormatError(f"{name}: node at {where}: 'next' is not an object")
        parts: dict[AnyAnswer, list[str]] = {}
        score = game.scorer(guess)
        for secret in reaching:
            answer = score(secret)
            if answer == solved:
                histogram[depth] = histogram.get(depth, 0) + 1
                total += depth
            else:
                parts.setdefault(answer, []).append(secret)
        keys: dict[AnyAnswer, str] = {}
        for key in children:
            try:
                answer = game.rule.read_key(key, game.length)
            except InvalidAnswerError:
                raise TreeFormatError(f"{name}: node at {where}: invalid answer key {key!r}") from None
            if str(answer) != key:
                raise TreeFormatError(f"{name}: node at {where}: answer key {key!r} is not written as {answer}")
            keys[answer] = key
        if set(keys) != set(parts):
            missing = sorted(set(parts) - set(keys))
            if missing:
                what = "final node" if not keys else "'next'"
                raise TreeFormatError(
                    f"{name}: node at {where} (guess {guess}): {what} lacks answer {missing[0]}, "
                    f"which {len(parts[missing[0]])} still-possible secret(s) give"
                )
            spare = sorted(set(keys) - set(parts))[0]
            raise TreeFormatError(
                f"{name}: node at {where} (guess {guess}): answer {spare} is in 'next' "
                "but no still-possible secret gives it"
            )
        if list(keys) != sorted(keys):
            raise TreeFormatError(f"{name}: node at {where}: 'next' keys are not in ascending order")
        for answer in sorted(parts, reverse=True):
            stack.append((children[keys[answer]], parts[answer], depth + 1, f"{where} {guess}:{answer}"))
    return Replay(len(everyone), max(histogram, default=0), total, nodes, histogram)


def check_document(doc: dict[str, Any], name: str = "tree") -> Replay:
    """Check a whole document: header, every node, and stats equal to a full replay."""
    game = check_header(doc, name)
    replay = replay_tree(game, doc["root"], name)
    expected = replay.to_stats()
    stats = doc["stats"]
    for field in ("secrets", "max_guesses", "total_guesses", "nodes", "histogram"):
        if stats[field] != expected[field]:
            raise TreeFormatError(
                f"{name}: stats.{field} is {stats[field]!r} but a replay of every secret gives {expected[field]!r}"
            )
    mean = stats["mean_guesses"]
    if not isinstance(mean, (int, float)) or abs(mean - expected["mean_guesses"]) > 1e-9:
        raise TreeFormatError(
            f"{name}: stats.mean_guesses is {mean!r} but a replay gives {expected['mean_guesses']!r}"
        )
    # A still-possible guess solves exactly one secret and any other guess none, and every
    # secret is solved once: every guess was still possible exactly when nodes = secrets.
    objective = doc.get("objective")
    if isinstance(objective, dict) and objective.get("hard_mode") is True and replay.nodes != replay.secrets:
        raise TreeFormatError(
            f"{name}: objective.hard_mode is true but {replay.nodes - replay.secrets} guess(es) were not still possible"
        )
    return replay
