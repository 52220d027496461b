"""The `bactree` command: a thin typer shell over the library.

Each command parses options, makes one library call and prints. Library
errors (`BactreeError`) become one line `Error: ...` on stderr with exit
status 2, and Ctrl-C and SIGTERM quiet exits (`bactree.cli.exits`); a tree
that fails `verify` exits 1.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shlex
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import __version__
from . import coach as cli_coach
from . import crack as cli_crack
from . import trees as cli_trees
from .app import App, Group
from .options import GameOptions, game_options
from .exits import cli_errors
from ..compile_clock import announce
from ..game import BUILD_LIMIT, BactreeError, counted

app = App(
    cls=Group,
    name="bactree",
    help="Compile, verify and play optimal decision trees for Bulls and Cows and Mastermind.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def print_version(value: bool) -> None:
    """`bactree --version`: print the package's version and stop."""
    if value:
        typer.echo(f"bactree {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool, typer.Option("--version", help="Print bactree's version and exit.", callback=print_version, is_eager=True)
    ] = False,
) -> None:
    """Options before any command."""


app.command("trees")(cli_trees.trees)
app.command("verify")(cli_trees.verify)
app.command("export")(cli_trees.export)


def note(message: str) -> None:
    """One line on stderr that says what a command does on its own (a tree built now, a file kept)."""
    typer.echo(message, err=True)


@app.command()
def html(
    file: Annotated[
        Optional[str],
        typer.Argument(help="Tree file, or a shipped tree's name (default: the game's best shipped tree).", show_default=False),
    ] = None,
    out: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write (a different file there is kept without --force).", show_default=False)] = ...,  # type: ignore[assignment]
    game: GameOptions = game_options(None),
    force: Annotated[bool, typer.Option("--force", help="Replace the output file even when it holds something else.")] = False,
) -> None:
    """Write one self-contained web page for a tree: play it, find a hidden secret, browse it, chart it.

    The page embeds the checked tree, its script and style; it opens from disk with no network.

    Example: bactree html mastermind-4x6-worst-case -o mastermind.html
    """
    from ..game import game_slug, preset
    from ..page import tree_page
    from ..shipped import find_tree
    from ..treefile import write_new
    from ..walker import MissingTreeError, shipped_tree_path

    with cli_errors():
        chosen = game.resolve_or_none()
        if file is not None:
            path = find_tree(file)
        else:
            the_game = chosen or preset("bulls-cows")
            try:
                path = shipped_tree_path(the_game)
            except MissingTreeError:
                made = f"{game_slug(the_game)}.json"
                raise MissingTreeError(f"no shipped tree for {game_slug(the_game)} ({the_game}): "
                                       f"{cli_trees.build_command(the_game, game.list_options())}, then "
                                       f"{shlex.join(['bactree', 'html', made, '-o', str(out)])}") from None
        page, doc = tree_page(path, chosen, rename=file is None)
        write_new(out, page.encode(), force)
    typer.echo(f"wrote {out}: {path.name}, {counted(doc['stats']['nodes'], 'node')}, {len(page) // 1024} KiB")


@app.command()
def walk(
    file: Annotated[
        Optional[str],
        typer.Argument(help="Tree file, or a shipped tree's name (default: the game's best shipped tree: least height, then least total; for a small game with none, one built now).", show_default=False),
    ] = None,
    game: GameOptions = game_options(None),
    secret: Annotated[
        Optional[str], typer.Option("--secret", help="Play this secret without asking and print the transcript.")
    ] = None,
) -> None:
    """The computer finds the secret you hold in mind, following a tree.

    Answer each guess as 1B2C, 1b2c, '1 2' or 12; u takes back an answer, q quits.
    Answers that no secret fits are refused, naming the earlier answers they contradict.
    On a terminal, Mastermind codes are coloured pegs (NO_COLOR=1 keeps plain text).

    Example: bactree walk --game mastermind
    """
    from ..pegs import code_painter
    from ..play import WalkSession, line_reader, walk_secret

    with cli_errors():
        chosen = game.resolve_or_none()
        if secret is not None and chosen is not None:
            chosen.parse_secret(secret)  # refused before a tree is looked for or built
        tree = cli_trees.game_tree(file, chosen, game.list_options(), lambda made: f"bactree walk {made}", note)
        show = code_painter(tree.game, sys.stdout)
        if secret is not None:
            walk_secret(tree, secret, typer.echo, show)
            return
        session = WalkSession(tree, line_reader(not sys.stdin.isatty()), typer.echo)
        session.show = show
        status = session.run()
    raise typer.Exit(status)


