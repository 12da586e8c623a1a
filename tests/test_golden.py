"""The golden-output test: every file pnp writes for the bundled games (four games, three sheet
option sets, both rulebook papers, every bundled export target) and every message it gives for
the bad-input cases hash as recorded in tests/golden/hashes.json.

A refactor must leave them all alone. A change that alters an output on purpose runs
``python tests/golden_outputs.py --update`` and commits the new hashes with its reason.
"""

from __future__ import annotations

import pytest

from golden_outputs import VARIANTS, differences, load_hashes, run_variant

RECORDED = load_hashes()


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_outputs_hash_as_recorded(variant: str):
    assert variant in RECORDED, f"no recorded hashes for {variant}; run python tests/golden_outputs.py --update"
    got = run_variant(variant)
    diff = differences(RECORDED[variant], got)
    assert not diff, f"{variant}: {len(diff)} file(s) differ from the recorded outputs:\n" + "\n".join(diff[:60])
