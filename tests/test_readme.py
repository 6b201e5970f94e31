"""The README, as a new user reads and runs it.

Its Python session is a doctest; every command and flag its tables name is one that
``build.py`` and ``pyengine`` accept (their ``--help``); and its commands run as a user runs
them, each in a subprocess from the checkout: ``serve`` builds the site and serves it (one
game reaching ``data-state=ready`` in Chromium), ``serve --base /x/ --no-build`` serves what
was built under a sub-path, ``build --out DIR`` writes a site there, ``bench --no-browser``
prints its figures, and ``clean`` (on a copy of the checkout) removes what the build made.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pyengine.games import GAME_IDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# The interpreter a user types: python3 on the PATH (this one where there is none).
PYTHON = shutil.which("python3") or sys.executable
BUILD_MINUTES = 15  # a first build on a slow machine: the standard library trimmed, a snapshot made


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def _table_rows(heading: str) -> list[list[str]]:
    """The rows of the first table after ``heading`` (cells stripped, header rows left out)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(heading)
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if not set(cells[0]) <= set("-: ") and cells[0] not in ("Command", "Game"):
                rows.append(cells)
        elif rows:
            break
    return rows


def _flags(text: str) -> list[str]:
    return re.findall(r"--[a-z][a-z-]*", text)


def _help(*argv: str) -> str:
    proc = subprocess.run([*argv, "--help"], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert proc.returncode == 0, f"{' '.join(argv)} --help failed: {proc.stderr[-2000:]}"
    return proc.stdout


def test_every_build_command_and_flag_in_the_readme_is_accepted() -> None:
    rows = _table_rows("Other `build.py` commands:")
    named = {}
    for row in rows:
        found = re.match(r"`python3 build.py (\w+)([^`]*)`", row[0])
        assert found, f"a row of the build.py table names no command: {row[0]}"
        named[found.group(1)] = _flags(found.group(2))
    named.update({"serve": named.get("serve", []), "test": []})  # the two commands, above the table
    assert {"build", "serve", "bench", "clean"} <= named.keys()
    top = _help(PYTHON, "build.py")
    for command, flags in named.items():
        assert command in top, f"build.py does not list the README's command {command!r}"
        usage = _help(PYTHON, "build.py", command)
        for flag in flags:
            assert flag in usage, f"build.py {command} does not accept the README's {flag}"


def test_every_engine_command_and_flag_in_the_readme_is_accepted() -> None:
    rows = _table_rows("## The engine on the command line")
    assert rows
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    top = subprocess.run([PYTHON, "-m", "pyengine", "--help"], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True).stdout
    for row in rows:
        command = row[0].strip("`").split()[0]
        assert command in top, f"pyengine does not list the README's command {command!r}"
        usage = subprocess.run([PYTHON, "-m", "pyengine", command, "--help"], capture_output=True, text=True,
                               env=env, cwd=ROOT, check=True).stdout
        for flag in _flags(row[1]):
            assert flag in usage, f"pyengine {command} does not accept the README's {flag}"


# -- the commands, run as a user runs them --------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(tmp: Path, *args: str) -> Iterator[str]:
    """``python3 build.py serve --port <free> *args`` in a subprocess; yields the address it
    prints once it listens (after its build), and stops it at the end."""
    port = _free_port()
    out = tmp / f"serve-{port}.log"
    with out.open("w") as log:
        proc = subprocess.Popen([PYTHON, "build.py", "serve", "--port", str(port), "--quiet", *args],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + BUILD_MINUTES * 60
        url = None
        while url is None:
            said = out.read_text(errors="replace")
            found = re.search(r"Serving \S+ at (http://\S+)", said)
            if found:
                url = found.group(1)
                break
            assert proc.poll() is None, f"build.py serve {' '.join(args)} exited {proc.returncode}:\n{said[-3000:]}"
            assert time.monotonic() < deadline, f"build.py serve did not listen within {BUILD_MINUTES} min"
            time.sleep(0.5)
        yield url
        assert proc.poll() is None, "build.py serve stopped while serving"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
        proc.wait(timeout=60)


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=60) as res:
        return res.status, res.read()


@pytest.mark.browser
def test_serve_builds_and_serves_the_playable_site(tmp_path: Path, browser: Any) -> None:
    with _serving(tmp_path) as url:
        status, body = _get(url)
        assert status == 200
        assert b"<html" in body
        status, body = _get(url + "games.json")
        listed = [g["id"] for g in json.loads(body)["games"]]
        assert listed == list(GAME_IDS)
        for game in GAME_IDS:
            status, body = _get(f"{url}play.html?game={game}")
            assert status == 200
            assert b'id="reels"' in body
        context = browser.new_context(locale="en-US")
        try:
            page = context.new_page()
            page.goto(f"{url}play.html?game={GAME_IDS[0]}")
            page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=120_000)
        finally:
            context.close()
    assert (ROOT / "site" / "play.html").exists()


