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

from . import pages
from .beats import Beat, GameScreen, register_screen, symbol_name
from .holdrespin import Cell, HoldGrid, LadderView, RespinCounter
from .intro import FeatureCard
from .overlay import IntroCard
from .pages import PageContext, img, pct, x_text
from .stage import Stage
from .view import Banner

__all__ = ["SCREEN", "buy_html", "paytable_html", "rebuild_feature", "rules_html"]

Position = tuple[int, int]
FEATURE = "hold_and_respin"


# -- helpers --------------------------------------------------------------------------------
def _moon(c: Stage) -> str:
    return str(c.desc["moon"]["symbol"])


def _noun(c: Stage) -> str:
    """What the board holds, as the counter and the ladder say it ("MOONS")."""
    return f"{symbol_name(c, _moon(c)).upper()}S"


def _card(c: Stage, card: FeatureCard) -> FeatureCard:
    """Put the title card up (in place of any other intro)."""
    c.view.remove(IntroCard)
    c.view.overlays.append(card)
    return card


def _held_card(c: Stage, n: int, now: float, *, waiting: bool = False) -> FeatureCard:
    respins = c.desc["hold_and_respin"]["respins"]
    lines = (f"{n} MOONS HELD · {respins} RESPINS", "EVERY NEW MOON RESETS THE RESPINS")
    return _card(c, FeatureCard("HOLD AND RESPIN", lines, _moon(c), now, waiting=waiting, prompt="PRESS START"))


def _values(c: Stage, positions: tuple[Position, ...], prizes: tuple[int, ...]) -> dict[Position, str]:
    return {(int(r), int(w)): c.fmt(p) for (r, w), p in zip(positions, prizes, strict=True)}


def _rungs(c: Stage) -> tuple[tuple[int, str, str], ...]:
    stake = c.session.bet.total
    ladder: dict[str, int] = c.desc["hold_and_respin"]["ladder"]
    return tuple((int(k), f"{x:,}×", c.fmt(x * stake)) for k, x in sorted(ladder.items(), key=lambda kv: int(kv[0])))


def _trigger(c: Stage) -> int:
    return int(c.desc["hold_and_respin"]["trigger"])


def _new_board(c: Stage, now: float, fade_ms: float) -> HoldGrid:
    moon = _moon(c)
    reels = c.view.reels
    grid = HoldGrid(len(reels.reels), reels.rows, moon, f"{moon}_EMPTY", now, fade_ms)
    for col in range(grid.columns):
        for row in range(grid.rows):
            grid.cells[(col, row)] = Cell(spin_from=-1e9, spin_until=-1e9)
    return grid


def _show_counter(c: Stage, counter: RespinCounter) -> RespinCounter:
    c.view.remove(RespinCounter)
    c.view.on_frame.append(counter)
    return counter


def _hold(c: Stage, cell: Cell, prize: int) -> None:
    cell.held = True
    cell.prize = prize
    cell.value = c.fmt(prize)


def _lookahead(c: Stage, kind: type[ev.Event]) -> Any:
    """The next ``kind`` event queued in this round, or None."""
    for later in c.queue:
        if isinstance(later, kind):
            return later
        if isinstance(later, ev.RoundEnd):
            break
    return None


def _ladder_text(c: Stage, moons: int) -> str:
    x = c.desc["hold_and_respin"]["ladder"].get(str(moons))
    if x is None:
        return ""
    return f" The prize ladder reaches {moons} Moons: {x:,}× the bet, {c.fmt(x * c.session.bet.total)}."


# -- base spins ---------------------------------------------------------------------------------
def _spin_started(c: Stage, e: ev.Spin) -> None:
    """The Moons this spin lands carry their values as soon as their reel stops."""
    prizes = _lookahead(c, MoonPrizes)
    if prizes is not None:
        c.view.cell_values = _values(c, prizes.positions, prizes.prizes)


def _prizes(e: MoonPrizes, c: Stage) -> Beat | None:
    c.view.cell_values = _values(c, e.positions, e.prizes)
    if len(e.positions) >= _trigger(c):
        return TriggerBeat(e)
    return None


