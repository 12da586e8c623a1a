"""One writer per kind of export file (a profile's ``output``): ``write(job, decks, workers)``
renders every deck of the export ``job`` into its files and manifest entries, in memory.
A new kind of export file is a module here and one line in :data:`WRITERS`."""

from __future__ import annotations

from typing import Callable

from . import pdf, png, tts

WRITERS: dict[str, Callable] = {
    "png": png.write,
    "pdf": pdf.write,
    "tts": tts.write,
}
"""Writer of each output kind, in the order of :data:`pnp.outputs.export.profiles.OUTPUTS`."""
