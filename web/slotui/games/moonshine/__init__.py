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
from ...freespins import FreeSpins, FreeSpinsWords, begin
from ...intro import FeatureCard, ask_start
from ...layout import BACKGROUND, FRAME, LOGO, Layout, Picture
from ...overlay import IntroCard
from ...pages import PageContext, img
from ...pick import PickLook, PickOverlay
from ...render import GOLD
from ...stage import Stage
from ...view import Banner

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
BLOCK_WORDS = {"spin+1": "+1 SPIN", "multiplier+1": "+1×", "start": "START"}


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
    return f"FREE SPINS {spins}  ·  MULTIPLIER {multiplier}×"


LOOK = PickLook(
    titles={PICK_NAME: "MOONSHINE BONUS"},
    label=lambda name, prize: BLOCK_WORDS.get(prize, prize.upper()),
    sprite=lambda name, prize: BLOCK_FACES.get(prize),
    cover=BLOCK,
    tally=tally,
    prompt="PICK A BLOCK",
    ending="THE OTHER BLOCKS HELD",
)


# -- the wins ------------------------------------------------------------------------------------
def _label(c: Stage, w: ev.Event, multiplier: int) -> str:
    """One win under the reels, in the meters' units: Grandma's own pays, the pay she
    completes, the Sheriff's × the total coins bet; × the multiplier in the free spins."""
    times = f" × {multiplier}" if multiplier > 1 else ""
    if isinstance(w, ev.LineWin):
        name = symbol_name(c, w.symbol).upper()
        if w.symbol == GRANDMA:
            what = f"{w.count} GRANDMAS"
        elif any((int(r), int(row)) in _shown(c, GRANDMA) for r, row in w.positions):
            what = f"{w.count} {name} WITH GRANDMA"
        else:
            what = f"{w.count} {name}"
        return f"LINE {w.line} · {what}{times} · {c.amount(w.win)}"
    if isinstance(w, ev.ScatterWin):
        return f"{w.count} SHERIFFS · {w.multiplier} × TOTAL BET{times} · {c.amount(w.win)}"
    return f"WIN {c.amount(int(getattr(w, 'win', 0)))}"


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
        "MOONSHINE BONUS",
        (
            f"{count} JUGS: {spins} FREE SPINS AT {multiplier}×",
            f"PICK BLOCKS FOR UP TO {most['spins']} SPINS AT {most['multiplier']}×",
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
        v.line_label = f"{self.count} MOONSHINE JUGS: THE BONUS!"
        c.host.announce(f"{self.count} Moonshine Bonus symbols: the Moonshine Bonus is won!")
        self.ms = c.timing.line_show * (0.5 if c.reduced_motion else 1.0)

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now) and not c.start_requested:
            return False
        c.view.line_label = ""
        if c.autoplay is None and c.pending_kind == "feature_start":
            card = _card(c, self.count, waiting=False, started=now)
            ask_start(card, c, "Moonshine Bonus: press Start to pick the blocks.")
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
        c.view.banner = Banner(f"{self.e.count} FREE SPINS", f"EVERY WIN × {multiplier}", now, tier=2)
        c.refresh_status()
        c.host.announce(f"{self.e.count} free spins at {multiplier} times.")
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
    FreeSpinsWords(
        counter="FREE SPIN {n} OF {total}  ·  WIN {win}",
        end="MOONSHINE BONUS WIN",
        end_detail="{win} IN {spins} FREE SPINS",
        end_said="The Moonshine Bonus is over: {win} won in {spins} free spins.",
    ),
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
        f"<li><b>{k}×</b> {int(v):,} <small>({fmt(int(v) * coins * coin)})</small></li>"
        for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
        if v
    )


