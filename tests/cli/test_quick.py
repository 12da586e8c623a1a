"""The written-down answers of plain builds and checks (pnp.cli.quick): given only while
everything they were made from holds, then byte for byte what the full command line prints,
and read with os and marshal alone."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from pnp.cli import quick, settings
from pnp.core.listing import BUILD_RECORD, PIECES_RECORD
from pnp.model.games import data_root, templates_root

from test_startup import QUICK, TYPER, run  # (the same entry points, run the same way)

HOUR_AGO = time.time() - 3600


def age(folder: Path) -> None:
    """Date every file of ``folder`` an hour back: a file saved within two seconds of a build
    is hashed again rather than trusted by its time, and is not answered here."""
    for path in folder.rglob("*"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))


def imports(stderr: str) -> set[str]:
    """Every module named in ``-X importtime`` output."""
    return {line.split("|")[-1].strip() for line in stderr.splitlines() if line.startswith("import time")}


@pytest.fixture
def game(tiny: Path) -> Path:
    age(tiny)
    return tiny


@pytest.fixture
def out(game: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    first = run(QUICK, "build", str(game), "-o", str(out))
    assert first.returncode == 0, first.stdout + first.stderr
    assert (out / "tiny" / quick.QUICK_FILE).is_file()  # a plain build writes its answer down
    return out


def answer(command: str, game: Path, out: Path, quiet: bool = False):
    return quick.answer(command, [str(game)], str(out), quiet)


@pytest.mark.parametrize("args", [["build"], ["build", "-q"], ["check"]])
def test_the_answer_is_the_full_command_line_s_and_imports_nothing_but_os(game, out, args):
    argv = [*args, str(game), "-o", str(out)]
    fast = run(QUICK, *argv, importtime=True)
    full = run(TYPER, *argv)
    assert (fast.returncode, fast.stdout) == (full.returncode, full.stdout)
    assert fast.stdout.startswith("Tiny") or "tiny" in fast.stdout.splitlines()[0]
    loaded = imports(fast.stderr)
    assert "pnp.cli.quick" in loaded
    assert not {"pnp.pipeline.fresh", "json", "pathlib", "re", "dataclasses", "hashlib"} & loaded, \
        sorted({"pnp.pipeline.fresh", "json", "pathlib", "re", "dataclasses", "hashlib"} & loaded)


def test_several_games_are_answered_together_as_the_full_command_line_answers(game, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(game, other)
    toml = other / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('id = "tiny"', 'id = "other"', 1), encoding="utf-8")
    age(other)
    out = tmp_path / "out"
    assert run(QUICK, "build", str(game), str(other), "-o", str(out)).returncode == 0
    for args in (["build"], ["check"]):
        argv = [*args, str(game), str(other), "-o", str(out)]
        assert answer(args[0], game, out) is not None
        got = quick.answer(args[0], [str(game), str(other)], str(out), False)
        full = run(TYPER, *argv)
        assert got == (full.stdout, full.returncode)
    assert quick.answer("build", [str(game), str(game)], str(out), False) is None  # the same game twice


def test_a_game_found_from_inside_its_folder_is_answered_with_its_own_output_folder(game):
    assert run(QUICK, "build", cwd=game).returncode == 0
    fast = run(QUICK, "build", cwd=game, importtime=True)
    assert fast.stdout == run(TYPER, "build", cwd=game).stdout and "inputs unchanged" in fast.stdout
    assert "pnp.pipeline.fresh" not in imports(fast.stderr)


def test_a_forced_build_writes_the_answer_down_again(game, out):
    record = out / "tiny" / quick.QUICK_FILE
    before = record.read_bytes()
    assert run(QUICK, "build", str(game), "-o", str(out), "--force", "--jobs", "1").returncode == 0
    assert record.read_bytes() != before  # the outputs were written again: their times are new
    assert answer("build", game, out) is not None


def test_a_strict_or_json_command_line_is_not_answered_here(game, out):
    fast = run(QUICK, "check", str(game), "-o", str(out), "--strict", importtime=True)
    assert "pnp.pipeline.fresh" in imports(fast.stderr)  # answered from the snapshot instead


def _cell_edited(game: Path, out: Path) -> None:
    csv = game / "cards.csv"
    text = csv.read_text(encoding="utf-8")
    csv.write_text(text.replace("a", "b", 1), encoding="utf-8")  # same size, new content and time


def _file_added(game: Path, out: Path) -> None:
    (game / "notes.txt").write_text("a new file\n", encoding="utf-8")


def _template_touched(game: Path, out: Path) -> None:
    layout = next(p for p in sorted((game / "templates").rglob("*")) if p.is_file())
    os.utime(layout, (HOUR_AGO + 60, HOUR_AGO + 60))  # same bytes, another time: hashed, not trusted


def _input_saved_at_the_build(game: Path, out: Path) -> None:
    recorded = os.stat(out / "tiny" / quick.QUICK_FILE).st_mtime
    os.utime(game / "game.toml", (recorded, recorded))  # within the file system's clock: hashed


def _output_removed(game: Path, out: Path) -> None:
    next(p for p in sorted((out / "tiny").glob("*.pdf"))).unlink()


def _output_rewritten(game: Path, out: Path) -> None:
    pdf = next(p for p in sorted((out / "tiny").glob("*.pdf")))
    pdf.write_bytes(pdf.read_bytes())


def _pieces_rewritten(game: Path, out: Path) -> None:
    pieces = out / "tiny" / PIECES_RECORD
    pieces.write_bytes(pieces.read_bytes())


def _record_damaged(game: Path, out: Path) -> None:
    record = out / "tiny" / quick.QUICK_FILE
    record.write_bytes(record.read_bytes()[:-40])


def _build_record_removed(game: Path, out: Path) -> None:
    (out / "tiny" / BUILD_RECORD).unlink()  # every stage is made again: nothing is "kept"


def _record_of_another_layout(game: Path, out: Path) -> None:
    record = out / "tiny" / quick.QUICK_FILE
    record.write_bytes(record.read_bytes().replace(quick.HEADER, b"pnp quick answer 0\n", 1))


@pytest.mark.parametrize("change", [_cell_edited, _file_added, _template_touched, _input_saved_at_the_build,
                                    _output_removed, _output_rewritten, _pieces_rewritten, _build_record_removed,
                                    _record_damaged, _record_of_another_layout])
def test_any_change_to_what_it_was_made_from_leaves_the_answer_to_the_full_command_line(game, out, change):
    assert answer("build", game, out) is not None and answer("check", game, out) is not None
    change(game, out)
    assert answer("build", game, out) is None and answer("check", game, out) is None


def test_other_pnp_code_or_another_name_for_the_game_is_not_answered(game, out, monkeypatch):
    assert answer("build", game, out) is not None
    assert quick.answer("build", [f"{game}/"], str(out), False) is not None  # a trailing slash: the same name
    monkeypatch.chdir(game.parent)
    assert quick.answer("build", [game.name], str(out), False) is None  # named otherwise in its messages
    stamp = quick.package_stamp()
    monkeypatch.setattr(quick, "package_stamp", lambda: stamp[:-1] + [[stamp[-1][0], stamp[-1][1] + 1, 0]])
    assert answer("build", game, out) is None


def test_a_game_named_another_way_is_reported_under_that_name(game, tmp_path):
    assert run(QUICK, "build", "tiny", "-o", "out", cwd=tmp_path).returncode == 0
    for _ in range(2):  # the first run writes its answer down, the second reads it
        fast = run(QUICK, "build", "./tiny", "-o", "out", cwd=tmp_path)
        assert fast.stdout.splitlines()[0].split("  ")[1] == "./tiny"
    assert fast.stdout == run(TYPER, "build", "./tiny", "-o", "out", cwd=tmp_path).stdout
    assert quick.answer("build", ["tiny"], str(tmp_path / "out"), False) is None


def test_a_record_that_is_well_formed_but_not_an_answer_is_not_given(game, out):
    import marshal
    import zlib

    body = marshal.dumps({"format": quick.FORMAT, "id": "tiny", "folder": os.path.realpath(game), "text": ["x"]})
    (out / "tiny" / quick.QUICK_FILE).write_bytes(quick.HEADER + b"%08x\n" % zlib.crc32(body) + body)
    assert answer("build", game, out) is None and answer("check", game, out) is None


def test_a_game_that_is_not_found_is_left_to_the_full_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert quick.resolve(["no-such-game"], None) is None


@pytest.mark.parametrize("where", ["elsewhere", "game", "game/templates"])
def test_games_are_found_where_the_full_command_line_finds_them(game, tmp_path, monkeypatch, where):
    (tmp_path / "elsewhere").mkdir()
    shutil.copytree(game, tmp_path / "game")
    monkeypatch.chdir(tmp_path / where)
    cases = [[]] + ([[str(tmp_path / "game")], ["assemble", "periodic-shed"]] if where == "elsewhere" else [])
    for games in cases:
        sources = settings.resolve_games(games or None)
        found, root = quick.resolve(games, None)
        assert found == [(str(s.path), s.display) for s in sources] or \
            [(os.path.realpath(f), d) for f, d in found] == [(os.path.realpath(s.path), s.display) for s in sources]
        assert os.path.realpath(root) == os.path.realpath(settings.output_root(None, games or None))
        for (folder, _display), source in zip(found, sources):
            gid = Path(source.templates_dir).name if source.templates_dir.parent == templates_root() else "tiny"
            assert os.path.realpath(quick.templates_dir(folder, gid)) == os.path.realpath(source.templates_dir)
        assert quick.resolve(games, "else")[1] == "else"


def test_the_bundled_folders_are_the_model_s():
    assert Path(quick._bundled("card_data")) == data_root()
    assert Path(quick._bundled("templates")) == templates_root()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(quick.CACHE_ENV, str(folder))
    return folder


def test_pnp_list_prints_the_tables_written_down_while_the_game_is_unchanged(game, cache):
    first = run(QUICK, "list", str(game), PNP_CACHE_DIR=str(cache), COLUMNS="100")
    again = run(QUICK, "list", str(game), importtime=True, PNP_CACHE_DIR=str(cache), COLUMNS="100")
    full = run(TYPER, "list", str(game), COLUMNS="100")
    assert first.stdout == again.stdout == full.stdout and "Action cards" in full.stdout
    assert list((cache / quick.LIST_FOLDER).iterdir())  # written down by the first
    assert not {m for m in imports(again.stderr) if m.startswith(("pnp.model", "rich"))}
    narrow = run(QUICK, "list", str(game), PNP_CACHE_DIR=str(cache), COLUMNS="60")
    assert narrow.stdout == run(TYPER, "list", str(game), COLUMNS="60").stdout != full.stdout


def test_a_changed_game_is_listed_again(game, cache, monkeypatch):
    from pnp.cli import startup

    monkeypatch.setattr(startup, "plain_output", lambda stream: True)
    assert startup._list([str(game)]) == 0 and quick.list_answer([str(game)]) is not None
    _cell_edited(game, game)
    assert quick.list_answer([str(game)]) is None
    assert startup._list([str(game)]) == 0 and quick.list_answer([str(game)]) is None  # too new to trust
    age(game)
    assert startup._list([str(game)]) == 0 and quick.list_answer([str(game)]) is not None
    (game / "extra.txt").write_text("a note\n", encoding="utf-8")
    assert quick.list_answer([str(game)]) is None


def _listed_with_table(game: Path, table: str, monkeypatch) -> None:
    """Point the game's deck at ``table``, date the folder back, list it and check the tables
    were written down."""
    from pnp.cli import startup

    toml = game / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('table = "cards.csv"', f'table = "{table}"'),
                    encoding="utf-8")
    age(game)
    monkeypatch.setattr(startup, "plain_output", lambda stream: True)
    assert startup._list([str(game)]) == 0 and quick.list_answer([str(game)]) is not None


def test_a_hidden_table_is_followed_too(game, cache, monkeypatch):
    (game / "cards.csv").rename(game / ".cards.csv")
    _listed_with_table(game, ".cards.csv", monkeypatch)
    os.utime(game / ".cards.csv", (HOUR_AGO + 60, HOUR_AGO + 60))
    assert quick.list_answer([str(game)]) is None


def test_the_cache_folder_is_the_one_pnp_keeps(monkeypatch, tmp_path):
    from pnp.core import cachedir

    for env in ({"PNP_CACHE_DIR": str(tmp_path)}, {"PNP_CACHE_DIR": ""}, {"XDG_CACHE_HOME": str(tmp_path)}, {}):
        monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        root = cachedir.cache_root()
        assert quick.cache_root() == (None if root is None else str(root))
    assert quick.CACHE_ENV == cachedir.CACHE_ENV


def test_only_the_most_recent_tables_are_kept(game, cache, monkeypatch):
    from pnp.cli import startup

    monkeypatch.setattr(startup, "plain_output", lambda stream: True)
    monkeypatch.setattr(quick, "LIST_KEPT", 2)
    for columns in ("70", "80", "90"):
        monkeypatch.setenv("COLUMNS", columns)
        assert startup._list([str(game)]) == 0
    assert len(list((cache / quick.LIST_FOLDER).iterdir())) == 2
    assert quick.list_answer([str(game)]) is not None  # the last one is kept


def test_a_table_behind_a_link_is_followed_to_where_the_link_leads(game, cache, monkeypatch):
    (game / "good").mkdir()
    (game / "cards.csv").rename(game / "good" / "cards.csv")
    (game / "bad").mkdir()
    (game / "bad" / "cards.csv").write_text("id,title\n", encoding="utf-8")
    os.symlink("good", game / "data")
    _listed_with_table(game, "data/cards.csv", monkeypatch)
    (game / "data").unlink()
    os.symlink("bad", game / "data")
    assert quick.list_answer([str(game)]) is None


def test_a_game_folder_holding_a_build_record_still_has_its_manifest_followed(game, cache, monkeypatch):
    from pnp.cli import startup

    (game / BUILD_RECORD).write_text("{}", encoding="utf-8")  # outputs written into the game folder itself
    age(game)
    monkeypatch.setattr(startup, "plain_output", lambda stream: True)
    assert startup._list([str(game)]) == 0 and quick.list_answer([str(game)]) is not None
    os.utime(game / "game.toml", (HOUR_AGO + 60, HOUR_AGO + 60))
    assert quick.list_answer([str(game)]) is None


def test_another_width_or_another_rich_is_not_answered(game, cache, monkeypatch, tmp_path):
    from pnp.cli import startup

    monkeypatch.setattr(startup, "plain_output", lambda stream: True)
    assert startup._list([str(game)]) == 0 and quick.list_answer([str(game)]) is not None
    monkeypatch.setattr(quick, "_terminal_size", lambda: (40, 20))  # stdin or stderr a narrower terminal
    assert quick.list_answer([str(game)]) is None
    monkeypatch.undo()
    monkeypatch.setenv(quick.CACHE_ENV, str(cache))
    other = tmp_path / "site" / "rich"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(other.parent))
    assert quick.list_answer([str(game)]) is None


def test_a_broken_link_among_the_modules_is_stated_not_fatal(tmp_path):
    (tmp_path / "mod.py").write_text("x = 1\n", encoding="utf-8")
    os.symlink("nowhere", tmp_path / ".#mod.py")
    assert quick.package_stamp(str(tmp_path)) == [[".#mod.py", None, None],
                                                  ["mod.py", 6, os.stat(tmp_path / "mod.py").st_mtime_ns]]
