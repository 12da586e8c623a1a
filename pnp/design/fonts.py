"""The font faces a design may name, the TrueType files they come from, and a game's own font
families (``[fonts]`` in game.toml).

The bundled faces are the DejaVu family that a maintained package ships (matplotlib's
``mpl-data/fonts/ttf``); they cover Latin, Greek, subscript digits (₂ ₃), arrows and the
geometric shapes (● ▲ ■ ◆) the bundled games use. :mod:`pnp.render.fonts` registers them with
reportlab, embedded and subset; no standard-14 PDF font is ever used.

A game may add families of its own (docs/fonts-and-text.md)::

    [fonts.body]
    regular = "fonts/Body-Regular.ttf"
    bold = "fonts/Body-Bold.ttf"
    italic = "fonts/Body-Italic.ttf"
    bold_italic = "fonts/Body-BoldItalic.ttf"
    fallback = ["cjk", "symbols"]

Each face is a TrueType file (``.ttf``, ``.otf`` with TrueType outlines, or ``.ttc`` with
``#N`` for its N-th font) in the game folder, or the name of a bundled face (``"sans-bold"``).
A character the family's face lacks is drawn in the first family of ``fallback`` whose face of
the same style (or, when that family lacks the style, its nearest one) has it. Reading the table
(:func:`read_fonts`) imports no reportlab: it checks the shape and that each file exists; the
fonts themselves are opened by :mod:`pnp.render.fonts`.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import PnpError
from ..core.findings import Finding
from ..core.suggest import did_you_mean

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

STYLES = ("regular", "bold", "italic", "bold_italic")
"""The faces of a family, by style index: bold adds 1, italic adds 2."""

SUFFIXES = ("", "-bold", "-italic", "-bold-italic")
"""What a font name adds to its family's name for each style (``sans-bold``, ``body-italic``)."""

NEAREST = ((0,), (1, 0), (2, 0), (3, 1, 2, 0))
"""For each style, the styles a family without it is drawn in instead, in order."""

BUNDLED_FAMILIES = {family: tuple(family + s if family + s in FONT_FILES else None for s in SUFFIXES)
                    for family in ("sans", "serif", "mono")}
"""The bundled families: name -> the bundled face of each style (None: DejaVu Serif has no bold
italic and DejaVu Sans Mono no italic in the set, so those print in the nearest face)."""

FONT_SUFFIXES = (".ttf", ".otf", ".ttc")
"""Font files a game may name."""

FAMILY_KEYS = set(STYLES) | {"fallback"}
"""The settings of one ``[fonts.NAME]`` table."""

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")


@dataclass(frozen=True)
class FaceFile:
    """One face of a game family: ``path`` (absolute), the font ``index`` inside a TTC, how the
    manifest writes it (``written``) and where (``key``, ``fonts.body.bold``)."""

    path: Path
    index: int
    written: str
    key: str


Face = "FaceFile | str"
"""A face is a game's FaceFile or the name of a bundled face (a key of FONT_FILES)."""


@dataclass(frozen=True)
class Family:
    """A font family: its face of each style (None where it has none), the families its
    missing characters fall back to, in order, and ``key`` (``fonts.body``; "" when bundled)."""

    name: str
    faces: tuple
    fallback: tuple[str, ...] = ()
    key: str = ""

    def face(self, style: int):
        """The face drawing ``style`` (an index of STYLES): its own or the nearest it has."""
        for s in NEAREST[style]:
            if self.faces[s] is not None:
                return self.faces[s]
        return None


@dataclass
class FontSet:
    """The font families a game's designs may name: the bundled ones and the game's own."""

    families: dict[str, Family] = field(default_factory=dict)

    def __post_init__(self):
        for name, faces in BUNDLED_FAMILIES.items():
            self.families.setdefault(name, Family(name, faces))

    def resolve(self, font: str) -> tuple[Family, int] | None:
        """(family, style) a font name means: a family (``body``: its regular face) or a family
        with the suffix of a style it has a face for (``sans-bold``, ``body-bold-italic``); None
        for no such font (``serif-bold-italic``: DejaVu Serif has no bold italic here)."""
        if font in self.families:
            return self.families[font], 0
        for style in (3, 1, 2):
            suffix = SUFFIXES[style]
            family = self.families.get(font[:-len(suffix)]) if font.endswith(suffix) else None
            if family is not None and family.faces[style] is not None:  # a face the family has
                return family, style
        return None

    def names(self) -> list[str]:
        """Every font name a layout may give."""
        return [family + s for family in self.families for s in SUFFIXES
                if self.families[family].faces[SUFFIXES.index(s)] is not None]

    def own(self) -> list[Family]:
        """The game's own families, in the order game.toml gives them."""
        return [f for f in self.families.values() if f.key]


BUNDLED = FontSet()
"""The fonts of a game without ``[fonts]``."""


