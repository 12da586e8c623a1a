"""Make the picture of docs/export.md's Tabletop Simulator section: a contact image of the table
images ``pnp export ars-alchimia -t tts`` writes beside ``ars-alchimia.json`` (the game board,
a player board, one token of each kind and the die's image), on a grey ground so that the
tokens' transparent corners show.

    python scripts/tts_table_images.py        # writes docs/images/tts-table.png

The images come from the export itself (render_export, in memory), so the picture can be remade
whenever the designs or the writer change.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw

from pnp.design.layouts import game_layouts
from pnp.model.games import find_game
from pnp.model.load import load_game
from pnp.outputs.export import render_export

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images" / "tts-table.png"
WANTED = ("ars-alchimia-board.png", "ars-alchimia-player_board.png", "ars-alchimia-workers-worker-blue.png",
          "ars-alchimia-point_markers-marker-orange.png", "ars-alchimia-cubes-cube-fire.png", "ars-alchimia-die.png")
HEIGHT = 260
"""Pixel height of each image in the picture."""


def main() -> None:
    source = find_game("ars-alchimia")
    game = load_game(source.path, source.display)
    result = render_export(game, game_layouts(game, source), "tts", ROOT / "output", source=source, jobs=1)
    files = {path.name: data for path, data in result.outputs}
    tiles = []
    for name in WANTED:
        image = Image.open(io.BytesIO(files[name])).convert("RGBA")
        height = HEIGHT if "board" in name or name.endswith("die.png") else 120  # tokens smaller
        tiles.append((name, image.resize((round(image.width * height / image.height), height), Image.LANCZOS)))
    gap = 16
    slots = [max(t.width, 7 * len(name.removeprefix("ars-alchimia-"))) for name, t in tiles]  # room for the label
    width = sum(slots) + gap * (len(tiles) + 1)
    sheet = Image.new("RGBA", (width, HEIGHT + 2 * gap + 18), (150, 150, 150, 255))
    draw = ImageDraw.Draw(sheet)
    x = gap
    for (name, tile), slot in zip(tiles, slots):
        sheet.alpha_composite(tile, (x + (slot - tile.width) // 2, gap + (HEIGHT - tile.height) // 2))
        draw.text((x, HEIGHT + gap + 4), name.removeprefix("ars-alchimia-"), fill=(0, 0, 0, 255))
        x += slot + gap
    OUT.parent.mkdir(parents=True, exist_ok=True)
    sheet.convert("RGB").save(OUT, optimize=True)
    print(f"wrote {OUT.relative_to(ROOT)} ({sheet.width} x {sheet.height} px)")


if __name__ == "__main__":
    main()
