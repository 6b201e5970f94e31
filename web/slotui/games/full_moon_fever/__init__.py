"""Full Moon Fever on screen: the Haunted House scatter starting Winfalls, its title card,
the pet screen (four pets, chosen by click, tap or keyboard through the shared pick
board, with its own PAYTABLE button leading to the Winfalls paytable), the chosen pet
turning into its alter ego, every symbol drawn in its alter-ego form during Winfalls, the
shared cascade presentation (bursts, falls, the step wins counted up, the ×1…×5 meter),
the free-spin counter and the feature total, and the game's paytable, rules and history.

Every free spin cascades to its end in one engine call, so a reload during a cascade finds
the spin played out: recovery shows its final window and the multiplier it reached, and
the next free spin follows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

from pyengine import events as ev

from ... import pages
from ...beats import Beat, Timed, GameScreen, register_screen, symbol_name
from ...canvas import Canvas
from ...cascade import Cascades
from ...expanding import ExpandingSymbol
from ...freespins import FreeSpins, begin
from ...intro import FeatureCard, ask_start
from ...layout import Layout
from ...overlay import IntroCard
from ...pages import PageContext, img, pct
from ...pick import PickLook, PickOverlay, RevealBeat
from ...render import GOLD, INK, draw_symbol
from ...stage import Stage
from ...timing import clamp01, ease_out_cubic
from ...words import number, of, tr

__all__ = [
    "EGO_SUFFIX",
    "PETS",
    "SCREEN",
    "TransformBeat",
    "alter_ego_forms",
    "history_board",
    "paytable_html",
    "rebuild_feature",
    "rules_html",
]

WORDS = of(__package__)
"""The game\'s own words (lang/<lang>.json beside this module)."""

HOUSE = "HOUSE"
"""The scatter (the description's scatter symbol), drawn on the Winfalls title card."""
PICK_NAME = "pet"
"""The pick the engine offers the pets as (``pick_start`` name)."""
EGO_SUFFIX = "_EGO"
"""A symbol's alter-ego picture is ``symbols/<id>_EGO.svg``."""
PETS = ("DOG", "CAT", "PARROT", "HAMSTER")
"""The pets' own pictures (the pick's faces), ``symbols/<pet>.svg``."""


def _pet(pet: str) -> str:
    """A pet's name (``pet.<PET>``; a prize that is no pet as it is)."""
    return WORDS(f"pet.{pet}") if pet in PETS else pet


def _the_pet(pet: str) -> str:
    """A pet's name with its article, as a sentence uses it ("the Dog")."""
    return WORDS(f"pet.{pet}.the") if pet in PETS else pet


def _ego(c_names: Mapping[str, str], ego: str) -> str:
    """An alter ego's own name (its symbol's name without "(the Dog)")."""
    return c_names[ego].split(" (")[0]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _winfalls(desc: Mapping[str, Any]) -> Mapping[str, Any]:
    return desc["winfalls"]  # type: ignore[no-any-return]


def _ego_of(desc: Mapping[str, Any], pet: str) -> str:
    return str(_winfalls(desc)["alter_egos"][pet])


def _regular(desc: Mapping[str, Any]) -> list[str]:
    """Every symbol with a normal and an alter-ego picture (not the pets' own wilds)."""
    w = _winfalls(desc)
    own = {w["pet_symbol"], *w["alter_egos"].values()}
    return [s["id"] for s in desc["symbols"] if s["id"] not in own]


def alter_ego_forms(desc: Mapping[str, Any], pet: str) -> dict[str, str]:
    """The pictures of Winfalls with ``pet`` chosen: every symbol in its alter-ego form, the
    pet slot as the pet's alter ego."""
    forms = {sym: sym + EGO_SUFFIX for sym in _regular(desc)}
    forms[str(_winfalls(desc)["pet_symbol"])] = _ego_of(desc, pet)
    return forms


def _chosen(events: list[ev.Event]) -> str | None:
    return next((e.prize for e in events if isinstance(e, ev.PickReveal) and e.name == PICK_NAME), None)


def _feature_on(c: Stage, pet: str) -> None:
    """Winfalls is on with ``pet``: alter-ego pictures, the alter ego shown above the reels."""
    ego = _ego_of(c.desc, pet)
    c.view.forms = alter_ego_forms(c.desc, pet)
    c.view.remove(ExpandingSymbol)
    c.view.overlays.insert(0, ExpandingSymbol(ego))


