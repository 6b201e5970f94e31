"""Moonshine on screen: a coin game. Grandma's wins (her own pays, or the pay she completes,
whichever is higher) and the Sheriff's scatter wins (× the total coins bet) labelled in
coins; three or more Moonshine jugs light up and the bonus card waits for Start; the
3 × 6 board of blocks is picked through the shared pick (`slotui.pick`) with the running
free spins and multiplier over it, until a Start block ends the pick and the unpicked
blocks are shown; the free spins then play with their multiplier beside the counter, and
the bonus total closes the feature. A reload mid-pick brings back the same board and the
blocks opened; a reload mid free spins the counter, the multiplier and the totals.

Every amount on the canvas is written as the meters show it (`Stage.amount`): coins, or
money when the player switched the meters to money.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from pyengine import events as ev

from ... import pages
from ...beats import Beat, Timed, GameScreen, WinsBeat, choice, register_screen, symbol_name
from ...canvas import Canvas
from ...freespins import FreeSpins, begin
from ...intro import FeatureCard, ask_start
from ...layout import BACKGROUND, FRAME, LOGO, Layout, Picture
from ...overlay import IntroCard
from ...pages import PageContext, img
from ...pick import PickLook, PickOverlay
from ...render import GOLD
from ...stage import Stage
from ...view import Banner
from ...words import number, of

__all__ = [
    "SCREEN",
    "MultiplierBadge",
    "TriggerBeat",
    "history_board",
    "paytable_html",
    "rebuild_feature",
    "rules_html",
    "tally",
]

WORDS = of(__package__)
"""The game\'s own words (lang/<lang>.json beside this module)."""

GRANDMA = "GRANDMA"
SHERIFF = "SHERIFF"
BONUS = "BONUS"
FEATURE = "moonshine_bonus"
"""The feature's name in a round's ``features`` and in the description."""
PICK_NAME = "moonshine"
"""The name of the bonus's pick (`ev.PickStart.name`)."""

# The block faces: a closed block, and what an opened one shows.
BLOCK = "block"
BLOCK_FACES = {"spin+1": "block_spin", "multiplier+1": "block_multiplier", "start": "block_start"}
BLOCK_WORDS = {"spin+1": "block.spin", "multiplier+1": "block.multiplier", "start": "block.start"}
"""The catalogue keys of the blocks' words."""


def block_word(label: str) -> str:
    """A block's words ("+1 SPIN"), in the language spoken now."""
    key = BLOCK_WORDS.get(label)
    return WORDS(key) if key else label.upper()


def _block_size(L: Layout) -> tuple[float, float]:
    """Blocks are rasterized a little above the largest size the board draws them at."""
    return L.cell * 1.1, L.cell * 1.1


BLOCK_PICTURES = tuple(Picture(name, _block_size) for name in (BLOCK, *BLOCK_FACES.values()))

Position = tuple[int, int]


# -- what the description says -------------------------------------------------------------------
def _bonus(c: Stage | Mapping[str, Any]) -> Mapping[str, Any]:
    desc = c if isinstance(c, Mapping) else c.desc
    found: Mapping[str, Any] = desc[FEATURE]
    return found


def _shown(c: Stage, symbol: str) -> list[Position]:
    """Where ``symbol`` shows on the settled reels."""
    reels = c.view.reels
    return [
        (col, row)
        for col, r in enumerate(reels.reels)
        for row in range(reels.rows)
        if r.symbol_at(r.stop + row) == symbol
    ]


def _trigger_count(events: list[ev.Event] | tuple[ev.Event, ...]) -> int:
    """The bonus symbols of the round's base spin."""
    spin = next((e for e in events if isinstance(e, ev.Spin) and e.phase == "base"), None)
    if spin is None:
        return 0
    return sum(col.count(BONUS) for col in spin.window)


def award(bonus: Mapping[str, Any], count: int, picked: list[str] | tuple[str, ...]) -> tuple[int, int]:
    """(free spins, multiplier) after the blocks ``picked``, from ``count`` bonus symbols."""
    start = bonus["start"].get(str(count), {"spins": 0, "multiplier": 1})
    spins, multiplier = int(start["spins"]), int(start["multiplier"])
    for label in picked:
        block = bonus["blocks"].get(label)
        if block is not None:
            spins += int(block["spins"])
            multiplier += int(block["multiplier"])
    return spins, multiplier


