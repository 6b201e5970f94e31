"""Loading game data files.

Game data (symbols, paytable, strips, paylines, weights, bets, operator defaults) lives in
JSON files in ``pyengine/games/data``. Everything is checked at load time; a problem raises
`GameDataError` naming the file and the field, e.g.
``<id>.json: field 'reels.base[2][14]': unknown symbol 'XX'``.
"""

from __future__ import annotations

import json
import pkgutil
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import GameDataError
from .model import Bet, BetConfig, Payline, Paytable, ReelSet, Symbol, SymbolKind

__all__ = ["Field", "LinesGameData", "load_lines_game", "read_data_file"]


class Field:
    """A value inside a data file together with its path, for precise error messages."""

    __slots__ = ("path", "source", "value")

    def __init__(self, source: str, path: str, value: Any) -> None:
        self.source = source
        self.path = path
        self.value = value

    def error(self, problem: str) -> GameDataError:
        return GameDataError(self.source, self.path or "<root>", problem)

    def _child(self, key: str | int) -> Field:
        path = f"{self.path}[{key}]" if isinstance(key, int) else f"{self.path}.{key}" if self.path else key
        return Field(self.source, path, None)

    def get(self, key: str) -> Field:
        obj = self.as_dict()
        child = self._child(key)
        if key not in obj:
            raise child.error("is missing")
        child.value = obj[key]
        return child

    def optional(self, key: str, default: Any) -> Field:
        obj = self.as_dict()
        child = self._child(key)
        child.value = obj.get(key, default)
        return child

    def as_dict(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.error(f"must be an object, not {type(self.value).__name__}")
        return self.value

    def items(self) -> list[tuple[str, Field]]:
        out = []
        for k, v in self.as_dict().items():
            child = self._child(k)
            child.value = v
            out.append((k, child))
        return out

    def as_list(self, *, min_len: int = 0) -> list[Field]:
        if not isinstance(self.value, list):
            raise self.error(f"must be a list, not {type(self.value).__name__}")
        if len(self.value) < min_len:
            raise self.error(f"must have at least {min_len} entries")
        out = []
        for i, v in enumerate(self.value):
            child = self._child(i)
            child.value = v
            out.append(child)
        return out

    def as_str(self) -> str:
        if not isinstance(self.value, str) or not self.value:
            raise self.error("must be a non-empty string")
        return self.value

    def as_int(self, *, minimum: int | None = None) -> int:
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self.error(f"must be an integer, not {self.value!r}")
        if minimum is not None and self.value < minimum:
            raise self.error(f"must be at least {minimum}, not {self.value}")
        return self.value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"must be true or false, not {self.value!r}")
        return self.value

    def as_fraction(self) -> Fraction:
        if not isinstance(self.value, str):
            raise self.error('must be a decimal string such as "0.9613"')
        try:
            return Fraction(self.value)
        except (ValueError, ZeroDivisionError):
            raise self.error(f"is not a number: {self.value!r}") from None


def read_data_file(name: str, package: str | None = None) -> Field:
    """Parse the data file ``name`` of the game package ``package`` and return its root
    `Field`. A game keeps its data in its own folder, ``pyengine/games/<id>/<id>.json``:
    without ``package``, ``<id>.json`` is read from ``pyengine.games.<id>``."""
    # Through the package's loader: a folder, or a zip on sys.path as the page mounts the engine
    # (importlib.resources would import a dozen modules more on the page's start).
    if package is None:
        package = f"pyengine.games.{name.removesuffix('.json')}"
    try:
        data = pkgutil.get_data(package, name)
    except (OSError, ImportError):
        data = None
    if data is None:
        raise GameDataError(name, "<file>", "does not exist")
    return parse_data(name, data.decode("utf-8"))


def parse_data(name: str, text: str) -> Field:
    try:
        return Field(name, "", json.loads(text))
    except json.JSONDecodeError as exc:
        raise GameDataError(name, "<file>", f"is not valid JSON ({exc})") from None


@dataclass(frozen=True, slots=True)
class LinesGameData:
    """The data every lines game shares; game-specific sections stay in ``root``."""

    id: str
    name: str
    version: str
    target_rtp: Fraction
    rows: int
    symbols: tuple[Symbol, ...]
    paytable: Paytable
    scatter_pays: dict[int, int]
    paylines: tuple[Payline, ...]
    reels: dict[str, ReelSet]
    bets: BetConfig
    root: Field

    def symbol(self, sid: str) -> Symbol:
        for s in self.symbols:
            if s.id == sid:
                return s
        raise KeyError(sid)

    @property
    def wild(self) -> str | None:
        """The first wild symbol listed, or None."""
        return next((s.id for s in self.symbols if s.is_wild), None)

    @property
    def wilds(self) -> tuple[str, ...]:
        """Every wild symbol, in the order listed."""
        return tuple(s.id for s in self.symbols if s.is_wild)

    @property
    def scatter(self) -> str | None:
        return next((s.id for s in self.symbols if s.is_scatter), None)

    def wild_pays_as(self) -> str | None:
        """The game's wild rule, the optional ``wild_pays_as`` field: the symbol whose pays a
        line of wilds alone gets (another symbol, or the wild itself when it has pays of its
        own); without it a line of wilds alone pays nothing unless the wild has own pays
        (see `pyengine.evaluators.LineEvaluator`)."""
        f = self.root.optional("wild_pays_as", None)
        if f.value is None:
            return None
        sid = f.as_str()
        if sid not in self.paytable.pays:
            raise f.error(f"{sid!r} has no pays")
        return sid

    def describe(self) -> dict[str, Any]:
        """The JSON-ready part of a game's description that every lines game shares."""
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "target_rtp": str(self.target_rtp),
            "rows": self.rows,
            "symbols": [{"id": s.id, "name": s.name, "kind": s.kind.value} for s in self.symbols],
            "paytable": {s: {str(k): v for k, v in p.items()} for s, p in self.paytable.pays.items()},
            "scatter_pays": {str(k): v for k, v in self.scatter_pays.items()},
            "paylines": [list(p.rows) for p in self.paylines],
            "reels": {name: [list(s) for s in rs.strips] for name, rs in self.reels.items()},
            "bets": {
                "lines": list(self.bets.lines),
                "bet_per_line": list(self.bets.levels),
                "coins": list(self.bets.coins),
                "default": self.bets.default.to_json(),
                "currency": self.bets.currency,
                "minor_per_major": self.bets.minor_per_major,
                "fit_to_balance": self.bets.fit_to_balance,
            },
        }