def _feature_over(c: Stage) -> None:
    c.view.forms = {}
    c.view.remove(ExpandingSymbol)
    CASCADES.clear(c)
    last = c.session.last_round
    _base_reels(c, c.session.round_events or (last.events if last is not None else ()))


def _base_reels(c: Stage, events: Sequence[ev.Event]) -> None:
    """Back to the base game's reels, where the spin that won Winfalls stopped: the free
    spins' strips hold the pet's slot, a symbol the base game does not have."""
    base = next((e for e in reversed(events) if isinstance(e, ev.Spin) and e.phase == "base"), None)
    if base is not None:
        c.view.reels.set_strips(c.strips["base"], list(base.stops))


# -- the title card and the pet screen --------------------------------------------------------
def _card(c: Stage, spins: int, now: float, *, waiting: bool = False) -> FeatureCard:
    c.view.remove(IntroCard)
    card = FeatureCard(
        WORDS("card.title"),
        (WORDS.count("card.spins", spins), WORDS("card.line")),
        HOUSE,
        now,
        waiting=waiting,
    )
    c.view.overlays.append(card)
    return card


class IntroBeat(Timed):
    """'WINFALLS — n FREE SPINS' over the reels; then it waits for Start."""

    def __init__(self, e: ev.FreeSpinsAwarded, c: Stage) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        begin(c, self.e)
        self.card = _card(c, self.e.count, now)
        c.host.announce(WORDS.count("card.said", self.e.count))
        self.ms = c.timing.line_show

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now) and not c.start_requested:
            return False
        if c.autoplay is None:
            ask_start(self.card, c, WORDS("card.press_start_said"))
        return True


def _label(name: str, prize: str) -> str:
    return WORDS(f"pet.{prize}.label") if prize in PETS else prize


def _sprite(name: str, value: str) -> str | None:
    return value if value in PETS else None


PICK_LOOK = PickLook(
    titles={PICK_NAME: "pet.title"},
    label=_label,
    sprite=_sprite,
    prompt="pet.prompt",
    button="button.paytable",
    button_action="paytable",
    words=WORDS,
)


@dataclass(slots=True)
class PetTransform:
    """The chosen pet turning into its alter ego under the full moon (in ``View.overlays``)."""

    writes_band = True

    pet: str
    ego: str
    lines: tuple[str, str]
    started: float
    ms: float

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        u = clamp01((now - self.started) / self.ms) if self.ms > 0 else 1.0
        canvas.fill_rect(0, 0, L.width, L.height, "rgba(6,2,18,0.86)")
        size = min(L.reels_h * 0.8, L.width * 0.55)
        x = (L.width - size) / 2
        y = L.reels_y + (L.reels_h * 0.82 - size) / 2
        # The moon swells behind the pet, flashes, and the alter ego stands in its place.
        glow = ease_out_cubic(min(u * 1.6, 1.0))
        ring = size * (0.55 + 0.5 * glow)
        canvas.fill_rect(
            L.width / 2 - ring / 2, y + size / 2 - ring / 2, ring, ring, f"rgba(255,236,190,{0.08 + 0.2 * glow:.2f})"
        )
        fade = clamp01((u - 0.35) / 0.4)
        if fade < 1.0:
            canvas.push(alpha=1.0 - fade)
            draw_symbol(canvas, self.pet, x, y, size)
            canvas.pop()
        if fade > 0.0:
            grow = 0.8 + 0.2 * ease_out_cubic(fade)
            s = size * grow
            canvas.push(alpha=fade)
            draw_symbol(canvas, self.ego, x + (size - s) / 2, y + (size - s) / 2, s)
            canvas.pop()
        if 0.3 < u < 0.55:
            flash = 1.0 - abs(u - 0.425) / 0.125
            canvas.fill_rect(0, 0, L.width, L.height, f"rgba(255,250,230,{0.45 * flash:.2f})")
        text = min(L.cell * 0.22, L.width * 0.045)
        canvas.text(self.lines[0], L.width / 2, L.top_h * 0.55 + text * 0.5, text * 1.3, GOLD)
        canvas.text(self.lines[1], L.width / 2, min(y + size + text * 1.6, L.height - 8), text, INK)


