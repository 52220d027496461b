"""Slow, obviously-correct references for the exact search, on tiny games only.

Everything works on code strings and frozensets, straight from the rules, and
tries every code as a guess at every node (in hard mode every still-possible
code): no symmetry, no bounds.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from bactree.game import Answer, Game


@lru_cache(maxsize=None)
def score_table(game: Game) -> dict[tuple[str, str], Answer]:
    """`game.score` of every (guess, secret) pair, looked up instead of recomputed."""
    return {(g, s): game.score(g, s) for g in game.codes for s in game.codes}


def parts(game: Game, secrets: frozenset[str], guess: str) -> dict[Answer, frozenset[str]]:
    """Secrets grouped by their answer to `guess`, the all-bulls answer left out."""
    scores = score_table(game)
    grouped: dict[Answer, set[str]] = {}
    for secret in secrets:
        answer = scores[guess, secret]
        if answer != game.solved:
            grouped.setdefault(answer, set()).add(secret)
    return {a: frozenset(p) for a, p in grouped.items()}


def useful_parts(game: Game, secrets: frozenset[str], guess: str) -> dict[Answer, frozenset[str]] | None:
    """The parts of a guess, or None when it solves nothing and leaves the set whole."""
    split = parts(game, secrets, guess)
    return split if guess in secrets or len(split) > 1 else None


def guesses(game: Game, secrets: frozenset[str], hard: bool) -> list[str]:
    """The codes that may be guessed on `secrets`, lowest first: all, or in hard mode the still-possible ones."""
    return sorted(secrets) if hard else list(game.codes)


@lru_cache(maxsize=None)
def min_height(game: Game, hard: bool = False) -> int:
    """Least worst-case number of guesses over all secrets."""

    @lru_cache(maxsize=None)
    def height(secrets: frozenset[str]) -> int:
        if len(secrets) == 1:
            return 1
        best = None
        for guess in guesses(game, secrets, hard):
            split = useful_parts(game, secrets, guess)
            if split is None:
                continue
            worst = max([1 + height(p) for p in split.values()], default=1)
            best = worst if best is None else min(best, worst)
        return best

    return height(frozenset(game.secret_codes))


@lru_cache(maxsize=None)
def min_chain_tree(game: Game, depth: int | None, keys: tuple[str, ...], hard: bool = False):
    """(least tuple of `keys`, tree) within `depth` guesses (None: no cap); ties to the lowest code at each node.

    Keys are compared in order (tuples compare lexicographically): `nodes`,
    `total` guesses, `crush` (secrets solved at guess number `depth`). The
    keys of a tree are the sums of its subtrees', and a smaller tuple stays
    smaller when the same tuple is added, so the least tuple is made of the
    parts' least tuples. The tree is nested `(guess, {answer: subtree})`.
    """

    def own(size: int, left: int | None) -> tuple[int, ...]:
        figures = {"nodes": 1, "total": size, "crush": int(left == 1)}
        return tuple(figures[k] for k in keys)

    @lru_cache(maxsize=None)
    def best(secrets: frozenset[str], left: int | None):
        if left == 0:
            return None
        if len(secrets) == 1:
            (only,) = secrets
            return own(1, left), (only, {})
        found = None
        for guess in guesses(game, secrets, hard):  # code order: the first minimum is the lowest code
            split = useful_parts(game, secrets, guess)
            if split is None:
                continue
            figures = own(len(secrets), left)
            subtrees = {}
            for answer, part in split.items():
                sub = best(part, None if left is None else left - 1)
                if sub is None:
                    break
                figures = tuple(a + b for a, b in zip(figures, sub[0]))
                subtrees[answer] = sub[1]
            else:
                if found is None or figures < found[0]:
                    found = (figures, (guess, subtrees))
        return found

    return best(frozenset(game.secret_codes), depth)


def min_cost_tree(game: Game, depth: int | None, per_secret: bool, hard: bool = False):
    """(least cost, tree) within `depth` guesses (None: no cap); cost per node on a set S: |S| (total) or 1 (nodes)."""
    found = min_chain_tree(game, depth, ("total",) if per_secret else ("nodes",), hard)
    return None if found is None else (found[0][0], found[1])


@lru_cache(maxsize=None)
def least_total(game: Game, secrets: frozenset[str], hard: bool = False) -> int:
    """Least total number of guesses to find every secret of `secrets`, no cap (in hard mode only still-possible guesses)."""
    if len(secrets) == 1:
        return 1
    best = None
    for guess in guesses(game, secrets, hard):
        split = useful_parts(game, secrets, guess)
        if split is None:
            continue
        total = len(secrets) + sum(least_total(game, part, hard) for part in split.values())
        best = total if best is None else min(best, total)
    return best


def tree_to_nodes(tree) -> dict:
    """A nested `(guess, {answer: subtree})` as tree-file node dicts."""
    guess, children = tree
    if not children:
        return {"guess": guess}
    return {"guess": guess, "next": {str(a): tree_to_nodes(children[a]) for a in sorted(children)}}


def canonical_codes(game: Game, history: list[str]) -> set[str]:
    """Codes least in their orbit under every (position permutation, relabelling) fixing each history code."""
    n = game.length
    group = []
    for perm in itertools.permutations(range(n)):
        for relabel in itertools.permutations(game.symbols):
            mapping = dict(zip(game.symbols, relabel))

            def act(code: str, perm=perm, mapping=mapping) -> str:
                image = [""] * n
                for i, symbol in enumerate(code):
                    image[perm[i]] = mapping[symbol]
                return "".join(image)

            if all(act(h) == h for h in history):
                group.append(act)
    return {code for code in game.codes if all(act(code) >= code for act in group)}


@lru_cache(maxsize=None)
def fits_within(game: Game, secrets: frozenset[str], depth: int, hard: bool = False) -> bool:
    """True if some tree finds every secret of `secrets` within `depth` guesses."""
    if len(secrets) == 1:
        return depth >= 1
    if depth <= 1:
        return False
    for guess in guesses(game, secrets, hard):
        split = useful_parts(game, secrets, guess)
        if split is not None and all(fits_within(game, part, depth - 1, hard) for part in split.values()):
            return True
    return False


def guess_total(game: Game, secrets: frozenset[str], guess: str, hard: bool = False) -> int:
    """Total guesses to find every secret of `secrets` when `guess` comes next and then the best: |S| + least totals of the parts."""
    return len(secrets) + sum(least_total(game, part, hard) for part in parts(game, secrets, guess).values())


@lru_cache(maxsize=None)
def least_height(game: Game, secrets: frozenset[str], hard: bool = False) -> int:
    """Least worst-case number of guesses to find every secret of `secrets` (in hard mode only still-possible guesses)."""
    return min(
        guess_height(game, secrets, guess, hard)
        for guess in guesses(game, secrets, hard)
        if useful_parts(game, secrets, guess) is not None
    )


def guess_height(game: Game, secrets: frozenset[str], guess: str, hard: bool = False) -> int:
    """Worst-case guesses when `guess` comes next and then the best: 1, plus the largest least height of its parts."""
    return 1 + max((least_height(game, part, hard) for part in parts(game, secrets, guess).values()), default=0)


def set_symmetries(game: Game, secrets: frozenset[str]) -> list[dict[str, str]]:
    """Every (position permutation, relabelling) that maps the set `secrets` onto itself, as a map of codes."""
    n = game.length
    found = []
    for perm in itertools.permutations(range(n)):
        for relabel in itertools.permutations(game.symbols):
            mapping = dict(zip(game.symbols, relabel))
            images = {}
            for code in game.codes:
                image = [""] * n
                for i, symbol in enumerate(code):
                    image[perm[i]] = mapping[symbol]
                images[code] = "".join(image)
            if {images[code] for code in secrets} == secrets:
                found.append(images)
    return found


def set_canonical_codes(game: Game, secrets: frozenset[str]) -> set[str]:
    """Codes least in their orbit under the symmetries of the set `secrets`."""
    group = set_symmetries(game, secrets)
    return {code for code in game.codes if all(images[code] >= code for images in group)}

def most_solved(game: Game, depth: int) -> int:
    """Most secrets any tree can find within `depth` guesses: one per node, one node at guess 1, b times more each level.

    b is the number of answers besides all-bulls: a node has at most one child per answer.
    """
    branching = len(game.answers) - 1
    most = 0
    for _ in range(depth):
        most = 1 + branching * most
    return most


def fill_floor(game: Game, size: int) -> int:
    """Least total guesses any tree can take on `size` secrets: each found at its own node, levels filled from the top."""
    branching = len(game.answers) - 1
    total, guess, room = 0, 1, 1
    while size > 0:
        placed = min(size, room)
        total += placed * guess
        size -= placed
        guess += 1
        room *= branching
    return total


def lookahead_floor(game: Game, secrets: frozenset[str], depth: int, kernel_max: int) -> int | None:
    """The search's lower bound of the total on `secrets` within `depth` guesses (None: none fits), as its docstrings define it.

    At most 2 secrets: the level fill (exact). Up to `kernel_max`: a part of
    c costs at least 2c - 1, so a guess with k answers besides all-bulls
    (hit = 1 if it may be the secret) costs at least 3|S| - (k + 2 hit);
    the least over every code. Larger: one guess of lookahead, the least
    over every useful code whose parts fit of |S| plus its parts' level fills.
    Never below the level fill.
    """
    size = len(secrets)
    if size > most_solved(game, depth):
        return None
    floor = fill_floor(game, size)
    if size <= 2:
        return floor
    if size <= kernel_max:
        most = max(len(parts(game, secrets, code)) + 2 * (code in secrets) for code in game.codes)
        return max(floor, 3 * size - most)
    values = [
        size + sum(fill_floor(game, len(part)) for part in split.values())
        for split in (useful_parts(game, secrets, code) for code in game.codes)
        if split is not None and all(len(part) <= most_solved(game, depth - 1) for part in split.values())
    ]
    return max(floor, min(values)) if values else None


def other_guesses(game: Game, secrets: frozenset[str], depth: int, kept: str) -> list[dict[Answer, frozenset[str]]]:
    """The parts of every useful code whose parts fit `depth` - 1 guesses and differ from `kept`'s parts.

    A useful code that solves splits off itself, so the parts alone tell codes
    apart up to codes of the same partition, whose trees cost the same.
    """
    kept_parts = frozenset(parts(game, secrets, kept).values())
    found = []
    for code in game.codes:
        split = useful_parts(game, secrets, code)
        if split is None or frozenset(split.values()) == kept_parts:
            continue
        if all(len(part) <= most_solved(game, depth - 1) for part in split.values()):
            found.append(split)
    return found


def others_lookahead(game: Game, secrets: frozenset[str], depth: int, kept: str, kernel_max: int) -> int | None:
    """`refine.others_bound`'s value: over every other guess, |S| plus the lookahead floor of each part; None if none."""
    values = []
    for split in other_guesses(game, secrets, depth, kept):
        bounds = [lookahead_floor(game, part, depth - 1, kernel_max) for part in split.values()]
        if None not in bounds:
            values.append(len(secrets) + sum(bounds))
    return min(values, default=None)