class TriggerBeat(Beat):
    """5 or more Moons: they glow, then the Hold and Respin title card waits for Start."""

    def __init__(self, e: MoonPrizes) -> None:
        self.e = e
        self.stage = 0
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        v = c.view
        n = len(self.e.positions)
        v.line_rows = None
        v.highlights = sorted(_values(c, self.e.positions, self.e.prizes))
        v.line_label = f"{n} {symbol_name(c, _moon(c)).upper()}S: HOLD AND RESPIN!"
        c.host.announce(f"{n} Moons: Hold and Respin is won!")
        self.ms = c.timing.line_show * 0.8

    def update(self, c: Stage, now: float) -> bool:
        quick = self.hurried or c.start_requested
        if self.stage == 0:
            if now - self.t0 < self.ms and not quick:
                return False
            self.stage = 1
            self.t1 = now
            c.view.line_label = ""
            _held_card(c, len(self.e.positions), now)
        if now - self.t1 < c.timing.line_show and not quick:
            return False
        intro = c.view.overlay(FeatureCard)
        if intro is not None and c.pending_kind == "feature_start" and not c.start_requested:
            intro.waiting = True
            c.host.announce("Hold and Respin: press Start to play the respins.")
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True


# -- the bonus ------------------------------------------------------------------------------------
class BoughtBeat(Beat):
    """The feature was bought: a short title card, then the bonus starts by itself."""

    def __init__(self, e: ev.FeatureBought) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        c.scratch["bought"] = True
        v = c.view
        v.highlights = []
        v.line_rows = None
        v.line_label = ""
        v.cell_values = {}
        lines = ("HOLD AND RESPIN", f"PRICE {c.fmt(self.e.price)}")
        _card(c, FeatureCard("BONUS BOUGHT", lines, _moon(c), now, prompt=""))
        c.host.announce(f"Feature bought for {c.fmt(self.e.price)}: Hold and Respin starts.")
        self.ms = c.timing.line_show * 0.9

    def update(self, c: Stage, now: float) -> bool:
        return now - self.t0 >= self.ms

    def hurry(self, c: Stage) -> None:
        self.ms = 0


class StartBeat(Beat):
    """The reels turn into the board: the Moons are held, every other cell empties."""

    def __init__(self, e: ev.HoldAndRespinStart) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        v = c.view
        bought = bool(c.scratch.get("bought"))
        t = c.timing
        v.remove(IntroCard)
        v.banner = None
        v.highlights = []
        v.line_rows = None
        v.line_label = ""
        v.cell_values = {}
        c.in_feature = True
        c.base_win = c.win_shown
        fade = t.stop * 1.2
        grid = v.board = _new_board(c, now, fade)
        drop = 0.0 if c.reduced_motion else t.stagger * 0.8
        for i, (pos, prize) in enumerate(zip(self.e.positions, self.e.prizes, strict=True)):
            cell = grid.cells[(int(pos[0]), int(pos[1]))]
            _hold(c, cell, prize)
            # Bought: the Moons drop in one by one once the board is there; won: they stay put.
            cell.spin_until = cell.spin_from = now + fade * 0.6 + i * drop if bought else now
        n = len(self.e.positions)
        v.band = LadderView(_rungs(c), _noun(c), count=0 if bought else n)
        _show_counter(
            c, RespinCounter(self.e.respins, self.e.respins, _noun(c), 0 if bought else n, c.fmt(grid.total(now)))
        )
        c.refresh_status()
        c.host.post("featureStart", {"feature": FEATURE, "moons": n, "respins": self.e.respins, "bought": bought})
        c.host.announce(f"Hold and Respin: {n} Moons held, {self.e.respins} respins. Each new Moon resets them.")
        self.end = max([cell.spin_until for cell in grid.cells.values() if cell.held] + [now + fade]) + t.pause

    def update(self, c: Stage, now: float) -> bool:
        _follow(c, now)
        return now >= self.end

    def hurry(self, c: Stage) -> None:
        grid = c.view.overlay(HoldGrid)
        if grid is not None:
            grid.fade_ms = 0.0
            for cell in grid.cells.values():
                cell.spin_until = min(cell.spin_until, c.now)
        self.end = min(self.end, c.now + c.timing.pause * 0.5)


