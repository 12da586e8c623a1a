"""Running the stages of a game's build, skipping the ones whose inputs and outputs did not
change since the last build into the same folder (:mod:`pnp.pipeline.cache`)."""

from __future__ import annotations

from pathlib import Path

from ..outputs.base import BuildResult, Stage
from .cache import BuildRecord, inputs_key


def run_stages(out_dir: Path, stages: list[Stage], options: object,
               force: bool = False) -> tuple[dict[str, BuildResult], dict[str, list[Path]]]:
    """Run each stage whose inputs or outputs changed since the last build into ``out_dir``.

    Returns the result of each stage that ran and, for each stage that was up to date, the
    files it had written. ``force`` runs every stage.
    """
    record = BuildRecord(out_dir)
    ran: dict[str, BuildResult] = {}
    skipped: dict[str, list[Path]] = {}
    for stage in stages:
        key = inputs_key(stage.inputs, (stage.name, options))
        files = None if force else record.fresh(stage.name, key)
        if files is not None:
            skipped[stage.name] = files
            continue
        result = stage.run()
        previous = record.entries.get(stage.name, {}).get("files", {})
        for rel in previous:  # files this part wrote last time and no longer makes
            old = out_dir / rel
            if old not in result.files and old.is_file() and old.resolve().is_relative_to(out_dir.resolve()):
                old.unlink()
        ran[stage.name] = result
        if not any(f.severity == "error" for f in result.findings):
            record.record(stage.name, key, result.files)
    return ran, skipped
