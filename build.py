#!/usr/bin/env python3
"""The project's one entry point.

    python3 build.py build   the static site in site/: pages, assets, the engine wheel, Pyodide, PyScript
    python3 build.py serve   build, then serve site/ on http://127.0.0.1:8000 (--port, --base /demos/slots/)
    python3 build.py test    ruff, mypy --strict, pytest: engine tests, then the site in headless Chromium
    python3 build.py bench   engine throughput, exact RTP timings, then page loads in headless Chromium
                             (desktop loopback, and the phone profile: CPU 4x, 10 Mbit/s, 40 ms)

Everything it needs is installed on first use; later runs reuse the virtual environment
until ``pyproject.toml`` changes.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import http.server
import json
import mimetypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import venv
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def _unique(path: Path) -> Path:
    """A name beside ``path`` that no other process or thread is using: builds may run side by
    side (``build.py test`` builds the tests' site while tests build theirs), sharing the cache."""
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.partial")


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _unique(path)
    tmp.write_bytes(data)
    os.replace(tmp, path)


def run(
    cmd: Sequence[object], *, env: dict[str, str] | None = None, cwd: Path = ROOT, ok: Sequence[int] = (0,)
) -> None:
    log(" ".join(str(c) for c in cmd))
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, check=False)
    if result.returncode not in ok:
        log(f"failed with status {result.returncode}: {' '.join(str(c) for c in cmd)}")
        sys.exit(result.returncode)


# Tools the build itself uses (not dependencies of the engine wheel): brotli precompresses the site.
BUILD_TOOLS = ("brotli>=1.1",)


def ensure_venv() -> None:
    """Create .venv and install the package with its dev extra and the build's tools, once per change."""
    stamp = VENV / ".installed"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + "\n".join(BUILD_TOOLS).encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == want and PY.exists():
        return
    if not PY.exists():
        log(f"creating {VENV}")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    run([PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([PY, "-m", "pip", "install", "--quiet", "-e", ".[dev]", *BUILD_TOOLS])
    stamp.write_text(want)


def ensure_npm() -> None:
    """Install node_modules (Pyodide, PyScript) with `npm ci`, once per package-lock.json change."""
    lock = ROOT / "package-lock.json"
    installed = ROOT / "node_modules" / ".package-lock.json"
    if installed.exists() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if npm is None:
        log("npm is not on PATH: install Node.js (with npm) to fetch Pyodide and PyScript")
        sys.exit(1)
    log("node_modules is missing or older than package-lock.json")
    run([npm, "ci", "--no-audit", "--no-fund"])


# -- the static site -----------------------------------------------------------------------

SITE = ROOT / "site"
CACHE = ROOT / "build" / "site-cache"  # wheel, RTP figures and gzip files, reused across builds
WEB = ROOT / "web"
STATIC = ROOT / "static"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
PYSCRIPT_DIR = ROOT / "node_modules" / "@pyscript" / "core"
# What a page needs of Pyodide: the loader, the Emscripten module, the binary and the lock file
# (read at start-up even when no package is loaded). The standard library is not copied as
# shipped: the build writes a trimmed one (`make_stdlib`) to pyodide/stdlib.zip.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
PYODIDE_STDLIB = PYODIDE_DIR / "python_stdlib.zip"
SITE_PAGES = ("index.html", "play.html", "math.html")
SITE_SCRIPTS = (
    "site.js", "boot.js", "embed.js", "fit.js", "lobby.js", "math.js", "math-worker.js", "fft.js", "sound.js",
    "words.js",
)
SITE_DATA = ("embed.json",)
"""The site's own settings a host may edit: embed.json lists the origins that may embed and
command the games (docs/embedding.md)."""
COMPRESSIBLE = frozenset(
    {".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".py", ".wasm", ".bin", ".txt", ".md"}
)
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".py": "text/x-python; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".bin": "application/octet-stream",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}
# Written next to each file whose precompressed copy is at least 10% smaller (the server and
# the hosts in docs/embedding.md send them).
PRECOMPRESSED = COMPRESSIBLE | {".zip"}
SW_PLACEHOLDER = 'const BUILD = { version: "dev", files: [], games: {} };'

# Makes pyodide/snapshot.bin under Node.js: Pyodide's memory right after start-up with the
# engine, the client, every game's screen and the standard modules they use already imported
# from the zips the page mounts. Restoring it skips Python's initialisation in the browser (seconds on a slow
# machine). The files themselves are not in the snapshot: PyScript's `files` writes them again.
SNAPSHOT_JS = r"""
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, stdlib, engine, client, screens, out] = process.argv.slice(1);  // node -e: no script path
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: pyodideDir + "/", stdLibURL: stdlib, _makeSnapshot: true,
  stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n"),
});
// The very zips the page writes at the same paths (zipimport keeps a table of their members),
// mounted as web/main.py mounts them; each game's screen as slotui.browser.load_screen does.
py.FS.writeFile("/home/pyodide/engine.zip", new Uint8Array(readFileSync(engine)));
py.FS.writeFile("/home/pyodide/slotui.zip", new Uint8Array(readFileSync(client)));
const mounted = [];
for (const name of readdirSync(screens).filter((n) => n.endsWith(".zip")).sort()) {
  py.FS.writeFile(`/home/pyodide/${name}`, new Uint8Array(readFileSync(join(screens, name))));
  mounted.push(`/home/pyodide/${name}`);
}
py.globals.set("SCREENS", JSON.stringify(mounted));
const imported = py.runPython(`
import importlib, pkgutil, json, sys
sys.path[:0] = ["/home/pyodide/slotui.zip", "/home/pyodide/engine.zip"]
import pyengine, slotui, slotui.games
from pyengine.games import GAME_IDS, plugin
slotui.games.__path__.extend(json.loads(SCREENS))
STDLIB = ["asyncio", "fractions", "json", "html", "shutil", "traceback", "zipfile",
          "pyodide.ffi"]
# Tools the page never runs: the command line, the math (each game's report module too).
SKIP = ("pyengine.cli", "pyengine.__main__", "pyengine.math",
        *(plugin(g).report.partition(":")[0] for g in GAME_IDS))
names = list(STDLIB)
for pkg in (pyengine, slotui):
    names += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
              if not m.name.startswith(SKIP)]
for name in names:
    importlib.import_module(name)
from pyengine.games import get_game
for gid in GAME_IDS:  # load and check each game's data once, here rather than in every browser
    get_game(gid)
json.dumps(names)
`);
writeFileSync(out, py.makeMemorySnapshot());
console.log(imported);
"""

# Makes pyodide/stdlib.zip under Node.js: the standard library modules the page needs, compiled
# to bytecode by Pyodide's own Python (docstrings left out, as python -OO would), in a zip
# whose members are stored (uncompressed), so
# brotli and gzip compress it in transit. "What the page needs" is measured, not guessed: Pyodide
# starts with its full standard library, the engine wheel and the client are unpacked the way
# PyScript unpacks them, PyScript's own start-up lines run, every engine and client module is
# imported, every game plays rounds (decisions answered, the session saved and restored), and
# the modules then loaded from the standard library are kept, with `STDLIB_LAZY` (modules the
# code imports only on paths not taken here).
STDLIB_JS = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, wheel, clientZip, lazy, out] = process.argv.slice(1);  // node -e: no script path
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: pyodideDir + "/", stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n"),
});
// The page imports the engine and the client in place from the zips PyScript writes (web/main.py
// puts them on sys.path); here they hold sources only (the bytecode is made below).
py.FS.writeFile("/home/pyodide/engine.zip", new Uint8Array(readFileSync(wheel)));
py.FS.writeFile("/home/pyodide/slotui.zip", new Uint8Array(readFileSync(clientZip)));
// PyScript's own start-up lines.
py.runPython("import os as _os\nfrom pathlib import Path as _Path\nimport builtins\ndel _os, _Path, builtins");
py.globals.set("LAZY", lazy);
const members = py.runPython(`
import importlib, json, os, pkgutil, sys, traceback
sys.path[:0] = ["/home/pyodide/slotui.zip", "/home/pyodide/engine.zip"]
# Every class's dataclass methods, as this Python compiles them (slotui.codecache).
from slotui import codecache
_recording = codecache.recording()
DATACLASSES = _recording.__enter__()
import pyengine, slotui
from pyengine.games import GAME_IDS, plugin
# Tools the page never runs: the command line, the math (each game's report module too).
SKIP = ("pyengine.cli", "pyengine.__main__", "pyengine.math",
        *(plugin(g).report.partition(":")[0] for g in GAME_IDS))
for pkg in (pyengine, slotui):
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if not m.name.startswith(SKIP):
            importlib.import_module(m.name)
from pyengine.session import Session
for gid in GAME_IDS:
    s = Session(gid, seed=1)
    for _ in range(30):
        s.spin()
        while s.pending is not None:
            s.choose(s.pending.choices[0])
    Session.restore(s.snapshot())
    Session(gid)  # a seed from secrets
try:
    s.choose("nothing")
except ValueError:
    traceback.format_exc()
for name in json.loads(LAZY):
    importlib.import_module(name)
_recording.__exit__(None, None, None)
ZIP = os.path.dirname(os.__file__) + "/"  # the standard library's zip
files = {getattr(m, "__file__", None) or "" for m in list(sys.modules.values())}
members = sorted(f[len(ZIP):] for f in files if f.startswith(ZIP))
# Every package above a kept module keeps its __init__ (namespace packages have none).
for name in list(members):
    parts = name.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        init = "/".join(parts[:i]) + "/__init__.py"
        if init not in members and init in ZIP_NAMES:
            members.append(init)
json.dumps(sorted(members))
`.replace("ZIP_NAMES", "set(__import__('zipfile').ZipFile(ZIP[:-1]).namelist())"));
py.globals.set("MEMBERS", members);
py.runPython(`
import ast, importlib.util, json, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

def without_docstrings(source, filename, decorated=False):
    # What python -OO leaves out of the standard library (a sixth of its bytecode), with its
    # asserts kept and every line number unchanged. With decorated, a decorated class keeps
    # its docstring: @dataclass writes one from inspect.signature for a class that has none,
    # a cost on every import of the page.
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if decorated and isinstance(node, ast.ClassDef) and node.decorator_list:
            continue
        body = node.body if isinstance(node, DOCUMENTED) else None
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree

def pyc(source, filename, strip=False, decorated=False):
    # Unchecked hash-based bytecode: imported without compiling, and never checked against
    # a source file (the unpacked sources get new modification times).
    # (The tree is not kept in a name: marshal marks the objects referenced twice, and the
    # tree's references would change the bytes.)
    code = compile(without_docstrings(source, filename, decorated) if strip else source, filename, "exec",
                   dont_inherit=True)
    return _code_to_hash_pyc(code, importlib.util.source_hash(source), False)

def entry(name):
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))

zip_path = os.path.dirname(os.__file__)
src = zipfile.ZipFile(zip_path)
with zipfile.ZipFile("/tmp/stdlib.zip", "w", zipfile.ZIP_STORED) as dst:
    for name in json.loads(MEMBERS):  # .pyc alone: zipimport loads it without the source
        dst.writestr(entry(name + "c"), pyc(src.read(name), f"{zip_path}/{name}", strip=True))
# The engine's and the client's modules that the page imports, as bytecode beside their
# sources in the zips the page imports from (pyengine/x.pyc next to pyengine/x.py: zipimport
# takes the .pyc and never compiles), and the compiled methods of their dataclasses
# (pyengine/x.dataclasses, read by slotui.codecache on the page). Their docstrings are in
# the sources beside them, not in the bytecode (nothing on the page reads __doc__): about
# 7 KB less over the wire on the first load.
MOUNTED = (("/home/pyodide/engine.zip", "/tmp/engine-pyc.zip"), ("/home/pyodide/slotui.zip", "/tmp/client-pyc.zip"))
for top, out in MOUNTED:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for m in sorted(list(sys.modules.values()), key=lambda m: getattr(m, "__name__", "")):
            f = getattr(m, "__file__", None) or ""
            ours = (m.__name__ + ".").startswith(("pyengine.", "slotui."))
            if not (ours and f.startswith(top + "/") and f.endswith(".py")):
                continue
            data = m.__loader__.get_data(f)
            dst.writestr(entry(f[len(top) + 1:] + "c"), pyc(data, f, strip=True, decorated=True))
            if DATACLASSES.get(m.__name__):
                dst.writestr(entry(f[len(top) + 1:-3] + codecache.SUFFIX), codecache.dumps(DATACLASSES[m.__name__]))
`);
for (const name of ["stdlib.zip", "engine-pyc.zip", "client-pyc.zip"]) {
  writeFileSync(join(out, name), py.FS.readFile(`/tmp/${name}`));
}
console.log(members);
"""
# Standard modules imported only on paths the measuring run above does not take.
STDLIB_LAZY = (
    "traceback", "linecache", "tokenize", "textwrap", "_colorize",  # formatting a Python error
    "pathlib", "inspect",  # PyScript's start-up lines and its package
    "importlib.metadata",  # importlib.invalidate_caches() imports it
    "encodings.cp437",  # zipfile (Pyodide imports it) reads the names of members without the UTF-8 flag with it
)

GAMES_CODE = r"""
import json, sys
from pyengine.games import GAME_IDS, get_game, register
ids, with_rtp, plugins = json.loads(sys.argv[1]), set(json.loads(sys.argv[2])), json.loads(sys.argv[3])
for gid, module in plugins.items():
    register(gid, module)
