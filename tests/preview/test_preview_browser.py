"""`pnp preview` end to end in a real headless Chromium (Debian's chromium, driven by Playwright):
the page shows every card of a deck, follows an edit of a CSV cell on disk without reloading
(the changed card's image and a new finding appear), and shows a broken edit located while the
previous cards stay. Screenshots go to the test run's ``output/`` folder.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from preview_server import PreviewProcess

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MM_PX = 100 / 25.4  # preview images are 100 px per inch
BLEED_MM = 3.175  # the tiny game's layouts keep the default 1/8 in bleed

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (apt-get install -y chromium; .ci/run installs it in CI)",
                allow_module_level=True)

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra installs it; in CI it must be there
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is not installed (pip install -c constraints.txt '.[test]')", allow_module_level=True)

pytestmark = pytest.mark.slow

PIXEL_JS = """([id, side, x, y]) => {
  const img = document.querySelector(`figure[data-item="${id}"] .side[data-side="${side}"] img`);
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  return Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3));
}"""
LOADED_JS = """() => [...document.querySelectorAll('figure[data-item] img')].every(i => i.complete && i.naturalWidth > 0)"""


def _key(page, item: str, side: str = "face") -> str:
    return page.get_attribute(f'figure[data-item="{item}"] .side[data-side="{side}"] img', "data-key")


def _close(rgb, hex_colour: str, tol: int = 6) -> bool:
    want = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= tol for a, b in zip(rgb, want))


def test_preview_follows_edits_in_a_real_browser(tmp_path):
    out = tmp_path / "output"
    out.mkdir()
    game = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "tiny", game)
    cards = game / "cards.csv"
    with PreviewProcess(game, "-o", str(tmp_path / "build"), cwd=tmp_path) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server.url)
        # every card of the deck, face and back, with its copy count; the check has run
        page.wait_for_function("document.querySelectorAll('#section-cards figure[data-item]').length === 2")
        page.wait_for_function("document.getElementById('status').textContent === 'checks clean'", timeout=60000)
        page.wait_for_function(LOADED_JS)
        items = page.eval_on_selector_all("#section-cards figure[data-item]", "els => els.map(e => e.dataset.item)")
        assert items == ["cards/fire", "cards/leaf"]
        captions = page.eval_on_selector_all("#section-cards figcaption", "els => els.map(e => e.textContent)")
        assert "×3" in captions[0] and "×2" in captions[1]
        for item in items:
            sizes = page.eval_on_selector_all(f'figure[data-item="{item}"] img',
                                              "els => els.map(i => [i.dataset.key ? 1 : 0, i.naturalWidth, i.naturalHeight])")
            # poker card 63.5 x 88.9 mm with 1/8 in bleed at 100 px/in: 275 x 375 px, face and back
            assert sizes == [[1, 275, 375], [1, 275, 375]]
        band = (round((BLEED_MM + 1) * MM_PX), round((BLEED_MM + 40) * MM_PX))  # the bleed band, left of the panel
        assert _close(page.evaluate(PIXEL_JS, ["cards/leaf", "face", *band]), "#27AE60")
        page.screenshot(path=str(out / "1-loaded.png"), full_page=True)

        # an edit on disk: leaf turns red; the page changes without reloading
        page.evaluate("window.__sameDocument = true")
        before, fire_before = _key(page, "cards/leaf"), _key(page, "cards/fire")
        assert page.locator('li[data-rule^="totals"]').count() == 0
        text = cards.read_text(encoding="utf-8")
        saved = time.monotonic()
        cards.write_text(text.replace("leaf,Leaf,1,green", "leaf,Leaf,1,red"), encoding="utf-8")
        page.wait_for_function(f"""() => {{
            const img = document.querySelector('figure[data-item="cards/leaf"] .side[data-side="face"] img');
            return img.dataset.key !== "{before}" && img.complete && img.naturalWidth > 0; }}""")
        refreshed = time.monotonic() - saved
        assert _close(page.evaluate(PIXEL_JS, ["cards/leaf", "face", *band]), "#C0392B")
        assert _close(page.evaluate(PIXEL_JS, ["cards/leaf", "back", 130, 320]), "#C0392B")  # red back layout
        assert _key(page, "cards/fire") == fire_before  # untouched card: same image
        # the stated total of red cards (3) no longer holds: a new finding, from the dry run
        page.wait_for_selector('aside li[data-rule^="totals"]', timeout=60000)
        finding = page.text_content('aside li[data-rule^="totals"]')
        assert "red action cards" in finding and "game.toml" in finding
        assert page.evaluate("window.__sameDocument") is True
        page.wait_for_function("document.getElementById('status').textContent !== 'checking…'", timeout=60000)
        page.screenshot(path=str(out / "2-edited.png"), full_page=True)

        # a broken edit: the error is shown located, and the cards stay as they were
        edited = _key(page, "cards/leaf")
        cards.write_text(cards.read_text(encoding="utf-8").replace("leaf,Leaf,1,red", "leaf,Leaf,one,red"),
                         encoding="utf-8")
        page.wait_for_selector("#broken:not([hidden])")
        error = page.text_content("#errors")
        assert "cards.csv:4:3" in error and "(cost)" in error and "'one'" in error, error
        assert page.eval_on_selector_all("#section-cards figure[data-item]", "els => els.length") == 2
        assert _key(page, "cards/leaf") == edited and page.evaluate(LOADED_JS)
        assert page.evaluate("window.__sameDocument") is True
        page.screenshot(path=str(out / "3-broken.png"), full_page=True)
        browser.close()
    print(f"save to refreshed card: {refreshed:.2f} s")
    assert refreshed < 3.0  # the goal is under a second (docs/preview.md); a loaded CI machine gets slack
    assert server.proc.returncode == 0, "".join(server.lines)