@functools.cache
def font_dir() -> Path:
    """The folder holding the DejaVu TTF files (found without importing matplotlib; looked up
    once a process: every stage of every game names the fonts among its inputs). Raises
    PnpError (``font.file``) when matplotlib, which ships them, is not installed."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise PnpError("the DejaVu fonts are missing", hint="reinstall pnp: pip install --force-reinstall pnp",
                       rule="font.file")
    return Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf"


def read_fonts(game) -> tuple[FontSet, list[Finding]]:
    """The FontSet of ``game`` (a :class:`pnp.model.game.Game`) from its ``[fonts]`` table, and
    a ``font.setting`` error for each setting that cannot be used (an unknown key, a family
    without a regular face, a fallback naming no family) and a ``font.file`` error for each
    file that does not exist, is outside the game folder or is not a TTF, OTF or TTC file, each
    at its game.toml key. What is wrong is left out of the set, so drawing goes on."""
    raw = game.manifest.get("fonts", {})
    problems: list[Finding] = []

    def problem(rule: str, key: str, message: str, hint: str) -> None:
        problems.append(Finding.at("error", rule, game.key_location(key), message, hint=hint))

    if not isinstance(raw, dict):
        problem("font.setting", "fonts", "[fonts] must be a table of font families",
                'write [fonts.body] with regular = "fonts/Body-Regular.ttf"')
        return FontSet(), problems
    root = game.path.resolve()
    families: dict[str, Family] = {}
    for name, spec in raw.items():
        key = f"fonts.{name}"
        if not isinstance(spec, dict):
            problem("font.setting", key, f"font family {name!r} must be a table",
                    f'write [fonts.{name}] with regular = "fonts/{name}.ttf"')
            continue
        if not NAME_RE.match(name) or name in FONT_FILES or name in BUNDLED_FAMILIES:
            problem("font.setting", key, f"{name!r} cannot name a font family" + (
                ": it is a bundled font" if name in FONT_FILES else ""),
                "family names start with a letter and hold letters, digits, '-' and '_'; "
                "the bundled names (sans, serif, mono and their styles) are taken")
            continue
        for bad in sorted(set(spec) - FAMILY_KEYS):
            problem("font.setting", f"{key}.{bad}", f"unknown font setting {bad!r}",
                    did_you_mean(bad, sorted(FAMILY_KEYS), "settings: " + ", ".join(sorted(FAMILY_KEYS))))
        faces: list[Any] = []
        for style in STYLES:
            value = spec.get(style)
            faces.append(None if value is None else _face(game, root, f"{key}.{style}", value, problem))
        if "regular" not in spec:
            problem("font.setting", key, f"font family {name!r} has no regular face",
                    f'give [fonts.{name}] regular = "fonts/{name}-Regular.ttf"')
        fallback = spec.get("fallback", [])
        if isinstance(fallback, str):
            fallback = [fallback]
        if not isinstance(fallback, list) or not all(isinstance(f, str) for f in fallback):
            problem("font.setting", f"{key}.fallback", "fallback must be a list of font family names",
                    'for example fallback = ["cjk", "symbols"]')
            fallback = []
        families[name] = Family(name, tuple(faces), tuple(fallback), key)
    known = list(families) + list(BUNDLED_FAMILIES)
    for family in list(families.values()):
        good = []
        for other in family.fallback:
            if other not in known or other == family.name:
                problem("font.setting", f"{family.key}.fallback",
                        f"fallback {other!r} of font family {family.name!r} is " +
                        ("the family itself" if other == family.name else "no font family"),
                        did_you_mean(other, known, "families: " + ", ".join(known)))
            else:
                good.append(other)
        families[family.name] = Family(family.name, family.faces, tuple(good), family.key)
    return FontSet(families), problems


def _face(game, root: Path, key: str, value: Any, problem):
    """The face ``value`` names at ``key``: a bundled face name, or a FaceFile when the file
    exists inside the game folder (else a problem and None)."""
    if not isinstance(value, str) or not value.strip():
        problem("font.setting", key, f"{key} must be a font file path, not {value!r}",
                'for example bold = "fonts/Body-Bold.ttf"')
        return None
    if value in FONT_FILES:
        return value
    written, _, index_text = value.partition("#")
    index = 0
    if index_text:
        if not index_text.isdigit():
            problem("font.setting", key, f"{value!r}: the font number after '#' must be a whole number",
                    'the second font of a collection is "fonts/Collection.ttc#1"')
            return None
        index = int(index_text)
    path = (game.path / written).resolve()
    display = f"{game.display_root}/{written}"
    if root != path and root not in path.parents:
        problem("font.file", key, f"{written!r} is outside the game folder",
                "copy the font into the game folder (a fonts/ folder, say) and name it from there")
        return None
    if path.suffix.lower() not in FONT_SUFFIXES:
        problem("font.file", key, f"{written!r} is not a TTF, OTF or TTC font file",
                "name a .ttf, .otf or .ttc file, or a bundled font: " + ", ".join(FONT_FILES))
        return None
    if not path.is_file():
        problem("font.file", key, f"no font file {display}",
                did_you_mean(Path(written).name, [p.name for p in path.parent.glob("*")] if path.parent.is_dir()
                             else [], "font paths are relative to the game folder"))
        return None
    if index and path.suffix.lower() != ".ttc":
        problem("font.setting", key, f"{value!r}: only a .ttc collection holds more than one font",
                f"write {written!r} without '#{index}'")
        return None
    return FaceFile(path, index, written, key)