out = []
for gid in ids:
    game = get_game(gid)
    bets = game.bets
    desc = game.describe()
    totals = {}
    for lines in bets.lines:
        for level in bets.levels:
            totals.setdefault(lines * level, []).append({"lines": lines, "bet_per_line": level})
    item = {
        "id": gid,
        "name": game.name,
        "version": game.version,
        "target_rtp": float(game.target_rtp),
        "currency": bets.currency,
        "minor_per_major": bets.minor_per_major,
        "lines": list(bets.lines),
        "bet_per_line": list(bets.levels),
        "default_bet": bets.default.to_json(),
        "max_bet": bets.max_bet.to_json(),
        "bets": [
            {"total": t, "text": bets.format(t), "options": sorted(o, key=lambda b: -b["lines"])}
            for t, o in sorted(totals.items())
        ],
        "symbols": [{"id": s["id"], "name": s["name"], "kind": s["kind"]} for s in desc["symbols"]],
    }
    item["modes"] = list(getattr(game, "modes", ("base",)))
    # The loading screen draws the reels at the top of the first reel set's strips.
    reels = desc.get("reels") or {}
    strips = next(iter(reels.values()), []) if isinstance(reels, dict) else reels
    item["loading_window"] = [list(strip[: desc.get("rows", 3)]) for strip in strips]
    if gid in with_rtp:
        from pyengine.math.rtp import rtp_report
        report = rtp_report(gid)
        item["rtp"] = report["rtp"]
        for key in ("max_win_x", "max_win_bound", "max_win_odds"):  # one definition for every game
            item[key] = report[key]
        if "page" in report:  # the figures a game's rules page quotes from its proof
            item["page"] = report["page"]
        # The RTP of every other bet mode (Feature Buy), for the rules page.
        item["mode_rtp"] = {"base": report["rtp"]}
        for mode in item["modes"][1:]:
            item["mode_rtp"][mode] = rtp_report(gid, mode)["rtp"]
    if gid in plugins:
        # A game that is not shipped with the engine: the page registers its module, the
        # lobby does not list it.
        item["module"] = plugins[gid]
        item["hidden"] = True
    out.append(item)
