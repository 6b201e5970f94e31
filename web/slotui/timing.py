"""Easing curves and timing settings (normal, turbo, reduced motion)."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["NORMAL", "REDUCED", "TURBO", "Timing", "clamp01", "ease_in_out", "ease_out_back", "ease_out_cubic"]


def clamp01(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def ease_out_cubic(t: float) -> float:
    t = clamp01(t)
    return 1 - (1 - t) ** 3


def ease_in_out(t: float) -> float:
    t = clamp01(t)
    return 0.5 - 0.5 * math.cos(math.pi * t)


def ease_out_back(t: float, overshoot: float = 1.2) -> float:
    """Passes the end a little and settles back: the reel's bounce."""
    t = clamp01(t) - 1
    return 1 + t * t * ((overshoot + 1) * t + overshoot)


@dataclass(frozen=True, slots=True)
class Timing:
    """Durations in milliseconds and the reel speed in symbols per second."""

    windup: float
    spin_min: float
    stagger: float
    stop: float
    speed: float
    line_show: float
    count_up: float
    pause: float
    bounce: float = 1.2

    def scaled(self, k: float) -> Timing:
        return Timing(
            self.windup * k,
            self.spin_min * k,
            self.stagger * k,
            self.stop * k,
            self.speed,
            self.line_show * k,
            self.count_up * k,
            self.pause * k,
            self.bounce,
        )


NORMAL = Timing(windup=140, spin_min=520, stagger=170, stop=380, speed=22.0, line_show=1300, count_up=900, pause=450)
TURBO = Timing(windup=70, spin_min=180, stagger=60, stop=220, speed=30.0, line_show=650, count_up=350, pause=200)
REDUCED = Timing(
    windup=0, spin_min=120, stagger=0, stop=160, speed=12.0, line_show=1300, count_up=0, pause=300, bounce=0.0
)
