"""The Full Moon ladder: 23 rungs with green shortcuts, the player's marker climbing, six pumpkins a step, COLLECT."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pyengine.games.lucky_halloween import LadderClimb, LadderStart, LadderWin

from ...beats import Timed
from ...canvas import Canvas
from ...layout import Layout
from ...overlay import IntroCard
from ...pages import x_text
from ...render import GOLD, INK, draw_symbol
from ...stage import Stage
from ...timing import ease_in_out, ease_out_cubic
from ...view import Banner

from ...words import number

from .look import GREEN, LADDER, PUMPKINS, WOOD, WOOD_DARK, WORDS, _ms


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
                canvas.text(WORDS("ladder.start"), cx, cy + fs * 0.3, fs * 0.72, INK)
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
        canvas.text(WORDS("ladder.min"), mx, my - rh * 0.36, fs * 0.55, GOLD)
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


class LadderStartBeat(Timed):
    """The Full Moon Bonus begins: the ladder appears with the marker at its foot."""

    def __init__(self, e: LadderStart) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        self.ladder = _ladder(c, self.e, now)
        c.view.remove(IntroCard)
        c.host.post("featureStart", {"feature": LADDER, "count": self.e.count, "minimum_x": self.e.minimum_x})
        c.host.announce(WORDS("ladder.said_start", n=number(self.e.count), x=number(self.e.minimum_x)))
        self.ms = _ms(c, 700.0)


class ClimbBeat(Timed):
    """The marker climbs the pumpkin's rungs, takes a green shortcut it lands on, and stops
    with COLLECT."""

    def __init__(self, e: LadderClimb) -> None:
        self.e = e

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
        to = x_text(rungs[e.landed - 1])
        if ladder.jump:
            key = "ladder.said_shortcut_collect" if e.collect else "ladder.said_shortcut"
            said = WORDS.count(key, e.rungs, x=to, on=x_text(rungs[e.position - 1]))
        else:
            said = WORDS.count("ladder.said_climb_collect" if e.collect else "ladder.said_climb", e.rungs, x=to)
        c.host.announce(said)
        self.ms = len(path) * ladder.step_ms + _ms(c, 350.0 if not e.collect else 700.0)
        self.said = False

    def update(self, c: Stage, now: float) -> bool:
        ladder = self.ladder
        if ladder is None:
            return True
        if not ladder.walking(now) and not self.said:
            self.said = True
            shortcut = self.e.position != self.e.landed
            if self.e.collect:
                x = x_text(ladder.rungs_x[self.e.position - 1])
                ladder.message = WORDS("ladder.shortcut_collect" if shortcut else "ladder.collect", x=x)
            else:
                ladder.message = WORDS("ladder.shortcut") if shortcut else ""
        if self.holding(now):
            return False
        ladder.settle()
        ladder.position = self.e.position
        return True


class LadderWinBeat(Timed):
    """The collected rung glows on the ladder; then the ladder leaves for the award's banner."""

    def __init__(self, e: LadderWin) -> None:
        self.e = e
        self.stage = 0

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        e = self.e
        ladder = c.view.overlay(LadderOverlay)
        if ladder is not None:
            ladder.settle()
            ladder.position = e.rung
            ladder.final = e.rung
            ladder.message = WORDS("ladder.collect", x=x_text(e.multiplier))
        c.meters.add_win(e.win)
        c.host.post("featureEnd", {"feature": LADDER, "win": e.win, "multiplier": e.multiplier})
        c.host.announce(WORDS("ladder.said_win", x=number(e.multiplier), win=c.fmt(e.win)))
        self.ms = c.timing.line_show * 0.8 if ladder is not None else 0.0

    def update(self, c: Stage, now: float) -> bool:
        if self.stage == 0:
            if self.holding(now):
                return False
            self.stage = 1
            self.t1 = now
            c.view.remove(LadderOverlay)
            e = self.e
            c.view.banner = Banner(
                WORDS("card.ladder_title"),
                WORDS("ladder.banner", x=x_text(e.multiplier), win=c.fmt(e.win)),
                now,
                tier=3,
            )
            self.ms = c.timing.line_show * 1.6
        if now - self.t1 < self.ms and not (self.hurried and now - self.t1 >= c.timing.pause):
            return False
        c.view.banner = None
        return True


