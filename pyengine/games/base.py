"""What every game provides (see `pyengine.round` for how a round is played)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ..data import Field, LinesGameData
from ..errors import EngineError
from ..evaluators import LineEvaluator
from ..events import Event, LineWin, Position, ScatterWin, Spin
from ..features.jackpot import JackpotRules
from ..model import MAX_SETTING, Bet, BetConfig, ReelSet, Window
from ..round import RoundContext, RoundProcess

__all__ = ["Game", "LinesGame", "Plugin", "Report", "Setting", "SettingsSchema", "spin_lines"]

SETTING_MAX = MAX_SETTING
"""The largest value any operator setting may take (`pyengine.model.MAX_SETTING`)."""


class Game(Protocol):
    """The interface the session, the math and the browser use."""

    id: str
    name: str
    version: str
    target_rtp: Fraction
    bets: BetConfig
    @property
    def modes(self) -> tuple[str, ...]:
        """Bet modes: ``base`` always; ``buy`` where the feature can be bought."""
        ...

    @property
    def jackpot(self) -> JackpotRules | None:
        """The time jackpot's rules, or None for a game without one."""
        ...

    def price(self, bet: Bet, mode: str) -> int:
        """What a round in ``mode`` costs at ``bet``; raise `EngineError` for a mode not offered."""
        ...

    def default_settings(self) -> dict[str, int]:
        """Operator settings and their documented defaults."""
        ...

    def validate_settings(self, settings: Mapping[str, Any]) -> dict[str, int]:
        """Complete and check operator settings; raise `EngineError` on a bad one."""
        ...

    def play(self, ctx: RoundContext) -> RoundProcess:
        """Play one round in ``ctx`` (the stake is already taken)."""
        ...

    def describe(self) -> dict[str, Any]:
        """JSON-ready description for paytable and rules screens and the reels' strips."""
        ...


Report = Callable[[Any, str, Mapping[str, int], int], dict[str, Any]]
"""A game's exact RTP report: ``report(game, mode, settings, lines)`` with the settings
already checked, returning the JSON-ready report (see `pyengine.math.rtp.rtp_report`)."""


@dataclass(frozen=True, slots=True)
class Plugin:
    """Everything the shared code needs to know about a game, registered in one place.

    ``load`` builds the game from its data; ``report`` is ``"module:function"`` of its exact
    RTP report (imported only when asked, since the math may need tools the engine does
    not); ``screen`` is the client module that draws it (``slotui.<id>``).
    """

    load: Callable[[], Game]
    report: str
    screen: str
    showcase: str = ""
    """``"module:function"`` naming which of the report's ``features`` a round's events show
    (`pyengine.showcase.Shown`), for the showcase's search; "" for a game without one."""

    build: Callable[[Field], Game] | None = None
    """Builds the game from the root of its data file, edited (`pyengine.math.whatif`); None
    for a game that cannot be edited."""
    distribution: str = ""
    """``"module:function"`` of the exact distribution of a round's win
    (`pyengine.math.parsheet.Distribution`), for the par sheet; "" for a game whose par
    sheet simulates it."""

    def report_function(self) -> Report:
        """Import and return the report function."""
        import importlib

        module, _, name = self.report.partition(":")
        fn: Report = getattr(importlib.import_module(module), name)
        return fn

    def distribution_function(self) -> Callable[[Any, str, Mapping[str, int], int], Any] | None:
        """Import and return the exact win distribution (None for a game without one)."""
        if not self.distribution:
            return None
        import importlib

        module, _, name = self.distribution.partition(":")
        fn: Callable[[Any, str, Mapping[str, int], int], Any] = getattr(importlib.import_module(module), name)
        return fn

    def showcase_function(self) -> Callable[[Sequence[Event]], set[str]] | None:
        """Import and return the showcase's feature finder (None for a game without one)."""
        if not self.showcase:
            return None
        import importlib

        module, _, name = self.showcase.partition(":")
        fn: Callable[[Sequence[Event]], set[str]] = getattr(importlib.import_module(module), name)
        return fn


def spin_lines(
    ctx: RoundContext, reels: ReelSet, lines: LineEvaluator, phase: str
) -> tuple[tuple[int, ...], Window, int]:
    """One spin of a lines game, the hot path of every round: draw the stops, emit the
    `Spin` and a `LineWin` per paying active line (pay x coins x coin size); return
    (stops, window, the line win). Scatters and features are the game's own. (A module
    function, called directly: a method lookup a spin costs measurably.)"""
    stops, window = reels.draw(ctx.rng.below(reels.radix))
    ctx.events.append(Spin(phase, stops, window))
    return stops, window, pay_lines(ctx, lines, window)


def pay_lines(ctx: RoundContext, lines: LineEvaluator, window: Window, multiplier: int = 1) -> int:
    """The line wins of ``window`` on the bet's active lines, each its pay x coins x coin
    size x ``multiplier`` (a free spin's or a feature's): emit a `LineWin` per paying line
    (its ``multiplier`` field is the paytable's pay) and return their total."""
    bet = ctx.bet
    hits = lines.wins(window, bet.lines)
    if not hits:
        return 0
    per_line = bet.bet_per_line * bet.coins * multiplier
    append = ctx.events.append
    win = 0
    for line, symbol, count, positions, pay in hits:
        amount = pay * per_line
        win += amount
        append(LineWin(line, symbol, count, positions, pay, amount))
    return win


