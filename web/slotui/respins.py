"""Hold and Respin played back, for any game that has it: the reels turning into the board,
each respin, the counter resetting when a prize lands, the ladder lighting rung by rung,
the collection at the end, the max-win limit, a bought feature, and the final board after
a reload.

A game makes one `HoldAndRespin` with its prize symbol, its empty cell and its words, and
puts its `handlers` in its `stage.GameScreen`; the overlays are in `holdrespin`. The feature's
figures (respins, ladder) come from the description's ``hold_and_respin`` section.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from pyengine import events as ev

from .beats import BannerBeat, Timed, is_win
from .pages import img
from .holdrespin import Cell, HoldGrid, LadderView, RespinCounter
from .intro import FeatureCard
from .overlay import IntroCard
from .stage import Beat, EventHandler, Stage
from .view import Banner
from .words import either, number, tr

__all__ = ["FEATURE", "HoldAndRespin", "RespinWords", "follow", "hold", "lookahead", "rungs", "show_card"]

FEATURE = "hold_and_respin"
"""The feature's id in the messages posted to the page (``featureStart``, ``featureEnd``)."""


@dataclass(frozen=True, slots=True)
class RespinWords:
    """How the feature names what the board holds in its messages to the page
    (``count_key``). What it says to the player is the catalogue's ``respins.<word>``: the
    shared client's (prizes), unless the game's catalogue has its own (`stage.GameScreen.word`)."""

    count_key: str = "count"
    catalogue: Any = None
    """The game's catalogue (`words.of`), for what is said away from the stage (the history's
    board); None: the shared words."""

    def say(self, key: str, /, **args: Any) -> str:
        return either(self.catalogue, key, **args)


def show_card(c: Stage, card: FeatureCard) -> FeatureCard:
    """Put a title card up (in place of any other intro)."""
    c.view.remove(IntroCard)
    c.view.overlays.append(card)
    return card


def show_counter(c: Stage, counter: RespinCounter) -> RespinCounter:
    c.view.remove(RespinCounter)
    c.view.on_frame.append(counter)
    return counter


def rungs(c: Stage) -> tuple[tuple[int, str, str], ...]:
    """The ladder's rungs at the current bet: (count, multiplier, amount)."""
    stake = c.session.bet.total
    ladder: dict[str, int] = c.desc["hold_and_respin"]["ladder"]
    return tuple(
        (int(k), tr("respins.times", x=number(x)), c.fmt(x * stake))
        for k, x in sorted(ladder.items(), key=lambda kv: int(kv[0]))
    )


def hold(c: Stage, cell: Cell, prize: int) -> None:
    cell.held = True
    cell.prize = prize
    cell.value = c.fmt(prize)


def lookahead(c: Stage, kind: type[ev.Event]) -> Any:
    """The next ``kind`` event queued in this round, or None."""
    for later in c.queue:
        if isinstance(later, kind):
            return later
        if isinstance(later, ev.RoundEnd):
            break
    return None


