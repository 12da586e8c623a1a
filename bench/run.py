"""The pnp benchmark: one command, every measurement, medians of several runs.

    python bench/run.py                 # full size, 5 runs, prints a Markdown report
    python bench/run.py --runs 3 --update-results   # also rewrites the table in bench/RESULTS.md
    python bench/run.py --quick         # the CI smoke size: small decks, one run
    python bench/run.py --profile DIR   # cProfile the 1,280-card build, pnp check and pnp --help

Every measurement is a whole process (start-up included), started with ``subprocess`` and
reaped with ``os.wait4`` so each run has its own wall time, CPU time (user + system, including
any processes it started and waited for) and peak resident memory (``ru_maxrss``: the largest of
the process and its waited-for children, not their sum). Stages:

``help``, ``list``, ``check``
    ``pnp --help``, ``pnp list`` of the games, and ``pnp check`` of every bundled game with
    no build to reuse (a cold dry run of every stage).
``games``
    ``pnp build --force`` of every bundled game into a fresh folder: whatever ``pnp build``
    builds (cards, boards, tokens, rulebooks...) is measured, and its files are listed by kind.
``games_nochange``
    ``pnp build`` again into the same folder: an incremental build with nothing changed.
``check_warm``, ``export_tgc``
    ``pnp check`` of the games just built (their record answers it), and ``pnp export -t
    tgc`` of every bundled game into a fresh folder.
``deck_sheet``, ``deck``, ``deck_x10``
    ``pnp build --force --no-contact-sheets`` of the Periodic Shed draw deck (one sheet, the
    128 cards, and the deck ten times over with every copy's text distinct), in a game folder
    made for the run from ``card_data/periodic-shed`` and ``templates/periodic-shed``.
``game_full``, ``game_only``
    ``pnp build --force`` of one bundled game (Periodic Shed), and ``pnp build --force --only
    cards`` of it: the quick sheet of one deck, as a ratio to the full build it stands in for.
``game_edit``
    ``pnp build`` of a copy of the same game after a full build and one changed cell (the first
    card's title): the designer's edit-to-paper loop, as a ratio to ``game_full``.
``raw_deck``, ``raw_deck_x10``
    ``bench/raw_reportlab.py`` drawing the same cards on the same sheets: the floor.
``images`` (once)
    a generated deck whose every face shows the same PNG and every back another: the PDF must
    embed each image once.
``big_art`` (once)
    a generated deck whose art is large (4000 x 4000 px): every face its own picture in a 40 mm
    box, the back one picture over the full bleed. Peak memory and the size of the PDF, which
    holds the art downsampled to 300 dpi at its placed size.
``preview`` (each run, after ``deck_x10``)
    ``pnp preview`` of the 1,280-card deck: once its page is shown and its first check is done,
    one cell (a card's title) is saved, and the time from the save to the changed card's new
    image received (the page's event, then the image) is taken as a ratio to that run's
    ``deck_x10`` build (:func:`preview_latency`).

Each run takes the stages in turn, and the pnp/raw pairs in alternating order, so a ratio is
taken between two processes that ran side by side. Results go to a JSON file (``--json``) and a
Markdown report (stdout, and ``--update-results`` rewrites the generated part of
bench/RESULTS.md between its markers). Exit status 1 when a build failed, 0 otherwise; timing
goals never change the exit status.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
SOURCE_GAME = ROOT / "card_data" / "periodic-shed"
SOURCE_LAYOUTS = ROOT / "templates" / "periodic-shed" / "layouts.toml"
RESULTS_MD = BENCH / "RESULTS.md"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"

GOALS = {
    "deck_ratio": 1.5,  # 128 cards: pnp / raw reportlab, wall, whole process
    "deck_x10_ratio": 1.1,  # 1,280 cards: pnp / raw reportlab, wall
    "games_ratio": 1.5,  # the four games built in full / the floor's 1,280 cards, wall
    "nochange_ratio": 0.15,  # a build with nothing to do / the full build, wall
    "nochange_help": 1.5,  # a build with nothing to do / pnp --help, wall
    "check_warm_ratio": 0.25,  # pnp check after a build / the floor's 1,280 cards, wall
    "check_cold_ratio": 0.8,  # pnp check with no build to reuse / the full build it mirrors, wall
    "linear": 1.25,  # marginal CPU per card, large deck over small deck
    "memory": 1.25,  # peak memory, x10 deck over the base deck
    "help_cpu": 0.1,  # s of CPU, pnp --help and pnp list
    "back_share": 0.10,  # bytes drawing the backs per card, pnp over the floor (which draws each)
    "big_art_rss": 300.0,  # MiB, peak resident memory of the large-art build
    "big_art_pdf": 10.0,  # MB (10^6 bytes), the large-art cards PDF
    "preview_ratio": 0.10,  # save-to-refreshed-card in pnp preview / a full build of the same deck, wall
    "only_ratio": 0.40,  # build --only one deck / the full build of that game, wall
    "edit_ratio": 0.35,  # a build after one changed cell / the full build of that game, wall
    "deck_x100_ratio": 1.0,  # 12,800 cards: pnp / raw reportlab, wall, one run
    "deck_x100_rss": 100.0,  # MiB, peak resident memory of the 12,800-card build
}
ONLY_GAME, ONLY_DECK = "periodic-shed", "cards"
"""The quick sheet measured: one deck of one bundled game (:data:`GOALS` ``only_ratio``)."""


# ---------------------------------------------------------------------------------------------
# Measuring one process

@dataclass
class Sample:
    """One process: wall and CPU seconds, peak resident MiB, bytes written, exit status."""

    wall: float
    cpu: float
    rss_mib: float
    bytes: int
    rc: int
    tail: str = ""

    def as_dict(self) -> dict:
        return {"wall": round(self.wall, 4), "cpu": round(self.cpu, 4), "rss_mib": round(self.rss_mib, 1),
                "bytes": self.bytes, "rc": self.rc}


def run_process(argv: list[str], cwd: Path, out_paths: list[Path] = ()) -> Sample:
    """Run ``argv`` to completion; measure it with os.wait4. ``out_paths``: files or folders
    whose size (in bytes, recursively) is the stage's output size."""
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        tail = log.read().decode("utf-8", "replace")[-2000:]
    size = sum(_size(p) for p in out_paths)
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, size, proc.returncode, tail)


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return 0


def pnp_command() -> list[str]:
    """The `pnp` console script beside this interpreter, else ``python -m pnp``."""
    script = Path(sys.executable).with_name("pnp")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pnp"]


# ---------------------------------------------------------------------------------------------
# Game folders made for the run

