"""The `pnp` command line, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest



def pnp(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True,
                          cwd=cwd, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})


def test_version():
    result = pnp("--version")
    assert result.returncode == 0
    assert result.stdout.strip().startswith("pnp ")


def test_help_lists_the_commands():
    result = pnp("--help")
    assert result.returncode == 0
    for command in ("list", "check", "build"):
        assert command in result.stdout


def test_list_bundled_games_shows_the_rulebook_totals():
    result = pnp("list")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for title in ("Atomic Assembly", "Assemble!", "Periodic Shed", "Ars Alchimia"):
        assert title in out
    assert "differs" not in out


def test_check_bundled_games_is_clean():
    result = pnp("check", "--format", "json")
    assert result.returncode == 0, result.stdout
    report = json.loads(result.stdout)
    assert {r["game"] for r in report} == {"card_data/atomic-assembly", "card_data/assemble",
                                          "card_data/periodic-shed", "card_data/ars-alchimia"}
    assert all(f["severity"] != "error" for r in report for f in r["findings"])
    # nothing wrong on paper: no text too small, overlapped, cut off or outside the trim
    assert [f["rule"] for r in report for f in r["findings"] if f["rule"].startswith("preflight.")] == []


def test_check_reports_a_wrong_total_and_exits_1(tiny):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,4\nleaf,Leaf,1,green,,2\n")
    result = pnp("check", str(tiny))
    assert result.returncode == 1
    assert "totals.stated" in result.stdout
    assert "the rulebook states 5 action cards, the data holds 6" in result.stdout
    report = json.loads(pnp("check", str(tiny), "--format", "json").stdout)
    findings = report[0]["findings"]
    assert [f["rule"] for f in findings if f["severity"] == "error"] == ["totals.stated", "totals.stated"]


def test_check_reports_a_bad_cell_with_its_location(tiny):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,x\nleaf,Leaf,1,green,,2\n")
    result = pnp("check", str(tiny), "--format", "json")
    assert result.returncode == 1
    finding = json.loads(result.stdout)[0]["findings"][0]
    assert finding["location"].endswith("cards.csv:2:6 (copies)")
    assert finding["message"] == "'x' is not a whole number"


def test_unknown_game_is_a_clear_error_without_traceback():
    result = pnp("list", "no-such-game")
    assert result.returncode == 2
    assert "no game 'no-such-game'" in result.stderr
    assert "atomic-assembly" in result.stderr
    assert "Traceback" not in result.stderr


def test_build_writes_pdf_and_contact_sheet_when_asked(tiny, tmp_path):
    sheet = tmp_path / "out" / "tiny" / "contact" / "cards.png"
    plain = pnp("build", str(tiny), "-o", str(tmp_path / "out"), "--paper", "a4")
    assert plain.returncode == 0, plain.stderr
    assert (tmp_path / "out" / "tiny" / "tiny-cards.pdf").read_bytes().startswith(b"%PDF")
    assert "5 cards on 1 sheet(s)" in plain.stdout
    assert not (tmp_path / "out" / "tiny" / "contact").exists()  # contact sheets are asked for

    result = pnp("build", str(tiny), "-o", str(tmp_path / "out"), "--paper", "a4", "--contact-sheets")
    assert result.returncode == 0, result.stderr
    assert sheet.read_bytes().startswith(b"\x89PNG")
    assert "1 contact sheet(s) of" in result.stdout

    # a build without contact sheets removes the old one, and says so
    again = pnp("build", str(tiny), "-o", str(tmp_path / "out"), "--paper", "a4")
    assert again.returncode == 0, again.stderr
    assert not sheet.exists()
    assert f"removed {sheet} (this build no longer makes it)" in again.stdout.replace("\n", "")


def test_game_toml_asks_for_contact_sheets_and_the_command_line_overrides_it(tiny, tmp_path):
    manifest = tiny / "game.toml"
    manifest.write_text(manifest.read_text() + "\n[build]\ncontact_sheets = true\n")
    sheet = tmp_path / "out" / "tiny" / "contact" / "cards.png"
    result = pnp("build", str(tiny), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert sheet.read_bytes().startswith(b"\x89PNG")
    again = pnp("build", str(tiny), "-o", str(tmp_path / "out"), "--no-contact-sheets")
    assert again.returncode == 0, again.stderr
    assert not sheet.exists()

    manifest.write_text(manifest.read_text().replace("contact_sheets = true", "contact_sheets = \"yes\""))
    bad = pnp("build", str(tiny), "-o", str(tmp_path / "out"))
    assert bad.returncode != 0
    assert "build.contact_sheets" in bad.stdout + bad.stderr


@pytest.mark.parametrize("args, message", [
    (["--paper", "A4x"], "Invalid value for '--paper': 'A4x' is not a paper size; did you mean 'a4'? one of "
                         "letter, a4, a5, half-letter, a3, tabloid, legal\n"),
    (["--flip", "sideways"], "Invalid value for '--flip': 'sideways' is not a duplex flip; one of long, short\n"),
    (["--image-dpi", "0"], "Invalid value for '--image-dpi': '0' is below the least resolution, 36 px/in\n"),
    (["--image-dpi", "fine"], "Invalid value for '--image-dpi': 'fine' is not a whole number of px/in\n"),
    (["--back-offset", "1"], "Invalid value for '--back-offset': '1' needs two values, X,Y"),
    (["--back-offset", "30,0"], "Invalid value for '--back-offset': '30,0' moves the backs more than 10 mm"),
    (["--margin", "5"], "Invalid value for '--margin': '5' is not a length with a unit"),
    (["--bleed", "-1mm"], "Invalid value for '--bleed': '-1mm' is negative"),
    (["--boxes", "--card-thickness", "0mm"], "Invalid value for '--card-thickness': '0mm' is below the least card "
                                             "thickness, 0.05 mm; 300 gsm card is about 0.30 mm thick"),
    (["--boxes", "--card-thickness", "-0.3mm"], "Invalid value for '--card-thickness': '-0.3mm' is negative"),
    (["--boxes", "--card-thickness", "3cm"], "Invalid value for '--card-thickness': '3cm' is above the greatest "
                                             "card thickness, 5 mm"),
    (["--boxes", "--sleeve-thickness", "2mm"], "Invalid value for '--sleeve-thickness': '2mm' is above the greatest "
                                               "sleeve thickness, 1 mm"),
])
def test_build_option_errors(tiny, tmp_path, args, message):
    result = pnp("build", str(tiny), "-o", str(tmp_path / "out"), *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


def test_choices_are_any_case_and_shown_in_help(tiny, tmp_path):
    result = pnp("build", str(tiny), "-o", str(tmp_path / "out"), "--paper", "A4", "--flip", "Short",
                 "--no-contact-sheets")
    assert result.returncode == 0, result.stderr
    from pypdf import PdfReader

    pdf = PdfReader(tmp_path / "out" / "tiny" / "tiny-cards.pdf")
    assert [round(float(v), 2) for v in pdf.pages[0].mediabox[2:]] == [595.28, 841.89]
    assert "/DuplexFlipShortEdge" in str(pdf.trailer["/Root"]["/ViewerPreferences"])
    usage = pnp("build", "--help").stdout
    assert "letter|a4|a5|half-letter|a3|tabloid|legal" in usage and "long|short" in usage
    assert "text|json" in pnp("check", "--help").stdout
    assert pnp("check", str(tiny), "--format", "JSON").stdout.lstrip().startswith("[")
    assert "Invalid value for '--jobs': '0' is below the least number of processes, 1\n" in pnp(
        "export", str(tiny), "-t", "tgc", "--jobs", "0").stderr


def test_build_refuses_data_with_errors_unless_forced(tiny, tmp_path):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,2,red,,4\nleaf,Leaf,1,green,,2\n")
    out = tmp_path / "out"
    result = pnp("build", str(tiny), "-o", str(out))
    assert result.returncode == 1
    assert "nothing written" in result.stdout and "totals.stated" in result.stdout
    assert "cards:" not in result.stdout and "wrote" not in result.stdout  # no part is listed as made
    assert not (out / "tiny" / "tiny-cards.pdf").exists()
    forced = pnp("build", str(tiny), "-o", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (out / "tiny" / "tiny-cards.pdf").is_file()


def test_a_failed_build_leaves_the_previous_output_intact(tiny, tmp_path):
    out = tmp_path / "out"
    assert pnp("build", str(tiny), "-o", str(out)).returncode == 0
    before = (out / "tiny" / "tiny-cards.pdf").read_bytes()
    layouts = tiny / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text().replace("{{ title }}", "{{ titel }}"))
    result = pnp("build", str(tiny), "-o", str(out))  # drawn in memory, found, nothing written
    assert result.returncode == 1
    assert "layout.render" in result.stdout and "'titel' is undefined" in result.stdout
    assert (out / "tiny" / "tiny-cards.pdf").read_bytes() == before
    # art that only the second card lacks: every card is drawn, so it is found and named
    (tiny / "art").mkdir()
    from PIL import Image

    Image.new("RGB", (900, 1200)).save(tiny / "art" / "fire.png")
    layouts.write_text(layouts.read_text().replace("{{ titel }}", "{{ title }}") +
                       '\n[layouts.action.boxes.art]\ntype = "image"\nimage = "art/{{ id }}.png"\narea = "trim"\n')
    # (a draft build prints a placeholder for it; --strict, the print-ready build, refuses it)
    result = pnp("build", str(tiny), "-o", str(out), "--strict")
    assert result.returncode == 1
    assert "layout.art-missing" in result.stdout and "no file 'art/leaf.png' in the game folder" in result.stdout
    assert "piece: cards/leaf" in result.stdout
    check = pnp("check", str(tiny), "--strict")
    assert check.returncode == 1 and "no file 'art/leaf.png' in the game folder" in check.stdout
    assert "a placeholder is printed" not in result.stdout + check.stdout  # --strict prints none
    assert (out / "tiny" / "tiny-cards.pdf").read_bytes() == before
    assert [p.name for p in (out / "tiny").iterdir() if p.name.endswith(".tmp")] == []


# -- every command that loads a game reads it the same way ------------------------------------


def _cp1252_game(tmp_path):
    """The tiny game with its table saved as Windows-1252 (an 'é' in a title)."""
    import shutil

    from conftest import FIXTURES

    game = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game)
    csv = game / "cards.csv"
    csv.write_bytes(csv.read_text(encoding="utf-8").replace("Leaf", "Feuillé").encode("cp1252"))
    (game / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\n{{ tables.cards[1].title }}\n",
                                                       encoding="utf-8")
    return game


@pytest.mark.parametrize("command", [["list"], ["check"], ["build", "--no-contact-sheets"], ["rulebook"],
                                     ["export", "-t", "dtc"]])
def test_every_command_reads_tables_with_the_encoding_given(command, tmp_path):
    game = _cp1252_game(tmp_path)
    out = ["-o", str(tmp_path / "out")] if command[0] in ("build", "rulebook", "export") else []
    refused = pnp(*command, str(game), *out)
    assert refused.returncode != 0 and "is not valid utf-8" in refused.stdout + refused.stderr
    result = pnp(*command, str(game), *out, "--encoding", "cp1252", "--delimiter", ",")
    assert result.returncode == 0, result.stdout + result.stderr
    if command[0] == "rulebook":
        from pypdf import PdfReader

        text = PdfReader(tmp_path / "out" / "tiny" / "tiny-rulebook.pdf").pages[0].extract_text()
        assert "Feuillé" in text


def _game_with_art(tmp_path, px: int):
    """The tiny game whose action cards show a px x px PNG, and whose rulebook shows it too."""
    import shutil

    from PIL import Image

    from conftest import FIXTURES

    game = tmp_path / "art-game"
    shutil.copytree(FIXTURES / "tiny", game)
    (game / "art").mkdir()
    Image.new("RGB", (px, px), (200, 40, 40)).save(game / "art" / "big.png")
    layouts = game / "templates" / "layouts.toml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + '\n[layouts.action.boxes.art]\ntype = "image"\n'
                       'image = "art/big.png"\nx = "5mm"\ny = "5mm"\nwidth = "20mm"\nheight = "20mm"\n',
                       encoding="utf-8")
    (game / "templates" / "rulebook.md.j2").write_text("# Rules\n\n![art](art/big.png \"20mm\")\n", encoding="utf-8")
    return game


@pytest.mark.parametrize("command", [["check"], ["build", "--no-contact-sheets"], ["rulebook"], ["export", "-t", "tgc"],
                                     ["export", "-t", "tts"], ["check", "-t", "dtc"]])
def test_every_command_that_draws_honours_max_image_pixels(command, tmp_path):
    game = _game_with_art(tmp_path, 400)
    out = ["-o", str(tmp_path / "out")] if command[0] != "check" else []
    assert pnp(*command, str(game), *out).returncode == 0
    result = pnp(*command, str(game), *out, "--max-image-pixels", "10000")
    said = result.stdout + result.stderr
    assert result.returncode == 1 and "400 x 400 = 160,000 pixels, more than the limit of 10,000" in said, said
    assert "--max-image-pixels 160000" in said and "Traceback" not in said


@pytest.mark.parametrize("command, pdf", [(["build", "--no-contact-sheets"], "tiny-cards.pdf"),
                                          (["rulebook"], "tiny-rulebook.pdf"),
                                          (["export", "-t", "dtc"], "export/dtc/tiny-cards.pdf")])
def test_image_dpi_sets_the_resolution_art_is_embedded_at(command, pdf, tmp_path):
    import pikepdf

    game = _game_with_art(tmp_path, 2000)  # 2540 dpi in its 20 mm box

    def widths() -> set[int]:
        with pikepdf.open(tmp_path / "out" / "tiny" / pdf) as doc:
            return {int(o.Width) for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"}

    out = ["-o", str(tmp_path / "out")]
    assert pnp(*command, str(game), *out, "--image-dpi", "150").returncode == 0
    assert widths() == {119}  # 20 mm at 150 dpi
    again = pnp(*command, str(game), *out)  # the default again: made anew, not kept from the 150 dpi run
    assert again.returncode == 0 and "kept" not in again.stdout, again.stdout
    assert widths() == {237}  # 20 mm at 300 dpi


def _declared_png(path, width: int, height: int) -> None:
    """A PNG of a few bytes that declares ``width`` x ``height`` pixels (and holds almost none):
    what a decompression bomb looks like to whoever opens it."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("command", [["check"], ["rulebook"], ["build", "--no-contact-sheets"]])
