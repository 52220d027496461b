"""The coach's findings as text for the terminal: an analysis as a table, a review move by move, play's notes."""

from __future__ import annotations

from pathlib import Path

from ..game import Game
from .analysis import Analysis, GuessValue
from .engine import EXPECTED
from .position import history_text
from .review import MoveReview, Review

LIST_AT_MOST = 10  # secrets are listed when this few are left


def figure(value: GuessValue, scale: int = 1, digits: int = 0) -> str:
    """`571`, `>= 5548`, or `5548..5600` (of the value divided by `scale`, with `digits` decimals)."""

    def show(x: int) -> str:
        return f"{x / scale:.{digits}f}" if digits else str(x)

    if value.exact:
        return show(value.lower)
    if value.upper is None:
        return f">= {show(value.lower)}"
    return f"{show(value.lower)}..{show(value.upper)}"


def span(low: float, high: float | None, digits: int) -> str:
    """A proven loss: `0.1234`, `>= 0.1234`, or `0.1234..0.2000`."""
    if high is None:
        return f">= {low:.{digits}f}"
    if abs(high - low) < 1e-12:
        return f"{low:.{digits}f}"
    return f"{low:.{digits}f}..{high:.{digits}f}"


def secrets_text(secrets: tuple[str, ...]) -> str:
    """`168 secrets still possible`, listing them when there are few."""
    count = len(secrets)
    if count == 1:
        return f"1 secret still possible: {secrets[0]}"
    listed = f": {' '.join(secrets)}" if count <= LIST_AT_MOST else ""
    return f"{count} secrets still possible{listed}"


def source_text(analysis: Analysis) -> str:
    """Where the values came from, and whether all of them are proven exact."""
    kind, _, name = analysis.source.partition(" ")
    # A book lists the best guesses outright: only a named guess outside its list is searched.
    listed = {v.guess for v in analysis.best}
    searched = kind != "book" or (analysis.guess is not None and analysis.guess.guess not in listed)
    where = f"the shipped {kind} {Path(name).name}{' and the search' if searched else ''}" if name else "the search"
    if analysis.complete:
        return f"Values: exact, from {where} ({analysis.seconds:.1f}s)."
    shown = [*analysis.best, *([] if analysis.guess is None else [analysis.guess])]
    which = ("exact where a single figure is shown, from {where}; the others are proven bounds" if any(v.exact for v in shown)
             else "proven bounds, from {where}").format(where=where)
    return f"Values: {which} (time limit reached after {analysis.seconds:.1f}s: --seconds allows more)."


def first_guess_kinds(game: Game) -> int:
    """How many first guesses differ other than by renaming symbols and reordering positions: one without
    repeats, else one a way to write the length as a sum of at most as many counts as there are symbols."""
    if not game.repeats:
        return 1

    def ways(total: int, largest: int, parts: int) -> int:
        if total == 0:
            return 1
        return sum(ways(total - part, part, parts - 1) for part in range(1, min(total, largest) + 1)) if parts else 0

    return ways(game.length, game.length, game.num_symbols)


def alike_at_start_text(analysis: Analysis) -> str:
    """Why the start lists so few guesses: a ranking lists alike guesses once, and every first guess is alike to one."""
    if len(analysis.best) == 1:
        return (f"Every first guess is {analysis.best[0].guess} with its symbols renamed (or its positions "
                "reordered): all are equivalent.")
    return "Every first guess is one of these with its symbols renamed or its positions reordered, and equivalent to it."


