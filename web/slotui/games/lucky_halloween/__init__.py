"""Lucky Halloween on screen: the Pumpkin Rider's entrance and his six features (the reels
reshuffled without royals, the lantern tree lighting a multiplier, wilds thrown, the Mega
Wild dragged in, Free Spins or Bonus scatters dropped), the cauldron picks of the free
spins and their bonus spins (the shared pick board), free spins on their own reels with
the shared counter, the Full Moon ladder (23 rungs, green shortcuts, the player's marker,
six pumpkins a step, COLLECT), and the game's paytable and rules pages. The time jackpot
is the shared panel.

Every feature is rebuilt from the round's events after a reload: the Rider's symbols on
the last spin, the tree's multiplier, the title card waiting for Start, the ladder with
the marker where it stood (the pumpkins are the shared board's), the free-spin counter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from collections.abc import Mapping
from typing import Any

from pyengine import events as ev
from pyengine.games.lucky_halloween import LadderClimb, LadderStart, LadderWin, RiderAppears, RiderSymbols

from ... import pages
from ...beats import BannerBeat, Beat, GameScreen, register_screen, symbol_name
from ...canvas import Canvas
from ...freespins import FreeSpins, FreeSpinsWords, begin
from ...intro import FeatureCard, ask_start
from ...layout import BACKGROUND, FRAME, LOGO, Layout, Picture
from ...overlay import IntroCard
from ...pages import PageContext, img, pct, x_text
from ...pick import PickLook
from ...render import GOLD, INK, PANEL, draw_symbol
from ...stage import Stage
from ...timing import clamp01, ease_in_out, ease_out_back, ease_out_cubic
from ...view import Banner, View

__all__ = [
    "SCREEN",
    "FeatureIntroBeat",
    "LadderOverlay",
    "MegaWild",
    "MultiplierBand",
    "PlacedSymbols",
    "RiderOverlay",
    "TreeOverlay",
    "finals",
    "ladder_rects",
    "paytable_html",
    "rebuild_feature",
    "rules_html",
]

Position = tuple[int, int]

FEATURE_NAMES = {
    "special_reels": "Special Reels",
    "pumpkin_tree": "Pumpkin Tree",
    "random_wilds": "Random Wilds",
    "mega_wild": "Mega Wild",
    "free_spins": "Free Spins",
    "full_moon_bonus": "Full Moon Bonus",
    "bonus_spins": "Bonus Spins",
}
"""The Rider's features as the player reads them."""
LADDER = "full_moon_bonus"
"""The ladder's feature id (the round history's and the messages posted to the page)."""
PUMPKINS = "pumpkins"
"""The ladder's pick."""
COLLECT = "COLLECT"
GREEN = "#58e07a"
WOOD = "#8a5a2b"
WOOD_DARK = "#3b220e"
ORANGE = "#ff9a1f"

RIDER = Picture("rider", lambda L: (L.cell * 2.0, L.cell * 2.0))
TREE = Picture("tree", lambda L: (L.reels_h * 0.9, L.reels_h))
MEGA = Picture("mega_wild", lambda L: (L.cell * 3.0, L.cell * 3.0))
CAULDRON = Picture("cauldron", lambda L: (L.cell * 1.1, L.cell * 1.1))
CAULDRON_OPEN = Picture("cauldron_open", lambda L: (L.cell * 0.9, L.cell * 0.9))
PUMPKIN = Picture("pumpkin", lambda L: (L.cell * 0.8, L.cell * 0.8))
PUMPKIN_OPEN = Picture("pumpkin_open", lambda L: (L.cell * 0.8, L.cell * 0.8))
PUMPKIN_COLLECT = Picture("pumpkin_collect", lambda L: (L.cell * 0.8, L.cell * 0.8))


def _ms(c: Stage, normal: float) -> float:
    """A duration at normal pace, shortened in turbo and (more) with reduced motion."""
    if c.reduced_motion:
        return normal * 0.25
    return normal * (0.5 if c.turbo else 1.0)


def _wild(c: Stage) -> str:
    return str(next(s["id"] for s in c.desc["symbols"] if s["kind"] == "wild"))


def _trigger_counts(c: Stage, window: tuple[tuple[str, ...], ...]) -> list[str]:
    """The features a spin's window starts, in the order the game plays them."""
    sc = c.desc["scatters"]
    out = []
    bonus = sum(col.count(sc["bonus"]["symbol"]) for col in window)
    free = sum(col.count(sc["free_spins"]["symbol"]) for col in window)
    if bonus >= int(c.desc["full_moon_bonus"]["trigger"]):
        out.append(LADDER)
    if free >= int(c.desc["free_spins"]["trigger"]):
        out.append("free_spins")
    return out


# -- the Rider ----------------------------------------------------------------------------------
@dataclass(slots=True)
class RiderOverlay:
    """The headless rider on his horse (in ``View.overlays``), moving from ``x0`` to ``x1``
    (canvas pixels, his left edge) at height ``y`` between ``started`` and ``started + ms``;
    with ``still`` he only fades in where he ends (reduced motion)."""

    x0: float
    x1: float
    y: float
    size: float
    started: float
    ms: float
    still: bool = False
    gone_at: float = 1e18

    def at(self, now: float) -> tuple[float, float]:
        """His position (left, top) at ``now``: a gallop with a little bounce."""
        u = ease_in_out((now - self.started) / max(self.ms, 1.0))
        x = self.x1 if self.still else self.x0 + (self.x1 - self.x0) * u
        hop = 0.0 if self.still else abs(math.sin(u * math.pi * 6)) * self.size * 0.06
        return x, self.y - hop

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        alpha = clamp01((now - self.started) / 200.0) * (1.0 - clamp01((now - self.gone_at) / 250.0))
        if alpha <= 0.0:
            return
        x, y = self.at(now)
        canvas.push(alpha=alpha)
        if canvas.has_sprite(RIDER.name):
            canvas.sprite(RIDER.name, x, y, self.size, self.size)
        else:
            canvas.text("RIDER", x + self.size / 2, y + self.size * 0.6, self.size * 0.2, ORANGE)
        canvas.pop()


def _rider_size(L: Layout) -> float:
    return min(L.cell * 1.9, L.width * 0.42)


class RiderBeat(Beat):
    """The Rider gallops across the screen and names his feature; for the Special Reels he
    then shuffles the reels and the royals fall away before the special spin."""

    def __init__(self, e: RiderAppears) -> None:
        self.e = e
        self.stage = 0
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        c.scratch["rider"] = self.e.feature
        name = FEATURE_NAMES.get(self.e.feature, self.e.feature.replace("_", " ").title())
        c.view.banner = Banner("THE PUMPKIN RIDER", name.upper(), now, tier=1)
        c.host.announce(f"The Pumpkin Rider appears: {name}!")
        self.ms = _ms(c, 1500.0)
        self.rider = _entrance(c, now, self.ms)
        c.view.remove(RiderOverlay)
        c.view.overlays.append(self.rider)

    def update(self, c: Stage, now: float) -> bool:
        if self.stage == 0:
            if now - self.t0 < self.ms and not self.hurried:
                return False
            c.view.banner = None
            c.view.remove(RiderOverlay)
            if self.e.feature != "special_reels" or self.hurried:
                return True
            self.stage = 1
            self.t1 = now
            self.shuffle_ms = _ms(c, 900.0)
            self.shuffle = ShuffleOverlay(
                _window_of(c.view), tuple(c.desc["royals"]), now, self.shuffle_ms, still=c.reduced_motion
            )
            c.view.on_reels.append(self.shuffle)
            c.host.announce("The reels are shuffled: the royals are gone.")
        return self.hurried or now - self.t1 >= self.shuffle_ms

    def hurry(self, c: Stage) -> None:
        self.hurried = True


