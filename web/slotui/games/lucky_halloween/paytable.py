"""Lucky Halloween's pages: the paytable, the rules with the ladder's table and the Rider's
odds, and the history board."""

from __future__ import annotations

from fractions import Fraction
from html import escape
from collections.abc import Mapping
from typing import Any

from pyengine import events as ev
from pyengine.games.lucky_halloween import LadderStart, LadderWin, RiderAppears, RiderSymbols

from ... import pages
from ...pages import PageContext, img, pct, x_text

from ...words import number

from .look import FEATURE_NAMES, PUMPKINS, WORDS
from .ladder import _shortcuts_json


# -- pages --------------------------------------------------------------------------------------------------
def _ladder_table(desc: Any, stake: int, fmt: pages.Fmt) -> str:
    lad = desc["full_moon_bonus"]
    shortcuts = _shortcuts_json(desc)
    rungs = [int(v) for v in lad["rungs_x"]]
    cells = []
    for i, x in enumerate(rungs, start=1):
        note = f" → {x_text(rungs[shortcuts[i] - 1])}" if i in shortcuts else ""
        cls = ' class="shortcut"' if i in shortcuts or i in shortcuts.values() else ""
        cells.append(f'<tr{cls}><th scope="row">{i}</th><td>{x_text(x)}{note}</td><td>{fmt(x * stake)}</td></tr>')
    return (
        f'<table class="ladder"><thead><tr><th scope="col">{WORDS.html("pay.rung")}</th>'
        f'<th scope="col">{WORDS.html("pay.prize")}</th>'
        f'<th scope="col">{WORDS.html("pay.at_bet")}</th></tr></thead><tbody>{"".join(reversed(cells))}</tbody></table>'
    )


def paytable_html(ctx: PageContext) -> str:
    """The line pays as multipliers of the total bet (with the amount at this bet), the Wild,
    the two scatters, the ladder's rungs and the win lines."""
    desc, fmt, names = ctx.desc, ctx.fmt, ctx.names
    bet_per_line, lines = ctx.bet_per_line, ctx.lines
    stake = bet_per_line * lines
    wild = next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")
    sc = desc["scatters"]
    free, bonus = sc["free_spins"]["symbol"], sc["bonus"]["symbol"]
    top = names.get(desc.get("wild_pays_as", ""), "")

    def scatter_pays(pays: dict[str, Any]) -> str:
        return "".join(
            f"<li><b>{number(int(k))}×</b> {x_text(v)} {fmt(v * stake)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
        )

    fs = desc["free_spins"]
    lad = desc["full_moon_bonus"]
    counts = WORDS("list_sep").join(number(int(k)) for k in sorted(fs["cauldron"], key=int))
    return "".join(
        [
            '<p class="note">'
            + WORDS.html("pay.note", stake=fmt(stake), lines=number(lines), per_line=fmt(bet_per_line))
            + "</p>",
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            "<p>"
            + WORDS.html("pay.wild", wild=escape(names[wild]), free=escape(names[free]), bonus=escape(names[bonus]),
                         top=escape(top))
            + "</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, free, names[free], 80)}<div><h3>{escape(names[free])}</h3>'
            "<p>"
            + WORDS.html("pay.free", trigger=number(int(fs["trigger"])), counts=counts,
                         extra=number(int(fs["per_extra_scatter"])))
            + f'</p><ul class="prizes">{scatter_pays(sc["free_spins"]["pays_x"])}</ul></div></div>',
            f'<div class="pay special">{img(ctx.assets, bonus, names[bonus], 80)}<div><h3>{escape(names[bonus])}</h3>'
            "<p>"
            + WORDS.html("pay.bonus", trigger=number(int(lad["trigger"])), top=x_text(lad["rungs_x"][-1]))
            + f'</p><ul class="prizes">{scatter_pays(sc["bonus"]["pays_x"])}</ul></div></div>',
            pages.symbol_pays(desc, bet_per_line, fmt, ctx.assets, stake_lines=lines, names=names),
            f"<h3>{WORDS.html('pay.ladder_heading')}</h3><p>{WORDS.html('pay.ladder')}</p>",
            _ladder_table(desc, stake, fmt),
            pages.line_shapes(desc),
        ]
    )


def _one_in(weight: int, denominator: int) -> str:
    """A chance as "1 in N" (to one decimal where it is not whole), and its exact fraction
    where that says more (not "1 in 80 (1 in 80)")."""
    f = Fraction(denominator, weight)
    n = number(f.numerator) if f.denominator == 1 else number(float(f), 1)
    if weight == 1:
        return WORDS("rules.one_in", n=n)
    return WORDS("rules.one_in_exact", n=n, weight=number(weight), denominator=number(denominator))


