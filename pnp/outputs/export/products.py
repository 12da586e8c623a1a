"""A print shop's products for pieces other than cards: boards and punchout tokens, with the
shop's template sizes (a profile's ``[products]`` table; docs/export.md, "Boards and tokens").

Each product has a kind (``board`` or ``token``), a shape (``rect`` for boards, ``circle`` or
``square`` for tokens), its trim and its template's pixel size at 300 dpi (trim plus the
shop's bleed). A piece of the game is matched to the smallest product of its kind and shape
that it fits (:func:`match`):

- it is no larger than the product's trim plus ``fit_tolerance`` on either side (either way
  round: a landscape board fits a portrait product turned);
- scaled, keeping its proportions, until it covers the product's trim, it loses at most
  ``fit_tolerance`` of its art past the trim on each axis (its proportions match);
- that scale is at most ``max_enlargement`` (a small piece is not blown up to a large product).

A piece no product takes is an ``export.no-product`` warning (:func:`no_product`) at the
game.toml key or table cell that gives its size, naming the nearest products.

No profile has box products: asked for the tuck boxes ``pnp build --boxes`` makes (``pnp
export --boxes``, ``pnp check --boxes -t TARGET``), an export gives an ``export.no-box``
warning per box (:func:`box_findings`). The Game Crafter's tuck boxes (Poker Tuck Box 54 and
others) have known template sizes (2325 x 1950 px at 300 dpi for the 54-card box,
templative/templative-electron ``src/shared/componentInfo.js``), but no source was found for
their panel layout: the outline template of that tool
(``src/main/templative/lib/componentTemplateOutlines/PokerTuckBox54.svg``) gives the cut outline
only, not the folds or which panel is the front, back, a side or a flap. Without it pnp cannot
place the faces it prints on a box, and it does not guess them (docs/export.md, "Boards and
tokens").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ...core.errors import Location
from ...core.findings import Finding
from ...core.units import Size, parse_size, to_mm
from ...design.layouts import LayoutSet
from ...model.game import Game
from ..boxspec import box_specs, deck_counts

PRODUCT_KINDS = {"board": ("rect",), "token": ("circle", "square")}
"""Product kinds and the shapes each may have."""

TEMPLATE_DPI = 300
"""The resolution product templates' pixel sizes are given at (docs/print-specs.md §2)."""

RULE = "export.no-product"
BOX_RULE = "export.no-box"


@dataclass(frozen=True)
class Product:
    """One shop product: ``trim`` in pt, ``px`` the template's (width, height) at 300 dpi."""

    key: str
    name: str
    kind: str
    shape: str
    trim: Size
    px: tuple[int, int]

    def bleed(self) -> tuple[float, float]:
        """The template's bleed per side in pt (x, y): half of what the template adds to the trim."""
        w, h = (p * 72.0 / TEMPLATE_DPI for p in self.px)
        return (w - self.trim.width) / 2, (h - self.trim.height) / 2

    def describe(self) -> str:
        return (f"{self.name} ({to_mm(self.trim.width):g} x {to_mm(self.trim.height):g} mm, "
                f"{self.px[0]} x {self.px[1]} px)")


@dataclass(frozen=True)
class Fit:
    """How a piece goes on a product: ``turned`` when the product is used the other way round
    (its template's width and height swap), ``scale`` the piece is drawn at."""

    product: Product
    turned: bool
    scale: float

    @property
    def trim(self) -> Size:
        t = self.product.trim
        return Size(t.height, t.width) if self.turned else t

    @property
    def px(self) -> tuple[int, int]:
        w, h = self.product.px
        return (h, w) if self.turned else (w, h)


def parse_products(raw: dict, err: Callable[[str, str, str | None], Exception]) -> dict[str, Product]:
    """The ``[products]`` table of a profile: key -> {name, kind, shape, trim, px}. ``err(key,
    message, hint)`` makes the error raised for a bad entry (naming the file and key)."""
    out: dict[str, Product] = {}
    for key, item in raw.items():
        where = f"products.{key}"
        if not isinstance(item, dict):
            raise err(where, "a product is a table", 'for example { name = "Quad Fold Board", kind = "board", '
                      'shape = "rect", trim = "18in x 18in", px = [5475, 5475] }')
        unknown = set(item) - {"name", "kind", "shape", "trim", "px"}
        if unknown:
            raise err(f"{where}.{sorted(unknown)[0]}", f"unknown product setting {sorted(unknown)[0]!r}",
                      "product settings: name, kind, shape, trim, px")
        kind = item.get("kind")
        if kind not in PRODUCT_KINDS:
            raise err(f"{where}.kind", f"kind {kind!r} is not one of {', '.join(PRODUCT_KINDS)}", None)
        shape = item.get("shape", PRODUCT_KINDS[kind][0])
        if shape not in PRODUCT_KINDS[kind]:
            raise err(f"{where}.shape", f"a {kind} product's shape is one of {', '.join(PRODUCT_KINDS[kind])}, "
                      f"not {shape!r}", None)
        try:
            trim = parse_size(str(item.get("trim", "")))
        except ValueError as exc:
            raise err(f"{where}.trim", str(exc), None) from None
        px = item.get("px")
        if (not isinstance(px, list) or len(px) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in px)):
            raise err(f"{where}.px", f"px must be [width, height] in whole pixels at 300 dpi, not {px!r}", None)
        product = Product(key, str(item.get("name", key)), kind, shape, trim, (px[0], px[1]))
        bx, by = product.bleed()
        if bx < -0.01 or by < -0.01:
            raise err(f"{where}.px", f"the template ({px[0]} x {px[1]} px at 300 dpi) is smaller than the trim",
                      None)
        out[key] = product
    return out


