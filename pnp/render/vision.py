"""Colour as players see it: colour-vision deficiencies, greyscale, colour difference and
text contrast.

- **Simulation.** Protanopia, deuteranopia and tritanopia are simulated with colorspacious'
  ``sRGB1+CVD`` space (Machado, Oliveira & Fernandes 2009, "A physiologically-based model for
  simulation of color vision deficiency", at severity 100: the full dichromacy).
- **Greyscale** is a colour's relative luminance (WCAG 2.x, from linear sRGB with the Rec. 709
  weights 0.2126, 0.7152, 0.0722) encoded back as an sRGB grey: what a monochrome printer or a
  greyscale copy keeps of it.
- **Difference** is the Euclidean distance in CAM02-UCS (Luo, Cui & Li 2006, "Uniform colour
  spaces based on CIECAM02"), colorspacious' ``deltaE``. About 1 is the smallest difference
  seen side by side; :data:`DISTINCT` is the difference below which two categories count as
  hard to tell apart at a glance on a table (docs/accessibility.md gives the reasoning).
- **Contrast** is the WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05) of relative luminances;
  :data:`MIN_CONTRAST` 4.5:1 for text, :data:`MIN_CONTRAST_LARGE` 3:1 for large text (at least
  18 pt, or 14 pt bold): WCAG 2.1 success criterion 1.4.3.

Colours are ``#RRGGBB`` strings or (r, g, b) fractions 0..1.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib.util import find_spec

from .. import __version__
from ..core.cachedir import MemoFile, cache_folder
from ..core.files import load_json

VISIONS = ("deuteranopia", "protanopia", "tritanopia")
"""The colour-vision deficiencies simulated, most common first."""
SIMULATIONS = VISIONS + ("greyscale",)
"""What ``pnp build --simulate`` can show: the three deficiencies and a greyscale print."""
_CVD = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "tritanopia": "tritanomaly"}
"""colorspacious' names: its anomalies at severity 100 are the dichromacies."""
DISTINCT = 15.0
"""CAM02-UCS ΔE below which two category colours are hard to tell apart."""
MIN_CONTRAST = 4.5
MIN_CONTRAST_LARGE = 3.0
LARGE_TEXT_PT = 18.0
LARGE_BOLD_TEXT_PT = 14.0


