"""Sound: named cues synthesised in code, scheduled from the beats that animate.

Not on the first load: the build packs this module, `slotui.webaudio` and every game's
voice in ``sound.zip``, which `slotui.jssound` fetches once the game is ready; until then
the controller's sound is the silent `slotui.sound.Sound`, which `Sound.taking_over`
replaces.

A cue is a few `Note`\\ s (an oscillator or band-passed noise with an envelope and an
optional glide); a game's `Voice` gives every cue its own sound, built from the game's
`Character` (its scale, its waves, its noise) by `voice`, and may map its own event types
to cues. The game names its voice's module (its ``VOICE``) to the shared client on its
`stage.GameScreen` (``voice``; `voice_of`); shared code never names a game.

`Sound` is what the controller and the beats call: `Sound.event` for an engine event,
`Sound.wins` for a spin's wins, `reel_stops`, `count_up`; `hush` when the player skips
(quick stop), `end` when the round's presentation is over (nothing rings after it). It
schedules through an `Out` (Web Audio on the page, `jssound.WebAudioOut`; `RecordingOut`
in tests) and logs what it scheduled (``slotStats.sounds`` with ``debug=1``). Muted, or
without a running audio context (no gesture yet, the tab hidden), it schedules nothing.
Turbo and TURBO SPIN shorten every cue and skip the count-up's ticks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from pyengine import events as ev

from . import sound as quiet

__all__ = [
    "CUES",
    "Character",
    "Note",
    "Out",
    "RecordingOut",
    "Sound",
    "Voice",
    "cue_of",
    "install",
    "voice",
    "voice_of",
    "win_cue",
]

WAVES = ("sine", "square", "sawtooth", "triangle", "noise")

CUES = (
    "spin", "reel_stop", "win_small", "win_big", "win_mega", "tick", "scatter", "feature_trigger",
    "feature_start", "free_spin", "retrigger", "cascade", "multiplier", "pick", "land", "ladder", "jackpot",
    "gamble", "gamble_win", "gamble_lose", "summary",
)
"""Every cue a voice gives (`voice` makes them all)."""

BIG_X, MEGA_X = 15, 50
"""A spin's win this many times the stake or more is a big (mega) win: the banners' tiers."""
FAST_SCALE = 0.6
"""Turbo plays a cue this much faster ..."""
FAST_CUT = 0.35
"""... and leaves out its notes that would start later than this (seconds)."""
TICK_MS = 90.0
"""The count-up ticks this often."""
MAX_TICKS = 40
LOG_KEPT = 400


@dataclass(frozen=True, slots=True)
class Note:
    """One sound of a cue: ``wave`` (an oscillator, or ``noise`` band-passed at ``freq``)
    from ``at`` seconds after the cue for ``dur`` seconds, at ``freq`` Hz gliding to
    ``to`` (0: no glide), peaking at ``gain`` after ``attack`` and dying away."""

    freq: float
    dur: float = 0.15
    at: float = 0.0
    wave: str = "sine"
    gain: float = 0.25
    to: float = 0.0
    attack: float = 0.005

    @property
    def end(self) -> float:
        return self.at + self.dur


Cue = tuple[Note, ...]


@dataclass(frozen=True, slots=True)
class Voice:
    """A game's sounds: a cue per name, and the game's own event types as cue names."""

    cues: Mapping[str, Cue]
    events: Mapping[str, str] = field(default_factory=dict)
    """Event type -> cue, for the game's own events (the shared ones are `cue_of`'s)."""
    steps: Mapping[str, str] = field(default_factory=dict)
    """Event type -> the field of the event that raises its cue a whole tone a step (a rung)."""


@dataclass(frozen=True, slots=True)
class Character:
    """A game's sound in a few numbers, from which `voice` makes every cue."""

    root: float = 220.0
    """The key's root (Hz)."""
    scale: tuple[int, ...] = (0, 2, 4, 7, 9)
    """Semitones above the root of the notes melodies use."""
    lead: str = "triangle"
    """The melodies' wave."""
    bass: str = "sine"
    """The thumps' wave (reel stops, landings)."""
    noise: float = 2000.0
    """Where the noise sits (Hz): a page's rustle high, wind low."""
    ring: float = 1.0
    """How long notes ring (plucks short, bells long)."""
    glide: float = 0.0
    """Semitones a melody note slides as it sounds (a howl, a theremin)."""
    loud: float = 1.0