class TransformBeat(Beat):
    """The pet picked: its card turns (the shared reveal), then it becomes its alter ego,
    and Winfalls shows every symbol in its alter-ego form."""

    def __init__(self, e: ev.PickReveal) -> None:
        self.e = e
        self.reveal = RevealBeat(e)
        self.stage = 0
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        self.reveal.start(c, now)

    def update(self, c: Stage, now: float) -> bool:
        if self.stage == 0:
            if not self.reveal.update(c, now) and not self.hurried:
                return False
            self.stage = 1
            pet = self.e.prize
            ego = _ego_of(c.desc, pet)
            self.ms = 0.0 if self.hurried else (700.0 if c.reduced_motion else c.timing.line_show * 1.6)
            the_pet, ego_name = _the_pet(pet), symbol_name(c, ego).split(" (")[0]
            self.overlay = PetTransform(
                pet,
                ego,
                (
                    WORDS("transform.title", the_pet=the_pet.upper(), ego=ego_name.upper()),
                    WORDS("transform.line"),
                ),
                now,
                self.ms,
            )
            c.view.overlays.append(self.overlay)
            self.t1 = now
            c.host.announce(WORDS("transform.said", the_pet=_capital(the_pet), ego=ego_name))
        if now - self.t1 < self.ms + (0 if self.hurried else c.timing.pause) and not self.hurried:
            return False
        c.view.remove(PetTransform)
        _feature_on(c, self.e.prize)
        return True

    def hurry(self, c: Stage) -> None:
        self.hurried = True
        self.reveal.hurry(c)


def _reveal(e: ev.PickReveal, c: Stage) -> Beat | None:
    return TransformBeat(e) if e.name == PICK_NAME else RevealBeat(e)


def _pick_end(e: ev.PickEnd, c: Stage) -> Beat | None:
    """The faces were open: the board leaves at once (nothing was hidden)."""
    if e.name == PICK_NAME:
        c.view.remove(PickOverlay)
    return None


FREE_SPINS = FreeSpins(
    intro=IntroBeat,
    ended=_feature_over,
)
CASCADES = Cascades(lambda desc: _winfalls(desc)["multipliers"], phases=("free",))


# -- recovery -------------------------------------------------------------------------------------
def rebuild_feature(c: Stage, events: list[ev.Event]) -> None:
    """Recovery: the title card waiting for Start, or the pet screen (the shared pick board
    comes back on its own), or Winfalls with its pet, its alter-ego pictures, the counter,
    the last free spin's final window and the multiplier it reached; after a finished
    round, its last window."""
    in_play = c.session.in_round and FREE_SPINS.restore(c, events)
    if not in_play:
        if any(isinstance(e, ev.FreeSpinsEnd) for e in events):
            _base_reels(c, events)  # a finished Winfalls: the base game, as when it ended
        else:
            CASCADES.rebuild(c, events, meter=False)
        return
    if c.pending_kind == "feature_start":
        awarded = next(e for e in events if isinstance(e, ev.FreeSpinsAwarded))
        _card(c, awarded.count, c.now - 1e6, waiting=True)
        return
    pet = _chosen(events)
    if pet is None:
        return  # the pet screen: the shared pick board's recovery puts it up
    _feature_on(c, pet)
    c.view.phase = "free"
    CASCADES.rebuild(c, events)
    c.refresh_status()


# -- pages ----------------------------------------------------------------------------------------------
def _scatter_text(desc: Mapping[str, Any], fmt: pages.Fmt, stake: int) -> str:
    return ", ".join(
        f"{k}× {fmt(v * stake)}" for k, v in sorted(desc["scatter_pays"].items(), key=lambda kv: int(kv[0])) if v
    )


def _wild(desc: Mapping[str, Any]) -> str:
    return str(next(s["id"] for s in desc["symbols"] if s["kind"] == "wild"))


def _base_section(ctx: PageContext) -> str:
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    wild = _wild(desc)
    trigger = _winfalls(desc)["trigger"]
    return "".join(
        [
            f'<section id="base-paytable"><h3>{WORDS.html("paytable.base")}</h3>',
            '<p class="note">'
            + WORDS.html("paytable.base_note", bet=escape(fmt(ctx.bet_per_line)), lines=escape(number(ctx.lines)))
            + "</p>",
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>{WORDS.html('paytable.wild', scatter=escape(names[HOUSE]))}</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, HOUSE, names[HOUSE], 80)}<div><h3>{escape(names[HOUSE])}'
            "</h3><p>"
            + WORDS.html(
                "paytable.scatter", pays=escape(_scatter_text(desc, fmt, ctx.stake)), trigger=escape(number(trigger))
            )
            + "</p></div></div>",
            pages.symbol_pays(desc, ctx.bet_per_line, fmt, ctx.assets, prize=True, names=names),
            "</section>",
        ]
    )


