"""Cutter profiles: one TOML file per cutting machine (``profiles/<name>.toml``), data only,
so a new machine is a new file. Each gives, per paper, the registration marks, the
registration area and its keep-outs in mm from the sheet's top-left corner, citing the maker's
template it comes from (docs/cutting.md describes the keys).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import BuildError, Location
from ...core.suggest import did_you_mean
from ...core.tomlpos import array_item_lines, line_of, toml_error, toml_hint, toml_key_lines
from ...core.units import MM, PAPER_SIZES, Size, paper as paper_size, to_mm
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


class CutterProfileErrors(BuildError):
    """Every problem of one cutter profile file: ``errors`` holds a ``cut.profile`` BuildError
    per problem, each at its key and line, in the file's order."""

    def __init__(self, errors: list[BuildError]):
        self.errors = errors
        super().__init__("\n".join(e.render() for e in errors), rule="cut.profile")

    def render(self) -> str:  # the message already lists every problem with its place
        return self.message


TOP_NUMBERS = {"bleed": 1.0, "corner_mark": 20.0, "line_width": 0.3, "square": 5.0}
"""The top-level lengths of a profile (mm) and their defaults; each must be more than 0."""


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _shown(value) -> str:
    """``value`` as TOML writes it (true, "text", 1.5), for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return repr(value)


def _keys(keys) -> str:
    return ", ".join(sorted(keys))


def _problems(data: dict, text: str, display: str) -> list[BuildError]:
    """Every problem of a parsed profile ``data`` (read from ``text``, named ``display``): a
    ``cut.profile`` BuildError per unknown key, value of the wrong type, length not more than 0
    (positions: less than 0), position off the paper and missing setting, in the file's order."""
    lines = toml_key_lines(text)
    found: list[tuple[int, int, BuildError]] = []

    def bad(key: str, message: str, hint: str, line: int | None = None) -> None:
        line = line if line is not None else line_of(lines, key)
        found.append((line or 0, len(found), BuildError(message, location=Location(display, line, column_name=key),
                                                        rule="cut.profile", hint=hint)))

    def unknown(key: str, name: str, known, table: str, line: int | None = None) -> None:
        bad(key, f"unknown key {name!r} in {table}", did_you_mean(name, sorted(known), "keys: " + _keys(known),
                                                                    cutoff=0.75), line)

    for key, value in data.items():
        if key not in TOP_KEYS:
            unknown(key, key, TOP_KEYS, "a cutter profile")
        elif key == "title" and not isinstance(value, str):
            bad(key, f"title must be text in quotes, not {_shown(value)}", 'title = "My cutter (its template)"')
        elif key in TOP_NUMBERS and not _is_number(value):
            bad(key, f"{key} must be a number of mm, not {_shown(value)}",
                f"a length in mm without quotes or unit, e.g. {key} = {TOP_NUMBERS[key]}")
        elif key in TOP_NUMBERS and value <= 0:
            bad(key, f"{key} must be more than 0 mm, not {_shown(value)}",
                f"a length in mm, e.g. {key} = {TOP_NUMBERS[key]}")
    papers = data.get("paper")
    if not isinstance(papers, dict) or not papers:
        bad("paper", "a cutter profile needs a [paper.NAME] table for each paper it supports",
            "add [paper.letter] (or another --paper name) with marks, area and keepouts; papers: "
            + ", ".join(PAPER_SIZES))
        papers = {}
    for name, table in papers.items():
        where = f"paper.{name}"
        if name not in PAPER_SIZES:
            bad(where, f"unknown paper {name!r} in [paper.{name}]",
                did_you_mean(name.lower(), PAPER_SIZES, "papers: " + ", ".join(PAPER_SIZES), cutoff=0.75))
            size = None
        else:
            size = PAPER_SIZES[name]
        if not isinstance(table, dict):
            bad(where, f"paper.{name} must be a table of marks, area and keepouts, not {_shown(table)}",
                f"write it as [paper.{name}] with keys: " + _keys(PAPER_KEYS))
            continue
        for key in table:
            if key not in PAPER_KEYS:
                unknown(f"{where}.{key}", key, PAPER_KEYS, f"[{where}]")
        for key in sorted(PAPER_KEYS - set(table)):
            bad(where, f"[{where}] needs {key!r}", f"add {key} = ... under [{where}] (docs/cutting.md)")
        if "area" in table:
            _rect_problems(bad, unknown, f"{where}.area", table["area"], size, None)
        for key, check in (("keepouts", _rect_problems), ("marks", _mark_problems)):
            items = table.get(key)
            if items is None:
                continue
            if not isinstance(items, list):
                bad(f"{where}.{key}", f"{key} must be a list [...] of tables, not {_shown(items)}",
                    f"{key} = [] for none, or one {{ ... }} per " + ("rectangle" if key == "keepouts" else "mark"))
                continue
            item_lines = array_item_lines(text, lines.get(f"{where}.{key}"))
            for index, item in enumerate(items):
                line = lines.get(f"{where}.{key}[{index}]") or (item_lines[index] if index < len(item_lines) else None)
                check(bad, unknown, f"{where}.{key}[{index}]", item, size, line)
    return [error for _, _, error in sorted(found, key=lambda f: f[:2])]


def _length(bad, key: str, name: str, value, line, *, position: bool) -> bool:
    """Report ``value`` of ``name`` unless it is a finite number of mm, more than 0 (a
    position: at least 0). True when it is good."""
    full = f"{key}.{name}"
    if value is None:
        bad(full, f"{key} needs {name!r}", f"add {name} = ... (mm) to it", line)
        return False
    if not _is_number(value):
        bad(full, f"{name} must be a number of mm, not {_shown(value)}", "a length in mm without quotes or unit", line)
        return False
    if position and value < 0:
        bad(full, f"{name} must be at least 0 mm (from the sheet's top-left corner), not {_shown(value)}",
            "positions are mm from the sheet's top-left corner, y down", line)
        return False
    if not position and value <= 0:
        bad(full, f"{name} must be more than 0 mm, not {_shown(value)}", "a size in mm, more than 0", line)
        return False
    return True


