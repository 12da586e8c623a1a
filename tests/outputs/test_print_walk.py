"""Every PDF pnp writes, walked as a print shop's preflight walks it (tests/pdfwalk.py): what
`pnp build`, `pnp rulebook --booklet` and every export target that writes PDF make for the four
bundled games and the SVG test game (tests/fixtures/svgart: SVG art with <text> in fonts pnp
does not have, a linear and a radial gradient, a picture inside an SVG).

- No page of any of them uses a font that is not embedded (docs/print-specs.md §8 check 6), counting
  the fonts of form XObjects (cards on sheets, booklet pages), patterns, soft masks and Type 3
  glyphs, recursively; a Type 3 font counts as embedded only when it has glyph procedures and
  every font they use is embedded (see tests/pdfwalk.py).
- No CMYK export (dtc, eu) holds RGB anywhere (docs/print-specs.md §8 check 23): no rg/RG, no
  sc/scn in an RGB space, no DeviceRGB, CalRGB or three-channel ICC space, no RGB image, inline
  image, shading or transparency group, inside XObjects too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from pdfwalk import fonts, rgb_uses, unembedded
from pnp.outputs.export import bundled_profiles, load_profile

GAMES = ("ars-alchimia", "assemble", "atomic-assembly", "periodic-shed")
PDF_TARGETS = tuple(name for name in bundled_profiles() if load_profile(name).output == "pdf")
CMYK_TARGETS = tuple(name for name in PDF_TARGETS if load_profile(name).color == "cmyk")

pytestmark = pytest.mark.slow


def _pnp(args: list[str], cwd: Path) -> None:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, f"pnp {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """The output folder after building, printing the booklets of and exporting every game."""
    work = tmp_path_factory.mktemp("walk")
    shutil.copytree(FIXTURES / "svgart", work / "svgart")
    games = [*GAMES, str(work / "svgart")]
    _pnp(["build", "--force", "--no-contact-sheets", "-o", "out", *games], work)
    _pnp(["rulebook", "--booklet", "--force", "-o", "out", *games], work)
    for target in PDF_TARGETS:
        _pnp(["export", "-t", target, "--force", "-o", "out", *games], work)
    return work / "out"


def test_the_walk_covers_every_game_and_every_pdf_target(written):
    assert set(CMYK_TARGETS) == {"dtc", "eu"}
    for game in (*GAMES, "svgart"):
        folder = written / game
        for name in ("cards", "rulebook", "rulebook-booklet"):
            assert (folder / f"{game}-{name}.pdf").is_file(), (game, name)
        for target in PDF_TARGETS:
            assert list((folder / "export" / target).glob("*.pdf")), (game, target)
    assert (written / "svgart" / "svgart-tokens.pdf").is_file()


def test_no_pdf_pnp_writes_uses_a_font_that_is_not_embedded(written):
    pdfs = sorted(written.rglob("*.pdf"))
    assert len(pdfs) >= 5 * 5
    found = {pdf: fonts(pdf) for pdf in pdfs}
    assert all(found.values()), [p.name for p, f in found.items() if not f]  # every file sets text
    assert any(" " in use.path for uses in found.values() for use in uses)  # fonts inside forms were reached
    assert [line for pdf in pdfs for line in unembedded(pdf)] == []


def test_no_cmyk_export_holds_rgb_anywhere(written):
    pdfs = sorted(p for target in CMYK_TARGETS for p in written.glob(f"*/export/{target}/*.pdf"))
    assert len(pdfs) >= 2 * 5
    assert [line for pdf in pdfs for line in rgb_uses(pdf)] == []
    # the same walk does see RGB where there is some: the home sheets are RGB
    assert rgb_uses(written / "svgart" / "svgart-cards.pdf")
