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

from pyengine import events as ev
from pyengine.games.lucky_halloween import LadderClimb, LadderStart, LadderWin, RiderAppears, RiderSymbols

from ...beats import BannerBeat, GameScreen, register_screen
from ...freespins import FreeSpins, begin
from ...layout import BACKGROUND, FRAME, LOGO
from ...pick import PickLook
from ...stage import Stage
from ...view import Banner
from ...words import number, of
from .look import (
    CAULDRON, CAULDRON_OPEN, COLLECT, FEATURE_NAMES, GREEN, MEGA, PUMPKIN, PUMPKINS, PUMPKIN_COLLECT,
    PUMPKIN_OPEN, RIDER, TREE,
)
from .rider import EntranceRider, MegaWild, PlacedSymbols, RiderBeat, RiderOverlay, _placed
from .tree import MultiplierBand, TreeBeat, TreeOverlay
from .cards import FeatureIntroBeat, _card, _decision, _next_feature
from .ladder import ClimbBeat, LadderOverlay, LadderStartBeat, LadderWinBeat, _ladder, _pick_area, ladder_rects
from .paytable import history_board, paytable_html, rules_html

__all__ = [
    "FEATURE_NAMES",
    "GREEN",
    "PUMPKINS",
    "SCREEN",
    "EntranceRider",
    "FeatureIntroBeat",
    "LadderOverlay",
    "MegaWild",
    "MultiplierBand",
    "PlacedSymbols",
    "RiderOverlay",
    "TreeOverlay",
    "history_board",
    "ladder_rects",
    "paytable_html",
    "rebuild_feature",
    "rules_html",
]

WORDS = of(__package__)
"""The game's own words (lang/<lang>.json beside this module)."""

# -- picks and free spins ---------------------------------------------------------------------------------
def _pick_label(name: str, prize: str) -> str:
    if name == PUMPKINS:
        rungs, _, collect = prize.partition(" ")
        return WORDS("pick.rungs_collect", rungs=rungs) if collect else WORDS("pick.rungs", rungs=rungs)
    if name == "bonus_cauldron":
        return WORDS("pick.bonus_spins", spins=prize)
    return WORDS("pick.spins", spins=prize)


def _pick_sprite(name: str, prize: str) -> str | None:
    if name == PUMPKINS:
        return PUMPKIN_COLLECT.name if prize.endswith(COLLECT) else PUMPKIN_OPEN.name
    return CAULDRON_OPEN.name


LOOK = PickLook(
    titles={
        "cauldron": "pick.cauldron_title",
        "bonus_cauldron": "pick.bonus_cauldron_title",
        PUMPKINS: "pick.pumpkin",
    },
    label=_pick_label,
    sprite=_pick_sprite,
    cover=CAULDRON.name,
    covers={PUMPKINS: PUMPKIN.name},
    prompts={"cauldron": "pick.cauldron", "bonus_cauldron": "pick.cauldron", PUMPKINS: "pick.pumpkin"},
    area=_pick_area,
    scenes=frozenset({PUMPKINS}),
    words=WORDS,
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
        detail = (
            WORDS("free.detail_extra", picked=number(picked), extra=number(extra))
            if extra > 0
            else WORDS("free.detail")
        )
        c.view.banner = Banner(WORDS("free.title", count=number(self.e.count)), detail, now, tier=2)
        c.host.announce(WORDS("free.said", count=number(self.e.count)))
        c.refresh_status()
        self.ms = c.timing.line_show * 1.2


FREE_SPINS = FreeSpins(
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


def _win_label(e: ev.Event, c: Stage) -> str:
    return WORDS("win_label", win=c.fmt(int(getattr(e, "win", 0))))


SCREEN = GameScreen(
    words=WORDS,
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
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
    paytable=paytable_html,
    rules=rules_html,
    history_board=history_board,
    pick_look=LOOK,
)
register_screen("lucky_halloween", SCREEN)