def tally(c: Stage, overlay: PickOverlay) -> str:
    """The line over the board: the free spins and the multiplier the blocks opened so far
    give (`PickLook.tally`)."""
    if overlay.name != PICK_NAME:
        return ""
    picked = [cell.prize for cell in overlay.cells if cell.picked and cell.prize is not None]
    spins, multiplier = award(_bonus(c), _trigger_count(c.session.round_events), picked)
    return WORDS("tally", spins=number(spins), multiplier=number(multiplier))


LOOK = PickLook(
    titles={PICK_NAME: "bonus_title"},
    label=lambda name, prize: block_word(prize),
    sprite=lambda name, prize: BLOCK_FACES.get(prize),
    cover=BLOCK,
    tally=tally,
    prompt="pick.prompt",
    ending="pick.ending",
    words=WORDS,
)


# -- the wins ------------------------------------------------------------------------------------
def _label(c: Stage, w: ev.Event, multiplier: int) -> str:
    """One win under the reels, in the meters' units: Grandma's own pays, the pay she
    completes, the Sheriff's × the total coins bet; × the multiplier in the free spins."""
    times = WORDS("win.times", multiplier=number(multiplier)) if multiplier > 1 else ""
    if isinstance(w, ev.LineWin):
        name = symbol_name(c, w.symbol).upper()
        count = number(w.count)
        if w.symbol == GRANDMA:
            what = WORDS("win.grandmas", count=count)
        elif any((int(r), int(row)) in _shown(c, GRANDMA) for r, row in w.positions):
            what = WORDS("win.with_grandma", count=count, name=name)
        else:
            what = WORDS("win.symbols", count=count, name=name)
        return WORDS("win.line", line=number(w.line), what=what, times=times, win=c.amount(w.win))
    if isinstance(w, ev.ScatterWin):
        return WORDS(
            "win.scatter", count=number(w.count), multiplier=number(w.multiplier), times=times, win=c.amount(w.win)
        )
    return WORDS("win.other", win=c.amount(int(getattr(w, "win", 0))))


class MoonshineWins(WinsBeat):
    """The shared wins beat, each win labelled in the game's words."""

    def update(self, c: Stage, now: float) -> bool:
        index = self.index
        done = super().update(c, now)
        if not done and self.index != index and 0 <= self.index < len(self.wins):
            c.view.line_label = _label(c, self.wins[self.index], int(c.scratch.get("multiplier", 1)))
        return done


def _wins_beat(wins: list[ev.Event], c: Stage) -> Beat:
    return MoonshineWins(wins, c)


# -- the trigger ---------------------------------------------------------------------------------
def _card(c: Stage, count: int, *, waiting: bool, started: float) -> FeatureCard:
    spins, multiplier = award(_bonus(c), count, ())
    most = _bonus(c)["most"].get(str(count), {"spins": spins, "multiplier": multiplier})
    card = FeatureCard(
        WORDS("bonus_title"),
        (
            WORDS("card.start", count=number(count), spins=number(spins), multiplier=number(multiplier)),
            WORDS("card.most", spins=number(int(most["spins"])), multiplier=number(int(most["multiplier"]))),
        ),
        BONUS,
        started,
        waiting=waiting,
    )
    c.view.remove(IntroCard)
    c.view.overlays.append(card)
    return card


class TriggerBeat(Timed):
    """Three or more jugs: they glow and are named, then the bonus card waits for Start."""

    def __init__(self, count: int, positions: list[Position]) -> None:
        self.count = count
        self.positions = positions

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        v = c.view
        v.line_rows = None
        v.highlights = sorted(self.positions)
        v.line_label = WORDS("trigger.label", count=number(self.count))
        c.host.announce(WORDS("trigger.said", count=number(self.count)))
        self.ms = c.timing.line_show * (0.5 if c.reduced_motion else 1.0)

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now) and not c.start_requested:
            return False
        c.view.line_label = ""
        if c.autoplay is None and c.pending_kind == "feature_start":
            card = _card(c, self.count, waiting=False, started=now)
            ask_start(card, c, WORDS("trigger.ask"))
        return True


def _decision(e: ev.DecisionPending, c: Stage) -> Beat | None:
    if e.kind != "feature_start":
        return None
    return TriggerBeat(_trigger_count(c.session.round_events), _shown(c, BONUS))