class Mode(str, Enum):
    """Who plays whom in `bactree play`."""

    solo = "solo"
    versus = "versus"
    referee = "referee"


@app.command()
def play(
    mode: Annotated[
        Mode,
        typer.Option(
            "--mode",
            "-m",
            help="solo: find the computer's secret; versus: race the computer; referee: two people, answers checked.",
        ),
    ] = Mode.solo,
    game: GameOptions = game_options(None),
    seed: Annotated[Optional[int], typer.Option("--seed", help="Pick the computer's secret reproducibly.")] = None,
    hints: Annotated[bool, typer.Option("--hints", help="After each guess, say how many secrets still fit.")] = False,
    coach: Annotated[bool, typer.Option("--coach", help="Solo: after each guess, its value against the best guess and its luck, as review says.")] = False,
    tree_file: Annotated[
        Optional[str],
        typer.Option("--tree", help="Versus: the computer plays this tree file or shipped tree (default: the game's best shipped tree; for a small game with none, one built now).", metavar="FILE"),
    ] = None,
) -> None:
    """Play a game at the terminal: alone, against the computer, or two people with the computer as referee.

    Guesses that are not codes of the game and answers that contradict earlier
    ones are refused with the reason (a guess asked before, too, in solo);
    u takes back the last answer (in solo, the last guess); q quits. On a
    terminal, Mastermind codes are coloured pegs (NO_COLOR=1 keeps plain text).

    Example: bactree play --mode versus --hints
    """
    from ..game import preset
    from ..pegs import code_painter
    from ..play import RefereeSession, SoloSession, VersusSession, line_reader, pick_secret

    read = line_reader(not sys.stdin.isatty())  # from a pipe, what was read is echoed: the transcript keeps it
    with cli_errors():
        chosen = game.resolve_or_none()
        if chosen is not None:
            chosen.check_size()  # every mode lists the codes; refuse a huge game before it starts
        if tree_file is not None and mode is not Mode.versus:
            raise BactreeError("--tree is only used with --mode versus")
        if coach and mode is not Mode.solo:
            raise BactreeError("--coach is only used with --mode solo")
        if seed is not None and mode is Mode.referee:
            raise BactreeError("--seed picks the computer's secret: with --mode referee a person holds it")
        if mode is Mode.versus:
            tree = cli_trees.game_tree(
                tree_file, chosen, game.list_options(), lambda made: f"bactree play --mode versus --tree {made}", note,
            )
            session = VersusSession(tree, pick_secret(tree.game, seed), read, typer.echo, hints)
        elif mode is Mode.solo:
            chosen = chosen or preset("bulls-cows")
            session = SoloSession(chosen, pick_secret(chosen, seed), read, typer.echo, hints, coach)
        else:
            session = RefereeSession(chosen or preset("bulls-cows"), read, typer.echo, hints)
        session.show = code_painter(session.game, sys.stdout)
        status = session.run()
    raise typer.Exit(status)


StrategyOption = Annotated[
    Optional[list[str]],
    typer.Option(
        "--strategy",
        "-s",
        help="A strategy (random, enumerate, cows-score, random-consistent, first-consistent, least-frequent, "
        "separator, knuth, most-parts, entropy, expected-size) or a tree file (tree:FILE or FILE.json).",
        show_default=False,
        metavar="NAME",
    ),
]
MaxGuesses = Annotated[
    Optional[int],
    typer.Option("--max-guesses", help="Stop endless strategies (random, cows-score) after this many guesses: a failure. Default 100.", show_default=False),
]


