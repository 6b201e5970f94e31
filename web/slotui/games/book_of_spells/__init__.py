"""Book of Spells on screen: the free-spins intro where the Book picks the expanding
symbol, the symbol shown above the reels for the whole feature, the expansion, the
free spins (the shared counter, retrigger, win-limit and end banners), and the game's
paytable and rules pages."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from pyengine import events as ev

from ... import pages
from ...beats import Beat, Timed, GameScreen, choice, register_screen, symbol_name
from ...canvas import Canvas
from ...expanding import ExpandedReels, ExpandingSymbol, wins_beat
from ...freespins import FreeSpins, begin
from ...gamble import CARD_BACK
from ...intro import ask_start
from ...layout import BACKGROUND, FRAME, LOGO, Layout, fit_size
from ...overlay import IntroCard
from ...render import GOLD, INK, draw_symbol
from ...stage import Stage
from ...words import number, of, tr

__all__ = ["SCREEN", "BookIntro", "IntroBeat", "paytable_html", "rebuild_feature", "rules_html"]

WORDS = of(__package__)
"""The game\'s own words (lang/<lang>.json beside this module)."""

BOOK = "BOOK"
"""The wild scatter, drawn large on the intro."""


@dataclass(slots=True)
class BookIntro(IntroCard):
    """The free-spins intro: the Book flips through symbols and lands on the chosen one."""

    writes_band = True

    spins: int
    symbol: str | None
    candidates: tuple[str, ...]
    started: float
    settle_ms: float
    waiting: bool = False

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        canvas.fill_rect(0, 0, L.width, L.height, "rgba(6,2,18,0.82)")
        size = min(L.reels_h * 0.95, L.width * 0.5)
        x = (L.width - size) / 2
        y = L.reels_y + (L.reels_h - size) / 2
        title = WORDS.count("intro.title", self.spins)
        title_size = fit_size(title, L.top_h * 0.42, L.width * 0.92)
        canvas.text(title, L.width / 2, L.top_h * 0.5 + title_size * 0.36, title_size, GOLD, max_width=L.width * 0.92)
        if canvas.has_sprite(BOOK):
            canvas.sprite(BOOK, x, y, size, size)
        # The pages turn fast, then slower, and stop on the chosen symbol.
        elapsed = now - self.started
        if self.symbol is None or elapsed < self.settle_ms:
            u = min(elapsed / max(self.settle_ms, 1.0), 1.0) if self.symbol else 0.0
            steps = int(26 * (1 - (1 - u) ** 2)) if self.symbol else int(elapsed / 90)
            shown = self.candidates[steps % len(self.candidates)] if self.candidates else "?"
            if self.symbol is not None and u >= 0.999:
                shown = self.symbol
        else:
            shown = self.symbol
        s = size * 0.46
        canvas.fill_rect(x + (size - s) / 2 - 6, y + size * 0.26 - 6, s + 12, s + 12, "rgba(255,236,190,0.9)")
        draw_symbol(canvas, shown, x + (size - s) / 2, y + size * 0.26, s)
        label_y = y + size + L.cell * 0.22
        canvas.text(WORDS("intro.expanding"), L.width / 2, min(label_y, L.height - L.cell * 0.3), L.cell * 0.2, INK)
        if self.waiting:
            press = tr("intro.press_start")
            canvas.text(press, L.width / 2, min(label_y + L.cell * 0.3, L.height - 8), L.cell * 0.2, GOLD)


def _show_intro(c: Stage, intro: BookIntro) -> BookIntro:
    c.view.remove(IntroCard)
    c.view.overlays.append(intro)
    return intro


class IntroBeat(Timed):
    """'10 FREE SPINS' then the Book turning pages until it settles on the symbol."""

    def __init__(self, e: ev.FreeSpinsAwarded, c: Stage) -> None:
        self.e = e
        symbols = [s["id"] for s in c.desc["symbols"] if s["id"] in c.desc["free_spins"]["expanding"]]
        self.candidates = tuple(symbols)

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        begin(c, self.e)
        settle = 600.0 if c.reduced_motion else 2400.0 if not c.turbo else 1400.0
        _show_intro(c, BookIntro(self.e.count, None, self.candidates, now, settle))
        c.host.announce(WORDS.count("say.won", self.e.count))
        self.ms = c.timing.line_show

    def update(self, c: Stage, now: float) -> bool:
        return c.start_requested or not self.holding(now)


class ChooseBeat(Timed):
    """The Book settles on the chosen symbol; then the player starts the feature."""

    def __init__(self, e: ev.ExpandingSymbolChosen) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        intro = c.view.overlay(BookIntro)
        if intro is None:
            intro = _show_intro(c, BookIntro(10, None, (self.e.symbol,), now, 0.0))
        intro.symbol = self.e.symbol
        intro.started = now
        self.ms = intro.settle_ms

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now) and not c.start_requested:
            return False
        intro = c.view.overlay(BookIntro)
        name = symbol_name(c, self.e.symbol)
        if intro is not None:
            intro.started = min(intro.started, now - intro.settle_ms)  # show the symbol settled
        said = WORDS("say.chosen", name=name)
        prompt = WORDS("say.press_start", said=said)
        if intro is None or c.autoplay is not None or not ask_start(intro, c, prompt):
            c.host.announce(said)
        return True