def _fit(size: Size, product: Product, tolerance: float, max_enlargement: float) -> Fit | None:
    for turned in (False, True):
        t = product.trim
        pw, ph = (t.height, t.width) if turned else (t.width, t.height)
        if size.width > pw + tolerance or size.height > ph + tolerance:
            continue
        scale = max(pw / size.width, ph / size.height)
        if scale > max_enlargement + 1e-9:
            continue
        if scale * size.width - pw > tolerance + 1e-9 or scale * size.height - ph > tolerance + 1e-9:
            continue
        return Fit(product, turned, scale)
    return None


def candidates(products: dict[str, Product], kind: str, shape: str) -> list[Product]:
    """The products of ``kind`` and ``shape``, smallest trim area first (then by name)."""
    return sorted((p for p in products.values() if p.kind == kind and p.shape == shape),
                  key=lambda p: (p.trim.width * p.trim.height, p.name))


def match(products: dict[str, Product], kind: str, shape: str, size: Size, tolerance: float,
          max_enlargement: float) -> Fit | None:
    """The smallest product of ``kind`` and ``shape`` a piece of trim ``size`` (pt) fits, and how;
    None when none does (see the module docstring for the rule)."""
    for product in candidates(products, kind, shape):
        found = _fit(size, product, tolerance, max_enlargement)
        if found is not None:
            return found
    return None


def nearest(products: dict[str, Product], kind: str, shape: str, size: Size, n: int = 3) -> list[Product]:
    """Up to ``n`` products of ``kind`` and ``shape`` closest to ``size`` (by the ratio of their
    sides to the piece's, either way round)."""
    def distance(p: Product) -> float:
        a = abs(math.log(p.trim.width / size.width)) + abs(math.log(p.trim.height / size.height))
        b = abs(math.log(p.trim.height / size.width)) + abs(math.log(p.trim.width / size.height))
        return min(a, b)
    return sorted(candidates(products, kind, shape), key=lambda p: (distance(p), p.name))[:n]


def no_product(profile_title: str, target: str, products: dict[str, Product], kind: str, shape: str, size: Size,
               what: str, where: Location, component: str, piece: str, tolerance: float,
               max_enlargement: float) -> Finding:
    """The ``export.no-product`` warning for a piece (``what``: ``board 'Track'``) of trim
    ``size`` that no product of ``kind`` and ``shape`` takes, at ``where`` (the key or cell
    that gives its size)."""
    dims = f"{to_mm(size.width):g} x {to_mm(size.height):g} mm"
    close = nearest(products, kind, shape, size)
    if close:
        hint = ("nearest products: " + "; ".join(p.describe() for p in close)
                + f". A piece fits a product when it is at most {to_mm(tolerance):g} mm larger, has its "
                f"proportions (within {to_mm(tolerance):g} mm) and needs at most {max_enlargement:g} x "
                "enlargement: resize it, or export it another way")
    else:
        shapes = sorted({p.shape for p in products.values() if p.kind == kind})
        hint = (f"the {target} profile has no {shape} {kind} products"
                + (f" (its {kind} products are: {', '.join(shapes)})" if shapes else "")
                + "; make this piece another way")
    shaped = f"{dims}, {shape}" if kind == "token" else dims
    return Finding.at("warning", RULE, where, f"{what} ({shaped}) matches no {profile_title} product, "
                      "so it is not exported", hint=hint, component=component, piece=piece)


def box_findings(game: Game, layouts: LayoutSet | None, profile_title: str, has_products: bool) -> list[Finding]:
    """An ``export.no-box`` warning for each tuck box ``pnp build --boxes`` makes of ``game``
    (each ``[boxes.ID]`` group at its table's key, each other deck at its component's key): the
    export for ``profile_title`` has no box product, so the box is not exported.
    ``has_products`` (the shop makes boards and tokens: The Game Crafter) says why its boxes
    are not among them. Problems of the boxes themselves (``box.group``, ``box.face``) are the
    boxes output's findings, not repeated here."""
    specs, _ = box_specs(game, deck_counts(game), layouts)
    if has_products:
        hint = (f"{profile_title}'s tuck boxes (Poker Tuck Box 54 and others) have known template sizes but no "
                "sourced panel layout (where the front, back, sides and flaps lie), so pnp cannot place the box's "
                "faces: print the box with pnp build --boxes, or make it on the shop's own template")
    else:
        hint = f"the {profile_title} export makes no boxes: print the box with pnp build --boxes"
    out = []
    for spec in specs:
        key = spec.key or f"components.{spec.decks[0].id}"
        held = "" if spec.key is None else " (" + ", ".join(c.name for c in spec.decks) + ")"
        out.append(Finding.at("warning", BOX_RULE, game.key_location(key),
                              f"the tuck box of {spec.name}{held} is not exported: the {profile_title} export has "
                              "no box products", hint=hint, component=spec.decks[0].id))
    return out