@app.command()
def evaluate(
    strategy: StrategyOption = None,
    all_strategies: Annotated[bool, typer.Option("--all", help="Every strategy, plus the tree files of this game in --trees.")] = False,
    game: GameOptions = game_options(),
    runs: Annotated[int, typer.Option("--runs", help="Games per secret for randomised strategies.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the randomised strategies.")] = 0,
    max_guesses: MaxGuesses = None,
    trees: Annotated[Optional[Path], typer.Option("--trees", help="Folder of tree files that --all adds (default: the shipped trees).", show_default=False)] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON: one object, or a list with --all or several --strategy.")] = False,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="Also write a PNG of the histograms (needs matplotlib: the plot extra).", show_default=False)] = None,
    hard: Annotated[bool, typer.Option("--hard", help="Hard mode: the --strategy rules guess only still-possible codes (named NAME-hard).")] = False,
    force: Annotated[bool, typer.Option("--force", help="With --plot: replace a file that is there already.")] = False,
) -> None:
    """Play every secret with a strategy: mean, max and total guesses, histogram, failures, time.

    Several --strategy, or --all, print one comparison table, best last.

    Example: bactree evaluate --all --length 3
    """
    with cli_errors():
        from ..evaluate import DEFAULT_MAX_GUESSES, badness, comparison_table, evaluate_all, plot_histograms
        from ..evaluate import evaluate as run
        from ..strategies import STRATEGIES, make_strategy
        from ..treefile import check_writable

        the_game = game.resolve()
        if plot is not None:
            check_writable(plot)  # a typo in --plot fails now, not after the games
            if plot.exists() and not force:
                raise BactreeError(f"{str(plot)!r} exists: pass --force to replace it")
        cap = DEFAULT_MAX_GUESSES if max_guesses is None else max_guesses
        if not strategy and not all_strategies:
            raise BactreeError("give --strategy NAME (or several), or --all")
        if hard and not strategy:
            raise BactreeError("--hard applies to the --strategy rules: name them")
        if trees is not None and not all_strategies:
            raise BactreeError("--trees is for --all: name a tree file with --strategy FILE.json instead")
        if trees is None:
            from ..shipped import trees_dir

            trees = trees_dir()
        elif not trees.is_dir():
            raise BactreeError(f"--trees {str(trees)!r} is not a folder")
        results = evaluate_all(the_game, runs, seed, cap, trees) if all_strategies else []
        extra = [spec for spec in strategy or [] if not (all_strategies and spec in STRATEGIES)]
        if hard:
            extra = list(strategy or [])
        results += [run(make_strategy(spec, the_game, seed, hard), runs, cap) for spec in extra]
        results.sort(key=badness, reverse=True)
        if plot is not None:
            plot_histograms(results, plot, title=str(the_game))
            note(f"wrote {plot}")
        if json_output:
            import orjson

            data = [r.to_json() for r in results] if len(results) > 1 or all_strategies else results[0].to_json()
            typer.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
        elif len(results) == 1:
            r = results[0]
            mean = "-" if r.mean_guesses is None else f"{r.mean_guesses:.4f}"
            typer.echo(f"{r.name} on {the_game}: {r.plays} games")
            typer.echo(
                f"mean {mean}, max {r.max_guesses}, total {r.total_guesses}, "
                f"failures {r.failures}, {r.seconds:.2f} s"
            )
            typer.echo("histogram: " + " ".join(f"{k}:{v}" for k, v in r.histogram.items()))
        else:
            typer.echo(f"{the_game}; by failures, then mean, best last; proven-optimal trees at the end")
            typer.echo(comparison_table(results))