def _choice(e: ev.ChoiceMade, c: Stage) -> Beat | None:
    """Start: the chosen symbol goes above the reels for the whole feature."""
    intro = c.view.overlay(BookIntro)
    if e.kind == "feature_start" and intro is not None and intro.symbol is not None:
        c.view.overlays.insert(0, ExpandingSymbol(intro.symbol))
    return choice(e, c)


def _feature_over(c: Stage) -> None:
    c.view.remove(ExpandingSymbol)
    c.view.remove(ExpandedReels)


FREE_SPINS = FreeSpins(intro=IntroBeat, ended=_feature_over)


def rebuild_feature(c: Stage, events: list[ev.Event]) -> None:
    """Recovery inside free spins: symbol above the reels, counter, totals, intro."""
    chosen = next((e for e in events if isinstance(e, ev.ExpandingSymbolChosen)), None)
    if chosen is None or not FREE_SPINS.restore(c, events):
        return
    if c.pending_kind == "feature_start":
        c.view.status = ""
        awarded = next(e for e in events if isinstance(e, ev.FreeSpinsAwarded))
        _show_intro(c, BookIntro(awarded.count, chosen.symbol, (chosen.symbol,), c.now, 0.0, waiting=True))
        return
    c.view.remove(ExpandingSymbol)
    c.view.overlays.insert(0, ExpandingSymbol(chosen.symbol))
    c.view.phase = "free"
    c.refresh_status()


# -- pages ------------------------------------------------------------------------------------------
def paytable_html(ctx: pages.PageContext) -> str:
    """Every symbol with what it pays at the current bet, the Book, and the line shapes."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    out = [
        '<p class="note">'
        + WORDS.html("paytable.note", bet=escape(fmt(ctx.bet_per_line)), lines=escape(number(ctx.lines)))
        + "</p>"
    ]
    scatter = ", ".join(f"{number(int(k))}× {fmt(v * ctx.stake)}" for k, v in sorted(desc["scatter_pays"].items()) if v)
    top = str(desc.get("wild_pays_as"))
    wild = WORDS.html("paytable.book_wild", name=escape(names.get(top, top)))
    pays = WORDS.html("paytable.book_scatter", pays=escape(scatter), award=escape(number(desc["free_spins"]["award"])))
    out.append(
        f'<div class="pay special">{pages.img(ctx.assets, BOOK, names[BOOK], 80)}<div><h3>{escape(names[BOOK])}</h3>'
        f"<p>{wild}</p><p>{pays}</p></div></div>"
    )
    out.append(pages.symbol_pays(desc, ctx.bet_per_line, fmt, ctx.assets, names=names))
    out.append(pages.line_shapes(desc))
    return "".join(out)


def rules_html(ctx: pages.PageContext) -> str:
    """The rules as implemented, with the session's operator settings, then the shared paragraphs."""
    desc, names, settings = ctx.desc, ctx.names, ctx.operator
    fs = desc["free_spins"]
    lines_max = escape(number(max(desc["bets"]["lines"])))
    award = escape(number(fs["award"]))
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        "<p>" + WORDS.html("rules.reels", rows=escape(number(desc["rows"])), lines=lines_max) + "</p>",
        f"<h4>{WORDS.html('rules.book_heading')}</h4><p>"
        + WORDS.html("rules.book", name=escape(names.get(desc.get("wild_pays_as", ""), "")), award=award)
        + "</p>",
        f"<h4>{WORDS.html('rules.free_spins_heading')}</h4><p>" + WORDS.html("rules.free_spins", award=award) + "</p>",
        # The limits as the operator set them (whole multiples of the total bet).
        "<p>" + WORDS.html("rules.cap", cap=escape(number(settings["free_spin_cap_x"]))) + "</p>",
        f"<h4>{WORDS.html('rules.gamble_heading')}</h4><p>"
        + WORDS.html("rules.gamble", limit=escape(number(settings["gamble_limit_x"])))
        + "</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop=WORDS("rules.autoplay_stop"),
            recovery=WORDS("rules.recovery"),
            expiry=WORDS("rules.expiry"),
            start=WORDS("rules.start"),
        ),
    ]
    return "".join(parts)


SCREEN = GameScreen(
    words=WORDS,
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
    handlers={
        **FREE_SPINS.handlers,
        ev.ExpandingSymbolChosen.type: lambda e, c: ChooseBeat(e),
        ev.ChoiceMade.type: _choice,
    },
    wins_beat=wins_beat,
    rebuild=rebuild_feature,
    status=FREE_SPINS.status,
    big_symbols=(BOOK,),
    pictures=(BACKGROUND, FRAME, LOGO, CARD_BACK),
    paytable=paytable_html,
    rules=rules_html,
)
register_screen("book_of_spells", SCREEN)
