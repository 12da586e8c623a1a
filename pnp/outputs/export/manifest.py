"""The export manifest: what every file of an export holds (``manifest.csv`` and
``manifest.json``), and which files a previous export wrote that this one does not."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

from ... import __version__
from ...core.files import load_json
from ...core.findings import Finding
from ...core.units import to_mm
from ...model.pieces import CardInstance


@dataclass
class Entry:
    """One row of the export manifest: a file (and page or sheet slot) and what it holds."""

    file: str
    side: str
    deck: str
    card_id: str
    copies: int
    page: int | None = None
    slot: int | None = None
    copy: int | None = None
    size: str = ""
    width_px: int | None = None
    height_px: int | None = None
    product: str | None = None
    """The shop product a board or token is made as (The Game Crafter's "Quad Fold Board")."""


MANIFEST_COLUMNS = ("file", "page", "slot", "side", "deck", "card_id", "copy", "copies", "size",
                    "width_px", "height_px")


def write_manifest(job, cards: list[CardInstance], findings: list[Finding]) -> None:
    """Add ``manifest.csv`` and ``manifest.json`` to the export ``job``'s outputs: every entry
    (file, page or sheet slot, side, deck, card id, copies; the product, for an export with
    boards or tokens made as shop products), every file with its SHA-256, size and
    pixel size or page count, the profile's settings and the findings."""
    p = job.profile
    columns = MANIFEST_COLUMNS + (("product",) if any(e.product for e in job.entries) else ())
    rows = [{k: ("" if getattr(e, k) is None else getattr(e, k)) for k in columns} for e in job.entries]
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    files = []
    for path, data in job.outputs:
        item = {"file": path.relative_to(job.folder).as_posix(), "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data)}
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            item["width_px"] = int.from_bytes(data[16:20], "big")
            item["height_px"] = int.from_bytes(data[20:24], "big")
        elif data[:5] == b"%PDF-":
            item["pages"] = sum(1 for e in job.entries if e.file == item["file"] and e.page is not None)
        files.append(item)
    doc = {
        "game": job.game.id, "title": job.game.title, "target": p.name,
        "profile": {
            "title": p.title, "source": p.source, "origin": p.origin, "output": p.output, "color": p.color,
            "dpi": p.dpi, "bleed_mm": round(to_mm(p.bleed), 4), "safe_zone_mm": round(to_mm(p.safe_zone), 4),
            "marks": p.marks, "page_order": list(p.page_order) if p.output == "pdf" else None,
            "copies": p.copies, "ink_limit_percent": round(p.ink.ink_limit * 100, 3) if p.ink else None,
        },
        "cards": len(cards), "files": files, "entries": [{k: getattr(e, k) for k in columns}
                                                         for e in job.entries],
        "findings": [f.as_dict() for f in findings],
        "generator": f"pnp {__version__}",
    }
    job.outputs.append((job.folder / "manifest.csv", text.getvalue().encode("utf-8")))
    job.outputs.append((job.folder / "manifest.json",
                        (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")))


def stale_files(folder: Path, keep: set[Path]) -> list[Path]:
    """Files the previous export of this target listed in its manifest and this one does not."""
    old = folder / "manifest.json"
    if not old.is_file():
        return []
    try:
        listed = load_json(old).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    out = []
    for item in listed:
        rel = item.get("file") if isinstance(item, dict) else None
        if not isinstance(rel, str) or Path(rel).is_absolute() or ".." in Path(rel).parts:
            continue
        path = folder / rel
        if path not in keep and path.is_file():
            out.append(path)
    return out
