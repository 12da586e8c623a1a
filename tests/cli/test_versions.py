"""``pnp diff``, ``pnp release`` and ``pnp build --changed-since`` on a small game made by
``pnp new``: three cells changed, a card added, a card removed, a column no layout reads."""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
from pathlib import Path

import pytest

from clirun import run
from pnp.model.scaffold import new_game


def make_game(tmp_path: Path) -> Path:
    """A game with a notes column that no layout reads, version 1.0."""
    game = tmp_path / "g"
    new_game(game)
    toml = game / "game.toml"
    text = toml.read_text().replace("players = [2, 4]", 'players = [2, 4]\nversion = "1.0"')
    text = text.replace('copies = { type = "int", min = 0 }',
                        'copies = { type = "int", min = 0 }\nnotes = { type = "str", required = false }', 1)
    toml.write_text(text.replace("count = 6", "count = 7"))  # the rulebook's stated total
    (game / "cards.csv").write_text(
        "id,title,cost,text,copies,notes\n"
        "spark,Spark,1,Draw a card.,2,\n"
        "tide,Tide,2,Every player passes one card to the left.,2,\n"
        "reef,Reef,3,Keep this card in front of you.,2,\n"
        "gust,Gust,1,Look at the top card.,1,\n")
    return game


def playtest_changes(game: Path) -> None:
    """Three cells in two cards, a card added, a card removed, a note on a third card."""
    (game / "cards.csv").write_text(
        "id,title,cost,text,copies,notes\n"
        "spark,Sparks,1,Draw two cards.,2,\n"          # two printed cells
        "tide,Tide,3,Every player passes one card to the left.,2,\n"  # one printed cell
        "gust,Gust,1,Look at the top card.,1,too strong in 4p\n"  # a column no layout reads
        "wave,Wave,2,Splash.,2,\n")                    # added; reef removed


def diff_json(game: Path, out: Path, *since: str) -> dict:
    (result,) = json.loads(run("diff", str(game), "-o", str(out), "--format", "json", *since).output)
    return result


def test_diff_lists_exactly_the_changes_with_their_fields(tmp_path):
    game, out = make_game(tmp_path), tmp_path / "out"
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    assert diff_json(game, out)["changed"] == []
    playtest_changes(game)
    d = diff_json(game, out)
    assert d["since"] == "the last build" and d["data_changed"]
    assert [a["piece"] for a in d["added"]] == ["cards/wave"]
    assert [r["piece"] for r in d["removed"]] == ["cards/reef"]
    changed = {c["piece"]: c for c in d["changed"]}
    assert set(changed) == {"cards/spark", "cards/tide", "cards/gust"}
    assert changed["cards/spark"]["fields"] == {"title": {"old": "Spark", "new": "Sparks"},
                                                "text": {"old": "Draw a card.", "new": "Draw two cards."}}
    assert changed["cards/tide"]["fields"] == {"cost": {"old": "2", "new": "3"}}
    assert changed["cards/spark"]["face_changed"] and changed["cards/tide"]["face_changed"]
    gust = changed["cards/gust"]
    assert gust["fields"] == {"notes": {"old": "", "new": "too strong in 4p"}}
    assert not gust["printed"] and not gust["face_changed"] and not gust["back_changed"]

    text = run("diff", str(game), "-o", str(out)).output
    assert "changed  cards/gust  data only" in text and "title: Spark → Sparks" in text
    assert "added    cards/wave  (2 copies)" in text and "removed  cards/reef  (2 copies)" in text
    md = run("diff", str(game), "-o", str(out), "--format", "md").output
    assert "### Data only (nothing printed changed)\n\n- **cards/gust**; notes: \"\" → too strong in 4p" in md
    assert "- **cards/spark** (face); title: Spark → Sparks; text: Draw a card. → Draw two cards." in md


