"""The Pumpkin Rider on screen: his entrance, the reshuffle, the symbols he places (thrown
wilds, the Mega Wild dragged in, scatters dropped)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pyengine.games.lucky_halloween import RiderAppears, RiderSymbols

from ...beats import Beat, Timed, symbol_name
from ...canvas import Canvas
from ...layout import Layout
from ...render import GOLD, PANEL, draw_symbol
from ...stage import Stage
from ...timing import clamp01, ease_in_out, ease_out_back, ease_out_cubic
from ...view import Banner, View

from ...words import number

from .look import FEATURE_NAMES, MEGA, ORANGE, Position, RIDER, WORDS, _ms, _wild


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
            canvas.text(WORDS("rider.sprite"), x + self.size / 2, y + self.size * 0.6, self.size * 0.2, ORANGE)
        canvas.pop()


def _rider_size(L: Layout) -> float:
    return min(L.cell * 1.9, L.width * 0.42)


class RiderBeat(Timed):
    """The Rider gallops across the screen and names his feature; for the Special Reels he
    then shuffles the reels and the royals fall away before the special spin."""

    def __init__(self, e: RiderAppears) -> None:
        self.e = e
        self.stage = 0

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        c.scratch["rider"] = self.e.feature
        name = FEATURE_NAMES.get(self.e.feature, self.e.feature.replace("_", " ").title())
        key = f"rider_caps.{self.e.feature}"
        c.view.banner = Banner(WORDS("rider.title"), WORDS(key) if WORDS.has(key) else name.upper(), now, tier=1)
        c.host.announce(WORDS("rider.appears", name=name))
        self.ms = _ms(c, 1500.0)
        self.rider = _entrance(c, now, self.ms)
        c.view.remove(RiderOverlay)
        c.view.overlays.append(self.rider)

    def update(self, c: Stage, now: float) -> bool:
        if self.stage == 0:
            if self.holding(now):
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
            c.host.announce(WORDS("rider.shuffled"))
        return self.hurried or now - self.t1 >= self.shuffle_ms


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
            canvas.text(WORDS("rider.no_royals"), L.reels_x + L.reels_w / 2, L.reels_y + L.reels_h / 2, c * 0.3, GOLD)


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


class PlaceBeat(Timed):
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
            key = "rider.places" if e.symbol == _wild(c) else "rider.drops"
            c.host.announce(WORDS(key, n=number(n), name=name))
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
            c.host.announce(WORDS("rider.throws", n=number(n), name=name))
        else:
            gap = _ms(c, 260.0)
            self.placed.fall_ms = _ms(c, 480.0)
            for i, p in enumerate(e.positions):
                self.placed.landed[(int(p[0]), int(p[1]))] = now + i * gap
            self.ms = (n - 1) * gap + self.placed.fall_ms + _ms(c, 250.0)
            c.host.announce(WORDS("rider.drops", n=number(n), name=name))

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now):
            return False
        self._settle(c, now)
        return True

    def _settle(self, c: Stage, now: float) -> None:
        for p in self.placed.landed:
            self.placed.landed[p] = min(self.placed.landed[p], now - self.placed.fall_ms)
        if self.throw:
            c.view.remove(HeadFlight)


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
            canvas.text(WORDS("rider.mega_sprite"), x + size / 2, L.reels_y + L.reels_h / 2, c * 0.3, GOLD)
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


class DragBeat(Timed):
    """The Rider drags the Mega Wild onto its three reels."""

    def __init__(self, e: RiderSymbols) -> None:
        self.e = e

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
        c.host.announce(WORDS("rider.drags", first=number(left + 1), last=number(left + 3)))

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now, longer=_ms(c, 300.0)):
            if now - self.t0 >= self.ms and self.rider.gone_at > now:
                self.rider.gone_at = now
            return False
        self.mega.started = min(self.mega.started, now - self.mega.ms)
        c.view.remove(DraggingRider)
        return True


def _placed(e: RiderSymbols, c: Stage) -> Beat:
    if c.scratch.get("rider") == "mega_wild":
        return DragBeat(e)
    return PlaceBeat(e, c)


