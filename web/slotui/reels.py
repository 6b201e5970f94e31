"""Reel motion along the game's real strips, landing exactly on the engine's stops.

A reel's position ``pos`` is the strip index shown in the top row (fractional while it
moves); symbols move down the screen, so spinning makes ``pos`` decrease. A spin is
planned in full when it starts, because the engine has already drawn the stops: a short
wind-up (up a little), a constant-speed spin, then an ease-out with a small overshoot
(the bounce) that ends exactly on the stop. Stop times are regular (left to right, a
fixed stagger). To land on the stop, each reel's speed is tuned within a band the eye
cannot tell apart at full speed; whatever distance is left over is spliced in once,
mid-spin, while the reel is a motion blur, as commercial reels do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .timing import Timing, ease_in_out, ease_out_back

__all__ = ["Reel", "ReelBank"]

SPEED_BAND = (0.8, 1.3)


@dataclass(slots=True)
class _Plan:
    t0: float  # spin start (ms)
    p0: float  # position at t0
    windup_end: float
    spin_end: float
    stop_end: float
    speed: float  # symbols per ms during the spin
    windup: float  # symbols moved up during the wind-up
    stop_distance: float
    target: int
    overshoot: float
    splice: float = 0.0  # symbols skipped (down) at the middle of the spin


class Reel:
    """One reel: its strip, where it shows, and its planned motion."""

    __slots__ = ("_plan", "length", "pos", "strip")

    def __init__(self, strip: tuple[str, ...], stop: int = 0) -> None:
        self.strip = strip
        self.length = len(strip)
        self.pos = float(stop % self.length)
        self._plan: _Plan | None = None

    @property
    def moving(self) -> bool:
        return self._plan is not None

    @property
    def stop(self) -> int:
        """The strip index in the top row once settled."""
        return round(self.pos) % self.length

    def symbol_at(self, index: int) -> str:
        return self.strip[index % self.length]

    def visible(self, rows: int) -> list[tuple[str, float]]:
        """The symbols to draw and their row offsets (row 0 = top; may start at -1)."""
        base = math.floor(self.pos)
        frac = self.pos - base
        out = []
        for k in range(rows + 1):
            out.append((self.symbol_at(base + k), k - frac))
        return out

    @property
    def lands_at(self) -> float | None:
        """When the reel lands on its stop (ms; the bounce after it aside), or None at rest."""
        p = self._plan
        return None if p is None else p.spin_end + (p.stop_end - p.spin_end) * 0.4

    def speed_at(self, now: float) -> float:
        """Symbols per millisecond (for motion blur); 0 when still."""
        p = self._plan
        if p is None or now < p.windup_end or now >= p.spin_end:
            return 0.0
        return p.speed

    def plan(self, now: float, target: int, spin_ms: float, timing: Timing, earliest_end: float) -> float:
        """Plan a spin that starts ``now`` and lands on ``target``; return its end time."""
        target %= self.length
        windup = 0.3 if timing.windup > 0 else 0.0
        p1 = self.pos + windup
        o = timing.bounce
        v = timing.speed / 1000.0
        stop_ms = timing.stop
        spin_ms = max(spin_ms, earliest_end - now - timing.windup - stop_ms)
        # The distance from p1 down to the target is r plus whole turns of the strip.
        r = (p1 - target) % self.length
        k_time = spin_ms + stop_ms / (o + 3)  # distance travelled = speed * k_time
        nominal = v * k_time
        n = max(round((nominal - r) / self.length), 0)
        distance = r + n * self.length
        speed = min(max(distance / k_time, v * SPEED_BAND[0]), v * SPEED_BAND[1])
        splice = distance - speed * k_time
        stop_distance = speed * stop_ms / (o + 3)
        windup_end = now + timing.windup
        spin_end = windup_end + spin_ms
        self._plan = _Plan(
            now, self.pos, windup_end, spin_end, spin_end + stop_ms, speed, windup, stop_distance, target, o, splice
        )
        return spin_end + stop_ms

    def slam(self, now: float, timing: Timing) -> float:
        """Quick stop: jump (while blurred) just above the stop and settle quickly."""
        p = self._plan
        if p is None or now >= p.spin_end:
            return p.stop_end if p else now
        settle = min(160.0, timing.stop)
        offset = 0.35 if p.overshoot > 0 else 0.0
        self.pos = p.target + offset
        self._plan = _Plan(now, self.pos, now, now, now + settle, 0.0, 0.0, offset, p.target, p.overshoot)
        return now + settle

    def update(self, now: float) -> bool:
        """Move to where the plan says at ``now``; True once settled."""
        p = self._plan
        if p is None:
            return True
        if now < p.windup_end:
            u = (now - p.t0) / max(p.windup_end - p.t0, 1e-9)
            self.pos = p.p0 + p.windup * ease_in_out(u)
        elif now < p.spin_end:
            spliced = p.splice if now >= (p.windup_end + p.spin_end) / 2 else 0.0
            self.pos = p.p0 + p.windup - p.speed * (now - p.windup_end) - spliced
        elif now < p.stop_end:
            start = p.p0 + p.windup - p.speed * (p.spin_end - p.windup_end) - p.splice
            u = (now - p.spin_end) / (p.stop_end - p.spin_end)
            self.pos = start - p.stop_distance * ease_out_back(u, p.overshoot)
        else:
            self.pos = float(p.target)
            self._plan = None
            return True
        self.pos %= self.length
        return False


class ReelBank:
    """All reels of a game and the spin in progress."""

    def __init__(self, strips: list[tuple[str, ...]], rows: int, stops: list[int] | None = None) -> None:
        self.rows = rows
        self.reels = [Reel(s, (stops or [0] * len(strips))[i]) for i, s in enumerate(strips)]
        self.end_time = 0.0

    def set_strips(self, strips: list[tuple[str, ...]], stops: list[int]) -> None:
        """Change reel set (base / free spins) at rest."""
        self.reels = [Reel(s, stops[i]) for i, s in enumerate(strips)]

    def show(self, stops: list[int] | tuple[int, ...]) -> None:
        """Show ``stops`` at once (after a reload)."""
        for reel, s in zip(self.reels, stops, strict=True):
            reel.pos = float(s % reel.length)
            reel._plan = None

    def spin(self, now: float, stops: list[int] | tuple[int, ...], timing: Timing) -> float:
        """Start all reels towards ``stops``; return when the last one settles."""
        end = now
        for i, (reel, s) in enumerate(zip(self.reels, stops, strict=True)):
            spin_ms = timing.spin_min + i * timing.stagger
            # Each reel settles after the one to its left.
            end = reel.plan(now, s, spin_ms, timing, end + (timing.stagger * 0.5 if i else 0))
        self.end_time = end
        return end

    def slam(self, now: float, timing: Timing) -> float:
        end = now
        for reel in self.reels:
            end = max(end, reel.slam(now, timing))
        self.end_time = end
        return end

    def update(self, now: float) -> bool:
        """Advance every reel; True when all have settled."""
        done = True
        for reel in self.reels:
            done = reel.update(now) and done
        return done

    @property
    def moving(self) -> bool:
        return any(r.moving for r in self.reels)

    def landings(self) -> list[float]:
        """When each moving reel lands (ms), left to right."""
        return [t for r in self.reels if (t := r.lands_at) is not None]

    def window(self) -> list[list[str]]:
        """The settled window, per reel top to bottom."""
        return [[r.symbol_at(r.stop + k) for k in range(self.rows)] for r in self.reels]
