"""The font faces a design may name, and the TrueType files they come from.

The files are the DejaVu family that a maintained package ships (matplotlib's
``mpl-data/fonts/ttf``); they cover Latin, Greek, subscript digits (₂ ₃), arrows and the
geometric shapes (● ▲ ■ ◆) the bundled games use. :mod:`pnp.render.fonts` registers them with
reportlab, embedded and subset; no standard-14 PDF font is ever used.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..core.errors import PnpError

FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "sans-bold-italic": "DejaVuSans-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
}
"""Font names a layout may use, and the file of each."""


def font_dir() -> Path:
    """The folder holding the DejaVu TTF files (found without importing matplotlib)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise PnpError("the DejaVu fonts are missing", hint="reinstall pnp: pip install --force-reinstall pnp")
    return Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"