FALLBACK_LAYOUTS = """\
# Simple layouts used when templates/periodic-shed/layouts.toml is missing or does not load.
[layouts.element]
background = "white"
[layouts.element.boxes.frame]
type = "rect"
area = "bleed"
fill = "family_{{ family | replace('-', '_') }}"
[layouts.element.boxes.panel]
type = "rect"
x = "4mm"
y = "4mm"
width = "55.5mm"
height = "80.9mm"
radius = "2mm"
fill = "white"
[layouts.element.boxes.symbol]
type = "text"
text = "{{ symbol }}"
x = "6mm"
y = "20mm"
width = "51.5mm"
height = "25mm"
font = "sans-bold"
size = 48
align = "center"
valign = "middle"
[layouts.element.boxes.title]
type = "text"
text = "{{ title }}"
x = "6mm"
y = "50mm"
width = "51.5mm"
height = "10mm"
font = "sans-bold"
size = 14
align = "center"
[layouts.action]
extends = "element"
[layouts.action.boxes.frame]
fill = "action_fission"
[layouts.action.boxes.symbol]
text = "{{ title }}"
size = 20
[layouts.action.boxes.title]
text = "{{ rule_text }}"
y = "50mm"
height = "30mm"
font = "sans"
size = 9
min_size = 6
align = "left"
[layouts.periodic-back]
background = "deck_back"
[layouts.periodic-back.boxes.title]
type = "text"
text = "PERIODIC SHED"
x = "5mm"
y = "40mm"
width = "53.5mm"
height = "10mm"
font = "sans-bold"
size = 18
align = "center"
color = "white"
[layouts.reference-back]
extends = "periodic-back"
"""


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def dump_toml(data: dict, prefix: str = "") -> str:
    """``data`` (as tomllib reads it: no dates) written as TOML: tables as ``[a.b]`` sections,
    lists of tables as ``[[a]]`` (their own tables inline), everything else as values."""
    plain = [(k, v) for k, v in data.items() if not isinstance(v, dict)
             and not (isinstance(v, list) and v and all(isinstance(x, dict) for x in v))]
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in plain]
    out = []
    if lines:
        out.append((f"[{prefix}]\n" if prefix else "") + "\n".join(lines) + "\n")
    for k, v in data.items():
        name = f"{prefix}.{_toml_key(k)}" if prefix else _toml_key(k)
        if isinstance(v, dict):
            out.append(dump_toml(v, name) if v else f"[{name}]\n")
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for item in v:
                body = "".join(f"{_toml_key(kk)} = {_toml_value(vv)}\n" for kk, vv in item.items())
                out.append(f"[[{name}]]\n{body}")
    return "\n".join(out)


def deck_manifest(manifest: dict) -> dict:
    """A copy of ``manifest`` that builds the decks only: no ``[[totals]]`` (they state the
    published game's counts), no component other than decks and reference tables, and no
    printed sheet of a table (boards and rulebooks are measured with the bundled games)."""
    out = {k: v for k, v in manifest.items() if k != "totals"}
    comps = {}
    for cid, comp in manifest.get("components", {}).items():
        if comp.get("kind") == "deck":
            comps[cid] = comp
        elif comp.get("kind") == "table":
            comps[cid] = {k: v for k, v in comp.items() if k != "sheet"}
    out["components"] = comps
    return out


