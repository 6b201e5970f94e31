"""Every word the player sees comes from a message catalogue, in each of the site's languages.

The catalogues: the shared client's (``web/slotui/lang``) and each registered game's screen
package's (its ``lang`` folder), one file per language. Checked here, for every game the
registry lists (no game is named):

- each catalogue has a file per language with exactly the English file's keys, each
  translation with the same ``{fields}``, no value empty;
- every key the code asks for by name (``tr("…")``, ``WORDS("…")``, ``.word("…")``,
  ``data-i18n`` in play.html) is in the catalogue it reads from, and every key family it
  asks for by a prefix (``tr(f"tier.{…}")``) has keys;
- every golden round of every game, played on screen in each language, draws and says only
  catalogue words (`slotui.words.from_catalogue`), and so do its paytable, rules, history
  and Feature Buy pages, texts and the attributes a reader hears;
- numbers, percentages and dates are written as ``Intl`` writes them for the language.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from string import Formatter

import pytest

from pyengine.games import GAME_IDS, plugin
from pyengine.link import link_of_record, link_session, replay_round
from slotui import pages, replaymode, words
from slotui.beats import screen_for
from slotui.controller import Controller
from slotui.render import draw
from tests.client_support import FRAME_MS, idle, make_rig, wall_clock
from tests.golden_cases import golden_files

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
SHARED = WEB / "slotui" / "lang"


def screen_package(game: str) -> str:
    screen = plugin(game).screen
    module = __import__(screen, fromlist=["_"])
    return str(module.__package__ or screen)


def catalogue_folders() -> dict[str, Path]:
    """Every catalogue folder: the shared client's and each registered game's."""
    found = {words.SHARED: SHARED}
    for game in GAME_IDS:
        found[screen_package(game)] = words.folder(screen_package(game))
    return found


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


@pytest.fixture
def speak() -> Iterator[None]:
    """Restore English and stop recording after the test."""
    yield
    words.use("en")
    words.record(on=False)


# -- the catalogues ------------------------------------------------------------------------------------
@pytest.mark.parametrize("package", sorted(catalogue_folders()))
def test_every_catalogue_has_every_key_in_every_language(package: str) -> None:
    folder = catalogue_folders()[package]
    english = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    assert english, package
    for lang in words.LANGS:
        path = folder / f"{lang}.json"
        assert path.is_file(), f"{package} has no {lang} catalogue ({path})"
        other = json.loads(path.read_text(encoding="utf-8"))
        assert sorted(set(english) - set(other)) == [], f"{path}: missing keys"
        assert sorted(set(other) - set(english)) == [], f"{path}: keys English does not have"
        for key, text in other.items():
            assert isinstance(text, str), f"{path}: {key} is not text"
            assert text.strip(), f"{path}: {key} is empty"
            assert fields(text) == fields(english[key]), f"{path}: {key} has fields {fields(text)}"


def _calls(path: Path) -> Iterator[tuple[str, str, bool]]:
    """(callee, key, whole) of each call that asks for words by key in ``path``: ``whole``
    for a plain string key, else the literal start of an f-string key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr in ("count", "html"):
            name = f"{f.value.id}.{f.attr}"
        if name not in ("tr", "tr.count", "tr.html", "WORDS", "WORDS.count", "WORDS.html", "word", "say"):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield name, arg.value, True
        elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
            yield name, str(arg.values[0].value), False


def _forms(key: str, callee: str) -> list[str]:
    return [f"{key}.one", f"{key}.other"] if callee.endswith(".count") else [key]


