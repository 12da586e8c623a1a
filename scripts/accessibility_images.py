"""Make the pictures of docs/accessibility.md: one card of each Atomic Assembly element deck (red,
green, yellow) as drawn, and as seen with deuteranopia, protanopia, tritanopia and in greyscale.

    python scripts/accessibility_images.py        # writes docs/images/access-*.png

The cards are drawn as ``pnp build --only`` draws them and transformed with the same code as
``pnp build --simulate`` (pnp.render.vision.simulate_image), so the pictures can be remade
whenever the layouts or the simulation change.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from pnp.core.units import MM
from pnp.design.layouts import game_layouts
from pnp.model.games import find_game
from pnp.model.load import load_game
from pnp.outputs.base import SheetOptions
from pnp.outputs.cards import render_cards
from pnp.render import vision
from pnp.render.raster import pdf_to_png

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
CARDS = ("elements/h", "elements/cu", "elements/si")
DPI = 60


def card(source, game, only: str) -> Image.Image:
    """The first card of ``only`` at DPI, cut from its quick card sheet (with its bleed)."""
    result = render_cards(game, game_layouts(game, source), ROOT / "output", SheetOptions(contact_sheets=False),
                          dry=True, only=(only,))
    pdf = next(data for path, data in result.outputs if path.suffix == ".pdf")
    page = Image.open(io.BytesIO(pdf_to_png(pdf, dpi=DPI, page_index=2))).convert("RGB")
    px = DPI / 72
    w, h = 63.5 * MM * px, 88.9 * MM * px
    left, top = page.width / 2 - 1.5 * w, page.height / 2 - 1.5 * h
    return page.crop((round(left), round(top), round(left + w), round(top + h)))


def cards_strip() -> Image.Image:
    """One card of each deck side by side."""
    source = find_game("atomic-assembly")
    game = load_game(source.path, source.display)
    cards = [card(source, game, only) for only in CARDS]
    gap = 6
    strip = Image.new("RGB", (sum(c.width for c in cards) + gap * (len(cards) - 1), cards[0].height), "white")
    for i, c in enumerate(cards):
        strip.paste(c, (i * (c.width + gap), 0))
    return strip


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    strip = cards_strip()
    strip.save(OUT / "access-normal.png", optimize=True)
    for simulation in vision.SIMULATIONS:
        vision.simulate_image(strip, simulation).save(OUT / f"access-{simulation}.png", optimize=True)
    print(f"wrote {1 + len(vision.SIMULATIONS)} pictures into {OUT}")


if __name__ == "__main__":
    main()
