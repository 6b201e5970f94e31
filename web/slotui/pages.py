"""The paytable, rules, Feature Buy and history screens, as HTML built from the game's data.

Everything here is escaped text built from `Game.describe()`, the session's history and
the par-sheet figures; the page drops the result into its dialogs. Each game's screen
supplies its own paytable, rules and buy pages (`GamePages`); this module holds the
helpers they share, the paragraphs every game's rules share (`shared_rules`), the history
list, generic pages for a game without pages of its own, and `page_html`, which chooses
the page for a dialog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from html import escape
from typing import Any, Protocol

from pyengine.events import (
    ExpandingSymbolChosen,
    FreeSpinsEnd,
    GambleCard,
    GambleEnd,
    HoldAndRespinEnd,
    PickReveal,
    Spin,
)
from pyengine.link import encode, link_of, watch_url
from pyengine.session import RoundRecord, Session

from . import words
from .keys import shortcuts
from .watch import watch_html
from .words import number as number_of
from .words import tr

__all__ = [
    "GamePages",
    "PageContext",
    "boards",
    "buy_html",
    "feature_notes",
    "figures",
    "history_html",
    "img",
    "jackpot_in_a_demo",
    "line_shapes",
    "page_context",
    "page_html",
    "paytable_html",
    "pct",
    "rules_html",
    "shared_rules",
    "symbol_pays",
    "times",
    "x_text",
]

Fmt = Callable[[int], str]


@dataclass(frozen=True, slots=True)
class PageContext:
    """What a page is built from: the game's description and figures, the bet, the money."""

    desc: Mapping[str, Any]
    info: Mapping[str, Any]
    """The lobby's figures for the game: ``rtp``, ``max_win_x`` with ``max_win_bound`` and
    ``max_win_odds`` (`pyengine.math.rtp`), ``mode_rtp``, and ``page``: the figures a game's
    rules page quotes from its math report, where the report gives any."""
    fmt: Fmt
    assets: str
    """The game's asset folder (``static/games/<id>``)."""
    bet_per_line: int
    lines: int
    stake: int
    """The total bet."""
    balance: int = 0
    settings: Mapping[str, int] | None = None
    """The session's operator settings (None: the game's defaults)."""
    price: int = 0
    """The Feature Buy price at this bet (0 when the game sells no feature)."""
    history: tuple[RoundRecord, ...] = ()
    pending: str | None = None
    """The kind of the decision the round in play waits on (None between rounds): a page
    may lead with what the player is about to play (e.g. a feature's own paytable)."""
    game: str = ""
    """The game's id ("" where the pages link to no round)."""
    symbol_names: Mapping[str, str] | None = None
    """Symbol names by id in the player's language (the game's catalogue; `page_html` fills
    them in from the game's screen); None: the description's."""

    def share_url(self, record: RoundRecord) -> str:
        """The address (relative to the site) that replays ``record``, a round of the history."""
        return watch_url(self.game, encode(link_of(self.game, record, self.settings)))

    @property
    def names(self) -> dict[str, str]:
        """Symbol names by id."""
        if self.symbol_names is not None:
            return dict(self.symbol_names)
        return {s["id"]: s["name"] for s in self.desc["symbols"]}

    @property
    def operator(self) -> Mapping[str, int]:
        """The operator settings in force."""
        return self.settings if self.settings is not None else self.desc.get("settings", {})


PageFn = Callable[[PageContext], str]


BoardFn = Callable[[RoundRecord, Fmt, str, Mapping[str, str]], str]
"""A round's final board in the history, as HTML ("" when the round has none of its own)."""


class GamePages(Protocol):
    """The pages a game supplies (`stage.GameScreen` has these fields)."""

    @property
    def paytable(self) -> PageFn | None: ...

    @property
    def rules(self) -> PageFn | None: ...

    @property
    def buy(self) -> PageFn | None: ...

    @property
    def feature_names(self) -> Mapping[str, str]: ...

    @property
    def history_board(self) -> BoardFn | None: ...

    def word(self, key: str, /, **args: Any) -> str: ...

    def symbol(self, sid: str, default: str = "") -> str: ...


