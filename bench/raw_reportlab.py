"""The reportlab floor: the Periodic Shed draw deck drawn with reportlab alone.

This script is the lower bound `bench/run.py` compares `pnp build` with. It draws the same cards
on the same sheets as `pnp build GAME --no-contact-sheets` does for a Periodic Shed-shaped game
folder (``cards.csv``, ``families.csv`` and ``game.toml``'s ``[colors]``):

- US Letter portrait (612 x 792 pt), poker cards (2.5 x 3.5 in = 180 x 252 pt) 3 x 3, centred,
  5 mm ink-free margin, 1/8 in bleed where the margin leaves a 3 mm crop mark, crop marks
  outside the grid for the filled rows and columns: the formulas of ``pnp.geometry.impose`` (copied
  here so the floor imports nothing of pnp);
- a calibration sheet and its back first, then each front sheet followed by its back sheet,
  backs mirrored for a long-edge flip;
- the faces and the shared back of ``templates/periodic-shed/layouts.toml``: every box, text,
  shape, icon and line at its position and size (the element and action faces, the
  ``periodic-back`` back), in the DejaVu TrueType fonts pnp embeds.

What it leaves out, because a hand-written script knows its data: templating, text fitting (it
shrinks a line only when it is wider than its box, it never searches sizes), inline icons in the
rule text (the text is drawn as written), glyph and overflow preflight, and validation.

Usage: ``python bench/raw_reportlab.py GAME_DIR -o OUT.pdf``. Rows with copies 0 are skipped and
a row with copies N is drawn N times, as pnp does. Writes one PDF; prints nothing.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import math
import sys
import tomllib
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

MM = 72 / 25.4
PAPER = (612.0, 792.0)  # US Letter, pt
CARD = (180.0, 252.0)  # poker, 2.5 x 3.5 in, pt
MARGIN = 5 * MM
BLEED = 9.0
MARK_GAP = 0.5 * MM
MARK_PREF = 3 * MM
MARK_MIN = 0.5 * MM
MARK_WIDTH = 0.5
SANS, BOLD = "raw-sans", "raw-sans-bold"
METRICS: dict[str, tuple[float, float]] = {}
"""Ascent and descent (positive, per pt of size) of each registered font."""


def register_fonts() -> None:
    """Register DejaVu Sans and Sans Bold (the files pnp embeds) with reportlab."""
    spec = importlib.util.find_spec("matplotlib")
    root = Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
    pdfmetrics.registerFont(TTFont(SANS, str(root / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(root / "DejaVuSans-Bold.ttf")))
    for name in (SANS, BOLD):
        face = pdfmetrics.getFont(name).face
        METRICS[name] = (face.ascent / 1000, -face.descent / 1000)


# ---------------------------------------------------------------------------------------------
# Sheet geometry (pnp.geometry.impose.fit_grid and Grid.crop_marks, for one card size on one paper)

def grid():
    """(cols, rows, origin_x, origin_y, bleed_x, bleed_y) of poker cards on Letter."""
    pw, ph = PAPER
    cw, ch = CARD
    cols = int((pw - 2 * MARGIN + 1e-6) // cw)
    rows = int((ph - 2 * MARGIN + 1e-6) // ch)
    ox, oy = (pw - cols * cw) / 2, (ph - rows * ch) / 2

    def outer(space: float) -> float:
        return max(0.0, min(BLEED, space - MARK_GAP - MARK_PREF))

    return cols, rows, ox, oy, outer(ox - MARGIN), outer(oy - MARGIN)


def crop_marks(cols, rows, ox, oy, bx, by, filled):
    """Crop mark segments in the margin outside the grid, one per cut line end of the columns
    and rows that hold one of the ``filled`` cards."""
    pw, ph = PAPER
    cw, ch = CARD
    used_cols, used_rows = min(filled, cols), min(rows, -(-filled // cols))
    xs = sorted({round(ox + c * cw + d, 6) for c in range(used_cols) for d in (0, cw)})
    ys = sorted({round(oy + (rows - 1 - r) * ch + d, 6) for r in range(used_rows) for d in (0, ch)})
    left, bottom, right, top = ox, oy, ox + cols * cw, oy + rows * ch
    gx, gy = bx + (MARK_GAP if bx else 0.0), by + (MARK_GAP if by else 0.0)
    marks = []
    lo, hi = bottom - gy, top + gy
    if lo - MARGIN >= MARK_MIN:
        marks += [(x, MARGIN, x, lo) for x in xs]
    if ph - MARGIN - hi >= MARK_MIN:
        marks += [(x, hi, x, ph - MARGIN) for x in xs]
    lo, hi = left - gx, right + gx
    if lo - MARGIN >= MARK_MIN:
        marks += [(MARGIN, y, lo, y) for y in ys]
    if pw - MARGIN - hi >= MARK_MIN:
        marks += [(hi, y, pw - MARGIN, y) for y in ys]
    return marks


# ---------------------------------------------------------------------------------------------
# Drawing: boxes are given in mm from the trim's top-left corner, as in layouts.toml

class Card:
    """One card's trim at (x, y) pt (bottom-left) with drawing methods that take layout mm."""

    def __init__(self, c, x: float, y: float):
        self.c, self.x, self.y = c, x, y

    def box(self, x, y, w, h):
        return self.x + x * MM, self.y + CARD[1] - (y + h) * MM, w * MM, h * MM

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0.5, radius=0.0):
        bx, by, bw, bh = self.box(x, y, w, h)
        paint(self.c, fill, stroke, width)
        if radius:
            self.c.roundRect(bx, by, bw, bh, radius * MM, stroke=stroke is not None, fill=fill is not None)
        else:
            self.c.rect(bx, by, bw, bh, stroke=stroke is not None, fill=fill is not None)

    def ellipse(self, x, y, w, h, fill=None, stroke=None, width=0.5):
        bx, by, bw, bh = self.box(x, y, w, h)
        paint(self.c, fill, stroke, width)
        self.c.ellipse(bx, by, bx + bw, by + bh, stroke=stroke is not None, fill=fill is not None)

    def line(self, x1, y1, x2, y2, stroke, width):
        paint(self.c, None, stroke, width)
        top = self.y + CARD[1]
        self.c.line(self.x + x1 * MM, top - y1 * MM, self.x + x2 * MM, top - y2 * MM)

    def text(self, x, y, w, h, text, size, color, font=BOLD, align="center", valign="middle"):
        """One line of text in a box, at the size pnp settles on: no taller than the box
        allows at a 1.2 leading (in 0.25 pt steps), narrowed once if wider than the box."""
        bx, by, bw, bh = self.box(x, y, w, h)
        if size * 1.2 > bh:
            size -= 0.25 * math.ceil((size - bh / 1.2) / 0.25 - 1e-9)
        width = pdfmetrics.stringWidth(text, font, size)
        if width > bw:
            size, width = size * bw / width, bw
        ascent, descent = METRICS[font]
        ascent, descent = ascent * size, descent * size
        if valign == "middle":
            top = by + bh - (bh - ascent - descent) / 2
        elif valign == "top":
            top = by + bh
        else:
            top = by + ascent + descent
        left = bx + (bw - width) / 2 if align == "center" else (bx + bw - width if align == "right" else bx)
        self.c.setFillColor(color)
        self.c.setFont(font, size)
        self.c.drawString(left, top - ascent, text)

    def paragraph(self, x, y, w, h, text, size, color, leading=1.18):
        bx, by, bw, bh = self.box(x, y, w, h)
        lines = []
        for para in text.split("\n"):
            lines += simpleSplit(para, SANS, size, bw)
        step = size * leading
        base = by + bh / 2 + (len(lines) * step) / 2 - 0.93 * size
        self.c.setFillColor(color)
        self.c.setFont(SANS, size)
        for i, line in enumerate(lines):
            self.c.drawString(bx, base - i * step, line)

    def pill(self, x, y, size, label, fill, stroke, label_color, scale, font=BOLD, shape="rounded"):
        """An icon as pnp draws one: a shape of ``size`` pt, widened for labels over 2 letters."""
        width = size
        if label and len(label) > 2:
            width = max(size, pdfmetrics.stringWidth(label, font, 1) * size * 0.5 + size * 0.5)
        paint(self.c, fill, stroke, max(0.4, size * 0.04))
        if shape == "circle" and width == size:
            self.c.ellipse(x, y, x + size, y + size, stroke=stroke is not None, fill=fill is not None)
        else:
            radius = size / 2 if width != size else size * 0.2
            self.c.roundRect(x, y, width, size, radius, stroke=stroke is not None, fill=fill is not None)
        if label:
            fs = size * scale
            lw = pdfmetrics.stringWidth(label, font, fs)
            if lw > width * 0.86:
                fs *= width * 0.86 / lw
                lw = width * 0.86
            self.c.setFillColor(label_color)
            self.c.setFont(font, fs)
            self.c.drawString(x + (width - lw) / 2, y + size / 2 - fs * 0.36, label)
        return width


