"""The pixel limit (``--max-image-pixels``) holds in every renderer: card sheets, boards, tokens,
the rulebook (its pictures, the cards it draws and the icons in its text) and every kind of
export (PNG, Tabletop Simulator, CMYK PDF). A 40 x 40 px picture against a limit of 1,000
pixels is refused in each, with the same rule id and location in the dry run (``pnp check``)
as in the build, naming the pixel count, the limit and the option; under the default limit the
same picture is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pnp.model.games import GameSource
from pnp.outputs.base import BuildSettings, SheetOptions
from pnp.pipeline.build import BuildJob, run_game

LIMIT = 1000
SAID = "'art/pic.png' is 40 x 40 = 1,600 pixels, more than the limit of 1,000"


def append(path: Path, text: str) -> int:
    """Append ``text`` to ``path``; returns the number of the (last) line naming the picture."""
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    return max((i for i, line in enumerate(lines, 1) if "art/pic.png" in line), default=0)


def image_box(layout: str, box: str = "art") -> str:
    return (f'\n[layouts.{layout}.boxes.{box}]\ntype = "image"\nimage = "art/pic.png"\nx = "2mm"\ny = "2mm"\n'
            'width = "10mm"\nheight = "10mm"\n')


def card_art(game: Path) -> str:
    line = append(game / "templates" / "layouts.toml", image_box("action"))
    return f"g/templates/layouts.toml:{line} (layouts.action.boxes.art.image)"


def board_art(game: Path) -> str:
    append(game / "game.toml", '\n[components.board]\nkind = "board"\nname = "Board"\nsize = "100mm x 100mm"\n'
                               'layout = "board"\n')
    line = append(game / "templates" / "boards.toml", image_box("board"))
    return f"g/templates/boards.toml:{line} (layouts.board.boxes.art.image)"


def token_art(game: Path) -> str:
    line = append(game / "templates" / "boards.toml", image_box("coin"))
    return f"g/templates/boards.toml:{line} (layouts.coin.boxes.art.image)"


def rulebook_picture(game: Path) -> str:
    (game / "templates" / "rulebook.md.j2").write_text("# Rules\n\n![a picture](art/pic.png)\n", encoding="utf-8")
    return "g/templates/rulebook.md.j2:3"


def rulebook_card(game: Path) -> str:
    where = card_art(game)
    (game / "templates" / "rulebook.md.j2").write_text("# Rules\n\n{{ card('cards', 'fire') }}\n", encoding="utf-8")
    return where


def rulebook_icon(game: Path) -> str:
    line = append(game / "templates" / "layouts.toml", '\n[icons.pic]\nimage = "art/pic.png"\n')
    (game / "templates" / "rulebook.md.j2").write_text("# Rules\n\nPay :pic: to play.\n", encoding="utf-8")
    return f"g/templates/layouts.toml:{line} (icons.pic.image)"


RENDERERS = {
    # renderer: (mutation returning where the finding points, outputs, export targets)
    "card sheets": (card_art, ("cards",), ()),
    "boards": (board_art, ("boards",), ()),
    "tokens": (token_art, ("boards",), ()),
    "rulebook picture": (rulebook_picture, ("rulebook",), ()),
    "card drawn in the rulebook": (rulebook_card, ("rulebook",), ()),
    "icon picture in rulebook text": (rulebook_icon, ("rulebook",), ()),
    "export png (tgc)": (card_art, ("export",), ("tgc",)),
    "export tts": (card_art, ("export",), ("tts",)),
    "export cmyk pdf (dtc)": (card_art, ("export",), ("dtc",)),
}


def runs(game: Path, out: Path, outputs, targets, max_pixels):
    source = GameSource(game, "g", game / "templates", "g/templates")
    settings = BuildSettings(SheetOptions(contact_sheets=False), max_image_pixels=max_pixels, outputs=outputs,
                             targets=targets, manifest_targets=False)
    return (run_game(BuildJob(source, out, settings, write=False)),
            run_game(BuildJob(source, out, settings, write=True)))


@pytest.mark.parametrize("renderer", list(RENDERERS))
def test_every_renderer_refuses_art_over_the_limit_in_check_and_build_alike(renderer, tiny, tmp_path):
    mutate, outputs, targets = RENDERERS[renderer]
    (tiny / "art").mkdir()
    Image.new("RGB", (40, 40), (200, 40, 40)).save(tiny / "art" / "pic.png")
    where = mutate(tiny)
    ok_dry, ok_built = runs(tiny, tmp_path / "ok", outputs, targets, None)
    assert not [f for f in ok_dry.findings + ok_built.findings if f.severity == "error"], ok_dry.findings
    assert ok_built.written and any(p.suffix in (".pdf", ".png") for r in ok_built.ran.values() for p in r.files)
    dry, built = runs(tiny, tmp_path / "out", outputs, targets, LIMIT)
    refused = [(f.rule, f.location, f.message, f.hint) for f in dry.findings if f.severity == "error"]
    assert refused == [(f.rule, f.location, f.message, f.hint) for f in built.findings if f.severity == "error"]
    assert len(refused) == 1, refused
    rule, location, message, hint = refused[0]
    assert (rule, location) == ("layout.art-unreadable", where)
    assert SAID in message
    assert "--max-image-pixels 1600" in hint
    assert built.refused == "errors" and not (tmp_path / "out").exists()  # nothing written
