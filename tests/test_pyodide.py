"""Layer 5: the engine wheel inside Pyodide (Node.js) replays every golden round byte for byte.

The wheel of this checkout is built once, ``tests/pyodide/replay_golden.mjs`` runs it in the
Pyodide of ``node_modules/pyodide`` (no network, no micropip) twice: on Pyodide's own standard
library, and on the trimmed one the site ships (``pyodide/stdlib.zip``, made by ``build.py``'s
`make_stdlib` from what the engine and the client import). Each regenerated event log is
compared with the committed golden file. Needs ``node`` and ``npm ci`` (``build.py test`` runs it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import pyengine
from tests.browser.helpers import build_module
from tests.golden_cases import golden_files

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = golden_files()
SCRIPT = ROOT / "tests" / "pyodide" / "replay_golden.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_PYTHON = (3, 14)  # the CPython that Pyodide 314 is built on
NODE_TIMEOUT_S = 600  # loading Pyodide takes seconds; leave room for a slow CI machine

Report = dict[str, Any]


STDLIBS = ("pyodide", "trimmed")


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
def trimmed_stdlib(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The site's trimmed standard library for this wheel, as ``build.py`` makes it (cached)."""
    build = build_module()
    client = tmp_path_factory.mktemp("client") / "slotui.zip"
    build.client_zip(client)
    made, modules = build.make_stdlib(wheel, client)
    return made / "stdlib.zip", modules


@pytest.fixture(scope="module", params=STDLIBS)
def pyodide_report(request: pytest.FixtureRequest, wheel: Path) -> Report:
    """Run the golden replays inside Pyodide, on its own or on the trimmed standard library."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js (`node`) is not on PATH; the Pyodide tests need it")
    if not (PYODIDE / "pyodide.mjs").exists():
        pytest.fail(f"{PYODIDE} is missing: run `npm ci` in {ROOT} (`python3 build.py test` does it)")
    stdlib: list[str] = []
    if request.param == "trimmed":
        zip_path, _modules = request.getfixturevalue("trimmed_stdlib")
        stdlib = ["--stdlib", str(zip_path)]
    cmd = [node, str(SCRIPT), *stdlib, str(wheel), *(str(p) for p in GOLDEN)]
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
    report["stdlib_kind"] = request.param
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


def test_the_trimmed_standard_library_is_what_runs(pyodide_report: Report) -> None:
    engine = pyodide_report["engine"]
    if pyodide_report["stdlib_kind"] == "trimmed":
        assert engine["stdlib"].endswith(".zip")
        # Pyodide ships 614 files; the trimmed one keeps what the page imports, as bytecode.
        assert engine["stdlib_files"] < 300, engine
    else:
        assert engine["stdlib_files"] > 500, engine


def test_the_trimmed_standard_library_is_bytecode_only(trimmed_stdlib: tuple[Path, list[str]]) -> None:
    zip_path, modules = trimmed_stdlib
    with zipfile.ZipFile(zip_path) as z:
        infos = z.infolist()
    names = [i.filename for i in infos]
    assert names == [m + "c" for m in modules]
    # Stored members: the transfer's brotli or gzip compresses across them.
    assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}
    for needed in ("pyodide/__init__.py", "_pyodide/_base.py", "asyncio/__init__.py", "json/__init__.py"):
        assert needed in modules


def test_every_golden_file_is_replayed(pyodide_report: Report) -> None:
    assert GOLDEN, "no golden files in tests/games/*/golden"
    assert [r["name"] for r in pyodide_report["results"]] == [p.name for p in GOLDEN]


@pytest.mark.parametrize("golden", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_replay_in_pyodide(pyodide_report: Report, golden: Path) -> None:
    result = next((r for r in pyodide_report["results"] if r["name"] == golden.name), None)
    assert result is not None, f"{golden.name} is missing from the Pyodide report"
    assert result["error"] is None, f"replaying {golden.name} in Pyodide raised:\n{result['error']}"
    fresh: str = result["text"]
    expected = golden.read_bytes()
    assert fresh.encode("utf-8") == expected, _first_difference(expected.decode("utf-8"), fresh)


@pytest.mark.parametrize("golden", GOLDEN, ids=[p.name for p in GOLDEN])
def test_a_round_link_is_the_same_token_in_pyodide_and_replays_there(pyodide_report: Report, golden: Path) -> None:
    """The page (Pyodide) and the CLI (CPython) make the same token for a round, and the
    token replays the golden round's log inside Pyodide."""
    from pyengine.link import encode, link_of_record

    result = next(r for r in pyodide_report["results"] if r["name"] == golden.name)
    assert result["error"] is None, result["error"]
    header, _, log = golden.read_text(encoding="utf-8").partition("\n")
    assert result["token"] == encode(link_of_record(json.loads(header)))
    assert result["linked"] == log.rstrip("\n")
