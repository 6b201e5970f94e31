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

from .look import FEATURE_NAMES, PUMPKINS
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
        '<table class="ladder"><thead><tr><th scope="col">Rung</th><th scope="col">Prize (green: shortcut)</th>'
        f'<th scope="col">At this bet</th></tr></thead><tbody>{"".join(reversed(cells))}</tbody></table>'
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
            f"<li><b>{k}×</b> {x_text(v)} {fmt(v * stake)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
        )

    fs = desc["free_spins"]
    lad = desc["full_moon_bonus"]
    counts = ", ".join(sorted(fs["cauldron"], key=int))
    return "".join(
        [
            f'<p class="note">The values are multipliers of the total bet, not credits: a line prize is the total '
            f"bet of {fmt(stake)} ({lines} fixed lines at {fmt(bet_per_line)}) times the symbol's multiplier, shown "
            "with its amount at this bet. Line wins pay left to right on consecutive reels from the leftmost; only "
            "the highest prize per line is paid, and prizes on different lines add up. Scatter prizes add to the "
            "line prizes; only the highest combination per scatter symbol is paid.</p>",
            f'<div class="pay special">{img(ctx.assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>Substitutes for every symbol except the {escape(names[free])} and {escape(names[bonus])} "
            f"scatters. A line of {escape(names[wild])}s alone pays as the {escape(top)}.</p></div></div>",
            f'<div class="pay special">{img(ctx.assets, free, names[free], 80)}<div><h3>{escape(names[free])}</h3>'
            f"<p>Scatter: pays anywhere, × the total bet. {fs['trigger']} or more start free spins: choose 1 of 3 "
            f"cauldrons for {counts} free spins, +{fs['per_extra_scatter']} for each symbol past the "
            f'{fs["trigger"]}rd.</p><ul class="prizes">{scatter_pays(sc["free_spins"]["pays_x"])}</ul></div></div>',
            f'<div class="pay special">{img(ctx.assets, bonus, names[bonus], 80)}<div><h3>{escape(names[bonus])}</h3>'
            f"<p>Scatter: pays anywhere, × the total bet. {lad['trigger']} or more start the Full Moon Bonus "
            f'ladder, up to {x_text(lad["rungs_x"][-1])}.</p><ul class="prizes">'
            f"{scatter_pays(sc['bonus']['pays_x'])}</ul></div></div>",
            pages.symbol_pays(desc, bet_per_line, fmt, ctx.assets, stake_lines=lines),
            "<h3>Full Moon ladder</h3><p>The rungs pay their multiplier × the total bet; a rung joined by a green "
            "path jumps to the far end.</p>",
            _ladder_table(desc, stake, fmt),
            pages.line_shapes(desc),
        ]
    )


def _one_in(weight: int, denominator: int) -> str:
    """A chance as "1 in N" (to one decimal where it is not whole), and its exact fraction
    where that says more (not "1 in 80 (1 in 80)")."""
    f = Fraction(denominator, weight)
    n = f"{f.numerator:,}" if f.denominator == 1 else f"{float(f):,.1f}"
    return f"1 in {n}" if weight == 1 else f"1 in {n} ({weight:,} in {denominator:,})"


def _shares(table: dict[str, int], unit: str = "") -> str:
    total = sum(table.values())
    return ", ".join(
        f"{k}{unit} ({pct(Fraction(v, total))})" for k, v in sorted(table.items(), key=lambda kv: int(kv[0]))
    )