def _hz(ch: Character, degree: int, octave: int = 0) -> float:
    """The scale's ``degree`` (past the scale's end: the octaves above) in ``octave``."""
    n = len(ch.scale)
    octave += degree // n
    return ch.root * 2 ** (octave + ch.scale[degree % n] / 12)


def _melody(ch: Character, degrees: tuple[int, ...], step: float, dur: float, *, octave: int = 1,
            gain: float = 0.22, wave: str | None = None, start: float = 0.0) -> Cue:
    out = []
    for i, d in enumerate(degrees):
        f = _hz(ch, d, octave)
        to = f * 2 ** (ch.glide / 12) if ch.glide else 0.0
        out.append(Note(f, dur * ch.ring, start + i * step, wave or ch.lead, gain * ch.loud, to))
    return tuple(out)


def _chord(ch: Character, degrees: tuple[int, ...], at: float, dur: float, *, octave: int = 1,
           gain: float = 0.12, wave: str | None = None) -> Cue:
    return tuple(Note(_hz(ch, d, octave), dur * ch.ring, at, wave or ch.lead, gain * ch.loud, 0.0, 0.02)
                 for d in degrees)


def voice(ch: Character, events: Mapping[str, str] | None = None, steps: Mapping[str, str] | None = None,
          **own: Cue) -> Voice:
    """Every cue of `CUES` in ``ch``'s character; ``own`` replaces some of them; ``events``
    and ``steps``: the game's own event types (`Voice`)."""
    n = ch.noise
    root = ch.root
    cues: dict[str, Cue] = {
        "spin": (Note(n * 0.5, 0.28, 0.0, "noise", 0.10 * ch.loud, n * 1.4, 0.06),
                 Note(root / 2, 0.2, 0.0, ch.bass, 0.08 * ch.loud, root)),
        "reel_stop": (Note(root / 2, 0.09, 0.0, ch.bass, 0.32 * ch.loud, root / 4),
                      Note(n * 1.5, 0.03, 0.0, "noise", 0.12 * ch.loud)),
        "tick": (Note(_hz(ch, 4, 2), 0.035, 0.0, ch.lead, 0.07 * ch.loud),),
        "win_small": _melody(ch, (0, 2, 4), 0.08, 0.2),
        "win_big": (*_melody(ch, (0, 1, 2, 3, 4, 5, 6), 0.09, 0.22),
                    *_chord(ch, (0, 2, 4), 0.65, 0.8)),
        "win_mega": (*_melody(ch, (0, 2, 4, 5, 7, 9, 10, 12), 0.1, 0.25, gain=0.24),
                     *_chord(ch, (0, 2, 4, 7), 0.85, 1.4, gain=0.13),
                     Note(n * 2, 1.2, 0.85, "noise", 0.05 * ch.loud, n * 3, 0.1)),
        "scatter": (*_melody(ch, (4, 7), 0.12, 0.35, octave=2, gain=0.16, wave="sine"),),
        "feature_trigger": (*_melody(ch, (0, 2, 4, 7, 9, 12), 0.07, 0.2),
                            Note(n * 0.6, 0.7, 0.0, "noise", 0.06 * ch.loud, n * 2, 0.3)),
        "feature_start": _chord(ch, (0, 2, 4), 0.0, 1.0, gain=0.14),
        "free_spin": (Note(_hz(ch, 0, 1), 0.16 * ch.ring, 0.0, ch.lead, 0.14 * ch.loud),
                      Note(n, 0.12, 0.0, "noise", 0.04 * ch.loud, n * 1.5)),
        "retrigger": _melody(ch, (3, 5, 7, 10), 0.07, 0.2),
        "cascade": (*_melody(ch, (4, 2, 0), 0.05, 0.12, gain=0.16),
                    Note(n * 0.8, 0.18, 0.0, "noise", 0.07 * ch.loud, n * 0.3)),
        "multiplier": _melody(ch, (7, 9, 12), 0.05, 0.12, octave=1, gain=0.14),
        "pick": (Note(_hz(ch, 2, 1), 0.14 * ch.ring, 0.0, ch.lead, 0.2 * ch.loud, _hz(ch, 4, 1)),
                 Note(n * 1.2, 0.06, 0.0, "noise", 0.06 * ch.loud)),
        "land": (Note(root / 2, 0.12, 0.0, ch.bass, 0.28 * ch.loud, root / 3),
                 Note(_hz(ch, 4, 2), 0.3 * ch.ring, 0.02, "sine", 0.1 * ch.loud)),
        "ladder": _melody(ch, (0, 4), 0.07, 0.15, gain=0.18),
        "jackpot": (*_melody(ch, (0, 4, 7, 12, 7, 12, 16), 0.11, 0.3, gain=0.24),
                    *_chord(ch, (0, 2, 4, 7), 0.8, 1.6, gain=0.14),
                    Note(n * 2, 1.5, 0.8, "noise", 0.05 * ch.loud, n * 4, 0.1)),
        "gamble": _melody(ch, (0, 1), 0.15, 0.15, octave=0, gain=0.16),
        "gamble_win": _melody(ch, (2, 4, 7), 0.07, 0.18),
        "gamble_lose": (Note(_hz(ch, 2, 0), 0.4, 0.0, ch.lead, 0.16 * ch.loud, _hz(ch, 0, -1)),),
        "summary": (*_melody(ch, (4, 3, 2, 0), 0.12, 0.3, gain=0.18),
                    *_chord(ch, (0, 2, 4), 0.5, 1.0, gain=0.12)),
    }
    cues.update(own)
    return Voice(cues, dict(events or {}), dict(steps or {}))