def page_context(
    session: Session, desc: Mapping[str, Any], info: Mapping[str, Any], assets: str, fmt: Fmt | None = None
) -> PageContext:
    """The context of every page at the session's bet, balance, settings and history; money
    written by ``fmt`` (the page's currency), or in the game's own format."""
    bet = session.bet
    return PageContext(
        desc=desc,
        info=info,
        fmt=fmt or session.game.bets.format,
        assets=assets,
        bet_per_line=bet.bet_per_line,
        lines=bet.lines,
        stake=bet.total,
        balance=session.balance,
        settings=session.settings,
        price=session.price("buy") if "buy" in session.modes else 0,
        history=session.history,
        pending=session.pending.kind if session.pending is not None else None,
        game=session.game.id,
    )


def page_html(kind: str, pages: GamePages, ctx: PageContext) -> str | None:
    """The body of dialog ``kind`` (``paytable``, ``help``, ``buy``, ``history``) for a
    game's ``pages``; the generic page where the game has none; None for another dialog."""
    if ctx.symbol_names is None:
        ctx = replace(ctx, symbol_names={s["id"]: pages.symbol(s["id"], s["name"]) for s in ctx.desc["symbols"]})
    if kind == "paytable":
        return (pages.paytable or paytable_html)(ctx)
    if kind == "help":
        rules = (pages.rules or rules_html)(ctx)
        return rules + watch_html(ctx.game, ctx.info.get("showcase") or (), pages.word) + math_link(ctx.game)
    if kind == "buy":
        return (pages.buy or buy_html)(ctx)
    if kind == "history":
        return history_html(
            ctx.history, ctx.fmt, ctx.assets, ctx.names, features=pages.feature_names, board=pages.history_board,
            share=ctx.share_url if ctx.game else None,
        )
    return None


def math_link(game: str) -> str:
    """The rules page's link to the game's par sheet and what-if (math.html), "" without a game."""
    if not game:
        return ""
    href = escape(f"./math.html?game={game}")  # a game id is [a-z0-9_]
    link = f'<a href="{href}">{escape(tr("math.open"))}</a>'
    heading = escape(tr("math.heading"))
    return f'<section class="math-link"><h3>{heading}</h3><p>{tr.html("math.text", link=link)}</p></section>'


# -- helpers ------------------------------------------------------------------------------------
def x_text(value: object) -> str:
    """A stake multiplier as text in the player's language: "0.5×", "5,000×" (en), "0,5×" (de)."""
    f = Fraction(str(value))
    if f.denominator == 1:
        return number_of(f.numerator) + "×"
    return number_of(float(f), 2, trim=True) + "×"


def times(value: object, stake: int) -> int:
    """``value`` × ``stake``, rounded down to a whole minor unit."""
    f = Fraction(str(value)) * stake
    return f.numerator // f.denominator


def pct(value: object) -> str:
    """A share as a percentage in the player's language: "96.10%" (en), "96,10 %" (de)."""
    return words.pct(float(Fraction(str(value))))


def img(assets: str, sym: str, name: str, size: int = 56) -> str:
    """A symbol's picture."""
    return (
        f'<img class="sym" src="{escape(assets)}/symbols/{escape(sym)}.svg" alt="{escape(name)}" '
        f'width="{size}" height="{size}">'
    )


def _line_grid(rows: list[int], n_rows: int, number: int) -> str:
    cells = []
    for r in range(n_rows):
        for row in rows:
            cells.append(f'<i class="{"on" if row == r else ""}"></i>')
    return (
        f'<figure class="payline"><div class="grid cols-{len(rows)}">{"".join(cells)}</div>'
        f"<figcaption>{escape(tr('pages.line', n=number_of(number)))}</figcaption></figure>"
    )


