"""The typer application behind `bactree`: usage errors and help that read like the project's own.

Typer prints a command-line mistake (a missing option, a bad value) in a
boxed panel with the usage above it, while bactree's own errors are one
line `Error: ...`; here both are one line, with exit status 2. Typer's help
also tags every flag `<bool>` (even `--help`) and writes a required argument
`{file}` with its type `<list[Path]>`; here flags carry no tag, arguments
no type, and usage lines read `[OPTIONS] FILES...` as in click. `--out` and
`--output` are one option wherever a file is written (`--output` is the one
the help shows). A command's `game_options()` parameter is spelled out as
the seven game options (`bactree.cli.options`).
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from .options import with_game_options

# Option names taken as others: the second is the one the commands declare.
_SYNONYMS = {"out": "output"}


def _synonym(token: str) -> str:
    return _SYNONYMS.get(token, token)


class Command(TyperCommand):
    """A command whose help shows no type after flags or arguments, and click's usage line."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""  # typer shows the metavar in place of the type: for a flag, none
            elif isinstance(param, TyperArgument):
                param.display_type_rich = _no_type  # type: ignore[method-assign]
        return params

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = (param.metavar or param.name or "").upper() + ("..." if param.nargs != 1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces


def _no_type(ctx: Any) -> None:
    """An argument's type, as the help shows it: not at all (its help says what it is)."""
    return None


class Group(TyperGroup):
    """The group of commands: a usage error is one line `Error: ...` and exit status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.context_settings.setdefault("token_normalize_func", _synonym)

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            status = super().main(*args, standalone_mode=False, **kwargs)
        except Exception as err:
            if _kind(err, "NoArgsIsHelpError"):  # `bactree` alone: the help, as typer prints it
                err.show()  # type: ignore[attr-defined]
                sys.exit(2)
            if _kind(err, "Abort"):
                typer.echo("Aborted.", err=True)
                sys.exit(1)
            if not _kind(err, "ClickException"):
                raise
            message = " ".join(err.format_message().split()).rstrip(".")  # type: ignore[attr-defined]
            typer.echo(f"Error: {message[:1].lower()}{message[1:]}", err=True)
            sys.exit(2)
        sys.exit(status if isinstance(status, int) else 0)


def _kind(err: Exception, name: str) -> bool:
    """Is `err` click's exception `name` or a subclass? By name: typer 0.2x carries its own copy of click."""
    return any(cls.__name__ == name for cls in type(err).__mro__)


class App(typer.Typer):
    """`typer.Typer` whose commands are `Command`s, each with its game options spelled out (`with_game_options`)."""

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Any:
        register = super().command(*args, cls=cls or Command, **kwargs)

        def decorator(command: Any) -> Any:
            register(with_game_options(command))
            return command

        return decorator
