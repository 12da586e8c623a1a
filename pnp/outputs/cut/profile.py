"""Cutter profiles: one TOML file per cutting machine (``profiles/<name>.toml``), data only,
so a new machine is a new file. Each gives, per paper, the registration marks, the
registration area and its keep-outs in mm from the sheet's top-left corner, citing the maker's
template it comes from (docs/cutting.md describes the keys).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import BuildError, Location
from ...core.suggest import did_you_mean
from ...core.tomlpos import line_of, toml_key_lines
from ...core.units import MM, Size, paper as paper_size
from ...geometry.registration import CutterSheet, Mark, rect_from_top_left, from_top_left

PROFILES = Path(__file__).resolve().parent / "profiles"
TOWARD = {"left-down": (-1, -1), "right-down": (1, -1), "left-up": (-1, 1), "right-up": (1, 1)}
"""A corner mark's arms, as a designer sees the sheet (down is towards the bottom edge), to
their directions in PDF coordinates (y up)."""
TOP_KEYS = {"title", "bleed", "corner_mark", "line_width", "square", "paper"}
PAPER_KEYS = {"marks", "area", "keepouts"}
RECT_KEYS = {"left", "top", "width", "height"}
MARK_KEYS = {"kind", "x", "y", "toward"}


@dataclass(frozen=True)
class CutterProfile:
    """A loaded cutter profile: its ``name`` (the file's stem), ``title``, the ``bleed`` each
    piece gets (pt), the mark figures (pt) and the raw table of each paper it supports."""

    name: str
    title: str
    path: Path
    bleed: float
    corner_mark: float
    line_width: float
    square: float
    papers: dict

    def sheet(self, paper: str) -> CutterSheet:
        """The :class:`CutterSheet` of ``paper``. Raises BuildError (rule ``cut.paper``) for a
        paper the profile does not describe, naming those it does."""
        table = self.papers.get(paper)
        if table is None:
            raise BuildError(f"the {self.name} cutter profile has no registration template for {paper} paper",
                             location=Location(self.path.name), rule="cut.paper",
                             hint="--paper " + " or --paper ".join(sorted(self.papers)))
        size = paper_size(paper)
        marks = []
        for mark in table["marks"]:
            x, y = from_top_left(size, mark["x"], mark["y"])
            if mark["kind"] == "square":
                marks.append(Mark("square", x, y, self.square))
            else:
                dx, dy = TOWARD[mark["toward"]]
                marks.append(Mark("corner", x, y, self.corner_mark, self.line_width, dx, dy))
        area = _rect(size, table["area"])
        keepouts = tuple(_rect(size, k) for k in table["keepouts"])
        return CutterSheet(size, tuple(marks), area, keepouts)


def _rect(size: Size, table: dict):
    return rect_from_top_left(size, table["left"], table["top"], table["width"], table["height"])


def load_profile(spec: str) -> CutterProfile:
    """The cutter profile ``spec``: a name of ``profiles/`` (``silhouette``, ``cricut``,
    ``generic``) or a path to a .toml file. Raises BuildError (rule ``cut.profile``) for an
    unknown name or a malformed file, naming the file, the key and its line."""
    path = Path(spec) if spec.endswith(".toml") else PROFILES / f"{spec}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in PROFILES.glob("*.toml"))
        raise BuildError(f"no cutter profile {spec!r}", rule="cut.profile",
                         hint=did_you_mean(spec.lower(), known, "--cut " + ", ".join(known)
                                           + ", or a path to a profile .toml (docs/cutting.md)"))
    text = path.read_text(encoding="utf-8")
    display = path.name if path.parent == PROFILES else str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BuildError(f"{display} is not valid TOML: {exc}", location=Location(display),
                         rule="cut.profile") from None
    lines = toml_key_lines(text)

    def bad(key: str, message: str) -> BuildError:
        return BuildError(message, location=Location(display, line_of(lines, key), column_name=key),
                          rule="cut.profile", hint="docs/cutting.md describes a cutter profile's keys")

    for key in data:
        if key not in TOP_KEYS:
            raise bad(key, f"unknown key {key!r} in a cutter profile")
    papers = data.get("paper")
    if not isinstance(papers, dict) or not papers:
        raise bad("paper", "a cutter profile needs a [paper.NAME] table for each paper it supports")
    for name, table in papers.items():
        where = f"paper.{name}"
        for key in table:
            if key not in PAPER_KEYS:
                raise bad(f"{where}.{key}", f"unknown key {key!r} in [{where}]")
        for key in PAPER_KEYS:
            if key not in table:
                raise bad(where, f"[{where}] needs {key!r}")
        for rect in [table["area"], *table["keepouts"]]:
            if set(rect) != RECT_KEYS or not all(isinstance(rect[k], (int, float)) for k in RECT_KEYS):
                raise bad(where, f"a rectangle of [{where}] needs left, top, width and height in mm, got {rect!r}")
        for mark in table["marks"]:
            if not set(mark) <= MARK_KEYS or mark.get("kind") not in ("square", "corner") \
                    or (mark["kind"] == "corner" and mark.get("toward") not in TOWARD):
                raise bad(where, f"a mark of [{where}] needs kind square or corner, x and y in mm, and for a "
                          f"corner toward {', '.join(TOWARD)}; got {mark!r}")
    return CutterProfile(path.stem, str(data.get("title", path.stem)), path, float(data.get("bleed", 1.0)) * MM,
                         float(data.get("corner_mark", 20.0)) * MM, float(data.get("line_width", 0.3)) * MM,
                         float(data.get("square", 5.0)) * MM, papers)