print(json.dumps(out))
"""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tree_files(top: Path) -> Iterator[Path]:
    """Files under ``top``, sorted, without caches."""
    for path in sorted(top.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


def _tree_hash(*paths: Path) -> str:
    """A hash of the names and contents of every file under ``paths`` (files or folders)."""
    h = hashlib.sha256()
    for top in paths:
        files = [top] if top.is_file() else list(_tree_files(top))
        for f in files:
            h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def build_wheel(python: Path) -> Path:
    """The engine wheel of this checkout, built once per change of its sources (cached).

    Built from a copy of the sources in a temporary folder, as ``tests/test_pyodide.py`` does:
    from the checkout, ``python -m build`` would run this very file.
    """
    sources = [ROOT / "pyengine", ROOT / "pyproject.toml"]
    sources += [ROOT / n for n in ("README.md", "LICENSE", "MANIFEST.in") if (ROOT / n).exists()]
    key = _tree_hash(*sources)[:20]
    cached = sorted((CACHE / f"wheel-{key}").glob("pyengine-*-py3-none-any.whl"))
    if cached:
        return cached[0]
    log("building the engine wheel")
    with tempfile.TemporaryDirectory(prefix="pyengine-wheel-") as tmp:
        base = Path(tmp)
        src, out = base / "src", base / "dist"
        for s in sources:
            if s.is_dir():
                shutil.copytree(s, src / s.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                _copy(s, src / s.name)
        # Fixed timestamps inside the zip: the same sources give the same wheel bytes.
        env = dict(os.environ, SOURCE_DATE_EPOCH="315532800")
        cmd = [str(python), "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(src)]
        proc = subprocess.run(cmd, env=env, cwd=base, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            log(f"building the wheel failed ({' '.join(cmd)}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
            sys.exit(1)
        wheels = sorted(out.glob("pyengine-*-py3-none-any.whl"))
        if len(wheels) != 1:
            log(f"expected one pure-Python wheel in {out}, found {sorted(p.name for p in out.iterdir())}")
            sys.exit(1)
        dest = CACHE / f"wheel-{key}" / wheels[0].name
        _write_atomic(dest, wheels[0].read_bytes())
    return dest


SCREENS_CODE = r"""
import json
from pyengine.games import GAME_IDS, get_game, plugin
print(json.dumps({g: [plugin(g).screen, [s["id"] for s in get_game(g).describe()["symbols"]]] for g in GAME_IDS}))
"""


def _screen_path(screen: str) -> str:
    """Where a screen module lives in the client: ``slotui/games/<id>`` for
    ``slotui.games.<id>`` (a package folder, or a module with ``.py`` added)."""
    return screen.replace(".", "/")


def _is_screen(screen: str) -> bool:
    """Whether the client (web/) holds the screen module ``screen``."""
    path = WEB / _screen_path(screen)
    return screen.startswith("slotui.") and (path.is_dir() or path.with_suffix(".py").is_file())


def playable_games(python: Path) -> dict[str, str]:
    """The lobby's games: engine games whose screen (`Plugin.screen`) is a client module
    (``web/slotui/games/<id>/``), id -> screen. A game without its art folder stops the build
    with the files the page looks for."""
    res = subprocess.run(
        [str(python), "-c", SCREENS_CODE],
        capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT,
    )
    found: dict[str, list[Any]] = json.loads(res.stdout)
    missing = [g for g, (screen, _) in found.items() if not _is_screen(screen)]
    if missing:
        log("not in the lobby (its screen is not in web/ yet): "
            + ", ".join(f"{g} ({found[g][0]})" for g in missing))
    ids = {g: screen for g, (screen, _) in found.items() if g not in missing}
    for g in ids:
        folder = STATIC / "games" / g
        if not folder.is_dir():
            wanted = ["tile.svg", "logo.svg", "background.svg", "frame.svg", *(f"symbols/{s}.svg" for s in found[g][1])]
            log(f"game {g!r} has no art folder {folder.relative_to(ROOT)}/: the page looks there for "
                + ", ".join(wanted) + " (docs/games.md, 'How to add a game')")
            sys.exit(1)
    return ids


REPORT_FIGURES = ("rtp", "max_win_x", "max_win_bound", "max_win_odds", "mode_rtp")
"""What games.json keeps of every game's math report (and the report's ``page``, the
figures its rules page quotes, where it has one)."""


def game_entries(python: Path, ids: list[str], plugins: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """games.json's entries: bets from the engine, and the exact RTP (cached per engine version).

    ``plugins`` are games that are not shipped with the engine (id -> module), e.g. the
    tests' fixture game: registered first, listed after the others, never cached."""
    plugins = dict(plugins or {})
    key = _tree_hash(ROOT / "pyengine")[:20]
    rtp_file = CACHE / f"rtp-{key}.json"
    rtp: dict[str, dict[str, Any]] = json.loads(rtp_file.read_text()) if rtp_file.exists() else {}
    need = [g for g in ids if not set(REPORT_FIGURES) <= set(rtp.get(g, {}))]
    if need:
        log(f"computing the exact RTP of {', '.join(need)} (cached until pyengine/ changes)")
    ids = [*ids, *plugins]
    need = [*need, *plugins]
    res = subprocess.run(
        [str(python), "-c", GAMES_CODE, json.dumps(ids), json.dumps(need), json.dumps(plugins)],
        capture_output=True, text=True, check=False, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT,
    )
    if res.returncode != 0:
        log(f"reading the games from the engine failed:\n{res.stderr}")
        sys.exit(1)
    entries: list[dict[str, Any]] = json.loads(res.stdout)
    for e in entries:
        if "rtp" in e and e["id"] not in plugins:
            rtp[e["id"]] = {k: e[k] for k in (*REPORT_FIGURES, "page") if k in e}
    if need:
        _write_atomic(rtp_file, json.dumps(rtp, indent=1, sort_keys=True).encode())
    for e in entries:
        e.update(rtp.get(e["id"], {}))
        e["assets"] = game_assets(e["id"], [s["id"] for s in e["symbols"]], e["symbols"])
    return entries


def game_assets(game_id: str, symbol_ids: list[str], symbols: list[dict[str, str]]) -> dict[str, Any]:
    """Paths (relative to the site) of a game's art that exists; tile.svg may not exist yet."""
    folder = STATIC / "games" / game_id

    def rel(p: Path) -> str | None:
        return p.relative_to(ROOT).as_posix() if p.is_file() else None

    sym = {s: rel(folder / "symbols" / f"{s}.svg") for s in symbol_ids}
    wild = next((s["id"] for s in symbols if "wild" in s["kind"]), symbol_ids[0] if symbol_ids else "")
    return {
        "tile": rel(folder / "tile.svg"),
        "background": rel(folder / "background.svg"),
        "frame": rel(folder / "frame.svg"),
        "logo": rel(folder / "logo.svg"),
        "emblem": sym.get(wild),
        "symbols": {k: v for k, v in sym.items() if v is not None},
        # Every picture the game screen draws (the client loads those that exist): those of
        # the first frame while Python loads, the others once the game is ready.
        "pictures": sorted(p.relative_to(ROOT).as_posix() for p in folder.rglob("*.svg") if p.name != "tile.svg"),
    }


def _skip_pyscript_import(core: str) -> str:
    """PyScript imports its own Python package before running main.py; this site never uses
    it (main.py talks to the page through ``js`` and ``pyodide.ffi``), and the import costs
    about 0.2 s of the first load. Drop that one statement (the package's files are still
    written, so ``import pyscript`` keeps working where wanted)."""
    pattern = re.compile(
        r'(\w+)\.push\("import pyscript as _pyscript"\),\1\.push\(\.\.\.\["_Path","_path","_os","_pyscript"\]'
    )
    patched, n = pattern.subn(r'\1.push(...["_Path","_path","_os"]', core)
    if n != 1:
        log("PyScript's startup import of its package was not found: left as it is")
        return core
    return patched


def _static_imports(js: str) -> list[str]:
    """Relative modules a bundle imports statically (``from"./x.js"``, ``import"./x.js"``)."""
    return re.findall(r'(?:\bfrom|\bimport)\s*"\./([\w.-]+\.js)"', js)


def pyscript_files() -> tuple[list[str], list[str]]:
    """(the PyScript dist files a page loads, the plugin switches for pyscript.json).

    A page loads ``core.js`` and what it imports statically. PyScript imports every plugin
    unless the config turns it off with ``"!name"``; all are turned off (the page uses no
    editor or terminal), and ``"!error"`` keeps the error plugin's module (it is always
    imported) but stops it writing errors into the page, which boot.js shows itself.
    """
    dist = PYSCRIPT_DIR / "dist"
    plugins_js = (PYSCRIPT_DIR / "src" / "plugins.js").read_text(encoding="utf-8")
    plugins = re.findall(r'^\s*\[?"?([\w-]+)"?\]?:\s*\(\)\s*=>', plugins_js, re.M)
    if "error" not in plugins:
        log(f"unexpected PyScript plugin list in {PYSCRIPT_DIR / 'src' / 'plugins.js'}: {plugins}")
        sys.exit(1)
    needed: list[str] = []
    todo = ["core.js"]
    core_chunk = ""
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.append(name)
        text = (dist / name).read_text(encoding="utf-8")
        if name.startswith("core-"):
            core_chunk = text
        todo += _static_imports(text)
    m = re.search(r'error:\(\)=>import\("\./(error-[\w-]+\.js)"\)', core_chunk)
    if m is None:
        log("cannot find PyScript's error plugin chunk in its core bundle")
        sys.exit(1)
    todo = [m.group(1)]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.append(name)
            todo += _static_imports((dist / name).read_text(encoding="utf-8"))
    return sorted(needed), [f"!{p}" for p in plugins]


def _gzip_cached(data: bytes) -> bytes:
    key = _sha256(data)
    cached = CACHE / "gz" / f"{key}.gz"
    if cached.exists():
        return cached.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    _write_atomic(cached, packed)
    return packed


# Brotli's quality 11 costs about 30 s for the 9.6 MB WebAssembly binary here (once: it never
# changes) and about 40 s for the 31 MB snapshot, which changes with every change of the
# engine or the client. The snapshot is only downloaded after the first game is ready, in the
# background, so it gets quality 9: about 2 s, and 17% larger (4.27 MB against 3.66 MB).
BROTLI_QUALITY = {"snapshot.bin": 9}


BROTLI_CODE = (
    "import sys, brotli; sys.stdout.buffer.write(brotli.compress(sys.stdin.buffer.read(), "
    "quality=int(sys.argv[1]), lgwin=24))"
)


