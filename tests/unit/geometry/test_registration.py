"""Print-and-cut layout and tuck box nets as pure geometry: slots never overlap, stay in the
registration area with their bleed, avoid the keep-outs; nets are the inner size exactly."""

from __future__ import annotations

import math

import pytest

from pnp.core.units import MM, PAPER_SIZES
from pnp.geometry.registration import CutterSheet, fits, layout, rect_from_top_left, rounded_rect_path
from pnp.geometry.tuckbox import inner_size, tuck_nets

LETTER = PAPER_SIZES["letter"]
SHEET = CutterSheet(LETTER, (), rect_from_top_left(LETTER, 10, 10, 195.9, 259.4),
                    (rect_from_top_left(LETTER, 10, 10, 20, 20), rect_from_top_left(LETTER, 185.9, 10, 20, 20),
                     rect_from_top_left(LETTER, 10, 249.4, 20, 20)))
BLEED = 1 * MM


def _grow(rect, by):
    x, y, w, h = rect
    return x - by, y - by, x + w + by, y + h + by


def _apart(a, b):
    return a[2] <= b[0] + 1e-6 or b[2] <= a[0] + 1e-6 or a[3] <= b[1] + 1e-6 or b[3] <= a[1] + 1e-6


def test_slots_keep_their_bleed_inside_the_area_and_clear_of_each_other_and_the_keepouts():
    sizes = [(63.5 * MM, 88.9 * MM)] * 7 + [(20 * MM, 20 * MM)] * 30
    slots = layout(SHEET, sizes, BLEED)
    assert len(slots) == len(sizes)
    ax, ay, aw, ah = SHEET.area
    boxes = [(s.sheet, _grow(s.trim, BLEED)) for s in slots]
    for page, box in boxes:
        assert box[0] >= ax - 1e-6 and box[1] >= ay - 1e-6 and box[2] <= ax + aw + 1e-6 and box[3] <= ay + ah + 1e-6
        assert all(_apart(box, _grow(k, 0)) for k in SHEET.keepouts)
    for i, (page, box) in enumerate(boxes):
        assert all(_apart(box, other) for p2, other in boxes[i + 1:] if p2 == page)
    assert [s.trim[2:] for s in slots] == [pytest.approx(s) for s in sizes]


def test_a_piece_larger_than_the_area_does_not_fit():
    assert not fits(SHEET, 195 * MM, 100 * MM, BLEED)
    with pytest.raises(ValueError, match="195.00 x 100.00 mm"):
        layout(SHEET, [(195 * MM, 100 * MM)], BLEED)


def test_a_rounded_rectangle_has_four_quarter_arcs_tangent_to_its_edges():
    cmds = rounded_rect_path(0, 0, 100, 50, 5)
    arcs = [c for c in cmds if c[0] == "A"]
    assert len(arcs) == 4 and all(c[1] == 5 for c in arcs)
    assert cmds[0][1:] == (5, 0) and arcs[-1][2:4] == (5, 0)
    assert rounded_rect_path(0, 0, 10, 10, 0)[-1] == ("L", 0, 0)


def test_a_tuck_box_net_is_the_inner_size_and_splits_when_it_must():
    w, h, d = inner_size(63.5 * MM, 88.9 * MM, 40, 0.3 * MM, tolerance=1 * MM)
    assert (w / MM, h / MM, d / MM) == pytest.approx((64.5, 89.9, 13.0))
    (net,) = tuck_nets(w, h, d, 400 * MM, 400 * MM)
    assert net.panels["front"][2:] == pytest.approx((w, h)) and net.panels["side"][2] == pytest.approx(d)
    assert net.panels["lid"][3] == pytest.approx(d)
    xs = [p[0] for p in net.outline]
    assert max(xs) - min(xs) == pytest.approx(min(12 * MM, w / 3) + 2 * w + 2 * d)
    cx, cy, r = net.notch
    assert r == pytest.approx(10 * MM) and cy == pytest.approx(net.panels["front"][1] + h)
    assert any(math.isclose(y, cy - r, abs_tol=1e-6) for _, y in net.outline)  # the notch's deepest point
    parts = tuck_nets(w, h, d, 150 * MM, 150 * MM)
    assert [sorted(p.panels) for p in parts] == [["back", "lid"], ["front", "side", "side-2"]]
    with pytest.raises(ValueError):
        tuck_nets(w, h, d, 60 * MM, 60 * MM)