def make_deck(dest: Path, cards: int, scale: int, layouts: str | None) -> int:
    """Write a Periodic Shed game folder at ``dest`` whose draw deck is the first ``cards``
    cards of ``card_data/periodic-shed/cards.csv``, ``scale`` times over.

    Copy 1 keeps the original rows; copy k > 1 gets ids ``<id>.<k>``, titles ``<title> <k>``
    and (action cards) rule text ending ``(set k)``, so every card's text is distinct. Rows
    past ``cards`` keep copies 0 (other tables refer to them); the reference deck gets copies
    0; the manifest keeps the decks and tables only (:func:`deck_manifest`). ``layouts``: the
    text of ``templates/layouts.toml`` (None copies the bundled one). Returns the number of
    cards the deck prints.
    """
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(SOURCE_GAME, dest, ignore=shutil.ignore_patterns("*.md"))
    manifest = dest / "game.toml"
    wanted = deck_manifest(tomllib.loads(manifest.read_text(encoding="utf-8")))
    text = dump_toml(wanted)
    if tomllib.loads(text) != wanted:
        raise RuntimeError("bench: the deck's game.toml did not survive writing")  # a bug in dump_toml
    manifest.write_text(text, encoding="utf-8")
    with open(dest / "cards.csv", encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, list(reader)
    printed = [r for r in rows if int(r["copies"] or 0) > 0][:cards]
    keep = {id(r) for r in printed}
    out_rows = [dict(r, copies=r["copies"] if id(r) in keep else "0") for r in rows]
    for k in range(2, scale + 1):
        for r in printed:
            extra = dict(r, id=f"{r['id']}.{k}", title=f"{r['title']} {k}")
            if r["rule_text"]:
                extra["rule_text"] = f"{r['rule_text']} (set {k})"
            out_rows.append(extra)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(out_rows)
    (dest / "cards.csv").write_text(buf.getvalue(), encoding="utf-8")
    ref = dest / "reference_cards.csv"
    if ref.is_file():
        with open(ref, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            rfields, rrows = reader.fieldnames, [dict(r, copies="0") for r in reader]
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=rfields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rrows)
        ref.write_text(buf.getvalue(), encoding="utf-8")
    (dest / "templates").mkdir()
    target = dest / "templates" / "layouts.toml"
    if layouts is None:
        shutil.copyfile(SOURCE_LAYOUTS, target)
    else:
        target.write_text(layouts, encoding="utf-8")
    return sum(int(r["copies"] or 0) for r in out_rows)


def layouts_problem(game_dir: Path) -> str | None:
    """Why ``game_dir/templates/layouts.toml`` does not load with pnp (None when it loads)."""
    sys.path.insert(0, str(ROOT))
    try:
        from pnp.core.errors import PnpError
        from pnp.design.layouts import load_layouts

        colors = tomllib.loads((game_dir / "game.toml").read_text(encoding="utf-8")).get("colors", {})
        load_layouts(game_dir / "templates", "layouts.toml", colors)
    except PnpError as exc:
        return exc.render()[:200]
    except Exception as exc:  # a layout file mid-edit can fail in any way; the bench goes on
        return f"{type(exc).__name__}: {exc}"[:200]
    finally:
        sys.path.remove(str(ROOT))
    return None


IMAGE_GAME = """\
[game]
id = "image-reuse"
title = "Image reuse"
players = [2, 4]

[components.cards]
kind = "deck"
name = "Art cards"
table = "cards.csv"
id_column = "id"
copies_column = "copies"
card_size = "poker"
back = "back"
layout = "face"

[components.cards.columns]
id = "id"
title = "str"
copies = { type = "int", min = 0 }
"""

TITLE_AND_BACK = """\
[layouts.face.boxes.title]
type = "text"
text = "{{ title }}"
x = "5mm"
y = "70mm"
width = "53.5mm"
height = "10mm"
font = "sans-bold"
size = 14
align = "center"

[layouts.back]
background = "white"
[layouts.back.boxes.art]
type = "image"
image = "art/back.png"
area = "bleed"
fit = "cover"
"""
"""The title box of both image decks' faces, and their back: art/back.png over the full bleed."""

IMAGE_LAYOUTS = """\
[layouts.face]
background = "white"
[layouts.face.boxes.art]
type = "image"
image = "art/face.png"
area = "bleed"
fit = "cover"
""" + TITLE_AND_BACK


def make_image_game(dest: Path, cards: int) -> int:
    """A deck of ``cards`` cards whose faces all show art/face.png and backs art/back.png
    (two 300 dpi poker-size PNGs made with Pillow). Returns the number of distinct images."""
    from PIL import Image, ImageDraw

    (dest / "art").mkdir(parents=True)
    (dest / "templates").mkdir()
    for name, colour in (("face", (200, 60, 40)), ("back", (30, 40, 90))):
        image = Image.new("RGB", (825, 1125), colour)
        draw = ImageDraw.Draw(image)
        for i in range(0, 825, 75):
            draw.line([(i, 0), (825 - i, 1125)], fill=(255, 255, 255), width=9)
        image.save(dest / "art" / f"{name}.png")
    (dest / "game.toml").write_text(IMAGE_GAME, encoding="utf-8")
    (dest / "templates" / "layouts.toml").write_text(IMAGE_LAYOUTS, encoding="utf-8")
    lines = ["id,title,copies"] + [f"card-{i},Card {i},1" for i in range(1, cards + 1)]
    (dest / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 2


BIG_ART_LAYOUTS = """\
[layouts.face]
background = "white"
[layouts.face.boxes.art]
type = "image"
image = "{{ art }}"
x = "11.75mm"
y = "8mm"
width = "40mm"
height = "40mm"
fit = "contain"
""" + TITLE_AND_BACK


def big_picture(px: int, seed: int):
    """A ``px`` x ``px`` RGB picture that compresses about as a photograph does: smooth colour
    fields (a seeded 48 x 48 grid of colours, enlarged) with a little grain. Same seed, same
    pixels."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(seed)
    fields = Image.fromarray(rng.integers(0, 256, (48, 48, 3), dtype=np.uint8), "RGB").resize(
        (px, px), Image.Resampling.BICUBIC)
    grain = rng.integers(-6, 7, (px, px, 3), dtype=np.int16)
    return Image.fromarray(np.clip(np.asarray(fields, dtype=np.int16) + grain, 0, 255).astype(np.uint8), "RGB")


def make_big_art_game(dest: Path, cards: int, px: int) -> int:
    """A deck of ``cards`` cards, each face showing its own ``px`` x ``px`` picture
    (art/face-N.png) in a 40 mm square, the back another (art/back.png) over the full bleed.
    Returns the number of art files."""
    (dest / "art").mkdir(parents=True)
    (dest / "templates").mkdir()
    for i in range(cards + 1):
        name = "back" if i == 0 else f"face-{i}"
        big_picture(px, i).save(dest / "art" / f"{name}.png", compress_level=1)
    game = IMAGE_GAME.replace('id = "image-reuse"', 'id = "big-art"').replace("Image reuse", "Large art")
    (dest / "game.toml").write_text(game.rstrip("\n") + '\nart = "str"\n', encoding="utf-8")
    (dest / "templates" / "layouts.toml").write_text(BIG_ART_LAYOUTS, encoding="utf-8")
    lines = ["id,title,copies,art"] + [f"card-{i},Card {i},1,art/face-{i}.png" for i in range(1, cards + 1)]
    (dest / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cards + 1


def run_big_art(args, pnp: list[str], work: Path) -> tuple[Stage, dict]:
    """Build the large-art deck (:func:`make_big_art_game`) once: the stage measured and what
    its cards PDF holds (``pdf_bytes``, the images embedded and the largest one's pixels)."""
    src = work / "games" / "big-art"
    # The pictures are made in a process of their own: a build started from this process after
    # it held them would count their pages as its own resident memory (fork copies the parent).
    made = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import run; "
                           "print(run.make_big_art_game(run.Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))",
                           str(BENCH), str(src), str(args.big_art_cards), str(args.big_art_px)],
                          capture_output=True, text=True, check=True)
    files = int(made.stdout.split()[-1])
    dest = work / "out" / "big-art"
    stage = Stage("big_art", None, None, args.big_art_cards)
    stage.samples.append(run_process(pnp + ["build", str(src), "--force", "--no-contact-sheets", "-o", str(dest)],
                                     ROOT, [dest]))
    pdfs = sorted(dest.rglob("*.pdf"))
    info = {"cards": args.big_art_cards, "px": args.big_art_px, "art_files": files,
            "art_bytes": _size(src / "art"), "pdf_bytes": pdfs[0].stat().st_size if pdfs else None,
            "rss_mib": round(stage.samples[0].rss_mib, 1), **(pdf_stats(pdfs[0]) if pdfs else {})}
    return stage, info


_DO = re.compile(rb"(/[^\s/\[\]()<>{}%]+)\s+Do\b")


def pdf_stats(pdf: Path) -> dict:
    """What a cards PDF holds (pages 1-2 are the calibration pair, then front, back, ...).

    - ``image_distinct``: image XObjects reachable from the pages, forms included, each once;
      ``image_placements``: images drawn when every page is rendered (an image in a form
      placed 27 times counts 27 times).
    - ``image_max_px``: [width, height] of the largest image XObject.
    - ``form_distinct`` / ``form_placements``: the same for form XObjects.
    - ``front_sheet_bytes`` / ``back_sheet_bytes``: mean decompressed content of a front / back
      sheet page itself.
    - ``back_bytes_total`` / ``front_bytes_total``: everything that draws the back (front)
      sheets: their pages' content plus every form they reach, each form counted once. Divided
      by the cards, it tells whether a back is stored once (tens of bytes a card) or drawn for
      every card (kilobytes a card).

    Needs pypdf (the test extra); without it only image dictionaries are counted, from the
    file's bytes.
    """
    try:
        from pypdf import PdfReader
    except ImportError:
        data = pdf.read_bytes()
        return {"reader": "regex", "image_distinct": len(re.findall(rb"/Subtype\s*/Image", data))}
    reader = PdfReader(str(pdf))
    info: dict = {}  # form or image id -> (kind, content bytes, {child id: uses})
    sizes: list[tuple[int, int]] = []  # pixels of each image XObject (soft masks included)

    def walk(resources, data: bytes) -> dict:
        names = {}
        for name, ref in (resources or {}).get("/XObject", {}).items():
            obj = ref.get_object()
            key = getattr(ref, "idnum", None) or id(obj)
            kind = obj.get("/Subtype")
            if key not in info:
                if kind == "/Form":
                    info[key] = ("/Form", 0, {})  # placeholder against cycles
                    body = obj.get_data()
                    info[key] = ("/Form", len(body), walk(obj.get("/Resources"), body))
                else:
                    info[key] = (kind, 0, {})
                    if kind == "/Image":
                        sizes.append((int(obj.get("/Width", 0)), int(obj.get("/Height", 0))))
            names[name] = key
        uses: dict = {}
        for used in _DO.findall(data):
            key = names.get(used.decode("latin-1"))
            if key is not None:
                uses[key] = uses.get(key, 0) + 1
        return uses

    def count(uses: dict, kind: str) -> int:
        total = 0
        for key, n in uses.items():
            k, _, children = info[key]
            total += n * ((1 if k == kind else 0) + count(children, kind))
        return total

    def reach(uses: dict, into: set) -> set:
        for key in uses:
            if key not in into:
                into.add(key)
                reach(info[key][2], into)
        return into

    placed = {"/Image": 0, "/Form": 0}
    own = {"front": [], "back": []}
    reached = {"front": set(), "back": set()}
    for i, page in enumerate(reader.pages):
        content = page.get_contents()
        data = content.get_data() if content is not None else b""
        uses = walk(page.get("/Resources"), data)
        for kind in placed:
            placed[kind] += count(uses, kind)
        if i >= 2:
            side = "front" if i % 2 == 0 else "back"
            own[side].append(len(data))
            reach(uses, reached[side])

    def total(side: str) -> int:
        return sum(own[side]) + sum(info[k][1] for k in reached[side] if info[k][0] == "/Form")

    return {"reader": "pypdf", "pages": len(reader.pages),
            "image_distinct": sum(1 for k, _, _ in info.values() if k == "/Image"),
            "image_placements": placed["/Image"],
            "image_max_px": list(max(sizes, key=lambda wh: wh[0] * wh[1])) if sizes else None,
            "form_distinct": sum(1 for k, _, _ in info.values() if k == "/Form"),
            "form_placements": placed["/Form"],
            "front_sheet_bytes": round(statistics.mean(own["front"])) if own["front"] else None,
            "back_sheet_bytes": round(statistics.mean(own["back"])) if own["back"] else None,
            "front_bytes_total": total("front"), "back_bytes_total": total("back")}


# ---------------------------------------------------------------------------------------------
# The preview's edit latency

def preview_latency(pnp: list[str], deck: Path, out: Path, timeout: float = 300.0) -> dict:
    """Seconds from saving one changed cell to the changed card's new image received, in a
    ``pnp preview`` of ``deck``, measured as a page sees it: the server's ``state`` event that
    names the card's new image, then the image fetched.

    The preview is started on a free port and its first state read; the first card's face is
    fetched (the page shows it) and the first dry run is let finish, so the edit meets a preview
    at rest. The edit appends `` (edited)`` to that card's title in ``cards.csv`` (written whole,
    as an editor saves); the file is restored afterwards and the preview stopped with SIGINT.
    Returns ``latency`` and ``startup`` (s, to the first state) and the card's id."""
    import queue
    import signal
    import threading
    import urllib.request

    start = time.perf_counter()
    proc = subprocess.Popen(pnp + ["preview", str(deck), "--port", "0", "-o", str(out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    urls: queue.Queue = queue.Queue()
    events: queue.Queue = queue.Queue()

    def read_output():
        for line in proc.stdout:
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if found:
                urls.put(found.group(0))

    def read_events(url):
        with urllib.request.urlopen(url + "events", timeout=timeout) as resp:
            kind = None
            for raw in resp:
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "state":
                    events.put(json.loads(line[6:]))

    cards = deck / "cards.csv"
    original = cards.read_bytes()
    try:
        threading.Thread(target=read_output, daemon=True).start()
        url = urls.get(timeout=timeout)
        threading.Thread(target=read_events, args=(url,), daemon=True).start()
        state = events.get(timeout=timeout)
        startup = time.perf_counter() - start
        item = state["sections"][0]["items"][0]
        row_id = item["id"].split("/", 1)[1]
        old = item["sides"][0]["key"]
        urllib.request.urlopen(f"{url}img/{old}.png", timeout=timeout).read()
        while state["checking"] or state["version"] < 2:  # the first dry run has not reported yet
            state = events.get(timeout=timeout)
        with open(cards, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            fields, rows = reader.fieldnames, list(reader)
        for row in rows:
            if row["id"] == row_id:
                row["title"] += " (edited)"
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        saved = time.perf_counter()
        cards.write_text(buf.getvalue(), encoding="utf-8")
        while True:
            state = events.get(timeout=timeout)
            found = [i for s in state["sections"] for i in s["items"] if i["id"] == item["id"]]
            if found and found[0]["sides"][0]["key"] != old:
                break
        urllib.request.urlopen(f"{url}img/{found[0]['sides'][0]['key']}.png", timeout=timeout).read()
        latency = time.perf_counter() - saved
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        cards.write_bytes(original)
    return {"latency": round(latency, 4), "startup": round(startup, 3), "card": item["id"]}


# ---------------------------------------------------------------------------------------------
# The benchmark

@dataclass
class Stage:
    """A measured command: name, argv builder (run index -> argv), output paths, card count."""

    name: str
    argv: object
    outputs: object
    cards: int | None = None
    samples: list[Sample] = field(default_factory=list)
    expect_ok: bool = True
    prepare: object = None
    """Run index -> None, called before each timed run (not timed)."""


def make_edit_game(dest: Path) -> tuple[Path, str, str]:
    """A writable copy of the bundled ``periodic-shed`` at ``dest`` (its templates inside it),
    and the text of its ``cards.csv`` before and after one cell's edit: the title of its
    first card gets `` (edited)``, as a designer fixes a typo."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(SOURCE_GAME, dest)
    shutil.copytree(ROOT / "templates" / SOURCE_GAME.name, dest / "templates")
    before = (dest / "cards.csv").read_text(encoding="utf-8")
    header, first, rest = before.split("\n", 2)
    cells = first.split(",")
    cells[header.split(",").index("title")] += " (edited)"
    return dest, before, "\n".join([header, ",".join(cells), rest])


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


PROTOGRAF_ENV = "PNP_BENCH_PROTOGRAF"
"""Environment variable naming a Python interpreter that has protograf installed (it is no
dependency of pnp: install it in a virtual environment of its own)."""


def protograf_python() -> str | None:
    """The interpreter :data:`PROTOGRAF_ENV` names when it can import protograf, else None."""
    python = os.environ.get(PROTOGRAF_ENV)
    if not python:
        return None
    try:
        ok = subprocess.run([python, "-c", "import protograf"], capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return python if ok else None


def compile_pnp() -> None:
    """Write the bytecode of pnp's modules before anything is timed. An installed pnp has it
    (pip compiles on install); a checkout run where PYTHONDONTWRITEBYTECODE is set would
    otherwise compile every module from source in every timed process, a cost the floor, whose
    reportlab is installed, never pays."""
    import compileall

    compileall.compile_dir(str(ROOT / "pnp"), quiet=1)


def machine() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram_gib": ram, "system": platform.platform(),
            "load_before": [round(x, 2) for x in load] if load else None}


def versions() -> dict:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in ("pnp", "reportlab", "rl_accel", "pillow", "jinja2", "typer", "rich", "pypdfium2", "svglib",
                 "markdown-it-py"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    try:
        import _rl_accel  # noqa: F401  (reportlab's C accelerator, from the rl_accel package)
        out["reportlab_accelerated"] = True
    except ImportError:
        out["reportlab_accelerated"] = False
    return out


def list_outputs(folder: Path) -> dict:
    """Files a build wrote, grouped by extension: count and bytes (new output kinds show up here)."""
    kinds: dict[str, dict] = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.name.startswith("."):
            k = kinds.setdefault(p.suffix.lower() or p.name, {"files": 0, "bytes": 0, "names": []})
            k["files"] += 1
            k["bytes"] += p.stat().st_size
            if len(k["names"]) < 40:
                k["names"].append(str(p.relative_to(folder)))
    return kinds


def run_bench(args) -> dict:
    args.machine = machine()  # the load average before the run
    pnp = pnp_command()
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    notes: list[str] = []
    try:
        return _run(args, pnp, work, notes)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work}", file=sys.stderr)


def _run(args, pnp: list[str], work: Path, notes: list[str]) -> dict:
    raw = [sys.executable, str(BENCH / "raw_reportlab.py")]
    # The decks: one sheet, the base deck, the base deck x scale.
    layouts_text = None
    if not SOURCE_LAYOUTS.is_file():
        layouts_text = FALLBACK_LAYOUTS
        notes.append("templates/periodic-shed/layouts.toml is missing: the decks use simple fallback layouts")
    sizes = {"deck_sheet": (args.sheet_cards, 1), "deck": (args.cards, 1), "deck_x10": (args.cards, args.scale)}
    decks = {name: work / "games" / name for name in sizes}
    counts = {name: make_deck(decks[name], n, k, layouts_text) for name, (n, k) in sizes.items()}
    if layouts_text is None:
        problem = layouts_problem(decks["deck_sheet"])
        if problem:
            notes.append(f"templates/periodic-shed/layouts.toml does not load ({problem}): the decks use simple "
                         "fallback layouts")
            layouts_text = FALLBACK_LAYOUTS
            counts = {name: make_deck(decks[name], n, k, layouts_text) for name, (n, k) in sizes.items()}
    run_process(pnp + ["--help"], ROOT)  # warm-up, not measured: byte-compiles pnp
    game_args = args.games or []  # none: every bundled game
    out = work / "out"

    def deck_stage(name: str) -> Stage:
        return Stage(name, lambda r, n=name: pnp + ["build", str(decks[n]), "--force", "--no-contact-sheets",
                                                   "-o", str(out / f"{n}-{r}")],
                     lambda r, n=name: [out / f"{n}-{r}"], counts[name])

    def raw_stage(name: str) -> Stage:
        return Stage("raw_" + name, lambda r, n=name: raw + [str(decks[n]), "-o", str(out / f"raw_{n}-{r}.pdf")],
                     lambda r, n=name: [out / f"raw_{n}-{r}.pdf"], counts[name])

    edit_game, edit_before, edit_after = make_edit_game(work / "games" / "edit")

    def edit_prepare(r: int) -> None:
        """A full build of the unedited game into the run's folder, then the one cell changed."""
        (edit_game / "cards.csv").write_text(edit_before, encoding="utf-8")
        run_process(pnp + ["build", str(edit_game), "--force", "-o", str(out / f"edit-{r}")], ROOT)
        (edit_game / "cards.csv").write_text(edit_after, encoding="utf-8")

    stages = {
        "help": Stage("help", lambda r: pnp + ["--help"], lambda r: []),
        "list": Stage("list", lambda r: pnp + ["list"] + game_args, lambda r: []),
        "check": Stage("check", lambda r: pnp + ["check", "-o", str(out / f"nothing-{r}")] + game_args,
                       lambda r: [], expect_ok=False),
        "check_warm": Stage("check_warm", lambda r: pnp + ["check", "-o", str(out / f"games-{r}")] + game_args,
                            lambda r: [], expect_ok=False),
        "export_tgc": Stage("export_tgc", lambda r: pnp + ["export", "-t", "tgc", "-o", str(out / f"export-{r}")]
                            + game_args, lambda r: [out / f"export-{r}"]),
        "games": Stage("games", lambda r: pnp + ["build", "--force", "-o", str(out / f"games-{r}")] + game_args,
                       lambda r: [out / f"games-{r}"]),
        "games_nochange": Stage("games_nochange", lambda r: pnp + ["build", "-o", str(out / f"games-{r}")] + game_args,
                                lambda r: []),
        "game_full": Stage("game_full", lambda r: pnp + ["build", ONLY_GAME, "--force", "-o", str(out / f"only-{r}")],
                           lambda r: [out / f"only-{r}"]),
        "game_only": Stage("game_only", lambda r: pnp + ["build", ONLY_GAME, "--force", "--only", ONLY_DECK,
                                                         "-o", str(out / f"only-{r}")], lambda r: []),
        "game_edit": Stage("game_edit", lambda r: pnp + ["build", str(edit_game), "-o", str(out / f"edit-{r}")],
                           lambda r: [], prepare=edit_prepare),
        "deck_sheet": deck_stage("deck_sheet"),
        "deck": deck_stage("deck"),
        "raw_deck": raw_stage("deck"),
        "deck_x10": deck_stage("deck_x10"),
        "raw_deck_x10": raw_stage("deck_x10"),
    }
    order = [["help"], ["list"], ["check"], ["games"], ["games_nochange"], ["check_warm"], ["export_tgc"],
             ["game_full", "game_only", "game_edit"], ["deck_sheet"],
             ["deck", "raw_deck"],
             ["deck_x10", "raw_deck_x10"]]
    peer = protograf_python()
    if peer:  # a peer tool, timed beside the floor when an interpreter that has it is named
        stages["protograf_deck"] = Stage("protograf_deck", lambda r: [peer, str(BENCH / "protograf_deck.py"),
                                         str(decks["deck"]), "-o", str(out / f"protograf_deck-{r}.pdf")],
                                         lambda r: [out / f"protograf_deck-{r}.pdf"], counts["deck"])
        order[-2].append("protograf_deck")
    else:
        notes.append(f"protograf was not measured (set {PROTOGRAF_ENV} to a Python that has it)")
    previews: list[dict] = []
    for r in range(args.runs):
        for group in order:
            for name in (group if r % 2 == 0 else list(reversed(group))):
                st = stages[name]
                if st.prepare is not None:
                    st.prepare(r)
                sample = run_process(st.argv(r), ROOT, st.outputs(r))
                st.samples.append(sample)
                if args.verbose:
                    print(f"run {r + 1} {name}: {sample.wall:.3f} s wall, {sample.cpu:.3f} s cpu, "
                          f"{sample.rss_mib:.0f} MiB, rc {sample.rc}", file=sys.stderr)
        try:
            measured = preview_latency(pnp, decks["deck_x10"], out / f"preview-{r}")
        except Exception as exc:  # recorded as a failure; the other measurements stand
            measured = {"error": f"{type(exc).__name__}: {exc}"}
        measured["build_wall"] = round(stages["deck_x10"].samples[-1].wall, 4)
        if "latency" in measured:
            measured["ratio"] = round(measured["latency"] / measured["build_wall"], 4)
        previews.append(measured)
        if args.verbose:
            print(f"run {r + 1} preview: {measured}", file=sys.stderr)
        if r < args.runs - 1:  # keep the disk small: the last run's outputs are listed below
            for p in out.glob(f"*-{r}*"):
                if p.is_dir():
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    p.unlink(missing_ok=True)

    # The largest deck, once (each takes tens of seconds): the base deck --large-scale times over.
    if args.large_scale:
        decks["deck_x100"] = work / "games" / "deck_x100"
        counts["deck_x100"] = make_deck(decks["deck_x100"], args.cards, args.large_scale, layouts_text)
        for st in (deck_stage("deck_x100"), raw_stage("deck_x100")):
            st.samples.append(run_process(st.argv(0), ROOT, st.outputs(0)))
            stages[st.name] = st
            if args.verbose:
                print(f"{st.name}: {st.samples[0].wall:.3f} s wall, {st.samples[0].rss_mib:.0f} MiB", file=sys.stderr)

    # Images used on every card: embedded once per PDF?
    img_dir = work / "games" / "image-reuse"
    distinct_art = make_image_game(img_dir, args.image_cards)
    img_out = work / "out" / "image-reuse"
    img = Stage("images", None, None, args.image_cards)
    img.samples.append(run_process(pnp + ["build", str(img_dir), "--force", "--no-contact-sheets", "-o",
                                          str(img_out)], ROOT, [img_out]))
    pdfs = sorted(img_out.rglob("*.pdf"))
    images = {"cards": args.image_cards, "art_files": distinct_art, "uses": 2 * args.image_cards,
              **(pdf_stats(pdfs[0]) if pdfs else {})}
    stages["images"] = img

    # Large art: peak memory and file size when every picture is 4000 x 4000 px.
    stages["big_art"], big_art = run_big_art(args, pnp, work)

    # What the large deck's PDF holds, beside the floor's (last run).
    last = args.runs - 1
    pdfs = sorted((out / f"deck_x10-{last}").rglob("*.pdf"))
    raw_pdf = out / f"raw_deck_x10-{last}.pdf"
    contents = {"pnp": pdf_stats(pdfs[0]) if pdfs else {},
                "raw": pdf_stats(raw_pdf) if raw_pdf.is_file() else {}}
    games_outputs = list_outputs(out / f"games-{last}") if (out / f"games-{last}").is_dir() else {}
    return summarise(args, stages, counts, images, contents, games_outputs, notes, layouts_text is not None,
                     big_art, previews)


def _shown(path: str) -> str:
    """A game argument as the report shows it: relative to the repository when inside it."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return path


def summarise(args, stages: dict[str, Stage], counts, images, contents, games_outputs, notes, fallback,
              big_art: dict, previews: list[dict] = ()) -> dict:
    result: dict = {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": dict(args.machine, load_after=[round(x, 2) for x in os.getloadavg()]
                        if hasattr(os, "getloadavg") else None),
        "versions": versions(),
        "config": {"runs": args.runs, "quick": args.quick, "cards": counts, "scale": args.scale,
                   "large_scale": args.large_scale,
                   "games": [_shown(g) for g in args.games] if args.games else "every bundled game", "layouts": "fallback" if fallback else
                   "templates/periodic-shed/layouts.toml", "image_cards": args.image_cards,
                   "big_art": {"cards": args.big_art_cards, "px": args.big_art_px}},
        "notes": notes,
        "stages": {},
        "ratios": {},
        "goals": [],
        "images": images,
        "big_art": big_art,
        "deck_x10_pdf": contents,
        "games_outputs": games_outputs,
        "preview": {"runs": list(previews),
                    "median": {k: median([p.get(k) for p in previews]) for k in ("latency", "build_wall", "ratio")}},
        "failures": [],
    }
    for p in previews:
        if "error" in p:
            result["failures"].append({"stage": "preview", "rc": 1, "output": p["error"]})
    for name, st in stages.items():
        med = {k: median([getattr(s, k) for s in st.samples]) for k in ("wall", "cpu", "rss_mib", "bytes")}
        result["stages"][name] = {"cards": st.cards, "runs": [s.as_dict() for s in st.samples],
                                  "median": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in med.items()}}
        bad = [s for s in st.samples if s.rc != 0]
        if bad and st.expect_ok:
            result["failures"].append({"stage": name, "rc": bad[0].rc, "output": bad[0].tail[-1200:]})
    for deck in ("deck", "deck_x10"):
        ours, raw = stages[deck].samples, stages["raw_" + deck].samples
        per_run = [{"wall": round(a.wall / b.wall, 3), "cpu": round(a.cpu / b.cpu, 3) if b.cpu else None,
                    "rss": round(a.rss_mib / b.rss_mib, 3), "bytes": round(a.bytes / b.bytes, 3) if b.bytes else None}
                   for a, b in zip(ours, raw)]
        result["ratios"][deck] = {"runs": per_run,
                                  "median": {k: median([p[k] for p in per_run]) for k in ("wall", "cpu", "rss", "bytes")}}
    S = result["stages"]

    def m(name, key="wall"):
        return S[name]["median"][key]

    goals = result["goals"]
    for deck, target in (("deck", GOALS["deck_ratio"]), ("deck_x10", GOALS["deck_x10_ratio"])):
        ratio = result["ratios"][deck]["median"]["wall"]
        cpu = result["ratios"][deck]["median"]["cpu"]
        goals.append({"goal": f"{counts[deck]}-card deck within {target:g}x of raw reportlab (wall)",
                      "measured": f"{ratio:.2f}x ({cpu:.2f}x in CPU time)", "met": ratio <= target})
    n0, n1, n2 = counts["deck_sheet"], counts["deck"], counts["deck_x10"]
    if n1 > n0 and n2 > n1:
        # The least CPU of each stage's runs: the run least disturbed by other work on the machine.
        def low(name):
            return min(s.cpu for s in stages[name].samples)

        m1 = (low("deck") - low("deck_sheet")) / (n1 - n0)
        m2 = (low("deck_x10") - low("deck")) / (n2 - n1)
        growth = m2 / m1 if m1 > 0 else float("inf")
        result["marginal_ms_per_card"] = {f"{n0}->{n1}": round(m1 * 1000, 3), f"{n1}->{n2}": round(m2 * 1000, 3)}
        goals.append({"goal": f"cost linear in cards (least CPU per extra card, {n1}->{n2} over {n0}->{n1}, "
                              f"at most {GOALS['linear']:g}x)",
                      "measured": f"{m1 * 1000:.2f} ms then {m2 * 1000:.2f} ms per card "
                                  + (f"({growth:.2f}x)" if m1 > 0 else "(the small decks differ by less than the noise)"),
                      "met": growth <= GOALS["linear"]})
    mem = m("deck_x10", "rss_mib") / m("deck", "rss_mib")
    raw_mem = m("raw_deck_x10", "rss_mib") / m("raw_deck", "rss_mib")
    goals.append({"goal": f"peak memory flat as the deck grows ({n2} over {n1} cards, at most {GOALS['memory']:g}x)",
                  "measured": f"{m('deck', 'rss_mib'):.0f} MiB -> {m('deck_x10', 'rss_mib'):.0f} MiB ({mem:.2f}x; "
                              f"raw reportlab {raw_mem:.2f}x)",
                  "met": mem <= GOALS["memory"]})
    if "deck_x100" in S and "raw_deck_x100" in S:
        n3 = counts["deck_x100"]
        ratio = m("deck_x100") / m("raw_deck_x100")
        goals.append({"goal": f"{n3}-card deck within {GOALS['deck_x100_ratio']:g}x of raw reportlab (wall, one run)",
                      "measured": f"{ratio:.2f}x ({m('deck_x100'):.2f} s against {m('raw_deck_x100'):.2f} s)",
                      "met": ratio <= GOALS["deck_x100_ratio"]})
        goals.append({"goal": f"peak memory of the {n3}-card deck under {GOALS['deck_x100_rss']:g} MiB",
                      "measured": f"{m('deck_x100', 'rss_mib'):.0f} MiB (raw reportlab "
                                  f"{m('raw_deck_x100', 'rss_mib'):.0f} MiB)",
                      "met": m("deck_x100", "rss_mib") < GOALS["deck_x100_rss"]})
    if images.get("image_distinct") is not None:
        goals.append({"goal": "an image used on every card embedded once per PDF",
                      "measured": f"{images['image_distinct']} image XObject(s) for {images['art_files']} PNGs "
                                  f"placed {images['uses']} times",
                      "met": images["image_distinct"] == images["art_files"]})
    goals += big_art_goals(big_art)
    ours, floor = contents["pnp"], contents["raw"]
    if ours.get("back_bytes_total") is not None and floor.get("back_bytes_total"):
        per_card = ours["back_bytes_total"] / n2
        floor_card = floor["back_bytes_total"] / n2
        share = per_card / floor_card
        goals.append({"goal": f"a deck back used on every card stored once per PDF (the bytes that draw the back "
                              f"sheets, per card, at most {GOALS['back_share']:.0%} of the floor's, which draws "
                              f"every back)",
                      "measured": f"{per_card:,.0f} bytes a card against {floor_card:,.0f} ({share:.0%}); "
                                  f"{ours['form_distinct']} form XObject(s) placed {ours['form_placements']} times",
                      "met": share <= GOALS["back_share"]})
    for key, stage, base, label in (
            ("games_ratio", "games", "raw_deck_x10", f"bundled games built in full, against the floor's {n2} cards"),
            ("nochange_ratio", "games_nochange", "games", "a build of the bundled games with nothing to do, against "
                                                         "the full build"),
            ("nochange_help", "games_nochange", "help", "a build with nothing to do, against `pnp --help`"),
            ("check_warm_ratio", "check_warm", "raw_deck_x10", f"`pnp check` after a build, against the floor's {n2} "
                                                               "cards"),
            ("check_cold_ratio", "check", "games", "`pnp check` with no build to reuse, against the full build it "
                                                   "mirrors")):
        if stage not in S or base not in S or not m(base):
            continue
        ratio = m(stage) / m(base)
        goals.append({"goal": f"{label}: at most {GOALS[key]:g}x (wall)",
                      "measured": f"{ratio:.2f}x ({m(stage):.2f} s against {m(base):.2f} s)",
                      "met": ratio <= GOALS[key]})
    if "protograf_deck" in S and m("deck"):
        result["protograf_ratio"] = {"wall": round(m("protograf_deck") / m("deck"), 3),
                                     "cpu": round(m("protograf_deck", "cpu") / m("deck", "cpu"), 3),
                                     "raw_wall": round(m("protograf_deck") / m("raw_deck"), 3)}
    if "export_tgc" in S and m("games"):
        result["export_tgc_ratio"] = round(m("export_tgc") / m("games"), 3)  # recorded; the issue sets no target
    goals.append({"goal": f"`pnp --help` under {GOALS['help_cpu']:g} s of process time (CPU)",
                  "measured": f"{m('help', 'cpu'):.2f} s CPU ({m('help'):.2f} s wall)",
                  "met": m("help", "cpu") < GOALS["help_cpu"]})
    if "list" in S:
        goals.append({"goal": f"`pnp list` of the games under {GOALS['help_cpu']:g} s of process time (CPU)",
                      "measured": f"{m('list', 'cpu'):.2f} s CPU ({m('list'):.2f} s wall)",
                      "met": m("list", "cpu") < GOALS["help_cpu"]})
    if "game_only" in S and "game_full" in S:
        ratio = m("game_only") / m("game_full")
        goals.append({"goal": f"`pnp build {ONLY_GAME} --only {ONLY_DECK}` within {GOALS['only_ratio']:g}x of "
                              f"the full build of {ONLY_GAME} (wall)",
                      "measured": f"{ratio:.2f}x ({m('game_only'):.2f} s against {m('game_full'):.2f} s)",
                      "met": ratio <= GOALS["only_ratio"]})
    if "game_edit" in S and "game_full" in S:
        ratio = m("game_edit") / m("game_full")
        goals.append({"goal": f"`pnp build {ONLY_GAME}` after one changed cell of its deck within "
                              f"{GOALS['edit_ratio']:g}x of its full build (wall)",
                      "measured": f"{ratio:.2f}x ({m('game_edit'):.2f} s against {m('game_full'):.2f} s)",
                      "met": ratio <= GOALS["edit_ratio"]})
    pv = result["preview"]["median"]
    if pv["ratio"] is not None:
        goals.append({"goal": f"one changed cell of the {n2}-card deck shown by `pnp preview` within "
                              f"{GOALS['preview_ratio']:g}x of a full build of it (save to refreshed card, wall)",
                      "measured": f"{pv['ratio']:.3f}x ({pv['latency']:.2f} s against {pv['build_wall']:.2f} s)",
                      "met": pv["ratio"] <= GOALS["preview_ratio"]})
    if args.quick:
        for g in goals:
            g["note"] = "quick size: not the goal's size"
    return result


def big_art_goals(big: dict) -> list[dict]:
    """The large-art goals: peak memory and PDF size under their limits."""
    if big.get("pdf_bytes") is None:
        return []
    what = f"{big['cards']} faces and a back of {big['px']} x {big['px']} px"
    return [{"goal": f"large art ({what}): peak memory under {GOALS['big_art_rss']:g} MiB",
             "measured": f"{big['rss_mib']:.0f} MiB", "met": big["rss_mib"] < GOALS["big_art_rss"]},
            {"goal": f"large art ({what}): cards PDF under {GOALS['big_art_pdf']:g} MB",
             "measured": f"{big['pdf_bytes'] / 1e6:.1f} MB ({big['art_bytes'] / 1e6:.0f} MB of PNGs; largest image "
                         f"embedded {' x '.join(map(str, big.get('image_max_px') or ['?']))} px)",
             "met": big["pdf_bytes"] / 1e6 < GOALS["big_art_pdf"]}]


def big_art_lines(big: dict) -> list[str]:
    """The report's line on the large-art deck."""
    if big.get("pdf_bytes") is None:
        return []
    px = big.get("image_max_px") or ["?", "?"]
    return [f"Large art: {big['cards']} cards, {big['art_files']} PNGs of {big['px']} x {big['px']} px "
            f"({big['art_bytes'] / 1e6:.0f} MB): cards PDF {big['pdf_bytes'] / 1e6:.2f} MB, peak memory "
            f"{big['rss_mib']:.0f} MiB, {big.get('image_distinct')} image XObjects, the largest {px[0]} x {px[1]} px."]


def only_big_art(args) -> int:
    """``--only-big-art``: the large-art case alone, ``--runs`` times; prints its lines."""
    pnp = pnp_command()
    run_process(pnp + ["--help"], ROOT)  # warm-up, not measured: byte-compiles pnp
    failed = False
    for r in range(args.runs):
        work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
        try:
            stage, big = run_big_art(args, pnp, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        sample = stage.samples[0]
        failed = failed or sample.rc != 0
        print(f"run {r + 1}: {sample.wall:.2f} s wall, {sample.cpu:.2f} s CPU, exit {sample.rc}")
        for line in big_art_lines(big):
            print(line)
        for goal in big_art_goals(big):
            print(f"- {goal['goal']}: {goal['measured']} ({'met' if goal['met'] else 'missed'})")
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------
# Reports

def _mib(x):
    return f"{x:.0f}" if x is not None else "-"


def _kb(b):
    return f"{b / 1024:,.0f}" if b else "-"


def markdown(res: dict) -> str:
    mach, ver, cfg = res["machine"], res["versions"], res["config"]
    lines = [
        f"Recorded {res['date']} with `python bench/run.py --runs {cfg['runs']}"
        + (" --quick" if cfg["quick"] else "") + "`.",
        "",
        f"- Machine: {mach['nproc']} CPUs ({mach['cpu']}), {mach['ram_gib']} GiB RAM, {mach['system']}; "
        f"load average (1, 5, 15 min) before the run {mach['load_before']}, after it {mach.get('load_after')}",
        "- Versions: " + ", ".join(f"{k} {v}" for k, v in ver.items()),
        f"- Decks: {cfg['cards']['deck_sheet']}, {cfg['cards']['deck']} and {cfg['cards']['deck_x10']} cards "
        f"(layouts: {cfg['layouts']}); games: {cfg['games']}",
    ]
    for note in res["notes"]:
        lines.append(f"- Note: {note}")
    loads = [x for x in (mach.get("load_before"), mach.get("load_after")) if x]
    if loads and max(x[0] for x in loads) > (mach["nproc"] or 1):
        lines.append(f"- Note: other work shared the machine (load average above its {mach['nproc']} cores): wall "
                     "times include waiting for a core, so the CPU times are the steadier measure")
    lines += ["", "### Goals", "", "| goal | measured | met |", "| --- | --- | --- |"]
    for g in res["goals"]:
        lines.append(f"| {g['goal']} | {g['measured']} | {'met' if g['met'] else '**missed**'} |")
    if res.get("protograf_ratio"):
        pr = res["protograf_ratio"]
        lines += ["", f"protograf (`bench/protograf_deck.py`, fewer boxes and no back sheets) takes {pr['wall']:.2f}x "
                      f"pnp's time for the {cfg['cards']['deck']} cards ({pr['cpu']:.2f}x in CPU time) and "
                      f"{pr['raw_wall']:.2f}x the floor's (wall)."]
    if res.get("export_tgc_ratio") is not None:
        lines += ["", f"`pnp export -t tgc` of the bundled games takes {res['export_tgc_ratio']:.2f}x their full "
                      "build (wall; recorded, no goal)."]
    lines += ["", "### Stages (medians)", "",
              "| stage | cards | wall s | CPU s | peak MiB | output KiB | runs (wall s) |",
              "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name, st in res["stages"].items():
        md = st["median"]
        runs = ", ".join(f"{r['wall']:.2f}" for r in st["runs"])
        lines.append(f"| {name} | {st['cards'] or ''} | {md['wall']:.3f} | {md['cpu']:.3f} | {_mib(md['rss_mib'])} "
                     f"| {_kb(md['bytes'])} | {runs} |")
    lines += ["", "### pnp / raw reportlab, run by run", "", "| deck | wall | CPU | peak memory | output size |",
              "| --- | --- | --- | --- | --- |"]
    for deck, r in res["ratios"].items():
        def cell(key):
            vals = ", ".join(f"{p[key]:.2f}" for p in r["runs"] if p[key] is not None)
            return f"**{r['median'][key]:.2f}** ({vals})" if r["median"][key] is not None else "-"
        lines.append(f"| {res['config']['cards'][deck]} cards | {cell('wall')} | {cell('cpu')} | {cell('rss')} "
                     f"| {cell('bytes')} |")
    pv = res.get("preview", {})
    if pv.get("runs"):
        def pcell(key, fmt):
            vals = ", ".join(format(p[key], fmt) for p in pv["runs"] if p.get(key) is not None)
            return f"**{pv['median'][key]:{fmt}}** ({vals})" if pv["median"].get(key) is not None else "-"
        lines += ["", f"`pnp preview` of the {res['config']['cards']['deck_x10']}-card deck, one cell saved, run by "
                  "run (save to refreshed card, and the same run's full build of the deck):", "",
                  "| save to refreshed card, s | full build, s | ratio |", "| --- | --- | --- |",
                  f"| {pcell('latency', '.3f')} | {pcell('build_wall', '.2f')} | {pcell('ratio', '.3f')} |"]
    if "marginal_ms_per_card" in res:
        lines += ["", "Marginal CPU per card (least CPU of the runs): " + ", ".join(f"{k} cards: {v} ms" for k, v in
                                                           res["marginal_ms_per_card"].items())]
    im = res["images"]
    lines += ["", f"Image reuse: {im.get('cards')} cards, {im.get('art_files')} PNGs used {im.get('uses')} times: "
              f"{im.get('image_distinct')} image XObjects, {im.get('image_placements')} placements."]
    big = big_art_lines(res.get("big_art") or {})
    if big:
        lines += [""] + big
    lines += ["", f"Inside the {res['config']['cards']['deck_x10']}-card PDFs (decompressed content bytes: a sheet's "
              "page on average, and all the sheets of a side with the forms they use):",
              "", "| PDF | pages | front sheet page | back sheet page | fronts, forms included | backs, forms "
              "included | form XObjects (placed) |",
              "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for who, st in res["deck_x10_pdf"].items():
        if st.get("reader") == "pypdf":
            lines.append(f"| {who} | {st['pages']} | {st['front_sheet_bytes']:,} | {st['back_sheet_bytes']:,} "
                         f"| {st['front_bytes_total']:,} | {st['back_bytes_total']:,} "
                         f"| {st['form_distinct']} ({st['form_placements']}) |")
    if res["games_outputs"]:
        lines += ["", "What `pnp build` of the games wrote (last run):", "", "| kind | files | KiB |",
                  "| --- | ---: | ---: |"]
        for kind, k in res["games_outputs"].items():
            lines.append(f"| {kind} | {k['files']} | {k['bytes'] / 1024:,.0f} |")
    if res["failures"]:
        lines += ["", "### Failures", ""]
        for f in res["failures"]:
            lines += [f"- {f['stage']}: exit {f['rc']}", "", "```", f["output"].strip(), "```"]
    return "\n".join(lines) + "\n"


def update_results(md: str, path: Path = RESULTS_MD) -> None:
    """Replace the generated part of RESULTS.md (between the bench markers) with ``md``."""
    text = path.read_text(encoding="utf-8") if path.is_file() else f"# Benchmark results\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip("\n") + f"\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(f"{head}{BEGIN}\n{md}{END}{tail}", encoding="utf-8")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# Profiling

def profile_summary(stats, top: int = 30) -> str:
    """The ``top`` functions of pnp/ by cumulative time, with their share of the whole run."""
    total = stats.total_tt or 1.0
    pkg = str(ROOT / "pnp")
    rows = sorted(((ct, tt, nc, f, line, fn) for (f, line, fn), (_, nc, tt, ct, _) in stats.stats.items()
                   if f.startswith(pkg)), reverse=True)[:top]
    lines = [f"pnp functions by cumulative time (whole run {total:.2f} s under the profiler)", "",
             f"{'share':>6} {'cum s':>7} {'own s':>7} {'calls':>8}  function"]
    for ct, tt, nc, f, line, fn in rows:
        lines.append(f"{100 * ct / total:5.1f}% {ct:7.2f} {tt:7.2f} {nc:8d}  {Path(f).relative_to(ROOT)}:{line} {fn}")
    return "\n".join(lines) + "\n\n"


def profile(args) -> None:
    """cProfile the x10 deck build, the bundled games' build (games one after the other, so
    the profile sees them all), `pnp check` and `pnp --help`; -X importtime for --help. Writes
    .prof files and a listing of each (by own time and by cumulative time) into ``args.profile``."""
    import pstats

    dest = args.profile
    dest.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="pnp-profile-"))
    try:
        deck = work / "deck_x10"
        cards = make_deck(deck, args.cards, args.scale, None if SOURCE_LAYOUTS.is_file() else FALLBACK_LAYOUTS)
        runs = {
            "build_x10": ["build", str(deck), "--force", "--no-contact-sheets", "-o", str(work / "out")],
            "build_games": ["build", "--force", "-o", str(work / "games")],
            "check": ["check"],
            "help": ["--help"],
        }
        serial = work / "serial_pnp.py"  # games one after the other, so the profile sees every build
        serial.write_text("import sys\nimport pnp.pipeline.build as b\n_jobs = b.run_jobs\n"
                          "b.run_jobs = lambda jobs, workers=None, listener=None: _jobs(jobs, 1, listener)\n"
                          "from pnp.cli import main\nsys.argv[0] = 'pnp'\nmain()\n", encoding="utf-8")
        for name, argv in runs.items():
            prof = dest / f"{name}.prof"
            subprocess.run([sys.executable, "-m", "cProfile", "-o", str(prof), str(serial), *argv], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            buf = io.StringIO()
            stats = pstats.Stats(str(prof), stream=buf)
            buf.write(profile_summary(stats))
            stats.sort_stats("tottime").print_stats(30)
            stats.sort_stats("cumulative").print_stats(45)
            (dest / f"{name}.txt").write_text(buf.getvalue(), encoding="utf-8")
            print(f"{name}: {dest / (name + '.txt')}" + (f" ({cards} cards)" if name == "build_x10" else ""))
        imp = subprocess.run([sys.executable, "-X", "importtime", "-m", "pnp", "--help"], cwd=ROOT,
                             capture_output=True, text=True)
        (dest / "help_importtime.txt").write_text(imp.stderr, encoding="utf-8")
        print(f"import times: {dest / 'help_importtime.txt'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark pnp against raw reportlab; see bench/README.md.")
    parser.add_argument("--runs", type=int, default=None, help="runs of every stage (default 5; 1 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="CI smoke size: decks of 9, 18 and 54 cards, one run, the test fixture game")
    parser.add_argument("--cards", type=int, default=None, help="cards in the base deck (default 128: all)")
    parser.add_argument("--scale", type=int, default=None, help="copies of the base deck in the large deck (10)")
    parser.add_argument("--large-scale", type=int, default=None,
                        help="copies of the base deck in the largest deck, built once (100; 5 with --quick; 0: none)")
    parser.add_argument("--sheet-cards", type=int, default=9, help="cards in the one-sheet deck (9)")
    parser.add_argument("--image-cards", type=int, default=None, help="cards in the image-reuse deck (27)")
    parser.add_argument("--big-art-cards", type=int, default=None, help="cards in the large-art deck (9)")
    parser.add_argument("--big-art-px", type=int, default=None,
                        help="width and height of each large-art picture, px (4000; 800 with --quick)")
    parser.add_argument("--only-big-art", action="store_true",
                        help="run only the large-art deck (--runs times) and print its figures")
    parser.add_argument("--games", nargs="*", default=None,
                        help="games for the games/check stages (default every bundled game)")
    parser.add_argument("--json", type=Path, default=ROOT / "output" / "bench" / "results.json",
                        help="where to write the results JSON (default output/bench/results.json)")
    parser.add_argument("--update-results", action="store_true",
                        help="rewrite the generated part of bench/RESULTS.md")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="profile instead of benchmarking; write .prof and listings into DIR")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each measurement as it is taken")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs = args.runs or 1
        args.cards = args.cards or 18
        args.scale = args.scale or 3
        args.large_scale = 5 if args.large_scale is None else args.large_scale
        args.image_cards = args.image_cards or 9
        args.big_art_cards = args.big_art_cards or 3
        args.big_art_px = args.big_art_px or 800
        if args.games is None:
            args.games = [str(ROOT / "tests" / "fixtures" / "tiny")]
    args.runs = args.runs or 5
    args.cards = args.cards or 128
    args.scale = args.scale or 10
    args.large_scale = 100 if args.large_scale is None else args.large_scale
    args.image_cards = args.image_cards or 27
    args.big_art_cards = args.big_art_cards or 9
    args.big_art_px = args.big_art_px or 4000
    if args.runs < 1 or args.cards < 1 or args.scale < 2 or args.sheet_cards < 1 or args.sheet_cards >= args.cards:
        parser.error("need --runs >= 1, --scale >= 2 and 1 <= --sheet-cards < --cards")
    if args.large_scale < 0:
        parser.error("need --large-scale >= 0")
    compile_pnp()
    if args.profile:
        profile(args)
        return 0
    if args.only_big_art:
        return only_big_art(args)
    res = run_bench(args)
    md = markdown(res)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.json.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(res, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, args.json)
    if args.update_results:
        update_results(md)
    sys.stdout.write(md)
    return 1 if res["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