def symbol_pays(
    desc: Mapping[str, Any],
    bet_per_line: int,
    fmt: Fmt,
    assets: str,
    *,
    stake_lines: int | None = None,
    prize: bool = False,
    table: Mapping[str, Mapping[str, Any]] | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """Every paying symbol with what each count pays at ``bet_per_line``. With
    ``stake_lines`` (the lines the total stake covers), each pay is shown as the multiplier
    of the total stake it is (pay / lines), with the money beside it; with ``prize``, as the
    prize a game's rules tell the player to multiply by the bet per line, with the money
    beside it. ``table`` is another paytable of the game (default: ``desc["paytable"]``);
    ``names`` the symbols' names in the player's language (`PageContext.names`; default: the
    description's)."""
    names = dict(names) if names is not None else {s["id"]: s["name"] for s in desc["symbols"]}
    out = ['<div class="pays">']
    for sid, pays in (table if table is not None else desc["paytable"]).items():
        rows = "".join(
            f"<li><b>{number_of(int(k))}×</b> {_prize(v)}{_pay(v, bet_per_line, fmt, stake_lines)}</li>"
            if prize
            else f"<li><b>{number_of(int(k))}×</b> {_pay(v, bet_per_line, fmt, stake_lines)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
            if v
        )
        out.append(f'<div class="pay">{img(assets, sid, names[sid])}<ul>{rows}</ul></div>')
    out.append("</div>")
    return "".join(out)


def _prize(pay: object) -> str:
    shown = escape(x_text(pay).removesuffix("×"))
    return f'<span class="prize" title="{escape(tr("pages.prize_title"))}">{shown}</span> '


def _pay(pay: int, bet_per_line: int, fmt: Fmt, stake_lines: int | None) -> str:
    if stake_lines is None:
        return fmt(pay * bet_per_line)
    return f'<span class="mult">{x_text(Fraction(pay, stake_lines))}</span> {fmt(pay * bet_per_line)}'


def line_shapes(desc: Mapping[str, Any]) -> str:
    """The win lines, drawn as small grids."""
    out = [f'<h3>{escape(tr("pages.win_lines"))}</h3><div class="paylines">']
    for i, rows_of in enumerate(desc["paylines"], start=1):
        out.append(_line_grid(rows_of, desc["rows"], i))
    out.append("</div>")
    return "".join(out)


# -- what every game's rules say --------------------------------------------------------------
def figures(ctx: PageContext, *, rtp_note: str = "") -> str:
    """The par-sheet figures: RTP (and in Feature Buy), the maximum win, the game version."""
    desc, info = ctx.desc, ctx.info
    rtp = info.get("rtp")
    buy_rtp = (info.get("mode_rtp") or {}).get("buy")
    if buy_rtp is None and "feature_buy" in desc:
        buy_rtp = desc["feature_buy"]["target_rtp"]
    max_win = info.get("max_win_x", desc.get("max_win_x"))
    out = [f"<h4>{escape(tr('figures.heading'))}</h4><ul>"]
    if rtp is not None:
        note = f" ({escape(rtp_note)})" if rtp_note else ""
        shown = f'<b class="fig-rtp">{pct(rtp)}</b>'
        out.append(f'<li>{tr.html("figures.rtp", rtp=shown)}{note}</li>')
    if buy_rtp is not None:
        shown = f'<b class="fig-rtp-buy">{pct(buy_rtp)}</b>'
        out.append(f'<li>{tr.html("figures.rtp_buy", rtp=shown)}</li>')
    if max_win is not None:
        # One definition for every game (its math report's): the largest win a round can pay,
        # or a proven bound on it, with the chance of a round paying it where it is known.
        bound = bool(info.get("max_win_bound"))
        odds = info.get("max_win_odds")
        x = f'<b class="fig-max">{x_text(max_win)}</b>'
        known = bool(odds) and odds != "not computed"
        key = "figures.max_bound" if bound else "figures.max"
        said = tr.html(key + ("_odds" if known else ""), x=x, odds=escape(_odds_words(odds)) if known else "")
        out.append(f"<li>{said}</li>")
    out.append(f"<li>{escape(tr('figures.version', version=str(desc['version'])))}</li></ul>")
    return "".join(out)


def _odds_words(odds: object) -> str:
    """A report's "1 in 12,345" in the player's language (other text as it is)."""
    text = str(odds)
    if text.startswith("1 in ") and text[5:].replace(",", "").isdigit():
        return tr("odds.one_in", n=number_of(int(text[5:].replace(",", ""))))
    return text


def shared_rules(
    ctx: PageContext,
    *,
    autoplay_stop: str = "",
    recovery: str = "",
    expiry: str = "",
    start: str = "",
    rtp_note: str = "",
) -> str:
    """The paragraphs every game's rules end with, in the game's words: spin and turbo,
    autoplay (``autoplay_stop``: when it stops for the feature), recovery (``recovery``: what
    a reload during the feature does; ``expiry``: what happens to a round left waiting),
    the keyboard (``start``: what the Start keys start), the figures and the demo note. The
    game's words are already in the player's language ("": the shared catalogue's).

    What differs with the game's data is said only where it applies: Collect and Gamble
    where the gamble is on, the lines keys where the lines can change, the Feature Buy.
    """
    gamble = bool(ctx.operator.get("gamble", 0))
    bets = ctx.desc["bets"]
    # The keys of what the game's rounds may wait on (all of them for a game that does not say).
    decisions = set(ctx.desc.get("decisions", ("feature_start", "free_spin", "pick")))
    keys = shortcuts(
        lines=len(bets["lines"]) > 1,
        gamble=gamble,
        start=start or tr("rules.start"),
        coins=len(bets.get("coins", [1])) > 1,
        feature=bool(decisions & {"feature_start", "free_spin"}),
        picks="pick" in decisions,
    )
    autoplay = tr(
        "rules.autoplay_collects" if gamble else "rules.autoplay", stop=autoplay_stop or tr("rules.autoplay_stop")
    )
    if "feature_buy" in ctx.desc:
        autoplay += " " + tr("rules.autoplay_never_buys")
    expires = tr("rules.recovery_expiry", expiry=expiry or tr("rules.expiry"))
    recovery_text = " ".join(p for p in (tr("rules.recovery_saved"), recovery, expires) if p)
    parts = [
        f"<h4>{escape(tr('rules.spin_heading'))}</h4><p>{escape(tr('rules.spin'))}</p>",
        f"<h4>{escape(tr('rules.autoplay_heading'))}</h4><p>{escape(autoplay)}</p>",
        f"<h4>{escape(tr('rules.recovery_heading'))}</h4><p>{escape(recovery_text)}</p>",
        f"<h4>{escape(tr('rules.keyboard_heading'))}</h4><p>{escape(' '.join(keys), quote=False)}</p>",
        jackpot_in_a_demo(ctx),
        figures(ctx, rtp_note=rtp_note),
        f'<p class="note">{escape(tr("rules.demo_note"))}</p>',
    ]
    return "".join(parts)


def jackpot_in_a_demo(ctx: PageContext) -> str:
    """For a game with a time jackpot: which of the usual jackpot rules cannot apply to a
    free-play demo played by one person on one device, and why, and the jackpot's current and
    next minimum starting values ("" for a game without a jackpot)."""
    if not ctx.desc.get("jackpot"):
        return ""
    start = ctx.fmt(0)  # every pot starts empty and fills from the stakes
    items = "".join(
        f"<li><b>{escape(tr(f'jackpot.rule.{k}.what'))}</b> {escape(tr(f'jackpot.rule.{k}.why'))}</li>"
        for k in ("players", "symbols", "deactivation", "delays")
    )
    return (
        f"<h4>{escape(tr('jackpot.rules_heading'))}</h4><ul>{items}</ul>"
        f"<p>{escape(tr('jackpot.start_values', start=start))}</p>"
    )


# -- generic pages, from the description alone ----------------------------------------------------
def _kinds(desc: Mapping[str, Any], *kinds: str) -> list[Mapping[str, Any]]:
    return [s for s in desc["symbols"] if s["kind"] in kinds]


def paytable_html(ctx: PageContext) -> str:
    """A paytable from the description alone: the bet, the wild and scatter symbols, what every
    symbol pays at the current bet, and the line shapes."""
    desc, fmt = ctx.desc, ctx.fmt
    names = ctx.names
    pays_at = tr("paytable.pays_at", bet=fmt(ctx.bet_per_line), lines=number_of(ctx.lines))
    out = [f'<p class="note">{escape(pays_at)}</p>']
    scatter_pays = desc.get("scatter_pays") or {}
    scatter = ", ".join(f"{number_of(int(k))}× {fmt(v * ctx.stake)}" for k, v in sorted(scatter_pays.items()) if v)
    for s in _kinds(desc, "wild", "wild_scatter", "scatter"):
        sid, kind = s["id"], s["kind"]
        text = []
        if kind in ("wild", "wild_scatter"):
            top = names.get(desc.get("wild_pays_as", ""), "")
            text.append(tr("paytable.wild_alone", top=top) if top else tr("paytable.wild"))
        if kind in ("scatter", "wild_scatter"):
            text.append(tr("paytable.scatter_pays", pays=scatter) if scatter else tr("paytable.scatter"))
        paragraphs = "".join(f"<p>{escape(t)}</p>" for t in text)
        out.append(
            f'<div class="pay special">{img(ctx.assets, sid, names[sid], 80)}<div><h3>{escape(names[sid])}</h3>'
            f"{paragraphs}</div></div>"
        )
    out.append(symbol_pays(desc, ctx.bet_per_line, fmt, ctx.assets, names=names))
    out.append(line_shapes(desc))
    return "".join(out)


def rules_html(ctx: PageContext) -> str:
    """Rules from the description alone: the reels and lines, the special symbols, and the
    paragraphs every game shares."""
    desc = ctx.desc
    lines = desc["bets"]["lines"]
    said = {"reels": number_of(len(desc["paylines"][0])), "rows": number_of(desc["rows"])}
    key = "rules.reels_fixed" if len(lines) == 1 else "rules.reels_selectable"
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>{escape(tr(key, lines=number_of(lines[0] if len(lines) == 1 else max(lines)), **said))}</p>",
    ]
    names = ctx.names
    for s in _kinds(desc, "wild", "wild_scatter", "scatter"):
        name = names.get(s["id"], s["name"])
        what = tr(f"rules.kind.{s['kind']}", name=name)
        parts.append(f"<h4>{escape(name)}</h4><p>{escape(what)}</p>")
    parts.append(shared_rules(ctx))
    return "".join(parts)