def pay_scatter(ctx: RoundContext, symbol: str, positions: tuple[Position, ...], pay: int, multiplier: int = 1) -> int:
    """A scatter win of ``symbol`` at ``positions`` paying ``pay`` x the total bet (x
    ``multiplier``): emit its `ScatterWin` and return the amount. Called only for a paying
    count (``pay`` > 0): the look-up of the pay stays on the caller's hot path."""
    amount = pay * ctx.bet.total * multiplier
    ctx.events.append(ScatterWin(symbol, len(positions), positions, pay, amount))
    return amount


@dataclass(frozen=True, slots=True)
class Setting:
    """One operator setting: its ``default`` and what it may be (a whole number from
    ``minimum`` to `SETTING_MAX`, or, as a ``flag``, 0 or 1, true or false)."""

    name: str
    default: int
    minimum: int = 0
    flag: bool = False

    def check(self, value: Any) -> int:
        """``value`` as the setting's integer; raise `EngineError` when it is not allowed."""
        if self.flag:
            if not isinstance(value, int) or value not in (0, 1):
                raise EngineError(f"setting {self.name!r} must be 0, 1, true or false, not {_show(value)}")
            return int(value)
        if not isinstance(value, int) or isinstance(value, bool) or not self.minimum <= value <= SETTING_MAX:
            raise EngineError(
                f"setting {self.name!r} must be an integer of at least {self.minimum}, not {_show(value)} "
                f"(at most {SETTING_MAX:,})"
            )
        return value


def _show(value: Any) -> str:
    """A short repr of a refused value (Python cannot write an int of thousands of digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a number of more than 38 digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class SettingsSchema:
    """A game's operator settings, declared once and checked in one place."""

    __slots__ = ("_by_name", "game")

    def __init__(self, game: str, settings: tuple[Setting, ...] = ()) -> None:
        self.game = game
        self._by_name = {s.name: s for s in settings}

    @classmethod
    def from_field(cls, game: str, f: Field, specs: tuple[Setting, ...]) -> SettingsSchema:
        """The schema ``specs`` with each default read (and checked) from the data section ``f``."""
        out = []
        for spec in specs:
            value = f.get(spec.name)
            raw = int(value.as_bool()) if spec.flag else value.as_int(minimum=spec.minimum)
            try:
                out.append(Setting(spec.name, spec.check(raw), spec.minimum, spec.flag))
            except EngineError as exc:
                raise value.error(str(exc)) from None
        return cls(game, tuple(out))

    def defaults(self) -> dict[str, int]:
        return {name: s.default for name, s in self._by_name.items()}

    def validate(self, settings: Any) -> dict[str, int]:
        """The defaults overridden by ``settings``; raise `EngineError` on anything else."""
        if not isinstance(settings, Mapping):
            raise EngineError(f"operator settings must be a mapping of names to values, not {_show(settings)}")
        out = self.defaults()
        for key, value in settings.items():
            spec = self._by_name.get(key) if isinstance(key, str) else None
            if spec is None:
                if not self._by_name:
                    raise EngineError(f"unknown setting {_show(key)}; {self.game} has no operator settings")
                raise EngineError(f"unknown setting {_show(key)}; the settings are {', '.join(self._by_name)}")
            out[key] = spec.check(value)
        return out


class LinesGame:
    """What the lines games share: identity, bets, description and operator settings from
    their data, and the base spin."""

    modes: tuple[str, ...] = ("base",)
    jackpot: JackpotRules | None = None
    decisions: tuple[str, ...] = ()
    """The kinds of decision the game's rounds may wait on (``describe()`` says them, so that
    the rules list only the keys that apply); a test checks them against the rounds played."""

    def __init__(self, data: LinesGameData) -> None:
        self.data = data
        self.id = data.id
        self.name = data.name
        self.version = data.version
        self.target_rtp = data.target_rtp
        self.bets = data.bets
        self.wild_pays_as = data.wild_pays_as()
        self.settings_schema = SettingsSchema(data.name)

    def default_settings(self) -> dict[str, int]:
        return self.settings_schema.defaults()

    def validate_settings(self, settings: Mapping[str, Any]) -> dict[str, int]:
        return self.settings_schema.validate(settings)

    def describe(self) -> dict[str, Any]:
        return self.data.describe() | {"wild_pays_as": self.wild_pays_as, "decisions": list(self.decisions)}

    def price(self, bet: Bet, mode: str) -> int:
        """What a round costs: the total bet, in the only mode of a game that sells nothing
        (a game with other modes prices them itself)."""
        if mode != "base":
            raise EngineError(f"{self.name} has no mode {mode!r}; its only mode is base")
        return bet.total

    spin_lines = staticmethod(spin_lines)  # the shared base spin, see the module function