def test_every_key_the_code_asks_for_is_in_its_catalogue() -> None:
    shared = json.loads((SHARED / "en.json").read_text(encoding="utf-8"))
    own: dict[Path, dict[str, str]] = {}
    for game in GAME_IDS:
        folder = words.folder(screen_package(game))
        own[folder.parent] = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    missing = []
    for path in sorted((WEB / "slotui").rglob("*.py")):
        game_words = next((w for folder, w in own.items() if folder in path.parents or folder == path.parent), {})
        for callee, key, whole in _calls(path):
            # tr: the shared catalogue; WORDS: the game's; word/say: the game's, else the shared.
            pool = shared if callee.startswith("tr") else game_words if callee.startswith("WORDS") else (
                shared | game_words
            )
            for k in _forms(key, callee):
                ok = k in pool if whole else any(x.startswith(k) for x in pool)
                if not ok:
                    missing.append(f"{path.relative_to(ROOT)}: {callee}({k!r}{'' if whole else '…'})")
    assert missing == []


def test_the_pages_own_words_are_in_the_shared_catalogue() -> None:
    shared = json.loads((SHARED / "en.json").read_text(encoding="utf-8"))
    html = (WEB / "play.html").read_text(encoding="utf-8")
    keys = re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', html)
    assert len(keys) > 40
    assert sorted(k for k in keys if k not in shared) == []
    lobby = (WEB / "index.html").read_text(encoding="utf-8")
    assert sorted(k for k in re.findall(r'data-i18n="([^"]+)"', lobby) if k not in shared) == []
    for script in ("boot.js", "lobby.js"):
        for key in re.findall(r'say\("([\w.]+)"', (WEB / script).read_text(encoding="utf-8")):
            assert key in shared, f"{script}: {key}"


# -- what the screens show -----------------------------------------------------------------------------
INLINE = frozenset({"a", "b", "strong", "i", "em", "small", "span", "code", "time", "abbr", "sub", "sup", "img"})
"""Tags inside a line of text: a sentence read on with its bold figure is one text."""


class _Texts(HTMLParser):
    """The texts of an HTML page as a reader reads them (each block's words, its inline parts
    run together) and the attributes a reader hears or sees."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.line: list[str] = []

    def flush(self) -> None:
        text = " ".join("".join(self.line).split())
        if text:
            self.found.append(text)
        self.line = []

    def handle_data(self, data: str) -> None:
        self.line.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in INLINE:
            self.flush()
        for name, value in attrs:
            if name in ("title", "alt", "aria-label", "placeholder") and value and value.strip():
                self.found.append(value.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag not in INLINE:
            self.flush()


def html_texts(html: str) -> list[str]:
    p = _Texts()
    p.feed(html)
    p.flush()
    return p.found


def strays(texts: list[str]) -> list[str]:
    return sorted({t for t in texts if not words.from_catalogue(t)})


def _play(path: Path, lang: str) -> tuple[str, list[str], Controller]:
    """A golden round played back on screen in ``lang``; what it drew and said."""
    record = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    link = link_of_record(record)
    words.use(lang)
    words.record()
    session = link_session(link, wall_clock)
    events = replay_round(session, link)
    r = make_rig(0, session=session, game=link.game, turbo=True)
    replaymode.start_replay(r.controller, events)
    shown: list[str] = []
    c = r.controller
    now = c.now
    for _ in range(400_000 // int(FRAME_MS)):
        if idle(c) and not c.queue and c.beat is None:
            break
        now += FRAME_MS
        if c.tick(now):
            draw(r.canvas, r.layout, c.view, now)
            shown += r.canvas.texts()
            r.canvas.take()
            controls = c.controls()
            shown += [b.label for b in controls.buttons.values() if b.label and b.visible]
            shown += [controls.bet_label, controls.message, c.view.status, c.view.line_label]
    shown += r.host.announcements
    return link.game, [s for s in shown if s], c


@pytest.mark.parametrize("lang", words.LANGS)
@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_every_golden_round_speaks_only_catalogue_words(path: Path, lang: str, speak: None) -> None:
    game, shown, c = _play(path, lang)
    words.allowed.update({c.desc["name"], c.session.game.bets.currency})
    assert shown, game
    assert strays(shown) == [], f"{game} in {lang}"
    # Its pages, at the round's end: what the dialogs show.
    ctx = pages.page_context(c.session, c.desc, {}, "static/games/x", c.fmt)
    kinds = ["paytable", "help", "history"] + (["buy"] if "buy" in c.session.modes else [])
    for kind in kinds:
        html = pages.page_html(kind, c.screen, ctx)
        assert html is not None
        assert strays(html_texts(html)) == [], f"{game} {kind} in {lang}"


def test_the_languages_differ_where_they_should(speak: None) -> None:
    """A German and a Spanish screen do not merely repeat the English: the shared words of the
    bar and a game's rules page read differently in each language."""
    seen = {}
    for lang in words.LANGS:
        words.use(lang)
        seen[lang] = (words.tr("button.spin"), words.tr("rules.spin"), words.tr("page.balance"))
    assert len({v for v in seen.values()}) == len(words.LANGS)


