"""Moon Spell on screen: cash values on the Moons, the 3-4 Moon cash win, the Hold and
Respin intro, the board where held Moons stay and empty cells respin, the respin counter
that resets when a Moon lands, the prize ladder above the reels lighting rung by rung,
the collection of the total at the end, the max-win limit and a bought feature.

The bonus is played in one engine call (after Start, or at once when bought), so a reload
during its animation finds the round finished: recovery then shows the final board.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any

from pyengine import events as ev
from pyengine.games.moon_spell import MoonPrizes

from ... import pages
from ...beats import Beat, Timed, GameScreen, register_screen, symbol_name
from ...intro import FeatureCard, ask_start
from ...pages import PageContext, img, pct, x_text
from ...respins import FEATURE, HoldAndRespin, RespinWords, lookahead
from ...stage import Stage

__all__ = ["SCREEN", "buy_html", "paytable_html", "rebuild_feature", "rules_html"]

Position = tuple[int, int]


# -- helpers --------------------------------------------------------------------------------
MOON = "MOON"
"""The prize symbol (the description's ``moon.symbol``)."""
HOLD = HoldAndRespin(MOON, f"{MOON}_EMPTY", RespinWords("Moon", "Moons", count_key="moons"))


def _values(c: Stage, positions: tuple[Position, ...], prizes: tuple[int, ...]) -> dict[Position, str]:
    return {(int(r), int(w)): c.fmt(p) for (r, w), p in zip(positions, prizes, strict=True)}


def _trigger(c: Stage) -> int:
    return int(c.desc["hold_and_respin"]["trigger"])


# -- base spins ---------------------------------------------------------------------------------
def _spin_started(c: Stage, e: ev.Spin) -> None:
    """The Moons this spin lands carry their values as soon as their reel stops; above the
    reels of the base game, the prize ladder."""
    if e.phase == "base":
        HOLD.resting_ladder(c)
    prizes = lookahead(c, MoonPrizes)
    if prizes is not None:
        c.view.cell_values = _values(c, prizes.positions, prizes.prizes)


def _prizes(e: MoonPrizes, c: Stage) -> Beat | None:
    c.view.cell_values = _values(c, e.positions, e.prizes)
    if len(e.positions) >= _trigger(c):
        return TriggerBeat(e)
    return None


class TriggerBeat(Timed):
    """5 or more Moons: they glow, then the Hold and Respin title card waits for Start."""

    def __init__(self, e: MoonPrizes) -> None:
        self.e = e
        self.stage = 0

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        v = c.view
        n = len(self.e.positions)
        v.line_rows = None
        v.highlights = sorted(_values(c, self.e.positions, self.e.prizes))
        v.line_label = f"{n} {symbol_name(c, MOON).upper()}S: HOLD AND RESPIN!"
        c.host.announce(f"{n} Moons: Hold and Respin is won!")
        self.ms = c.timing.line_show * 0.8

    def update(self, c: Stage, now: float) -> bool:
        quick = self.hurried or c.start_requested
        if self.stage == 0:
            if self.holding(now) and not quick:
                return False
            self.stage = 1
            self.t1 = now
            c.view.line_label = ""
            HOLD.held_card(c, len(self.e.positions), now)
        if now - self.t1 < c.timing.line_show and not quick:
            return False
        intro = c.view.overlay(FeatureCard)
        if intro is not None:
            ask_start(intro, c, "Hold and Respin: press Start to play the respins.")
        return True


# -- recovery -----------------------------------------------------------------------------------
def rebuild_feature(c: Stage, events: list[ev.Event]) -> None:
    """Recovery: the final board of a bonus (the bonus plays in one engine call, so a reload
    during its animation shows its end), or the title card waiting for Start, or the values
    on the last spin's Moons."""
    if HOLD.rebuild(c, events):
        return
    HOLD.resting_ladder(c)
    prizes = next((e for e in reversed(events) if isinstance(e, MoonPrizes)), None)
    if prizes is not None:
        c.view.cell_values = _values(c, prizes.positions, prizes.prizes)
    if c.session.in_round and c.pending_kind == "feature_start" and prizes is not None:
        c.view.highlights = sorted(c.view.cell_values)
        HOLD.held_card(c, len(prizes.positions), c.now - 10_000.0, waiting=True)


def _cash_label(e: ev.Event, c: Stage) -> str:
    """The 3-4 Moon cash win under the reels."""
    name = symbol_name(c, MOON).upper()
    return f"{getattr(e, 'count', 0)} {name}S PAY {c.fmt(int(getattr(e, 'win', 0)))}"


# -- pages ------------------------------------------------------------------------------------------
def _ladder_table(desc: dict[str, Any] | Any, stake: int, fmt: pages.Fmt) -> str:
    rows = "".join(
        f'<tr><th scope="row">{int(k)} Moons</th><td>{x_text(x)}</td><td>{fmt(x * stake)}</td></tr>'
        for k, x in sorted(desc["hold_and_respin"]["ladder"].items(), key=lambda kv: int(kv[0]))
    )
    return (
        '<table class="ladder"><thead><tr><th scope="col">Moons at the end</th><th scope="col">Prize</th>'
        f'<th scope="col">At this bet</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def paytable_html(ctx: PageContext) -> str:
    """The line pays at the current bet, the Wild, the Moon's prizes and the ladder, the lines."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    bet_per_line, lines = ctx.bet_per_line, ctx.lines
    stake = bet_per_line * lines
    wild = next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")
    moon = desc["moon"]["symbol"]
    hr = desc["hold_and_respin"]
    counts = " or ".join(str(n) for n in desc["moon"]["cash_counts"])
    top = names.get(desc.get("wild_pays_as", ""), "")
    # A line of Wilds alone needs a Wild on reel 1: say how it pays only if that can happen.
    alone = (
        f" A line of {escape(names[wild])}s alone pays as the {escape(top)}."
        if top and wild in desc["reels"]["base"][0]
        else ""
    )
    prizes = "".join(f"<li><b>{x_text(x)}</b> {fmt(pages.times(x, stake))}</li>" for x in desc["moon"]["prizes_x"])
    return "".join(
        [
            f'<p class="note">The values are multipliers of the total stake, not credits: a line win pays the '
            f"total stake of {fmt(stake)} ({lines} fixed lines at {fmt(bet_per_line)}) times the multiplier, "
            "shown with its amount at this bet. Line wins pay left to right on consecutive reels from the "
            "leftmost; only the highest win per line is paid, and wins on different lines add up.</p>",
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>Substitutes for all paying symbols except the {escape(names[moon])} and counts as the symbol "
            f"that forms the highest win on a line.{alone}</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, moon, names[moon], 80)}<div><h3>{escape(names[moon])}</h3>'
            f"<p>Every {escape(names[moon])} carries a cash prize, a multiple of the total bet, shown on it. "
            f"{counts} {escape(names[moon])}s anywhere pay their combined prize; {hr['trigger']} or more start "
            f'Hold and Respin.</p><ul class="prizes">{prizes}</ul></div></div>',
            pages.symbol_pays(desc, bet_per_line, fmt, ctx.assets, stake_lines=lines),
            f"<h3>Prize ladder</h3><p>Ending Hold and Respin with 10 or more {escape(names[moon])}s also pays "
            "the ladder prize for the count:</p>",
            _ladder_table(desc, stake, fmt),
            pages.line_shapes(desc),
        ]
    )


def _count_range(buy: Any, trigger: int) -> str:
    """The Moons a bought feature starts with, e.g. "6 to 10" (or "5 or more" if unknown)."""
    counts = sorted(int(k) for k in buy.get("moons", {}))
    if not counts:
        return f"{trigger} or more"
    return str(counts[0]) if counts[0] == counts[-1] else f"{counts[0]} to {counts[-1]}"


def rules_html(ctx: PageContext) -> str:
    """Every feature as implemented (the Feature Buy price at the current bet), then the
    shared paragraphs and the par-sheet figures."""
    desc, fmt, info, stake = ctx.desc, ctx.fmt, ctx.info, ctx.stake
    names = ctx.names
    moon = escape(names[desc["moon"]["symbol"]])
    wild = escape(next(s["name"] for s in desc["symbols"] if s["kind"] == "wild"))
    hr = desc["hold_and_respin"]
    buy = desc["feature_buy"]
    jp = desc["jackpot"]
    bets = desc["bets"]
    lines = bets["lines"][0] if len(bets["lines"]) == 1 else max(bets["lines"])
    prizes = ", ".join(x_text(x) for x in desc["moon"]["prizes_x"])
    counts = " or ".join(str(n) for n in desc["moon"]["cash_counts"])
    ladder = "; ".join(
        f"{int(k)} {moon}s: {x_text(x)}" for k, x in sorted(hr["ladder"].items(), key=lambda kv: int(kv[0]))
    )
    share = Fraction(str(jp["contribution"])) * 100
    minute = int(jp["deadline_minute"])
    deadline = f"{minute // 60:02d}:{minute % 60:02d} UTC"
    max_win = int(info.get("max_win_x", desc["max_win_x"]))
    price = buy["price_x"] * stake
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>5 reels, {desc['rows']} rows and {lines} fixed win lines. The total bet is {lines} × the bet per line; "
        "change it with + and − between rounds (Bet Max sets the highest bet, and pressing it again spins). "
        "The bet cannot be changed during the bonus.</p>",
        f"<h4>{wild}</h4><p>The {wild} substitutes for all paying symbols except the {moon} scatter and counts "
        "as the symbol that forms the highest winning combination on a single win line.</p>",
        f"<h4>{moon} prizes</h4><p>Each {moon} scatter holds a random cash prize, shown on it: {prizes} the "
        f"total bet. {counts} {moon}s anywhere on the reels award their combined cash prize, paid on top of "
        "line wins.</p>",
        f"<h4>Hold and Respin</h4><p>{hr['trigger']} or more {moon}s anywhere trigger Hold and Respin with "
        f"{hr['respins']} respins. The {moon}s are held in place; the other positions are emptied and spin on "
        f"every respin. Each new {moon} that lands is held too and resets the respins to {hr['respins']}. The "
        f"bonus ends when no {moon} lands in {hr['respins']} respins in a row, or when all "
        f"{hr['positions']} positions hold a {moon}. Then the combined prize of all {moon}s is paid.</p>",
        f"<h4>Prize ladder</h4><p>The ladder above the reels shows {len(hr['ladder'])} bonus prizes. Ending "
        f"the bonus with 10 or more {moon}s also pays the prize for that count, as a multiple of the total bet: "
        f"{ladder}.</p>",
        f"<h4>Feature Buy</h4><p>The Buy Bonus button buys Hold and Respin for {buy['price_x']}× the total bet: "
        f"<b>{fmt(price)}</b> at the current bet of {fmt(stake)}. The feature starts at once after you confirm, "
        f"with {_count_range(buy, hr['trigger'])} {moon}s already held. "
        "Buying does not contribute to the time jackpot. "
        "If you reload the page during a bought feature, you see its end result. "
        f"The return to player in Feature Buy is {pct(buy['target_rtp'])}.</p>",
        f"<h4>Time jackpot</h4><p>A progressive pot fed by {float(share):g}% of the stake of every spin "
        "(feature buys do not contribute), guaranteed to drop before its deadline: the first "
        f"{deadline} at least {jp['min_minutes']} minutes after the pot started. Every spin can win it, with "
        f"the chance stake ÷ (stake + {fmt(int(jp['odds_per_second']))} × the seconds left): the higher the "
        "stake and the nearer the deadline, the better the odds, up to certain once the deadline is reached. "
        "The jackpot panel shows the pot and the time left. The jackpot is paid on top of the round's win "
        "(no multiplier applies, and the max win does not limit it); then a new pot starts with a new deadline. "
        "In this free-play demo the jackpot belongs to your session alone.</p>",
        f"<h4>Max win</h4><p>The win of a round is limited to {max_win:,}× the total bet (a jackpot comes on "
        "top). When the limit is reached, the limit is paid.</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop="when Hold and Respin is won (if chosen; otherwise it plays the bonus)",
            recovery="A round interrupted while Hold and Respin waits for Start is not played for you: after a "
            "reload the bonus waits for your Start again, because the Start is yours to give (its outcome is "
            "already fixed by the round, so waiting changes nothing). The bonus is decided when it starts, so a "
            "reload during its respins shows its end result, and every finished round, its final board "
            "included, is listed in the history.",
            start="the bonus",
            rtp_note="the base game, the jackpot contribution included",
        ),
    ]
    return "".join(parts)


def buy_html(ctx: PageContext) -> str:
    """The Feature Buy offer: what it buys, the price at the current bet, the balance."""
    desc, fmt = ctx.desc, ctx.fmt
    names = ctx.names
    moon = desc["moon"]["symbol"]
    hr = desc["hold_and_respin"]
    buy = desc["feature_buy"]
    top = max(hr["ladder"].values())
    rtp = (ctx.info.get("mode_rtp") or {}).get("buy", buy["target_rtp"])
    price, balance = ctx.price, ctx.balance
    short = (
        f'<p class="buy-short">Your balance of {fmt(balance)} is not enough: lower the bet to buy the feature.</p>'
        if price > balance
        else ""
    )
    return (
        f'<div class="buy-offer">{img(ctx.assets, moon, names[moon], 88)}<div>'
        f'<p class="buy-lead">Start <b>Hold and Respin</b> now, with {_count_range(buy, hr["trigger"])} '
        f"{escape(names[moon])}s held.</p>"
        f'<p class="buy-price"><span>Price</span> <strong id="buy-price">{fmt(price)}</strong> '
        f"<small>{buy['price_x']}× your total bet of {fmt(ctx.stake)}</small></p></div></div>"
        f'<ul class="buy-facts"><li>{hr["respins"]} respins; every new {escape(names[moon])} resets them</li>'
        f"<li>10 or more {escape(names[moon])}s win the prize ladder, up to {x_text(top)}</li>"
        f"<li>Return to player in Feature Buy: {pct(rtp)}</li>"
        "<li>Does not contribute to the time jackpot</li></ul>"
        f'<p id="buy-summary" class="note">Balance {fmt(balance)}. The feature plays at once after you '
        "confirm; a reload during it shows its end result.</p>"
        f"{short}"
    )


SCREEN = GameScreen(
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
    win_label=_cash_label,
    feature="Hold and Respin",
    start_label="START BONUS",
    stop_label="Stop when Hold and Respin is won",
    handlers={
        **HOLD.handlers,
        MoonPrizes.type: _prizes,
    },
    rebuild=rebuild_feature,
    spin_started=_spin_started,
    extra_symbols=(HOLD.empty,),
    big_symbols=(MOON,),
    feature_names={FEATURE: "Hold and Respin"},
    history_board=HOLD.history_board,
    paytable=paytable_html,
    rules=rules_html,
    buy=buy_html,
)
register_screen("moon_spell", SCREEN)