def _follow(c: Stage, now: float) -> bool:
    """Ladder, counter and total follow the Moons shown; True when a Moon just landed."""
    v = c.view
    grid, counter, ladder = v.overlay(HoldGrid), v.overlay(RespinCounter), v.overlay(LadderView)
    if grid is None or counter is None:
        return False
    held = len(grid.held(now))
    if held == counter.count:
        return False
    landed = held > counter.count
    counter.count = held
    counter.collected = c.fmt(grid.total(now))
    if ladder is not None:
        lit = ladder.lit
        ladder.count = held
        if ladder.lit != lit:
            ladder.changed_at = now
    return landed


class RespinBeat(Beat):
    """One respin: every empty cell spins and stops, reel by reel; new Moons pop in with
    their values, and the counter resets the moment the first one lands."""

    def __init__(self, e: ev.Respin) -> None:
        self.e = e
        self.reset = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        grid = c.view.overlay(HoldGrid)
        if grid is None:
            grid = c.view.board = _new_board(c, now, 0.0)
        counter = c.view.overlay(RespinCounter)
        if counter is None:
            counter = _show_counter(c, RespinCounter(self.e.respins_left, self.e.respins_left, _noun(c)))
        t = c.timing
        spin = t.spin_min + t.stop * 0.5
        stagger = t.stagger * 0.55
        new = {(int(p[0]), int(p[1])): prize for p, prize in zip(self.e.positions, self.e.prizes, strict=True)}
        last = now
        for (col, row), cell in grid.cells.items():
            if cell.held:
                continue
            cell.spin_from = now
            cell.spin_until = now + spin + col * stagger + row * stagger * 0.3
            last = max(last, cell.spin_until)
            if (col, row) in new:
                _hold(c, cell, new[(col, row)])
        counter.left = max(counter.left - 1, 0)  # this respin is being spent
        self.end = last + t.pause * (1.0 if new else 0.5)

    def update(self, c: Stage, now: float) -> bool:
        counter = c.view.overlay(RespinCounter)
        if _follow(c, now) and not self.reset and counter is not None:
            self.reset = True
            counter.left = self.e.respins_left
            counter.reset_at = now
        if now < self.end:
            return False
        if counter is not None:
            counter.left = self.e.respins_left
        e = self.e
        if e.positions:
            word = "Moon" if len(e.positions) == 1 else "Moons"
            text = (
                f"Respin {e.number}: {len(e.positions)} new {word}, {e.count} held. Respins reset to {e.respins_left}."
            )
            text += _ladder_text(c, e.count)
        else:
            left = "no respins left" if e.respins_left == 0 else f"{e.respins_left} left"
            text = f"Respin {e.number}: no Moon, {left}."
        c.host.announce(text)
        return True

    def hurry(self, c: Stage) -> None:
        grid = c.view.overlay(HoldGrid)
        now = c.now
        last = now
        if grid is not None:
            for (col, _row), cell in grid.cells.items():
                if cell.spin_until > now:
                    cell.spin_until = min(cell.spin_until, now + 60.0 + col * 25.0)
                    last = max(last, cell.spin_until)
        self.end = min(self.end, last + c.timing.pause * 0.3)


class LadderBeat(Beat):
    """The ladder prize for the final count: its rung flashes and a banner shows it."""

    def __init__(self, e: ev.LadderPrize) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        e = self.e
        ladder = c.view.overlay(LadderView)
        if ladder is not None:
            ladder.count = max(ladder.count, e.count)
            ladder.paid = e.count
            ladder.changed_at = now
        c.view.banner = Banner("PRIZE LADDER", f"{e.count} MOONS · {e.multiplier:,}× · {c.fmt(e.win)}", now, tier=2)
        c.host.announce(f"Prize ladder: {e.count} Moons pay {e.multiplier:,}× the bet, {c.fmt(e.win)}.")
        self.ms = c.timing.line_show * 1.2

    def update(self, c: Stage, now: float) -> bool:
        if now - self.t0 < self.ms:
            return False
        c.view.banner = None
        return True

    def hurry(self, c: Stage) -> None:
        self.ms = 0