def rules_html(ctx: PageContext) -> str:
    """Every rule as implemented: the Rider's fixed chances, the cauldrons, the bonus spins
    and their bound, the ladder and its finals, the jackpot, the win bound; then the shared
    paragraphs and the figures."""
    desc, names = ctx.desc, ctx.names
    # The round's win bound, from the math report (games.json): the screen does not prove it.
    bound = x_text(ctx.info["max_win_x"]) if "max_win_x" in ctx.info else "a finite multiple of"
    rider = desc["rider"]
    den = int(rider["denominator"])
    weights = rider["weights"]
    sc = desc["scatters"]
    free, bonus = escape(names[sc["free_spins"]["symbol"]]), escape(names[sc["bonus"]["symbol"]])
    wild = escape(next(s["name"] for s in desc["symbols"] if s["kind"] == "wild"))
    fs = desc["free_spins"]
    bs = fs["bonus_spins"]
    lad = desc["full_moon_bonus"]
    jp = desc["jackpot"]
    lines = len(desc["paylines"])
    royals = ", ".join(escape(names[r]) for r in desc["royals"])
    rungs = [int(v) for v in lad["rungs_x"]]
    shortcuts = _shortcuts_json(desc)
    minimum = {int(k): int(v) for k, v in lad["minimum"].items()}
    mega = sorted(int(k) for k in rider["mega_wild"])
    rows = [
        ("Special Reels", "special_reels", f"the spin uses the Special Reels, without the royals ({royals})"),
        (
            "Pumpkin Tree",
            "pumpkin_tree",
            "a prize multiplier on every prize of the spin: " + _shares(rider["pumpkin_tree"], "×"),
        ),
        ("Random Wilds", "random_wilds", f"{_shares(rider['random_wilds'])} {wild}s on random positions"),
        (
            "Mega Wild",
            "mega_wild",
            f"a 3×3 {wild} on reels " + ", ".join(f"{k} to {k + 2}" for k in mega) + " (equally likely)",
        ),
        ("Free Spins", "free_spins", f"{_shares(rider['free_spins'])} {free} symbols dropped on different reels"),
        (
            "Full Moon Bonus",
            "full_moon_bonus",
            f"{_shares(rider['full_moon_bonus'])} {bonus} symbols dropped on different reels",
        ),
    ]
    table = "".join(
        f'<tr><th scope="row">{name}</th><td>{_one_in(int(weights[key]), den)}</td><td>{what}</td></tr>'
        for name, key, what in rows
        if int(weights[key])
    )
    # The prizes a climb can end on, and their odds, from the math report (games.json).
    finals = ctx.info.get("page", {}).get("ladder_finals", {})

    def ends(n: int) -> str:
        odds = sorted((int(x), float(p)) for x, p in finals[str(n)].items() if p)
        return ", ".join(f"{x_text(x)} ({p * 100:.3g}%)" for x, p in odds)

    final_lists = "".join(f"<li>{n} {bonus} symbols: {ends(n)}</li>" for n in sorted(minimum) if str(n) in finals)
    shortcut_text = ", ".join(f"{x_text(rungs[a - 1])} → {x_text(rungs[b - 1])}" for a, b in sorted(shortcuts.items()))
    minimum_text = "; ".join(f"{n} symbols: {x_text(rungs[m - 1])}" for n, m in sorted(minimum.items()))
    chance = bs["chance"]
    most = int(max(int(k) for k in fs["cauldron"])) + int(bs["max_awards"]) * max(int(k) for k in bs["cauldron"])
    share = Fraction(str(jp["contribution"])) * 100
    minute = int(jp["deadline_minute"])
    deadline = f"{minute // 60:02d}:{minute % 60:02d} UTC"
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>5 reels, {desc['rows']} rows and {lines} fixed win lines. The total bet is {lines} × the bet per line; "
        "change it with + and − between rounds. The bet cannot change during free spins or the Full Moon "
        "Bonus. A line prize is the total bet × the symbol's multiplier in the paytable (the paytable shows "
        "multipliers, not credits); only the highest prize per line is paid.</p>",
        f"<h4>{wild}</h4><p>The {wild} substitutes for every symbol except the {free} and {bonus} scatters and "
        "counts as the symbol that forms the highest win on its line.</p>",
        "<h4>The Pumpkin Rider</h4><p>On any paid spin the Pumpkin Rider may appear and bring one feature. "
        "<b>His chances are fixed</b>: they never depend on past play, the balance, the bet or the time, and are "
        "never adapted. Per paid spin:</p>"
        '<table class="rider"><thead><tr><th scope="col">Feature</th><th scope="col">Chance</th>'
        f'<th scope="col">What it does</th></tr></thead><tbody>{table}</tbody></table>'
        "<p>The Rider's symbols replace what the reels showed; the spin pays on the result and its scatters "
        "count. The Pumpkin Tree's multiplier applies to the spin's line and scatter prizes, not to a feature "
        "the spin starts.</p>",
        f"<h4>Free spins</h4><p>{fs['trigger']} or more {free} symbols anywhere start free spins. Choose 1 of 3 "
        f"cauldrons: each holds {_shares(fs['cauldron'])} free spins, filled before you choose; the other two "
        f"are shown after. Each {free} symbol past the {fs['trigger']}rd adds {fs['per_extra_scatter']} spins. "
        "Free spins use their own reels, at the bet of the spin that started them. On each free spin the Rider "
        f"may appear (chance {_one_in(int(chance['numerator']), int(chance['denominator']))}, fixed) and drop "
        f"{fs['trigger']} {free} symbols: they pay their scatter prize and award bonus spins, again from a pick of "
        f"1 of 3 cauldrons of {_shares(bs['cauldron'])} spins. <b>Bound:</b> the Rider awards bonus spins at most "
        f"{bs['max_awards']} times in one free-spins feature, so bonus spins never chain without end (with 3 "
        f"symbols a feature has at most {most} spins).</p>",
        f"<h4>Full Moon Bonus</h4><p>{lad['trigger']} or more {bonus} symbols anywhere start the Full Moon Bonus "
        f"(before the free spins, when a spin starts both). The ladder has {len(rungs)} rungs: "
        + ", ".join(x_text(v) for v in rungs)
        + " the total bet. You start at its foot. For every step pick 1 of 6 pumpkins: they hold 1 to "
        f"{lad['steps']} rungs, one of each, and some show COLLECT; a new set is placed for every step, and the "
        "other pumpkins are shown after your pick. Green shortcuts: landing on "
        f"{shortcut_text} jumps to the far end. When your pumpkin shows COLLECT you climb its rungs and collect "
        f"the rung you land on; the top rung ({x_text(rungs[-1])}) always collects. COLLECT never shows on a "
        f"pumpkin that would end below the guaranteed minimum: {minimum_text} (5 or more count as 5)."
        + (f" So the prizes you can win are (with their odds):</p><ul>{final_lists}</ul><p>" if final_lists else " ")
        + "The pumpkins are filled before you pick: your "
        "choice does not change the expected prize.</p>",
        f"<h4>Time jackpot</h4><p>A progressive pot fed by {float(share):g}% of every stake, starting at "
        f"{ctx.fmt(0)} and guaranteed to drop before its deadline: the first {deadline} at least "
        f"{jp['min_minutes']} minutes after the pot started. Every paid spin can win it, with the chance stake ÷ "
        f"(stake + {ctx.fmt(int(jp['odds_per_second']))} × the seconds left): the higher the stake and the nearer "
        "the deadline, the better the odds, up to certain once the deadline is reached. The jackpot panel shows "
        "the pot and the time left. A jackpot goes to the balance at once, even in the middle of a feature; then "
        "a new pot starts with a new deadline. In this free-play demo the jackpot belongs to your session "
        "alone.</p>",
        f"<h4>Max win</h4><p>There is no win cap. The highest award is the top rung, {x_text(rungs[-1])} the "
        f"total bet. Because bonus spins are bounded, every round's win is finite: at most "
        f"<b>{bound}</b> the total bet (a proven bound, every line at its top prize on every "
        "spin, not an award). A jackpot comes on top.</p>",
        pages.shared_rules(
            ctx,
            autoplay_stop="when free spins or the Full Moon Bonus are won (if chosen; otherwise it plays them, "
            "picking for you)",
            recovery="A round interrupted in a cauldron pick, in free spins or on the Full Moon ladder continues "
            "where it was after a reload: the same cauldrons or pumpkins, the marker on its rung, the free-spin "
            "counter. A feature waiting for Start waits again. A round whose result was decided shows it on "
            "reload and is listed in the history.",
            start="the feature",
            rtp_note="the base game, the jackpot contribution included",
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
        notes.append(f"Base game win {fmt(base)}")
    for i, e in enumerate(events):
        if isinstance(e, RiderAppears):
            what = FEATURE_NAMES.get(e.feature, e.feature)
            after = events[i + 1 : i + 4]
            placed = next((x for x in after if isinstance(x, RiderSymbols)), None)
            tree = next((x for x in after if isinstance(x, ev.WinMultiplier)), None)
            if tree is not None:
                what += f" ×{tree.multiplier}"
            elif placed is not None:
                what += f": {len(placed.positions)} × {names.get(placed.symbol, placed.symbol)} placed"
            notes.append(f"Pumpkin Rider: {what}")
        elif isinstance(e, ev.PickEnd) and e.name != PUMPKINS:
            chosen = [x.prize for x in events[:i] if isinstance(x, ev.PickReveal) and x.name == e.name][-1:]
            if chosen:
                others = ", ".join(e.prizes)
                notes.append(f"Cauldron: {chosen[0]} spins (the others held {others})")
        elif isinstance(e, ev.FreeSpinsEnd):
            notes.append(f"{e.spins} free spins, win {fmt(e.win)}")
        elif isinstance(e, LadderWin):
            notes.append(f"Full Moon Bonus: rung {e.rung}, {e.multiplier}× the total bet, win {fmt(e.win)}")
    if not notes:
        return ""
    return "".join(f'<p class="h-feature">{escape(n)}</p>' for n in notes)