def _spins_table(desc: Mapping[str, Any]) -> str:
    spins = {int(k): int(v) for k, v in _winfalls(desc)["spins"].items()}
    total = sum(spins.values())
    mean = Fraction(sum(n * w for n, w in spins.items()), total)
    rows = "".join(
        f'<tr><th scope="row">{number(n)}</th><td>{pct(Fraction(w, total))}</td></tr>' for n, w in sorted(spins.items())
    )
    return (
        f'<table class="ladder spins"><thead><tr><th scope="col">{WORDS.html("paytable.spins_col")}</th>'
        f'<th scope="col">{WORDS.html("paytable.chance_col")}</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
        '<p class="note">'
        + WORDS.html("paytable.spins_note", mean=escape(number(float(mean), 3)), most=escape(number(max(spins))))
        + "</p>"
    )


def _winfalls_section(ctx: PageContext) -> str:
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    w = _winfalls(desc)
    wild = _wild(desc)
    pets = "".join(
        f"<li>{img(ctx.assets, pet, _pet(pet), 56)} → {img(ctx.assets, ego, names[ego], 56)}"
        f"<span>{WORDS.html('paytable.pet_ego', pet=escape(_pet(pet)), ego=escape(_ego(names, ego)))}</span></li>"
        for pet, ego in w["alter_egos"].items()
    )
    per_line = ctx.bet_per_line
    prize_title = escape(tr("pages.prize_title"))
    pays = []
    for sid, p in w["paytable"].items():
        rows = "".join(
            f'<li><b>{number(int(k))}×</b> <span class="prize" title="{prize_title}">'
            f"{pages.x_text(v).removesuffix('×')}</span> "
            f"{fmt(v * per_line)}</li>"
            for k, v in sorted(p.items(), key=lambda kv: -int(kv[0]))
            if v
        )
        pays.append(f'<div class="pay">{img(ctx.assets, sid + EGO_SUFFIX, names[sid], 56)}<ul>{rows}</ul></div>')
    ladder = ", ".join(f"×{number(m)}" for m in w["multipliers"])
    top = escape(number(w["multipliers"][-1]))
    return "".join(
        [
            f'<section id="winfalls-paytable"><h3>{WORDS.html("paytable.winfalls")}</h3>',
            '<p class="note">' + WORDS.html("paytable.winfalls_note", bet=escape(fmt(per_line))) + "</p>",
            f'<h4>{WORDS.html("paytable.pets")}</h4><ul class="prizes">{pets}</ul>'
            f"<p>{WORDS.html('paytable.pets_note')}</p>",
            f'<div class="pay special">{img(ctx.assets, wild + EGO_SUFFIX, names[wild], 80)}<div>'
            f"<h3>{escape(names[wild])}</h3><p>{WORDS.html('paytable.ego_wild', scatter=escape(names[HOUSE]))}</p>"
            "</div></div>",
            f'<div class="pays">{"".join(pays)}</div>',
            f"<h4>{WORDS.html('paytable.multiplier')}</h4>"
            f"<p>{WORDS.html('paytable.multiplier_note', ladder=escape(ladder), top=top)}</p>",
            f"<h4>{WORDS.html('paytable.spins')}</h4>",
            _spins_table(desc),
            "</section>",
        ]
    )


FEATURE_DECISIONS = frozenset({"feature_start", "pick", "free_spin"})


def paytable_html(ctx: PageContext) -> str:
    """The main game paytable and the Winfalls paytable (first while Winfalls is in play: the
    pet screen's PAYTABLE button leads there), then the win lines."""
    base, winfalls = _base_section(ctx), _winfalls_section(ctx)
    first, second = (winfalls, base) if ctx.pending in FEATURE_DECISIONS else (base, winfalls)
    return first + second + pages.line_shapes(ctx.desc)


def _or_list(items: list[str]) -> str:
    """A list of numbers, "5, 8 or 10", in the player's language."""
    return WORDS("rules.or_list", first=", ".join(items[:-1]), last=items[-1]) if len(items) > 1 else items[0]


