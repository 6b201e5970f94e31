"""The Pumpkin Tree: the lanterns lighting one by one and the multiplier they give."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pyengine import events as ev

from ...beats import Timed
from ...canvas import Canvas
from ...layout import Layout
from ...render import GOLD, INK, draw_symbol
from ...stage import Stage
from ...timing import clamp01

from ...words import number

from .look import TREE, WORDS, _ms


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
        canvas.text(WORDS("tree.title"), L.width / 2, L.top_h * 0.5 + title * 0.4, title, GOLD)
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
            canvas.text(f"×{number(self.values[i])}", cx, cy + s * 0.95, s * 0.42, GOLD if on else INK)
        if final:
            canvas.text(
                WORDS("tree.all_prizes", x=number(self.chosen)),
                L.width / 2,
                L.reels_y + L.reels_h + L.cell * 0.2,
                L.cell * 0.26,
                GOLD,
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
        canvas.text(WORDS("tree.band", x=number(self.multiplier)), L.width / 2, L.top_h * 0.62, size, GOLD)


class TreeBeat(Timed):
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
        c.host.announce(WORDS("tree.said", x=number(chosen)))
        self.hold = _ms(c, 700.0)

    def update(self, c: Stage, now: float) -> bool:
        if self.hurried:
            self.tree.started = now - self.ms
        if self.holding(now, longer=self.hold):
            return False
        c.view.remove(TreeOverlay)
        c.view.band = MultiplierBand(int(self.e.multiplier))
        return True


