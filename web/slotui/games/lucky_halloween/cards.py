"""Lucky Halloween's title cards: the card of each feature, waiting for Start where the round waits."""

from __future__ import annotations


from pyengine import events as ev
from pyengine.games.lucky_halloween import RiderSymbols

from ...beats import Beat, Timed
from ...intro import FeatureCard, ask_start
from ...overlay import IntroCard
from ...pages import x_text
from ...stage import Stage

from ...words import number

from .look import LADDER, WORDS, _trigger_counts


# -- a feature's title card ----------------------------------------------------------------------------
def _card(c: Stage, feature: str, now: float, *, waiting: bool = False) -> FeatureCard:
    sc = c.desc["scatters"]
    if feature == LADDER:
        lad = c.desc["full_moon_bonus"]
        top = x_text(lad["rungs_x"][-1])
        card = FeatureCard(
            WORDS("card.ladder_title"),
            (WORDS("card.ladder_climb", rungs=number(len(lad["rungs_x"])), top=top), WORDS("card.ladder_pick")),
            str(sc["bonus"]["symbol"]),
            now,
            waiting=waiting,
        )
    else:
        card = FeatureCard(
            WORDS("card.free_title"),
            (WORDS("card.free_choose"), WORDS("card.free_for")),
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


class FeatureIntroBeat(Timed):
    """A feature is won: its title card, then (unless autoplay answers) Start is awaited."""

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        self.feature = _next_feature(c)
        self.card = _card(c, self.feature, now)
        c.host.announce(WORDS("card.won_ladder" if self.feature == LADDER else "card.won_free"))
        self.ms = c.timing.line_show

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now) and not c.start_requested:
            return False
        ask_start(self.card, c, WORDS("card.press_start"))
        return True


def _decision(e: ev.DecisionPending, c: Stage) -> Beat | None:
    if e.kind != "feature_start":
        return None
    if c.queue and isinstance(c.queue[0], ev.ChoiceMade):
        return None  # answered already (autoplay plays the feature)
    return FeatureIntroBeat()