# -- the free spins ------------------------------------------------------------------------------
@dataclass(slots=True)
class MultiplierBadge:
    """The multiplier of the free spins, in a jug's glow at the top right (in ``View.overlays``)."""

    multiplier: int
    started: float
    still: bool = False
    """Reduced motion: no pulse."""

    def band_side(self, layout: Layout) -> float:
        """The band's right side the badge takes, with a margin (`View.band_side`)."""
        return layout.top_h * 0.86 + layout.width * 0.035

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        size = L.top_h * 0.86
        x = L.width - size - L.width * 0.015
        y = L.top_h * 0.07
        pulse = 1.0 if self.still else 1.0 + 0.06 * math.sin((now - self.started) / 260.0)
        canvas.fill_rect(x, y, size, size, "rgba(20,12,6,0.72)")
        canvas.stroke_rect(x, y, size, size, GOLD, max(2.0, size * 0.04))
        if canvas.has_sprite(BONUS):
            canvas.push(alpha=0.45)
            canvas.sprite(BONUS, x + size * 0.1, y + size * 0.05, size * 0.8, size * 0.8)
            canvas.pop()
        canvas.text(f"{self.multiplier}×", x + size / 2, y + size * 0.68, size * 0.5 * pulse, GOLD)


def _show_badge(c: Stage, multiplier: int) -> None:
    c.scratch["multiplier"] = multiplier
    badge = c.view.overlay(MultiplierBadge)
    if badge is None:
        c.view.overlays.insert(0, MultiplierBadge(multiplier, c.now, still=c.reduced_motion))
    else:
        badge.multiplier = multiplier


class AwardBeat(Timed):
    """The pick is over: "8 FREE SPINS AT 2×", then the free spins begin."""

    def __init__(self, e: ev.FreeSpinsAwarded) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        begin(c, self.e)
        picked = [x.prize for x in c.session.round_events if isinstance(x, ev.PickReveal) and x.name == PICK_NAME]
        _, multiplier = award(_bonus(c), _trigger_count(c.session.round_events), picked)
        _show_badge(c, multiplier)
        count, times = number(self.e.count), number(multiplier)
        c.view.banner = Banner(
            WORDS("award.title", count=count), WORDS("award.detail", multiplier=times), now, tier=2
        )
        c.refresh_status()
        c.host.announce(WORDS("award.said", count=count, multiplier=times))
        self.ms = c.timing.line_show * (0.8 if c.reduced_motion else 1.6)

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now):
            return False
        c.view.banner = None
        return True


def _multiplier(e: ev.WinMultiplier, c: Stage) -> Beat | None:
    _show_badge(c, e.multiplier)
    c.refresh_status()
    return None


def _ended(c: Stage) -> None:
    c.view.remove(MultiplierBadge)
    c.scratch.pop("multiplier", None)


FREE_SPINS = FreeSpins(
    intro=lambda e, c: AwardBeat(e),
    ended=_ended,
)


def _status(c: Stage) -> str:
    text = FREE_SPINS.status(c)
    multiplier = int(c.scratch.get("multiplier", 1))
    return f"{text}  ·  {multiplier}×" if text else ""


def _choice(e: ev.ChoiceMade, c: Stage) -> Beat | None:
    if e.kind == "feature_start":
        c.view.highlights = []
        c.view.line_label = ""
    return choice(e, c)


# -- recovery ------------------------------------------------------------------------------------
def rebuild_feature(c: Stage, events: list[ev.Event]) -> None:
    """Recovery: the bonus card waiting for Start, or the free spins in play (counter,
    multiplier, totals). The board of a pick in play is the shared pick's recovery."""
    if c.session.in_round and c.pending_kind == "feature_start":
        count = _trigger_count(events)
        c.view.highlights = sorted(_shown(c, BONUS))
        _card(c, count, waiting=True, started=c.now - 10_000.0)
        return
    if not c.session.in_round or not FREE_SPINS.restore(c, events):
        return
    picked = [e.prize for e in events if isinstance(e, ev.PickReveal) and e.name == PICK_NAME]
    _, multiplier = award(_bonus(c), _trigger_count(events), picked)
    _show_badge(c, multiplier)
    c.view.phase = "free"
    c.refresh_status()


# -- pages -----------------------------------------------------------------------------------------
def _coins(ctx: PageContext) -> int:
    """Coins per line at the page's bet."""
    per_line = ctx.lines * ctx.bet_per_line
    return ctx.stake // per_line if per_line else 1


