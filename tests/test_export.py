"""Export of tree files as GraphML, GEXF and DOT graphs, library and CLI."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from typer.testing import CliRunner

import naive
from bactree.cli.main import app
from bactree.export import ExportError, dot_bytes, export_tree, graph_format, graphml_bytes, tree_graph
from bactree.game import Answer, Game
from bactree.treefile import TreeFormatError, dumps
from tiny_trees import consistent_document

GAMES = [Game(3, "0123", False), Game(2, "123", True), Game(2, 'a"\\', False)]
GAME_IDS = ["bulls-cows-3x4", "mastermind-2x3", "quotes-and-backslash"]

runner = CliRunner()


def tree_file(tmp_path: Path, game: Game) -> Path:
    path = tmp_path / "tree.json"
    path.write_bytes(dumps(consistent_document(game)))
    return path


def paths_by_answers(graph: nx.DiGraph) -> dict[tuple[str, ...], int]:
    """Each graph node keyed by the answers that lead to it from the root."""
    found = {(): 0}
    for parent, child in nx.dfs_edges(graph, 0):
        found[found_key(found, parent) + (graph.edges[parent, child]["answer"],)] = child
    return found


def found_key(found: dict[tuple[str, ...], int], node_id: int) -> tuple[str, ...]:
    return next(key for key, value in found.items() if value == node_id)


def expected_nodes(doc: dict[str, Any]) -> dict[tuple[str, ...], tuple[str, int, int]]:
    """(guess, depth, candidates) of every tree node by its answer path, by playing each secret."""
    game = Game(**doc["game"])
    visits: dict[tuple[str, ...], int] = {}
    guesses: dict[tuple[str, ...], str] = {}
    for secret in game.codes:
        current, path = doc["root"], ()
        while True:
            visits[path] = visits.get(path, 0) + 1
            guesses[path] = current["guess"]
            if current["guess"] == secret:
                break
            key = str(Answer(*naive.score(current["guess"], secret, game.repeats)))
            current, path = current["next"][key], path + (key,)
    return {path: (guesses[path], len(path) + 1, visits[path]) for path in visits}


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_tree_graph_nodes_and_edges(game: Game) -> None:
    doc = consistent_document(game)
    graph = tree_graph(doc)
    assert nx.is_arborescence(graph)
    assert graph.number_of_nodes() == doc["stats"]["nodes"]
    assert list(graph.nodes) == list(range(graph.number_of_nodes()))
    expected = expected_nodes(doc)
    by_path = paths_by_answers(graph)
    assert set(by_path) == set(expected)
    for path, node_id in by_path.items():
        data = graph.nodes[node_id]
        assert (data["guess"], data["depth"], data["candidates"]) == expected[path]
    assert graph.nodes[0]["candidates"] == len(game.codes)
    # Every secret is counted once at each node it passes: the sum is the total guesses.
    assert sum(c for _, c in graph.nodes(data="candidates")) == doc["stats"]["total_guesses"]
    assert graph.graph == {
        "length": game.length,
        "symbols": game.symbols,
        "repeats": game.repeats,
        "objective": "first-consistent",
        "optimal": False,
    }


def test_tree_graph_numbers_nodes_depth_first_with_answers_ascending() -> None:
    graph = tree_graph(consistent_document(GAMES[0]))
    assert list(nx.dfs_preorder_nodes(graph, 0, sort_neighbors=sorted)) == list(graph.nodes)
    for node_id in graph.nodes:
        answers = [graph.edges[node_id, child]["answer"] for child in sorted(graph.successors(node_id))]
        assert answers == sorted(answers)


def test_tree_graph_refuses_a_broken_tree() -> None:
    doc = consistent_document(GAMES[0])
    del doc["root"]["next"]["0B2C"]
    with pytest.raises(TreeFormatError, match="lacks answer 0B2C"):
        tree_graph(doc)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("t.graphml", "graphml"), ("t.GraphML", "graphml"), ("t.gexf", "gexf"), ("t.dot", "dot"), ("t.gv", "dot")],
)
def test_graph_format_by_suffix(name: str, fmt: str) -> None:
    assert graph_format(name) == fmt


@pytest.mark.parametrize(
    ("name", "why"),
    [("t.txt", "its suffix '.txt' names no graph format"), ("t.json", "its suffix '.json' names no graph format"),
     ("t", "it has no suffix to name a graph format"), ("graphml", "it has no suffix to name a graph format")],
)
def test_unknown_suffix_is_refused(name: str, why: str) -> None:
    with pytest.raises(ExportError) as refused:
        graph_format(name)
    assert str(refused.value) == f"cannot export to '{name}': {why} (use .dot, .gexf, .graphml, .gv)"


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ExportError) as refused:
        graph_format(tmp_path)
    assert str(refused.value) == f"cannot export to '{tmp_path}': it is a folder; name a graph file in it (.dot, .gexf, .graphml, .gv)"


def test_cli_export_keeps_a_different_file_unless_forced(tmp_path: Path) -> None:
    source = tree_file(tmp_path, GAMES[0])
    out = tmp_path / "tree.dot"
    out.write_text("mine\n")
    result = runner.invoke(app, ["export", str(source), "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: '{out}' exists and holds something else: pass --force to replace it\n"
    assert out.read_text() == "mine\n"
    assert runner.invoke(app, ["export", str(source), "--out", str(out), "--force"]).exit_code == 0
    written = out.read_bytes()
    assert written.startswith(b"digraph") and runner.invoke(app, ["export", str(source), "--out", str(out)]).exit_code == 0
    assert out.read_bytes() == written


def read_dot(data: bytes) -> nx.DiGraph:
    """Parse the DOT that `dot_bytes` writes (one statement a line, every ID quoted)."""
    quoted = r'"((?:[^"\\]|\\.)*)"'

    def unquote(text: str) -> str:
        return re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], text)

    def attrs(text: str) -> dict[str, str]:
        pairs = re.findall(rf"{quoted}={quoted}", text)
        assert ", ".join(f'"{k}"="{v}"' for k, v in pairs) == text, f"unparsed attributes: {text}"
        return {unquote(k): unquote(v) for k, v in pairs}

    lines = data.decode().splitlines()
    assert lines[0] == "digraph bactree {" and lines[-1] == "}"
    graph = nx.DiGraph()
    for line in lines[1:-1]:
        if match := re.fullmatch(r"  graph \[(.*)\];", line):
            graph.graph.update(attrs(match[1]))
        elif match := re.fullmatch(rf"  {quoted} -> {quoted} \[(.*)\];", line):
            graph.add_edge(unquote(match[1]), unquote(match[2]), **attrs(match[3]))
        elif match := re.fullmatch(rf"  {quoted} \[(.*)\];", line):
            graph.add_node(unquote(match[1]), **attrs(match[2]))
        else:
            raise AssertionError(f"not a DOT statement: {line!r}")
    return graph


def as_strings(graph: nx.DiGraph) -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], dict[str, str]]]:
    """Nodes and edges with every ID and value as a string, to compare across formats."""

    def text(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    nodes = {str(n): {k: text(v) for k, v in d.items() if k != "label"} for n, d in graph.nodes(data=True)}
    edges = {(str(u), str(v)): {k: text(x) for k, x in d.items() if k not in ("label", "id")} for u, v, d in graph.edges(data=True)}
    return nodes, edges


READERS = {
    ".graphml": lambda path: nx.read_graphml(path),
    ".gexf": lambda path: nx.read_gexf(path),
    ".dot": lambda path: read_dot(path.read_bytes()),
    ".gv": lambda path: read_dot(path.read_bytes()),
}


@pytest.mark.parametrize("suffix", list(READERS))
@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_export_writes_a_graph_that_reads_back(tmp_path: Path, game: Game, suffix: str) -> None:
    source = tree_file(tmp_path, game)
    out = tmp_path / "graphs" / f"tree{suffix}"
    out.parent.mkdir()
    graph = export_tree(source, out)
    assert sorted(os.listdir(out.parent)) == [out.name]  # written atomically: no temp file left
    back = READERS[suffix](out)
    assert as_strings(back) == as_strings(graph)
    if suffix in (".dot", ".gv"):
        assert back.nodes["0"]["label"] == graph.nodes[0]["guess"]
        assert {d["label"] for _, _, d in back.edges(data=True)} == {d["answer"] for _, _, d in graph.edges(data=True)}
    if suffix != ".gexf":  # networkx leaves graph attributes out of GEXF
        assert {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in back.graph.items() if k not in ("node_default", "edge_default")} == {
            k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in graph.graph.items()
        }


def test_graphml_keeps_attribute_types(tmp_path: Path) -> None:
    out = tmp_path / "tree.graphml"
    export_tree(tree_file(tmp_path, GAMES[0]), out)
    back = nx.read_graphml(out, node_type=int)
    assert back.nodes[0] == {"guess": "012", "depth": 1, "candidates": 24}
    assert back.graph["repeats"] is False and back.graph["length"] == 3


def test_export_is_deterministic() -> None:
    graph = tree_graph(consistent_document(GAMES[2]))
    again = tree_graph(consistent_document(GAMES[2]))
    assert dot_bytes(graph) == dot_bytes(again)
    assert graphml_bytes(graph) == graphml_bytes(again)


def test_dot_quotes_quotes_and_backslashes() -> None:
    text = dot_bytes(tree_graph(consistent_document(GAMES[2]))).decode()
    assert '"guess"="a\\""' in text  # the code a" written as "a\""
    assert '"guess"="a\\\\"' in text  # the code a\ written as "a\\"
    assert '"symbols"="a\\"\\\\"' in text


# --- CLI --------------------------------------------------------------------


def test_cli_export(tmp_path: Path) -> None:
    source = tree_file(tmp_path, GAMES[0])
    out = tmp_path / "tree.graphml"
    result = runner.invoke(app, ["export", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {out}: 24 nodes, 23 edges\n"
    assert nx.read_graphml(out).number_of_nodes() == 24


def test_cli_export_unknown_suffix(tmp_path: Path) -> None:
    source = tree_file(tmp_path, GAMES[0])
    out = tmp_path / "tree.png"
    result = runner.invoke(app, ["export", str(source), "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: cannot export to '{out}': its suffix '.png' names no graph format (use .dot, .gexf, .graphml, .gv)\n"
    )
    assert not out.exists()


@pytest.mark.parametrize(("content", "message"), [(None, "cannot read"), (b"{", "not valid JSON")])
def test_cli_export_bad_tree_file(tmp_path: Path, content: bytes | None, message: str) -> None:
    source = tmp_path / "tree.json"
    if content is not None:
        source.write_bytes(content)
    out = tmp_path / "tree.dot"
    result = runner.invoke(app, ["export", str(source), "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {source}: {message}")
    assert result.stderr.count("\n") == 1
    assert not out.exists()