class HoldAndRespin:
    """Hold and Respin on a game's screen: ``symbol`` is the prize symbol, ``empty`` the
    picture of an empty cell."""

    def __init__(self, symbol: str, empty: str, words: RespinWords | None = None) -> None:
        self.symbol = symbol
        self.empty = empty
        self.words = words or RespinWords()

    def history_board(self, record: Any, fmt: Callable[[int], str], assets: str, names: Mapping[str, str]) -> str:
        """The final board of a round's Hold and Respin, for the history: every held prize
        symbol with its prize, the other cells empty ("" for a round without the bonus)."""
        held: dict[tuple[int, int], int] = {}
        columns = rows = 0
        ended = False
        for e in record.events:
            if isinstance(e, ev.Spin):
                columns, rows = len(e.window), len(e.window[0])
            if isinstance(e, ev.HoldAndRespinStart | ev.Respin):
                held.update({(int(c), int(r)): p for (c, r), p in zip(e.positions, e.prizes, strict=True)})
            ended = ended or isinstance(e, ev.HoldAndRespinEnd)
        if not ended:
            return ""
        if not columns:  # a bought bonus has no spin: the board is the held positions' extent
            columns = max(c for c, _ in held) + 1 if held else 1
            rows = max(r for _, r in held) + 1 if held else 1
        cells = []
        for row in range(rows):
            for col in range(columns):
                if (col, row) in held:
                    prize = fmt(held[(col, row)])
                    cells.append(
                        f'<span class="held">{img(assets, self.symbol, names.get(self.symbol, self.symbol), 28)}'
                        f"<small>{escape(prize)}</small></span>"
                    )
                else:
                    cells.append(img(assets, self.empty, "", 28))
        label = escape(self.words.say("respins.history_held", n=number(len(held))))
        return f'<div class="mini board cols-{columns}" aria-label="{label}">{"".join(cells)}</div>'

    @property
    def handlers(self) -> dict[str, EventHandler]:
        """The beats of the feature's events, for `stage.GameScreen.handlers`."""
        return {
            ev.FeatureBought.type: lambda e, c: BoughtBeat(e, self),
            ev.HoldAndRespinStart.type: lambda e, c: StartBeat(e, self),
            ev.Respin.type: lambda e, c: RespinBeat(e, self),
            ev.LadderPrize.type: lambda e, c: LadderBeat(e, self),
            ev.HoldAndRespinEnd.type: lambda e, c: EndBeat(e, self, c),
            ev.WinCapReached.type: lambda e, c: CapBeat(e),
        }

    def board(self, c: Stage, now: float, fade_ms: float) -> HoldGrid:
        """A board of empty cells the size of the reels (fading in over ``fade_ms``)."""
        reels = c.view.reels
        grid = HoldGrid(len(reels.reels), reels.rows, self.symbol, self.empty, now, fade_ms)
        for col in range(grid.columns):
            for row in range(grid.rows):
                grid.cells[(col, row)] = Cell(spin_from=-1e9, spin_until=-1e9)
        return grid

    def held_card(self, c: Stage, n: int, now: float, *, waiting: bool = False) -> FeatureCard:
        """The title card of the feature won with ``n`` prizes held."""
        respins = c.desc["hold_and_respin"]["respins"]
        w = c.screen.word
        lines = (w("respins.card_held", n=number(n), respins=number(respins)), w("respins.card_reset"))
        return show_card(c, FeatureCard(w("respins.title"), lines, self.symbol, now, waiting=waiting))

    def resting_ladder(self, c: Stage) -> None:
        """The prize ladder above the reels in the base game, where nothing else is: its rungs'
        multipliers, none lit (the amounts, which follow the bet, are shown once the bonus runs)."""
        if c.view.band is None:
            still = tuple((n, x, "") for n, x, _ in rungs(c))
            c.view.band = LadderView(still, c.screen.word("respins.noun"), count=0, active=False)

    def ladder_text(self, c: Stage, count: int) -> str:
        x = c.desc["hold_and_respin"]["ladder"].get(str(count))
        if x is None:
            return ""
        return " " + c.screen.word(
            "respins.say_ladder", n=number(count), x=number(x), amount=c.fmt(x * c.session.bet.total)
        )

    def rebuild(self, c: Stage, events: list[ev.Event]) -> bool:
        """Recovery: the final board of a bonus in ``events`` (it plays in one engine call, so a
        reload during its animation shows its end); False when ``events`` hold no bonus end."""
        end = next((e for e in events if isinstance(e, ev.HoldAndRespinEnd)), None)
        if end is None:
            return False
        self._final_board(c, events, end)
        return True

    def _final_board(self, c: Stage, events: list[ev.Event], end: ev.HoldAndRespinEnd) -> None:
        """The end result of a bonus: every prize held with its value, the ladder, the total."""
        grid = c.view.board = self.board(c, c.now, 0.0)
        start = next(e for e in events if isinstance(e, ev.HoldAndRespinStart))
        respins = [e for e in events if isinstance(e, ev.Respin)]
        landed = [(start.positions, start.prizes)] + [(r.positions, r.prizes) for r in respins]
        for positions, prizes in landed:
            for pos, prize in zip(positions, prizes, strict=True):
                hold(c, grid.cells[(int(pos[0]), int(pos[1]))], prize)
        first = events.index(start)
        base = sum(int(getattr(e, "win", 0)) for e in events[:first] if is_win(e))
        cap = next((e for e in events if isinstance(e, ev.WinCapReached)), None)
        bonus = min(end.win, cap.win - base) if cap is not None else end.win
        paid = end.count if any(isinstance(e, ev.LadderPrize) for e in events) else None
        w = c.screen.word
        c.view.band = LadderView(rungs(c), w("respins.noun"), count=end.count, paid=paid, active=False)
        left = respins[-1].respins_left if respins else start.respins
        show_counter(c, RespinCounter(left, start.respins, w("respins.noun"), end.count, c.fmt(bonus),
                                      label=w("respins.bonus_win")))
        c.view.cell_values = {}
        c.meters.show_feature_win(bonus)
        c.host.announce(w("respins.say_result", n=number(end.count), bonus=c.fmt(bonus)))