def _shares(table: dict[str, int], unit: str = "") -> str:
    total = sum(table.values())
    return WORDS("list_sep").join(
        f"{number(int(k))}{unit} ({pct(Fraction(v, total))})"
        for k, v in sorted(table.items(), key=lambda kv: int(kv[0]))
    )


def rules_html(ctx: PageContext) -> str:
    """Every rule as implemented: the Rider's fixed chances, the cauldrons, the bonus spins
    and their bound, the ladder and its finals, the jackpot, the win bound; then the shared
    paragraphs and the figures."""
    desc, names = ctx.desc, ctx.names
    h = WORDS.html
    sep = WORDS("list_sep")
    # The round's win bound, from the math report (games.json): the screen does not prove it.
    bound = x_text(ctx.info["max_win_x"]) if "max_win_x" in ctx.info else WORDS("rules.bound_unknown")
    rider = desc["rider"]
    den = int(rider["denominator"])
    weights = rider["weights"]
    sc = desc["scatters"]
    free, bonus = escape(names[sc["free_spins"]["symbol"]]), escape(names[sc["bonus"]["symbol"]])
    wild = escape(names[next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")])
    fs = desc["free_spins"]
    bs = fs["bonus_spins"]
    lad = desc["full_moon_bonus"]
    jp = desc["jackpot"]
    lines = len(desc["paylines"])
    royals = sep.join(escape(names[r]) for r in desc["royals"])
    rungs = [int(v) for v in lad["rungs_x"]]
    shortcuts = _shortcuts_json(desc)
    minimum = {int(k): int(v) for k, v in lad["minimum"].items()}
    mega = sorted(int(k) for k in rider["mega_wild"])
    trigger = number(int(fs["trigger"]))
    rows = [
        ("special_reels", h("rules.rider.special_reels", royals=royals)),
        ("pumpkin_tree", h("rules.rider.pumpkin_tree", shares=escape(_shares(rider["pumpkin_tree"], "×")))),
        ("random_wilds", h("rules.rider.random_wilds", shares=escape(_shares(rider["random_wilds"])), wild=wild)),
        (
            "mega_wild",
            h(
                "rules.rider.mega_wild",
                wild=wild,
                reels=escape(sep.join(WORDS("rules.reels_range", first=number(k), last=number(k + 2)) for k in mega)),
            ),
        ),
        ("free_spins", h("rules.rider.free_spins", shares=escape(_shares(rider["free_spins"])), symbol=free)),
        (
            "full_moon_bonus",
            h("rules.rider.full_moon_bonus", shares=escape(_shares(rider["full_moon_bonus"])), symbol=bonus),
        ),
    ]
    table = "".join(
        f'<tr><th scope="row">{escape(FEATURE_NAMES[key])}</th><td>{escape(_one_in(int(weights[key]), den))}</td>'
        f"<td>{what}</td></tr>"
        for key, what in rows
        if int(weights[key])
    )
    # The prizes a climb can end on, and their odds, from the math report (games.json).
    finals = ctx.info.get("page", {}).get("ladder_finals", {})

    def ends(n: int) -> str:
        odds = sorted((int(x), float(p)) for x, p in finals[str(n)].items() if p)
        return sep.join(
            f"{x_text(x)} ({WORDS('rules.percent', p=number(float(f'{p * 100:.3g}'), 10, trim=True))})" for x, p in odds
        )

    final_lists = "".join(
        "<li>" + h("rules.finals_item", n=number(n), symbol=bonus, ends=escape(ends(n))) + "</li>"
        for n in sorted(minimum)
        if str(n) in finals
    )
    shortcut_text = sep.join(f"{x_text(rungs[a - 1])} → {x_text(rungs[b - 1])}" for a, b in sorted(shortcuts.items()))
    minimum_text = WORDS("list_sep_long").join(
        WORDS("rules.minimum_item", n=number(n), x=x_text(rungs[m - 1])) for n, m in sorted(minimum.items())
    )
    chance = bs["chance"]
    most = int(max(int(k) for k in fs["cauldron"])) + int(bs["max_awards"]) * max(int(k) for k in bs["cauldron"])
    share = Fraction(str(jp["contribution"])) * 100
    minute = int(jp["deadline_minute"])
    deadline = f"{minute // 60:02d}:{minute % 60:02d} UTC"
    ladder = (
        h(
            "rules.ladder",
            trigger=number(int(lad["trigger"])),
            symbol=bonus,
            n=number(len(rungs)),
            rungs=escape(sep.join(x_text(v) for v in rungs)),
            steps=number(int(lad["steps"])),
            shortcuts=escape(shortcut_text),
            top=x_text(rungs[-1]),
            minimum=escape(minimum_text),
        )
    )
    if final_lists:
        ladder = h("rules.then", first=ladder, then=h("rules.finals")) + f"</p><ul>{final_lists}</ul><p>"
        ladder += h("rules.ladder_fair")
    else:
        ladder = h("rules.then", first=ladder, then=h("rules.ladder_fair"))
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        "<p>" + h("rules.reels", rows=number(int(desc["rows"])), lines=number(lines)) + "</p>",
        f"<h4>{wild}</h4><p>" + h("rules.wild", wild=wild, free=free, bonus=bonus) + "</p>",
        f"<h4>{h('rules.rider_heading')}</h4><p>"
        + h("rules.rider_intro", fixed=f"<b>{h('rules.rider_fixed')}:</b>")
        + "</p>"
        f'<table class="rider"><thead><tr><th scope="col">{h("rules.col_feature")}</th>'
        f'<th scope="col">{h("rules.col_chance")}</th>'
        f'<th scope="col">{h("rules.col_what")}</th></tr></thead><tbody>{table}</tbody></table>'
        "<p>" + h("rules.rider_after") + "</p>",
        f"<h4>{h('rules.free_heading')}</h4><p>"
        + h(
            "rules.free",
            trigger=trigger,
            symbol=free,
            cauldron=escape(_shares(fs["cauldron"])),
            extra=number(int(fs["per_extra_scatter"])),
            chance=escape(_one_in(int(chance["numerator"]), int(chance["denominator"]))),
            bonus_cauldron=escape(_shares(bs["cauldron"])),
            bound=f"<b>{h('rules.bound_label')}</b>",
            awards=number(int(bs["max_awards"])),
            most=number(most),
        )
        + "</p>",
        f"<h4>{h('rules.ladder_heading')}</h4><p>" + ladder + "</p>",
        f"<h4>{h('rules.jackpot_heading')}</h4><p>"
        + h(
            "rules.jackpot",
            share=escape(number(float(share), 6, trim=True)),
            start=escape(ctx.fmt(0)),
            deadline=deadline,
            minutes=number(int(jp["min_minutes"])),
            per_second=escape(ctx.fmt(int(jp["odds_per_second"]))),
        )
        + "</p>",
        f"<h4>{h('rules.max_heading')}</h4><p>"
        + h("rules.max", top=x_text(rungs[-1]), bound=f"<b>{escape(bound)}</b>")
        + "</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop=WORDS("rules.autoplay_stop"),
            recovery=WORDS("rules.recovery"),
            start=WORDS("rules.start"),
            rtp_note=WORDS("rules.rtp_note"),
        ),
    ]
    return "".join(parts)


