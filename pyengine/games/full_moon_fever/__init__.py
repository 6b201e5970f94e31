"""Full Moon Fever: 5x3, 25 fixed lines, a logo wild on reels 1-4, a Haunted House scatter,
a pet to feed (an extra wild) and Winfalls: cascading free spins with a x1..x5 ladder.

The rules are in ``docs/games/full_moon_fever.md``; the numbers (symbols, both paytables,
strips, lines, bets, the free-spin count weights, the pets) in ``full_moon_fever.json`` beside it.

Equal RTP for every pet, by construction: the free-spin strips carry one "chosen pet" slot
(``PET`` in the data); each pet's strips are those strips with the slot relabelled as the
pet's alter ego, a wild like the logo with identical (no) pays. Every pet therefore plays
the same game up to the name of one symbol.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ...data import Field, LinesGameData, load_lines_game, read_data_file
from ...errors import EngineError
from ...evaluators import LineEvaluator, positions_of_wins
from ...events import Event, LineWin, Spin
from ...features.cascade import CascadeRules, Judge, play_cascades
from ...features.free_spins import FreeSpins
from ...features.pick import PickRules, play_pick
from ...model import Bet, Paytable, ReelSet, Window
from ...round import Decision, RoundContext, RoundProcess
from ..base import LinesGame, Plugin, pay_scatter

__all__ = ["PLUGIN", "FullMoonFever", "WinfallsRules", "load"]

FEATURE_START = Decision("feature_start", ("start",), feature=True)
FREE_SPIN = Decision("free_spin", ("spin",))
NO_CAP = 1 << 62
"""The free spins have no win limit of their own: the strips bound the win (see the docs)."""


@dataclass(frozen=True, slots=True)
class WinfallsRules:
    """Winfalls: the Houses that start it, its paytable, the cascade ladder, the weights of
    the number of free spins, the pet slot on the free strips and each pet's alter ego."""

    trigger: int
    paytable: Paytable
    cascade: CascadeRules
    spins: tuple[tuple[int, int], ...]
    pet_symbol: str
    pets: PickRules
    alter_egos: dict[str, str]

    @property
    def max_spins(self) -> int:
        return max(n for n, _ in self.spins)