def paint(c, fill, stroke, width) -> None:
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(width)


# ---------------------------------------------------------------------------------------------
# The Periodic Shed faces and back (templates/periodic-shed/layouts.toml)

DARK_LABEL_FAMILIES = {"boron-group", "chalcogen", "lanthanide", "noble-gas"}
PILLS = {  # icon: (fill, stroke, label, label colour)
    "metal": ("metal_grey", "metal_grey", "METAL", "white"),
    "nonmetal": ("white", "text_dark", "NON-METAL", "text_dark"),
    "radioactive": ("badge_radioactive", "text_dark", "RADIOACTIVE", "text_dark"),
    "magnet": ("badge_magnet", "badge_magnet", "MAGNET", "white"),
    "combo": ("white", "ferro_border", "COMBO", "ferro_border"),
}
ACTION_FRAME = {"fission": "action_fission", "fusion": "action_fusion",
                "event-horizon": "action_event_horizon", "temperature": "action_temperature"}
TEMPERATURES = [300, 600, 1000, 1500, 2500]


def family_badge(card: Card, fam: dict, x: float, y: float, size: float, P) -> float:
    label_color = P["text_dark"] if fam["id"] in DARK_LABEL_FAMILIES else P["text_light"]
    return card.pill(x, y, size, fam["glyph"], fam["colour"], P["white"], label_color, 0.72)


