"""The paytable, rules and history screens, generated from the game's data as HTML.

Everything here is escaped text built from `Game.describe()`, the session's history and
the par-sheet figures; the page drops the result into its dialogs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from pyengine.events import Spin
from pyengine.session import RoundRecord

__all__ = ["history_html", "paytable_html", "rules_html"]

Fmt = Callable[[int], str]


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


def paytable_html(desc: Mapping[str, Any], bet_per_line: int, lines: int, fmt: Fmt, assets: str) -> str:
    """Every symbol with what it pays at the current bet, the scatter, and the line shapes."""
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
    out.append('<div class="pays">')
    for sid, pays in desc["paytable"].items():
        rows = "".join(
            f"<li><b>{k}×</b> {fmt(v * bet_per_line)}</li>"
            for k, v in sorted(pays.items(), key=lambda kv: -int(kv[0]))
            if v
        )
        out.append(f'<div class="pay">{_img(assets, sid, names[sid])}<ul>{rows}</ul></div>')
    out.append('</div><h3>Win lines</h3><div class="paylines">')
    for i, rows_of in enumerate(desc["paylines"], start=1):
        out.append(_line_grid(rows_of, desc["rows"], i))
    out.append("</div>")
    return "".join(out)


def rules_html(
    desc: Mapping[str, Any], info: Mapping[str, Any], fmt: Fmt, settings: Mapping[str, int] | None = None
) -> str:
    """The rules as implemented (with the session's operator settings), RTP, max win and version."""
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
        "<h4>Autoplay</h4><p>Autoplay spins at the current bet and collects wins. It stops after the number "
        "of rounds, before a round that would pass the loss limit, after a win at or above the single-win "
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
        extra = " · free spins" if "free_spins" in r.features else ""
        out.append(
            f'<li><div class="h-meta"><time>{when}</time><span>Bet {fmt(r.stake)}</span>'
            f'<span class="{"won" if r.win else ""}">Win {fmt(r.win)}{extra}</span></div>{reels}</li>'
        )
    out.append("</ol>")
    return "".join(out)
