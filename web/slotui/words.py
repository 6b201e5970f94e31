"""Every word the player sees, from one message catalogue per language, and numbers and
dates written as that language writes them.

The shared client's words are in ``slotui/lang/<lang>.json``; a game's screen package has
its own, ``slotui/games/<id>/lang/<lang>.json`` (its symbols' names under ``symbol.<ID>``,
its feature titles, its paytable and rules pages). Code asks by key: `tr` for the shared
catalogue, ``of(__package__)`` for a game's own (a `Lookup`), `either` for the game's word
where its catalogue has the key, else the shared one. A template's ``{name}``
fields are filled with `str.format_map`; `Lookup.html` escapes the template's own text and
puts in its fields as given (already HTML); `Lookup.count` picks ``<key>.one`` or
``<key>.other`` by the count. A key missing from the language's catalogue is an error
(`MissingWord`), never English by accident: a test checks every catalogue has every key.

`use` chooses the language (``en``, ``de``, ``es``; the page's ``lang=`` or the browser's
language). On the page the catalogues come with the page (boot.js fetches the chosen
language's files and `provide` takes them); in CPython they are read from the package's
folder. With `record` on (``debug=1`` pages and the tests), every string given out is kept
in `given`, so that a screen can be checked to draw nothing that is not from a catalogue.

Numbers follow the language as ``Intl.NumberFormat`` writes them for its locale (en-US,
de-DE, es-ES: grouping, the decimal sign, the percent sign's space); a browser test checks
these against the browser's own ``Intl`` output.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape, unescape
from pathlib import Path
from string import Formatter
from typing import Any

__all__ = [
    "LANGS",
    "LOCALES",
    "Lookup",
    "MissingWord",
    "current",
    "date_time",
    "decimal",
    "either",
    "fields",
    "from_catalogue",
    "given",
    "number",
    "of",
    "pct",
    "provide",
    "record",
    "tr",
    "use",
]

LANGS = ("en", "de", "es")
"""The languages the site speaks; the first is the default."""
LOCALES = {"en": "en-US", "de": "de-DE", "es": "es-ES"}
"""The ``Intl`` locale of each language (numbers, money, dates)."""
SHARED = "slotui"
"""The package whose catalogue `tr` reads."""

_NUMBERS = {
    # (group separator, decimal sign, the fewest digits before grouping starts, the percent)
    "en": (",", ".", 4, "{}%"),
    "de": (".", ",", 4, "{}\u00a0%"),
    "es": (".", ",", 5, "{}\u00a0%"),  # es-ES groups from 10 000 on (minimumGroupingDigits 2)
}
_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}


class MissingWord(KeyError):
    """A key that is not in the language's catalogue (or a catalogue that is not there)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(slots=True)
class _State:
    lang: str = LANGS[0]
    catalogues: dict[tuple[str, str], dict[str, str]] | None = None
    given: set[str] | None = None


_state = _State(catalogues={})


def use(lang: str) -> str:
    """Speak ``lang`` from now on (an unknown one is an error); the language before."""
    if lang not in LANGS:
        raise ValueError(f"the language {lang!r} is not one of {', '.join(LANGS)}")
    before, _state.lang = _state.lang, lang
    return before


def current() -> str:
    """The language spoken now."""
    return _state.lang


def provide(package: str, lang: str, catalogue: Mapping[str, Any]) -> None:
    """``package``'s catalogue in ``lang`` as the page fetched it (every value a string)."""
    bad = [k for k, v in catalogue.items() if not isinstance(v, str)]
    if bad:
        raise ValueError(f"{package} {lang}: the words of {', '.join(sorted(bad)[:5])} are not text")
    assert _state.catalogues is not None
    _state.catalogues[(package, lang)] = dict(catalogue)


def folder(package: str) -> Path:
    """Where ``package``'s catalogues are on disk (``<package folder>/lang``)."""
    module = sys.modules.get(package)
    if module is None:
        __import__(package)
        module = sys.modules[package]
    where = getattr(module, "__path__", None)
    base = Path(next(iter(where))) if where else Path(str(module.__file__)).parent
    return base / "lang"