def _entrance(c: Stage, now: float, ms: float) -> RiderOverlay:
    # Beats know no layout: the overlay places itself when it is drawn (`EntranceRider`).
    return EntranceRider(0.0, 0.0, 0.0, 0.0, now, ms, still=c.reduced_motion)


@dataclass(slots=True)
class EntranceRider(RiderOverlay):
    """The entrance: across the top of the reels from the left edge to past the right."""

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        self.size = _rider_size(L)
        self.y = L.reels_y - self.size * 0.55
        if self.still:
            self.x0 = self.x1 = (L.width - self.size) / 2
        else:
            self.x0, self.x1 = -self.size, float(L.width)
        RiderOverlay.draw(self, canvas, layout, now)


def _window_of(view: View) -> tuple[tuple[str, ...], ...]:
    rows = view.reels.rows
    return tuple(tuple(r.symbol_at(r.stop + row) for row in range(rows)) for r in view.reels.reels)


@dataclass(slots=True)
class ShuffleOverlay:
    """The Special Reels (in ``View.on_reels``): the window's symbols trade places, and the
    royals shrink away, before the reels spin again without them."""

    window: tuple[tuple[str, ...], ...]
    royals: tuple[str, ...]
    started: float
    ms: float
    still: bool = False
    """Reduced motion: the symbols stay where they are, the royals only fade."""

    def covers(self, reel: int) -> bool:
        return True

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        c = L.cell
        u = clamp01((now - self.started) / max(self.ms, 1.0))
        canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, PANEL)
        cols = len(self.window)
        rows = len(self.window[0]) if self.window else 0
        n = cols * rows
        for i in range(n):
            reel, row = divmod(i, rows)
            sym = self.window[reel][row]
            # Each symbol travels to another cell (a fixed derangement) and back, spinning by.
            j = (i * 7 + 4) % n
            tr, tw = divmod(j, rows)
            k = 0.0 if self.still else math.sin(u * math.pi)
            x = L.reels_x + (reel + (tr - reel) * k) * c
            y = L.reels_y + (row + (tw - row) * k) * c
            royal = sym in self.royals
            scale = 1.0 - u if royal and not self.still else 1.0 - 0.15 * k
            if scale <= 0.02:
                continue
            s = c * 0.92 * scale
            canvas.push(alpha=1.0 - u if royal and self.still else 1.0)
            draw_symbol(canvas, sym, x + (c - s) / 2, y + (c - s) / 2, s)
            canvas.pop()
        if u > 0.0:
            canvas.text("NO ROYALS", L.reels_x + L.reels_w / 2, L.reels_y + L.reels_h / 2, c * 0.3, GOLD)


# -- symbols the Rider places -----------------------------------------------------------------------
@dataclass(slots=True)
class PlacedSymbols:
    """The Rider's symbols over the reels (in ``View.on_reels``): each cell in ``landed`` shows
    ``symbol`` from that time on, dropping in from above (``drop``) or popping in; a cell not
    in the spin's wins is dimmed with the rest while wins show."""

    symbol: str
    view: View
    drop: bool
    landed: dict[Position, float] = field(default_factory=dict)
    fall_ms: float = 420.0

    def covers(self, reel: int) -> bool:
        rows = self.view.reels.rows
        return all((reel, row) in self.landed for row in range(rows))

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        c = L.cell
        lit = set(self.view.highlights)
        for (reel, row), t in self.landed.items():
            if now < t:
                continue
            u = clamp01((now - t) / max(self.fall_ms, 1.0))
            x, y, _, _ = L.cell_rect(reel, row)
            canvas.fill_rect(x, y, c, c, PANEL)
            if self.drop:
                dy = (1.0 - ease_out_back(u, 1.6)) * -(row + 1.2) * c
                s = c * 0.92
                draw_symbol(canvas, self.symbol, x + c * 0.04, y + c * 0.04 + dy, s)
            else:
                s = c * 0.92 * (1.35 - 0.35 * ease_out_cubic(u))
                draw_symbol(canvas, self.symbol, x + (c - s) / 2, y + (c - s) / 2, s)
            if lit and (reel, row) not in lit:
                canvas.fill_rect(x, y, c, c, "rgba(6,2,16,0.55)")
            elif lit:
                canvas.stroke_rect(x + 3, y + 3, c - 6, c - 6, GOLD, max(3.0, c * 0.03))


@dataclass(slots=True)
class HeadFlight:
    """The Rider's flaming head thrown to a cell (in ``View.overlays``): one arc per wild."""

    head: str
    flights: list[tuple[Position, float, float]] = field(default_factory=list)
    """(target cell, start, duration) of each throw."""

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        c = L.cell
        ox, oy = L.reels_x + c * 0.2, L.reels_y - c * 0.6
        for (reel, row), t, ms in self.flights:
            u = (now - t) / max(ms, 1.0)
            if not 0.0 <= u < 1.0:
                continue
            tx, ty = L.cell_center(reel, row)
            x = ox + (tx - ox) * u
            y = oy + (ty - oy) * u - math.sin(u * math.pi) * c * 1.2
            s = c * (0.5 + 0.2 * math.sin(u * math.pi))
            draw_symbol(canvas, self.head, x - s / 2, y - s / 2, s)


class PlaceBeat(Beat):
    """The Rider's symbols land: scatters dropped one by one, wilds thrown (his head flies
    to each cell and turns into a Wild)."""

    def __init__(self, e: RiderSymbols, c: Stage) -> None:
        self.e = e
        self.throw = e.symbol == _wild(c)
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        e = self.e
        self.placed = PlacedSymbols(e.symbol, c.view, drop=not self.throw)
        c.view.on_reels.append(self.placed)
        n = len(e.positions)
        name = symbol_name(c, e.symbol)
        if c.reduced_motion:
            # Reduced motion: the symbols appear in place one after another, nothing flies or falls.
            self.throw = False
            self.placed.drop = False
            self.placed.fall_ms = 1.0
            gap = c.timing.pause
            for i, p in enumerate(e.positions):
                self.placed.landed[(int(p[0]), int(p[1]))] = now + i * gap
            self.ms = n * gap
            verb = "places" if e.symbol == _wild(c) else "drops"
            c.host.announce(f"The Rider {verb} {n} {name} symbols on the reels.")
        elif self.throw:
            fly = _ms(c, 520.0)
            gap = _ms(c, 300.0)
            self.flight = HeadFlight(c.desc["wild_pays_as"])
            for i, p in enumerate(e.positions):
                t = now + i * gap
                self.flight.flights.append(((int(p[0]), int(p[1])), t, fly))
                self.placed.landed[(int(p[0]), int(p[1]))] = t + fly
            c.view.overlays.append(self.flight)
            self.ms = (n - 1) * gap + fly + self.placed.fall_ms
            c.host.announce(f"The Rider throws his head: {n} {name}s land on the reels.")
        else:
            gap = _ms(c, 260.0)
            self.placed.fall_ms = _ms(c, 480.0)
            for i, p in enumerate(e.positions):
                self.placed.landed[(int(p[0]), int(p[1]))] = now + i * gap
            self.ms = (n - 1) * gap + self.placed.fall_ms + _ms(c, 250.0)
            c.host.announce(f"The Rider drops {n} {name} symbols on the reels.")

    def update(self, c: Stage, now: float) -> bool:
        if now - self.t0 < self.ms and not self.hurried:
            return False
        self._settle(c, now)
        return True

    def _settle(self, c: Stage, now: float) -> None:
        for p in self.placed.landed:
            self.placed.landed[p] = min(self.placed.landed[p], now - self.placed.fall_ms)
        if self.throw:
            c.view.remove(HeadFlight)

    def hurry(self, c: Stage) -> None:
        self.hurried = True


