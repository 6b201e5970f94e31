"""The paytable, rules and history screens, generated from the game's data as HTML.

Everything here is escaped text built from `Game.describe()`, the session's history and
the par-sheet figures; the page drops the result into its dialogs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from html import escape
from typing import Any

from pyengine.events import Spin
from pyengine.session import RoundRecord

__all__ = ["buy_html", "history_html", "paytable_html", "rules_html"]

Fmt = Callable[[int], str]
FEATURE_NAMES = {"free_spins": "free spins", "hold_and_respin": "Hold and Respin"}


def _x(value: object) -> str:
    """A stake multiplier as text: "0.5×", "5,000×"."""
    f = Fraction(str(value))
    if f.denominator == 1:
        return f"{f.numerator:,}×"
    return f"{float(f):,.2f}".rstrip("0").rstrip(".") + "×"


def _times(value: object, stake: int) -> int:
    f = Fraction(str(value)) * stake
    return f.numerator // f.denominator


def _pct(value: object) -> str:
    return f"{float(Fraction(str(value))) * 100:.2f}%"


def _img(assets: str, sym: str, name: str, size: int = 56) -> str:
    return (
        f'<img class="sym" src="{escape(assets)}/symbols/{escape(sym)}.svg" alt="{escape(name)}" '
        f'width="{size}" height="{size}">'
    )


def _line_grid(rows: list[int], n_rows: int, number: int) -> str:
    cells = []
    for r in range(n_rows):
        for row in rows:
            cells.append(f'<i class="{"on" if row == r else ""}"></i>')
    return (
        f'<figure class="payline"><div class="grid cols-{len(rows)}">{"".join(cells)}</div>'
        f"<figcaption>Line {number}</figcaption></figure>"
    )


def _symbol_pays(desc: Mapping[str, Any], bet_per_line: int, fmt: Fmt, assets: str) -> str:
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    out = ['<div class="pays">']
    for sid, pays in desc["paytable"].items():
        rows = "".join(
            f"<li><b>{k}×</b> {fmt(v * bet_per_line)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
            if v
        )
        out.append(f'<div class="pay">{_img(assets, sid, names[sid])}<ul>{rows}</ul></div>')
    out.append("</div>")
    return "".join(out)


def _lines(desc: Mapping[str, Any]) -> str:
    out = ['<h3>Win lines</h3><div class="paylines">']
    for i, rows_of in enumerate(desc["paylines"], start=1):
        out.append(_line_grid(rows_of, desc["rows"], i))
    out.append("</div>")
    return "".join(out)


def _ladder_table(desc: Mapping[str, Any], stake: int, fmt: Fmt) -> str:
    rows = "".join(
        f'<tr><th scope="row">{int(k)} Moons</th><td>{_x(x)}</td><td>{fmt(x * stake)}</td></tr>'
        for k, x in sorted(desc["hold_and_respin"]["ladder"].items(), key=lambda kv: int(kv[0]))
    )
    return (
        '<table class="ladder"><thead><tr><th scope="col">Moons at the end</th><th scope="col">Prize</th>'
        f'<th scope="col">At this bet</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _moon_prizes(desc: Mapping[str, Any], stake: int, fmt: Fmt) -> str:
    items = "".join(f"<li><b>{_x(x)}</b> {fmt(_times(x, stake))}</li>" for x in desc["moon"]["prizes_x"])
    return f'<ul class="prizes">{items}</ul>'


def _moon_paytable(desc: Mapping[str, Any], bet_per_line: int, lines: int, fmt: Fmt, assets: str) -> str:
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    stake = bet_per_line * lines
    wild = next(s["id"] for s in desc["symbols"] if s["kind"] == "wild")
    moon = desc["moon"]["symbol"]
    hr = desc["hold_and_respin"]
    counts = " or ".join(str(n) for n in desc["moon"]["cash_counts"])
    top = names.get(desc.get("wild_pays_as", ""), "")
    return "".join(
        [
            f'<p class="note">Pays at {fmt(bet_per_line)} per line on {lines} fixed lines: a total bet of '
            f"{fmt(stake)}. Line wins pay left to right on consecutive reels from the leftmost; only the "
            "highest win per line is paid, and wins on different lines add up.</p>",
            f'<div class="pay special">{_img(assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>Substitutes for all paying symbols except the {escape(names[moon])} and counts as the symbol "
            f"that forms the highest win on a line. A line of {escape(names[wild])}s alone pays as the "
            f"{escape(top)}.</p></div></div>",
            f'<div class="pay special">{_img(assets, moon, names[moon], 80)}<div><h3>{escape(names[moon])}</h3>'
            f"<p>Every {escape(names[moon])} carries a cash prize, a multiple of the total bet, shown on it. "
            f"{counts} {escape(names[moon])}s anywhere pay their combined prize; {hr['trigger']} or more start "
            f"Hold and Respin.</p>{_moon_prizes(desc, stake, fmt)}</div></div>",
            _symbol_pays(desc, bet_per_line, fmt, assets),
            f"<h3>Prize ladder</h3><p>Ending Hold and Respin with 10 or more {escape(names[moon])}s also pays "
            "the ladder prize for the count:</p>",
            _ladder_table(desc, stake, fmt),
            _lines(desc),
        ]
    )


def paytable_html(desc: Mapping[str, Any], bet_per_line: int, lines: int, fmt: Fmt, assets: str) -> str:
    """Every symbol with what it pays at the current bet, the special symbols, and the line shapes."""
    if "moon" in desc:
        return _moon_paytable(desc, bet_per_line, lines, fmt, assets)
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    kinds = {s["id"]: s["kind"] for s in desc["symbols"]}
    out = [
        f'<p class="note">Pays at {fmt(bet_per_line)} per line on {lines} lines. Wins pay left to right '
        "on consecutive reels from the leftmost; only the highest win per line is paid.</p>"
    ]
    wild = next((sid for sid, k in kinds.items() if k in ("wild", "wild_scatter")), None)
    if wild is not None:
        scatter = ", ".join(
            f"{k}× {fmt(v * bet_per_line * lines)}" for k, v in sorted(desc["scatter_pays"].items()) if v
        )
        top = desc.get("wild_pays_as")
        out.append(
            f'<div class="pay special">{_img(assets, wild, names[wild], 80)}<div><h3>{escape(names[wild])}</h3>'
            f"<p>Wild: substitutes for every symbol. A line of Books alone pays as the "
            f"{escape(names.get(top, str(top)))}.</p><p>Scatter anywhere: {escape(scatter)} "
            "(× total bet) and 3 or more award 10 free spins.</p></div></div>"
        )
    out.append(_symbol_pays(desc, bet_per_line, fmt, assets))
    out.append(_lines(desc))
    return "".join(out)


def rules_html(
    desc: Mapping[str, Any],
    info: Mapping[str, Any],
    fmt: Fmt,
    settings: Mapping[str, int] | None = None,
    *,
    stake: int | None = None,
) -> str:
    """The rules as implemented (with the session's operator settings), RTP, max win and version.

    ``stake`` (the current total bet) shows the amounts that depend on it (Feature Buy price).
    """
    if "moon" in desc:
        default = desc["bets"]["default"]
        return _moon_rules(desc, info, fmt, stake or default["lines"] * default["bet_per_line"])
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    settings = settings if settings is not None else desc["settings"]
    fs = desc["free_spins"]
    rtp = info.get("rtp")
    max_win = info.get("max_win_x")
    lines_max = max(desc["bets"]["lines"])
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>5 reels, {desc['rows']} rows, 1 to {lines_max} selectable win lines. Choose the bet per line "
        f"and the number of lines; the total bet is lines × bet per line. Pressing + past {lines_max} lines "
        "starts again at 1. Bet Max sets the most lines and the highest bet; pressing it again spins.</p>",
        "<h4>The Book</h4><p>The Book of Spells is wild for every other symbol. A line made only of Books pays "
        f"as the {escape(names.get(desc.get('wild_pays_as', ''), ''))}. 3, 4 or 5 Books anywhere pay a scatter "
        f"prize × the total bet and award {fs['award']} free spins.</p>",
        "<h4>Free spins</h4><p>When free spins start the Book picks one symbol at random as the special "
        "expanding symbol for the whole feature. It first pays as a regular symbol on the active lines; then, "
        "if enough of it are on the reels for a win, it expands to cover its reels and pays on every active "
        "line, even on non-adjacent reels. During free spins the Book does not substitute for the expanding "
        f"symbol. 3 or more Books during free spins add {fs['award']} more. Free spins use the lines and bet "
        "of the spin that triggered them.</p>",
        f"<p>Free-spin win limit: when the free-spin wins become higher than {settings['free_spin_cap_x']}× "
        "the total bet, the limit is paid and the feature ends.</p>",
        "<h4>Gamble</h4><p>After a win you may collect or gamble: guess whether the next card from a face-down "
        "deck is red or black. Right doubles the win, wrong loses it. Gamble is not offered when the win is "
        f"above {settings['gamble_limit_x']}× the total bet, ends when the win passes that limit, is not "
        "offered in autoplay and not after free spins that reached their limit.</p>",
        "<h4>Spin and Turbo</h4><p>Press Spin or the spacebar to spin; press again, or click the reels, to stop "
        "them sooner. Hold the spacebar or the Spin button for TURBO SPIN: rounds follow each other at turbo "
        "pace until you let go. The Turbo button makes every spin faster.</p>",
        "<h4>Autoplay</h4><p>Autoplay spins at the current bet and collects wins. It stops after the number "
        "of rounds, before a round that would pass the loss limit, after a win above the single-win "
        "limit, when free spins are won (if chosen), or when you press Stop.</p>",
        "<h4>Recovery</h4><p>The game is saved in this browser after every step. If you leave while Collect "
        "is offered, the win is credited when you come back. If you reload or close the page during free "
        "spins or the gamble, you continue exactly where you left off; the chosen expanding symbol is shown "
        "above the reels. A round left waiting for more than 90 days is collected automatically.</p>",
        "<h4>Keyboard</h4><p>Spin/stop: Space, Enter, S, 0. Bet: Numpad + and −. Bet Max: B. Lines: ← → or 1 2. "
        "Collect: Space, Enter, 7. Gamble: 5, then 5 red, 6 black. Paytable: P, 8. Help: H, 9. Autoplay: A.</p>",
        "<h4>Figures</h4><ul>",
    ]
    if rtp is not None:
        parts.append(f"<li>Return to player: {float(rtp) * 100:.2f}%</li>")
    if max_win is not None:
        parts.append(f"<li>Maximum win: {float(max_win):,.0f}× the total bet</li>")
    parts.append(f"<li>Game version {escape(str(desc['version']))}</li></ul>")
    parts.append('<p class="note">Free play with demo money. Malfunction voids all pays and play.</p>')
    return "".join(parts)


def _figures(desc: Mapping[str, Any], info: Mapping[str, Any]) -> list[str]:
    rtp = info.get("rtp")
    buy_rtp = (info.get("mode_rtp") or {}).get("buy")
    if buy_rtp is None and "feature_buy" in desc:
        buy_rtp = desc["feature_buy"]["target_rtp"]
    max_win = info.get("max_win_x", desc.get("max_win_x"))
    out = ["<h4>Figures</h4><ul>"]
    if rtp is not None:
        out.append(
            f'<li>Return to player: <b class="fig-rtp">{_pct(rtp)}</b> '
            "(the base game, the jackpot contribution included)</li>"
        )
    if buy_rtp is not None:
        out.append(f'<li>Return to player in Feature Buy: <b class="fig-rtp-buy">{_pct(buy_rtp)}</b></li>')
    if max_win is not None:
        out.append(f'<li>Maximum win: <b class="fig-max">{float(max_win):,.0f}×</b> the total bet</li>')
    out.append(f"<li>Game version {escape(str(desc['version']))}</li></ul>")
    return out


def _moon_rules(desc: Mapping[str, Any], info: Mapping[str, Any], fmt: Fmt, stake: int) -> str:
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    moon = escape(names[desc["moon"]["symbol"]])
    wild = escape(next(s["name"] for s in desc["symbols"] if s["kind"] == "wild"))
    hr = desc["hold_and_respin"]
    buy = desc["feature_buy"]
    jp = desc["jackpot"]
    bets = desc["bets"]
    lines = bets["lines"][0] if len(bets["lines"]) == 1 else max(bets["lines"])
    prizes = ", ".join(_x(x) for x in desc["moon"]["prizes_x"])
    counts = " or ".join(str(n) for n in desc["moon"]["cash_counts"])
    ladder = "; ".join(f"{int(k)} {moon}s: {_x(x)}" for k, x in sorted(hr["ladder"].items(), key=lambda kv: int(kv[0])))
    share = Fraction(str(jp["contribution"])) * 100
    minute = int(jp["deadline_minute"])
    deadline = f"{minute // 60:02d}:{minute % 60:02d} UTC"
    max_win = int(info.get("max_win_x", desc["max_win_x"]))
    price = buy["price_x"] * stake
    parts = [
        f"<h3>{escape(desc['name'])}</h3>",
        f"<p>5 reels, {desc['rows']} rows and {lines} fixed win lines. The total bet is {lines} × the bet per line; "
        "change it with + and − between rounds (Bet Max sets the highest bet, and pressing it again spins). "
        "The bet cannot be changed during the bonus.</p>",
        f"<h4>{wild}</h4><p>The {wild} substitutes for all paying symbols except the {moon} scatter and counts "
        "as the symbol that forms the highest winning combination on a single win line.</p>",
        f"<h4>{moon} prizes</h4><p>Each {moon} scatter holds a random cash prize, shown on it: {prizes} the "
        f"total bet. {counts} {moon}s anywhere on the reels award their combined cash prize, paid on top of "
        "line wins.</p>",
        f"<h4>Hold and Respin</h4><p>{hr['trigger']} or more {moon}s anywhere trigger Hold and Respin with "
        f"{hr['respins']} respins. The {moon}s are held in place; the other positions are emptied and spin on "
        f"every respin. Each new {moon} that lands is held too and resets the respins to {hr['respins']}. The "
        f"bonus ends when no {moon} lands in {hr['respins']} respins in a row, or when all "
        f"{hr['positions']} positions hold a {moon}. Then the combined prize of all {moon}s is paid.</p>",
        f"<h4>Prize ladder</h4><p>The ladder above the reels shows {len(hr['ladder'])} bonus prizes. Ending "
        f"the bonus with 10 or more {moon}s also pays the prize for that count, as a multiple of the total bet: "
        f"{ladder}.</p>",
        f"<h4>Feature Buy</h4><p>The Buy Bonus button buys Hold and Respin for {buy['price_x']}× the total bet: "
        f"<b>{fmt(price)}</b> at the current bet of {fmt(stake)}. The feature starts at once after you confirm, "
        f"with {_count_range(buy, hr['trigger'])} {moon}s already held. "
        "Buying does not contribute to the time jackpot. "
        "If you reload the page during a bought feature, you see its end result. "
        f"The return to player in Feature Buy is {_pct(buy['target_rtp'])}.</p>",
        f"<h4>Time jackpot</h4><p>A progressive pot fed by {float(share):g}% of the stake of every spin "
        "(feature buys do not contribute), guaranteed to drop before its deadline: the first "
        f"{deadline} at least {jp['min_minutes']} minutes after the pot started. Every spin can win it, with "
        f"the chance stake ÷ (stake + {fmt(int(jp['odds_per_second']))} × the seconds left): the higher the "
        "stake and the nearer the deadline, the better the odds, up to certain once the deadline is reached. "
        "The jackpot panel shows the pot and the time left. The jackpot is paid on top of the round's win "
        "(no multiplier applies, and the max win does not limit it); then a new pot starts with a new deadline. "
        "In this free-play demo the jackpot belongs to your session alone.</p>",
        f"<h4>Max win</h4><p>The win of a round is limited to {max_win:,}× the total bet (a jackpot comes on "
        "top). When the limit is reached, the limit is paid.</p>",
        "<h4>Spin and Turbo</h4><p>Press Spin or the spacebar to spin; press again, or click the reels, to stop "
        "them sooner. Hold the spacebar or the Spin button for TURBO SPIN: rounds follow each other at turbo "
        "pace until you let go. The Turbo button makes every spin faster.</p>",
        "<h4>Autoplay</h4><p>Autoplay spins at the current bet. It stops after the number of rounds, before "
        "a round that would pass the loss limit, after a win above the single-win limit, when Hold and "
        "Respin is won (if chosen; otherwise it plays the bonus), or when you press Stop. Autoplay never buys "
        "the feature.</p>",
        "<h4>Recovery</h4><p>The game is saved in this browser after every step. If you reload while Hold and "
        "Respin waits for Start, it waits again. The bonus is decided when it starts, so a reload during its "
        "respins shows its end result. A round left waiting for more than 90 days is played to its end.</p>",
        "<h4>Keyboard</h4><p>Spin/stop: Space, Enter, S, 0 (again to stop the reels at once). Start the bonus: "
        "Space, Enter. Bet: Numpad + and −. Bet Max: B. Paytable: P, 8. Help: H, 9. Autoplay: A.</p>",
    ]
    parts += _figures(desc, info)
    parts.append('<p class="note">Free play with demo money. Malfunction voids all pays and play.</p>')
    return "".join(parts)


def _count_range(buy: Mapping[str, Any], trigger: int) -> str:
    """The Moons a bought feature starts with, e.g. "6 to 10" (or "5 or more" if unknown)."""
    counts = sorted(int(k) for k in buy.get("moons", {}))
    if not counts:
        return f"{trigger} or more"
    return str(counts[0]) if counts[0] == counts[-1] else f"{counts[0]} to {counts[-1]}"


def buy_html(
    desc: Mapping[str, Any], price: int, stake: int, balance: int, fmt: Fmt, assets: str, rtp: object = None
) -> str:
    """The Feature Buy offer: what it buys, the price at the current bet, the balance."""
    names = {s["id"]: s["name"] for s in desc["symbols"]}
    moon = desc["moon"]["symbol"]
    hr = desc["hold_and_respin"]
    buy = desc["feature_buy"]
    top = max(hr["ladder"].values())
    short = (
        f'<p class="buy-short">Your balance of {fmt(balance)} is not enough: lower the bet to buy the feature.</p>'
        if price > balance
        else ""
    )
    return (
        f'<div class="buy-offer">{_img(assets, moon, names[moon], 88)}<div>'
        f'<p class="buy-lead">Start <b>Hold and Respin</b> now, with {_count_range(buy, hr["trigger"])} '
        f"{escape(names[moon])}s held.</p>"
        f'<p class="buy-price"><span>Price</span> <strong id="buy-price">{fmt(price)}</strong> '
        f"<small>{buy['price_x']}× your total bet of {fmt(stake)}</small></p></div></div>"
        f'<ul class="buy-facts"><li>{hr["respins"]} respins; every new {escape(names[moon])} resets them</li>'
        f"<li>10 or more {escape(names[moon])}s win the prize ladder, up to {_x(top)}</li>"
        f"<li>Return to player in Feature Buy: {_pct(rtp if rtp is not None else buy['target_rtp'])}</li>"
        "<li>Does not contribute to the time jackpot</li></ul>"
        f'<p id="buy-summary" class="note">Balance {fmt(balance)}. The feature plays at once after you '
        "confirm; a reload during it shows its end result.</p>"
        f"{short}"
    )


def history_html(records: tuple[RoundRecord, ...], fmt: Fmt, assets: str, names: Mapping[str, str]) -> str:
    """The last rounds, newest first: time, bet, win and the final reels."""
    if not records:
        return '<p class="note">No rounds played yet.</p>'
    out = ['<ol class="history">']
    for r in reversed(records):
        spins = [e for e in r.events if isinstance(e, Spin)]
        reels = ""
        if spins:
            window = spins[-1].window
            rows = len(window[0])
            cells = "".join(
                _img(assets, window[reel][row], names.get(window[reel][row], window[reel][row]), 28)
                for row in range(rows)
                for reel in range(len(window))
            )
            reels = f'<div class="mini cols-{len(window)}">{cells}</div>'
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(r.time_ms / 1000)) + " UTC"
        extra = "".join(f" · {FEATURE_NAMES.get(f, f)}" for f in r.features)
        if r.jackpot:
            extra += f" · jackpot {fmt(r.jackpot)}"
        stake = f"Feature Buy {fmt(r.stake)}" if r.mode == "buy" else f"Bet {fmt(r.stake)}"
        out.append(
            f'<li><div class="h-meta"><time>{when}</time><span>{stake}</span>'
            f'<span class="{"won" if r.win else ""}">Win {fmt(r.win)}{escape(extra)}</span></div>{reels}</li>'
        )
    out.append("</ol>")
    return "".join(out)