def rules_html(ctx: PageContext) -> str:
    """The rules as implemented, every reading of the rule document stated, then the shared
    paragraphs (with the game's version)."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    w = _winfalls(desc)
    bets = desc["bets"]
    lines = bets["lines"][0]
    levels = bets["bet_per_line"]
    top = max(levels)
    wild = escape(names[_wild(desc)])
    house = escape(names[HOUSE])
    spins = sorted(int(k) for k in w["spins"])
    egos = ", ".join(WORDS("rules.ego", the_pet=_the_pet(p), ego=_ego(names, e)) for p, e in w["alter_egos"].items())
    n_lines = escape(number(lines))
    parts = [
        "<h3>"
        + WORDS.html(
            "rules.title",
            name=escape(desc["name"]),
            version=f"<small>{WORDS.html('rules.version', version=escape(str(desc['version'])))}</small>",
        )
        + "</h3>",
        "<p>"
        + WORDS.html(
            "rules.bets",
            rows=escape(number(desc["rows"])),
            lines=n_lines,
            low=escape(fmt(levels[0])),
            top=escape(fmt(top)),
            max_bet=escape(fmt(top * lines)),
        )
        + "</p>",
        f"<h4>{WORDS.html('rules.wins_heading')}</h4><p>{WORDS.html('rules.wins')}</p>",
        f"<h4>{wild}</h4><p>{WORDS.html('rules.wild', wild=wild, scatter=house)}</p>",
        f"<h4>{house}</h4><p>{WORDS.html('rules.scatter', scatter=house, trigger=escape(number(w['trigger'])))}</p>",
        f"<h4>{WORDS.html('rules.winfalls_heading')}</h4><p>"
        + WORDS.html(
            "rules.winfalls",
            spins=escape(_or_list([number(n) for n in spins])),
            most=escape(number(spins[-1])),
            scatter=house,
        )
        + "</p><p>"
        + WORDS.html("rules.pets", pets_heading=f"<b>{WORDS.html('rules.pets_heading')}</b>", egos=escape(egos))
        + "</p><p>"
        + WORDS.html(
            "rules.cascades",
            cascades_heading=f"<b>{WORDS.html('rules.cascades_heading')}</b>",
            top=escape(number(w["multipliers"][-1])),
        )
        + "</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop=WORDS("rules.autoplay_stop"),
            recovery=WORDS("rules.recovery"),
            start=WORDS("rules.start"),
        ),
    ]
    return "".join(parts)


def history_board(record: Any, fmt: Callable[[int], str], assets: str, names: Mapping[str, str]) -> str:
    """A round's Winfalls in the history: the pet chosen, the free spins, the feature win and
    the highest multiplier reached ("" for a round without it)."""
    events = list(record.events)
    end = next((e for e in events if isinstance(e, ev.FreeSpinsEnd)), None)
    pet = _chosen(events)
    if end is None or pet is None:
        return ""
    top = max((e.multiplier for e in events if isinstance(e, ev.WinMultiplier)), default=0)
    with_pet = WORDS(f"pet.{pet}.with") if pet in PETS else pet
    key = "history.winfalls_reached" if top else "history.winfalls"
    return (
        f'<p class="h-feature">{img(assets, pet, _pet(pet), 28)} '
        + WORDS.html(
            key,
            with_pet=escape(with_pet),
            spins=escape(number(end.spins)),
            win=escape(fmt(end.win)),
            x=escape(number(top)),
        )
        + "</p>"
    )


_ALL_REGULAR = (
    "WILD", "HOUSE", "GRANNY", "BUTLER", "MIRROR", "CANDLES", "A", "K", "Q", "J", "TEN",
)  # fmt: skip


SCREEN = GameScreen(
    words=WORDS,
    voice=f"{__name__}.sound",  # its voice, imported when the sound code arrives (slotui.jssound)
    handlers={
        **FREE_SPINS.handlers,
        **CASCADES.handlers,
        ev.PickReveal.type: _reveal,
        ev.PickEnd.type: _pick_end,
    },
    wins_beat=CASCADES.wins_beat,
    rebuild=rebuild_feature,
    status=FREE_SPINS.status,
    spin_started=CASCADES.spin_started,
    extra_symbols=(*PETS, *(s + EGO_SUFFIX for s in _ALL_REGULAR)),
    big_symbols=(HOUSE, *PETS, "WOLF", "PANTHER", "RAVEN", "GREMLIN"),
    paytable=paytable_html,
    rules=rules_html,
    history_board=history_board,
    pick_look=PICK_LOOK,
)
register_screen("full_moon_fever", SCREEN)