@dataclass(slots=True)
class MegaWild:
    """The 3x3 Mega Wild over reels ``left`` to ``left + 2`` (in ``View.on_reels``), dragged in
    from the right edge between ``started`` and ``started + ms``."""

    left: int
    started: float
    ms: float
    view: View

    def covers(self, reel: int) -> bool:
        return self.left <= reel < self.left + 3

    def x_at(self, L: Layout, now: float) -> float:
        u = ease_out_cubic((now - self.started) / max(self.ms, 1.0))
        target = L.reels_x + self.left * L.cell
        return L.reels_x + L.reels_w + (target - L.reels_x - L.reels_w) * u

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        c = L.cell
        x = self.x_at(L, now)
        size = c * 3
        canvas.fill_rect(x, L.reels_y, size, L.reels_h, PANEL)
        if canvas.has_sprite(MEGA.name):
            canvas.sprite(MEGA.name, x + c * 0.03, L.reels_y + c * 0.03, size - c * 0.06, L.reels_h - c * 0.06)
        else:
            canvas.text("MEGA WILD", x + size / 2, L.reels_y + L.reels_h / 2, c * 0.3, GOLD)
        lit = self.view.highlights
        canvas.stroke_rect(x + 3, L.reels_y + 3, size - 6, L.reels_h - 6, GOLD, max(3.0, c * (0.045 if lit else 0.03)))


@dataclass(slots=True)
class DraggingRider(RiderOverlay):
    """The Rider ahead of the Mega Wild, pulling it in from the right (in ``View.overlays``)."""

    mega: MegaWild | None = None

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        if self.mega is None:
            return
        self.size = _rider_size(L) * 0.8
        self.y = L.reels_y - self.size * 0.45
        x = self.mega.x_at(L, now)
        self.x0 = self.x1 = x - self.size * 0.55
        self.still = True
        if self.gone_at > now:
            canvas.polyline(
                [(x - self.size * 0.1, self.y + self.size * 0.55), (x + L.cell * 0.3, L.reels_y + L.cell * 0.3)],
                "#d9c9a0",
                max(2.0, L.cell * 0.025),
            )
        RiderOverlay.draw(self, canvas, layout, now)


class DragBeat(Beat):
    """The Rider drags the Mega Wild onto its three reels."""

    def __init__(self, e: RiderSymbols) -> None:
        self.e = e
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        left = min(int(p[0]) for p in self.e.positions)
        self.ms = 1.0 if c.reduced_motion else _ms(c, 1300.0)
        # With reduced motion it is placed at once (its slide already over).
        self.mega = MegaWild(left, now - self.ms if c.reduced_motion else now, self.ms, c.view)
        c.view.on_reels.append(self.mega)
        self.rider = DraggingRider(0.0, 0.0, 0.0, 0.0, now, 1.0, mega=self.mega)
        if not c.reduced_motion:
            c.view.overlays.append(self.rider)
        c.host.announce(f"The Rider drags in the Mega Wild on reels {left + 1} to {left + 3}.")

    def update(self, c: Stage, now: float) -> bool:
        if now - self.t0 < self.ms + _ms(c, 300.0) and not self.hurried:
            if now - self.t0 >= self.ms and self.rider.gone_at > now:
                self.rider.gone_at = now
            return False
        self.mega.started = min(self.mega.started, now - self.mega.ms)
        c.view.remove(DraggingRider)
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True


def _placed(e: RiderSymbols, c: Stage) -> Beat:
    if c.scratch.get("rider") == "mega_wild":
        return DragBeat(e)
    return PlaceBeat(e, c)


# -- the Pumpkin Tree -------------------------------------------------------------------------------
def _lantern_spots(n: int) -> list[tuple[float, float]]:
    """Where the tree's ``n`` lanterns hang, as fractions of the tree picture (its branches
    are drawn to end at these points for eight lanterns)."""
    spots = [(0.16, 0.42), (0.3, 0.24), (0.5, 0.14), (0.7, 0.24), (0.84, 0.42), (0.24, 0.6), (0.5, 0.46), (0.76, 0.6)]
    if n <= len(spots):
        return spots[:n]
    return [
        (0.5 + 0.38 * math.cos(math.pi * (1 + i / (n - 1))), 0.5 + 0.36 * math.sin(math.pi * (1 + i / (n - 1))))
        for i in range(n)
    ]


@dataclass(slots=True)
class TreeOverlay:
    """The lantern tree over the reels (in ``View.overlays``): a light runs over its lanterns,
    each a prize multiplier, slows down and stops on ``chosen``."""

    writes_band = True

    values: tuple[int, ...]
    chosen: int
    started: float
    ms: float
    head: str
    steps: int = 0

    def __post_init__(self) -> None:
        # The light goes round twice, then on to the chosen lantern.
        self.steps = 2 * len(self.values) + self.values.index(self.chosen)

    def lit(self, now: float) -> int:
        u = clamp01((now - self.started) / max(self.ms, 1.0))
        step = int(self.steps * (1 - (1 - u) ** 2) + 0.5)
        return step % len(self.values)

    def done(self, now: float) -> bool:
        return now - self.started >= self.ms

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        canvas.fill_rect(0, 0, L.width, L.height, "rgba(6,2,18,0.82)")
        # Over the reel window; on a tall phone screen it takes the room above and below it too.
        h = L.reels_h * 1.02 if L.width > L.height else min(L.width * 0.95, L.height - L.top_h * 2.2)
        h = max(h, L.reels_h * 1.02)
        w = h * 0.9
        x = (L.width - w) / 2
        y = L.reels_y + (L.reels_h - h) / 2
        if canvas.has_sprite(TREE.name):
            canvas.sprite(TREE.name, x, y, w, h)
        title = min(L.top_h * 0.42, L.width * 0.06)
        canvas.text("THE PUMPKIN TREE", L.width / 2, L.top_h * 0.5 + title * 0.4, title, GOLD)
        lit = self.lit(now)
        final = self.done(now)
        s = L.cell * 0.42 * h / (L.reels_h * 1.02)
        for i, (fx, fy) in enumerate(_lantern_spots(len(self.values))):
            cx, cy = x + fx * w, y + fy * h
            on = i == lit
            canvas.push(alpha=1.0 if on else 0.4)
            if on:
                canvas.fill_rect(cx - s * 0.7, cy - s * 0.7, s * 1.4, s * 1.4, "rgba(255,170,40,0.35)")
            draw_symbol(canvas, self.head, cx - s / 2, cy - s / 2, s)
            canvas.pop()
            canvas.text(f"×{self.values[i]}", cx, cy + s * 0.95, s * 0.42, GOLD if on else INK)
        if final:
            canvas.text(
                f"ALL PRIZES ×{self.chosen}", L.width / 2, L.reels_y + L.reels_h + L.cell * 0.2, L.cell * 0.26, GOLD
            )