def element_face(card: Card, row: dict, fams: dict, P) -> None:
    c = card.c
    fam = fams[row["family"]]
    card.rect(3.5, 3.5, 56.5, 81.9, fill=P["white"], radius=2.5)
    if row["ferromagnetic"] == "yes":
        card.rect(4.4, 4.4, 54.7, 80.1, stroke=P["ferro_border"], width=0.9 * MM, radius=2)
    bx, by, _, _ = card.box(5.2, 5.2, 13, 13)
    family_badge(card, fam, bx, by, 13 * MM, P)
    card.text(4.7, 18.6, 14, 6, row["symbol"], 13, P["text_dark"], valign="top")
    if row["radioactive"] == "yes":
        card.rect(41, 5, 16.6, 8.4, fill=P["badge_radioactive"], stroke=P["text_dark"], width=0.35 * MM,
                  radius=1.4)
    card.text(41, 5, 16.6, 8.4, row["atomic_number"], 22, P["text_dark"])
    place = (f"Group {row['group']} · " if row["group"] else "") + f"Period {row['period']}"
    card.text(29, 14, 28.6, 4, place, 7.5, P["metal_grey"], font=SANS, align="right", valign="top")
    card.text(5, 22, 53.5, 25, row["symbol"], 80, P["text_dark"])
    card.text(5, 46.5, 53.5, 8, row["title"], 16, P["text_dark"])
    card.rect(3.5, 55.6, 56.5, 8.4, fill=fam["colour"])
    label = P["text_dark"] if fam["id"] in DARK_LABEL_FAMILIES else P["text_light"]
    card.text(5.8, 55.6, 51.9, 8.4, f"{fam['glyph']} {fam['name']}", 11.5, label)
    card.text(5, 65.6, 53.5, 3.6, "MELTING POINT", 7, P["metal_grey"], valign="top")
    melt = f"{float(row['melting_point_k']):.2f} K" if row["melting_point_k"] else "—"
    card.text(5, 69.2, 53.5, 7, melt, 15, P["text_dark"])
    items = ["metal" if row["metal"] == "yes" else "nonmetal"]
    items += [i for i in row["icons"].split(";") if i and i != "metal"]
    size, spacing = 5.4 * MM, 1.2 * MM
    widths = [max(size, pdfmetrics.stringWidth(PILLS[i][2], BOLD, 1) * size * 0.5 + size * 0.5) for i in items]
    total = sum(widths) + spacing * (len(items) - 1)
    bx, by, bw, bh = card.box(6.3, 77.4, 50.9, 5.4)
    scale = min(1.0, bw / total)
    x = bx + (bw - total * scale) / 2
    for item, w in zip(items, widths):
        fill, stroke, text, color = PILLS[item]
        card.pill(x, by + (bh - size * scale) / 2, size * scale, text, P[fill], P[stroke], P[color], 0.56)
        x += (w + spacing) * scale
    c.setFillColor(P["text_dark"])