PLAIN = voice(Character())
"""The voice of a game that gives none."""


def win_cue(total: int, stake: int) -> str:
    """The cue of a spin's wins of ``total`` at ``stake``: small, big or mega."""
    if total >= MEGA_X * stake:
        return "win_mega"
    return "win_big" if total >= BIG_X * stake else "win_small"


def cue_of(e: ev.Event, game: Voice | None = None) -> tuple[str, int] | None:
    """The cue an event plays and its step (a cascade's number, a transposition), or None;
    the game's own event types as its voice says.

    Wins are not here: a spin's wins sound together (`Sound.wins`)."""
    own = game.events.get(e.type) if game is not None else None
    if own is not None:
        assert game is not None
        step = getattr(e, game.steps.get(e.type, ""), 0) if e.type in game.steps else 0
        return own, min(int(step), 8) if isinstance(step, int) else 0
    if isinstance(e, ev.Spin):
        return "spin", 0
    if isinstance(e, ev.FreeSpinsAwarded):
        return ("retrigger" if e.retrigger else "feature_trigger"), 0
    if isinstance(e, ev.ChoiceMade):
        if e.kind == "feature_start":
            return "feature_start", 0
        if e.kind == "collect_or_gamble" and e.choice == "gamble":
            return "gamble", 0
        return None
    if isinstance(e, ev.GambleCard):
        return ("gamble_win" if e.won else "gamble_lose"), 0
    if isinstance(e, ev.Respin):
        return ("land", 0) if e.positions else None
    if isinstance(e, ev.Cascade):
        return "cascade", min(e.number, 8)
    simple = {
        ev.FreeSpinStart.type: "free_spin",
        ev.ExpandingSymbolChosen.type: "feature_start",
        ev.HoldAndRespinStart.type: "feature_trigger",
        ev.FeatureBought.type: "feature_trigger",
        ev.PickStart.type: "feature_trigger",
        ev.PickReveal.type: "pick",
        ev.LadderPrize.type: "ladder",
        ev.WinMultiplier.type: "multiplier",
        ev.JackpotWin.type: "jackpot",
        ev.FreeSpinsEnd.type: "summary",
        ev.HoldAndRespinEnd.type: "summary",
        ev.PickEnd.type: "summary",
    }
    name = simple.get(e.type)
    return (name, 0) if name is not None else None


