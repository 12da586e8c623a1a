"""``pnp release`` records exactly the files of the last full build: not the parts an earlier
run left in the output folder (boxes, cut files, an export, a reprint)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from clirun import run
from pnp.model.scaffold import new_game




def recorded(out: Path) -> dict[str, dict]:
    return json.loads((out / ".pnp-build.json").read_text())


@pytest.mark.slow
def test_a_release_records_the_files_of_the_last_full_build_and_no_other(tmp_path):
    game, out = tmp_path / "g", tmp_path / "out"
    new_game(game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace("players = [2, 4]", 'players = [2, 4]\nversion = "1.0"'))
    quiet = ("-o", str(out), "-q", "--no-contact-sheets")
    run("build", str(game), *quiet, "--boxes", "--cut", "silhouette")
    run("export", str(game), "-o", str(out), "-t", "tgc", "-q")
    earlier = set(recorded(out / "g"))
    assert {"boxes", "cut-silhouette", "export tgc"} <= earlier
    # the playtest: tide removed, dawn added (the rulebook shows spark and reef)
    (game / "cards.csv").write_text("id,title,cost,text,copies\nspark,Spark,1,Draw a card.,2\n"
                                    "reef,Reef,3,Keep this card.,2\ndawn,Dawn,1,New.,3\n")
    toml.write_text(toml.read_text().replace("count = 6", "count = 7"))
    run("build", str(game), *quiet, "--stamp")
    done = run("release", str(game), "-o", str(out))
    saved = json.loads((game / "releases" / "1.0.json").read_text())
    last = json.loads((out / "g" / ".pnp-pieces.json").read_text())["build"]
    record = recorded(out / "g")
    assert set(last) == {"accessibility", "boards", "cards", "contact", "rulebook"}  # this build's parts, each current (contact: none made)
    assert all(record[name]["key"] == key for name, key in last.items())
    expected = {rel: digest for name in last for rel, digest in record[name]["files"].items()}
    assert saved["outputs"] == expected and "g-cards.pdf" in expected
    for rel, digest in saved["outputs"].items():
        assert hashlib.sha256((out / "g" / rel).read_bytes()).hexdigest() == digest
    assert not [rel for rel in saved["outputs"] if rel.startswith(("export/", "cut/", "boxes/")) or "boxes" in rel]
    assert (out / "g" / "g-boxes.pdf").is_file()  # left in the folder, but not of this build
    assert f"({len(saved['pieces'])} cards, {len(expected)} files" in done.output

    # a part kept from an earlier run with the same inputs is current: boxes again, then a plain
    # build, then boxes once more (answered from the run snapshot) releases the boxes too
    run("build", str(game), *quiet, "--boxes")
    run("build", str(game), *quiet)
    run("build", str(game), *quiet, "--boxes")
    run("release", str(game), "-o", str(out), "--force")
    again = json.loads((game / "releases" / "1.0.json").read_text())["outputs"]
    assert "g-boxes.pdf" in again and set(again) - {"g-boxes.pdf"} and not [r for r in again if r.startswith("cut/")]
    assert again["g-boxes.pdf"] == hashlib.sha256((out / "g" / "g-boxes.pdf").read_bytes()).hexdigest()

    # a folder built by an earlier pnp: its snapshots name no parts; building again names them
    pieces, runs = out / "g" / ".pnp-pieces.json", out / "g" / ".pnp-run.json"
    pieces.write_text(json.dumps({k: v for k, v in json.loads(pieces.read_text()).items() if k != "build"}))
    old = json.loads(runs.read_text())
    runs.write_text(json.dumps({"runs": {k: {f: v for f, v in r.items() if f != "build"}
                                         for k, r in old["runs"].items()}}))
    refused = run("release", str(game), "-o", str(out), "--force", ok=False)
    assert "does not list its parts" in str(refused.exception)
    run("build", str(game), *quiet, "--boxes")
    run("release", str(game), "-o", str(out), "--force")
    assert json.loads((game / "releases" / "1.0.json").read_text())["outputs"] == again

    # a reprint is not a release
    (game / "cards.csv").write_text((game / "cards.csv").read_text().replace("New.", "Newer."))
    run("build", str(game), "-o", str(out), "-q", "--changed-since", "1.0")
    refused = run("release", str(game), "-o", str(out), "--version", "1.0", "--force", ok=False)
    assert "a reprint (pnp build --changed-since) is not a release" in str(refused.exception)
    assert "full pnp build first" in refused.exception.hint