def test_a_200_megapixel_picture_is_a_finding_not_a_traceback(command, tmp_path):
    from PIL import Image

    game = _game_with_art(tmp_path, 10)
    _declared_png(game / "art" / "big.png", 20000, 10000)
    with pytest.raises(Image.DecompressionBombError):  # what Pillow itself says about the file
        Image.open(game / "art" / "big.png")
    out = ["-o", str(tmp_path / "out")] if command[0] != "check" else []
    result = pnp(*command, str(game), *out)
    said = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in said, said
    assert "layout.art-unreadable" in said and "--max-image-pixels 200000000" in said
    assert "'art/big.png' is 20000 x 10000 = 200,000,000 pixels, more than the limit of 89,478,485" in said
    if command[0] != "build":  # the rulebook picture, at its line of the template
        assert "templates/rulebook.md.j2\n    3  error  layout.art-unreadable" in said, said
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["ars-alchimia", "assemble", "atomic-assembly", "periodic-shed"])
def test_check_strict_and_build_strict_agree_on_every_bundled_game(game, tmp_path):
    checked = pnp("check", game, "--strict")
    built = pnp("build", game, "--strict", "--no-contact-sheets", "-o", str(tmp_path / "out"))
    assert checked.returncode == built.returncode, (checked.stdout, built.stdout)
    # a game whose warnings fail --strict gets nothing written
    assert (tmp_path / "out" / game).is_dir() == (built.returncode == 0)


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_a_console_that_cannot_show_a_character_gets_ascii_not_a_traceback(tiny, encoding):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire 漢 Ice,2,red,,3\nleaf,Leaf,1,green,,2\n",
                                    encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pnp", "check", str(tiny)], capture_output=True,
                            env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": encoding})
    assert result.returncode == 0, result.stderr.decode(encoding, "replace")
    shown = result.stdout.decode(encoding)
    assert "has no glyph for '\\u6f22' (U+6F22)" in shown and "Traceback" not in shown


