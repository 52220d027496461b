"""Tree files at the command line: `trees`, `verify`, `export`, a game's tree for walk and play, a build's output kept.

Registered by `bactree.cli.main`, apart from it, which is long already.
Wherever a command takes a tree file it also takes a shipped tree's name
(`bactree.shipped.find_tree`); `trees` lists the names. A game with no shipped tree gets one built on the
spot when that takes seconds (`game_tree`), or an error naming the command
that builds one. A build never replaces a different tree file unless told
to (`kept_output`): the new tree goes beside it.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from .exits import cli_errors
from ..game import BULLS_COWS, BUILD_LIMIT, PRESETS, BactreeError, Game, GameTooLargeError, counted, game_slug, preset
from ..shipped import NEW_SUFFIX, ShippedTree, best_shipped_tree, find_tree, read_entry, shipped_trees, trees_dir
from ..walker import MissingTreeError, Tree

# Games with at most this many codes get a tree built on the spot. A least-height build
# (--tie-break none, kernels compiled) of the games tried up to 1,573 codes took 1.5-4.5 s of
# wall time on the shared 2-core machine, 2 of 38 symbols (1,406 codes, height 20) 10-11 s;
# above, 4 of 9 Mastermind (6,561) took 22 s and 4 of 12 Bulls and Cows (11,880) over 40 s.
BUILD_NOW_CODES = 1_500
# Where `bactree build` writes a tree without -o (relative: the current folder's), and walk and play look next.
BUILD_FOLDER = Path("trees")


def trees(
    folder: Annotated[
        Optional[Path],
        typer.Option("--folder", help="List the tree files of this folder instead of the shipped ones.", show_default=False),
    ] = None,
) -> None:
    """List the shipped trees by name, with their figures: height, total guesses, proven optimal or not.

    Every command that takes a tree file takes these names too (with or
    without .json); a file of that name in the current folder wins.

    Example: bactree trees
    """
    with cli_errors():
        if folder is not None and not folder.is_dir():
            raise BactreeError(f"--folder {str(folder)!r} is not a folder")
        typer.echo(trees_table(shipped_trees(folder)))


def verify(
    files: Annotated[list[str], typer.Argument(help="Tree files (or shipped trees' names) to check.", show_default=False)],
) -> None:
    """Replay every secret through each tree file and check every rule of the format.

    Prints the figures of each file; exits 1 naming the first defect.

    Example: bactree verify trees/*.json
    """
    from ..treefile import TreeFormatError, check_document, read_document

    with cli_errors():
        for path in map(find_tree, files):
            try:
                doc = read_document(path)
                replay = check_document(doc, str(path))
            except TreeFormatError as err:
                typer.echo(f"FAIL {err}", err=True)
                raise typer.Exit(1) from None
            optimal = "optimal" if doc["optimal"] else "not proven optimal"
            typer.echo(
                f"ok   {path}: {counted(replay.secrets, 'secret')}, max {replay.max_guesses}, "
                f"total {replay.total_guesses}, mean {replay.total_guesses / replay.secrets:.4f}, "
                f"{counted(replay.nodes, 'node')}, {optimal}"
            )


def export(
    file: Annotated[str, typer.Argument(help="Tree file (or a shipped tree's name) to export.", show_default=False)],
    out: Annotated[
        Path, typer.Option("--output", "-o", help="Graph file to write: .graphml, .gexf, or .dot/.gv (a different file there is kept without --force).", show_default=False)
    ],
    force: Annotated[bool, typer.Option("--force", help="Replace the output file even when it holds something else.")] = False,
) -> None:
    """Write a checked tree file as a graph for yEd, Gephi or Graphviz; the suffix picks the format.

    One graph node per tree node (guess, depth, candidates), one edge per answer (answer).

    Example: bactree export bulls-cows-4x10-worst-case -o tree.graphml
    """
    from ..export import export_tree

    with cli_errors():
        graph = export_tree(find_tree(file), out, replace=force)
    typer.echo(f"wrote {out}: {counted(graph.number_of_nodes(), 'node')}, {counted(graph.number_of_edges(), 'edge')}")


def trees_table(entries: list[ShippedTree]) -> str:
    """One row per tree: name, game, objective, height, total guesses, and whether it is proven optimal."""
    rows = [("name", "game", "objective", "height", "total", "optimal")]
    for tree in entries:
        optimal = "yes" if tree.optimal else "no" if tree.lower_bound is None else f"no (>= {tree.lower_bound})"
        rows.append((tree.name, str(tree.game), objective_text(tree.objective), str(tree.max_guesses),
                     str(tree.total_guesses), optimal))
    widths = [max(len(row[i]) for row in rows) for i in range(6)]
    right = {3, 4}  # the figures
    return "\n".join(
        "  ".join(cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()
        for row in rows
    )


def objective_text(objective: dict[str, Any]) -> str:
    """`worst-case (crush,total)`, `expected, max 5`, `expected, hard`, `expected, first 11223`: a tree header's
    objective in a few words (a given first guess named, as `optimal` and the bound hold for its trees only)."""
    text = str(objective.get("name"))
    if objective.get("tie_breaks"):
        text += f" ({','.join(map(str, objective['tie_breaks']))})"
    if objective.get("max_guesses") is not None:
        text += f", max {objective['max_guesses']}"
    if objective.get("hard_mode"):
        text += ", hard"
    if objective.get("first_guess") is not None:
        text += f", first {objective['first_guess']}"
    return text


def game_options(game: Game, lists: list[str]) -> list[str]:
    """The options that name `game` on the command line, shortest first: `-n 3`, `--game mastermind -n 5`; a game of
    lists by `lists`, the options that named them (`GameOptions.list_options`)."""
    if game.has_lists:
        words = list(lists)
    else:
        name = "mastermind" if game.repeats else "bulls-cows"
        base = PRESETS[name]
        words = [] if name == "bulls-cows" else ["--game", name]
        if game.length != base.length:
            words += ["-n", str(game.length)]
        if game.symbols != base.symbols:
            words += ["--symbols", game.symbols]
    if game.rule is not BULLS_COWS:
        words += ["--rule", game.rule.name]
    return words


def game_tree(
    file: str | None, game: Game | None, lists: list[str], then: Callable[[str], str], note: Callable[[str], None],
) -> Tree:
    """The tree walk and play use: the file (or shipped name) given, or the game's shipped tree, or one built now.

    A game with no shipped tree is played from the best of its trees in
    `BUILD_FOLDER` (a build's default output), if any; else one of at most
    `BUILD_NOW_CODES` codes (secrets times guesses at most its square, for
    a list of allowed guesses) gets a least-height tree built in this
    process (said through `note`, one line); a larger one is refused,
    naming the build command (a game of lists by `lists`, the options that
    named them) and then the command `then(FILE)` that plays its tree.
    """
    from ..play import open_tree

    if file is not None:
        return open_tree(find_tree(file), game)
    game = game or preset("bulls-cows")
    try:
        return open_tree(None, game)
    except MissingTreeError:
        pass
    slug = game_slug(game)
    build = build_command(game, lists)
    missing = f"no shipped tree for {slug} ({game})"
    built = _built_before(game)
    if built is not None:
        note(f"{missing}: playing {built}, which a build wrote there")
        return open_tree(built, game)
    try:
        game.check_size(BUILD_LIMIT)
    except GameTooLargeError as err:
        raise MissingTreeError(f"{missing}, and none can be built ({err})") from None
    if game.num_secrets * game.num_codes > BUILD_NOW_CODES**2:  # the answer table's size: what a build's time follows
        size = (f"{game.num_codes:,} codes" if game.num_secrets == game.num_codes
                else f"{game.num_secrets:,} secrets, {game.num_codes:,} guesses")
        raise MissingTreeError(f"{missing}; building one takes more than seconds ({size}): {build}, then {then(f'{slug}.json')}")
    from ..pipeline.build import HEIGHT_ONLY, build as build_tree

    note(f"{missing}: building one of least height now, in seconds ({build} keeps one)")
    result = build_tree(game, "worst-case", HEIGHT_ONLY)
    return Tree(game, result.document, f"{slug}-worst-case (built now)")


def _built_before(game: Game) -> Path | None:
    """The best tree of `game` in `BUILD_FOLDER` (where a build without -o wrote it), if that is not the shipped one."""
    if not BUILD_FOLDER.is_dir() or BUILD_FOLDER.resolve() == trees_dir().resolve():
        return None
    found = best_shipped_tree(game, BUILD_FOLDER)
    return None if found is None else found.path


def build_command(game: Game, lists: list[str]) -> str:
    """The command that builds a least-height tree of `game` into `GAME.json` (`game_slug`), for a command to offer
    when the game ships none (`lists`: the options that named a word game's lists)."""
    return shlex.join(["bactree", "build", *game_options(game, lists), "--tie-break", "none", "-o", f"{game_slug(game)}.json"])


def kept_output(output: Path, data: bytes, force: bool) -> tuple[Path, str | None]:
    """Where a build writes its tree, and the line that says what it kept instead, if anything.

    A build replaces its output only when it holds the same bytes, is not
    a file yet, or with `force`; else the old file stays and the new tree
    goes beside it as `NAME.new.json`, so a proven tree is never lost to a
    budgeted rebuild.
    """
    try:
        same = output.read_bytes() == data
    except FileNotFoundError:
        return output, None
    except OSError as err:
        raise BactreeError(f"cannot read {str(output)!r} to compare it: {err.strerror or err}") from None
    if same or force:
        return output, None
    new = beside(output)
    mv = shlex.join(["mv", str(new), str(output)])
    return new, f"kept {output} ({figures(output)}), which differs: the new tree is {new}; to replace it, {mv} (or build with --force)"


def beside(output: Path) -> Path:
    """Where a build puts a tree that differs from the file at `output`: `NAME.new.json`."""
    return output.with_name(output.name.removesuffix(".json") + NEW_SUFFIX)


def proven_warning(output: Path, budget: int | None, force: bool) -> str | None:
    """The line a budgeted build says first when its output is a proven tree, which it may not be able to match."""
    entry = read_entry(output) if budget is not None and output.is_file() else None
    if entry is None or not entry.optimal:
        return None
    fate = "--force replaces it with whatever this build finds" if force else f"a different tree goes to {beside(output)}"
    return f"{output} is proven optimal; with --budget this build may not prove its tree: {fate}"


def figures(path: Path) -> str:
    """`height 7, total 26274, optimal` of a tree file, or what it is when it is not one."""
    entry = read_entry(path)
    if entry is None:
        return "not a tree file"
    optimal = "optimal" if entry.optimal else "not proven optimal"
    return f"height {entry.max_guesses}, total {entry.total_guesses}, {optimal}"