class BoughtBeat(Timed):
    """The feature was bought: a short title card, then the bonus starts by itself."""

    def __init__(self, e: ev.FeatureBought, f: HoldAndRespin) -> None:
        self.e = e
        self.f = f

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        c.scratch["bought"] = True
        v = c.view
        v.highlights = []
        v.line_rows = None
        v.line_label = ""
        v.cell_values = {}
        w = c.screen.word
        lines = (w("respins.title"), w("respins.price", price=c.fmt(self.e.price)))
        show_card(c, FeatureCard(w("respins.bought"), lines, self.f.symbol, now, prompt=""))
        c.host.announce(w("respins.say_bought", price=c.fmt(self.e.price)))
        self.ms = c.timing.line_show * 0.9


class StartBeat(Beat):
    """The reels turn into the board: the prizes are held, every other cell empties."""

    def __init__(self, e: ev.HoldAndRespinStart, f: HoldAndRespin) -> None:
        self.e = e
        self.f = f

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
        c.meters.start_feature()
        fade = t.stop * 1.2
        grid = v.board = self.f.board(c, now, fade)
        drop = 0.0 if c.reduced_motion else t.stagger * 0.8
        for i, (pos, prize) in enumerate(zip(self.e.positions, self.e.prizes, strict=True)):
            cell = grid.cells[(int(pos[0]), int(pos[1]))]
            hold(c, cell, prize)
            # Bought: the prizes drop in one by one once the board is there; won: they stay put.
            cell.spin_until = cell.spin_from = now + fade * 0.6 + i * drop if bought else now
        n = len(self.e.positions)
        w, key = c.screen.word, self.f.words.count_key
        v.band = LadderView(rungs(c), w("respins.noun"), count=0 if bought else n)
        show_counter(
            c, RespinCounter(self.e.respins, self.e.respins, w("respins.noun"), 0 if bought else n,
                             c.fmt(grid.total(now)), label=w("respins.total"))
        )
        c.refresh_status()
        c.host.post("featureStart", {"feature": FEATURE, key: n, "respins": self.e.respins, "bought": bought})
        c.host.announce(w("respins.say_start", n=number(n), respins=number(self.e.respins)))
        self.end = max([cell.spin_until for cell in grid.cells.values() if cell.held] + [now + fade]) + t.pause

    def update(self, c: Stage, now: float) -> bool:
        follow(c, now)
        return now >= self.end

    def hurry(self, c: Stage) -> None:
        grid = c.view.overlay(HoldGrid)
        if grid is not None:
            grid.fade_ms = 0.0
            for cell in grid.cells.values():
                cell.spin_until = min(cell.spin_until, c.now)
        self.end = min(self.end, c.now + c.timing.pause * 0.5)


def follow(c: Stage, now: float) -> bool:
    """Ladder, counter and total follow the prizes shown; True when a prize just landed."""
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
    """One respin: every empty cell spins and stops, reel by reel; new prizes pop in with
    their values, and the counter resets the moment the first one lands."""

    def __init__(self, e: ev.Respin, f: HoldAndRespin) -> None:
        self.e = e
        self.f = f
        self.reset = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        grid = c.view.overlay(HoldGrid)
        if grid is None:
            grid = c.view.board = self.f.board(c, now, 0.0)
        counter = c.view.overlay(RespinCounter)
        if counter is None:
            noun, total = c.screen.word("respins.noun"), c.screen.word("respins.total")
            counter = show_counter(c, RespinCounter(self.e.respins_left, self.e.respins_left, noun, label=total))
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
                hold(c, cell, new[(col, row)])
        counter.left = max(counter.left - 1, 0)  # this respin is being spent
        self.end = last + t.pause * (1.0 if new else 0.5)

    def update(self, c: Stage, now: float) -> bool:
        counter = c.view.overlay(RespinCounter)
        if follow(c, now) and not self.reset and counter is not None:
            self.reset = True
            counter.left = self.e.respins_left
            counter.reset_at = now
        if now < self.end:
            return False
        if counter is not None:
            counter.left = self.e.respins_left
        e, w = self.e, c.screen.word
        if e.positions:
            key = "respins.say_new.one" if len(e.positions) == 1 else "respins.say_new.other"
            text = w(key, number=number(e.number), new=number(len(e.positions)), n=number(e.count),
                     left=number(e.respins_left))
            text += self.f.ladder_text(c, e.count)
        else:
            key = "respins.say_none_last" if e.respins_left == 0 else "respins.say_none"
            text = w(key, number=number(e.number), left=number(e.respins_left))
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