@dataclass(slots=True)
class MultiplierBand:
    """The tree's multiplier in the band above the reels while the spin's prizes show."""

    multiplier: int

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        size = min(L.top_h * 0.34, L.width * 0.045)
        if canvas.has_sprite(TREE.name):
            h = L.top_h * 0.8
            canvas.sprite(TREE.name, L.width / 2 - size * 5.6 - h * 0.9, L.top_h * 0.12, h * 0.9, h)
        canvas.text(f"PUMPKIN TREE: ALL PRIZES ×{self.multiplier}", L.width / 2, L.top_h * 0.62, size, GOLD)


class TreeBeat(Beat):
    """The Rider lights the lantern tree: a multiplier for every prize of the spin."""

    def __init__(self, e: ev.WinMultiplier) -> None:
        self.e = e
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        values = tuple(sorted(int(k) for k in c.desc["rider"]["pumpkin_tree"]))
        chosen = int(self.e.multiplier)
        if chosen not in values:
            values = tuple(sorted({*values, chosen}))
        self.ms = _ms(c, 2200.0)
        self.tree = TreeOverlay(values, chosen, now, self.ms, str(c.desc["wild_pays_as"]))
        if c.reduced_motion:
            self.tree.started = now - self.ms  # no running light: the chosen lantern is lit at once
            self.ms = c.timing.line_show
        c.view.remove(TreeOverlay)
        c.view.overlays.append(self.tree)
        c.host.announce(f"The Pumpkin Tree lights up: every prize of this spin is multiplied by {chosen}.")
        self.hold = _ms(c, 700.0)

    def update(self, c: Stage, now: float) -> bool:
        if self.hurried:
            self.tree.started = now - self.ms
        if now - self.t0 < self.ms + self.hold and not self.hurried:
            return False
        c.view.remove(TreeOverlay)
        c.view.band = MultiplierBand(int(self.e.multiplier))
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True


# -- a feature's title card ----------------------------------------------------------------------------
def _card(c: Stage, feature: str, now: float, *, waiting: bool = False) -> FeatureCard:
    sc = c.desc["scatters"]
    if feature == LADDER:
        lad = c.desc["full_moon_bonus"]
        top = x_text(lad["rungs_x"][-1])
        card = FeatureCard(
            "FULL MOON BONUS",
            (f"CLIMB THE {len(lad['rungs_x'])}-RUNG LADDER UP TO {top}", "PICK A PUMPKIN FOR EVERY STEP"),
            str(sc["bonus"]["symbol"]),
            now,
            waiting=waiting,
        )
    else:
        card = FeatureCard(
            "FREE SPINS",
            ("CHOOSE 1 OF 3 CAULDRONS", "FOR YOUR FREE SPINS"),
            str(sc["free_spins"]["symbol"]),
            now,
            waiting=waiting,
        )
    c.view.remove(IntroCard)
    c.view.overlays.append(card)
    return card


def _next_feature(c: Stage, events: list[ev.Event] | None = None) -> str:
    """The feature the pending Start begins: the spin's triggers in order, less those begun."""
    evs = events if events is not None else list(c.session.round_events)
    spins = [e for e in evs if isinstance(e, ev.Spin) and e.phase != "free"]
    if not spins:
        return "free_spins"
    i = evs.index(spins[-1])
    window = spins[-1].window
    for e in evs[i:]:
        if isinstance(e, RiderSymbols):
            window = e.window
    features = _trigger_counts(c, window)
    begun = sum(isinstance(e, ev.ChoiceMade) and e.kind == "feature_start" for e in evs[i:])
    return features[begun] if begun < len(features) else (features[-1] if features else "free_spins")


class FeatureIntroBeat(Beat):
    """A feature is won: its title card, then (unless autoplay answers) Start is awaited."""

    def __init__(self) -> None:
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        self.feature = _next_feature(c)
        self.card = _card(c, self.feature, now)
        name = "The Full Moon Bonus" if self.feature == LADDER else "Free spins"
        c.host.announce(f"{name} won!")
        self.ms = c.timing.line_show

    def update(self, c: Stage, now: float) -> bool:
        if now - self.t0 < self.ms and not self.hurried and not c.start_requested:
            return False
        ask_start(self.card, c, "Press Start to play the feature.")
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True


def _decision(e: ev.DecisionPending, c: Stage) -> Beat | None:
    if e.kind != "feature_start":
        return None
    if c.queue and isinstance(c.queue[0], ev.ChoiceMade):
        return None  # answered already (autoplay plays the feature)
    return FeatureIntroBeat()


# -- the Full Moon ladder ----------------------------------------------------------------------------
COLUMNS = 8
"""Positions per tier of the ladder (the foot, 0, and the 23 rungs make three tiers of 8)."""


def ladder_rects(L: Layout) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    """(the ladder, the pumpkins): the ladder over the upper part of the reel window, the
    pumpkins in a row below it."""
    h = L.reels_h * 0.64
    ladder = (L.reels_x, L.reels_y - L.cell * 0.12, L.reels_w, h + L.cell * 0.12)
    pumpkins = (L.reels_x, L.reels_y + h, L.reels_w, L.reels_h - h)
    return ladder, pumpkins


def _pick_area(name: str, L: Layout) -> tuple[float, float, float, float] | None:
    return ladder_rects(L)[1] if name == PUMPKINS else None