@app.command("compile")
def compile_strategy(
    strategy: Annotated[str, typer.Option("--strategy", "-s", help="A deterministic strategy, e.g. knuth or entropy.", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The tree file to write (a different file there is kept without --force).", show_default=False)],
    game: GameOptions = game_options(),
    max_nodes: Annotated[Optional[int], typer.Option("--max-nodes", help="Refuse trees with more nodes than this. Default 1000000.", show_default=False)] = None,
    hard: Annotated[bool, typer.Option("--hard", help="Hard mode: the rule guesses only still-possible codes (the file says hard_mode: true).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace the output file even when it holds something else.")] = False,
) -> None:
    """Write a deterministic strategy as a tree file (optimal: false), ready for verify and play.

    Example: bactree compile --strategy knuth -o knuth-4x10.json
    """
    with cli_errors():
        from ..evaluate import DEFAULT_MAX_NODES, strategy_tree
        from ..strategies import make_strategy
        from ..treefile import dumps, write_new

        the_game = game.resolve()
        doc = strategy_tree(make_strategy(strategy, the_game, hard=hard), DEFAULT_MAX_NODES if max_nodes is None else max_nodes)
        write_new(output, dumps(doc), force)
        stats = doc["stats"]
        typer.echo(
            f"wrote {output}: {stats['secrets']} secrets, max {stats['max_guesses']}, "
            f"mean {stats['mean_guesses']:.4f}, {counted(stats['nodes'], 'node')}"
        )


@app.command()
def build(
    objective: Annotated[str, typer.Option("--objective", "-O", help="worst-case (least height) or expected (least total guesses).")] = "worst-case",
    game: GameOptions = game_options(),
    tie_break: Annotated[Optional[str], typer.Option("--tie-break", help="With worst-case: among the least-height trees minimise these keys in order, comma-separated: nodes, total (guesses), crush (secrets at the least height), e.g. crush,total; or none (the least height only, for big games). Default nodes.", show_default=False)] = None,
    hard: Annotated[bool, typer.Option("--hard", help="Hard mode: every guess must be still possible given the answers so far.")] = False,
    max_guesses: Annotated[Optional[int], typer.Option("--max-guesses", help="Cap on any game's guesses (expected objective; with worst-case only checked against the least height, and recorded).")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Tree file to write (default: trees/GAME[-hard]-OBJECTIVE.json, OBJECTIVE crush for a crush tie-break, -maxK added with --max-guesses). A different file there is kept: the tree goes to NAME.new.json beside it.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the output file even when it holds a different tree (a proven one too).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress; only the summary line.")] = False,
    budget: Annotated[
        Optional[int],
        typer.Option("--budget", help="Most sets each search (or expected subproblem) may examine before it keeps its greedy tree (the file then says optimal: false, with a lower bound); with --tie-break none, sets plus guesses tried at three guesses left, before a height is left undecided (a lower bound) and taller trees are sought."),
    ] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-j", help="Expected, or worst-case with --tie-break none: processes for the subproblems (default: one per core; below 2000 secrets, this process alone).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Expected, or worst-case with --tie-break none: reuse the subproblems an interrupted build saved in OUTPUT.resume (an exact expected build also the values its workers proved, OUTPUT.resume.memo*; an exact one of a word list, the first guesses it decided).")] = False,
    executor: Annotated[str, typer.Option("--executor", help="Expected, or --tie-break none: run the subproblems on local processes or on Ray (pip install 'bactree\\[cluster]').")] = "local",
    address: Annotated[Optional[str], typer.Option("--address", help="With --executor ray: a running Ray cluster (e.g. HEAD:6379); default: start Ray here.")] = None,
    greedy: Annotated[str, typer.Option("--greedy", help="The greedy trees' rule: bound (best-bound guess) or entropy; it picks the guess kept past --budget.")] = "bound",
    first: Annotated[Optional[str], typer.Option("--first", help="With -O expected: the first guess, a code or word (default: forced by symmetry, else searched, or with --budget the --greedy rule's); the file records it (objective.first_guess), and optimal then means among the trees that start with it. With --budget, all: every first guess's class that could give a better tree, the best kept (each class saves its parts to OUTPUT.CODE.resume).")] = None,
    deeper_calls: Annotated[Optional[int], typer.Option("--deeper-calls", help="With -O expected --budget: at most this many parts per set past the budget are bounded two guesses deep for the lower bound (default 100); more raises the bound for more time, and may change the tree.", show_default=False)] = None,
    others_deeper_to: Annotated[Optional[int], typer.Option("--others-deeper-to", help="With -O expected --budget, when the build picks the first guess (a word list; Mastermind without --first): the other first guesses' large parts are bounded two guesses deep, each guess until it reaches this total or the picked guess's own lower bound, whichever is less (default: one guess of lookahead only). Higher, a higher lower bound for more time; the tree is the same.", show_default=False)] = None,
    exact_from: Annotated[Optional[Path], typer.Option("--exact-from", help="With -O expected --budget: the resume file of an exact build of this game (-O expected, no budget, unfinished): its finished parts, and its second guesses valued so far, stand in for this build's trees where they cost less (each replayed first); for a build that picks its first guess (a word list), the exact build's best tree so far.", show_default=False)] = None,
    refutations: Annotated[Optional[Path], typer.Option("--refutations", help="Worst-case: a file of refuted sets that the exhaustive search starts from (if it exists) and saves to every 5 minutes and at the end, even when stopped: a long search resumes instead of starting again.")] = None,
) -> None:
    """Compile a provably optimal tree and write it as a tree file (atomically).

    A build never replaces a different file without --force: it writes
    NAME.new.json beside it and says how to replace. An interrupted
    expected build (or worst-case build with --tie-break none) keeps its
    finished subproblems in OUTPUT.resume and writes no tree file; run it
    again with --resume.

    Example: bactree build --game mastermind --tie-break crush,total -o mm.json
    """
    from ..pipeline.build import build as build_tree
    from ..game import game_slug
    from ..pipeline.openings import saved_checkpoints
    from ..search.cost.memo_store import memo_files
    from ..treefile import check_writable, dumps, write_atomic

    # SIGTERM stops a build like Ctrl-C: worker processes stopped, temporary files removed, no tree
    # file written (an existing one is left as it was), finished subproblems kept for --resume.
    with cli_errors() as raise_if_signalled:
        chosen = game.resolve()
        chosen.check_size(BUILD_LIMIT)  # a game too large is refused before the default folder is made
        began = time.perf_counter()

        def progress(message: str) -> None:
            raise_if_signalled()  # a signal whose exception was lost stops the build at its next progress line
            typer.echo(f"[{time.perf_counter() - began:7.1f}s] {message}", err=True)

        if output is None:
            suffix = f"-max{max_guesses}" if max_guesses is not None else ""
            name = "crush" if objective == "worst-case" and (tie_break or "").startswith("crush") else objective
            output = cli_trees.BUILD_FOLDER / f"{game_slug(chosen)}{'-hard' if hard else ''}-{name}{suffix}.json"
            with contextlib.suppress(OSError):  # if it cannot be made, check_writable says why
                output.parent.mkdir(exist_ok=True)  # the default folder is made; one named with -o must exist
        check_writable(output)  # a typo in -o fails now, not after the search
        if refutations is not None:
            check_writable(refutations)
        warning = cli_trees.proven_warning(output, budget, force)
        if warning is not None:
            note(warning)  # even with --quiet: said before the search, not after it
        checkpoint = output.with_name(output.name + ".resume")
        saved = saved_checkpoints(checkpoint, first)
        if resume and not saved:
            raise BactreeError(f"nothing to resume: {checkpoint} does not exist")
        if not resume and saved and not quiet:
            progress(f"starting afresh: {', '.join(map(str, saved))} (from an interrupted build) will be replaced; --resume continues")
        result = build_tree(
            chosen, objective, tie_break, max_guesses, None if quiet else progress,
            budget, workers, checkpoint, resume, executor, address, hard, greedy, first, refutations, deeper_calls,
            exact_from, others_deeper_to,
        )
        raise_if_signalled()
        data = dumps(result.document)
        written, kept = cli_trees.kept_output(output, data, force)
        write_atomic(written, data)
        for path in [checkpoint, *saved_checkpoints(checkpoint, first), *memo_files(checkpoint)]:
            path.unlink(missing_ok=True)
        stats = result.stats
        typer.echo(
            f"{written}: height {stats['max_guesses']}, {counted(stats['nodes'], 'node')}, total {stats['total_guesses']}, "
            f"mean {stats['mean_guesses']:.4f}, "
            + ("optimal" if result.document["optimal"] else f"not proven optimal (lower bound {stats['lower_bound']})")
            + f", {result.seconds:.1f}s"
        )
        if kept is not None:
            note(kept)


app.command("crack")(cli_crack.crack)
app.command("analyse")(cli_coach.analyse)
app.command("review")(cli_coach.review)


def skip_numba_blas_probe() -> None:
    """Keep numba from importing `scipy.linalg` in this process: about 0.3 s of CPU per command where scipy is installed.

    When numba loads its first kernel it imports `scipy.linalg` to see
    whether BLAS is there for its linear algebra (`numba.np.linalg.
    ensure_blas`), whether or not any kernel uses it. bactree's kernels do
    not (counts, bounds and searches on integers), so in the command's own
    process the import is made to fail at once and numba goes without. A
    program that imports bactree as a library is left alone.
    """
    sys.modules.setdefault("scipy.linalg", None)  # type: ignore[arg-type]


def main() -> None:
    """Console-script entry point: runs the command, then ends the process without the interpreter's teardown.

    Once the output is flushed and the atexit handlers have run, nothing is
    left to do but free every object one by one, which with numba's kernels
    loaded costs about 0.2 s of CPU: more than the search of Mastermind 4x6.
    A process that compiles kernels (an empty numba cache) says so once.
    """
    skip_numba_blas_probe()
    announce()  # a first run says that it compiles, once
    try:
        app()
        status: object = 0
    except SystemExit as done:
        status = done.code
    except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C during cleanup
        status = 130
    if isinstance(status, str):  # sys.exit("message"), as Python would print it
        print(status, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a reader that went away (a closed pipe) loses the rest, as usual
            pass
    atexit._run_exitfuncs()  # logging's flush, multiprocessing's and numba's handlers: all but the teardown
    os._exit(0 if status is None else int(status))  # type: ignore[call-overload]


if __name__ == "__main__":
    main()