class EndBeat(Beat):
    """The bonus is over: each Moon is collected into the win in turn, then the ladder
    prize; the total shows as BONUS WIN."""

    def __init__(self, e: ev.HoldAndRespinEnd, c: Stage) -> None:
        self.e = e
        grid = c.view.overlay(HoldGrid)
        self.order = grid.held(float("inf")) if grid is not None else []
        self.prizes = [grid.cells[p].prize for p in self.order] if grid is not None else []
        self.stage = 0
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        cap = _lookahead(c, ev.WinCapReached)
        if cap is not None:
            c.win_limit = cap.win
        n = max(len(self.order), 1)
        self.step = 0.0 if c.reduced_motion else min(max(c.timing.count_up / n, 35.0), 140.0)
        c.host.announce(f"Hold and Respin is over: {self.e.count} Moons are collected.")

    def _shown(self, c: Stage, amount: int) -> int:
        return min(c.base_win + amount, c.win_limit)

    def update(self, c: Stage, now: float) -> bool:
        grid = c.view.overlay(HoldGrid)
        if self.stage == 0:
            i = int((now - self.t0) / self.step) if self.step > 0 else len(self.order)
            if i < len(self.order) and not self.hurried:
                if grid is not None:
                    grid.glow = self.order[i]
                c.win_shown = self._shown(c, sum(self.prizes[: i + 1]))
                return False
            self.stage = 1
            self.t1 = now
            e = self.e
            bonus = self._shown(c, e.win) - c.base_win
            c.win_shown = c.base_win + bonus
            c.feature_win = bonus
            if grid is not None:
                grid.glow = None
            rungs = c.view.overlay(LadderView)
            if rungs is not None:
                rungs.active = False
            counter = c.view.overlay(RespinCounter)
            if counter is not None:
                counter.label = "BONUS WIN"
                counter.collected = c.fmt(bonus)
                counter.count = e.count
            ladder = f" and the ladder {c.fmt(e.ladder)}" if e.ladder else ""
            c.view.banner = Banner("BONUS WIN", f"{c.fmt(bonus)} · {e.count} MOONS", now, tier=3)
            c.host.post("featureEnd", {"feature": FEATURE, "win": bonus, "moons": e.count, "respins": e.respins})
            c.host.announce(f"Hold and Respin win: {c.fmt(bonus)}. {e.count} Moons pay {c.fmt(e.cash)}{ladder}.")
            self.ms = c.timing.line_show * 1.6
        if now - self.t1 < self.ms and not self.hurried:
            return False
        c.view.banner = None
        c.in_feature = False
        c.refresh_status()
        return True

    def hurry(self, c: Stage) -> None:
        if self.stage == 1:
            self.ms = min(self.ms, c.now - self.t1 + c.timing.pause)
        else:
            self.hurried = True


class CapBeat(Beat):
    """The round's win passed the maximum: the maximum is paid and says so."""

    def __init__(self, e: ev.WinCapReached) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        c.win_shown = self.e.win
        x = c.desc["max_win_x"]
        counter = c.view.overlay(RespinCounter)
        if counter is not None:
            counter.collected = c.fmt(max(self.e.win - c.base_win, 0))
        c.view.banner = Banner("MAX WIN REACHED", f"{x:,}× THE BET · {c.fmt(self.e.win)}", now, tier=4)
        c.host.announce(f"The maximum win of {x:,}× the bet is reached: {c.fmt(self.e.win)} is paid.")
        self.ms = c.timing.line_show * 1.5

    def update(self, c: Stage, now: float) -> bool:
        if now - self.t0 < self.ms:
            return False
        c.view.banner = None
        return True

    def hurry(self, c: Stage) -> None:
        self.ms = min(self.ms, c.now - self.t0 + c.timing.pause)


