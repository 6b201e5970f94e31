"""``python3 -m pyengine report GAME --out DIR`` (`pyengine.math.parreport`): the par sheet
as index.html, par_sheet.json and SVG plots whose numbers are the report's — the numbers
each plot carries, and the bars it draws in proportion to them — for every game."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pyengine.games import GAME_IDS, plugin
from pyengine.math.parreport import CHARTS, bucket_label, write_report
from pyengine.math.parsheet import par_sheet
from pyengine.math.rtp import rtp_report

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 20_000
SVG = "{http://www.w3.org/2000/svg}"
DC = "{http://purl.org/dc/elements/1.1/}"


@cache
def sheet(game_id: str) -> dict[str, Any]:
    return par_sheet(game_id, rounds=ROUNDS, seed=7)


def svg(path: Path) -> tuple[Any, ET.Element]:
    """The numbers a plot says it draws, and its tree."""
    root = ET.parse(path).getroot()
    desc = root.find(f".//{DC}description")
    assert desc is not None
    assert desc.text
    data = json.loads(desc.text)
    assert data["chart"] == path.stem
    return data["values"], root


def bars(root: ET.Element, chart: str) -> dict[int, tuple[float, float, float, float]]:
    """Each named bar's box (x0, y0, x1, y1) in the SVG's own units, by its index."""
    out = {}
    for g in root.iter(f"{SVG}g"):
        m = re.fullmatch(rf"bar-{re.escape(chart)}-(\d+)", g.get("id", ""))
        if not m:
            continue
        path = g.find(f"{SVG}path")
        if path is None or "nan" in path.get("d", "").lower():
            continue  # a bar of probability 0 is not drawn on a log scale
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
        xs, ys = nums[0::2], nums[1::2]
        if xs:
            out[int(m.group(1))] = (min(xs), min(ys), max(xs), max(ys))
    return out


def proportional(sizes: dict[int, float], values: dict[int, float]) -> None:
    """Drawn sizes in proportion to the values (within the SVG's 6 decimals)."""
    scale = max(sizes.values()) / max(values[i] for i in sizes)
    for i, size in sizes.items():
        assert size == pytest.approx(values[i] * scale, abs=0.01), (i, size, values[i])


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for game_id in GAME_IDS:
        folder = tmp_path_factory.mktemp(game_id)
        files = write_report(sheet(game_id), folder)
        assert [f.name for f in files] == ["index.html", "par_sheet.json", *(f"{c}.svg" for c in CHARTS)]
        out[game_id] = folder
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_plot_draws_the_reports_numbers(game_id: str, written: dict[str, Path]) -> None:
    r = sheet(game_id)
    ps = r["par_sheet"]
    folder = written[game_id]
    assert len(list(folder.glob("*.svg"))) >= 4
    buckets = ps["distribution"]["buckets"]

    values, root = svg(folder / "distribution.svg")
    assert values == [b["probability"] for b in buckets]
    drawn = bars(root, "distribution")
    assert set(drawn) == {i for i, b in enumerate(buckets) if b["probability"] > 0}
    # On the log scale the bar's height is linear in log10(p): fit on the two most apart, check the rest.
    heights = {i: box[3] - box[1] for i, box in drawn.items()}
    logs = {i: math.log10(buckets[i]["probability"]) for i in drawn}
    lo, hi = min(drawn, key=logs.__getitem__), max(drawn, key=logs.__getitem__)
    if lo != hi:
        slope = (heights[hi] - heights[lo]) / (logs[hi] - logs[lo])
        for i, h in heights.items():
            assert h == pytest.approx(heights[lo] + slope * (logs[i] - logs[lo]), abs=0.01)

    values, root = svg(folder / "rtp_share.svg")
    assert values == [b["rtp_share"] for b in buckets]
    drawn = bars(root, "rtp_share")
    proportional({i: box[3] - box[1] for i, box in drawn.items()}, dict(enumerate(values)))
    assert sum(values) == pytest.approx(ps["distribution"]["rtp_of_distribution"], abs=1e-9)

    values, root = svg(folder / "components.svg")
    assert values == r["breakdown"]
    drawn = bars(root, "components")
    parts = list(r["breakdown"].values())
    assert set(drawn) == set(range(len(parts)))
    proportional({i: box[2] - box[0] for i, box in drawn.items()}, {i: abs(v) for i, v in enumerate(parts)})

    values, _ = svg(folder / "funnel.svg")
    assert values == {"rtp": r["rtp"], "sigma": ps["sigma"]["value"], "spread": ps["spread"]["value"]}

    values, root = svg(folder / "feature_lengths.svg")
    assert values == ps["feature_lengths"]
    for k, t in enumerate(ps["feature_lengths"]):
        assert len(bars(root, f"feature_lengths-{k}")) == len(t["lengths"])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_page_gives_the_tables(game_id: str, written: dict[str, Path]) -> None:
    r = sheet(game_id)
    ps = r["par_sheet"]
    page = (written[game_id] / "index.html").read_text()
    assert json.loads((written[game_id] / "par_sheet.json").read_text()) == json.loads(json.dumps(r))
    assert f"{r['rtp'] * 100:.4f}%" in page
    for b in ps["distribution"]["buckets"]:
        label = bucket_label(b).replace(">", "&gt;")
        assert f"<td>{label}</td><td>{b['probability']:.6e}</td>" in page
    for f in ps["features"]:
        assert f["title"].replace("'", "&#x27;") in page
    for chart in CHARTS:
        assert f'src="{chart}.svg"' in page
    source = ps["distribution"]["source"]
    if source["kind"] == "simulated":
        assert f"simulated, {ROUNDS:,} rounds, seed 7" in page
    # The approval figures, one row each, as the sheet gives them.
    assert page.count('<table class="checks">') == 1
    for c in ps["checks"]:
        assert c["asks"] in page
        assert c["every"] is None or f"1 in {c['every']:,.1f}" in page
    # What the game pays apart from a round's win is said under the buckets, or nothing is.
    apart = ps["distribution"]["apart"]
    assert ('id="apart"' in page) == bool(apart)
    for name, share in apart.items():
        assert f"{name} {share * 100:.4f}%" in page


def test_the_command_writes_the_folder_of_rtp_json(tmp_path: Path) -> None:
    """The command's folder holds what ``rtp --json`` prints with the same options (a game
    that simulates, so the options reach the simulation), timing apart."""
    game_id = next((g for g in GAME_IDS if not plugin(g).distribution), GAME_IDS[0])
    opts = ["--rounds", str(ROUNDS), "--seed", "7"]
    out = subprocess.run(
        [sys.executable, "-m", "pyengine", "report", game_id, "--out", str(tmp_path / "sheet"), *opts],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert [Path(p).name for p in out] == ["index.html", "par_sheet.json", *(f"{c}.svg" for c in CHARTS)]
    rtp = json.loads(subprocess.run(
        [sys.executable, "-m", "pyengine", "rtp", game_id, "--json", *opts], capture_output=True, text=True, check=True
    ).stdout)
    got = json.loads((tmp_path / "sheet" / "par_sheet.json").read_text())
    assert got.pop("seconds") >= 0
    assert rtp.pop("seconds") >= 0
    assert got == rtp
    bad = subprocess.run(
        [sys.executable, "-m", "pyengine", "report", game_id], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert "--out" in bad.stderr
    assert not (tmp_path / "other").exists()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_rules_page_shows_its_current_par_sheet(game_id: str) -> None:
    """docs/games/<id>.md shows the plots of docs/games/<id>/par-sheet/ (this command's
    output), and that folder is the game as it is now: its exact RTP and components, and
    an exact distribution exactly where the game gives one."""
    folder = ROOT / "docs" / "games" / game_id / "par-sheet"
    md = (ROOT / "docs" / "games" / f"{game_id}.md").read_text()
    for chart in CHARTS:
        assert f"({game_id}/par-sheet/{chart}.svg)" in md
        assert (folder / f"{chart}.svg").is_file()
    assert f"({game_id}/par-sheet/index.html)" in md
    committed = json.loads((folder / "par_sheet.json").read_text())
    now = rtp_report(game_id)
    assert committed["rtp"] == pytest.approx(now["rtp"], abs=1e-12)
    assert committed["breakdown"] == pytest.approx(now["breakdown"], abs=1e-12)
    assert committed["feature_lengths"] == json.loads(json.dumps(now["feature_lengths"]))
    kind = committed["par_sheet"]["distribution"]["source"]["kind"]
    assert (kind == "exact") == bool(plugin(game_id).distribution)
    values, _ = svg(folder / "rtp_share.svg")
    assert values == [b["rtp_share"] for b in committed["par_sheet"]["distribution"]["buckets"]]
