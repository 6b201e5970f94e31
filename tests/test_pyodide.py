"""Layer 5: the engine wheel inside Pyodide (Node.js) replays every golden round byte for byte.

The wheel of this checkout is built once, ``tests/pyodide/replay_golden.mjs`` runs it once in
the Pyodide of ``node_modules/pyodide`` (no network, no micropip) and each regenerated event log
is compared with the committed golden file. Needs ``node`` and ``npm ci`` (``build.py test`` runs it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pyengine

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))
SCRIPT = ROOT / "tests" / "pyodide" / "replay_golden.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_PYTHON = (3, 14)  # the CPython that Pyodide 314 is built on
NODE_TIMEOUT_S = 600  # loading Pyodide takes seconds; leave room for a slow CI machine

Report = dict[str, Any]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build ``pyengine-*-py3-none-any.whl`` from a copy of the checkout's sources.

    Building from a copy keeps ``build/`` and ``*.egg-info`` out of the checkout (others may be
    building there at the same time) and stale files in an old ``build/lib`` out of the wheel.
    ``--no-isolation`` builds offline with the setuptools and wheel of the running environment.
    It runs in the temporary folder: from the checkout, ``python -m build`` would run ``build.py``.
    """
    base = tmp_path_factory.mktemp("wheel")
    src, out = base / "src", base / "dist"
    shutil.copytree(ROOT / "pyengine", src / "pyengine", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    cmd = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(src)]
    proc = subprocess.run(cmd, cwd=base, capture_output=True, text=True, check=False, timeout=300)
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed ({' '.join(cmd)}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    wheels = sorted(out.glob("pyengine-*-py3-none-any.whl"))
    assert len(wheels) == 1, f"expected one pure-Python wheel in {out}, found {sorted(p.name for p in out.iterdir())}"
    return wheels[0]


@pytest.fixture(scope="module")
def pyodide_report(wheel: Path) -> Report:
    """Run the golden replays once inside Pyodide; the script's JSON report."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js (`node`) is not on PATH; the Pyodide tests need it")
    if not (PYODIDE / "pyodide.mjs").exists():
        pytest.fail(f"{PYODIDE} is missing: run `npm ci` in {ROOT} (`python3 build.py test` does it)")
    cmd = [node, str(SCRIPT), str(wheel), *(str(p) for p in GOLDEN)]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False, timeout=NODE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{SCRIPT.name} did not finish within {NODE_TIMEOUT_S} s")
    try:
        report: Report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"{SCRIPT.name} exited {proc.returncode} without a JSON report; stderr:\n{proc.stderr}")
    if "error" in report:
        pytest.fail(f"{SCRIPT.name} failed (exit {proc.returncode}):\n{report['error']}")
    return report


def _first_difference(golden: str, fresh: str) -> str:
    pairs = zip(golden.splitlines(keepends=True), fresh.splitlines(keepends=True), strict=False)
    for n, (a, b) in enumerate(pairs, start=1):
        if a != b:
            return f"line {n} differs:\n  golden:  {a[:300]!r}\n  pyodide: {b[:300]!r}"
    return f"lengths differ: golden {len(golden)} chars, pyodide {len(fresh)} chars"


def test_pyodide_runs_python_314(pyodide_report: Report) -> None:
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    assert pyodide_report["pyodide"] == pinned
    assert tuple(pyodide_report["python"][:2]) == PYODIDE_PYTHON
    assert pyodide_report["engine"]["platform"] == "emscripten"


def test_engine_comes_from_the_wheel(pyodide_report: Report, wheel: Path) -> None:
    engine = pyodide_report["engine"]
    assert engine["version"] == pyengine.__version__
    assert engine["file"] == f"{engine['site_packages']}/pyengine/__init__.py"
    assert pyodide_report["wheel"]["bytes"] == wheel.stat().st_size


def test_every_golden_file_is_replayed(pyodide_report: Report) -> None:
    assert GOLDEN, "no golden files in tests/golden"
    assert [r["name"] for r in pyodide_report["results"]] == [p.name for p in GOLDEN]


@pytest.mark.parametrize("golden", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_replay_in_pyodide(pyodide_report: Report, golden: Path) -> None:
    result = next((r for r in pyodide_report["results"] if r["name"] == golden.name), None)
    assert result is not None, f"{golden.name} is missing from the Pyodide report"
    assert result["error"] is None, f"replaying {golden.name} in Pyodide raised:\n{result['error']}"
    fresh: str = result["text"]
    expected = golden.read_bytes()
    assert fresh.encode("utf-8") == expected, _first_difference(expected.decode("utf-8"), fresh)