def action_face(card: Card, row: dict, fams: dict, P) -> None:
    kind = row["kind"]
    ink = P["text_dark"] if kind == "fusion" else P["text_light"]
    card.rect(3.5, 56, 56.5, 29.4, fill=P["white"], radius=2.5)
    card.text(5, 4.8, 53.5, 4, "ACTION CARD", 7, ink, valign="top")
    card.text(5, 9, 53.5, 10, "Temperature" if kind == "temperature" else row["title"], 22, ink)
    if kind in ("fission", "fusion"):
        size, spacing = 15 * MM, 3 * MM
        other = fams["alkali" if kind == "fission" else "alkaline-earth"]
        bx, by, bw, bh = card.box(5, 24, 53.5, 15)
        x = bx + (bw - 3 * size - 2 * spacing) / 2
        family_badge(card, fams["chalcogen"], x, by, size, P)
        card.pill(x + size + spacing, by, size, "=", P["white"], P["white"], P["text_dark"], 0.8, shape="circle")
        family_badge(card, other, x + 2 * (size + spacing), by, size, P)
        card.text(5, 41, 53.5, 6, "Chalcogens match", 11, ink)
        card.text(5, 47, 53.5, 6, other["name"], 11, ink)
    elif kind == "event-horizon":
        card.ellipse(6.75, 20, 50, 35, stroke=HexColor("#5A2A0A"), width=0.8 * MM)
        card.ellipse(10.75, 23, 42, 29, stroke=HexColor("#B4530F"), width=1.2 * MM)
        card.ellipse(14.75, 25.75, 34, 23.5, stroke=P["badge_magnet"], width=1.6 * MM)
        card.ellipse(18.25, 28.5, 27, 18, fill=P["black"], stroke=P["action_fusion"], width=0.9 * MM)
        card.text(5, 33, 53.5, 8, "YOU WIN", 12, P["white"])
    elif kind == "temperature":
        kelvin = int(row["temperature_k"])
        card.text(5, 20, 53.5, 22, f"{kelvin} K", 54, P["text_light"])
        size, spacing = 4 * MM, 2.4 * MM
        bx, by, bw, bh = card.box(12, 43, 39.5, 4)
        on = TEMPERATURES.index(kelvin) + 1
        x = bx + (bw - 5 * size - 4 * spacing) / 2
        for i in range(5):
            card.pill(x + i * (size + spacing), by, size, "", P["white"] if i < on else None, P["white"], None,
                      0.5, shape="circle")
        card.text(5, 48.5, 53.5, 5, "melts metals at or below", 9, P["text_light"])
    card.paragraph(5.5, 57.5, 52.5, 26.4, row["rule_text"], 9, P["text_dark"])