class Out(Protocol):
    """Where cues are played: an audio context (`jssound.WebAudioOut`) or a recording."""

    @property
    def running(self) -> bool:
        """A context that plays now (started by a gesture, the tab visible, not muted)."""
        ...

    def time(self) -> float:
        """The context's clock (s)."""
        ...

    def play(self, notes: Cue, at: float) -> Any:
        """Schedule ``notes`` from context time ``at``; a handle for `stop`."""
        ...

    def stop(self, handle: Any, when: float) -> None:
        """Silence what ``handle`` schedules from context time ``when`` (a short fade)."""
        ...

    def set_level(self, volume: float, *, muted: bool) -> None: ...


@dataclass(slots=True)
class RecordingOut:
    """An `Out` that records (CPython tests): its clock is set by the test."""

    now: float = 0.0
    running: bool = True
    played: list[tuple[float, Cue]] = field(default_factory=list)
    stopped: list[tuple[int, float]] = field(default_factory=list)
    level: tuple[float, bool] = (1.0, False)

    def time(self) -> float:
        return self.now

    def play(self, notes: Cue, at: float) -> int:
        self.played.append((at, notes))
        return len(self.played) - 1

    def stop(self, handle: Any, when: float) -> None:
        self.stopped.append((int(handle), when))

    def set_level(self, volume: float, *, muted: bool) -> None:
        self.level = (volume, muted)


@dataclass(slots=True)
class _Playing:
    name: str
    start: float
    end: float
    handle: Any


def voice_of(named: Any) -> Voice:
    """A screen's voice (`stage.GameScreen.voice`): a `Voice`, or the name of the module whose
    ``VOICE`` it is (imported now); None: the plain one."""
    if isinstance(named, str):
        named = importlib.import_module(named).VOICE
    return named if isinstance(named, Voice) else PLAIN