def rgb(color: str | tuple[float, float, float]) -> tuple[float, float, float]:
    """``#RRGGBB`` (or a tuple, returned as it is) as (r, g, b) fractions 0..1. Raises
    ValueError for any other string."""
    if isinstance(color, tuple):
        return color
    text = color.strip()
    if len(text) != 7 or not text.startswith("#"):
        raise ValueError(f"{color!r} is not a #RRGGBB colour")
    return tuple(int(text[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def to_hex(color: tuple[float, float, float]) -> str:
    """(r, g, b) fractions as ``#RRGGBB`` (clipped to 0..1)."""
    return "#" + "".join(f"{round(min(max(v, 0.0), 1.0) * 255):02X}" for v in color)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encode(v: float) -> float:
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def luminance(color) -> float:
    """WCAG 2.x relative luminance 0..1 of an sRGB colour."""
    r, g, b = rgb(color)
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def grey(color) -> tuple[float, float, float]:
    """The sRGB grey of the same relative luminance (see the module docstring)."""
    v = _encode(luminance(color))
    return v, v, v


def contrast(a, b) -> float:
    """WCAG 2.x contrast ratio of two colours, 1.0 to 21.0."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def min_contrast(size_pt: float, bold: bool) -> float:
    """The WCAG minimum for text of ``size_pt`` (3:1 for large text, else 4.5:1)."""
    large = size_pt >= LARGE_TEXT_PT or (bold and size_pt >= LARGE_BOLD_TEXT_PT)
    return MIN_CONTRAST_LARGE if large else MIN_CONTRAST


@lru_cache(maxsize=4096)
def _seen(color: tuple[float, float, float], vision: str) -> tuple[float, float, float]:
    if vision == "normal":
        return color
    if vision == "greyscale":
        return grey(color)
    from colorspacious import cspace_convert

    out = cspace_convert(list(color), {"name": "sRGB1+CVD", "cvd_type": _CVD[vision], "severity": 100}, "sRGB1")
    return tuple(float(min(max(v, 0.0), 1.0)) for v in out)  # type: ignore[return-value]


def seen(color, vision: str) -> tuple[float, float, float]:
    """The colour as a player with ``vision`` (``normal``, a :data:`VISIONS` name or
    ``greyscale``) sees it, as sRGB fractions. Raises KeyError for another vision."""
    if vision not in ("normal",) + SIMULATIONS:
        raise KeyError(vision)
    return _seen(tuple(rgb(color)), vision)


def difference(a, b, vision: str = "normal") -> float:
    """CAM02-UCS ΔE between two colours as seen with ``vision``: colorspacious's ``deltaE``,
    each colour converted to CAM02-UCS once (the conversion is most of its cost). Raises
    KeyError for a vision :func:`seen` does not know.

    A difference worked out once is kept in the machine's cache folder
    (:func:`pnp.core.cachedir.cache_folder`, ``colour/``) when :func:`save_differences` is
    called, so a later run with the same colours needs neither numpy nor colorspacious (their
    import is about a tenth of a small deck's build). The kept value is the float computed,
    so a finding reads the same either way."""
    if vision not in ("normal",) + SIMULATIONS:
        raise KeyError(vision)
    key = f"{rgb(a)!r} {rgb(b)!r} {vision}"
    value = _DIFFERENCES.known().get(key)
    if value is None:
        import numpy as np

        value = float(np.sqrt(np.sum((_ucs(seen(a, vision)) - _ucs(seen(b, vision))) ** 2, axis=-1)))
        _DIFFERENCES.add(key, value)
    return value


DIFFERENCES_KEPT = 20_000
"""Differences the cache file keeps; past that it starts again from one run's."""


def _differences_file():
    """The cache file of colour differences, or None without a cache folder. Its name holds
    what the values depend on besides the colours: pnp's version and the installed numpy and
    colorspacious (their files' sizes and times, read without importing them)."""
    folder = cache_folder("colour")
    if folder is None:
        return None
    marks = [__version__]
    for module in ("numpy", "colorspacious"):
        spec = find_spec(module)
        if spec is None or not spec.origin:
            return None
        try:
            st = os.stat(spec.origin)
        except OSError:
            return None
        marks.append(f"{st.st_size}-{st.st_mtime_ns}")
    return folder / ("delta-e-" + "_".join(marks) + ".json")


def _read_differences(path) -> dict[str, float]:
    """The differences a cache file holds ({} when it is absent or not one)."""
    try:
        data = load_json(path)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, float) for v in data.values()):
        return {}
    return data


def save_differences() -> None:
    """Add the differences worked out since the last save to the cache file, merged with what
    other runs added meanwhile. A cache that cannot be written is left as it is: the values
    are worked out again next time."""
    _DIFFERENCES.save()


_DIFFERENCES = MemoFile(_differences_file, _read_differences, DIFFERENCES_KEPT,
                        lambda merged: json.dumps(merged, sort_keys=True).encode("utf-8"))
"""The cache file and the differences known to this process: the file's, then those worked
out here (key: both colours and the vision)."""


@lru_cache(maxsize=4096)
def _ucs(color: tuple[float, float, float]):
    """CAM02-UCS J'a'b' of an sRGB colour (fractions), as colorspacious converts it."""
    from colorspacious import cspace_convert

    ucs = cspace_convert(color, "sRGB1", "CAM02-UCS")
    ucs.setflags(write=False)
    return ucs


def simulate_image(image, vision: str):
    """A Pillow RGB image as seen with ``vision`` (:data:`SIMULATIONS`), a new RGB image: the
    same transform as :func:`seen`, per pixel."""
    import numpy as np
    from PIL import Image

    arr = np.asarray(image.convert("RGB"), dtype=np.float64) / 255.0
    if vision == "greyscale":
        lin = np.where(arr <= 0.04045, arr / 12.92, ((arr + 0.055) / 1.055) ** 2.4)
        y = lin @ np.array([0.2126, 0.7152, 0.0722])
        v = np.where(y <= 0.0031308, 12.92 * y, 1.055 * np.power(y, 1 / 2.4) - 0.055)
        out = np.repeat(v[..., None], 3, axis=2)
    else:
        from colorspacious import cspace_convert

        out = cspace_convert(arr, {"name": "sRGB1+CVD", "cvd_type": _CVD[vision], "severity": 100}, "sRGB1")
    return Image.fromarray(np.rint(np.clip(out, 0.0, 1.0) * 255).astype(np.uint8), mode="RGB")
