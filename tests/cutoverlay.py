"""Reading print-and-cut files back: the paths of a cut SVG (in mm, y down) as polylines, and a
render of a sheet at 300 dpi with those paths drawn over it, for looking at.

``python tests/cutoverlay.py SHEETS.pdf PAGE CUT.svg OUT.png`` writes the overlay.
"""

from __future__ import annotations

import math
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TOKEN = re.compile(r"[MLAZ]|-?\d+(?:\.\d+)?")


def _arc(x1, y1, r, large, sweep, x2, y2, steps=24):
    """Points along an SVG circular arc (rx = ry = r, no rotation), endpoint form (SVG 1.1 F.6.5)."""
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    d2 = dx * dx + dy * dy
    r = max(r, math.sqrt(d2))
    f = math.sqrt(max(0.0, (r * r - d2) / d2)) if d2 else 0.0
    if large == sweep:
        f = -f
    cx, cy = (x1 + x2) / 2 + f * dy, (y1 + y2) / 2 - f * dx
    a1 = math.atan2(y1 - cy, x1 - cx)
    a2 = math.atan2(y2 - cy, x2 - cx)
    delta = a2 - a1
    if sweep and delta < 0:
        delta += 2 * math.pi
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    return [(cx + r * math.cos(a1 + delta * k / steps), cy + r * math.sin(a1 + delta * k / steps))
            for k in range(1, steps + 1)], (cx, cy, r)


def parse_path(d: str):
    """(points, arcs) of a path of absolute M, L, A and Z commands: the polyline in mm (y down)
    and each arc's (centre x, centre y, radius)."""
    tokens = TOKEN.findall(d)
    points, arcs = [], []
    i = 0
    cmd = None
    while i < len(tokens):
        if tokens[i] in "MLAZ":
            cmd = tokens[i]
            i += 1
            if cmd == "Z":
                points.append(points[0])
                continue
        if cmd in ("M", "L"):
            points.append((float(tokens[i]), float(tokens[i + 1])))
            i += 2
        elif cmd == "A":
            r, _, _, large, sweep, x, y = (float(t) for t in tokens[i:i + 7])
            more, centre = _arc(*points[-1], r, int(large), int(sweep), x, y)
            points += more
            arcs.append(centre)
            i += 7
    return points, arcs


def svg_paths(path) -> dict[str, list[str]]:
    """The path data of each Inkscape layer of an SVG file, by layer id (``cut``, ``fold``)."""
    root = ET.parse(path).getroot()
    return {g.get("id"): [p.get("d") for p in g.iter(f"{SVG}path")] for g in root.iter(f"{SVG}g")}


def overlay(pdf_path, page: int, svg_path, out_png, dpi: int = 300) -> None:
    """Render ``page`` of ``pdf_path`` at ``dpi`` and draw the SVG's cut paths over it in
    magenta (fold lines in blue), one pixel wide, into ``out_png``."""
    import pypdfium2
    from PIL import ImageDraw

    image = pypdfium2.PdfDocument(str(pdf_path))[page].render(scale=dpi / 72).to_pil().convert("RGB")
    draw = ImageDraw.Draw(image)
    px = dpi / 25.4
    for layer, colour in (("cut", (255, 0, 255)), ("fold", (0, 0, 255))):
        for d in svg_paths(svg_path).get(layer, []):
            points, _ = parse_path(d)
            draw.line([(x * px, y * px) for x, y in points], fill=colour, width=1)
    image.save(out_png)


if __name__ == "__main__":
    overlay(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])