def analysis_lines(analysis: Analysis) -> list[str]:
    """The table of best guesses, the named guess and its loss, and where the values came from."""
    mode = ", hard mode" if analysis.hard else ""
    lines = [f"{analysis.game}{mode}, after {history_text(analysis.pairs)}: {secrets_text(analysis.secrets)}."]
    size = len(analysis.secrets)
    if analysis.objective == EXPECTED:
        lines.append("Guesses to find the secret from here, this one included (total over the secrets, and mean):")
        totals, means = [figure(v) for v in analysis.best], [figure(v, size, 4) for v in analysis.best]
        # Columns of 12, wider where bounds need it (`77561..82880` and `5.1297..5.4815` must not run together).
        wide_total = max([12] + [len(t) + 2 for t in totals])
        wide_mean = max([12] + [len(m) + 2 for m in means])
        lines.append(f"  {'guess':<6}{'total':>{wide_total + 1}}{'mean':>{wide_mean}}")
        for v, total, mean in zip(analysis.best, totals, means):
            note = "  could win now" if v.possible else ""
            lines.append(f"  {v.guess:<6}{total:>{wide_total}}{mean:>{wide_mean}}{note}")
    else:
        lines.append("Guesses to find the secret from here at worst, this one included:")
        lines.append("  guess     worst")
        for v in analysis.best:
            note = "  could win now" if v.possible else ""
            lines.append(f"  {v.guess:<6}{figure(v):>10}{note}")
    if (not analysis.pairs and analysis.complete and not analysis.game.has_lists  # a word list's guesses differ
            and len(analysis.best) == first_guess_kinds(analysis.game)):
        lines.append(alike_at_start_text(analysis))
    if analysis.guess is not None and analysis.loss is not None:
        v, (low, high) = analysis.guess, analysis.loss
        if analysis.objective == EXPECTED:
            lines.append(
                f"Your guess {v.guess}: total {figure(v)}, mean {figure(v, size, 4)}; loss "
                f"{span(low, high, 0)} guess{'' if (low, high) == (1, 1) else 'es'} in all, "
                f"{span(low / size, None if high is None else high / size, 4)} a game."
            )
        else:
            lines.append(f"Your guess {v.guess}: {figure(v)} at worst; loss {span(low, high, 0)} at worst.")
    lines.append(source_text(analysis))
    return lines


def move_line(move: MoveReview, expected: bool) -> str:
    """One move of a review: before, best, played, loss, luck."""
    best, played = move.best, move.played
    size = move.before
    low, high = move.loss()
    if expected:
        values = f"best {best.guess} {figure(best, size, 4)}, played {figure(played, size, 4)}, loss {span(low, high, 4)}"
    else:
        values = f"best {best.guess} {figure(best)} at worst, played {figure(played)}, loss {span(low, high, 0)}"
    luck = "found it" if move.left == 0 and move.solved else f"{move.left} left"
    before = "1 secret" if size == 1 else f"{size} secrets"
    answer = move.analysis.game.answer_text(move.answer)
    return (f"{move.number:>2}. {move.guess} {answer}  {before} before; {values}; "
            f"luck: {luck}, {move.average_left:.1f} on average")


def review_lines(result: Review) -> list[str]:
    """The review as `bactree review` prints it: a heading, a line a move, the closing line."""
    expected = result.objective == EXPECTED
    unit = "expected guesses a game" if expected else "guesses at worst"
    mode = ", hard mode" if result.hard else ""
    lines = [f"Review of a game of {result.game} ({result.objective}{mode}; loss in {unit}):"]
    lines += [move_line(move, expected) for move in result.moves]
    lines.append(closing_line(result))
    if not result.complete:
        lines.append("Some values are proven bounds, not exact: the time limit was reached (--seconds allows more).")
    return lines


def closing_line(result: Review) -> str:
    """The total loss, and what best play takes from the start."""
    expected = result.objective == EXPECTED
    low, high = result.loss()
    start = result.start
    count = f"{len(result.moves)} guess{'' if len(result.moves) == 1 else 'es'}"
    ending = f"found in {count}" if result.solved else f"not found after {count}"
    if expected:
        best = figure(start, result.game.num_secrets, 4)
        return f"Total loss {span(low, high, 4)}; {ending}; best play averages {best} from the start."
    return f"Total loss {span(low, high, 0)}; {ending}; best play needs {figure(start)} at worst from the start."


def coach_line(move: MoveReview, expected: bool) -> str:
    """What `play --coach` says after a guess: the best guess there, yours, the loss, and luck."""
    best, played, size = move.best, move.played, move.before
    low, high = move.loss()
    if expected:
        values = f"best {best.guess} {figure(best, size, 4)}, yours {figure(played, size, 4)}, loss {span(low, high, 4)}"
    else:
        values = f"best {best.guess} {figure(best)} at worst, yours {figure(played)}, loss {span(low, high, 0)}"
    luck = "" if move.left == 0 and move.solved else (
        f"; luck: {move.left} left, {move.average_left:.1f} on average")
    were = "1 secret was" if size == 1 else f"{size} secrets were"
    return f"Coach: {were} possible; {values}{luck}."