def load_lines_game(root: Field) -> LinesGameData:
    """Build and check the shared part of a lines game's data."""
    gid = root.get("id").as_str()
    rows = root.get("rows").as_int(minimum=1)
    symbols: list[Symbol] = []
    for f in root.get("symbols").as_list(min_len=2):
        sid = f.get("id").as_str()
        if any(s.id == sid for s in symbols):
            raise f.get("id").error(f"symbol {sid!r} is listed twice")
        kind_f = f.get("kind")
        try:
            kind = SymbolKind(kind_f.as_str())
        except ValueError:
            raise kind_f.error(f"must be one of {[k.value for k in SymbolKind]}") from None
        symbols.append(Symbol(sid, f.get("name").as_str(), kind))
    ids = {s.id for s in symbols}

    pays: dict[str, dict[int, int]] = {}
    for sid, f in root.get("paytable").items():
        if sid not in ids:
            raise f.error(f"unknown symbol {sid!r}")
        pays[sid] = {}
        for count_s, pf in f.items():
            if not count_s.isdigit() or not 1 <= int(count_s) <= 5:
                raise pf.error("counts must be written as \"1\" to \"5\"")
            pays[sid][int(count_s)] = pf.as_int(minimum=0)
    for s in symbols:
        if s.kind == SymbolKind.REGULAR and s.id not in pays:
            raise root.get("paytable").error(f"regular symbol {s.id!r} has no pays")

    scatter_pays: dict[int, int] = {}
    for count_s, pf in root.optional("scatter_pays", {}).items():
        if not count_s.isdigit():
            raise pf.error("counts must be written as digits")
        scatter_pays[int(count_s)] = pf.as_int(minimum=0)

    paylines: list[Payline] = []
    reel_count = root.get("reel_count").as_int(minimum=1)
    for i, f in enumerate(root.get("paylines").as_list(min_len=1)):
        rows_of = []
        for rf in f.as_list():
            r = rf.as_int(minimum=0)
            if r >= rows:
                raise rf.error(f"row {r} is outside 0..{rows - 1}")
            rows_of.append(r)
        if len(rows_of) != reel_count:
            raise f.error(f"must give one row for each of the {reel_count} reels")
        paylines.append(Payline(i + 1, tuple(rows_of)))

    reels: dict[str, ReelSet] = {}
    for name, f in root.get("reels").items():
        strips = []
        for strip_f in f.as_list(min_len=reel_count):
            strip = []
            for sf in strip_f.as_list(min_len=rows):
                sid = sf.as_str()
                if sid not in ids:
                    raise sf.error(f"unknown symbol {sid!r}")
                strip.append(sid)
            strips.append(tuple(strip))
        if len(strips) != reel_count:
            raise f.error(f"must have exactly {reel_count} strips")
        reels[name] = ReelSet(tuple(strips), rows)
    if "base" not in reels:
        raise root.get("reels").error("needs a 'base' reel set")

    bf = root.get("bets")
    lines = tuple(x.as_int(minimum=1) for x in bf.get("lines").as_list(min_len=1))
    if any(n > len(paylines) for n in lines):
        raise bf.get("lines").error(f"cannot offer more than the {len(paylines)} paylines")
    levels = tuple(x.as_int(minimum=1) for x in bf.get("bet_per_line").as_list(min_len=1))
    if list(levels) != sorted(set(levels)) or list(lines) != sorted(set(lines)):
        raise bf.error("lines and bet_per_line must be strictly increasing")
    coins = tuple(x.as_int(minimum=1) for x in bf.optional("coins", [1]).as_list(min_len=1))
    if list(coins) != sorted(set(coins)):
        raise bf.get("coins").error("coins per line must be strictly increasing")
    default = Bet(
        bf.get("default_lines").as_int(),
        bf.get("default_bet_per_line").as_int(),
        bf.optional("default_coins", coins[0]).as_int(),
    )
    if default.lines not in lines or default.bet_per_line not in levels or default.coins not in coins:
        raise bf.error("the default bet must be one of the offered bets")
    bets = BetConfig(
        lines,
        levels,
        default,
        bf.optional("currency", "FUN").as_str(),
        bf.optional("minor_per_major", 100).as_int(minimum=1),
        coins,
        fit_to_balance=bf.optional("fit_to_balance", default=False).as_bool(),
    )
    return LinesGameData(
        id=gid,
        name=root.get("name").as_str(),
        version=root.get("version").as_str(),
        target_rtp=root.get("target_rtp").as_fraction(),
        rows=rows,
        symbols=tuple(symbols),
        paytable=Paytable(pays),
        scatter_pays=scatter_pays,
        paylines=tuple(paylines),
        reels=reels,
        bets=bets,
        root=root,
    )