class FullMoonFever(LinesGame):
    """The game: data plus the composition of its features."""

    decisions = ("feature_start", "pick", "free_spin")

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        root = data.root
        if len(data.reels["base"].strips) != 5 or data.rows != 3:
            raise root.get("reels").error("Full Moon Fever is played on 5 reels of 3 rows")
        if self.wild_pays_as is not None:
            raise root.get("wild_pays_as").error("the logo works only with other symbols: leave wild_pays_as out")
        wild = data.wild
        scatter = data.scatter
        if wild is None or scatter is None:
            raise root.get("symbols").error("Full Moon Fever needs the logo wild and the Haunted House scatter")
        self.wild: str = wild
        self.scatter: str = scatter
        if "free" not in data.reels:
            raise root.get("reels").error("needs a 'free' reel set for Winfalls")
        self.base_reels: ReelSet = data.reels["base"]
        self.winfalls = _winfalls_rules(root.get("winfalls"), data)
        rules = self.winfalls
        for name in ("base", "free"):
            _check_strips(root.get("reels").get(name), data.reels[name], wild, scatter if name == "free" else None)
        for sym in (wild, rules.pet_symbol, *rules.alter_egos.values()):
            if sym in data.paytable.pays or sym in rules.paytable.pays:
                raise root.get("paytable").error(f"the wild {sym!r} works only with other symbols and has no pays")
        free = data.reels["free"]
        pet = rules.pet_symbol
        if any(pet in strip for strip in self.base_reels.strips):
            raise root.get("reels").get("base").error(f"the pet slot {pet!r} belongs on the free strips only")
        # One relabelled copy of the free strips per pet (the same game up to one name).
        self.free_reels: dict[str, ReelSet] = {
            p: ReelSet(tuple(tuple(ego if s == pet else s for s in strip) for strip in free.strips), data.rows)
            for p, ego in rules.alter_egos.items()
        }
        self.lines = LineEvaluator(data.paylines, data.paytable, wild=wild)
        self.free_lines: dict[str, LineEvaluator] = {
            p: LineEvaluator(data.paylines, rules.paytable, wild=(wild, ego)) for p, ego in rules.alter_egos.items()
        }
        self._houses = self.base_reels.positions_of(scatter)
        self._scatter_pays = tuple(data.scatter_pays.get(n, 0) for n in range(5 * data.rows + 1))
        self._spin_counts = tuple(n for n, _ in rules.spins)
        self._spin_weights = tuple(w for _, w in rules.spins)

    # -- play -------------------------------------------------------------------
    def play(self, ctx: RoundContext) -> RoundProcess:
        stops, _, win = self.spin_lines(ctx, self.base_reels, self.lines, "base")
        h = self._houses
        houses = h[0][stops[0]] + h[1][stops[1]] + h[2][stops[2]] + h[3][stops[3]] + h[4][stops[4]]
        n = len(houses)
        multiplier = self._scatter_pays[n]
        if multiplier:
            win += pay_scatter(ctx, self.scatter, houses, multiplier)
        ctx.win = win
        if n >= self.winfalls.trigger:
            ctx.features.append("free_spins")
            yield from self.play_feature(ctx)

    def spin_count(self, ctx: RoundContext) -> int:
        """Draw the number of free spins (before any choice, from ``ctx.rng``)."""
        return self._spin_counts[ctx.rng.weighted(self._spin_weights)]

    def judge(self, lines: LineEvaluator, bet: Bet) -> Judge:
        """The Winfalls judgement of a window at a cascade multiplier: its line wins (the
        multiplier included in each win), their total, and the positions that vanish."""
        per_line = bet.bet_per_line * bet.coins
        active = bet.lines

        def judge(window: Window, multiplier: int) -> tuple[Sequence[Event], int, tuple[tuple[int, int], ...]]:
            hits = lines.wins(window, active)
            if not hits:
                return (), 0, ()
            events = [LineWin(ln, sym, n, pos, pay, pay * per_line * multiplier) for ln, sym, n, pos, pay in hits]
            return events, sum(e.win for e in events), positions_of_wins(h[3] for h in hits)

        return judge

    def play_feature(self, ctx: RoundContext) -> Generator[Decision, str, int]:
        """Winfalls: the spin count drawn, the pet chosen, then every free spin cascades;
        ``ctx.win`` grows by each spin's win; return the feature's win."""
        rules = self.winfalls
        base_win = ctx.win
        fs = FreeSpins(ctx, self.spin_count(ctx), NO_CAP)
        yield FEATURE_START
        pick = yield from play_pick(ctx, rules.pets)
        pet = pick.picked[0]
        reels = self.free_reels[pet]
        judge = self.judge(self.free_lines[pet], ctx.bet)
        strips = reels.strips
        while fs.remaining:
            yield FREE_SPIN
            fs.start_spin()
            stops, window = reels.draw(ctx.rng.below(reels.radix))
            ctx.events.append(Spin("free", stops, window))
            result = play_cascades(ctx, rules.cascade, strips, stops, window, judge)
            fs.credit(result.win)
            ctx.win = base_win + fs.win
        fs.finish()
        return fs.win

    # -- description ----------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        rules = self.winfalls
        return super().describe() | {
            "winfalls": {
                "trigger": rules.trigger,
                "paytable": {s: {str(k): v for k, v in p.items()} for s, p in rules.paytable.pays.items()},
                "multipliers": list(rules.cascade.multipliers),
                "spins": {str(n): w for n, w in rules.spins},
                "pet_symbol": rules.pet_symbol,
                "pets": list(rules.pets.prizes),
                "alter_egos": dict(rules.alter_egos),
            },
            "settings": {},
        }


