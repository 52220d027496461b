"""Export a tree file as a graph (GraphML, GEXF or DOT) for Gephi, yEd or Graphviz.

The graph is built with networkx: one graph node per tree node, numbered in
depth-first order from the root (0) with answers ascending, carrying the
node's `guess`, its `depth` (the root has depth 1) and `candidates`, the
number of secrets still possible when the guess is asked. Each edge carries
the `answer` that leads to the child. GraphML and GEXF are written by
networkx; DOT is written here, since networkx needs pydot or pygraphviz for it.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, Callable, Iterator

import networkx as nx

from .game import AnyAnswer, BactreeError
from .treefile import check_document, check_header, read_document, write_new


class ExportError(BactreeError):
    """An export that cannot be done (an output suffix that names no format)."""


def tree_graph(doc: dict[str, Any], name: str = "tree") -> nx.DiGraph:
    """The tree of a document as a directed graph, after checking the whole document.

    Checking first (`TreeFormatError` on a defect) means every secret reaches
    a node, so the candidate counts add up: a node's count is 1 if its guess
    can be the secret, plus the counts of its children.
    """
    check_document(doc, name)
    game = check_header(doc, name)
    objective = doc["objective"]
    graph = nx.DiGraph(
        length=game.length,
        symbols=game.symbols,
        repeats=game.repeats,
        objective=objective["name"],
        optimal=doc["optimal"],
    )
    solved = game.solved
    # Iterative walk (node, its id, still-possible secrets, depth); children pushed in reverse
    # so that ids follow a depth-first order with answers ascending.
    stack: list[tuple[dict[str, Any], int | None, str | None, list[str], int]] = [
        (doc["root"], None, None, list(game.secret_codes), 1)
    ]
    next_id = 0
    while stack:
        current, parent, answer_key, secrets, depth = stack.pop()
        node_id = next_id
        next_id += 1
        guess = current["guess"]
        graph.add_node(node_id, guess=guess, depth=depth, candidates=len(secrets))
        if parent is not None:
            graph.add_edge(parent, node_id, answer=answer_key)
        parts: dict[AnyAnswer, list[str]] = {}
        score = game.scorer(guess)
        for secret in secrets:
            answer = score(secret)
            if answer != solved:
                parts.setdefault(answer, []).append(secret)
        children = current.get("next") or {}
        for key in reversed(list(children)):
            stack.append((children[key], node_id, key, parts[game.rule.read_key(key, game.length)], depth + 1))
    return graph


FORMATS: dict[str, str] = {".graphml": "graphml", ".gexf": "gexf", ".dot": "dot", ".gv": "dot"}


def graph_format(out: str | os.PathLike[str]) -> str:
    """The format an output path asks for by its suffix (any case); `ExportError` if none."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        known = ", ".join(sorted(FORMATS))
        if Path(out).is_dir():
            raise ExportError(f"cannot export to {str(out)!r}: it is a folder; name a graph file in it ({known})")
        shown = f"its suffix {suffix!r} names no graph format" if suffix else "it has no suffix to name a graph format"
        raise ExportError(f"cannot export to {str(out)!r}: {shown} (use {known})")
    return FORMATS[suffix]


def export_tree(path: str | os.PathLike[str], out: str | os.PathLike[str], replace: bool = False) -> nx.DiGraph:
    """Read and check the tree file `path`, write it to `out` as a graph, and return the graph.

    The format follows `out`'s suffix: .graphml, .gexf, .dot or .gv. The file
    is written atomically, so a failed export leaves no partial graph behind,
    and not over a file that holds something else unless `replace`.
    """
    fmt = graph_format(out)  # before reading, so a typo fails fast
    graph = tree_graph(read_document(path), str(path))
    write_new(out, WRITERS[fmt](graph), replace)
    return graph


def graphml_bytes(graph: nx.DiGraph) -> bytes:
    """GraphML (for yEd, Gephi, and any graph library) via networkx, graph attributes included."""
    buffer = io.BytesIO()
    nx.write_graphml(graph, buffer)
    return buffer.getvalue()


def gexf_bytes(graph: nx.DiGraph) -> bytes:
    """GEXF (Gephi's own format) via networkx; nodes are labelled with their guess.

    networkx drops graph attributes from GEXF and stamps the date in its header.
    """
    labelled = graph.copy()
    for _, data in labelled.nodes(data=True):
        data["label"] = data["guess"]
    buffer = io.BytesIO()
    nx.write_gexf(labelled, buffer)
    return buffer.getvalue()


def dot_bytes(graph: nx.DiGraph) -> bytes:
    """Graphviz DOT, every ID and value quoted; nodes show their guess, edges their answer."""
    return "".join(line + "\n" for line in _dot_lines(graph)).encode()


def dot_quote(value: Any) -> str:
    """A DOT double-quoted string: backslash and quote escaped, booleans as true/false."""
    if isinstance(value, bool):
        value = "true" if value else "false"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _dot_attrs(data: dict[str, Any]) -> str:
    return ", ".join(f"{dot_quote(k)}={dot_quote(v)}" for k, v in data.items())


def _dot_lines(graph: nx.DiGraph) -> Iterator[str]:
    yield "digraph bactree {"
    if graph.graph:
        yield f"  graph [{_dot_attrs(graph.graph)}];"
    for node_id, data in graph.nodes(data=True):
        yield f"  {dot_quote(node_id)} [{_dot_attrs({'label': data.get('guess', node_id), **data})}];"
    for parent, child, data in graph.edges(data=True):
        yield f"  {dot_quote(parent)} -> {dot_quote(child)} [{_dot_attrs({'label': data.get('answer', ''), **data})}];"
    yield "}"


WRITERS: dict[str, Callable[[nx.DiGraph], bytes]] = {
    "graphml": graphml_bytes,
    "gexf": gexf_bytes,
    "dot": dot_bytes,
}
