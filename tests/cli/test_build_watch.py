"""`pnp build --watch`: builds, then builds again when a file of the game is saved, until Ctrl-C.
Measured in the PDF it writes: the card whose cell changed is drawn in its new colour."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pypdfium2 as pdfium

from conftest import CTRL_C_REACHES
from sheetgeom import MM, open_pdf, trims

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DPI = 300
CARD_H = 88.9 * MM


def _band_colour(pdf: Path, slot: int) -> tuple[int, int, int]:
    """The colour 1 mm inside the left trim edge, 40 mm below the top, of the card in ``slot``
    (reading order) of the first front sheet (page 3): the tiny game's bleed band, left of the
    white panel (which starts 4 mm in), at 300 dpi."""
    with open_pdf(pdf) as doc:
        page = doc.pages[2]
        card = trims(page, back=False, card_h=CARD_H)[slot]
        height = page.height
    x_pt, y_pt = card.x + 1 * MM, card.y + CARD_H - 40 * MM
    image = pdfium.PdfDocument(str(pdf))[2].render(scale=DPI / 72).to_pil().convert("RGB")
    return image.getpixel((round(x_pt * DPI / 72), round((height - y_pt) * DPI / 72)))


def _close(rgb, hex_colour: str, tol: int = 4) -> bool:
    want = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= tol for a, b in zip(rgb, want))


def test_build_watch_rebuilds_the_pdf_when_a_cell_is_saved(tmp_path):
    game = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game)
    manifest = game / "game.toml"  # without the stated count of red cards, which the edit changes
    red = '[[totals]]\ncomponent = "cards"\nwhere = { colour = "red" }\ncount = 3\nlabel = "red action cards"\nsource = "Components"\n'
    assert red in manifest.read_text(encoding="utf-8")
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(red, ""), encoding="utf-8")
    out = tmp_path / "out"
    pdf = out / "tiny" / "tiny-cards.pdf"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "build", str(game), "-o", str(out), "--watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "200"}, **CTRL_C_REACHES)
    lines: list[str] = []
    watching = threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            if "watching" in line:
                watching.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert watching.wait(90), "".join(lines)
        assert pdf.is_file(), "".join(lines)
        first = pdf.read_bytes()
        assert _close(_band_colour(pdf, 3), "#27AE60")  # slots 0-2: fire x3; slot 3: leaf, green
        watching.clear()
        cards = game / "cards.csv"
        cards.write_text(cards.read_text(encoding="utf-8").replace("leaf,Leaf,1,green", "leaf,Leaf,1,red"),
                         encoding="utf-8")
        assert watching.wait(90), "".join(lines)
        assert pdf.read_bytes() != first
        assert _close(_band_colour(pdf, 3), "#C0392B"), "".join(lines)
        assert _close(_band_colour(pdf, 0), "#C0392B")  # fire was red already
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "".join(lines)