def paytable_html(ctx: PageContext) -> str:
    """Pays in coins per coin bet (with their money at the current bet), Grandma's own pays,
    the Sheriff × the total coins bet, the jug and the board, the lines."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    coin, coins = ctx.bet_per_line, _coins(ctx)
    total_coins = ctx.lines * coins
    bonus = _bonus(desc)
    grandma = desc["paytable"].get(GRANDMA, {})
    sheriff = ", ".join(
        f"{k}: {int(v)} × {total_coins} = {int(v) * total_coins:,} coins ({fmt(int(v) * ctx.stake)})"
        for k, v in sorted(desc["scatter_pays"].items(), key=lambda kv: int(kv[0]))
        if v
    )
    starts = ", ".join(f"{k}: {v['spins']} free spins at {v['multiplier']}×" for k, v in sorted(bonus["start"].items()))
    out = [
        f'<p class="note">Pays are in <b>coins per coin bet</b>: a line win pays the value × the coins per line '
        f"({coins} at {fmt(coin)} a coin: {total_coins} coins, {fmt(ctx.stake)}, on {ctx.lines} lines). "
        "Shown in brackets: the money at this bet. Line wins pay left to right from reel 1 on enabled lines; "
        "only the highest win per line is paid, and wins on different lines add up.</p>",
        f'<div class="pay special">{img(ctx.assets, GRANDMA, names[GRANDMA], 80)}<div>'
        f"<h3>{escape(names[GRANDMA])}</h3><p>Wild: substitutes for every symbol except the "
        f"{escape(names[SHERIFF])} and the {escape(names[BONUS])}. Her own combinations pay:</p>"
        f'<ul class="prizes">{_pay_rows(grandma, coins, coin, fmt)}</ul>'
        "<p>A line that starts with Grandmas pays the higher of her own pay and the pay she completes.</p>"
        "</div></div>",
        f'<div class="pay special">{img(ctx.assets, SHERIFF, names[SHERIFF], 80)}<div>'
        f"<h3>{escape(names[SHERIFF])}</h3><p>Scatter: 3 or more anywhere pay × the <b>total coins bet</b> "
        f"({total_coins} coins): {escape(sheriff)}. Added to the line wins.</p></div></div>",
        f'<div class="pay special">{img(ctx.assets, BONUS, names[BONUS], 80)}<div>'
        f"<h3>{escape(names[BONUS])}</h3><p>No pay of its own: 3, 4 or 5 anywhere start the Moonshine Bonus "
        f"({escape(starts)}). Grandma does not count as one.</p></div></div>",
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
        f'<tr><th scope="row">{escape(BLOCK_WORDS.get(label, label))}</th><td>{int(n)}</td>'
        f"<td>{escape(_block_text(bonus, label))}</td></tr>"
        for label, n in bonus["board"].items()
    )
    return (
        f"<h3>The Moonshine Bonus board</h3><p>{bonus['rows']} rows of {bonus['columns']} blocks, placed when "
        "the bonus starts:</p>"
        '<table class="ladder"><thead><tr><th scope="col">Block</th><th scope="col">On the board</th>'
        f'<th scope="col">Opened, it</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _block_text(bonus: Mapping[str, Any], label: str) -> str:
    if label in bonus["stoppers"]:
        return "starts the free spins (adds nothing)"
    block = bonus["blocks"][label]
    parts = []
    if block["spins"]:
        parts.append(f"adds {block['spins']} free spin" + ("s" if block["spins"] > 1 else ""))
    if block["multiplier"]:
        parts.append(f"adds {block['multiplier']} to the multiplier")
    return " and ".join(parts)


def rules_html(ctx: PageContext) -> str:
    """The rules as implemented (coins, Grandma, the Sheriff, the bonus, the multiplier's
    reading, the meters), then the shared paragraphs and the figures."""
    desc, fmt = ctx.desc, ctx.fmt
    bets = desc["bets"]
    bonus = _bonus(desc)
    sizes = ", ".join(fmt(v) for v in bets["bet_per_line"])
    coins = bets["coins"]
    lines_max = max(bets["lines"])
    starts = "; ".join(
        f"{k} symbols: {v['spins']} free spins at {v['multiplier']}×, at most {bonus['most'][k]['spins']} "
        f"spins and {bonus['most'][k]['multiplier']}×"
        for k, v in sorted(bonus["start"].items())
    )
    board = ", ".join(f"{n} × {BLOCK_WORDS.get(label, label)}" for label, n in bonus["board"].items())
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>5 reels, {desc['rows']} rows and 1 to {lines_max} win lines, chosen with the Lines stepper "
        f"(enabling n lines enables lines 1 to n; + past {lines_max} starts again at 1).</p>",
        "<h4>A coin game</h4><p>Choose the <b>coin size</b> "
        f"({escape(sizes)}) and the <b>coins per line</b> ({coins[0]} to {coins[-1]}). Every pay is counted in "
        "coins, and coins × coin size = money. The total bet is lines × coins per line coins. In the game the "
        "meters (balance, total bet, win) count coins of the current coin size, and so do the wins written on "
        "the reels; the button beside the meters shows them in money instead, and back. A balance that is not "
        "a whole number of coins (left from another coin size) shows its whole coins; the money view shows it "
        "exactly. Outside the game (the lobby, the history, the messages to an embedding page) amounts are "
        f"money. <b>Bet Max</b> sets {lines_max} lines and {coins[-1]} coins, keeping the coin size; pressing it "
        "again spins. The bet cannot change during the bonus.</p>",
        "<h4>Line wins</h4><p>Symbols pay left to right on an enabled line, next to each other from reel 1. "
        "Only the highest combination on each enabled line is paid; wins on different lines add up. A line "
        "win pays its value in coins × the coins per line.</p>",
        "<h4>Grandma</h4><p>Grandma on her rocking chair is wild: she substitutes for every symbol except the "
        "Sheriff and the Moonshine Bonus symbol. Grandmas on a line from reel 1 pay their own pays; the line "
        "pays the higher of Grandma's own combination and the combination she completes with the first other "
        "symbol (on a tie Grandma's own is shown). A Sheriff or a jug ends a run of Grandmas.</p>",
        "<h4>The Sheriff</h4><p>The Sheriff is the scatter: 3, 4 or 5 anywhere on the reels, on or off an "
        "enabled line, pay the paytable value × the total coins bet, added to the line wins. Grandma does not "
        "stand in for him. He pays in the free spins too, × their multiplier.</p>",
        "<h4>Moonshine Bonus</h4><p>3, 4 or 5 Moonshine Bonus jugs anywhere (Grandma does not count) start the "
        f"bonus: {escape(starts)}. Press Start; a board of {bonus['rows']} rows of {bonus['columns']} blocks "
        f"({escape(board)}) is placed before your first pick, shuffled at random. Open blocks one at a time "
        "with a click or tap, the digit keys 1 to 9 (the first nine blocks), or the arrow keys and Enter; each "
        "block adds what it shows, and the free spins and the multiplier reached so far show above the board. "
        "A Start block ends the pick, and the blocks left closed are shown. Which blocks you open cannot "
        "change what the bonus pays: the board is fixed before the first pick.</p>",
        "<h4>Free spins</h4><p>The free spins play at the lines, coins and coin size of the spin that started "
        "them, on reels of their own. The <b>multiplier multiplies every win of every free spin</b>: its line "
        "wins, Grandma's and the Sheriff's; it is shown beside the counter. The triggering spin is paid at 1×. "
        "The free spins cannot be retriggered. The bonus win is collected automatically at the end and added "
        "to the win of the spin that started it. There is no gamble and no win limit.</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop="when the Moonshine Bonus is won (if chosen; otherwise it opens the first closed block "
            "each time and plays the free spins)",
            recovery="If you reload while the bonus waits for Start, it waits again. A reload during the pick "
            "brings back the same board with the blocks you opened; a reload during the free spins continues "
            "with the same counter, multiplier and totals, and the round ends exactly as it would have.",
            start="the Moonshine Bonus",
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
    blocks = ", ".join(BLOCK_WORDS.get(p, p) for p in picked)
    return (
        f'<p class="h-bonus">Moonshine Bonus: blocks {escape(blocks)}; {awarded.count} free spins at '
        f"{multiplier}×, bonus win {escape(fmt(end.win))}</p>"
    )


SCREEN = GameScreen(
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
    feature="the Moonshine Bonus",
    start_label="START BONUS",
    stop_label="Stop when the Moonshine Bonus is won",
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
    feature_names={FEATURE: "Moonshine Bonus"},
    paytable=paytable_html,
    rules=rules_html,
    history_board=history_board,
    pick_look=LOOK,
)
register_screen("moonshine", SCREEN)
