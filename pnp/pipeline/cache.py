"""Incremental builds: skip an output whose inputs have not changed since it was written.

Each output file (the cards PDF, a contact sheet, the rulebook ...) is recorded in
``<out_dir>/.pnp-build.json`` with a key: the SHA-256 of everything that went into it (the
pnp version, the options, the content of the data, layouts, fonts and art files it read) and
the SHA-256 of the file written. A later build with the same key and the same file on disk
re-renders nothing and reports the findings recorded with it; any change to an input, or a
deleted or edited output, rebuilds it. ``pnp check`` reads the record too, so a game checked
after a build is not drawn again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ..core.files import BUILD_RECORD, file_digest, inputs_key, load_json, write_atomic  # noqa: F401  (inputs_key named here too)
from ..core.findings import Finding

RECORD = BUILD_RECORD


class BuildRecord:
    """The record of what a previous build of one game wrote, in its output folder."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.path = out_dir / RECORD
        try:
            entries = load_json(self.path)
        except (OSError, ValueError):
            entries = {}
        # a record of another shape (edited by hand, or damaged) is read as far as it is sound:
        # a stage whose entry is not is built again, as if it had no record
        self.entries: dict[str, dict] = {
            name: entry for name, entry in (entries.items() if isinstance(entries, dict) else ())
            if isinstance(entry, dict) and isinstance(entry.get("key"), str)
            and isinstance(entry.get("files"), dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in entry["files"].items())}

    def fresh(self, name: str, key: str) -> list[Path] | None:
        """The files of ``name`` when it was built with ``key`` and every one of them is still as
        written; None when it must be built again."""
        entry = self.entries.get(name)
        if not entry or entry.get("key") != key or self.findings(name) is None:
            return None
        paths = []
        for rel, digest in entry.get("files", {}).items():
            path = self.out_dir / rel
            if not path.is_file() or file_digest(path) != digest:
                return None
            paths.append(path)
        return paths

    def findings(self, name: str) -> list[Finding] | None:
        """The findings ``name`` reported when it was built (an up-to-date part reports them
        again, so a second build says what the first said); None when the record holds none
        that can be read (it is then built again)."""
        items = self.entries.get(name, {}).get("findings")
        if not isinstance(items, list):
            return None
        out = []
        for item in items:
            try:
                out.append(Finding.from_dict(item))
            except (TypeError, AttributeError):
                return None
        return out

    def record(self, name: str, key: str, outputs: Iterable[Path], findings: Iterable[Finding] = ()) -> None:
        """Remember that ``name`` was built with ``key`` into ``outputs`` and found ``findings``;
        saved at once."""
        self.entries[name] = {"key": key, "files": {
            str(Path(p).resolve().relative_to(self.out_dir.resolve())): file_digest(p) for p in outputs},
            "findings": [f.as_dict() for f in findings]}
        write_atomic(self.path, (json.dumps(self.entries, indent=1, sort_keys=True) + "\n").encode())