def history_board(record: Any, fmt: pages.Fmt, assets: str, names: Mapping[str, str]) -> str:
    """What the round's features did, for the history: the base game's win, each Rider
    feature and what it placed or multiplied, the cauldron picked and what the others held,
    the free spins and their win, the ladder's rung and its win."""
    events = list(record.events)
    notes: list[str] = []
    feature_at = next(
        (i for i, e in enumerate(events) if isinstance(e, ev.FreeSpinStart | LadderStart)), len(events)
    )
    base = sum(e.win for e in events[:feature_at] if isinstance(e, ev.LineWin | ev.ScatterWin))
    if feature_at < len(events):
        notes.append(WORDS("history.base", win=fmt(base)))
    for i, e in enumerate(events):
        if isinstance(e, RiderAppears):
            what = FEATURE_NAMES.get(e.feature, e.feature)
            after = events[i + 1 : i + 4]
            placed = next((x for x in after if isinstance(x, RiderSymbols)), None)
            tree = next((x for x in after if isinstance(x, ev.WinMultiplier)), None)
            if tree is not None:
                what += f" ×{number(int(tree.multiplier))}"
            elif placed is not None:
                what = WORDS(
                    "history.placed", feature=what, n=number(len(placed.positions)),
                    name=names.get(placed.symbol, placed.symbol),
                )
            notes.append(WORDS("history.rider", what=what))
        elif isinstance(e, ev.PickEnd) and e.name != PUMPKINS:
            chosen = [x.prize for x in events[:i] if isinstance(x, ev.PickReveal) and x.name == e.name][-1:]
            if chosen:
                others = WORDS("list_sep").join(e.prizes)
                notes.append(WORDS("history.cauldron", spins=chosen[0], others=others))
        elif isinstance(e, ev.FreeSpinsEnd):
            notes.append(WORDS("history.free_spins", spins=number(e.spins), win=fmt(e.win)))
        elif isinstance(e, LadderWin):
            notes.append(
                WORDS("history.ladder", rung=number(e.rung), x=x_text(e.multiplier), win=fmt(e.win))
            )
    if not notes:
        return ""
    return "".join(f'<p class="h-feature">{escape(n)}</p>' for n in notes)


