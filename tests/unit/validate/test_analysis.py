"""Composition analysis: the numbers, the terminal tables and the PNG charts of the bundled games."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from conftest import CARD_DATA
from pnp.validate.analysis import PLOT_DPI, analyze
from pnp.validate.plots import write_plots
from pnp.model.games import GameSource
from pnp.validate.check import check_game_full


def analysis_of(game: str):
    result = check_game_full(GameSource(CARD_DATA / game, f"card_data/{game}"))
    return analyze(result.game, result.book)


@pytest.fixture(scope="module")
def atomic():
    return analysis_of("atomic-assembly")


@pytest.fixture(scope="module")
def ars():
    return analysis_of("ars-alchimia")


def test_counts_per_deck(atomic):
    decks = next(t for t in atomic.tallies if (t.component, t.column) == ("elements", "deck"))
    assert decks.counts == [("red", 32), ("green", 24), ("yellow", 24)] and decks.total == 80
    track = next(t for t in atomic.tallies if (t.component, t.column) == ("track", "kind"))
    assert track.counts == [("element", 30), ("hazard", 2), ("wild", 2)] and track.unit == "rows"


def test_list_columns_count_each_item():
    heroes = analysis_of("assemble")
    icons = dict(next(t for t in heroes.tallies if t.column == "icons").counts)
    assert icons == {"might": 18, "tech": 15, "mystic": 18, "speed": 15, "stealth": 10}  # 43 heroes + El Número Uno
    power = next(c for c in heroes.curves if c.column == "power")
    assert sum(n for _, n in power.points) == 44 and power.kind == "number"


def test_cost_curve_with_points(atomic):
    curve = next(c for c in atomic.curves if c.component == "blueprints")
    assert curve.points == [(2, 4), (3, 5), (4, 3)]
    assert curve.values == {2: [1, 2, 3, 4], 3: [5, 6, 8, 9], 4: [7]}


def test_needs_against_supply(atomic, ars):
    needs = {r.name: r for r in atomic.needs[0].rows}
    assert (needs["H"].costs, needs["H"].most, needs["H"].total, needs["H"].supply) == (3, 3, 6, 12)
    assert needs["Cr | Mn"].supply == 6 and needs["any"].supply == 76 and needs["green"].supply == 24
    with_elixir = next(n for n in ars.needs if n.rule == "orders.payable")
    sand = next(r for r in with_elixir.rows if r.name == "sand")
    assert (sand.supply, sand.most) == (7, 3)  # 4 soul sand + 3 elixir on a full board
    assert sand.yields == {"locations.gather": 3, "locations.bonus": 4}


def test_rank_by_type_cross_table(ars):
    table = ars.crosstabs[0]
    assert (table.rows, table.columns) == ("rank", "type")
    assert [sum(table.cells.get((r, t), 0) for t in table.column_values) for r in table.row_values] == [20, 14, 8]
    assert table.cells[("C", "academic")] == 6


def test_plots_are_pngs_of_the_stated_size_and_the_same_bytes_twice(tmp_path, ars):
    only = replace(ars, tallies=ars.tallies[:1], curves=[], needs=[])
    first = write_plots(only, tmp_path / "a")
    second = write_plots(only, tmp_path / "b")
    assert sorted(p.name for p in first) == ["orders-counts.png", "orders-rank-by-type.png"]
    for a, b in zip(sorted(first), sorted(second)):
        assert a.read_bytes() == b.read_bytes(), a.name
    with Image.open(tmp_path / "a" / "orders-rank-by-type.png") as im:
        assert im.format == "PNG" and im.size == (8 * PLOT_DPI, int(4.5 * PLOT_DPI))
        assert "Software" not in im.info  # no version stamp that would change the bytes
        # the stacked bars use the game's palette: the academic blue is drawn
        colours = {c for _, c in im.convert("RGB").getcolors(1 << 20)}
        assert (0x54, 0x99, 0xC7) in colours
    assert not list((tmp_path / "a").glob("*.tmp"))


def test_plot_files_name_each_chart(ars):
    # the file names write_plots uses, without drawing: one per tally component, cross table,
    # curve and cost-payable rule
    assert [t.component for t in ars.tallies] == ["orders", "orders", "locations", "forges", "assistants", "assistants"]
    assert [(c.component, c.column) for c in ars.curves] == [("orders", "cost"), ("locations", "gather")]
    assert [n.rule for n in ars.needs] == ["orders.payable", "orders.payable-without-elixir"]


def pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True,
                          env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"})


def test_cli_analysis_tables():
    result = pnp("check", "atomic-assembly", "--analysis")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Element cards: 80 pieces" in out
    assert "Blueprint cards: cost curve" in out and "needs against supply" in out
    assert "Cr | Mn" in out


def test_cli_plots_for_a_game_without_rules(tiny, tmp_path):
    result = pnp("check", str(tiny), "--plots", str(tmp_path / "charts"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Action cards: 5 pieces" in result.stdout  # --plots implies --analysis
    chart = tmp_path / "charts" / "tiny" / "cards-counts.png"
    assert f"wrote {chart}" in result.stdout
    with Image.open(chart) as im:
        assert im.format == "PNG" and im.size[0] >= 4 * PLOT_DPI


def test_check_does_not_import_matplotlib():
    code = ("import sys; from pnp.cli import typer_app; from typer.testing import CliRunner; app = typer_app(); "
            "r = CliRunner().invoke(app, ['check']); assert r.exit_code == 0, r.output; "
            "print('matplotlib' in sys.modules, 'pandas' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert result.stdout.strip() == "False False", result.stderr


def test_without_analysis_a_starter_deck_tallies_its_layout_enum(tmp_path):
    """A game from ``pnp new`` with a ``kind`` enum that picks each card's layout, and no
    ``[analysis]`` in rules.toml: the kind is tallied, and charted by --plots."""
    from pnp.model.scaffold import new_game
    from pnp.validate.report import analysis_renderables

    game = tmp_path / "g"
    new_game(game)
    layouts = game / "templates" / "layouts.toml"
    text = layouts.read_text()
    card = text[text.index("[layouts.card]"):text.index("[layouts.card-back]")]
    layouts.write_text(text + "\n" + card.replace("layouts.card", "layouts.action")
                       + "\n" + card.replace("layouts.card", "layouts.place"))
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace('layout = "card" ', 'layout_column = "kind" ').replace(
        'copies = { type = "int", min = 0 }', 'copies = { type = "int", min = 0 }\n'
        'kind = { type = "enum", values = ["action", "place"] }', 1))
    (game / "cards.csv").write_text("id,title,cost,text,copies,kind\nspark,Spark,1,Draw.,2,action\n"
                                    "tide,Tide,2,Pass.,2,action\nreef,Reef,3,Keep.,2,place\n")
    assert "[analysis]" not in (game / "rules.toml").read_text()
    data = check_game_full(GameSource(game, "g"))
    assert not [f for f in data.findings if f.severity == "error"]
    a = analyze(data.game, data.book)
    (kind,) = [t for t in a.tallies if t.column == "kind"]
    assert kind.component == "cards" and kind.counts == [("action", 4), ("place", 2)] and kind.total == 6
    assert analysis_renderables(a)
    (png,) = write_plots(a, tmp_path / "plots")
    assert png.name == "cards-counts.png" and Image.open(png).size[0] > 100
    a.tallies.clear()
    from rich.console import Console

    console = Console(record=True, width=200)
    for part in analysis_renderables(a):
        console.print(part)
    assert "nothing to tally" in console.export_text()