def buy_html(ctx: PageContext) -> str:
    """A Feature Buy offer from the description alone: the price at the current bet, the balance."""
    short = (
        f'<p class="buy-short">{escape(tr("buy.short", balance=ctx.fmt(ctx.balance)))}</p>'
        if ctx.price > ctx.balance
        else ""
    )
    x = x_text(Fraction(ctx.price, ctx.stake)) if ctx.stake else ""
    return (
        f'<div class="buy-offer"><div><p class="buy-lead">{escape(tr("buy.lead"))}</p>'
        f'<p class="buy-price"><span>{escape(tr("buy.price"))}</span> '
        f'<strong id="buy-price">{ctx.fmt(ctx.price)}</strong> '
        f"<small>{escape(tr('buy.of_bet', x=x, stake=ctx.fmt(ctx.stake)))}</small></p></div></div>"
        f'<p id="buy-summary" class="note">{escape(tr("buy.summary", balance=ctx.fmt(ctx.balance)))}</p>'
        f"{short}"
    )


# -- history ----------------------------------------------------------------------------------------
Window = tuple[tuple[str, ...], ...]


def boards(events: tuple[Any, ...] | list[Any]) -> list[tuple[str, Window]]:
    """The boards a round paid on: the base game's, and the last free spin's where there were
    free spins. A board is the ``window`` of the last event that has one (a spin, then each
    cascade's refill, or the symbols a feature placed over it), so it is what was judged,
    whichever game placed what."""
    base: Window | None = None
    last: Window | None = None
    free = False
    for e in events:
        if isinstance(e, Spin) and e.phase != "base":
            free = True
        window = getattr(e, "window", None)
        if window:
            last = window
            if not free:
                base = window
    out: list[tuple[str, Window]] = []
    if base is not None:
        out.append((tr("history.base_game"), base))
    if free and last is not None and last is not base:
        out.append((tr("history.last_free_spin"), last))
    return out


