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
from ...beats import Beat, Timed, GameScreen, register_screen
from ...intro import FeatureCard, ask_start
from ...pages import PageContext, img, pct, x_text
from ...respins import HoldAndRespin, RespinWords, lookahead
from ...stage import Stage
from ...words import number, of, tr

__all__ = ["SCREEN", "buy_html", "paytable_html", "rebuild_feature", "rules_html"]

WORDS = of(__package__)
"""The game\'s own words (lang/<lang>.json beside this module)."""

Position = tuple[int, int]


# -- helpers --------------------------------------------------------------------------------
MOON = "MOON"
"""The prize symbol (the description's ``moon.symbol``)."""
HOLD = HoldAndRespin(MOON, f"{MOON}_EMPTY", RespinWords(count_key="moons", catalogue=WORDS))


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
        v.line_label = WORDS("trigger.label", n=number(n))
        c.host.announce(WORDS("trigger.say", n=number(n)))
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
            ask_start(intro, c, WORDS("trigger.prompt"))
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
    return WORDS("cash.label", n=number(int(getattr(e, "count", 0))), win=c.fmt(int(getattr(e, "win", 0))))


# -- pages ------------------------------------------------------------------------------------------
def _or(values: list[int] | tuple[int, ...]) -> str:
    """Counts as a list joined by "or": "3 or 4"."""
    shown = [number(int(n)) for n in values]
    text = shown[-1] if shown else ""
    for n in reversed(shown[:-1]):
        text = WORDS("list.or", a=n, b=text)
    return text