@dataclass(slots=True)
class LadderOverlay:
    """The Full Moon ladder (in ``View.overlays``, under the pumpkins' board): the rungs with
    their multipliers in three tiers, the green shortcuts, the guaranteed minimum, and the
    player's marker at ``position`` (moving between ``path`` points while it climbs)."""

    rungs_x: tuple[int, ...]
    shortcuts: dict[int, int]
    minimum: int
    head: str
    started: float
    position: int = 0
    path: list[int] = field(default_factory=list)
    """The positions the marker walks through (the last by a shortcut if ``jump``)."""
    walk_start: float = 0.0
    step_ms: float = 200.0
    jump: bool = False
    message: str = ""
    final: int | None = None

    @property
    def writes_band(self) -> bool:
        """The ladder's message takes the band above the reels (`View.writes_band`)."""
        return bool(self.message)

    @property
    def top(self) -> int:
        return len(self.rungs_x)

    def center(self, L: Layout, p: int) -> tuple[float, float]:
        (x, y, w, h), _ = ladder_rects(L)
        tiers = -(-(self.top + 1) // COLUMNS)
        row, col = divmod(p, COLUMNS)
        if row % 2:
            col = COLUMNS - 1 - col
        cw, rh = w / COLUMNS, h / tiers
        return x + (col + 0.5) * cw, y + h - (row + 0.5) * rh

    def marker(self, L: Layout, now: float) -> tuple[float, float]:
        """Where the marker is drawn at ``now``."""
        if not self.path:
            return self.center(L, self.position)
        n = len(self.path)
        t = (now - self.walk_start) / max(self.step_ms, 1.0)
        if t >= n:
            return self.center(L, self.path[-1])
        i = int(t)
        u = t - i
        a = self.center(L, self.position if i == 0 else self.path[i - 1])
        b = self.center(L, self.path[i])
        if self.jump and i == n - 1:
            u = ease_in_out(u)
            lift = math.sin(u * math.pi) * L.cell * 0.5
            return a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u - lift
        u = ease_out_cubic(u)
        return a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u - math.sin(u * math.pi) * L.cell * 0.12

    def walking(self, now: float) -> bool:
        return bool(self.path) and now - self.walk_start < len(self.path) * self.step_ms

    def settle(self) -> None:
        """The walk is over: the marker stands at its end."""
        if self.path:
            self.position = self.path[-1]
        self.path = []
        self.jump = False

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        u = ease_out_cubic((now - self.started) / 300.0)
        canvas.fill_rect(0, 0, L.width, L.height, f"rgba(6,2,18,{0.6 + 0.28 * u:.2f})")
        (x, y, w, h), _ = ladder_rects(L)
        tiers = -(-(self.top + 1) // COLUMNS)
        cw, rh = w / COLUMNS, h / tiers
        canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, "rgba(14,6,26,0.9)")
        rail = max(2.0, L.cell * 0.03)
        # The ladder: two rails along each tier, joined at the tier's turning end, rungs between.
        for row in range(tiers):
            cy = y + h - (row + 0.5) * rh
            for dy in (-0.36, 0.36):
                canvas.polyline([(x + cw * 0.1, cy + dy * rh), (x + w - cw * 0.1, cy + dy * rh)], WOOD, rail)
            if row + 1 < tiers:
                end = x + w - cw * 0.1 if row % 2 == 0 else x + cw * 0.1
                canvas.polyline([(end, cy + 0.36 * rh), (end, cy - rh - 0.36 * rh)], WOOD, rail)
        # The green shortcuts, drawn under the plates: a path with an arrowhead at its far end.
        for a, b in self.shortcuts.items():
            (ax, ay), (bx, by) = self.center(L, a), self.center(L, b)
            width = max(3.0, L.cell * 0.05)
            canvas.polyline([(ax, ay), (bx, by)], GREEN, width)
            d = math.hypot(bx - ax, by - ay) or 1.0
            ux, uy = (bx - ax) / d, (by - ay) / d
            tx, ty = bx - ux * rh * 0.3, by - uy * rh * 0.3
            k = rh * 0.16
            canvas.polyline(
                [(tx - ux * k - uy * k, ty - uy * k + ux * k), (tx, ty), (tx - ux * k + uy * k, ty - uy * k - ux * k)],
                GREEN,
                width,
            )
        fs = min(cw * 0.3, rh * 0.34)
        pos = self.position if not self.path else -1
        for p in range(self.top + 1):
            cx, cy = self.center(L, p)
            pw, ph = cw * 0.86, rh * 0.56
            px, py = cx - pw / 2, cy - ph / 2
            if p == 0:
                canvas.fill_rect(px, py, pw, ph, WOOD_DARK)
                canvas.text("START", cx, cy + fs * 0.3, fs * 0.72, INK)
                continue
            value = self.rungs_x[p - 1]
            reached = p <= self.position
            below = p < self.minimum
            shortcut = p in self.shortcuts or p in self.shortcuts.values()
            fill = "#4a2a10" if not reached else "#b8641a"
            if self.final == p:
                fill = "#e0a020"
            canvas.fill_rect(px, py, pw, ph, fill)
            edge = GREEN if shortcut else GOLD if p == self.minimum or p == self.top else WOOD
            canvas.stroke_rect(px, py, pw, ph, edge, max(1.5, L.cell * (0.028 if shortcut else 0.018)))
            color = "#8d7a66" if below and not reached else GOLD if p == pos else INK
            canvas.text(x_text(value), cx, cy + fs * 0.36, fs, color)
        # The guaranteed minimum, written beside its rung.
        mx, my = self.center(L, self.minimum)
        canvas.text("MIN", mx, my - rh * 0.36, fs * 0.55, GOLD)
        # The marker: the Rider's lantern head.
        hx, hy = self.marker(L, now)
        s = min(cw, rh) * 0.62
        draw_symbol(canvas, self.head, hx - s / 2, hy - rh * 0.28 - s * 0.72, s)
        if self.message:
            # In the band above the reels (the pumpkins' title is there only while they wait).
            size = min(L.top_h * 0.34, L.width * 0.05)
            canvas.text(self.message, L.width / 2, L.top_h * 0.5 + size * 0.4, size, GOLD)


def _ladder(c: Stage, e: LadderStart, now: float) -> LadderOverlay:
    rungs = tuple(int(v) for v in c.desc["full_moon_bonus"]["rungs_x"])
    minimum = rungs.index(e.minimum_x) + 1 if e.minimum_x in rungs else 1
    overlay = LadderOverlay(rungs, _shortcuts_json(c.desc), minimum, str(c.desc["wild_pays_as"]), now)
    c.view.remove(LadderOverlay)
    c.view.overlays.append(overlay)
    return overlay


def _shortcuts_json(desc: Any) -> dict[int, int]:
    """The ladder's shortcuts, rung number to rung number (as the description gives them)."""
    return {int(a): int(b) for a, b in desc["full_moon_bonus"]["shortcuts"].items()}


class LadderStartBeat(Beat):
    """The Full Moon Bonus begins: the ladder appears with the marker at its foot."""

    def __init__(self, e: LadderStart) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        self.ladder = _ladder(c, self.e, now)
        c.view.remove(IntroCard)
        c.host.post("featureStart", {"feature": LADDER, "count": self.e.count, "minimum_x": self.e.minimum_x})
        c.host.announce(
            f"Full Moon Bonus: climb the ladder. {self.e.count} Bonus symbols guarantee at least "
            f"{self.e.minimum_x} times the bet."
        )
        self.ms = _ms(c, 700.0)

    def update(self, c: Stage, now: float) -> bool:
        return now - self.t0 >= self.ms

    def hurry(self, c: Stage) -> None:
        self.ms = 0.0


class ClimbBeat(Beat):
    """The marker climbs the pumpkin's rungs, takes a green shortcut it lands on, and stops
    with COLLECT."""

    def __init__(self, e: LadderClimb) -> None:
        self.e = e
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        e = self.e
        ladder = c.view.overlay(LadderOverlay)
        if ladder is None:
            self.ms = 0.0
            self.ladder = None
            return
        self.ladder = ladder
        ladder.position = e.start
        path = list(range(e.start + 1, e.landed + 1))
        ladder.jump = e.position != e.landed
        if ladder.jump:
            path.append(e.position)
        ladder.path = path
        ladder.walk_start = now
        ladder.step_ms = _ms(c, 240.0)
        ladder.message = ""
        rungs = ladder.rungs_x
        words = f"{e.rungs} rung{'s' if e.rungs != 1 else ''} up to {rungs[e.landed - 1]}×"
        if ladder.jump:
            words += f"; the green shortcut leads on to {rungs[e.position - 1]}×"
        c.host.announce(words + (". Collect!" if e.collect else "."))
        self.ms = len(path) * ladder.step_ms + _ms(c, 350.0 if not e.collect else 700.0)
        self.said = False

    def update(self, c: Stage, now: float) -> bool:
        ladder = self.ladder
        if ladder is None:
            return True
        if not ladder.walking(now) and not self.said:
            self.said = True
            words = ["GREEN SHORTCUT!"] if self.e.position != self.e.landed else []
            if self.e.collect:
                words.append(f"COLLECT {x_text(ladder.rungs_x[self.e.position - 1])}")
            ladder.message = " ".join(words)
        if now - self.t0 < self.ms and not self.hurried:
            return False
        ladder.settle()
        ladder.position = self.e.position
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True


class LadderWinBeat(Beat):
    """The collected rung glows on the ladder; then the ladder leaves for the award's banner."""

    def __init__(self, e: LadderWin) -> None:
        self.e = e
        self.stage = 0
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        e = self.e
        ladder = c.view.overlay(LadderOverlay)
        if ladder is not None:
            ladder.settle()
            ladder.position = e.rung
            ladder.final = e.rung
            ladder.message = f"COLLECT {x_text(e.multiplier)}"
        c.win_shown = min(c.win_shown + e.win, c.win_limit)
        c.host.post("featureEnd", {"feature": LADDER, "win": e.win, "multiplier": e.multiplier})
        c.host.announce(f"Full Moon Bonus: {e.multiplier} times the bet, {c.fmt(e.win)}.")
        self.ms = c.timing.line_show * 0.8 if ladder is not None else 0.0

    def update(self, c: Stage, now: float) -> bool:
        if self.stage == 0:
            if now - self.t0 < self.ms and not self.hurried:
                return False
            self.stage = 1
            self.t1 = now
            c.view.remove(LadderOverlay)
            e = self.e
            c.view.banner = Banner("FULL MOON BONUS", f"{x_text(e.multiplier)} THE BET: {c.fmt(e.win)}", now, tier=3)
            self.ms = c.timing.line_show * 1.6
        if now - self.t1 < self.ms and not (self.hurried and now - self.t1 >= c.timing.pause):
            return False
        c.view.banner = None
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True


# -- picks and free spins ---------------------------------------------------------------------------------
def _pick_label(name: str, prize: str) -> str:
    if name == PUMPKINS:
        rungs, _, collect = prize.partition(" ")
        return f"+{rungs} {COLLECT}" if collect else f"+{rungs}"
    if name == "bonus_cauldron":
        return f"+{prize} SPINS"
    return f"{prize} SPINS"


def _pick_sprite(name: str, prize: str) -> str | None:
    if name == PUMPKINS:
        return PUMPKIN_COLLECT.name if prize.endswith(COLLECT) else PUMPKIN_OPEN.name
    return CAULDRON_OPEN.name


LOOK = PickLook(
    titles={
        "cauldron": "CHOOSE A CAULDRON",
        "bonus_cauldron": "BONUS SPINS CAULDRON",
        PUMPKINS: "PICK A PUMPKIN",
    },
    label=_pick_label,
    sprite=_pick_sprite,
    cover=CAULDRON.name,
    covers={PUMPKINS: PUMPKIN.name},
    prompts={"cauldron": "PICK A CAULDRON", "bonus_cauldron": "PICK A CAULDRON", PUMPKINS: "PICK A PUMPKIN"},
    area=_pick_area,
    scenes=frozenset({PUMPKINS}),
)


class FreeSpinsIntro(BannerBeat):
    """The cauldron's free spins (and the extra scatters' ten each) in a banner; then the
    free spins play on their own reels with the counter above them."""

    def __init__(self, e: ev.FreeSpinsAwarded) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        begin(c, self.e)
        c.view.phase = "free"
        reveals = [x for x in c.session.round_events if isinstance(x, ev.PickReveal) and x.name == "cauldron"]
        picked = int(reveals[-1].prize) if reveals and reveals[-1].prize.isdigit() else self.e.count
        extra = self.e.count - picked
        detail = f"{picked} FROM THE CAULDRON + {extra} FOR THE EXTRA SCATTERS" if extra > 0 else "FROM THE CAULDRON"
        c.view.banner = Banner(f"{self.e.count} FREE SPINS", detail, now, tier=2)
        c.host.announce(f"{self.e.count} free spins!")
        c.refresh_status()
        self.ms = c.timing.line_show * 1.2


FREE_SPINS = FreeSpins(
    FreeSpinsWords(retrigger="+{count} BONUS SPINS", retrigger_said="The Rider brings {count} bonus spins!"),
    intro=lambda e, c: FreeSpinsIntro(e),
)


# -- recovery -------------------------------------------------------------------------------------------------
def rebuild_feature(c: Stage, events: list[ev.Event]) -> None:
    """Recovery: the Rider's symbols and the tree's multiplier on the last spin, the title
    card waiting for Start, the ladder with its marker, the free-spin counter."""
    spins = [i for i, e in enumerate(events) if isinstance(e, ev.Spin)]
    if spins:
        last = spins[-1]
        rider = next((e for e in reversed(events[:last]) if isinstance(e, RiderAppears)), None)
        after = events[last:]
        feature = rider.feature if rider is not None and events.index(rider) == last - 1 else ""
        for e in after:
            if isinstance(e, RiderSymbols):
                if feature == "mega_wild":
                    left = min(int(p[0]) for p in e.positions)
                    c.view.on_reels.append(MegaWild(left, c.now - 1e6, 1.0, c.view))
                else:
                    placed = PlacedSymbols(e.symbol, c.view, drop=False)
                    placed.landed = {(int(p[0]), int(p[1])): c.now - 1e6 for p in e.positions}
                    c.view.on_reels.append(placed)
            elif isinstance(e, ev.WinMultiplier):
                c.view.band = MultiplierBand(int(e.multiplier))
    if not c.session.in_round:
        return
    if FREE_SPINS.restore(c, events):
        c.view.phase = "free"
        c.refresh_status()
    start = next((e for e in reversed(events) if isinstance(e, LadderStart)), None)
    if start is not None and not any(isinstance(e, LadderWin) for e in events[events.index(start) :]):
        ladder = _ladder(c, start, c.now - 1e6)
        climbs = [e for e in events if isinstance(e, LadderClimb)]
        ladder.position = climbs[-1].position if climbs else 0
        return
    if c.pending_kind == "feature_start":
        c.view.status = ""
        _card(c, _next_feature(c, events), c.now - 1e6, waiting=True)


# -- pages --------------------------------------------------------------------------------------------------
def finals(desc: Any, count: int) -> list[int]:
    """The ladder's possible prizes (multipliers) for ``count`` Bonus symbols, by search
    over its rules: every rung a climb can end on where COLLECT may show."""
    lad = desc["full_moon_bonus"]
    rungs = [int(v) for v in lad["rungs_x"]]
    top = len(rungs)
    shortcuts = _shortcuts_json(desc)
    minimums = {int(k): int(v) for k, v in lad["minimum"].items()}
    n = min(count, max(minimums))
    least = minimums[n]
    seen = {0}
    todo = [0]
    ends: set[int] = set()
    while todo:
        p = todo.pop()
        for k in range(1, int(lad["steps"]) + 1):
            landed = min(p + k, top)
            to = shortcuts.get(landed, landed)
            if to >= least or to == top:
                ends.add(to)
            if to != top and to not in seen:
                seen.add(to)
                todo.append(to)
    return sorted(rungs[p - 1] for p in ends)


def _ladder_table(desc: Any, stake: int, fmt: pages.Fmt) -> str:
    lad = desc["full_moon_bonus"]
    shortcuts = _shortcuts_json(desc)
    rungs = [int(v) for v in lad["rungs_x"]]
    cells = []
    for i, x in enumerate(rungs, start=1):
        note = f" → {x_text(rungs[shortcuts[i] - 1])}" if i in shortcuts else ""
        cls = ' class="shortcut"' if i in shortcuts or i in shortcuts.values() else ""
        cells.append(f'<tr{cls}><th scope="row">{i}</th><td>{x_text(x)}{note}</td><td>{fmt(x * stake)}</td></tr>')
    return (
        '<table class="ladder"><thead><tr><th scope="col">Rung</th><th scope="col">Prize (green: shortcut)</th>'
        f'<th scope="col">At this bet</th></tr></thead><tbody>{"".join(reversed(cells))}</tbody></table>'
    )


def paytable_html(ctx: PageContext) -> str:
    """The line pays as multipliers of the total bet (with the amount at this bet), the Wild,
    the two scatters, the ladder's rungs and the win lines."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    bet_per_line, lines = ctx.bet_per_line, ctx.lines
    stake = bet_per_line * lines
    wild = next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")
    sc = desc["scatters"]
    free, bonus = sc["free_spins"]["symbol"], sc["bonus"]["symbol"]
    top = names.get(desc.get("wild_pays_as", ""), "")

    def scatter_pays(pays: dict[str, Any]) -> str:
        return "".join(
            f"<li><b>{k}×</b> {x_text(v)} {fmt(v * stake)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
        )

    fs = desc["free_spins"]
    lad = desc["full_moon_bonus"]
    counts = ", ".join(sorted(fs["cauldron"], key=int))
    return "".join(
        [
            f'<p class="note">The values are multipliers of the total bet, not credits: a line prize is the total '
            f"bet of {fmt(stake)} ({lines} fixed lines at {fmt(bet_per_line)}) times the symbol's multiplier, shown "
            "with its amount at this bet. Line wins pay left to right on consecutive reels from the leftmost; only "
            "the highest prize per line is paid, and prizes on different lines add up. Scatter prizes add to the "
            "line prizes; only the highest combination per scatter symbol is paid.</p>",
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>Substitutes for every symbol except the {escape(names[free])} and {escape(names[bonus])} "
            f"scatters. A line of {escape(names[wild])}s alone pays as the {escape(top)}.</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, free, names[free], 80)}<div><h3>{escape(names[free])}</h3>'
            f"<p>Scatter: pays anywhere, × the total bet. {fs['trigger']} or more start free spins: choose 1 of 3 "
            f"cauldrons for {counts} free spins, +{fs['per_extra_scatter']} for each symbol past the "
            f'{fs["trigger"]}rd.</p><ul class="prizes">{scatter_pays(sc["free_spins"]["pays_x"])}</ul></div></div>',
            f'<div class="pay special">{img(ctx.assets, bonus, names[bonus], 80)}<div><h3>{escape(names[bonus])}</h3>'
            f"<p>Scatter: pays anywhere, × the total bet. {lad['trigger']} or more start the Full Moon Bonus "
            f'ladder, up to {x_text(lad["rungs_x"][-1])}.</p><ul class="prizes">'
            f"{scatter_pays(sc['bonus']['pays_x'])}</ul></div></div>",
            pages.symbol_pays(desc, bet_per_line, fmt, ctx.assets, stake_lines=lines),
            "<h3>Full Moon ladder</h3><p>The rungs pay their multiplier × the total bet; a rung joined by a green "
            "path jumps to the far end.</p>",
            _ladder_table(desc, stake, fmt),
            pages.line_shapes(desc),
        ]
    )


def _one_in(weight: int, denominator: int) -> str:
    """A chance as "1 in N" (to one decimal where it is not whole), and its exact fraction
    where that says more (not "1 in 80 (1 in 80)")."""
    f = Fraction(denominator, weight)
    n = f"{f.numerator:,}" if f.denominator == 1 else f"{float(f):,.1f}"
    return f"1 in {n}" if weight == 1 else f"1 in {n} ({weight:,} in {denominator:,})"


def _shares(table: dict[str, int], unit: str = "") -> str:
    total = sum(table.values())
    return ", ".join(
        f"{k}{unit} ({pct(Fraction(v, total))})" for k, v in sorted(table.items(), key=lambda kv: int(kv[0]))
    )


def rules_html(ctx: PageContext) -> str:
    """Every rule as implemented: the Rider's fixed chances, the cauldrons, the bonus spins
    and their bound, the ladder and its finals, the jackpot, the win bound; then the shared
    paragraphs and the figures."""
    desc, names = ctx.desc, ctx.names
    # The round's win bound, from the math report (games.json): the screen does not prove it.
    bound = x_text(ctx.info["max_win_x"]) if "max_win_x" in ctx.info else "a finite multiple of"
    rider = desc["rider"]
    den = int(rider["denominator"])
    weights = rider["weights"]
    sc = desc["scatters"]
    free, bonus = escape(names[sc["free_spins"]["symbol"]]), escape(names[sc["bonus"]["symbol"]])
    wild = escape(next(s["name"] for s in desc["symbols"] if s["kind"] == "wild"))
    fs = desc["free_spins"]
    bs = fs["bonus_spins"]
    lad = desc["full_moon_bonus"]
    jp = desc["jackpot"]
    lines = len(desc["paylines"])
    royals = ", ".join(escape(names[r]) for r in desc["royals"])
    rungs = [int(v) for v in lad["rungs_x"]]
    shortcuts = _shortcuts_json(desc)
    minimum = {int(k): int(v) for k, v in lad["minimum"].items()}
    mega = sorted(int(k) for k in rider["mega_wild"])
    rows = [
        ("Special Reels", "special_reels", f"the spin uses the Special Reels, without the royals ({royals})"),
        (
            "Pumpkin Tree",
            "pumpkin_tree",
            "a prize multiplier on every prize of the spin: " + _shares(rider["pumpkin_tree"], "×"),
        ),
        ("Random Wilds", "random_wilds", f"{_shares(rider['random_wilds'])} {wild}s on random positions"),
        (
            "Mega Wild",
            "mega_wild",
            f"a 3×3 {wild} on reels " + ", ".join(f"{k} to {k + 2}" for k in mega) + " (equally likely)",
        ),
        ("Free Spins", "free_spins", f"{_shares(rider['free_spins'])} {free} symbols dropped on different reels"),
        (
            "Full Moon Bonus",
            "full_moon_bonus",
            f"{_shares(rider['full_moon_bonus'])} {bonus} symbols dropped on different reels",
        ),
    ]
    table = "".join(
        f'<tr><th scope="row">{name}</th><td>{_one_in(int(weights[key]), den)}</td><td>{what}</td></tr>'
        for name, key, what in rows
        if int(weights[key])
    )
    final_lists = "".join(
        f"<li>{n} {bonus} symbols: " + ", ".join(x_text(v) for v in finals(desc, n)) + "</li>" for n in sorted(minimum)
    )
    shortcut_text = ", ".join(f"{x_text(rungs[a - 1])} → {x_text(rungs[b - 1])}" for a, b in sorted(shortcuts.items()))
    minimum_text = "; ".join(f"{n} symbols: {x_text(rungs[m - 1])}" for n, m in sorted(minimum.items()))
    chance = bs["chance"]
    most = int(max(int(k) for k in fs["cauldron"])) + int(bs["max_awards"]) * max(int(k) for k in bs["cauldron"])
    share = Fraction(str(jp["contribution"])) * 100
    minute = int(jp["deadline_minute"])
    deadline = f"{minute // 60:02d}:{minute % 60:02d} UTC"
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>5 reels, {desc['rows']} rows and {lines} fixed win lines. The total bet is {lines} × the bet per line; "
        "change it with + and − between rounds. The bet cannot change during free spins or the Full Moon "
        "Bonus. A line prize is the total bet × the symbol's multiplier in the paytable (the paytable shows "
        "multipliers, not credits); only the highest prize per line is paid.</p>",
        f"<h4>{wild}</h4><p>The {wild} substitutes for every symbol except the {free} and {bonus} scatters and "
        "counts as the symbol that forms the highest win on its line.</p>",
        "<h4>The Pumpkin Rider</h4><p>On any paid spin the Pumpkin Rider may appear and bring one feature. "
        "<b>His chances are fixed</b>: they never depend on past play, the balance, the bet or the time, and are "
        "never adapted. Per paid spin:</p>"
        '<table class="rider"><thead><tr><th scope="col">Feature</th><th scope="col">Chance</th>'
        f'<th scope="col">What it does</th></tr></thead><tbody>{table}</tbody></table>'
        "<p>The Rider's symbols replace what the reels showed; the spin pays on the result and its scatters "
        "count. The Pumpkin Tree's multiplier applies to the spin's line and scatter prizes, not to a feature "
        "the spin starts.</p>",
        f"<h4>Free spins</h4><p>{fs['trigger']} or more {free} symbols anywhere start free spins. Choose 1 of 3 "
        f"cauldrons: each holds {_shares(fs['cauldron'])} free spins, filled before you choose; the other two "
        f"are shown after. Each {free} symbol past the {fs['trigger']}rd adds {fs['per_extra_scatter']} spins. "
        "Free spins use their own reels, at the bet of the spin that started them. On each free spin the Rider "
        f"may appear (chance {_one_in(int(chance['numerator']), int(chance['denominator']))}, fixed) and drop "
        f"{fs['trigger']} {free} symbols: they pay their scatter prize and award bonus spins, again from a pick of "
        f"1 of 3 cauldrons of {_shares(bs['cauldron'])} spins. <b>Bound:</b> the Rider awards bonus spins at most "
        f"{bs['max_awards']} times in one free-spins feature, so bonus spins never chain without end (with 3 "
        f"symbols a feature has at most {most} spins).</p>",
        f"<h4>Full Moon Bonus</h4><p>{lad['trigger']} or more {bonus} symbols anywhere start the Full Moon Bonus "
        f"(before the free spins, when a spin starts both). The ladder has {len(rungs)} rungs: "
        + ", ".join(x_text(v) for v in rungs)
        + " the total bet. You start at its foot. For every step pick 1 of 6 pumpkins: they hold 1 to "
        f"{lad['steps']} rungs, one of each, and some show COLLECT; a new set is placed for every step, and the "
        "other pumpkins are shown after your pick. Green shortcuts: landing on "
        f"{shortcut_text} jumps to the far end. When your pumpkin shows COLLECT you climb its rungs and collect "
        f"the rung you land on; the top rung ({x_text(rungs[-1])}) always collects. COLLECT never shows on a "
        f"pumpkin that would end below the guaranteed minimum: {minimum_text} (5 or more count as 5). So the "
        f"prizes you can win are:</p><ul>{final_lists}</ul><p>The pumpkins are filled before you pick: your "
        "choice does not change the expected prize.</p>",
        f"<h4>Time jackpot</h4><p>A progressive pot fed by {float(share):g}% of every stake, starting at "
        f"{ctx.fmt(0)} and guaranteed to drop before its deadline: the first {deadline} at least "
        f"{jp['min_minutes']} minutes after the pot started. Every paid spin can win it, with the chance stake ÷ "
        f"(stake + {ctx.fmt(int(jp['odds_per_second']))} × the seconds left): the higher the stake and the nearer "
        "the deadline, the better the odds, up to certain once the deadline is reached. The jackpot panel shows "
        "the pot and the time left. A jackpot goes to the balance at once, even in the middle of a feature; then "
        "a new pot starts with a new deadline. In this free-play demo the jackpot belongs to your session "
        "alone.</p>",
        f"<h4>Max win</h4><p>There is no win cap. The highest award is the top rung, {x_text(rungs[-1])} the "
        f"total bet. Because bonus spins are bounded, every round's win is finite: at most "
        f"<b>{bound}</b> the total bet (a proven bound, every line at its top prize on every "
        "spin, not an award). A jackpot comes on top.</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop="when free spins or the Full Moon Bonus are won (if chosen; otherwise it plays them, "
            "picking for you)",
            recovery="A round interrupted in a cauldron pick, in free spins or on the Full Moon ladder continues "
            "where it was after a reload: the same cauldrons or pumpkins, the marker on its rung, the free-spin "
            "counter. A feature waiting for Start waits again. A round whose result was decided shows it on "
            "reload and is listed in the history.",
            start="the feature",
            rtp_note="the base game, the jackpot contribution included",
        ),
    ]
    return "".join(parts)


def history_board(record: Any, fmt: pages.Fmt, assets: str, names: Mapping[str, str]) -> str:
    """What the round's features did, for the history: the base game's win, each Rider
    feature and what it placed or multiplied, the cauldron picked and what the others held,
    the free spins and their win, the ladder's rung and its win."""
    events = list(record.events)
    notes: list[str] = []
    feature_at = next(
        (i for i, e in enumerate(events) if isinstance(e, ev.FreeSpinStart | LadderStart)), len(events)
    )
    base = sum(e.win for e in events[:feature_at] if isinstance(e, ev.LineWin | ev.ScatterWin))
    if feature_at < len(events):
        notes.append(f"Base game win {fmt(base)}")
    for i, e in enumerate(events):
        if isinstance(e, RiderAppears):
            what = FEATURE_NAMES.get(e.feature, e.feature)
            after = events[i + 1 : i + 4]
            placed = next((x for x in after if isinstance(x, RiderSymbols)), None)
            tree = next((x for x in after if isinstance(x, ev.WinMultiplier)), None)
            if tree is not None:
                what += f" ×{tree.multiplier}"
            elif placed is not None:
                what += f": {len(placed.positions)} × {names.get(placed.symbol, placed.symbol)} placed"
            notes.append(f"Pumpkin Rider: {what}")
        elif isinstance(e, ev.PickEnd) and e.name != PUMPKINS:
            chosen = [x.prize for x in events[:i] if isinstance(x, ev.PickReveal) and x.name == e.name][-1:]
            if chosen:
                others = ", ".join(e.prizes)
                notes.append(f"Cauldron: {chosen[0]} spins (the others held {others})")
        elif isinstance(e, ev.FreeSpinsEnd):
            notes.append(f"{e.spins} free spins, win {fmt(e.win)}")
        elif isinstance(e, LadderWin):
            notes.append(f"Full Moon Bonus: rung {e.rung}, {e.multiplier}× the total bet, win {fmt(e.win)}")
    if not notes:
        return ""
    return "".join(f'<p class="h-feature">{escape(n)}</p>' for n in notes)


def _win_label(e: ev.Event, c: Stage) -> str:
    return f"WIN {c.fmt(int(getattr(e, 'win', 0)))}"


SCREEN = GameScreen(
    feature="a feature",
    start_label="START",
    stop_label="Stop when a feature is won",
    more_autoplay_label="More auto spins settings",
    handlers={
        **FREE_SPINS.handlers,
        RiderAppears.type: lambda e, c: RiderBeat(e),
        RiderSymbols.type: _placed,
        ev.WinMultiplier.type: lambda e, c: TreeBeat(e),
        ev.DecisionPending.type: _decision,
        LadderStart.type: lambda e, c: LadderStartBeat(e),
        LadderClimb.type: lambda e, c: ClimbBeat(e),
        LadderWin.type: lambda e, c: LadderWinBeat(e),
    },
    rebuild=rebuild_feature,
    status=FREE_SPINS.status,
    win_label=_win_label,
    big_symbols=(),
    pictures=(
        BACKGROUND,
        FRAME,
        LOGO,
        RIDER,
        TREE,
        MEGA,
        CAULDRON,
        CAULDRON_OPEN,
        PUMPKIN,
        PUMPKIN_OPEN,
        PUMPKIN_COLLECT,
    ),
    feature_names={"free_spins": "free spins", LADDER: "Full Moon Bonus"},
    paytable=paytable_html,
    rules=rules_html,
    history_board=history_board,
    pick_look=LOOK,
)
register_screen("lucky_halloween", SCREEN)
