"""The house's shape: a game is its own folders plus one registration, the modules import
each other one way, no shared module imports a game's, and no module is a big room.

Everything here is asked of the registered games (their plug-ins) and read from the
sources with `ast`: nothing is imported to find the imports.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyengine.games import GAME_IDS, plugin

ROOT = Path(__file__).resolve().parent.parent
TREES = {"pyengine": ROOT / "pyengine", "slotui": ROOT / "web" / "slotui"}
MAX_LINES = 800
"""No module in pyengine/ or web/ is longer (lines)."""


def game_folders(game_id: str) -> tuple[str, ...]:
    """Where a shipped game's files live (relative to the root): its engine package, its
    screen package, its art, its tests and goldens, its rules page and the rules page's
    folder (its par sheet drawn by ``report``)."""
    return (
        f"pyengine/games/{game_id}/",
        f"web/slotui/games/{game_id}/",
        f"static/games/{game_id}/",
        f"tests/games/{game_id}/",
        f"docs/games/{game_id}.md",
        f"docs/games/{game_id}/",
    )


def module_file(module: str) -> Path:
    """The source of ``module`` (a package's ``__init__.py``) in this checkout."""
    top, _, rest = module.partition(".")
    base = TREES[top].joinpath(*rest.split(".")) if rest else TREES[top]
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def modules() -> Iterator[tuple[str, Path]]:
    """Every module of the engine and the client: (dotted name, source)."""
    for top, folder in TREES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [top, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports (relative imports resolved, those
    under ``TYPE_CHECKING`` included; ``from package import module`` names the module)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names = [base, *(f"{base}.{a.name}" for a in node.names)]
        else:
            continue
        for name in names:
            while name and name not in known:  # `import pyengine.games.x.y`: the deepest module known
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the engine and client modules it imports."""
    found = dict(modules())
    known = set(found)
    return {m: imports(m, p, known) for m, p in found.items()}


def game_of(module: str) -> str | None:
    """The game whose package holds ``module`` (``pyengine.games.<id>...`` or
    ``slotui.games.<id>...``), None for a shared module."""
    for gid in GAME_IDS:
        for pkg in (plugin(gid).load.__module__, plugin(gid).screen):
            if module == pkg or module.startswith(pkg + "."):
                return gid
    return None


def test_a_game_is_its_own_folders() -> None:
    """Each shipped game's engine, math report, data, screen, art and rules page are in its
    folders, and no file of the project outside them carries the game's id in its path."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    for gid in GAME_IDS:
        p = plugin(gid)
        engine, screen, art, tests, docs, *_ = game_folders(gid)
        assert module_file(p.load.__module__).relative_to(ROOT).as_posix().startswith(engine), p.load.__module__
        report = p.report.partition(":")[0]
        # Its own report module, or a ready-made one of the shared kit (a plain line game).
        assert game_of(report) in (gid, None), f"{gid}: its report {report} is another game's"
        assert report.startswith((p.load.__module__ + ".", "pyengine.math.")), f"{gid}: report {report}"
        assert module_file(report).is_file(), report
        assert module_file(p.screen).relative_to(ROOT).as_posix().startswith(screen), p.screen
        assert (ROOT / engine / f"{gid}.json").is_file(), f"{gid}: no data file in {engine}"
        assert (ROOT / art / "logo.svg").is_file(), f"{gid}: no art in {art}"
        assert (ROOT / tests / "__init__.py").is_file(), f"{gid}: no test kit in {tests}"
        assert (ROOT / docs).is_file(), f"{gid}: no rules page {docs}"
        strays = [f for f in tracked if gid in f and not f.startswith(game_folders(gid))]
        assert not strays, f"{gid}'s files outside its folders: {strays}"


def test_the_check_finds_a_stray_file() -> None:
    """The folder rule can fail: a file of a game beside the shared modules is a stray."""
    gid = GAME_IDS[0]
    stray = f"web/slotui/{gid}.py"
    assert not stray.startswith(game_folders(gid))


def test_modules_import_each_other_one_way() -> None:
    """No import cycle in the engine or the client, TYPE_CHECKING imports included."""
    graph = import_graph()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, "import cycle: " + " -> ".join((*path[path.index(name):], name))
        if name in done:
            return
        for d in sorted(graph[name]):
            visit(d, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_no_shared_module_imports_a_game() -> None:
    """A game's modules may import the shared ones and their own; a shared module imports
    no game's module (the registry names each game's module as a string, not an import),
    and no game imports another's."""
    bad = []
    for module, deps in import_graph().items():
        mine = game_of(module)
        for d in deps:
            theirs = game_of(d)
            if theirs is not None and theirs != mine:
                bad.append(f"{module} imports {d}")
    assert not bad, bad


def shared_files() -> list[Path]:
    """The shared modules of the engine and the client, the shared tests and the build: every
    Python source that is in no game's folders (the registry, which names each game once,
    is the one exception)."""
    found = []
    for path in sorted([*TREES["pyengine"].rglob("*.py"), *TREES["slotui"].rglob("*.py"),
                        *(ROOT / "tests").rglob("*.py"), ROOT / "build.py"]):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "pyengine/games/__init__.py" or any(rel.startswith(f) for g in GAME_IDS for f in game_folders(g)):
            continue
        found.append(path)
    return found


def test_no_shared_file_names_a_game() -> None:
    """No shared module and no shared test names a shipped game, by its id or by its name:
    they ask the registry and each game's plug-in and test kit (`tests.games`)."""
    from pyengine.games import get_game

    names = {g: (g, get_game(g).name) for g in GAME_IDS}
    files = shared_files()
    assert any(p.name == "test_robustness.py" for p in files), "the walk finds the shared tests"
    assert len(files) > 50, "the walk finds the shared files"
    named = sorted(
        f"{p.relative_to(ROOT).as_posix()}: {word}"
        for p in files
        for text in [p.read_text(encoding="utf-8").lower()]
        for words in names.values()
        for word in words
        if word.lower() in text
    )
    assert not named, named


def test_the_import_reader_sees_relative_and_package_imports(tmp_path: Path) -> None:
    """`imports` resolves ``from .. import x`` and ``from ...x import y`` the way Python does."""
    src = tmp_path / "mod.py"
    src.write_text("from ... import pages\nfrom ...beats import Beat\nimport pyengine.games.base\n")
    known = {"slotui.pages", "slotui.beats", "slotui.games.g", "pyengine.games.base", "pyengine.games"}
    assert imports("slotui.games.g.mod", src, known) == {"slotui.pages", "slotui.beats", "pyengine.games.base"}


@pytest.mark.parametrize("top", sorted(TREES))
def test_no_module_is_a_big_room(top: str) -> None:
    """Every module of the engine and the client has at most `MAX_LINES` lines."""
    long = {
        p.relative_to(ROOT).as_posix(): n
        for _, p in modules()
        if _.split(".")[0] == top and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_registered_screen_and_report_imports() -> None:
    """The names a plug-in gives are real: its screen module and its report function import."""
    for gid in GAME_IDS:
        importlib.import_module(plugin(gid).screen)
        assert callable(plugin(gid).report_function())