def _brotli(data: bytes, quality: int) -> bytes:
    """Brotli from PyPI's ``brotli``: in this process when it has it, else in .venv's Python
    (``python3 build.py build`` runs on the system's Python; `ensure_venv` installs it there)."""
    try:
        import brotli  # type: ignore[import-untyped]  # a build tool (BUILD_TOOLS), in .venv
    except ImportError:
        res = subprocess.run([str(PY), "-c", BROTLI_CODE, str(quality)], input=data, capture_output=True, check=False)
        if res.returncode != 0:
            log(f"brotli failed in {PY}: {res.stderr.decode(errors='replace')[-2000:]}")
            sys.exit(1)
        return res.stdout
    packed: bytes = brotli.compress(data, quality=quality, lgwin=24)
    return packed


def _brotli_cached(data: bytes, quality: int = 11) -> bytes:
    key = _sha256(data)
    cached = CACHE / "br" / f"{key}-q{quality}.br"
    if cached.exists():
        return cached.read_bytes()
    packed = _brotli(data, quality)
    _write_atomic(cached, packed)
    return packed


def _precompress(data: bytes, ext: str, quality: int) -> bytes:
    """``data`` as gzip (``.gz``) or brotli (``.br``), each cached by content."""
    return _gzip_cached(data) if ext == ".gz" else _brotli_cached(data, quality)


class Packer:
    """Precompression on every core: brotli and zlib release the GIL, so threads compress
    side by side. `start` may be called early for files that never change (the runtimes),
    so that they compress while the build does its other work; each (content, format,
    quality) is compressed once."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
        self._jobs: dict[tuple[str, str, int], Future[bytes]] = {}
        self._lock = threading.Lock()

    def start(self, data: bytes, ext: str, quality: int) -> Future[bytes]:
        key = (_sha256(data), ext, quality)
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                job = self._jobs[key] = self._pool.submit(_precompress, data, ext, quality)
        return job

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _member_of(name: str, screen: str) -> bool:
    """Whether the archive member ``name`` (``slotui/...``: a source, its bytecode or its
    compiled dataclasses) belongs to the screen module ``screen``."""
    path = _screen_path(screen)
    return name.startswith(path + "/") or name.split(".")[0] == path


def _is_sound(name: str) -> bool:
    """Whether the archive member ``name`` is sound code, which travels in sound.zip (fetched
    once the game is ready, `slotui.jssound`), not on the first load: the cues
    (slotui/cues.py), the Web Audio side (slotui/webaudio.py) and each game's voice (its
    screen package's sound.py)."""
    module = name.split(".")[0]
    parts = module.split("/")
    return module in SOUND_MODULES or (parts[:2] == ["slotui", "games"] and len(parts) == 4 and parts[3] == "sound")


SOUND_MODULES = ("slotui/cues", "slotui/webaudio")


def sound_zip(out: Path, bytecode: Path) -> None:
    """The sound code (`_is_sound`) as one archive, stored, named as in the checkout
    (slotui/...): `slotui.jssound` puts its folders on the packages' ``__path__``."""
    members = {}
    for p in _tree_files(WEB / "slotui"):
        name = p.relative_to(WEB).as_posix()
        if p.suffix == ".py" and _is_sound(name):
            members[name] = p.read_bytes()
    with zipfile.ZipFile(bytecode) as extra:
        for info in extra.infolist():
            if _is_sound(info.filename):
                members[info.filename] = extra.read(info)
    _stored_zip(out, members)


def _entry(name: str) -> zipfile.ZipInfo:
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))


KINDS = (".py", ".pyc", ".dataclasses")
"""The order of a code archive's members after its data and metadata: the sources, the
bytecode, the compiled methods of the dataclasses (`_stored_zip`)."""


def _kind_order(name: str) -> tuple[int, str]:
    suffix = "." + name.rpartition(".")[2] if "." in name.rpartition("/")[2] else ""
    return (KINDS.index(suffix) + 1 if suffix in KINDS else 0), name


