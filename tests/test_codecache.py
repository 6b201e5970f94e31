"""slotui.codecache: dataclass methods compiled once (by the build) and taken back on the page.

A class defined with the cache comes out exactly as without it (the same code for every
generated method); what the cache does not hold, or holds for another Python, is compiled
as before. The build writes one file per module beside its bytecode, and the page reads it
through the module's own loader: here, a module imported from a zip, as the page does.
"""

from __future__ import annotations

import dataclasses
import importlib
import marshal
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slotui import codecache

SOURCE = '''
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Frozen:
    """Frozen, slotted, with defaults."""

    name: str
    cells: tuple[int, ...] = ()
    weight: int = 1


@dataclass(slots=True)
class Plain:
    """Mutable, a factory default and a class variable."""

    kind: ClassVar[str] = "plain"
    items: list[str] = field(default_factory=list)
    count: int = 0
'''

METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


@pytest.fixture
def fresh() -> Iterator[None]:
    """The test's modules forgotten and dataclasses' own exec back, whatever the test did."""
    before = dict(vars(dataclasses))
    hits = dict(codecache.STATS)
    yield
    for name in [n for n in sys.modules if n.startswith("cc_sample")]:
        del sys.modules[name]
    vars(dataclasses).pop("exec", None)
    if "exec" in before:
        vars(dataclasses)["exec"] = before["exec"]
    codecache.STATS.update(hits)


def zipped(tmp_path: Path, name: str, extra: dict[str, bytes] | None = None) -> Path:
    """A zip holding module ``name`` (SOURCE), and ``extra`` members, on sys.path."""
    path = tmp_path / f"{name}.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name}.py", SOURCE)
        for member, data in (extra or {}).items():
            zf.writestr(member, data)
    sys.path.insert(0, str(path))
    return path


def codes_of(module: Any) -> dict[str, bytes]:
    """Each generated method's code, as bytes (comparable across two definitions)."""
    out = {}
    for cls in (module.Frozen, module.Plain):
        for name in METHODS:
            fn = cls.__dict__.get(name)
            if fn is not None and hasattr(fn, "__code__"):
                out[f"{cls.__name__}.{name}"] = marshal.dumps(fn.__code__)
    return out


def test_a_class_from_the_cache_is_the_class_compiled_from_source(tmp_path: Path, fresh: None) -> None:
    # Recorded as the build does: every source dataclasses compiles, by module.
    try:
        zipped(tmp_path, "cc_sample_record")
        with codecache.recording() as kept:
            plain = importlib.import_module("cc_sample_record")
        assert "exec" not in vars(dataclasses)  # dataclasses' own exec is back afterwards
        sources = len(kept["cc_sample_record"])
        assert sources >= 2  # one per class (Python 3.13 on), one per method before
        # The page's way: the file beside the module in its zip, read through its loader.
        recorded = codecache.dumps(kept["cc_sample_record"])
        zipped(tmp_path, "cc_sample_cached", {"cc_sample_cached" + codecache.SUFFIX: recorded})
        codecache.STATS.update(hits=0, misses=0)
        codecache.install()
        cached = importlib.import_module("cc_sample_cached")
        assert codecache.STATS["hits"] == sources
        assert codecache.STATS["misses"] == 0
    finally:
        sys.path[:] = [p for p in sys.path if not p.startswith(str(tmp_path))]
    assert codes_of(cached) == codes_of(plain)
    assert len(codes_of(plain)) >= 8
    a = cached.Frozen("a", (1, 2))
    assert a == cached.Frozen("a", (1, 2))
    assert hash(a) == hash(cached.Frozen("a", (1, 2)))
    assert repr(a) == "Frozen(name='a', cells=(1, 2), weight=1)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "b"
    p = cached.Plain()
    p.items.append("x")
    assert cached.Plain().items == []
    assert p.count == 0
    assert cached.Plain.kind == "plain"
    assert cached.Frozen.__slots__ == ("name", "cells", "weight")


def test_what_the_cache_does_not_hold_is_compiled_as_before(tmp_path: Path, fresh: None) -> None:
    with codecache.recording() as kept:
        pass
    assert kept == {}
    other_python = marshal.dumps((b"\0\0\r\n", {"x": compile("1", "<string>", "exec")}))
    cases = {
        "cc_sample_none": {},  # no file beside the module
        "cc_sample_empty": {"cc_sample_empty" + codecache.SUFFIX: codecache.dumps({})},  # another source
        "cc_sample_other": {"cc_sample_other" + codecache.SUFFIX: other_python},  # another Python's bytecode
        "cc_sample_junk": {"cc_sample_junk" + codecache.SUFFIX: b"not marshal data"},
    }
    try:
        zipped(tmp_path, "cc_sample_plain")  # dataclasses as they are, for comparison
        plain = codes_of(importlib.import_module("cc_sample_plain"))
        codecache.install()
        for name, extra in cases.items():
            zipped(tmp_path, name, extra)
            codecache.STATS.update(hits=0, misses=0)
            module = importlib.import_module(name)
            assert codecache.STATS["hits"] == 0, name
            assert codecache.STATS["misses"] >= 2, name
            assert module.Frozen("a") == module.Frozen("a", (), 1)
            assert codes_of(module) == plain, name  # compiled as dataclasses compiles it
    finally:
        sys.path[:] = [p for p in sys.path if not p.startswith(str(tmp_path))]


def test_the_compiled_code_is_what_dataclasses_own_exec_makes() -> None:
    # The build compiles each source as dataclasses' exec would: nothing inherited from the
    # caller (this file has `from __future__ import annotations`, which would turn the
    # generated methods' annotations into strings).
    source = "def __create_fn__(__dataclass_type_x__):\n def f(x: __dataclass_type_x__) -> None: pass\n return (f,)"
    namespace: dict[str, Any] = {}
    exec(codecache.compile_like_dataclasses(source), {}, namespace)
    (f,) = namespace["__create_fn__"](int)
    assert f.__annotations__ == {"x": int, "return": None}