# -- numbers, as Intl writes them ---------------------------------------------------------------------------
INTL = {
    # What Chromium writes for 1234.5, 12345678 and 1234 (new Intl.NumberFormat(locale)),
    # 0.961 as a percent with 2 decimals, and 2026-12-07 15:12:00 and 2026-09-03 04:05:06 UTC
    # (Intl.DateTimeFormat, dateStyle and timeStyle "medium", timeZone UTC; Node.js puts a narrow
    # space before PM); the browser test
    # compares the same figures with the page's own Intl.
    "en": ("1,234.5", "12,345,678", "1,234", "96.10%", "Dec 7, 2026, 3:12:00 PM UTC",
           "Sep 3, 2026, 4:05:06 AM UTC"),
    "de": ("1.234,5", "12.345.678", "1.234", "96,10\u00a0%", "07.12.2026, 15:12:00 UTC", "03.09.2026, 04:05:06 UTC"),
    "es": ("1234,5", "12.345.678", "1234", "96,10\u00a0%", "7 dic 2026, 15:12:00 UTC", "3 sept 2026, 4:05:06 UTC"),
}
SAMPLES = ((1234.5, 2), (12345678, 0), (1234, 0))


def written(lang: str) -> tuple[str, ...]:
    """The sample figures as `slotui.words` writes them in ``lang``."""
    words.use(lang)
    numbers = tuple(words.number(v, d, trim=True) for v, d in SAMPLES)
    return (*numbers, words.pct(0.961), words.date_time(1796656320000), words.date_time(1788408306000))


@pytest.mark.parametrize("lang", words.LANGS)
def test_numbers_and_dates_are_written_as_the_language_writes_them(lang: str, speak: None) -> None:
    assert written(lang) == INTL[lang]
    assert words.decimal(500000, 100) == {"en": "5,000.00", "de": "5.000,00", "es": "5000,00"}[lang]
    assert words.decimal(-1234567, 100) == {"en": "-12,345.67", "de": "-12.345,67", "es": "-12.345,67"}[lang]


def test_an_unknown_language_or_key_is_an_error(speak: None) -> None:
    with pytest.raises(ValueError, match="not one of"):
        words.use("fr")
    assert words.current() == "en"
    with pytest.raises(words.MissingWord, match=r"no 'no\.such\.key'"):
        words.tr("no.such.key")
    assert screen_for(GAME_IDS[0]).word("button.spin") == words.tr("button.spin")


def test_either_is_the_games_word_where_it_has_one_else_the_shared_one(speak: None) -> None:
    game = words.Lookup("tests.either_words")  # a catalogue given, not read from a folder
    words.provide(game.package, "en", {"own": "Own {n}", "button.auto": "SELF"})
    assert words.either(game, "own", n=2) == "Own 2"
    assert words.either(game, "button.auto") == "SELF"  # the game's word overrides the shared one
    assert words.either(game, "button.coins") == words.tr("button.coins") == words.either(None, "button.coins")
    with pytest.raises(words.MissingWord, match=r"no 'no\.such\.key'"):
        words.either(game, "no.such.key")
    assert words.either(game, "no.such.key", "as it is", n=1) == "as it is"  # a key of neither
    assert words.either(game, "own", "as it is", n=3) == "Own 3"
    assert words.either(None, "own", "own") == "own"