BACK_RECTS = [  # (x, y, w, h, colour) in mm, the periodic table on the deck back
    (4.75, 32.5, 3.0, 25.2, "family_alkali"), (7.75, 36.1, 3.0, 21.6, "family_alkaline_earth"),
    (10.75, 43.3, 15.0, 14.4, "family_early_transition"), (10.75, 50.5, 3.0, 3.6, "family_lanthanide"),
    (10.75, 54.1, 3.0, 3.6, "#55575A"), (25.75, 43.3, 15.0, 14.4, "family_late_transition"),
    (40.75, 36.1, 3.0, 21.6, "family_boron_group"), (43.75, 36.1, 3.0, 21.6, "family_carbon_group"),
    (46.75, 36.1, 3.0, 21.6, "family_pnictogen"), (49.75, 36.1, 3.0, 21.6, "family_chalcogen"),
    (52.75, 36.1, 3.0, 21.6, "family_halogen"), (55.75, 32.5, 3.0, 25.2, "family_noble_gas"),
    (12.25, 59.5, 45.0, 3.6, "family_lanthanide"), (12.25, 63.1, 45.0, 3.6, "#55575A"),
]
BACK_LINES = (
    [(4.75 + 3 * i, 32.0, 4.75 + 3 * i, 58.2) for i in range(19)]
    + [(4.25, 32.5 + 3.6 * i, 59.25, 32.5 + 3.6 * i) for i in range(8)]
    + [(12.25 + 3 * i, 59.0, 12.25 + 3 * i, 67.2) for i in range(16)]
    + [(11.75, 59.5 + 3.6 * i, 57.75, 59.5 + 3.6 * i) for i in range(3)]
)


def deck_back(card: Card, P) -> None:
    card.rect(3.2, 3.2, 57.1, 82.5, stroke=HexColor("#3A4A6B"), width=0.6 * MM, radius=2.5)
    card.text(5, 9, 53.5, 10, "PERIODIC", 24, P["white"])
    card.text(5, 18.5, 53.5, 10, "SHED", 24, P["badge_radioactive"])
    for x, y, w, h, colour in BACK_RECTS:
        card.rect(x, y, w, h, fill=P[colour] if colour in P else HexColor(colour))
    for x1, y1, x2, y2 in BACK_LINES:
        card.line(x1, y1, x2, y2, P["deck_back"], 0.45 * MM)
    card.text(5, 75, 53.5, 6, "118 ELEMENTS · 10 ACTIONS", 8, HexColor("#9FB0CF"))


def draw_card(c, x, y, bleed, background, draw, *args) -> None:
    """Clip to the card's bleed rectangle, paint the background, draw the boxes."""
    bl, bb, br, bt = bleed
    c.saveState()
    path = c.beginPath()
    path.rect(x - bl, y - bb, CARD[0] + bl + br, CARD[1] + bb + bt)
    c.clipPath(path, stroke=0, fill=0)
    c.setFillColor(background)
    c.rect(x - bl, y - bb, CARD[0] + bl + br, CARD[1] + bb + bt, stroke=0, fill=1)
    draw(Card(c, x, y), *args)
    c.restoreState()


def face(card: Card, row, fams, P) -> None:
    frame = fams[row["family"]]["colour"] if row["layout"] == "element" else P[ACTION_FRAME[row["kind"]]]
    bl = 20  # the frame box covers the bleed area; the card's clip path trims it
    card.c.setFillColor(frame)
    card.c.rect(card.x - bl, card.y - bl, CARD[0] + 2 * bl, CARD[1] + 2 * bl, stroke=0, fill=1)
    (element_face if row["layout"] == "element" else action_face)(card, row, fams, P)


