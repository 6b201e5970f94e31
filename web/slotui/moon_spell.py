"""Moon Spell on screen: cash values on the Moons, the 3-4 Moon cash win, the Hold and
Respin intro, the board where held Moons stay and empty cells respin, the respin counter
that resets when a Moon lands, the prize ladder above the reels lighting rung by rung,
the collection of the total at the end, the max-win limit and a bought feature.

The bonus is played in one engine call (after Start, or at once when bought), so a reload
during its animation finds the round finished: recovery then shows the final board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyengine import events as ev
from pyengine.games.moon_spell import MoonPrizes

from .beats import Beat, GameScreen, register_screen, symbol_name
from .holdrespin import Cell, HoldGrid, LadderView, RespinCounter
from .view import Banner, FeatureIntro

if TYPE_CHECKING:
    from .controller import Controller

__all__ = ["SCREEN", "rebuild_feature"]

Position = tuple[int, int]
FEATURE = "hold_and_respin"


# -- helpers --------------------------------------------------------------------------------
def _moon(c: Controller) -> str:
    return str(c.desc["moon"]["symbol"])


def _values(c: Controller, positions: tuple[Position, ...], prizes: tuple[int, ...]) -> dict[Position, str]:
    return {(int(r), int(w)): c.fmt(p) for (r, w), p in zip(positions, prizes, strict=True)}


def _rungs(c: Controller) -> tuple[tuple[int, str, str], ...]:
    stake = c.session.bet.total
    ladder: dict[str, int] = c.desc["hold_and_respin"]["ladder"]
    return tuple((int(k), f"{x:,}×", c.fmt(x * stake)) for k, x in sorted(ladder.items(), key=lambda kv: int(kv[0])))


def _trigger(c: Controller) -> int:
    return int(c.desc["hold_and_respin"]["trigger"])


def _new_board(c: Controller, now: float, fade_ms: float) -> HoldGrid:
    moon = _moon(c)
    reels = c.view.reels
    grid = HoldGrid(len(reels.reels), reels.rows, moon, f"{moon}_EMPTY", now, fade_ms)
    for col in range(grid.columns):
        for row in range(grid.rows):
            grid.cells[(col, row)] = Cell(spin_from=-1e9, spin_until=-1e9)
    return grid


def _hold(c: Controller, cell: Cell, prize: int) -> None:
    cell.held = True
    cell.prize = prize
    cell.value = c.fmt(prize)


def _lookahead(c: Controller, kind: type[ev.Event]) -> Any:
    """The next ``kind`` event queued in this round, or None."""
    for later in c.queue:
        if isinstance(later, kind):
            return later
        if isinstance(later, ev.RoundEnd):
            break
    return None


def _ladder_text(c: Controller, moons: int) -> str:
    x = c.desc["hold_and_respin"]["ladder"].get(str(moons))
    if x is None:
        return ""
    return f" The prize ladder reaches {moons} Moons: {x:,}× the bet, {c.fmt(x * c.session.bet.total)}."


# -- base spins ---------------------------------------------------------------------------------
def _spin_started(c: Controller, e: ev.Spin) -> None:
    """The Moons this spin lands carry their values as soon as their reel stops."""
    prizes = _lookahead(c, MoonPrizes)
    if prizes is not None:
        c.view.cell_values = _values(c, prizes.positions, prizes.prizes)


def _prizes(e: MoonPrizes, c: Controller) -> Beat | None:
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

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        v = c.view
        n = len(self.e.positions)
        v.line_rows = None
        v.highlights = sorted(_values(c, self.e.positions, self.e.prizes))
        v.line_label = f"{n} {symbol_name(c, _moon(c)).upper()}S: HOLD AND RESPIN!"
        c.host.announce(f"{n} Moons: Hold and Respin is won!")
        self.ms = c.timing.line_show * 0.8

    def update(self, c: Controller, now: float) -> bool:
        quick = self.hurried or c.start_requested
        if self.stage == 0:
            if now - self.t0 < self.ms and not quick:
                return False
            self.stage = 1
            self.t1 = now
            n = len(self.e.positions)
            respins = c.desc["hold_and_respin"]["respins"]
            c.view.line_label = ""
            c.view.intro = FeatureIntro(
                "HOLD AND RESPIN",
                (f"{n} MOONS HELD · {respins} RESPINS", "EVERY NEW MOON RESETS THE RESPINS"),
                _moon(c),
                now,
                prompt="PRESS START",
            )
        if now - self.t1 < c.timing.line_show and not quick:
            return False
        intro = c.view.intro
        if isinstance(intro, FeatureIntro) and c.pending_kind == "feature_start" and not c.start_requested:
            intro.waiting = True
            c.host.announce("Hold and Respin: press Start to play the respins.")
        return True

    def hurry(self, c: Controller) -> None:
        self.hurried = True


# -- the bonus ------------------------------------------------------------------------------------
class BoughtBeat(Beat):
    """The feature was bought: a short title card, then the bonus starts by itself."""

    def __init__(self, e: ev.FeatureBought) -> None:
        self.e = e

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        c.scratch["bought"] = True
        v = c.view
        v.highlights = []
        v.line_rows = None
        v.line_label = ""
        v.cell_values = {}
        v.intro = FeatureIntro(
            "BONUS BOUGHT", ("HOLD AND RESPIN", f"PRICE {c.fmt(self.e.price)}"), _moon(c), now, prompt=""
        )
        c.host.announce(f"Feature bought for {c.fmt(self.e.price)}: Hold and Respin starts.")
        self.ms = c.timing.line_show * 0.9

    def update(self, c: Controller, now: float) -> bool:
        return now - self.t0 >= self.ms

    def hurry(self, c: Controller) -> None:
        self.ms = 0


class StartBeat(Beat):
    """The reels turn into the board: the Moons are held, every other cell empties."""

    def __init__(self, e: ev.HoldAndRespinStart) -> None:
        self.e = e

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        v = c.view
        bought = bool(c.scratch.get("bought"))
        t = c.timing
        v.intro = None
        v.banner = None
        v.highlights = []
        v.line_rows = None
        v.line_label = ""
        v.cell_values = {}
        c.in_feature = True
        c.base_win = c.win_shown
        fade = t.stop * 1.2
        grid = v.grid = _new_board(c, now, fade)
        drop = 0.0 if c.reduced_motion else t.stagger * 0.8
        for i, (pos, prize) in enumerate(zip(self.e.positions, self.e.prizes, strict=True)):
            cell = grid.cells[(int(pos[0]), int(pos[1]))]
            _hold(c, cell, prize)
            # Bought: the Moons drop in one by one once the board is there; won: they stay put.
            cell.spin_until = cell.spin_from = now + fade * 0.6 + i * drop if bought else now
        n = len(self.e.positions)
        v.ladder = LadderView(_rungs(c), count=0 if bought else n)
        v.counter = RespinCounter(
            self.e.respins, self.e.respins, moons=0 if bought else n, collected=c.fmt(grid.total(now))
        )
        c.refresh_status()
        c.host.post("featureStart", {"feature": FEATURE, "moons": n, "respins": self.e.respins, "bought": bought})
        c.host.announce(f"Hold and Respin: {n} Moons held, {self.e.respins} respins. Each new Moon resets them.")
        self.end = max([cell.spin_until for cell in grid.cells.values() if cell.held] + [now + fade]) + t.pause

    def update(self, c: Controller, now: float) -> bool:
        _follow(c, now)
        return now >= self.end

    def hurry(self, c: Controller) -> None:
        grid = c.view.grid
        if grid is not None:
            grid.fade_ms = 0.0
            for cell in grid.cells.values():
                cell.spin_until = min(cell.spin_until, c.now)
        self.end = min(self.end, c.now + c.timing.pause * 0.5)


def _follow(c: Controller, now: float) -> bool:
    """Ladder, counter and total follow the Moons shown; True when a Moon just landed."""
    grid, counter, ladder = c.view.grid, c.view.counter, c.view.ladder
    if grid is None or counter is None:
        return False
    held = len(grid.held(now))
    if held == counter.moons:
        return False
    landed = held > counter.moons
    counter.moons = held
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

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        grid = c.view.grid
        if grid is None:
            grid = c.view.grid = _new_board(c, now, 0.0)
        counter = c.view.counter
        if counter is None:
            counter = c.view.counter = RespinCounter(self.e.respins_left, self.e.respins_left)
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

    def update(self, c: Controller, now: float) -> bool:
        if _follow(c, now) and not self.reset and c.view.counter is not None:
            self.reset = True
            c.view.counter.left = self.e.respins_left
            c.view.counter.reset_at = now
        if now < self.end:
            return False
        counter = c.view.counter
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

    def hurry(self, c: Controller) -> None:
        grid = c.view.grid
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

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        e = self.e
        ladder = c.view.ladder
        if ladder is not None:
            ladder.count = max(ladder.count, e.count)
            ladder.paid = e.count
            ladder.changed_at = now
        c.view.banner = Banner("PRIZE LADDER", f"{e.count} MOONS · {e.multiplier:,}× · {c.fmt(e.win)}", now, tier=2)
        c.host.announce(f"Prize ladder: {e.count} Moons pay {e.multiplier:,}× the bet, {c.fmt(e.win)}.")
        self.ms = c.timing.line_show * 1.2

    def update(self, c: Controller, now: float) -> bool:
        if now - self.t0 < self.ms:
            return False
        c.view.banner = None
        return True

    def hurry(self, c: Controller) -> None:
        self.ms = 0


class EndBeat(Beat):
    """The bonus is over: each Moon is collected into the win in turn, then the ladder
    prize; the total shows as BONUS WIN."""

    def __init__(self, e: ev.HoldAndRespinEnd, c: Controller) -> None:
        self.e = e
        grid = c.view.grid
        self.order = grid.held(float("inf")) if grid is not None else []
        self.prizes = [grid.cells[p].prize for p in self.order] if grid is not None else []
        self.stage = 0
        self.hurried = False

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        cap = _lookahead(c, ev.WinCapReached)
        if cap is not None:
            c.win_limit = cap.win
        n = max(len(self.order), 1)
        self.step = 0.0 if c.reduced_motion else min(max(c.timing.count_up / n, 35.0), 140.0)
        c.host.announce(f"Hold and Respin is over: {self.e.count} Moons are collected.")

    def _shown(self, c: Controller, amount: int) -> int:
        return min(c.base_win + amount, c.win_limit)

    def update(self, c: Controller, now: float) -> bool:
        grid = c.view.grid
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
            if c.view.ladder is not None:
                c.view.ladder.active = False
            counter = c.view.counter
            if counter is not None:
                counter.label = "BONUS WIN"
                counter.collected = c.fmt(bonus)
                counter.moons = e.count
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

    def hurry(self, c: Controller) -> None:
        if self.stage == 1:
            self.ms = min(self.ms, c.now - self.t1 + c.timing.pause)
        else:
            self.hurried = True


class CapBeat(Beat):
    """The round's win passed the maximum: the maximum is paid and says so."""

    def __init__(self, e: ev.WinCapReached) -> None:
        self.e = e

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        c.win_shown = self.e.win
        x = c.desc["max_win_x"]
        counter = c.view.counter
        if counter is not None:
            counter.collected = c.fmt(max(self.e.win - c.base_win, 0))
        c.view.banner = Banner("MAX WIN REACHED", f"{x:,}× THE BET · {c.fmt(self.e.win)}", now, tier=4)
        c.host.announce(f"The maximum win of {x:,}× the bet is reached: {c.fmt(self.e.win)} is paid.")
        self.ms = c.timing.line_show * 1.5

    def update(self, c: Controller, now: float) -> bool:
        if now - self.t0 < self.ms:
            return False
        c.view.banner = None
        return True

    def hurry(self, c: Controller) -> None:
        self.ms = min(self.ms, c.now - self.t0 + c.timing.pause)