def _ladder_table(desc: dict[str, Any] | Any, stake: int, fmt: pages.Fmt) -> str:
    rows = "".join(
        f'<tr><th scope="row">{WORDS.html("ladder.row", n=number(int(k)))}</th><td>{x_text(x)}</td>'
        f"<td>{fmt(x * stake)}</td></tr>"
        for k, x in sorted(desc["hold_and_respin"]["ladder"].items(), key=lambda kv: int(kv[0]))
    )
    return (
        f'<table class="ladder"><thead><tr><th scope="col">{WORDS.html("ladder.col_count")}</th>'
        f'<th scope="col">{WORDS.html("ladder.col_prize")}</th>'
        f'<th scope="col">{WORDS.html("ladder.col_bet")}</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def paytable_html(ctx: PageContext) -> str:
    """The line pays at the current bet, the Wild, the Moon's prizes and the ladder, the lines."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    bet_per_line, lines = ctx.bet_per_line, ctx.lines
    stake = bet_per_line * lines
    wild = next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")
    moon = desc["moon"]["symbol"]
    hr = desc["hold_and_respin"]
    counts = _or(desc["moon"]["cash_counts"])
    top = names.get(desc.get("wild_pays_as", ""), "")
    # A line of Wilds alone needs a Wild on reel 1: say how it pays only if that can happen.
    alone = (
        " " + WORDS.html("pays.wild_alone", wild=escape(names[wild]), top=escape(top))
        if top and wild in desc["reels"]["base"][0]
        else ""
    )
    prizes = "".join(f"<li><b>{x_text(x)}</b> {fmt(pages.times(x, stake))}</li>" for x in desc["moon"]["prizes_x"])
    note = WORDS.html("pays.note", stake=fmt(stake), lines=number(lines), bet=fmt(bet_per_line))
    wild_text = WORDS.html("pays.wild", moon=escape(names[moon]))
    moon_text = WORDS.html("pays.moon", counts=counts, trigger=number(int(hr["trigger"])))
    return "".join(
        [
            f'<p class="note">{note}</p>',
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>{wild_text}{alone}</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, moon, names[moon], 80)}<div><h3>{escape(names[moon])}</h3>'
            f'<p>{moon_text}</p><ul class="prizes">{prizes}</ul></div></div>',
            pages.symbol_pays(desc, bet_per_line, fmt, ctx.assets, stake_lines=lines, names=names),
            f"<h3>{WORDS.html('pays.ladder_heading')}</h3><p>{WORDS.html('pays.ladder')}</p>",
            _ladder_table(desc, stake, fmt),
            pages.line_shapes(desc),
        ]
    )


def _count_range(buy: Any, trigger: int) -> str:
    """The Moons a bought feature starts with, e.g. "6 to 10" (or "5 or more" if unknown)."""
    counts = sorted(int(k) for k in buy.get("moons", {}))
    if not counts:
        return WORDS("range.or_more", n=number(trigger))
    if counts[0] == counts[-1]:
        return number(counts[0])
    return WORDS("range.to", a=number(counts[0]), b=number(counts[-1]))


def rules_html(ctx: PageContext) -> str:
    """Every feature as implemented (the Feature Buy price at the current bet), then the
    shared paragraphs and the par-sheet figures."""
    desc, fmt, info, stake = ctx.desc, ctx.fmt, ctx.info, ctx.stake
    names = ctx.names
    moon = escape(names[desc["moon"]["symbol"]])
    wild = escape(names[next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")])
    hr = desc["hold_and_respin"]
    buy = desc["feature_buy"]
    jp = desc["jackpot"]
    bets = desc["bets"]
    lines = bets["lines"][0] if len(bets["lines"]) == 1 else max(bets["lines"])
    prizes = ", ".join(x_text(x) for x in desc["moon"]["prizes_x"])
    counts = _or(desc["moon"]["cash_counts"])
    ladder = "; ".join(
        WORDS.html("help.ladder_rung", n=number(int(k)), x=x_text(x))
        for k, x in sorted(hr["ladder"].items(), key=lambda kv: int(kv[0]))
    )
    share = Fraction(str(jp["contribution"])) * 100
    minute = int(jp["deadline_minute"])
    deadline = f"{minute // 60:02d}:{minute % 60:02d} UTC"
    max_win = int(info.get("max_win_x", desc["max_win_x"]))
    price = buy["price_x"] * stake
    respins = number(int(hr["respins"]))
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>{WORDS.html('help.reels', rows=number(int(desc['rows'])), lines=number(int(lines)))}</p>",
        f"<h4>{wild}</h4><p>{WORDS.html('help.wild', wild=wild, moon=moon)}</p>",
        f"<h4>{WORDS.html('help.moon_heading', moon=moon)}</h4>"
        f"<p>{WORDS.html('help.moon', prizes=prizes, counts=counts)}</p>",
        f"<h4>{WORDS.html('help.hr_heading')}</h4><p>"
        + WORDS.html(
            "help.hr", trigger=number(int(hr["trigger"])), respins=respins, positions=number(int(hr["positions"]))
        )
        + "</p>",
        f"<h4>{WORDS.html('help.ladder_heading')}</h4><p>"
        + WORDS.html("help.ladder", rungs=number(len(hr["ladder"])), ladder=ladder)
        + "</p>",
        f"<h4>{WORDS.html('help.buy_heading')}</h4><p>"
        + WORDS.html(
            "help.buy",
            x=x_text(buy["price_x"]),
            price=f"<b>{fmt(price)}</b>",
            stake=fmt(stake),
            count=_count_range(buy, hr["trigger"]),
            rtp=pct(buy["target_rtp"]),
        )
        + "</p>",
        f"<h4>{WORDS.html('help.jackpot_heading')}</h4><p>"
        + WORDS.html(
            "help.jackpot",
            share=number(float(share), 6, trim=True),
            deadline=deadline,
            minutes=number(int(jp["min_minutes"])),
            odds=fmt(int(jp["odds_per_second"])),
        )
        + "</p>",
        f"<h4>{WORDS.html('help.max_heading')}</h4><p>{WORDS.html('help.max', x=number(max_win))}</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop=WORDS("help.autoplay_stop"),
            recovery=WORDS("help.recovery"),
            start=WORDS("help.start"),
            rtp_note=WORDS("help.rtp_note"),
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
    short = f'<p class="buy-short">{tr.html("buy.short", balance=fmt(balance))}</p>' if price > balance else ""
    # The lead in one piece (no <b> around the feature's name): a reader hears it as one text.
    lead = WORDS.html("offer.lead", feature=WORDS.html("feature"), count=_count_range(buy, hr["trigger"]))
    facts = (
        WORDS.html("offer.fact_respins", respins=number(int(hr["respins"]))),
        WORDS.html("offer.fact_ladder", x=x_text(top)),
        WORDS.html("offer.fact_rtp", rtp=pct(rtp)),
        WORDS.html("offer.fact_jackpot"),
    )
    return (
        f'<div class="buy-offer">{img(ctx.assets, moon, names[moon], 88)}<div>'
        f'<p class="buy-lead">{lead}</p>'
        f'<p class="buy-price"><span>{tr.html("buy.price")}</span> <strong id="buy-price">{fmt(price)}</strong> '
        f"<small>{tr.html('buy.of_bet', x=x_text(buy['price_x']), stake=fmt(ctx.stake))}</small></p></div></div>"
        f'<ul class="buy-facts">{"".join(f"<li>{f}</li>" for f in facts)}</ul>'
        f'<p id="buy-summary" class="note">{WORDS.html("offer.summary", balance=fmt(balance))}</p>'
        f"{short}"
    )


SCREEN = GameScreen(
    words=WORDS,
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
    win_label=_cash_label,
    handlers={
        **HOLD.handlers,
        MoonPrizes.type: _prizes,
    },
    rebuild=rebuild_feature,
    spin_started=_spin_started,
    extra_symbols=(HOLD.empty,),
    big_symbols=(MOON,),
    history_board=HOLD.history_board,
    paytable=paytable_html,
    rules=rules_html,
    buy=buy_html,
)
register_screen("moon_spell", SCREEN)