def _rect_problems(bad, unknown, key: str, rect, size: Size | None, line) -> None:
    if not isinstance(rect, dict):
        bad(key, f"{key} must be a table {{ left, top, width, height }} in mm, not {_shown(rect)}",
            "e.g. { left = 10.0, top = 10.0, width = 20.0, height = 20.0 }", line)
        return
    for name in rect:
        if name not in RECT_KEYS:
            unknown(f"{key}.{name}", name, RECT_KEYS, f"the rectangle {key}", line)
    good = [_length(bad, key, name, rect.get(name), line, position=name in ("left", "top"))
            for name in ("left", "top", "width", "height")]
    if all(good) and size is not None:
        paper_w, paper_h = to_mm(size.width), to_mm(size.height)
        right, bottom = rect["left"] + rect["width"], rect["top"] + rect["height"]
        if right > paper_w + 1e-6 or bottom > paper_h + 1e-6:
            bad(key, f"the rectangle {key} runs off the paper: its right edge is {right:g} mm and its bottom "
                f"edge {bottom:g} mm from the top-left corner, on a sheet {paper_w:g} x {paper_h:g} mm",
                "left + width no more than the paper's width, top + height no more than its height", line)


def _mark_problems(bad, unknown, key: str, mark, size: Size | None, line) -> None:
    if not isinstance(mark, dict):
        bad(key, f"{key} must be a table {{ kind, x, y }}, not {_shown(mark)}",
            'e.g. { kind = "square", x = 10.0, y = 10.0 }', line)
        return
    for name in mark:
        if name not in MARK_KEYS:
            unknown(f"{key}.{name}", name, MARK_KEYS, f"the mark {key}", line)
    kind = mark.get("kind")
    if kind is None:
        bad(f"{key}.kind", "a mark needs kind: 'square' or 'corner'", "kinds: square, corner", line)
    elif kind not in ("square", "corner"):
        bad(f"{key}.kind", f"a mark's kind must be 'square' or 'corner', not {_shown(kind)}",
            did_you_mean(str(kind), ["square", "corner"], "kinds: square, corner", cutoff=0.75), line)
    toward = mark.get("toward")
    if kind == "corner" and toward is None:
        bad(f"{key}.toward", "a corner mark needs toward: where its arms point",
            "toward: " + ", ".join(TOWARD), line)
    elif kind == "corner" and toward not in TOWARD:
        bad(f"{key}.toward", f"toward must be where a corner mark's arms point, not {_shown(toward)}",
            did_you_mean(str(toward), TOWARD, "toward: " + ", ".join(TOWARD), cutoff=0.75), line)
    if kind == "square" and "toward" in mark:
        bad(f"{key}.toward", "only a corner mark has toward; a square mark is placed by its top-left corner",
            "remove toward, or make it kind = \"corner\"", line)
    paper_w = to_mm(size.width) if size else None
    paper_h = to_mm(size.height) if size else None
    for name, limit in (("x", paper_w), ("y", paper_h)):
        value = mark.get(name)
        if _length(bad, key, name, value, line, position=True) and limit is not None and value > limit + 1e-6:
            bad(f"{key}.{name}", f"{name} {value!r} mm is off the paper, which is {limit:g} mm "
                + ("wide" if name == "x" else "tall"), "positions are mm from the sheet's top-left corner, y down",
                line)


def profile_path(spec: str) -> Path:
    """The file of the cutter profile ``spec``: a path to a .toml file as given, else the
    bundled ``profiles/<spec>.toml`` (which may not exist: :func:`load_profile` says so)."""
    return Path(spec) if spec.endswith(".toml") else PROFILES / f"{spec}.toml"


def load_profile(spec: str) -> CutterProfile:
    """The cutter profile ``spec``: a name of ``profiles/`` (``silhouette``, ``cricut``,
    ``generic``) or a path to a .toml file. Lengths are read in mm and kept in pt.

    Raises BuildError (rule ``cut.profile``) for an unknown name or a file that is not TOML,
    and :class:`CutterProfileErrors` listing every problem of a malformed file (an unknown
    key, a value of the wrong type, a length not more than 0, a position off the paper, a
    missing setting), each naming the file, the key and its line."""
    path = profile_path(spec)
    if not path.is_file():
        known = sorted(p.stem for p in PROFILES.glob("*.toml"))
        raise BuildError(f"no cutter profile {spec!r}", rule="cut.profile",
                         hint=did_you_mean(spec.lower(), known, "--cut " + ", ".join(known)
                                           + ", or a path to a profile .toml (docs/cutting.md)"))
    display = path.name if path.parent == PROFILES else str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildError(f"the cutter profile cannot be read: {exc}", location=Location(display),
                         rule="cut.profile", hint="save it as UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where, message = toml_error(display, exc, text)
        raise BuildError(message, location=where, rule="cut.profile", hint=toml_hint(message) or None) from None
    problems = _problems(data, text, display)
    if problems:
        raise CutterProfileErrors(problems)
    numbers = {key: float(data.get(key, default)) * MM for key, default in TOP_NUMBERS.items()}
    return CutterProfile(path.stem, str(data.get("title", path.stem)), path, numbers["bleed"],
                         numbers["corner_mark"], numbers["line_width"], numbers["square"], data["paper"])