def test_ascii_stand_ins_for_the_characters_messages_use():
    from pnp.cli.output import ASCII
    assert "Fire → Ice ✓ …".encode("ascii", "pnp-ascii") == b"Fire -> Ice ok ..."
    assert all(v.isascii() for v in ASCII.values())


def test_a_build_whose_data_does_not_load_names_the_game_and_says_nothing_was_written(tiny):
    (tiny / "cards.csv").write_text("id,title,cost,colour,text,copies\nfire,Fire,two,red,,3\nleaf,Leaf,1,green,,2\n")
    result = pnp("build", str(tiny), "-o", str(tiny.parent / "out"))
    assert result.returncode == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith("Tiny Test Game") and "1 error" in first
    assert "nothing written: the data did not load" in result.stdout
    assert not (tiny.parent / "out").exists()


# -- progress and what a build says it wrote ----------------------------------------------------


def test_progress_is_not_drawn_on_a_pipe_and_quiet_lists_no_files(tiny, tmp_path):
    out = tmp_path / "out"
    loud = pnp("build", str(tiny), "-o", str(out))
    assert loud.returncode == 0 and "wrote " in loud.stdout
    assert loud.stderr == "" and "\x1b[" not in loud.stdout  # no bars, no cursor movement on a pipe
    quiet = pnp("build", str(tiny), "-o", str(out), "--force", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout.splitlines()[0].startswith("Tiny Test Game") and "wrote " not in quiet.stdout


def test_files_already_written_are_listed_when_a_later_part_cannot_be_written(tiny, tmp_path):
    out = tmp_path / "out"
    (tiny / "templates" / "rulebook.md.j2").write_text("# {{ game.title }}\n\nShuffle the cards.\n",
                                                        encoding="utf-8")
    blocked = out / "tiny" / "tiny-rulebook.pdf"
    (blocked / "inside").mkdir(parents=True)  # a folder where the rulebook's file would go
    result = pnp("build", str(tiny), "-o", str(out))
    assert result.returncode == 1
    assert f"wrote {out / 'tiny' / 'tiny-cards.pdf'}" in result.stdout  # the parts before it are written
    assert "build.write" in result.stdout and str(blocked) in result.stdout
    assert "could not write the file" in result.stdout and "not made: rulebook" in result.stdout
    assert (out / "tiny" / "tiny-cards.pdf").is_file() and blocked.is_dir()
    (blocked / "inside").rmdir()
    blocked.rmdir()
    again = pnp("build", str(tiny), "-o", str(out))  # the written parts are kept, the rulebook is made
    assert again.returncode == 0 and "cards: inputs unchanged" in again.stdout
    assert blocked.is_file()


def test_a_terminal_sees_a_progress_line_per_game(tmp_path):
    import os
    import pty

    leader, follower = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "pnp", "build", "atomic-assembly", "assemble", "-o", str(tmp_path)],
                           stdout=subprocess.PIPE, stderr=follower, text=True,
                           env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "TERM": "xterm"})
    os.close(follower)
    drawn = b""
    while True:  # read the terminal while the build draws on it, or it blocks when the buffer is full
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the build ended and closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    stdout = run.stdout.read()
    run.wait(timeout=120)
    assert run.returncode == 0 and "wrote " in stdout
    screen = drawn.decode("utf-8", "replace")
    for game in ("atomic-assembly", "assemble"):
        assert f"{game}\x1b[0m cards" in screen, screen[-2000:]
    assert "/96" in screen  # the deck's cards counted as they are drawn


