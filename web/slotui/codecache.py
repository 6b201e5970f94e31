"""Compiled methods for dataclasses, made once by the build.

`dataclasses` writes the methods of each class (``__init__``, ``__repr__``, ``__eq__``, ...)
as Python source and compiles it while the class is defined. On the page's start that is 61
classes and 76 KB of source: about a third of the time Python spends importing the engine
and the client (50-58 ms measured in desktop Chromium; the phone profile's CPU is 4x slower).

The build runs the page's own Python (Pyodide under Node.js) over every module with
`recording` on, and puts what each module's classes compiled beside that module's bytecode
in the zip the page imports it from (``pyengine/events.dataclasses`` next to
``pyengine/events.pyc``). On the page, `install` makes `dataclasses` take the compiled code
for a source it has been given before (read through the module's own loader, the first time
one of its classes is defined) instead of compiling it again.

The code is the very code that source compiles to (the same Python, the same flags, see
`compile_like_dataclasses`), so a class comes out the same either way; a source the build did
not see, a module without the file, or a file from another Python version is compiled as
before. `STATS` counts both, for the browser tests.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib.util
import marshal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["STATS", "SUFFIX", "compile_like_dataclasses", "dumps", "install", "recording"]

SUFFIX = ".dataclasses"
"""The file beside a module (``events.py`` -> ``events.dataclasses``) that holds its classes' code."""

STATS = {"hits": 0, "misses": 0}
"""Sources taken compiled from a file (hits) and compiled here (misses) since `install`."""

_Codes = dict[str, Any]  # source -> code object


def compile_like_dataclasses(source: str) -> Any:
    """What ``exec(source, ...)`` inside `dataclasses` compiles ``source`` to: no future
    flags inherited (the module has none), the same file name."""
    return compile(source, "<string>", "exec", dont_inherit=True)


def dumps(codes: _Codes) -> bytes:
    """One module's file: its classes' sources and their code, for this Python's bytecode."""
    return marshal.dumps((importlib.util.MAGIC_NUMBER, codes))


def _loads(data: bytes) -> _Codes:
    try:
        magic, codes = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    return codes if magic == importlib.util.MAGIC_NUMBER and isinstance(codes, dict) else {}


def _module(globals_: Any) -> str:
    return str(globals_.get("__name__", "")) if isinstance(globals_, dict) else ""


@contextmanager
def recording() -> Iterator[dict[str, _Codes]]:
    """While it lasts, every source `dataclasses` runs is compiled here and kept, by the
    module whose class it is: ``{module: {source: code}}`` (the build's run)."""
    kept: dict[str, _Codes] = {}

    def exec_(source: Any, globals_: Any = None, locals_: Any = None, /) -> None:
        if isinstance(source, str):
            code = compile_like_dataclasses(source)
            kept.setdefault(_module(globals_), {})[source] = code
            source = code
        builtins.exec(source, globals_, locals_)

    with _exec_as(exec_):
        yield kept


def install() -> None:
    """From now on, `dataclasses` takes a class's methods from its module's file when the
    file has them (`SUFFIX`), and compiles them itself otherwise."""
    loaded: dict[str, _Codes] = {}

    def exec_(source: Any, globals_: Any = None, locals_: Any = None, /) -> None:
        if isinstance(source, str):
            name = _module(globals_)
            if name not in loaded:
                loaded[name] = _read(globals_)
            code = loaded[name].get(source)
            STATS["hits" if code is not None else "misses"] += 1
            # Compiled here, not by exec: exec would take this module's future flags.
            source = code if code is not None else compile_like_dataclasses(source)
        builtins.exec(source, globals_, locals_)

    vars(dataclasses)["exec"] = exec_


def _read(globals_: Any) -> _Codes:
    """The file beside the module whose globals these are, through its loader ({} if none)."""
    if not isinstance(globals_, dict):
        return {}
    spec = globals_.get("__spec__")
    loader = getattr(spec, "loader", None)
    origin = getattr(spec, "origin", None)
    get_data = getattr(loader, "get_data", None)
    if not (isinstance(origin, str) and origin.endswith((".py", ".pyc")) and callable(get_data)):
        return {}
    try:
        data = get_data(origin.rpartition(".")[0] + SUFFIX)  # beside x.py or x.pyc (zipimport)
    except OSError:
        return {}
    return _loads(data) if isinstance(data, bytes) else {}


@contextmanager
def _exec_as(exec_: Any) -> Iterator[None]:
    had = "exec" in vars(dataclasses)
    before = vars(dataclasses).get("exec")
    vars(dataclasses)["exec"] = exec_
    try:
        yield
    finally:
        if had:
            vars(dataclasses)["exec"] = before
        else:
            del vars(dataclasses)["exec"]