def feature_notes(events: tuple[Any, ...] | list[Any], fmt: Fmt, names: Mapping[str, str]) -> list[str]:
    """What a round's features did, from the shared events, for a game whose screen says
    nothing of its own (`GameScreen.history_board`): the expanding symbol, each pick's
    choice, the free spins and their win, hold and respin's win, the gamble's outcome."""
    notes: list[str] = []
    for e in events:
        if isinstance(e, ExpandingSymbolChosen):
            notes.append(tr("history.expanding", name=names.get(e.symbol, e.symbol)))
        elif isinstance(e, PickReveal):
            notes.append(tr("history.picked", prize=e.prize.replace("_", " ")))
        elif isinstance(e, FreeSpinsEnd):
            key = "history.free_spins_capped" if e.capped else "history.free_spins"
            notes.append(tr(key, spins=number_of(e.spins), win=fmt(e.win)))
        elif isinstance(e, HoldAndRespinEnd):
            notes.append(tr("history.hold_and_respin", n=number_of(e.count), win=fmt(e.win)))
        elif isinstance(e, GambleCard):
            guess = tr(f"gamble.color.{e.guess}") if e.guess in ("red", "black") else e.guess
            notes.append(tr("history.gamble_won" if e.won else "history.gamble_lost", guess=guess, card=e.card))
        elif isinstance(e, GambleEnd):
            notes.append(tr(f"history.gamble_end.{e.reason}", win=fmt(e.win)))
    return notes