def calibration(c, title: str) -> None:
    """The calibration sheet pair: title, instructions, scale check, registration crosses."""
    pw, ph = PAPER
    m = MARGIN + 5 * MM
    c.setFont(BOLD, 18)
    c.drawString(m, ph - m - 14, f"{title}: cards")
    c.setFont(SANS, 9.5)
    for i, line in enumerate(["Print at 100 % / Actual size. Turn off 'fit to page' and 'scale'.",
                              "Check the scale: the bar below must measure 50 mm and the square 1 in.",
                              "Print both sides, flipping on the long edge."]):
        c.drawString(m, ph - m - 40 - i * 13, line)
    y = ph - m - 40 - 3 * 13 - 40 * MM
    c.rect(m, y, 50 * MM, 3 * MM, stroke=0, fill=1)
    c.rect(m + 60 * MM, y, 72, 72, stroke=0, fill=1)
    for back in (False, True):
        for fx, fy in ((0.25, 0.3), (0.75, 0.3), (0.5, 0.55)):
            cx, cy = ((1 - fx) if back else fx) * pw, fy * ph
            c.setLineWidth(0.4)
            c.line(cx - 8 * MM, cy, cx + 8 * MM, cy)
            c.line(cx, cy - 8 * MM, cx, cy + 8 * MM)
            c.circle(cx, cy, 3 * MM, stroke=1, fill=0)
            if back:
                for k in range(-6, 7):
                    tick = (2 if k % 5 == 0 else 1) * MM
                    c.line(cx + k * MM, cy + 10 * MM, cx + k * MM, cy + 10 * MM + tick)
                    c.line(cx + 10 * MM, cy + k * MM, cx + 10 * MM + tick, cy + k * MM)
        c.showPage()


def render(game_dir: Path, out: Path) -> int:
    """Draw every card of ``game_dir``'s cards.csv onto Letter sheets; returns the card count."""
    register_fonts()
    manifest = tomllib.loads((game_dir / "game.toml").read_text(encoding="utf-8"))
    P = {name: HexColor(value) for name, value in manifest.get("colors", {}).items()}
    P.update(white=HexColor("#FFFFFF"), black=HexColor("#000000"))
    with open(game_dir / "families.csv", encoding="utf-8", newline="") as fh:
        fams = {r["id"]: dict(r, colour=HexColor(r["colour"])) for r in csv.DictReader(fh)}
    cards = []
    with open(game_dir / "cards.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            cards += [row] * int(row["copies"] or 0)
    title = manifest["game"]["title"]
    c = canvas.Canvas(str(out), pagesize=PAPER, invariant=1, pageCompression=1, initialFontName=SANS,
                      initialFontSize=9)
    c.setTitle(f"{title} - cards")
    c.setCreator("raw reportlab")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    calibration(c, title)
    cols, rows, ox, oy, bx, by = grid()
    per = cols * rows
    for start in range(0, len(cards), per):
        chunk = cards[start:start + per]
        for back in (False, True):
            for i, row in enumerate(chunk):
                r, col = divmod(i, cols)
                if back:
                    col = cols - 1 - col  # long-edge flip mirrors the columns
                x, y = ox + col * CARD[0], oy + (rows - 1 - r) * CARD[1]
                bleed = (bx if col == 0 else 0, by if r == rows - 1 else 0,
                         bx if col == cols - 1 else 0, by if r == 0 else 0)
                if back:
                    draw_card(c, x, y, bleed, P["deck_back"], deck_back, P)
                else:
                    draw_card(c, x, y, bleed, P["white"], face, row, fams, P)
            if not back:
                c.saveState()
                c.setStrokeColorRGB(0, 0, 0)
                c.setLineWidth(MARK_WIDTH)
                for x1, y1, x2, y2 in crop_marks(cols, rows, ox, oy, bx, by, len(chunk)):
                    c.line(x1, y1, x2, y2)
                c.restoreState()
            c.showPage()
    c.save()
    return len(cards)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", type=Path, help="a Periodic Shed-shaped game folder")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the PDF to write")
    args = parser.parse_args(argv)
    render(args.game, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