def _check_strips(f: Field, reels: ReelSet, wild: str, forbidden: str | None) -> None:
    """The logo appears on reels 1-4 only; ``forbidden`` (the House on the free strips) nowhere."""
    last = len(reels.strips) - 1
    for reel, strip in enumerate(reels.strips):
        for i, sym in enumerate(strip):
            if (sym == wild and reel == last) or sym == forbidden:
                where = "on reel 5" if sym == wild else "in Winfalls (it cannot retrigger)"
                raise f.as_list()[reel].as_list()[i].error(f"{sym!r} does not appear {where}")


def _winfalls_rules(f: Field, data: LinesGameData) -> WinfallsRules:
    trigger = f.get("trigger").as_int(minimum=1)
    ids = {s.id for s in data.symbols}
    pays: dict[str, dict[int, int]] = {}
    for sid, pf in f.get("paytable").items():
        if sid not in data.paytable.pays:
            raise pf.error(f"{sid!r} is not a paying symbol of the base paytable")
        pays[sid] = {}
        for count_s, cf in pf.items():
            if not count_s.isdigit() or not 1 <= int(count_s) <= 5:
                raise cf.error('counts must be written as "1" to "5"')
            pays[sid][int(count_s)] = cf.as_int(minimum=1)
    missing = set(data.paytable.pays) - set(pays)
    if missing:
        raise f.get("paytable").error(f"needs the Winfalls pays of {sorted(missing)}")
    mf = f.get("multipliers")
    multipliers = tuple(x.as_int(minimum=1) for x in mf.as_list(min_len=1))
    spins = []
    for count_s, wf in f.get("spins").items():
        if not count_s.isdigit() or not 1 <= int(count_s) <= 50:
            raise wf.error("a number of free spins is 1 to 50")
        spins.append((int(count_s), wf.as_int(minimum=1)))
    if not spins:
        raise f.get("spins").error("needs at least one number of free spins")
    pf = f.get("pet_symbol")
    pet = pf.as_str()
    if pet not in ids or not data.symbol(pet).is_wild:
        raise pf.error(f"{pet!r} must be a wild symbol of the game")
    pets = PickRules.from_field("pet", f.get("pets"))
    if pets.faces is None or pets.picks != 1:
        raise f.get("pets").error("the pet is an open choice of one: faces true, picks 1")
    egos: dict[str, str] = {}
    ef = f.get("alter_egos")
    for name, sf in ef.items():
        sid = sf.as_str()
        if sid not in ids or not data.symbol(sid).is_wild or sid in (pet, data.wild):
            raise sf.error(f"{sid!r} must be a wild symbol of its own")
        egos[name] = sid
    if set(egos) != set(pets.prizes) or len(set(egos.values())) != len(egos):
        raise ef.error(f"needs one distinct alter ego for each pet: {', '.join(pets.prizes)}")
    try:
        cascade = CascadeRules(multipliers)
    except EngineError as exc:
        raise mf.error(str(exc)) from None
    return WinfallsRules(trigger, Paytable(pays), cascade, tuple(sorted(spins)), pet, pets, egos)


def build(root: Field) -> FullMoonFever:
    """The game from the root of its data file (as shipped, or edited)."""
    return FullMoonFever(load_lines_game(root))


def load() -> FullMoonFever:
    """Load the game from its data file."""
    return build(read_data_file("full_moon_fever.json", __name__))


PLUGIN = Plugin(
    load=load,
    build=build,
    report="pyengine.games.full_moon_fever.report:report",
    distribution="pyengine.games.full_moon_fever.report:distribution",
    screen="slotui.games.full_moon_fever",
    showcase="pyengine.games.full_moon_fever.showcase:shown",
)
"""The game's registration: its loader, its exact RTP report and its client screen."""