# -- recovery -----------------------------------------------------------------------------------
def _final_board(c: Stage, events: list[ev.Event], end: ev.HoldAndRespinEnd) -> None:
    """The end result of a bonus: every Moon held with its value, the ladder, the total."""
    grid = c.view.board = _new_board(c, c.now, 0.0)
    start = next(e for e in events if isinstance(e, ev.HoldAndRespinStart))
    respins = [e for e in events if isinstance(e, ev.Respin)]
    landed = [(start.positions, start.prizes)] + [(r.positions, r.prizes) for r in respins]
    for positions, prizes in landed:
        for pos, prize in zip(positions, prizes, strict=True):
            _hold(c, grid.cells[(int(pos[0]), int(pos[1]))], prize)
    base = sum(e.win for e in events if isinstance(e, ev.LineWin))
    cap = next((e for e in events if isinstance(e, ev.WinCapReached)), None)
    bonus = min(end.win, cap.win - base) if cap is not None else end.win
    paid = end.count if any(isinstance(e, ev.LadderPrize) for e in events) else None
    c.view.band = LadderView(_rungs(c), _noun(c), count=end.count, paid=paid, active=False)
    left = respins[-1].respins_left if respins else start.respins
    _show_counter(c, RespinCounter(left, start.respins, _noun(c), end.count, c.fmt(bonus), label="BONUS WIN"))
    c.view.cell_values = {}
    c.feature_win = bonus
    c.host.announce(f"Hold and Respin result: {end.count} Moons, bonus win {c.fmt(bonus)}.")


def rebuild_feature(c: Stage, events: list[ev.Event]) -> None:
    """Recovery: the final board of a bonus (the bonus plays in one engine call, so a reload
    during its animation shows its end), or the title card waiting for Start, or the values
    on the last spin's Moons."""
    end = next((e for e in events if isinstance(e, ev.HoldAndRespinEnd)), None)
    if end is not None:
        _final_board(c, events, end)
        return
    prizes = next((e for e in reversed(events) if isinstance(e, MoonPrizes)), None)
    if prizes is not None:
        c.view.cell_values = _values(c, prizes.positions, prizes.prizes)
    if c.session.in_round and c.pending_kind == "feature_start" and prizes is not None:
        c.view.highlights = sorted(c.view.cell_values)
        _held_card(c, len(prizes.positions), c.now - 10_000.0, waiting=True)


def _cash_label(e: ev.Event, c: Stage) -> str:
    """The 3-4 Moon cash win under the reels."""
    name = symbol_name(c, _moon(c)).upper()
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
    prizes = "".join(f"<li><b>{x_text(x)}</b> {fmt(pages.times(x, stake))}</li>" for x in desc["moon"]["prizes_x"])
    return "".join(
        [
            f'<p class="note">Pays at {fmt(bet_per_line)} per line on {lines} fixed lines: a total bet of '
            f"{fmt(stake)}. Line wins pay left to right on consecutive reels from the leftmost; only the "
            "highest win per line is paid, and wins on different lines add up.</p>",
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>Substitutes for all paying symbols except the {escape(names[moon])} and counts as the symbol "
            f"that forms the highest win on a line. A line of {escape(names[wild])}s alone pays as the "
            f"{escape(top)}.</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, moon, names[moon], 80)}<div><h3>{escape(names[moon])}</h3>'
            f"<p>Every {escape(names[moon])} carries a cash prize, a multiple of the total bet, shown on it. "
            f"{counts} {escape(names[moon])}s anywhere pay their combined prize; {hr['trigger']} or more start "
            f'Hold and Respin.</p><ul class="prizes">{prizes}</ul></div></div>',
            pages.symbol_pays(desc, bet_per_line, fmt, ctx.assets),
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
            recovery="If you reload while Hold and Respin waits for Start, it waits again. The bonus is decided "
            "when it starts, so a reload during its respins shows its end result.",
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
    win_label=_cash_label,
    feature="Hold and Respin",
    start_label="START BONUS",
    stop_label="Stop when Hold and Respin is won",
    handlers={
        MoonPrizes.type: _prizes,
        ev.FeatureBought.type: lambda e, c: BoughtBeat(e),
        ev.HoldAndRespinStart.type: lambda e, c: StartBeat(e),
        ev.Respin.type: lambda e, c: RespinBeat(e),
        ev.LadderPrize.type: lambda e, c: LadderBeat(e),
        ev.HoldAndRespinEnd.type: lambda e, c: EndBeat(e, c),
        ev.WinCapReached.type: lambda e, c: CapBeat(e),
    },
    rebuild=rebuild_feature,
    spin_started=_spin_started,
    extra_symbols=("MOON_EMPTY",),
    big_symbols=("MOON",),
    feature_names={FEATURE: "Hold and Respin"},
    paytable=paytable_html,
    rules=rules_html,
    buy=buy_html,
)
register_screen("moon_spell", SCREEN)