@pytest.mark.parametrize("extraction", ["filter", "without the data filter (Python 3.11.0 to 3.11.3)"])
def test_diff_since_a_git_revision_of_the_game_folder(tmp_path, monkeypatch, extraction):
    if extraction != "filter":
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    game, out = make_game(tmp_path), tmp_path / "out"
    git = ["git", "-C", str(game), "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "v1"], check=True)
    playtest_changes(game)
    d = diff_json(game, out, "--since", "HEAD")
    assert d["since"] == "git revision HEAD"
    assert [a["piece"] for a in d["added"]] == ["cards/wave"] and [r["piece"] for r in d["removed"]] == ["cards/reef"]
    assert {c["piece"] for c in d["changed"]} == {"cards/spark", "cards/tide", "cards/gust"}


def test_an_unknown_ref_is_a_clear_error_with_a_hint(tmp_path):
    game, out = make_game(tmp_path), tmp_path / "out"
    done = run("diff", str(game), "-o", str(out), ok=False)
    assert done.exit_code != 0
    assert isinstance(done.exception, Exception) and "has no build" in str(done.exception)
    assert "pnp build" in done.exception.hint
    done = run("diff", str(game), "-o", str(out), "--since", "9.9", ok=False)
    assert "no release 9.9" in str(done.exception) and "not in git" in str(done.exception)
    assert "pnp release" in done.exception.hint


def test_a_ref_error_inside_the_game_folder_names_the_folder(tmp_path, monkeypatch):
    game = make_game(tmp_path)
    monkeypatch.chdir(game)
    done = run("diff", "--since", "9.9", ok=False)
    assert f"--since 9.9: no release 9.9 of {game.name}, and" in str(done.exception)


def test_a_release_is_a_reference_for_later_diffs_and_no_input_of_the_build(tmp_path):
    import hashlib

    game, out = make_game(tmp_path), tmp_path / "out"
    refused = run("release", str(game), "-o", str(out), ok=False)
    assert "holds no build" in str(refused.exception) or "not of" in str(refused.exception)
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    done = run("release", str(game), "-o", str(out))
    assert "released g 1.0" in done.output
    saved = json.loads((game / "releases" / "1.0.json").read_text())
    assert saved["version"] == "1.0" and set(saved["pieces"]) == {"cards/spark", "cards/tide", "cards/reef", "cards/gust"}
    for rel, digest in saved["outputs"].items():  # the hashes of the files the build wrote
        assert hashlib.sha256((out / "g" / rel).read_bytes()).hexdigest() == digest
    assert "g-cards.pdf" in saved["outputs"]
    again = run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    assert "wrote" not in again.output  # releases/ is no input: nothing is drawn again

    exists = run("release", str(game), "-o", str(out), ok=False)
    assert "exists" in str(exists.exception) and "--force" in exists.exception.hint
    other = run("release", str(game), "-o", str(out), "--version", "2.0", ok=False)
    assert "game.toml says version = '1.0'" in str(other.exception)

    playtest_changes(game)
    stale = run("release", str(game), "-o", str(out), "--force", ok=False)
    assert "not of G as it is now" in str(stale.exception)
    d = diff_json(game, out, "--since", "v1.0")
    assert d["since"] == "release 1.0" and d["old_version"] == "1.0"
    assert {c["piece"] for c in d["changed"]} == {"cards/spark", "cards/tide", "cards/gust"}


def test_changed_since_reprints_exactly_the_changed_and_added_cards(tmp_path):
    import pdfplumber

    game, out = make_game(tmp_path), tmp_path / "out"
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    run("release", str(game), "-o", str(out))
    playtest_changes(game)
    done = run("build", str(game), "-o", str(out), "--changed-since", "1.0")
    assert "cards-changed: 6 cards on 1 sheet(s)" in done.output
    with pdfplumber.open(out / "g" / "g-cards-changed.pdf") as pdf:
        assert len(pdf.pages) == 4  # calibration front and back, one sheet of faces, its backs
        words = [w["text"] for w in pdf.pages[2].extract_words()]
        titles = sorted(w for w in words if w in ("Sparks", "Spark", "Tide", "Wave", "Gust", "Reef"))
        assert titles == ["Sparks", "Sparks", "Tide", "Tide", "Wave", "Wave"]  # not gust: data only
        assert len(pdf.pages[3].chars) == 0 or "Gust" not in pdf.pages[3].extract_text()
    with pdfplumber.open(out / "g" / "g-changes.pdf") as pdf:
        assert len(pdf.pages) == 1
        lines = pdf.pages[0].extract_text().splitlines()
    take = lines.index("Take out of the old print: 3")
    put = lines.index("Put in from these sheets: 3")
    keep = lines.index("Keep as printed (only data that prints nowhere changed): 1")
    assert [line.split("x", 1)[1].strip() for line in lines[take + 1:put]] == \
           ["cards/spark (Spark)", "cards/tide (Tide)", "cards/reef (Reef)"]
    assert [line.split("x", 1)[1].strip() for line in lines[put + 1:keep]] == \
           ["cards/spark (Sparks)", "cards/tide (Tide)", "cards/wave (Wave)"]
    assert lines[keep + 1].strip() == "cards/gust (Gust)"
    assert (out / "g" / "g-cards.pdf").is_file()  # the full build's sheets stay as they are


def test_check_finds_what_changed_since_would_refuse(tmp_path):
    game, out = make_game(tmp_path), tmp_path / "out"
    checked = run("check", str(game), "-o", str(out), "--changed-since", "2.0", "--format", "json", ok=False)
    assert checked.exit_code == 1
    (finding,) = [f for r in json.loads(checked.output) for f in r["findings"] if f["severity"] == "error"]
    assert finding["rule"] == "versions.ref" and "--changed-since 2.0: no release 2.0" in finding["message"]
    assert "pnp release" in finding["hint"]
    built = run("build", str(game), "-o", str(out), "--changed-since", "2.0", ok=False)
    assert built.exit_code == 1 and "versions.ref" in built.output and not (out / "g").exists()
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    assert run("check", str(game), "-o", str(out), "--changed-since", "last").exit_code == 0


def test_the_diff_in_markdown_is_a_changelog_page_of_the_rulebook(tmp_path):
    import pdfplumber

    game, out = make_game(tmp_path), tmp_path / "out"
    run("build", str(game), "-o", str(out), "-q", "--no-contact-sheets")
    run("release", str(game), "-o", str(out))
    playtest_changes(game)
    md = run("diff", str(game), "-o", str(out), "--since", "1.0", "--format", "md").output
    (game / "templates" / "changes.md").write_text(md)
    template = game / "templates" / "rulebook.md.j2"
    text = template.read_text().replace('"reef"', '"gust"')  # the rulebook showed the card removed
    template.write_text(text + '\n---\n\n{% include "changes.md" %}\n')
    run("rulebook", str(game), "-o", str(out), "-q")
    with pdfplumber.open(out / "g" / "g-rulebook.pdf") as pdf:
        last = " ".join(pdf.pages[-1].extract_text().split())
    assert "G v1.0: cards 3 changed, 1 added, 1 removed since release 1.0" in last
    assert "cards/spark (face); title: Spark → Sparks" in last and "Data only" in last


def test_visual_puts_each_changed_card_beside_its_old_self_with_the_change_framed(tmp_path):
    import pdfplumber

    from pnp.outputs.visual import HIGHLIGHT

    game, out = make_game(tmp_path), tmp_path / "out"
    git = ["git", "-C", str(game), "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "v1"], check=True)
    playtest_changes(game)
    pdf_path = tmp_path / "visual.pdf"
    done = run("diff", str(game), "-o", str(out), "--since", "HEAD", "--visual", str(pdf_path))
    assert f"wrote {pdf_path} (4 cards, old beside new)" in done.output  # spark, tide, wave added, reef removed
    with pdfplumber.open(pdf_path) as pdf:
        words = [w["text"] for p in pdf.pages for w in p.extract_words()]
        assert [w for w in words if w.startswith("cards/")] == ["cards/spark", "cards/tide", "cards/wave", "cards/reef"]
        assert "Gust" not in words  # data only: nothing to see
        page = pdf.pages[0]
        def colour(r):
            c = r.get("stroking_color") or ()
            return tuple(round(v, 2) for v in (c if isinstance(c, (list, tuple)) else (c,)))

        red = [r for r in page.rects if colour(r) == HIGHLIGHT]
        # the frames of the two cards each row shows: old left, new right (grey outlines)
        frames = sorted((r for r in page.rects if abs(r["width"] - 63.5 * 72 / 25.4) < 0.1), key=lambda r: r["x0"])
        new_x0 = max(r["x0"] for r in frames)
        assert len(red) == 2 and all(r["x0"] >= new_x0 for r in red)  # on the new cards only
        titles = [w for w in page.extract_words() if w["text"] in ("Sparks", "Draw")]
        spark_red = min(red, key=lambda r: r["top"])
        sparks = min((w for w in titles if w["text"] == "Sparks"), key=lambda w: w["x0"])  # the card, not the note
        assert spark_red["x0"] <= sparks["x1"] <= spark_red["x1"] + 1  # the frame holds the new letter
    refused = run("diff", str(game), "-o", str(out), "--visual", str(pdf_path), ok=False)  # last: never built
    assert refused.exception.rule == "versions.ref" and "has no build" in str(refused.exception)
    assert "pnp build" in refused.exception.hint


@pytest.mark.parametrize("name, link", [("../outside.txt", ""), ("a/link", "../../etc"), ("a/../../up", "")])
@pytest.mark.parametrize("has_filter", [True, False])
def test_an_archive_member_leading_outside_the_scratch_folder_is_refused(tmp_path, monkeypatch, name, link,
                                                                          has_filter):
    from pnp.core.errors import PnpError
    from pnp.pipeline.versions import _extract

    if not has_filter:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo(name)
        if link:
            info.type, info.linkname = tarfile.SYMTYPE, link
            tar.addfile(info)
        else:
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    dest = tmp_path / "scratch"
    dest.mkdir()
    with tarfile.open(fileobj=io.BytesIO(buf.getvalue())) as tar:
        with pytest.raises(PnpError, match="cannot be read safely") as info:
            _extract(tar, str(dest), "--since v1: g")
    assert str(info.value).startswith("--since v1: g") and not (tmp_path / "outside.txt").exists()


@pytest.mark.parametrize("has_filter", [True, False])
def test_an_absolute_archive_name_is_extracted_inside_the_scratch_folder(tmp_path, monkeypatch, has_filter):
    from pnp.pipeline.versions import _extract

    if not has_filter:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("/g/cards.csv")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"hi"))
    dest = tmp_path / "scratch"
    dest.mkdir()
    with tarfile.open(fileobj=io.BytesIO(buf.getvalue())) as tar:
        _extract(tar, str(dest), "--since v1: g")
    assert (dest / "g" / "cards.csv").read_bytes() == b"hi"