@pytest.mark.browser
def test_serve_no_build_serves_the_built_site_under_a_sub_path(tmp_path: Path) -> None:
    if not (ROOT / "site" / "play.html").exists():
        pytest.skip("no site/ built: test_serve_builds_and_serves_the_playable_site builds it")
    with _serving(tmp_path, "--base", "/x/", "--no-build") as url:
        assert url.endswith("/x/")
        status, body = _get(url + "play.html?game=" + GAME_IDS[0])
        assert status == 200
        assert b'id="reels"' in body
        with pytest.raises(urllib.error.HTTPError) as outside:
            _get(url.removesuffix("x/") + "play.html")
        assert outside.value.code == 404
        outside.value.close()  # its socket


@pytest.mark.browser
def test_build_out_writes_the_site_there(tmp_path: Path) -> None:
    out = tmp_path / "www"
    proc = subprocess.run([PYTHON, "build.py", "build", "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=BUILD_MINUTES * 60, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for name in ("index.html", "play.html", "games.json", "sw.js", "pyodide/stdlib.zip", "wheels/engine.zip"):
        assert (out / name).exists(), name
    assert "site " in proc.stdout  # the summary line


@pytest.mark.browser
def test_bench_without_the_browser_prints_every_game(tmp_path: Path) -> None:
    proc = subprocess.run([PYTHON, "build.py", "bench", "--no-browser", "--rounds", "2000"], cwd=ROOT,
                          capture_output=True, text=True, timeout=30 * 60, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for game in GAME_IDS:
        assert re.search(rf"{game}\s+[\d,]+ rounds/s", proc.stdout), f"no throughput of {game}:\n{proc.stdout}"
        assert re.search(rf"{game}\s+\w+\s+RTP \d+\.\d+%", proc.stdout), f"no exact RTP of {game}:\n{proc.stdout}"


def test_clean_removes_what_the_build_made(tmp_path: Path) -> None:
    copy = tmp_path / "checkout"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in tracked.splitlines():
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    made = [".venv", "site", "site.partial", "build/site-cache", "dist", "node_modules"]
    for name in made:
        (copy / name).mkdir(parents=True)
        (copy / name / "file").write_text("made by a build")
    proc = subprocess.run([PYTHON, "build.py", "clean"], cwd=copy, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [n for n in made if (copy / n).exists()] == []
    assert all((copy / n).exists() for n in tracked.splitlines() if (ROOT / n).is_file())


DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
PATH_IN_DOC = re.compile(r"`((?:pyengine|web|static|tests|docs)/[\w./-]+)(?:::\w+)?`")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_the_docs_name_exists(doc: Path) -> None:
    """A file a page names (`pyengine/...`, `web/...`, ...) is where the page says."""
    named = {m.group(1).rstrip(".") for m in PATH_IN_DOC.finditer(doc.read_text(encoding="utf-8"))}
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert missing == [], f"{doc.name} names files that do not exist: {missing}"
