"""The paytable, rules, Feature Buy and history screens, as HTML built from the game's data.

Everything here is escaped text built from `Game.describe()`, the session's history and
the par-sheet figures; the page drops the result into its dialogs. Each game's screen
supplies its own paytable, rules and buy pages (`GamePages`); this module holds the
helpers they share, the paragraphs every game's rules share (`shared_rules`), the history
list, generic pages for a game without pages of its own, and `page_html`, which chooses
the page for a dialog.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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

from .keys import shortcuts
from .watch import watch_html

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

    def share_url(self, record: RoundRecord) -> str:
        """The address (relative to the site) that replays ``record``, a round of the history."""
        return watch_url(self.game, encode(link_of(self.game, record, self.settings)))

    @property
    def names(self) -> dict[str, str]:
        """Symbol names by id."""
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
    if kind == "paytable":
        return (pages.paytable or paytable_html)(ctx)
    if kind == "help":
        rules = (pages.rules or rules_html)(ctx)
        return rules + watch_html(ctx.game, ctx.info.get("showcase") or ()) + math_link(ctx.game)
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
    return (
        '<section class="math-link"><h3>The game\'s math</h3><p>The par sheet — the win distribution, '
        "volatility, the features' odds — computed on this device by the engine, and a what-if that "
        f'recomputes the exact RTP: <a href="{href}">open the par sheet</a>.</p></section>'
    )


# -- helpers ------------------------------------------------------------------------------------
def x_text(value: object) -> str:
    """A stake multiplier as text: "0.5×", "5,000×"."""
    f = Fraction(str(value))
    if f.denominator == 1:
        return f"{f.numerator:,}×"
    return f"{float(f):,.2f}".rstrip("0").rstrip(".") + "×"


def times(value: object, stake: int) -> int:
    """``value`` × ``stake``, rounded down to a whole minor unit."""
    f = Fraction(str(value)) * stake
    return f.numerator // f.denominator


def pct(value: object) -> str:
    return f"{float(Fraction(str(value))) * 100:.2f}%"


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
        f"<figcaption>Line {number}</figcaption></figure>"
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
) -> str:
    """Every paying symbol with what each count pays at ``bet_per_line``. With
    ``stake_lines`` (the lines the total stake covers), each pay is shown as the multiplier
    of the total stake it is (pay / lines), with the money beside it; with ``prize``, as the
    prize a game's rules tell the player to multiply by the bet per line, with the money
    beside it. ``table`` is another paytable of the game (default: ``desc["paytable"]``)."""
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    out = ['<div class="pays">']
    for sid, pays in (table if table is not None else desc["paytable"]).items():
        rows = "".join(
            f"<li><b>{k}×</b> {_prize(v)}{_pay(v, bet_per_line, fmt, stake_lines)}</li>"
            if prize
            else f"<li><b>{k}×</b> {_pay(v, bet_per_line, fmt, stake_lines)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
            if v
        )
        out.append(f'<div class="pay">{img(assets, sid, names[sid])}<ul>{rows}</ul></div>')
    out.append("</div>")
    return "".join(out)


def _prize(pay: object) -> str:
    return f'<span class="prize" title="the prize: × the bet per line">{escape(str(pay))}</span> '


def _pay(pay: int, bet_per_line: int, fmt: Fmt, stake_lines: int | None) -> str:
    if stake_lines is None:
        return fmt(pay * bet_per_line)
    return f'<span class="mult">{x_text(Fraction(pay, stake_lines))}</span> {fmt(pay * bet_per_line)}'


def line_shapes(desc: Mapping[str, Any]) -> str:
    """The win lines, drawn as small grids."""
    out = ['<h3>Win lines</h3><div class="paylines">']
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
    out = ["<h4>Figures</h4><ul>"]
    if rtp is not None:
        note = f" ({escape(rtp_note)})" if rtp_note else ""
        out.append(f'<li>Return to player: <b class="fig-rtp">{pct(rtp)}</b>{note}</li>')
    if buy_rtp is not None:
        out.append(f'<li>Return to player in Feature Buy: <b class="fig-rtp-buy">{pct(buy_rtp)}</b></li>')
    if max_win is not None:
        # One definition for every game (its math report's): the largest win a round can pay,
        # or a proven bound on it, with the chance of a round paying it where it is known.
        bound = bool(info.get("max_win_bound"))
        odds = info.get("max_win_odds")
        said = f'<b class="fig-max">{x_text(max_win)}</b> the total bet'
        if bound:
            said = f"at most {said} (a proven bound: no round pays more)"
        if odds and odds != "not computed":
            said += f", {'reached at most' if bound else 'paid'} {escape(str(odds))} rounds"
        out.append(f"<li>Maximum win: {said}</li>")
    out.append(f"<li>Game version {escape(str(desc['version']))}</li></ul>")
    return "".join(out)


def shared_rules(
    ctx: PageContext,
    *,
    autoplay_stop: str = "when the feature is won (if chosen)",
    recovery: str = "",
    expiry: str = "played to its end",
    start: str = "the feature",
    rtp_note: str = "",
) -> str:
    """The paragraphs every game's rules end with, in the game's words: spin and turbo,
    autoplay (``autoplay_stop``: when it stops for the feature), recovery (``recovery``: what
    a reload during the feature does; ``expiry``: what happens to a round left waiting),
    the keyboard (``start``: what the Start keys start), the figures and the demo note.

    What differs with the game's data is said only where it applies: Collect and Gamble
    where the gamble is on, the lines keys where the lines can change, the Feature Buy.
    """
    gamble = bool(ctx.operator.get("gamble", 0))
    collects = " and collects wins" if gamble else ""
    never_buys = " Autoplay never buys the feature." if "feature_buy" in ctx.desc else ""
    bets = ctx.desc["bets"]
    # The keys of what the game's rounds may wait on (all of them for a game that does not say).
    decisions = set(ctx.desc.get("decisions", ("feature_start", "free_spin", "pick")))
    keys = shortcuts(
        lines=len(bets["lines"]) > 1,
        gamble=gamble,
        start=start,
        coins=len(bets.get("coins", [1])) > 1,
        feature=bool(decisions & {"feature_start", "free_spin"}),
        picks="pick" in decisions,
    )
    parts = [
        "<h4>Spin and Turbo</h4><p>Press Spin or the spacebar to spin; press again, or click the reels, to stop "
        "them sooner. Hold the spacebar or the Spin button for TURBO SPIN: rounds follow each other at turbo "
        "pace until you let go. The Turbo button makes every spin faster.</p>",
        f"<h4>Autoplay</h4><p>Autoplay spins at the current bet{collects}. It stops after the number of rounds, "
        "before a round that would pass the loss limit, after a win above the single-win limit, "
        f"{escape(autoplay_stop)}, or when you press Stop.{never_buys}</p>",
        "<h4>Recovery</h4><p>The game is saved in this browser after every step. "
        + (f"{escape(recovery)} " if recovery else "")
        + f"A round left waiting for more than 90 days is {escape(expiry)}.</p>",
        f"<h4>Keyboard</h4><p>{escape(' '.join(keys), quote=False)}</p>",
        jackpot_in_a_demo(ctx),
        figures(ctx, rtp_note=rtp_note),
        '<p class="note">Free play with demo money. Malfunction voids all pays and play.</p>',
    ]
    return "".join(parts)


def jackpot_in_a_demo(ctx: PageContext) -> str:
    """For a game with a time jackpot: which of the usual jackpot rules cannot apply to a
    free-play demo played by one person on one device, and why, and the jackpot's current and
    next minimum starting values ("" for a game without a jackpot)."""
    if not ctx.desc.get("jackpot"):
        return ""
    start = ctx.fmt(0)  # every pot starts empty and fills from the stakes
    return (
        "<h4>Jackpot rules that do not apply here</h4><ul>"
        "<li><b>Other players, linked or related jackpot games, a win by another player:</b> the pot belongs to "
        "your session of this game alone; no one else pays into it or can win it, so no other win is "
        "announced and two wins can never meet.</li>"
        "<li><b>Jackpot symbols and tiers:</b> there is one jackpot, with no symbol of its own; every paid spin "
        "can win it, with the chance given above.</li>"
        "<li><b>Deactivation, and the operator's rules for suspending the jackpot or allocating its funds:</b> "
        "the demo never deactivates it, and there are no real funds to allocate.</li>"
        "<li><b>Connection delays, a displayed value that differs:</b> the game runs on your device, so the "
        "panel always shows the pot as it stands.</li></ul>"
        f"<p>Time jackpot: the current starting value is {start}, and the next minimum starting value is "
        f"{start}.</p>"
    )


# -- generic pages, from the description alone ----------------------------------------------------
def _kinds(desc: Mapping[str, Any], *kinds: str) -> list[Mapping[str, Any]]:
    return [s for s in desc["symbols"] if s["kind"] in kinds]


def paytable_html(ctx: PageContext) -> str:
    """A paytable from the description alone: the bet, the wild and scatter symbols, what every
    symbol pays at the current bet, and the line shapes."""
    desc, fmt = ctx.desc, ctx.fmt
    names = ctx.names
    out = [
        f'<p class="note">Pays at {fmt(ctx.bet_per_line)} per line on {ctx.lines} lines. Wins pay left to right '
        "on consecutive reels from the leftmost; only the highest win per line is paid.</p>"
    ]
    scatter_pays = desc.get("scatter_pays") or {}
    scatter = ", ".join(f"{k}× {fmt(v * ctx.stake)}" for k, v in sorted(scatter_pays.items()) if v)
    for s in _kinds(desc, "wild", "wild_scatter", "scatter"):
        sid, kind = s["id"], s["kind"]
        text = []
        if kind in ("wild", "wild_scatter"):
            top = names.get(desc.get("wild_pays_as", ""), "")
            alone = f" A line of wilds alone pays as the {top}." if top else ""
            text.append(f"Wild: substitutes for every symbol.{alone}")
        if kind in ("scatter", "wild_scatter"):
            text.append(f"Scatter anywhere: {scatter} (× total bet)." if scatter else "Scatter: pays anywhere.")
        paragraphs = "".join(f"<p>{escape(t)}</p>" for t in text)
        out.append(
            f'<div class="pay special">{img(ctx.assets, sid, names[sid], 80)}<div><h3>{escape(names[sid])}</h3>'
            f"{paragraphs}</div></div>"
        )
    out.append(symbol_pays(desc, ctx.bet_per_line, fmt, ctx.assets))
    out.append(line_shapes(desc))
    return "".join(out)


def rules_html(ctx: PageContext) -> str:
    """Rules from the description alone: the reels and lines, the special symbols, and the
    paragraphs every game shares."""
    desc = ctx.desc
    lines = desc["bets"]["lines"]
    line_text = f"{lines[0]} fixed win lines" if len(lines) == 1 else f"1 to {max(lines)} selectable win lines"
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>{len(desc['paylines'][0])} reels, {desc['rows']} rows and {line_text}. The total bet is the lines × "
        "the bet per line. Line wins pay left to right on consecutive reels from the leftmost.</p>",
    ]
    for s in _kinds(desc, "wild", "wild_scatter", "scatter"):
        what = {"wild": "substitutes for the paying symbols", "scatter": "pays anywhere on the reels"}
        text = what.get(s["kind"], "substitutes for the paying symbols and pays anywhere on the reels")
        parts.append(f"<h4>{escape(s['name'])}</h4><p>The {escape(s['name'])} {text}.</p>")
    parts.append(shared_rules(ctx))
    return "".join(parts)


def buy_html(ctx: PageContext) -> str:
    """A Feature Buy offer from the description alone: the price at the current bet, the balance."""
    short = (
        f'<p class="buy-short">Your balance of {ctx.fmt(ctx.balance)} is not enough: lower the bet to buy the '
        "feature.</p>"
        if ctx.price > ctx.balance
        else ""
    )
    x = x_text(Fraction(ctx.price, ctx.stake)) if ctx.stake else ""
    return (
        '<div class="buy-offer"><div><p class="buy-lead">Start the feature now.</p>'
        f'<p class="buy-price"><span>Price</span> <strong id="buy-price">{ctx.fmt(ctx.price)}</strong> '
        f"<small>{x} your total bet of {ctx.fmt(ctx.stake)}</small></p></div></div>"
        f'<p id="buy-summary" class="note">Balance {ctx.fmt(ctx.balance)}. The feature plays at once after you '
        "confirm.</p>"
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
        out.append(("Base game", base))
    if free and last is not None and last is not base:
        out.append(("Last free spin", last))
    return out


def feature_notes(events: tuple[Any, ...] | list[Any], fmt: Fmt, names: Mapping[str, str]) -> list[str]:
    """What a round's features did, from the shared events, for a game whose screen says
    nothing of its own (`GameScreen.history_board`): the expanding symbol, each pick's
    choice, the free spins and their win, hold and respin's win, the gamble's outcome."""
    notes: list[str] = []
    for e in events:
        if isinstance(e, ExpandingSymbolChosen):
            notes.append(f"Expanding symbol: {names.get(e.symbol, e.symbol)}")
        elif isinstance(e, PickReveal):
            notes.append(f"Picked: {e.prize.replace('_', ' ')}")
        elif isinstance(e, FreeSpinsEnd):
            notes.append(f"{e.spins} free spins, win {fmt(e.win)}" + (" (win limit reached)" if e.capped else ""))
        elif isinstance(e, HoldAndRespinEnd):
            notes.append(f"Hold and respin: {e.count} held, win {fmt(e.win)}")
        elif isinstance(e, GambleCard):
            notes.append(f"Gamble: {e.guess} on {e.card}, {'won' if e.won else 'lost'}")
        elif isinstance(e, GambleEnd):
            notes.append(f"Gamble {e.reason}: {fmt(e.win)}")
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
        return '<p class="note">No rounds played yet.</p>'
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
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(r.time_ms / 1000)) + " UTC"
        extra = "".join(f" · {features.get(f, f.replace('_', ' '))}" for f in r.features)
        if r.jackpot:
            extra += f" · jackpot {fmt(r.jackpot)}"
        stake = f"Feature Buy {fmt(r.stake)}" if r.mode == "buy" else f"Bet {fmt(r.stake)}"
        shared = (
            f'<p class="h-share"><button type="button" class="btn pill share-round" data-share="{escape(share(r))}">'
            "Share this round</button></p>"
            if share is not None
            else ""
        )
        out.append(
            f'<li><div class="h-meta"><time>{when}</time><span>{stake}</span>'
            f'<span class="{"won" if r.win else ""}">Win {fmt(r.win)}{escape(extra)}</span></div>{reels}{shared}</li>'
        )
    out.append("</ol>")
    return "".join(out)