def two_guess_floor(game: Game, secrets: frozenset[str], depth: int, kernel_max: int) -> int | None:
    """One guess deeper than `lookahead_floor`: the least, over every useful code whose parts fit `depth` - 1 guesses,
    of |S| plus each part's `lookahead_floor` within `depth` - 1; None if no code fits."""
    values = []
    for split in (useful_parts(game, secrets, code) for code in game.codes):
        if split is None or any(len(part) > most_solved(game, depth - 1) for part in split.values()):
            continue
        bounds = [lookahead_floor(game, part, depth - 1, kernel_max) for part in split.values()]
        if None not in bounds:
            values.append(len(secrets) + sum(bounds))
    return min(values, default=None)


def others_deeper(game: Game, secrets: frozenset[str], depth: int, kept: str, kernel_max: int) -> int | None:
    """`others_lookahead` with each part larger than `kernel_max` bounded one guess deeper (`two_guess_floor`) too."""
    values = []
    for split in other_guesses(game, secrets, depth, kept):
        total = len(secrets)
        for part in split.values():
            bound = lookahead_floor(game, part, depth - 1, kernel_max)
            deeper = two_guess_floor(game, part, depth - 1, kernel_max) if len(part) > kernel_max else bound
            if bound is None or deeper is None:
                break
            total += max(bound, deeper)
        else:
            values.append(total)
    return min(values, default=None)


