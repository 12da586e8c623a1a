"""Smoke test of the benchmark: `python bench/run.py --quick` runs to the end and writes its results.

No timing is asserted (timings depend on the machine); the test checks that every stage ran,
that the JSON holds the keys the report is made from, and that the decks it built hold the cards
they should (read back from the PDFs the benchmark wrote, kept with --keep).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
STAGES = {"help", "list", "check", "check_warm", "export_tgc", "games", "games_nochange", "game_full", "game_only", "game_edit", "deck_sheet", "deck", "raw_deck", "deck_x10",
          "raw_deck_x10", "deck_x100", "raw_deck_x100", "images", "big_art"}


def test_quick_benchmark_writes_results(tmp_path):
    out = tmp_path / "results.json"
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--keep", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    kept = re.search(r"kept (\S+)", proc.stderr)
    try:
        _check(proc, out, Path(kept.group(1)) if kept else None)
    finally:
        if kept:
            shutil.rmtree(kept.group(1), ignore_errors=True)


def _check(proc, out: Path, work: Path | None) -> None:
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    res = json.loads(out.read_text(encoding="utf-8"))
    assert {"date", "machine", "versions", "config", "stages", "ratios", "goals", "images", "big_art",
            "deck_x10_pdf"} <= set(res)
    assert res["machine"]["nproc"] >= 1 and res["versions"]["python"]
    assert set(res["stages"]) == STAGES
    for name, stage in res["stages"].items():
        assert stage["runs"], name
        for run in stage["runs"]:
            assert run["wall"] > 0 and run["cpu"] > 0 and run["rss_mib"] > 0, (name, run)
            assert name == "check" or run["rc"] == 0, (name, run)
        assert set(stage["median"]) == {"wall", "cpu", "rss_mib", "bytes"}
    assert set(res["ratios"]) == {"deck", "deck_x10"}
    for ratio in res["ratios"].values():
        assert ratio["median"]["wall"] > 0
    assert len(res["goals"]) >= 8 and all(isinstance(g["met"], bool) for g in res["goals"])
    # pnp preview of the large deck: one run, a saved cell shown, as a ratio to that run's build
    (preview,) = res["preview"]["runs"]
    assert "error" not in preview, preview
    assert 0 < preview["latency"] < preview["build_wall"] and preview["ratio"] == round(
        preview["latency"] / preview["build_wall"], 4)
    assert any("pnp preview" in g["goal"] for g in res["goals"])
    assert any("after one changed cell" in g["goal"] for g in res["goals"])
    cards = res["config"]["cards"]
    assert cards == {"deck_sheet": 9, "deck": 18, "deck_x10": 54, "deck_x100": 90}
    # The report went to stdout, with every goal in it.
    for goal in res["goals"]:
        assert goal["goal"] in proc.stdout

    # The PDFs the benchmark built: pnp's and the floor's large deck hold the same sheets.
    assert work is not None, proc.stderr[-2000:]
    ours = PdfReader(str(next((work / "out" / "deck_x10-0").rglob("*.pdf"))))
    raw = PdfReader(str(work / "out" / "raw_deck_x10-0.pdf"))
    sheets = -(-cards["deck_x10"] // 9)
    assert len(ours.pages) == len(raw.pages) == 2 + 2 * sheets
    for a, b in zip(ours.pages, raw.pages):
        assert [round(float(v), 2) for v in a.mediabox] == [round(float(v), 2) for v in b.mediabox] \
            == [0, 0, 612, 792]
    # Copy 3 of the deck carries its own text.
    text = " ".join(ours.pages[-2].extract_text().split())
    assert "Argon 3" in text and "Neon 3" in text, text
    assert res["images"]["image_distinct"] == 2 and res["images"]["image_placements"] == 18
    # The large-art deck at the quick size: 3 faces of 800 px in 40 mm boxes (508 dpi, embedded at
    # 300 dpi: 473 px) and an 800 px back over the full bleed (213 dpi there: embedded as it is).
    big = res["big_art"]
    assert (big["cards"], big["px"], big["art_files"]) == (3, 800, 4)
    assert big["image_distinct"] == 4 and big["image_max_px"] == [800, 800]
    assert 0 < big["pdf_bytes"] < big["art_bytes"] and big["rss_mib"] > 0
    assert sum("large art" in g["goal"] for g in res["goals"]) == 2