def history_html(
    records: tuple[RoundRecord, ...],
    fmt: Fmt,
    assets: str,
    names: Mapping[str, str],
    *,
    features: Mapping[str, str] | None = None,
    board: BoardFn | None = None,
    share: Callable[[RoundRecord], str] | None = None,
) -> str:
    """The last rounds, newest first: time, bet, win and the boards that paid (`boards`).
    ``features`` names a round's features as the game does (else ``free_spins`` reads "free
    spins"); ``board`` draws what the game's features did in a round (e.g. a bonus's held
    prizes, the pick made, a multiplier reached), shown after its reels; ``share`` gives a
    round's link, offered as "Share this round" (the page's click on ``data-share``)."""
    if not records:
        return f'<p class="note">{escape(tr("history.none"))}</p>'
    features = features or {}
    out = ['<ol class="history">']
    for r in reversed(records):
        reels = ""
        shown = boards(r.events)
        for label, window in shown:
            rows = len(window[0])
            cells = "".join(
                img(assets, window[reel][row], names.get(window[reel][row], window[reel][row]), 28)
                for row in range(rows)
                for reel in range(len(window))
            )
            caption = f'<p class="h-board">{escape(label)}</p>' if len(shown) > 1 else ""
            reels += f'{caption}<div class="mini cols-{len(window)}">{cells}</div>'
        said = board(r, fmt, assets, names) if board is not None else ""
        reels += said or "".join(f'<p class="h-feature">{escape(n)}</p>' for n in feature_notes(r.events, fmt, names))
        when = words.date_time(r.time_ms)
        extra = "".join(f" · {features.get(f, f.replace('_', ' '))}" for f in r.features)
        if r.jackpot:
            extra += " · " + tr("history.jackpot", amount=fmt(r.jackpot))
        stake = tr("history.bought" if r.mode == "buy" else "history.bet", stake=fmt(r.stake))
        shared = (
            f'<p class="h-share"><button type="button" class="btn pill share-round" data-share="{escape(share(r))}">'
            f"{escape(tr('history.share'))}</button></p>"
            if share is not None
            else ""
        )
        out.append(
            f'<li><div class="h-meta"><time>{when}</time><span>{stake}</span>'
            f'<span class="{"won" if r.win else ""}">{escape(tr("history.win", win=fmt(r.win)))}{escape(extra)}</span>'
            f"</div>{reels}{shared}</li>"
        )
    out.append("</ol>")
    return "".join(out)
