"""A new game added exactly as the README's "How to add a game" says, in a copy of the
checkout: its own folders and the registry line, nothing else. The engine lists it, plays
it and proves its RTP; the structure test passes with it (and fails when one of its files
strays beside the shared modules); the build takes it into the lobby with its screen.

The game is a plain three-reel fruit slot (`tests.test_plain_game.FRUIT`): the lines kit's
ready-made game and report, so its folders hold data, registration, screen and art only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pyengine.math.lines import report as plain_report
from tests.test_plain_game import FRUIT, fruit

ROOT = Path(__file__).resolve().parent.parent
GID = FRUIT["id"]
SHARED_LINE = f'    "{GID}": "pyengine.games.{GID}",\n'

ENGINE = f'''"""{FRUIT["name"]}: three reels, five lines, a wild and a scattered star (the lines
kit's plain game: its numbers are in ``{GID}.json`` beside this module)."""

from __future__ import annotations

from ..base import Plugin
from ..plain import PLAIN_REPORT, PlainLinesGame


def load() -> PlainLinesGame:
    """Load the game from its data file."""
    return PlainLinesGame.from_file("{GID}.json", __name__)


PLUGIN = Plugin(load=load, report=PLAIN_REPORT, screen="slotui.games.{GID}")
'''

SCREEN = f'''"""{FRUIT["name"]}'s screen: the shared beats and pages, in its own words."""

from __future__ import annotations

from ...stage import GameScreen, register_screen

SCREEN = GameScreen(feature="the star scatter")
register_screen("{GID}", SCREEN)
'''

KIT = f'''"""{FRUIT["name"]}'s test kit."""

from __future__ import annotations

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import Case

EVENT_TYPES = frozenset((*SHARED_EVENT_TYPES, "scatter_win"))
GOLDEN: list[Case] = []
'''


def tracked() -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout's tracked sources with the game added as the README says."""
    top = tmp_path_factory.mktemp("checkout")
    for rel in tracked():
        if rel.startswith(("pyengine/", "web/", "static/", "tests/", "docs/")) or rel in ("build.py", "pyproject.toml"):
            src = ROOT / rel
            if src.is_file():
                (top / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, top / rel)
    # 1. the data file, 2. the game module (4. its math: the lines kit's ready-made report)
    engine = top / "pyengine" / "games" / GID
    engine.mkdir()
    (engine / f"{GID}.json").write_text(json.dumps(FRUIT, indent=1) + "\n")
    (engine / "__init__.py").write_text(ENGINE)
    # 3. the registry line: the one shared line
    registry = top / "pyengine" / "games" / "__init__.py"
    text = registry.read_text()
    entries = re.compile(r"(_REGISTRY: dict\[str, str\] = \{\n(?:    .*\n)*?)(\})")
    registry.write_text(entries.sub(rf"\g<1>{SHARED_LINE}\2", text, count=1))
    # 5. the test kit, 6. the rules page, 7. the screen, 8. the art
    kit = top / "tests" / "games" / GID
    kit.mkdir()
    (kit / "__init__.py").write_text(KIT)
    (top / "docs" / "games" / f"{GID}.md").write_text(f"# {FRUIT['name']}\n\nThree reels, five lines.\n")
    screen = top / "web" / "slotui" / "games" / GID
    screen.mkdir()
    (screen / "__init__.py").write_text(SCREEN)
    art = top / "static" / "games" / GID
    donor = next(p for p in sorted((ROOT / "static" / "games").iterdir()) if (p / "logo.svg").is_file())
    (art / "symbols").mkdir(parents=True)
    for name in ("tile.svg", "logo.svg", "background.svg", "frame.svg"):
        shutil.copyfile(donor / name, art / name)
    some = sorted((donor / "symbols").glob("*.svg"))[0]
    for s in FRUIT["symbols"]:
        shutil.copyfile(some, art / "symbols" / f"{s['id']}.svg")
    for cmd in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *cmd], cwd=top, check=True, capture_output=True)
    return top


def run(top: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=f"{top}{os.pathsep}{top / 'web'}")
    return subprocess.run([sys.executable, *args], cwd=top, env=env, capture_output=True, text=True, check=False)


def test_the_new_game_changes_one_shared_line(checkout: Path) -> None:
    """Outside the game's folders, the copy differs from the checkout by the registry line."""
    changed = [
        rel for rel in tracked()
        if (checkout / rel).is_file() and (checkout / rel).read_bytes() != (ROOT / rel).read_bytes()
    ]
    assert changed == ["pyengine/games/__init__.py"]
    old = (ROOT / changed[0]).read_text().splitlines(keepends=True)
    new = (checkout / changed[0]).read_text().splitlines(keepends=True)
    assert [line for line in new if line not in old] == [SHARED_LINE]
    assert len(new) == len(old) + 1


def test_the_engine_lists_plays_and_proves_it(checkout: Path) -> None:
    games = run(checkout, "-m", "pyengine", "games")
    assert GID in games.stdout.split(), games.stderr
    played = run(checkout, "-m", "pyengine", "play", GID, "--seed", "1", "--rounds", "3", "--jsonl")
    assert played.returncode == 0, played.stderr
    rounds = [json.loads(line) for line in played.stdout.splitlines()]
    assert len(rounds) == 3
    rtp = run(checkout, "-m", "pyengine", "rtp", GID, "--json")
    assert rtp.returncode == 0, rtp.stderr
    report = json.loads(rtp.stdout)
    assert report["game"] == GID
    assert report["rtp_exact"] == plain_report(fruit(), "base", {}, 5)["rtp_exact"]


def test_the_structure_test_passes_with_it_and_fails_on_a_stray(checkout: Path) -> None:
    test = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_structure.py", "-k", "folders or shared_module"]
    ok = run(checkout, *test)
    assert ok.returncode == 0, ok.stdout[-3000:]
    stray = checkout / "web" / "slotui" / f"{GID}_extra.py"
    stray.write_text('"""A module of the game beside the shared ones."""\n')
    subprocess.run(["git", "add", "-A"], cwd=checkout, check=True, capture_output=True)
    try:
        bad = run(checkout, *test)
    finally:
        stray.unlink()
        subprocess.run(["git", "add", "-A"], cwd=checkout, check=True, capture_output=True)
    assert bad.returncode == 1
    assert f"web/slotui/{GID}_extra.py" in bad.stdout


def test_the_build_takes_it_into_the_lobby_with_its_screen(checkout: Path) -> None:
    code = "import build, json, sys; print(json.dumps(build.playable_games(build.Path(sys.executable))))"
    found = run(checkout, "-c", code)
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout.splitlines()[-1])[GID] == f"slotui.games.{GID}"
