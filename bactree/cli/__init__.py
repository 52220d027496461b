"""The command line: the `bactree` console script, a thin shell over the library.

    command  the process set up for one command (before numpy loads), then `main`
    main     the typer application and its commands: build, walk, play, html, evaluate, ...
    trees    the commands on tree files (`trees`, `verify`, `export`), and tree files as commands take them
    coach    the coach's commands (`analyse`, `review`)
    crack    `bactree crack`
    options  the seven options every command that takes a game shares (`--game`, `-n`, `--symbols`, ...), declared once
    app      the typer classes that make usage errors and help read like the project's own
    exits    how a command ends: library errors as one line `Error: ...`, interrupts, exit codes

Data flows one way: a command parses its options, makes one library call
and prints; nothing below imports this package.
"""