def _pay_rows(pays: Mapping[str, int], coins: int, coin: int, fmt: pages.Fmt) -> str:
    return "".join(
        f"<li><b>{k}×</b> {number(int(v))} <small>({escape(fmt(int(v) * coins * coin))})</small></li>"
        for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
        if v
    )


def _b(key: str) -> str:
    """The words of ``key`` in bold (HTML, for a field of `Lookup.html`)."""
    return f"<b>{escape(WORDS(key))}</b>"


def paytable_html(ctx: PageContext) -> str:
    """Pays in coins per coin bet (with their money at the current bet), Grandma's own pays,
    the Sheriff × the total coins bet, the jug and the board, the lines."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    coin, coins = ctx.bet_per_line, _coins(ctx)
    total_coins = ctx.lines * coins
    bonus = _bonus(desc)
    grandma = desc["paytable"].get(GRANDMA, {})
    sheriff = ", ".join(
        WORDS(
            "paytable.sheriff_pay",
            count=k,
            pay=number(int(v)),
            total=number(total_coins),
            coins=number(int(v) * total_coins),
            money=fmt(int(v) * ctx.stake),
        )
        for k, v in sorted(desc["scatter_pays"].items(), key=lambda kv: int(kv[0]))
        if v
    )
    starts = ", ".join(
        WORDS("paytable.start", count=k, spins=number(int(v["spins"])), multiplier=number(int(v["multiplier"])))
        for k, v in sorted(bonus["start"].items())
    )
    note = WORDS.html(
        "paytable.note",
        unit=_b("paytable.unit"),
        coins=number(coins),
        coin=escape(fmt(coin)),
        total=number(total_coins),
        stake=escape(fmt(ctx.stake)),
        lines=number(ctx.lines),
    )
    out = [
        f'<p class="note">{note}</p>',
        f'<div class="pay special">{img(ctx.assets, GRANDMA, names[GRANDMA], 80)}<div>'
        f"<h3>{escape(names[GRANDMA])}</h3><p>"
        + WORDS.html("paytable.wild", sheriff=escape(names[SHERIFF]), bonus=escape(names[BONUS]))
        + f'</p><ul class="prizes">{_pay_rows(grandma, coins, coin, fmt)}</ul>'
        f"<p>{WORDS.html('paytable.grandma_line')}</p></div></div>",
        f'<div class="pay special">{img(ctx.assets, SHERIFF, names[SHERIFF], 80)}<div>'
        f"<h3>{escape(names[SHERIFF])}</h3><p>"
        + WORDS.html(
            "paytable.scatter", unit=_b("paytable.total_coins"), total=number(total_coins), pays=escape(sheriff)
        )
        + "</p></div></div>",
        f'<div class="pay special">{img(ctx.assets, BONUS, names[BONUS], 80)}<div>'
        f"<h3>{escape(names[BONUS])}</h3><p>{WORDS.html('paytable.bonus', starts=escape(starts))}</p></div></div>",
        '<div class="pays">',
    ]
    for sid, pays in desc["paytable"].items():
        if sid == GRANDMA:
            continue
        rows = _pay_rows(pays, coins, coin, fmt)
        out.append(f'<div class="pay">{img(ctx.assets, sid, names[sid])}<ul>{rows}</ul></div>')
    out.append("</div>")
    out.append(_board_table(bonus))
    out.append(pages.line_shapes(desc))
    return "".join(out)


def _board_table(bonus: Mapping[str, Any]) -> str:
    rows = "".join(
        f'<tr><th scope="row">{escape(block_word(label))}</th><td>{number(int(n))}</td>'
        f"<td>{escape(_block_text(bonus, label))}</td></tr>"
        for label, n in bonus["board"].items()
    )
    intro = WORDS.html("board.intro", rows=number(int(bonus["rows"])), columns=number(int(bonus["columns"])))
    return (
        f"<h3>{WORDS.html('board.heading')}</h3><p>{intro}</p>"
        f'<table class="ladder"><thead><tr><th scope="col">{WORDS.html("board.col_block")}</th>'
        f'<th scope="col">{WORDS.html("board.col_count")}</th>'
        f'<th scope="col">{WORDS.html("board.col_opened")}</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _block_text(bonus: Mapping[str, Any], label: str) -> str:
    if label in bonus["stoppers"]:
        return WORDS("block_text.start")
    block = bonus["blocks"][label]
    parts = []
    if block["spins"]:
        parts.append(WORDS.count("block_text.spins", int(block["spins"])))
    if block["multiplier"]:
        parts.append(WORDS("block_text.multiplier", n=number(int(block["multiplier"]))))
    if len(parts) == 2:
        return WORDS("block_text.both", first=parts[0], second=parts[1])
    return "".join(parts)


def rules_html(ctx: PageContext) -> str:
    """The rules as implemented (coins, Grandma, the Sheriff, the bonus, the multiplier's
    reading, the meters), then the shared paragraphs and the figures."""
    desc, fmt = ctx.desc, ctx.fmt
    bets = desc["bets"]
    bonus = _bonus(desc)
    sizes = ", ".join(fmt(v) for v in bets["bet_per_line"])
    coins = bets["coins"]
    lines_max = number(max(bets["lines"]))
    starts = "; ".join(
        WORDS(
            "rules.start_item",
            count=k,
            spins=number(int(v["spins"])),
            multiplier=number(int(v["multiplier"])),
            most_spins=number(int(bonus["most"][k]["spins"])),
            most_multiplier=number(int(bonus["most"][k]["multiplier"])),
        )
        for k, v in sorted(bonus["start"].items())
    )
    board = ", ".join(
        WORDS("rules.board_item", n=number(int(n)), block=block_word(label)) for label, n in bonus["board"].items()
    )

    def section(heading: str, key: str, **args: str) -> str:
        return f"<h4>{WORDS.html(heading)}</h4><p>{WORDS.html(key, **args)}</p>"

    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>{WORDS.html('rules.reels', rows=number(int(desc['rows'])), lines=lines_max)}</p>",
        section(
            "rules.coins_heading",
            "rules.coins",
            coin_size=_b("rules.coin_size"),
            sizes=escape(sizes),
            coins_per_line=_b("rules.coins_per_line"),
            low=number(int(coins[0])),
            high=number(int(coins[-1])),
            bet_max=_b("rules.bet_max"),
            lines=lines_max,
        ),
        section("rules.lines_heading", "rules.lines"),
        section("rules.grandma_heading", "rules.grandma"),
        section("rules.sheriff_heading", "rules.sheriff"),
        section(
            "rules.bonus_heading",
            "rules.bonus",
            starts=escape(starts),
            rows=number(int(bonus["rows"])),
            columns=number(int(bonus["columns"])),
            board=escape(board),
        ),
        section("rules.free_heading", "rules.free", multiplier=_b("rules.free_multiplier")),
        pages.shared_rules(
            ctx,
            autoplay_stop=WORDS("rules.autoplay_stop"),
            recovery=WORDS("rules.recovery"),
            start=WORDS("rules.start"),
        ),
    ]
    return "".join(parts)


def history_board(record: Any, fmt: pages.Fmt, assets: str, names: Mapping[str, str]) -> str:
    """A round's bonus in the history: the blocks picked, the free spins and multiplier, the
    bonus win ("" for a round without the bonus)."""
    picked = [e.prize for e in record.events if isinstance(e, ev.PickReveal) and e.name == PICK_NAME]
    end = next((e for e in record.events if isinstance(e, ev.FreeSpinsEnd)), None)
    awarded = next((e for e in record.events if isinstance(e, ev.FreeSpinsAwarded)), None)
    if end is None or awarded is None:
        return ""
    multiplier = next((e.multiplier for e in record.events if isinstance(e, ev.WinMultiplier)), 1)
    blocks = ", ".join(block_word(p) for p in picked)
    text = WORDS.html(
        "history",
        blocks=escape(blocks),
        count=number(awarded.count),
        multiplier=number(int(multiplier)),
        win=escape(fmt(end.win)),
    )
    return f'<p class="h-bonus">{text}</p>'


SCREEN = GameScreen(
    words=WORDS,
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
    handlers={
        **FREE_SPINS.handlers,
        ev.DecisionPending.type: lambda e, c: _decision(e, c),
        ev.ChoiceMade.type: _choice,
        ev.WinMultiplier.type: _multiplier,
    },
    wins_beat=_wins_beat,
    rebuild=rebuild_feature,
    status=_status,
    big_symbols=(BONUS,),
    pictures=(BACKGROUND, FRAME, LOGO, *BLOCK_PICTURES),
    paytable=paytable_html,
    rules=rules_html,
    history_board=history_board,
    pick_look=LOOK,
)
register_screen("moonshine", SCREEN)