# -- recovery -----------------------------------------------------------------------------------
def _final_board(c: Controller, events: list[ev.Event], end: ev.HoldAndRespinEnd) -> None:
    """The end result of a bonus: every Moon held with its value, the ladder, the total."""
    grid = c.view.grid = _new_board(c, c.now, 0.0)
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
    c.view.ladder = LadderView(_rungs(c), count=end.count, paid=paid, active=False)
    left = respins[-1].respins_left if respins else start.respins
    c.view.counter = RespinCounter(left, start.respins, moons=end.count, collected=c.fmt(bonus), label="BONUS WIN")
    c.view.cell_values = {}
    c.feature_win = bonus
    c.host.announce(f"Hold and Respin result: {end.count} Moons, bonus win {c.fmt(bonus)}.")


def rebuild_feature(c: Controller, events: list[ev.Event]) -> None:
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
        n = len(prizes.positions)
        c.view.highlights = sorted(c.view.cell_values)
        respins = c.desc["hold_and_respin"]["respins"]
        c.view.intro = FeatureIntro(
            "HOLD AND RESPIN",
            (f"{n} MOONS HELD · {respins} RESPINS", "EVERY NEW MOON RESETS THE RESPINS"),
            _moon(c),
            c.now - 10_000.0,
            waiting=True,
        )


def _cash_label(e: ev.Event, c: Controller) -> str:
    """The 3-4 Moon cash win under the reels."""
    name = symbol_name(c, _moon(c)).upper()
    return f"{getattr(e, 'count', 0)} {name}S PAY {c.fmt(int(getattr(e, 'win', 0)))}"


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
)
register_screen("moon_spell", SCREEN)
