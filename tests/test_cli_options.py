"""The game options declared once: `game: GameOptions = game_options()` stands for the seven, in its place."""

from __future__ import annotations

from typing import Annotated

import typer
import typer.main
from typer.testing import CliRunner

from bactree.cli.app import App
from bactree.cli.main import app
from bactree.cli.options import GameOptions, game_options, with_game_options
from bactree.game import preset

SEVEN = ["--game", "--length", "--symbols", "--repeats", "--words", "--guesses", "--rule"]


def demo_app(received: list[GameOptions], preset_name: str | None) -> App:
    """An app of one command with an option either side of its game options, keeping what it is called with."""
    demo = App(add_completion=False)

    @demo.command()
    def run(
        before: Annotated[int, typer.Option("--before")] = 0,
        game: GameOptions = game_options(preset_name),
        after: Annotated[int, typer.Option("--after")] = 0,
    ) -> None:
        """Keep the options.

        Example: bactree run
        """
        received.append(game)

    @demo.command()
    def other() -> None:
        """A second command, so that `run` is named on the command line."""

    return demo


def option_names(command: object) -> list[str]:
    return [param.opts[0] for param in command.params if param.opts[0].startswith("--")]  # type: ignore[attr-defined]


def test_the_seven_options_stand_in_the_parameters_place() -> None:
    command = typer.main.get_command(demo_app([], "bulls-cows")).commands["run"]  # type: ignore[attr-defined]
    assert option_names(command) == ["--before", *SEVEN, "--after"]


def test_the_command_receives_one_value_of_what_was_given() -> None:
    received: list[GameOptions] = []
    demo = demo_app(received, "bulls-cows")
    args = ["run", "--before", "1", "-g", "mastermind", "-n", "3", "--symbols", "abc", "--no-repeats", "--rule", "bulls", "--after", "2"]
    result = CliRunner().invoke(demo, args)
    assert result.exit_code == 0, result.output
    assert received == [GameOptions("mastermind", 3, "abc", False, None, None, "bulls")]
    assert CliRunner().invoke(demo, ["run", "-w", "en-5", "--guesses", "en-5-guesses"]).exit_code == 0
    assert received[1] == GameOptions("bulls-cows", words="en-5", guesses="en-5-guesses")


def test_no_preset_gives_no_game() -> None:
    received: list[GameOptions] = []
    assert CliRunner().invoke(demo_app(received, None), ["run"]).exit_code == 0
    assert received == [GameOptions()]
    assert received[0].resolve_or_none() is None
    assert received[0].resolve() == preset("bulls-cows")
    assert GameOptions(length=3).resolve_or_none() == GameOptions("bulls-cows", length=3).resolve()


def test_a_command_without_game_options_is_left_as_it_is() -> None:
    def plain(count: int = 0) -> None:
        """No game."""

    assert with_game_options(plain) is plain


def test_every_command_that_takes_a_game_lists_the_seven_together() -> None:
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    taking = {name: option_names(command) for name, command in commands.items() if "--game" in option_names(command)}
    assert {"html", "walk", "play", "evaluate", "compile", "build", "analyse", "review"} <= set(taking)
    for name, names in taking.items():
        at = names.index("--game")
        assert names[at : at + len(SEVEN)] == SEVEN, name