def catalogue(package: str, lang: str | None = None) -> dict[str, str]:
    """``package``'s catalogue in ``lang`` (default: the language spoken now)."""
    lang = lang or _state.lang
    assert _state.catalogues is not None
    got = _state.catalogues.get((package, lang))
    if got is None:
        path = folder(package) / f"{lang}.json"
        try:
            got = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise MissingWord(f"{package} has no readable {lang} catalogue ({path}): {exc}") from None
        provide(package, lang, got)
        got = _state.catalogues[(package, lang)]
    return got


def record(*, on: bool = True) -> None:
    """Keep (or stop keeping) every string given out, in `given`."""
    _state.given = set() if on else None


def given() -> set[str]:
    """The strings given out since `record` (empty when not recording)."""
    return set(_state.given or ())


drawn: set[str] | None = None
"""With ``debug=1``: every text the page's canvas drew (`jscanvas.CheckedCanvas`)."""
allowed: set[str] = set()
"""Texts shown that are no catalogue's by design: the games' names (brands, the same in
every language), currency codes, and a symbol's id, which `render.draw_symbol` writes in
place of a picture the game does not have (a game without art, the tests' fixture)."""

_WORD = re.compile(r"[^\W\d_]{2,}")


def from_catalogue(text: str, given: set[str] | None = None) -> bool:
    """Whether a text a screen shows came from a catalogue: it has no word of two letters or
    more (a number, an amount, a card's rank), or it is a string given out (`given`), one of
    `allowed`, or two or more words in a row of a given string (a line of it, wrapped)."""
    text = " ".join(text.split())
    if not _WORD.search(text) or text in allowed:
        return True
    given = _state.given if given is None else given
    if not given:
        return False
    if text in given:
        return True
    parts = text.split(" ")
    if len(parts) >= 2 and any(f" {text} " in f" {' '.join(g.split())} " for g in given):
        return True  # a line of a given string, wrapped
    # A text made of given strings side by side (a paragraph of several sentences, a line
    # of parts joined by " · "): nothing of two letters or more is left once they are out.
    rest = text
    for g in sorted({" ".join(g.split()) for g in given | allowed}, key=len, reverse=True):
        if len(g) > 1 and g in rest:
            rest = rest.replace(g, " ")
    return not _WORD.search(rest)


def fields(template: str) -> set[str]:
    """The ``{name}`` fields of a template."""
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def _keep(s: str) -> str:
    if _state.given is not None:
        _state.given.add(s)
    return s


class Lookup:
    """The words of one package's catalogue, in the language spoken at each call."""

    __slots__ = ("package",)

    def __init__(self, package: str) -> None:
        self.package = package

    def template(self, key: str) -> str:
        words = catalogue(self.package)
        try:
            return words[key]
        except KeyError:
            raise MissingWord(f"the {current()} catalogue of {self.package} has no {key!r}") from None

    def has(self, key: str) -> bool:
        return key in catalogue(self.package)

    def __call__(self, key: str, /, **args: Any) -> str:
        """The words of ``key``, its fields filled with ``args``."""
        template = self.template(key)
        return _keep(template.format_map(args) if args else template)

    def count(self, key: str, n: int, /, **args: Any) -> str:
        """``<key>.one`` for one, ``<key>.other`` for any other count (``{n}`` the count as the
        language writes it)."""
        return self(f"{key}.one" if n == 1 else f"{key}.other", n=number(n), **args)

    def html(self, key: str, /, **args: Any) -> str:
        """The words of ``key`` as HTML: its text escaped, its fields as given (HTML)."""
        template = self.template(key)
        if _state.given is not None:  # the text the page shows: the fields' tags aside
            _keep(template.format_map({k: _plain(v) for k, v in args.items()}) if args else template)
        return escape(template, quote=False).format_map(args) if args else escape(template, quote=False)