def others_least_total(game: Game, secrets: frozenset[str], depth: int, kept: str) -> int | None:
    """The least total of the trees whose first guess is any other than `kept`'s partition (no cap binds at this depth)."""
    return min(
        (len(secrets) + sum(least_total(game, part) for part in split.values())
         for split in other_guesses(game, secrets, depth, kept)),
        default=None,
    )


def still_possible_value(game: Game, secrets: frozenset[str], outside: int | None, part_floor=None) -> int | None:
    """The total a still-possible guess is proven to reach on `secrets` from part sizes alone, or None.

    Each code of `secrets` is valued |S| plus its parts' floors
    (`part_floor(code, answer, size)`; the level fill if None): exact when
    every part has at most 2 secrets, only a bound otherwise. The best
    exact value is proven least when no bound, nor `outside` (a bound for
    every code outside the set; None in hard mode, where there is none), is lower.
    """
    size = len(secrets)
    exact, bounded = [], []
    for code in sorted(secrets):
        split = parts(game, secrets, code)
        value = size + sum(
            fill_floor(game, len(part)) if part_floor is None else part_floor(code, answer, len(part))
            for answer, part in split.items()
        )
        (exact if all(len(part) <= 2 for part in split.values()) else bounded).append(value)
    if not exact:
        return None
    best = min(exact)
    if best <= min(bounded, default=best) and (outside is None or best <= outside):
        return best
    return None


def are_images(game: Game, first: frozenset[str], second: frozenset[str]) -> bool:
    """True if a relabelling of positions and symbols maps the set `first` onto `second`."""
    n = game.length
    for perm in itertools.permutations(range(n)):
        for relabel in itertools.permutations(game.symbols):
            mapping = dict(zip(game.symbols, relabel))
            images = set()
            for code in first:
                image = [""] * n
                for i, symbol in enumerate(code):
                    image[perm[i]] = mapping[symbol]
                images.add("".join(image))
            if images == second:
                return True
    return False


@lru_cache(maxsize=None)
def most_solved_of(game: Game, secrets: frozenset[str], depth: int) -> int:
    """Most secrets of `secrets` one tree finds within `depth` guesses (the others left unfound), trying every code first.

    A tree that starts with code h finds h itself (if it is one of them) and,
    below each other answer, what a tree of depth - 1 finds of that part.
    """
    if depth <= 0 or not secrets:
        return 0
    return max(
        (guess in secrets) + sum(most_solved_of(game, part, depth - 1) for part in parts(game, secrets, guess).values())
        for guess in game.codes
    )