def test_a_build_with_nothing_to_do_answers_without_loading_the_renderers(tiny, tmp_path):
    out = tmp_path / "out"
    first = pnp("build", str(tiny), "-o", str(out))
    assert first.returncode == 0
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "pnp", "build", str(tiny), "-o", str(out)],
                         capture_output=True, text=True, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "inputs unchanged" in run.stdout
    imported = {line.split("|")[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert not {"reportlab", "PIL", "jinja2", "pypdfium2", "pnp.outputs.cards", "pnp.pipeline.build"} & imported
    (tiny / "extra.txt").write_text("a note\n")  # a new file: the run is made in full, parts kept
    full = pnp("build", str(tiny), "-o", str(out))
    assert full.stdout == run.stdout


def test_a_game_toml_that_does_not_parse_is_named_by_its_folder(tiny):
    """Run inside a game folder whose game.toml is broken, the report names the folder, not '.'."""
    (tiny / "game.toml").write_text((tiny / "game.toml").read_text() + "oops = \n")
    text = pnp("check", cwd=tiny)
    assert text.returncode == 1
    assert text.stdout.splitlines()[0].split() == [tiny.name, ".", "1", "error"]
    assert "./game.toml" in text.stdout and "48:8  error  schema.manifest" in text.stdout
    [doc] = json.loads(pnp("check", "--format", "json", cwd=tiny).stdout)
    assert (doc["game"], doc["title"], doc["loaded"]) == (".", tiny.name, False)
    assert doc["findings"][0]["line"] == 48


def test_card_and_sleeve_thickness_take_their_whole_range_and_check_refuses_alike(tiny):
    from pnp.cli.settings import card_thickness, sleeve_thickness
    from pnp.core.units import MM

    assert card_thickness("0.05mm") == pytest.approx(0.05 * MM) and card_thickness("5mm") == pytest.approx(5 * MM)
    assert sleeve_thickness("0mm") == 0 and sleeve_thickness("1mm") == pytest.approx(MM)
    result = pnp("check", str(tiny), "--boxes", "--card-thickness", "0mm")
    assert result.returncode == 2 and "Invalid value for '--card-thickness': '0mm' is below" in result.stderr


def test_an_error_the_cli_prints_shows_its_rule_id(monkeypatch, capsys, tmp_path):
    from pnp.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["pnp", "export", "no-such-game", "-t", "tts"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith("error game.not-found: no game 'no-such-game'") and "Traceback" not in said


@pytest.mark.parametrize(("argv", "rule", "said"), [
    (["build", "{tiny}", "--only", "cards", "--changed-since", "last"], "cli.option", "give --only or --changed-since"),
    (["build", "{tiny}", "--delimiter", "ab"], "cli.option", "--delimiter 'ab' is not one character"),
    (["new", "{tiny}"], "new.game", "already exists"),
    (["build", "{empty}"], "game.not-found", "no game.toml in this folder"),
])
def test_a_command_error_names_its_own_rule(tiny, tmp_path, argv, rule, said):
    (tmp_path / "empty").mkdir()
    argv = [a.format(tiny=tiny, empty=tmp_path / "empty") for a in argv]
    result = pnp(*argv)
    assert result.returncode == 2, result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert f"error {rule}: " in out and said in out and "build.error" not in out