def _plain(html: object) -> str:
    """The text of an HTML fragment (its tags dropped, entities read)."""
    return unescape(re.sub(r"<[^>]*>", "", str(html)))


tr = Lookup(SHARED)
"""The shared client's words (``tr("button.spin")``)."""


def of(package: str) -> Lookup:
    """A game's own words: ``of(__package__)`` in its screen package."""
    return Lookup(package)


def either(game_words: Lookup | None, key: str, otherwise: str | None = None, /, **args: Any) -> str:
    """The words of ``key``, its fields filled with ``args``: the game's own (``game_words``,
    its `of`; None: it has none) where its catalogue has the key, else the shared client's
    (`tr`). A key of neither is a `MissingWord`; with ``otherwise``, it is that text instead
    (as it is: no fields filled, not kept in `given`)."""
    if game_words is not None and game_words.has(key):
        return str(game_words(key, **args))
    if otherwise is not None and not tr.has(key):
        return otherwise
    return tr(key, **args)


# -- numbers and dates, as the language writes them ------------------------------------------------
def _group(digits: str, sep: str, least: int) -> str:
    if len(digits) < least:
        return digits
    head = len(digits) % 3 or 3
    return digits[:head] + "".join(sep + digits[i : i + 3] for i in range(head, len(digits), 3))


def number(value: float | int, digits: int = 0, *, trim: bool = False) -> str:
    """``value`` with ``digits`` decimals (``trim``: trailing zeros dropped), grouped as the
    language groups thousands: 12345.5 -> "12,345.5" (en), "12.345,5" (de, es)."""
    sep, point, least, _ = _NUMBERS[_state.lang]
    text = f"{abs(value):.{digits}f}" if digits else str(round(abs(value)))
    whole, _, frac = text.partition(".")
    if trim:
        frac = frac.rstrip("0")
    sign = "-" if value < 0 and (int(whole) or frac.strip("0")) else ""
    return sign + _group(whole, sep, least) + (point + frac if frac else "")


def decimal(minor: int, per_major: int) -> str:
    """Minor units as a decimal amount in the language's signs: 500000 -> "5,000.00" (en),
    "5.000,00" (de, es)."""
    digits = len(str(per_major - 1)) if per_major > 1 else 0
    whole, frac = divmod(abs(minor), per_major)
    sep, point, least, _ = _NUMBERS[_state.lang]
    sign = "-" if minor < 0 else ""
    return sign + _group(str(whole), sep, least) + (f"{point}{frac:0{digits}d}" if digits else "")


def pct(value: float, digits: int = 2) -> str:
    """A share as a percentage: 0.961 -> "96.10%" (en), "96,10 %" (de, es)."""
    return _NUMBERS[_state.lang][3].format(number(value * 100, digits))


def date_time(ms: float) -> str:
    """A moment (ms since the epoch) in UTC as the language writes it with ``Intl``'s
    ``dateStyle: "medium", timeStyle: "medium"`` in Chromium: "Dec 7, 2026, 3:12:00 PM" (en; Node.js
    puts a narrow space before PM),
    "07.12.2026, 15:12:00" (de), "7 dic 2026, 15:12:00" (es), then " UTC"."""
    return _keep(_date_time(ms))


def _date_time(ms: float) -> str:
    tm = time.gmtime(ms / 1000)
    lang = _state.lang
    if lang == "de":
        return f"{tm.tm_mday:02d}.{tm.tm_mon:02d}.{tm.tm_year}, {tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d} UTC"
    if lang == "es":
        month = ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic")[tm.tm_mon - 1]
        return f"{tm.tm_mday} {month} {tm.tm_year}, {tm.tm_hour}:{tm.tm_min:02d}:{tm.tm_sec:02d} UTC"
    hour = tm.tm_hour % 12 or 12
    half = "AM" if tm.tm_hour < 12 else "PM"
    month = _MONTHS["en"][tm.tm_mon - 1]
    return f"{month} {tm.tm_mday}, {tm.tm_year}, {hour}:{tm.tm_min:02d}:{tm.tm_sec:02d} {half} UTC"