class Sound(quiet.Sound):
    """The cues of one game screen (see the module's docstring).

    ``game_voice``: a `Voice` or its module's name (`voice_of`); ``clock``: the controller's
    time (ms) that beats schedule in; ``fast``: turbo is on."""

    def __init__(self, game_voice: Any = None, *, clock: Callable[[], float] = lambda: 0.0,
                 fast: Callable[[], bool] = lambda: False) -> None:
        super().__init__(game_voice, clock=clock, fast=fast)
        self.voice: Voice = voice_of(game_voice)
        self.out: Out | None = None
        """Where cues are scheduled; the log keeps the latest `LOG_KEPT`, ``cut`` counts
        the cues silenced by a skip or by the end of a round's presentation."""
        self._playing: list[_Playing] = []

    @classmethod
    def taking_over(cls, stand_in: quiet.Sound) -> Sound:
        """The real sound in the silent one's place: its voice, clocks and the player's
        settings (muted, volume, a pause) kept."""
        if isinstance(stand_in, Sound):
            return stand_in
        s = cls(stand_in.voice, clock=stand_in.clock, fast=stand_in.fast)
        s.muted, s.paused, s.volume = stand_in.muted, stand_in.paused, stand_in.volume
        s.changed = list(stand_in.changed)
        s.listeners = list(stand_in.listeners)
        return s

    # -- the player's controls ------------------------------------------------------------
    def set_muted(self, *, muted: bool) -> None:
        self.muted = muted
        if muted:
            self.end()
        self._level()

    def attach(self, out: Out) -> None:
        self.out = out
        self._level(tell=False)

    def _level(self, *, tell: bool = True) -> None:
        if self.out is not None:
            self.out.set_level(self.volume, muted=self.muted)
        super()._level(tell=tell)

    # -- scheduling -------------------------------------------------------------------------
    @property
    def live(self) -> bool:
        """Cues are scheduled now: not muted nor paused, and an output that runs."""
        out = self.out
        return not self.muted and not self.paused and out is not None and out.running and self.volume > 0

    def play(self, name: str, at_ms: float | None = None, *, step: int = 0) -> bool:
        """Schedule cue ``name`` at controller time ``at_ms`` (now if None), transposed by
        ``step`` whole tones; False when nothing was scheduled."""
        out = self.out
        notes = self.voice.cues.get(name)
        if not notes or out is None or not self.live:
            return False
        delay = 0.0 if at_ms is None else max(at_ms - self.clock(), 0.0) / 1000.0
        if self.fast():
            notes = tuple(
                replace(n, at=n.at * FAST_SCALE, dur=min(n.dur * FAST_SCALE, FAST_CUT))
                for n in notes if n.at * FAST_SCALE <= FAST_CUT
            )
        if step:
            k = 2 ** (2 * step / 12)
            notes = tuple(replace(n, freq=n.freq * k, to=n.to * k) for n in notes)
        t = out.time() + delay
        handle = out.play(notes, t)
        self._playing = [p for p in self._playing if p.end > out.time()]
        self._playing.append(_Playing(name, t, t + max(n.end for n in notes), handle))
        self.log.append((name, round(t, 3)))
        del self.log[:-LOG_KEPT]
        for fn in self.listeners:
            fn(name, t)
        return True

    def hush(self, *names: str) -> None:
        """A skip: what has not started yet (of ``names``, or all) is not played."""
        out = self.out
        if out is None:
            return
        now = out.time()
        keep = []
        for p in self._playing:
            if p.start > now + 0.01 and (not names or p.name in names):
                out.stop(p.handle, now)
                self.cut += 1
            else:
                keep.append(p)
        self._playing = keep

    def end(self) -> None:
        """The round's presentation is over: everything still to sound or ringing stops."""
        out = self.out
        if out is None:
            return
        now = out.time()
        for p in self._playing:
            if p.end > now:
                out.stop(p.handle, now)
                self.cut += 1
        self._playing = []

    # -- what the beats call -----------------------------------------------------------------
    def event(self, e: Any) -> None:
        """The cue of event ``e`` (if it has one); a round's end ends every sound."""
        if isinstance(e, ev.RoundEnd):
            self.end()
            return
        found = cue_of(e, self.voice)
        if found is not None:
            self.play(found[0], step=found[1])

    def wins(self, wins: list[Any], stake: int) -> None:
        """A spin's wins, together: a chime by their total's size, and the scatters'."""
        total = sum(int(getattr(w, "win", 0)) for w in wins)
        if total > 0:
            self.play(win_cue(total, stake))
        if any(isinstance(w, ev.ScatterWin) for w in wins):
            self.play("scatter")

    def reel_stops(self, times_ms: list[float]) -> None:
        """Each reel's stop, at the times (controller ms) the reels land."""
        for t in times_ms:
            self.play("reel_stop", t)

    def count_up(self, ms: float) -> None:
        """The count-up's ticks for ``ms`` (none in turbo)."""
        if ms <= 0 or self.fast():
            return
        start = self.clock()
        for i in range(min(int(ms // TICK_MS), MAX_TICKS)):
            self.play("tick", start + i * TICK_MS, step=i % 3)

    def slam(self) -> None:
        """Quick stop of the reels: the stops still to come are one stop now."""
        if any(p.name == "reel_stop" and self.out is not None and p.start > self.out.time() + 0.01
               for p in self._playing):
            self.hush("reel_stop")
            self.play("reel_stop")


def install(host: Any) -> Sound:
    """Give ``host`` (the controller) the real sound in place of the silent one it has."""
    real = Sound.taking_over(host.sound)
    host.sound = real
    return real