class LadderBeat(BannerBeat):
    """The ladder prize for the final count: its rung flashes and a banner shows it."""

    def __init__(self, e: ev.LadderPrize, f: HoldAndRespin) -> None:
        self.e = e
        self.f = f

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        e = self.e
        ladder = c.view.overlay(LadderView)
        if ladder is not None:
            ladder.count = max(ladder.count, e.count)
            ladder.paid = e.count
            ladder.changed_at = now
        w = c.screen.word
        said = {"n": number(e.count), "x": number(e.multiplier), "win": c.fmt(e.win)}
        c.view.banner = Banner(w("respins.ladder"), w("respins.ladder_detail", **said), now, tier=2)
        c.host.announce(w("respins.say_ladder_prize", **said))
        self.ms = c.timing.line_show * 1.2


class EndBeat(Beat):
    """The bonus is over: each prize is collected into the win in turn, then the ladder
    prize; the total shows as BONUS WIN."""

    def __init__(self, e: ev.HoldAndRespinEnd, f: HoldAndRespin, c: Stage) -> None:
        self.e = e
        self.f = f
        grid = c.view.overlay(HoldGrid)
        self.order = grid.held(float("inf")) if grid is not None else []
        self.prizes = [grid.cells[p].prize for p in self.order] if grid is not None else []
        self.stage = 0
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        cap = lookahead(c, ev.WinCapReached)
        if cap is not None:
            c.meters.cap(cap.win)
        n = max(len(self.order), 1)
        self.step = 0.0 if c.reduced_motion else min(max(c.timing.count_up / n, 35.0), 140.0)
        c.host.announce(c.screen.word("respins.say_over", n=number(self.e.count)))

    def _shown(self, c: Stage, amount: int) -> int:
        return min(c.meters.base_win + amount, c.meters.limit)

    def update(self, c: Stage, now: float) -> bool:
        grid = c.view.overlay(HoldGrid)
        if self.stage == 0:
            i = int((now - self.t0) / self.step) if self.step > 0 else len(self.order)
            if i < len(self.order) and not self.hurried:
                if grid is not None:
                    grid.glow = self.order[i]
                c.meters.count_to(c.meters.base_win + sum(self.prizes[: i + 1]))
                return False
            self.stage = 1
            self.t1 = now
            e = self.e
            bonus = self._shown(c, e.win) - c.meters.base_win
            c.meters.credit_feature(bonus)
            if grid is not None:
                grid.glow = None
            rungs = c.view.overlay(LadderView)
            if rungs is not None:
                rungs.active = False
            counter = c.view.overlay(RespinCounter)
            if counter is not None:
                counter.label = c.screen.word("respins.bonus_win")
                counter.collected = c.fmt(bonus)
                counter.count = e.count
            w, key = c.screen.word, self.f.words.count_key
            said = {"bonus": c.fmt(bonus), "n": number(e.count), "cash": c.fmt(e.cash), "ladder": c.fmt(e.ladder)}
            c.view.banner = Banner(w("respins.bonus_win"), w("respins.bonus_detail", **said), now, tier=3)
            c.host.post("featureEnd", {"feature": FEATURE, "win": bonus, key: e.count, "respins": e.respins})
            c.host.announce(w("respins.say_win_ladder" if e.ladder else "respins.say_win", **said))
            self.ms = c.timing.line_show * 1.6
        if now - self.t1 < self.ms and not self.hurried:
            return False
        c.view.banner = None
        c.meters.end_feature()
        c.refresh_status()
        return True

    def hurry(self, c: Stage) -> None:
        if self.stage == 1:
            self.ms = min(self.ms, c.now - self.t1 + c.timing.pause)
        else:
            self.hurried = True


class CapBeat(BannerBeat):
    """The round's win passed the maximum: the maximum is paid and says so."""

    keep_on_hurry = True

    def __init__(self, e: ev.WinCapReached) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        c.meters.show_win(self.e.win)
        x = c.desc["max_win_x"]
        counter = c.view.overlay(RespinCounter)
        if counter is not None:
            counter.collected = c.fmt(max(self.e.win - c.meters.base_win, 0))
        said = {"x": number(x), "win": c.fmt(self.e.win)}
        c.view.banner = Banner(tr("maxwin.title"), tr("maxwin.detail", **said), now, tier=4)
        c.host.announce(tr("maxwin.said", **said))
        self.ms = c.timing.line_show * 1.5