def _stored_zip(out: Path, members: Mapping[str, bytes]) -> None:
    """``members`` (name -> content) as a stored zip (compressed in transit, by brotli or gzip),
    like beside like: the data and metadata, then every source, every module's bytecode,
    every compiled dataclass (`KINDS`), each kind by name. Brotli finds nearer matches and
    its context model fits better than with each module's files side by side: about 2 KB
    less over the wire for the engine and the client together."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        for name in sorted(members, key=_kind_order):
            zf.writestr(_entry(name), members[name])


def client_zip(
    out: Path, bytecode: Path | None = None, *, screens: Iterable[str] = (), screen: str | None = None,
    sound: bool = True,
) -> None:
    """The client modules (web/slotui) as one archive, stored: one request, compressed in transit.

    The page imports from it in place (no unpacking). Without ``screen``, the archive holds
    the ``slotui`` package but the games' screens ``screens`` and goes on ``sys.path``
    (web/main.py). With ``screen`` (a game's `Plugin.screen`), it holds that screen alone,
    named from the package above it, and goes on that package's ``__path__``
    (`slotui.browser.load_screen`). ``bytecode`` (a zip of ``slotui/*.pyc``, `make_stdlib`)
    puts each module's bytecode beside its source. Without ``sound``, the sound code
    (`_is_sound`) is left out: it travels in sound.zip (`sound_zip`).
    """
    others = tuple(screens)
    if screen is None:
        def ours(name: str) -> bool:
            return not any(_member_of(name, s) for s in others)
        prefix = ""
    else:
        def ours(name: str) -> bool:
            return _member_of(name, screen)
        prefix = _screen_path(screen).rpartition("/")[0] + "/"
    def keep(name: str) -> bool:
        return ours(name) and (sound or not _is_sound(name))

    members = {}
    for p in _tree_files(WEB / "slotui"):
        name = p.relative_to(WEB).as_posix()
        if p.suffix == ".py" and keep(name):
            members[name.removeprefix(prefix)] = p.read_bytes()
    if bytecode is not None:
        with zipfile.ZipFile(bytecode) as extra:
            for info in extra.infolist():
                if keep(info.filename):
                    members[info.filename.removeprefix(prefix)] = extra.read(info)
    _stored_zip(out, members)


def engine_zip(out: Path, wheel: Path, bytecode: Path) -> None:
    """The engine as the page imports it in place: the wheel's own members (sources, game data,
    metadata), and beside each module the page imports its bytecode (`make_stdlib`), stored,
    so that brotli compresses it in transit (the wheel's members are deflated)."""
    with zipfile.ZipFile(wheel) as whl, zipfile.ZipFile(bytecode) as extra:
        members = {i.filename: whl.read(i) for i in whl.infolist() if not i.is_dir()}
        members |= {i.filename: extra.read(i) for i in extra.infolist()}
    _stored_zip(out, members)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        log("node is not on PATH: install Node.js; the build runs Pyodide under it")
        sys.exit(1)
    return node


def make_stdlib(wheel: Path, client: Path) -> tuple[Path, list[str]]:
    """The trimmed standard library for this wheel and client (`STDLIB_JS`), cached.

    Returns a folder with stdlib.zip, engine-pyc.zip and client-pyc.zip, and the modules the
    standard library keeps (their source names in Pyodide's zip).
    """
    h = hashlib.sha256(STDLIB_JS.encode() + json.dumps(STDLIB_LAZY).encode())
    for f in [*(PYODIDE_DIR / n for n in PYODIDE_FILES), PYODIDE_STDLIB, wheel, client]:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    out = CACHE / f"stdlib-{h.hexdigest()[:20]}"
    listing = out / "modules.json"
    if listing.exists():
        return out, json.loads(listing.read_text())
    log("trimming the standard library to what the page imports (Node.js; cached)")
    tmp = _unique(out)
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    cmd = [_node(), "--input-type=module", "-e", STDLIB_JS, str(PYODIDE_DIR), str(wheel), str(client),
           json.dumps(STDLIB_LAZY), str(tmp)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ROOT)
    if proc.returncode != 0 or not (tmp / "client-pyc.zip").exists():
        log(f"trimming the standard library failed:\n{proc.stderr[-4000:]}")
        sys.exit(1)
    members: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    (tmp / "modules.json").write_text(json.dumps(members, indent=0) + "\n")
    try:
        tmp.rename(out)
    except OSError:  # another build made the same folder meanwhile: the same content
        shutil.rmtree(tmp)
    return out, members


def make_snapshot(engine: Path, client: Path, screens: Path, stdlib: Path) -> Path | None:
    """Pyodide's memory snapshot for this engine zip, client zip, the games' screen zips (a
    folder of ``<id>.zip``) and trimmed standard library (cached).

    None where Node.js fails. It is made against the very zips the page mounts: the snapshot
    holds zipimport's table of each zip's members.
    """
    node = shutil.which("node")
    if node is None:
        log("WARNING: no node on PATH: the site starts Python without a snapshot (slower)")
        return None
    h = hashlib.sha256(SNAPSHOT_JS.encode())
    for f in [*(PYODIDE_DIR / n for n in PYODIDE_FILES), stdlib, engine, client, *sorted(screens.glob("*.zip"))]:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    out = CACHE / f"snapshot-{h.hexdigest()[:20]}.bin"
    if out.exists():
        return out
    log("making the Pyodide memory snapshot (Node.js; cached until Pyodide, the wheel or the client change)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = _unique(out)
    proc = subprocess.run(
        [node, "--input-type=module", "-e", SNAPSHOT_JS, str(PYODIDE_DIR), str(stdlib), str(engine), str(client),
         str(screens), str(tmp)],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    if proc.returncode != 0 or not tmp.exists():
        # Node echoes the minified line an error came from: leave those out of the message.
        said = "\n".join(line for line in proc.stderr.splitlines() if len(line) < 400)
        log(f"WARNING: the snapshot failed; the site starts Python without it:\n{said[-3000:]}")
        return None
    os.replace(tmp, out)
    return out


@dataclass
class SiteBuild:
    """What `build_site` wrote."""

    path: Path
    version: str
    files: list[str]
    raw_bytes: int
    gzip_bytes: int
    br_bytes: int = 0
    stdlib_modules: int = 0
    games: list[str] = field(default_factory=list)


def build_site(
    out: Path = SITE, *, python: Path = PY, snapshot: bool = True, plugins: Mapping[str, str] | None = None
) -> SiteBuild:
    """Write the static site to ``out`` (replaced whole when done). ``python`` has the dev extra.

    With ``snapshot``, Python starts from a memory snapshot made at build time (see
    `make_snapshot`): seconds faster, at the price of a larger download. ``plugins`` adds
    games that are not shipped with the engine (id -> engine module, e.g. the tests'
    fixture game, `FIXTURE`): their package travels as plugins.zip, the page registers
    them, and the lobby does not list them.
    """
    plugins = dict(plugins or {})
    if not (PYODIDE_DIR / "pyodide.mjs").exists() or not (PYSCRIPT_DIR / "dist" / "core.js").exists():
        ensure_npm()
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    tmp = out.with_name(out.name + ".partial")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)

    packer = Packer()
    try:
        return _build_into(tmp, out, packer, python=python, snapshot=snapshot, plugins=plugins, lock=lock)
    finally:
        packer.close()


def _build_into(
    tmp: Path, out: Path, packer: Packer, *, python: Path, snapshot: bool, plugins: dict[str, str], lock: Any
) -> SiteBuild:
    """`build_site`'s steps, writing into ``tmp`` and renaming it to ``out`` at the end."""
    _pages_and_art(tmp)
    ps_files, ps_plugins = _runtimes(tmp, packer)
    wheel, files = _engine_and_client(tmp, python, plugins)
    made, stdlib_modules = make_stdlib(wheel, tmp / "slotui.zip")
    stdlib = made / "stdlib.zip"
    _copy(stdlib, tmp / "pyodide" / "stdlib.zip")
    _copy(WEB / "pyodide-boot.mjs", tmp / "pyodide" / "boot.mjs")
    # The engine: the wheel's members with the bytecode of the modules the page imports.
    engine_zip(tmp / "wheels" / "engine.zip", wheel, made / "engine-pyc.zip")
    screens = playable_games(python)
    _screens_and_snapshot(tmp, made, stdlib, screens, snapshot=snapshot)
    config = {"interpreter": "./pyodide/boot.mjs", "plugins": ps_plugins, "files": files}
    (tmp / "pyscript.json").write_text(json.dumps(config, indent=2) + "\n")
    ids = list(screens)
    _catalogues(tmp, screens, plugins)
    _games_json(tmp, python, wheel, ids, plugins, lock, ps_files)
    _showcase_json(tmp, python, ids)
    version, rel_files = _service_worker(tmp, ids)
    raw_total, gz_total, br_total = _precompress_all(tmp, packer)
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return SiteBuild(
        out, version, [*rel_files, "sw.js"], raw_total, gz_total,
        br_bytes=br_total, stdlib_modules=len(stdlib_modules), games=ids,
    )


def _pages_and_art(tmp: Path) -> None:
    """The pages, their scripts, the game's entry point (web/main.py), the client modules as
    one archive (one request instead of one per module) and the hand-made assets."""
    for name in (*SITE_PAGES, *SITE_SCRIPTS, *SITE_DATA):
        _copy(WEB / name, tmp / name)
    if (WEB / "main.py").exists():
        _copy(WEB / "main.py", tmp / "main.py")
    else:
        log("WARNING: web/main.py is missing: play.html will not reach ready")
    client_zip(tmp / "slotui.zip")
    for p in _tree_files(STATIC):
        _copy(p, tmp / p.relative_to(ROOT))


def _runtimes(tmp: Path, packer: Packer) -> tuple[list[str], list[str]]:
    """Pyodide and PyScript: only what a page loads. Returns PyScript's files and plugins."""
    for name in PYODIDE_FILES:
        _copy(PYODIDE_DIR / name, tmp / "pyodide" / name)
        # The runtimes never change: compress them now, beside the build's other work.
        data = (tmp / "pyodide" / name).read_bytes()
        if Path(name).suffix in PRECOMPRESSED and len(data) >= 512:
            for ext in (".gz", ".br"):
                packer.start(data, ext, BROTLI_QUALITY.get(name, 11))
    ps_files, ps_plugins = pyscript_files()
    for name in ps_files:
        text = (PYSCRIPT_DIR / "dist" / name).read_text(encoding="utf-8")
        # Their source maps are not shipped: drop the reference so devtools do not ask for them.
        text = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", text)
        if name.startswith("core-"):
            text = _skip_pyscript_import(text)
        (tmp / "pyscript").mkdir(exist_ok=True)
        (tmp / "pyscript" / name).write_text(text, encoding="utf-8")
    return ps_files, ps_plugins


def _engine_and_client(tmp: Path, python: Path, plugins: dict[str, str]) -> tuple[Path, dict[str, str]]:
    """The engine wheel (for download; the page imports its members from wheels/engine.zip)
    and the files PyScript writes into its working folder (web/main.py puts the zips on
    sys.path: nothing to unpack). Returns the wheel and PyScript's ``files``."""
    wheel = build_wheel(python)
    _copy(wheel, tmp / "wheels" / wheel.name)
    files: dict[str, str] = {"./wheels/engine.zip": "./engine.zip", "./slotui.zip": "./slotui.zip"}
    if plugins:
        _plugin_zip(tmp / "plugins.zip", plugins.values())
        files["./plugins.zip"] = "./*"
    return wheel, files


def _screens_and_snapshot(tmp: Path, made: Path, stdlib: Path, screens: dict[str, str], *, snapshot: bool) -> None:
    """Each game's screen package travels with its art (static/games/<id>/client.zip,
    fetched by the page of that game only), the shared client in slotui.zip: a new game adds
    nothing to another game's first load. The sound code in sound.zip, fetched once the game
    is ready (not in the snapshot either). Then the memory snapshot, made against them."""
    client_zip(tmp / "slotui.zip", made / "client-pyc.zip", screens=screens.values(), sound=False)
    sound_zip(tmp / "sound.zip", made / "client-pyc.zip")
    folder = _unique(CACHE / "screens")
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for gid, screen in screens.items():
        own = tmp / "static" / "games" / gid / "client.zip"
        client_zip(own, made / "client-pyc.zip", screen=screen, sound=False)
        shutil.copyfile(own, folder / f"{gid}.zip")
    snap = make_snapshot(tmp / "wheels" / "engine.zip", tmp / "slotui.zip", folder, stdlib) if snapshot else None
    shutil.rmtree(folder)
    if snap is not None:
        _copy(snap, tmp / "pyodide" / "snapshot.bin")


def _catalogues(tmp: Path, screens: dict[str, str], plugins: dict[str, str]) -> None:
    """The message catalogues, one file per language: the shared client's as lang/<lang>.json
    and each game's (its screen package's ``lang`` folder) as static/games/<id>/lang/<lang>.json,
    so a page fetches its own language's words alone (web/words.js)."""
    for p in sorted((WEB / "slotui" / "lang").glob("*.json")):
        _copy(p, tmp / "lang" / p.name)
    folders = {gid: WEB / _screen_path(screen) for gid, screen in screens.items()}
    folders |= {gid: ROOT / module.replace(".", "/") for gid, module in plugins.items()}
    for gid, folder in folders.items():
        where = folder if folder.is_dir() else folder.parent
        found = sorted((where / "lang").glob("*.json"))
        if not found:
            log(f"the game {gid} has no catalogue in {where / 'lang'}: every game's screen needs its words")
            sys.exit(1)
        for p in found:
            _copy(p, tmp / "static" / "games" / gid / "lang" / p.name)


def _games_json(
    tmp: Path, python: Path, wheel: Path, ids: list[str], plugins: dict[str, str], lock: Any, ps_files: list[str]
) -> None:
    """The lobby's list, from the engine: games.json."""
    engine = json.loads(
        subprocess.run(
            [str(python), "-c", "import json, pyengine; print(json.dumps(pyengine.__version__))"],
            capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT,
        ).stdout
    )
    games: dict[str, Any] = {
        "engine": {"version": engine, "wheel": f"wheels/{wheel.name}"},
        "runtime": {
            "pyodide": _npm_version(PYODIDE_DIR),
            "pyscript": _npm_version(PYSCRIPT_DIR),
            "python": lock["info"]["python"],
            # What the game page starts downloading before Python asks for it.
            "preload": preload_hints(ps_files),
        },
        "games": game_entries(python, ids, plugins),
    }
    for entry in games["games"]:
        if entry["id"] in ids:
            entry["client"] = f"static/games/{entry['id']}/client.zip"  # its screen module
    (tmp / "games.json").write_text(json.dumps(games, indent=1) + "\n")


SHOWCASE_CODE = r"""
import json, os, sys
from concurrent.futures import ProcessPoolExecutor
from pyengine.showcase import showcase
ids = json.loads(sys.argv[1])
with ProcessPoolExecutor(max_workers=max(1, min(len(ids), os.cpu_count() or 1))) as pool:
    print(json.dumps(dict(zip(ids, pool.map(showcase, ids)))))
"""
SHOWCASE_FIELDS = ("id", "kind", "title", "mode", "seed", "round", "token", "stake", "win", "win_x")


def showcases(python: Path, ids: list[str]) -> dict[str, Any]:
    """`pyengine.showcase.showcase` of each game of ``ids``, searched with ``python`` (on both
    cores, a game each) and cached per engine version: the search plays a few hundred
    thousand rounds a game. The tests read the same cache."""
    key = _tree_hash(ROOT / "pyengine")[:20]
    cache = CACHE / f"showcase-{key}.json"
    with _locked(CACHE / "showcase.lock"):  # the build and the tests ask at once: one searches
        return _showcases(python, ids, cache)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` between processes (where the OS has ``fcntl``)."""
    try:
        import fcntl
    except ImportError:  # no lock: at worst two processes compute the same cache
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _showcases(python: Path, ids: list[str], cache: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(cache.read_text()) if cache.exists() else {}
    need = [g for g in ids if g not in found]
    if need:
        log(f"searching the showcase of {', '.join(need)} (cached until pyengine/ changes)")
        res = subprocess.run(
            [str(python), "-c", SHOWCASE_CODE, json.dumps(need)],
            capture_output=True, text=True, check=False, env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT,
        )
        if res.returncode != 0:
            log(f"the showcase search failed:\n{res.stderr}")
            sys.exit(1)
        found.update(json.loads(res.stdout))
        _write_atomic(cache, json.dumps(found, sort_keys=True).encode())
    return {g: found[g] for g in ids}


def _showcase_json(tmp: Path, python: Path, ids: list[str]) -> None:
    """The site's showcase.json: every game's showcase (`showcases`), for the lobby's and the
    rules pages' Watch links and the attract mode."""
    games = {}
    for g, sc in showcases(python, ids).items():
        entries = [
            {**{k: e[k] for k in SHOWCASE_FIELDS}, "odds": {k: e["odds"][k] for k in ("text", "probability", "method")}}
            for e in sc["entries"]
        ]
        games[g] = {"version": sc["version"], "bet": sc["bet"], "rounds": sc["rounds"], "entries": entries}
    (tmp / "showcase.json").write_text(json.dumps({"games": games}, separators=(",", ":")) + "\n")


def _service_worker(tmp: Path, ids: list[str]) -> tuple[str, list[str]]:
    """The service worker: the build's hash, the files every page needs (precached once a
    game is ready) and each game's own art (precached for the game that was opened).
    Returns the build's version and its files (sw.js aside)."""
    listed = [p for p in _tree_files(tmp) if p.name != "sw.js"]
    h = hashlib.sha256()
    for p in listed:
        h.update(p.relative_to(tmp).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    version = h.hexdigest()[:16]
    rel_files = [p.relative_to(tmp).as_posix() for p in listed]
    per_game: dict[str, list[str]] = {gid: [] for gid in ids}
    shared: list[str] = []
    for rel in rel_files:
        parts = rel.split("/")
        if parts[:2] == ["static", "games"] and parts[2] in per_game and parts[-1] != "tile.svg":
            per_game[parts[2]].append(rel)
        elif not rel.endswith(".whl"):  # the wheel is for download: the page imports engine.zip
            shared.append(rel)
    sw = (WEB / "sw.js").read_text(encoding="utf-8")
    if SW_PLACEHOLDER not in sw:
        log(f"web/sw.js has no line {SW_PLACEHOLDER!r} to fill in")
        sys.exit(1)
    build_line = f"const BUILD = {json.dumps({'version': version, 'files': shared, 'games': per_game})};"
    (tmp / "sw.js").write_text(sw.replace(SW_PLACEHOLDER, build_line), encoding="utf-8")
    return version, rel_files


def _precompress_all(tmp: Path, packer: Packer) -> tuple[int, int, int]:
    """Precompressed copies next to the files, for servers that use them (build.py serve
    does): brotli (.br) and gzip (.gz), each kept where it is at least 10% smaller than the
    file. Returns the site's bytes raw, with gzip and with brotli."""
    raw_total = gz_total = br_total = 0
    contents = [(p, p.read_bytes()) for p in _tree_files(tmp)]
    jobs: dict[tuple[Path, str], Future[bytes]] = {}
    for p, data in sorted(contents, key=lambda f: -len(f[1])):  # the largest first: they take longest
        if p.suffix in PRECOMPRESSED and len(data) >= 512:
            for ext in (".gz", ".br"):
                jobs[(p, ext)] = packer.start(data, ext, BROTLI_QUALITY.get(p.name, 11))
    for p, data in contents:
        raw_total += len(data)
        for ext in (".gz", ".br"):
            job = jobs.get((p, ext))
            packed = job.result() if job is not None else b""
            small = bool(packed) and len(packed) < 0.9 * len(data)
            if small:
                p.with_name(p.name + ext).write_bytes(packed)
            size = len(packed) if small else len(data)
            if ext == ".gz":
                gz_total += size
            else:
                br_total += size
    return raw_total, gz_total, br_total


def preload_hints(pyscript: list[str]) -> list[dict[str, Any]]:
    """Preload hints of the game page, in games.json: every file Python's start needs.

    boot.js adds them once the address is valid (a bad address loads no Python), so that the
    runtime downloads at once rather than one file after another as each asks for the next.
    The two large files (``first``) are asked for beside the game's art; the others once the
    art has arrived, so that the art is not queued behind them; the files PyScript writes once
    Python runs or reads (``late``: the engine, the client and main.py, which PyScript would
    otherwise ask for only once Python is ready: a round trip) once the ``first`` ones have
    arrived, so that they download while Python starts rather than beside the WebAssembly
    binary, whose arrival starts it. ``as: fetch`` hints carry
    ``crossorigin``: Pyodide and PyScript fetch these files in CORS mode, and a hint only
    serves a request of the same mode.
    """
    return [
        {"href": "./pyodide/pyodide.asm.wasm", "as": "fetch", "first": True},
        {"href": "./pyodide/stdlib.zip", "as": "fetch", "first": True},
        *({"href": f"./pyscript/{n}", "as": "module"} for n in sorted(pyscript, key=lambda n: n != "core.js")
          if not n.startswith("error-")),
        {"href": "./pyodide/boot.mjs", "as": "module"},
        {"href": "./pyodide/pyodide.mjs", "as": "module"},
        {"href": "./pyodide/pyodide.asm.mjs", "as": "module"},
        {"href": "./pyscript.json", "as": "fetch"},
        {"href": "./pyodide/pyodide-lock.json", "as": "fetch"},
        {"href": "./wheels/engine.zip", "as": "fetch", "late": True},
        {"href": "./slotui.zip", "as": "fetch", "late": True},
        {"href": "./main.py", "as": "fetch", "late": True},
    ]


FIXTURE = {"pick_fixture": "tests.fixture_game.pick_fixture"}
"""The tests' fixture game (not shipped): ``build --fixture`` and the browser tests add it."""


def _plugin_zip(path: Path, modules: Iterable[str]) -> None:
    """The packages of ``modules`` (with their parents' ``__init__.py``), as a zip to unpack
    into the page's working folder, which is on ``sys.path``."""
    names: dict[str, bytes] = {}
    for module in modules:
        parts = module.split(".")[:-1]
        for i in range(1, len(parts)):
            init = ROOT.joinpath(*parts[:i], "__init__.py")
            names["/".join(parts[:i]) + "/__init__.py"] = init.read_bytes() if init.exists() else b""
        folder = ROOT.joinpath(*parts)
        for p in _tree_files(folder):
            if p.suffix in (".py", ".json"):
                names[p.relative_to(ROOT).as_posix()] = p.read_bytes()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(names):
            zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), names[name], zipfile.ZIP_DEFLATED)


def _npm_version(package_dir: Path) -> str:
    return str(json.loads((package_dir / "package.json").read_text())["version"])


def site_dir(args: argparse.Namespace) -> Path:
    """Where `build` writes the site and `serve` serves it from: ``--out`` or ``site/``."""
    return Path(args.out).resolve() if args.out else SITE


def cmd_build(args: argparse.Namespace) -> None:
    ensure_venv()
    ensure_npm()
    out = site_dir(args)
    b = build_site(out, snapshot=not args.no_snapshot, plugins=FIXTURE if args.fixture else None)
    log(
        f"site {b.version} in {b.path}: {len(b.files)} files, {b.raw_bytes / 1e6:.1f} MB "
        f"({b.gzip_bytes / 1e6:.1f} MB gzip, {b.br_bytes / 1e6:.1f} MB brotli); "
        f"standard library: {b.stdlib_modules} modules; games: {', '.join(b.games) or 'none'}"
    )


# -- the local server --------------------------------------------------------------------------


@dataclass
class Served:
    """One answered request (for the benchmark's byte counts)."""

    path: str
    status: int
    raw_bytes: int
    sent_bytes: int
    encoding: str
    precache: bool = False
    """Asked for by the service worker's precache (its ``X-Slot-Studio-Precache`` header)."""


class SiteServer(http.server.ThreadingHTTPServer):
    """Serves a built site under ``base`` with the right MIME types, ETags and gzip."""

    daemon_threads = True

    def __init__(self, site: Path, *, host: str = "127.0.0.1", port: int = 8000, base: str = "/", quiet: bool = False):
        if not (base.startswith("/") and base.endswith("/")):
            raise ValueError(f"base must start and end with '/', e.g. /demos/slots/, not {base!r}")
        self.site = site.resolve()
        self.base = base
        self.quiet = quiet
        self.served: list[Served] = []
        self.lock = threading.Lock()
        self._gz: dict[tuple[str, int, int], bytes] = {}
        super().__init__((host, port), SiteHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}{self.base}"

    def gzipped(self, path: Path, data: bytes | None = None) -> bytes:
        """A gzip body for ``path``: its precompressed .gz, else compressed once and kept."""
        pre = path.with_name(path.name + ".gz")
        if pre.is_file():
            return pre.read_bytes()
        if data is None:
            data = path.read_bytes()
        st = path.stat()
        key = (str(path), st.st_mtime_ns, st.st_size)
        with self.lock:
            hit = self._gz.get(key)
        if hit is None:
            hit = gzip.compress(data, compresslevel=6, mtime=0)
            with self.lock:
                self._gz[key] = hit
        return hit

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that drops a connection it no longer needs is not an error worth a traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    def start(self) -> threading.Thread:
        """Serve from a daemon thread (tests, benchmark)."""
        t = threading.Thread(target=self.serve_forever, name="site-server", daemon=True)
        t.start()
        return t


def _accepts(header: str, coding: str) -> bool:
    """Whether an Accept-Encoding header accepts ``coding`` (named, or ``*``, and not q=0)."""
    for part in header.split(","):
        token, _, params = part.strip().partition(";")
        if token.strip().lower() in (coding, "*"):
            q = params.strip()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


def _accepts_gzip(header: str) -> bool:
    return _accepts(header, "gzip")


class SiteHandler(http.server.BaseHTTPRequestHandler):
    server_version = "slot-studio"
    protocol_version = "HTTP/1.1"

    @property
    def site_server(self) -> SiteServer:
        return cast(SiteServer, self.server)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.site_server.quiet:
            sys.stderr.write(f"[serve] {self.address_string()} {format % args}\n")

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def do_GET(self) -> None:
        self._answer(body=True)

    def _record(self, path: str, status: int, raw: int, sent: int, encoding: str) -> None:
        with self.site_server.lock:
            precache = self.headers.get("X-Slot-Studio-Precache") == "1"
            self.site_server.served.append(Served(path, status, raw, sent, encoding, precache))

    def _plain(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
        data = text.encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        self._record(self.path, status, len(data), len(data), "")

    def _answer(self, *, body: bool) -> None:
        srv = self.site_server
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if not path.startswith(srv.base):
            if path == "/" or path == srv.base.rstrip("/"):
                self._plain(302, f"the site is at {srv.base}\n", {"Location": srv.base})
            else:
                self._plain(404, f"not found: {path} (the site is at {srv.base})\n")
            return
        rel = path[len(srv.base):]
        if rel == "" or rel.endswith("/"):
            rel += "index.html"
        file = (srv.site / rel).resolve()
        if not file.is_relative_to(srv.site) or not file.is_file() or file.suffix in (".gz", ".br"):
            self._plain(404, f"not found: {path}\n")
            return
        st = file.stat()
        ctype = MIME_TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        encoding = ""
        payload = b""
        # The raw file is read only when it is what gets sent (the snapshot is 30 MB raw).
        # Brotli where the build left a .br and the browser accepts it, else gzip.
        accept = self.headers.get("Accept-Encoding", "")
        brotli_file = file.with_name(file.name + ".br")
        if brotli_file.is_file() and _accepts(accept, "br"):
            payload, encoding = brotli_file.read_bytes(), "br"
        elif (
            st.st_size >= 512
            and _accepts_gzip(accept)
            and (file.suffix in COMPRESSIBLE or file.with_name(file.name + ".gz").is_file())
        ):
            packed = srv.gzipped(file)
            if len(packed) < st.st_size:
                payload, encoding = packed, "gzip"
        if not encoding:
            payload = file.read_bytes()
        etag = f'"{st.st_mtime_ns:x}-{st.st_size:x}{"-" + encoding if encoding else ""}"'
        status = 304 if etag in (self.headers.get("If-None-Match") or "") else 200
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("ETag", etag)
        # Revalidate every time: a rebuilt file is never taken from a stale HTTP cache.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        if file.suffix in PRECOMPRESSED:
            self.send_header("Vary", "Accept-Encoding")
        if status == 304:
            self.send_header("Content-Length", "0")
            self.end_headers()
            self._record(path, 304, 0, 0, encoding)
            return
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if body:
            try:
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                return
        self._record(path, 200, st.st_size, len(payload), encoding)


def cmd_serve(args: argparse.Namespace) -> None:
    site = site_dir(args)
    if not args.no_build:
        cmd_build(args)
    elif not (site / "play.html").exists():
        log(f"{site} holds no built site (no play.html): run without --no-build to build it first")
        sys.exit(1)
    base = args.base if args.base.endswith("/") else args.base + "/"
    if not base.startswith("/"):
        base = "/" + base
    try:
        server = SiteServer(site, host=args.host, port=args.port, base=base, quiet=args.quiet)
    except OSError as e:
        log(f"cannot listen on {args.host}:{args.port}: {e.strerror or e} (choose another with --port)")
        sys.exit(1)
    print(f"Serving {site} at {server.url}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()


# -- Chromium for the browser tests --------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


def ensure_chromium() -> None:
    """Install Debian's Chromium where it is missing (the browser tests drive it with Playwright)."""
    if CHROMIUM.exists():
        return
    apt = shutil.which("apt-get")
    if apt is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        log(f"{CHROMIUM} is missing and cannot be installed here (needs apt-get as root): install Chromium")
        sys.exit(1)
    log(f"{CHROMIUM} is missing: installing Debian's chromium package (takes a minute)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run([apt, "update", "-q"], env=env)
    run([apt, "install", "-y", "-q", "chromium"], env=env)
    if not CHROMIUM.exists():
        log(f"apt-get installed chromium but {CHROMIUM} is still missing")
        sys.exit(1)
    log(f"installed {subprocess.run([str(CHROMIUM), '--version'], capture_output=True, text=True).stdout.strip()}")


TEST_SITE = ROOT / "build" / "test-site"
"""The site the browser tests run against (with the tests' fixture game), built by `cmd_test`."""


def cmd_test(args: argparse.Namespace) -> None:
    ensure_venv()
    ensure_npm()
    ensure_chromium()
    # The browser tests' site builds beside the linters and the engine tests (its compression
    # and Node.js steps run in other processes and threads), and every browser test worker
    # then serves that one build.
    failed: list[BaseException] = []

    def build_for_tests() -> None:
        try:
            build_site(TEST_SITE, python=PY, plugins=FIXTURE)
        except BaseException as e:  # SystemExit from a failed step, reported below
            failed.append(e)

    builder = threading.Thread(target=build_for_tests, name="test-site", daemon=True)
    builder.start()
    run([PY, "-m", "ruff", "check", "pyengine", "tests", "web", "build.py"])
    run([PY, "-m", "mypy"])
    # pytest-xdist: one worker per core; a test file stays on one worker (its module fixtures
    # are made once).
    pytest: list[object] = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto", "--dist", "loadfile"]
    extra = list(args.pytest_args or [])
    if extra[:1] == ["--"]:  # `build.py test -- -k x`: argparse keeps the separator
        extra = extra[1:]
    # The engine and client tests first; the browser tests (marked `browser`) after them.
    run([*pytest, "-m", "not browser", *extra], ok=(0, 5) if extra else (0,))  # 5: nothing selected
    builder.join()
    if failed:
        log(f"building the site for the browser tests failed: {failed[0]!r}")
        sys.exit(1)
    log(f"browser tests: the site built in {TEST_SITE.relative_to(ROOT)}, in headless Chromium")
    env = dict(os.environ, SLOT_STUDIO_SITE=str(TEST_SITE))
    run([*pytest, "-m", "browser", *extra], env=env, ok=(0, 5))
    log("all tests passed")


BENCH_CODE = r"""
import json, sys, time
from pyengine.games import GAME_IDS
from pyengine.math.simulate import simulate
rounds = int(sys.argv[1])
out = {}
for gid in GAME_IDS:
    simulate(gid, 5000, seed=99)  # warm the evaluators' memo tables
    best = 0.0
    for rep in range(3):
        r = simulate(gid, rounds, seed=rep + 1)
        best = max(best, r.rounds / r.seconds)
    out[gid] = best
print(json.dumps(out))
"""


SCALING_CODE = r"""
import json, sys
from pyengine.games import GAME_IDS
from pyengine.math.simulate import simulate
game = sys.argv[1] or GAME_IDS[0]
rounds = int(sys.argv[2])
rates, results = {}, set()
for n in map(int, sys.argv[3:]):
    r = simulate(game, rounds, seed=5, workers=n)
    rates[str(n)] = r.rounds / r.seconds
    out = r.to_json()
    out.pop("seconds"), out.pop("rounds_per_second")
    results.add(json.dumps(out, sort_keys=True))
print(json.dumps({"game": game, "rates": rates, "same": len(results) == 1}))
"""


def _interpreters() -> list[tuple[str, list[str]]]:
    found = [(f"{PY} (project venv)", [str(PY)])]
    # A distribution's PGO/LTO build of CPython runs the same code noticeably faster than a
    # source build without --enable-optimizations; report both where both exist.
    for cand in ("/usr/bin/python3.11", "/usr/bin/python3"):
        p = Path(cand)
        if p.exists() and p.resolve() != Path(sys.executable).resolve():
            found.append((f"{cand} (system CPython)", [cand]))
            break
    return found


def cmd_bench(args: argparse.Namespace) -> None:
    ensure_venv()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    print(f"Engine throughput: best of 3 runs of {args.rounds} rounds through Session, one core")
    for label, cmd in _interpreters():
        version = subprocess.run(
            [*cmd, "-c", "import sys,platform; print(platform.python_implementation(), sys.version.split()[0])"],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        ).stdout.strip()
        res = subprocess.run(
            [*cmd, "-c", BENCH_CODE, str(args.rounds)], capture_output=True, text=True, env=env, check=False
        )
        if res.returncode != 0:
            print(f"  {label}: failed: {res.stderr.strip().splitlines()[-1:]}")
            continue
        measured: dict[str, float] = json.loads(res.stdout)
        base = next(iter(measured.values()), 0.0)  # the first registered game, in the same run
        first = next(iter(measured), "")
        for gid, rps in measured.items():
            ratio = f"{rps / base:.2f}x {first}" if base else ""
            print(f"  {gid:<18} {rps:>10,.0f} rounds/s  {ratio:<22} [{version}, {label}]")
    cores = os.cpu_count() or 1
    counts = sorted({1, min(2, cores), cores})
    game = args.game or ""
    print(f"Simulation across processes (simulate --workers N, one session cut in pieces; {cores} cores here):")
    res = subprocess.run(
        [str(PY), "-c", SCALING_CODE, game, str(args.rounds * 4), *map(str, counts)],
        capture_output=True, text=True, env=env, check=False,
    )
    if res.returncode != 0:
        print(f"  failed: {res.stderr.strip().splitlines()[-1:]}")
    else:
        scaled = json.loads(res.stdout)
        one = scaled["rates"]["1"]
        for n in counts:
            rps = scaled["rates"][str(n)]
            print(f"  {scaled['game']:<18} {n} worker{'s' if n > 1 else ' '} {rps:>10,.0f} rounds/s  "
                  f"{rps / one:.2f}x 1 worker  (the same result: {scaled['same']})")
    print("Exact RTP computations (project venv):")
    code = (
        "import json,time\nfrom pyengine.games import GAME_IDS\nfrom pyengine.math.rtp import rtp_report\n"
        "from pyengine.games import get_game\n"
        "for g in GAME_IDS:\n"
        "    for m in getattr(get_game(g), 'modes', ('base',)):\n"
        "        t=time.perf_counter(); r=rtp_report(g, m)\n"
        "        print(json.dumps([g, m, r['rtp'], time.perf_counter()-t]))\n"
    )
    res = subprocess.run([str(PY), "-c", code], capture_output=True, text=True, env=env, check=True)
    for line in res.stdout.splitlines():
        g, m, rtp, secs = json.loads(line)
        print(f"  {g:<18} {m:<5} RTP {rtp * 100:.4f}%   {secs:.2f} s")
    if args.no_browser:
        return
    ensure_npm()
    ensure_chromium()
    b = build_site(SITE)
    print(f"Page loads in headless Chromium, site {b.version} served on loopback by build.py's server:", flush=True)
    measure = [PY, ROOT / "tests" / "browser" / "measure.py", "--site", SITE, "--runs", str(args.page_runs)]
    run([*measure, *(["--game", args.game] if args.game else []), "--profile", args.profile])


def cmd_clean(_args: argparse.Namespace) -> None:
    for p in (VENV, SITE, SITE.with_name("site.partial"), CACHE, TEST_SITE, ROOT / "dist", ROOT / "node_modules"):
        if p.exists():
            log(f"removing {p}")
            shutil.rmtree(p)


def main() -> None:
    ap = argparse.ArgumentParser(
        prog="build.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="command", required=True)
    # `build` and `serve` share one set of build options (one parser, one code path: `serve`
    # hands its parsed arguments to `cmd_build`), so a flag added to `build` is `serve`'s too.
    build_options = argparse.ArgumentParser(add_help=False)
    build_options.add_argument("--out", help="write the site here instead of site/ (serve: serve it from here)")
    build_options.add_argument("--no-snapshot", action="store_true", help="start Python without a memory snapshot")
    build_options.add_argument(
        "--fixture", action="store_true", help="add the tests' fixture game (game=pick_fixture; not in the lobby)"
    )
    sub.add_parser("build", parents=[build_options], help="write the static site to site/")
    sv = sub.add_parser(
        "serve", parents=[build_options], help="build, then serve the site on http://127.0.0.1:8000"
    )
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--base", default="/", help="serve the site under this path, e.g. /demos/slots/")
    sv.add_argument("--no-build", action="store_true", help="serve the built site as it is")
    sv.add_argument("--quiet", action="store_true", help="do not log requests")
    t = sub.add_parser("test", help="run every test")
    t.add_argument("pytest_args", nargs=argparse.REMAINDER, help="extra arguments for pytest")
    b = sub.add_parser("bench", help="engine throughput, exact RTP timings and page load times")
    b.add_argument("--rounds", type=int, default=100_000)
    b.add_argument("--page-runs", type=int, default=3, help="cold and warm page loads to measure (best and median)")
    b.add_argument("--game", help="the game page to load (default: the first registered game)")
    b.add_argument(
        "--profile", choices=("desktop", "phone", "both"), default="both",
        help="desktop: loopback at full speed; phone: CPU 4x slower, 10 Mbit/s, 40 ms, cache off",
    )
    b.add_argument("--no-browser", action="store_true", help="skip the page loads")
    sub.add_parser("clean", help="remove generated folders")
    args = ap.parse_args()
    start = time.monotonic()
    commands = {"build": cmd_build, "serve": cmd_serve, "test": cmd_test, "bench": cmd_bench, "clean": cmd_clean}
    commands[args.command](args)
    log(f"done in {time.monotonic() - start:.1f}s")


if __name__ == "__main__":
    main()
