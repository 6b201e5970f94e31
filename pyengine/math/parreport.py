"""The par sheet as a page a designer reads: `write_report` turns `parsheet.par_sheet`'s
report (what ``rtp GAME --json`` prints) into a folder with ``index.html`` (the tables),
``par_sheet.json`` (the report itself) and SVG plots drawn with matplotlib (the ``cli``
extra; the engine itself never imports it):

- ``distribution.svg``: the probability of each win bucket, on a log scale;
- ``rtp_share.svg``: each bucket's share of the RTP;
- ``components.svg``: the RTP by component (the report's ``breakdown``);
- ``funnel.svg``: the convergence funnel, the RTP +- z x sigma / sqrt(N) against N;
- ``feature_lengths.svg``: each feature's length distribution.

Every plot carries the numbers it draws in its SVG metadata (``dc:description``, JSON:
``{"chart": ..., "values": ...}``) and names its bars (``id="bar-<chart>-<i>"``), so a test
can hold a plot to the report. The SVGs are reproducible: no date, a fixed hash salt, text
kept as text.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

__all__ = ["CHARTS", "bucket_label", "write_report"]

CHARTS = ("distribution", "rtp_share", "components", "funnel", "feature_lengths")
"""The plots a report draws, each ``<name>.svg``."""

INK = "#2b2140"
ACCENT = "#7b4fd0"
GOLD = "#d9a521"
GRID = "#d8d2e6"
BANDS = {"95": "#e4dbf6", "90": "#c9b8ee"}


def bucket_label(bucket: dict[str, Any]) -> str:
    """A bucket's span in total bets: ``0``, ``(0, 1)``, ``[1, 2)`` ... ``>= 10000``."""
    lo, hi = bucket["low_x"], bucket["high_x"]
    if hi == 0:
        return "0"
    if hi is None:
        return f">= {lo:,}"
    return f"({lo:,}, {hi:,})" if lo == 0 else f"[{lo:,}, {hi:,})"


def _figure(width: float = 7.5, height: float = 3.6) -> Any:
    import matplotlib

    matplotlib.rcParams.update({
        "svg.hashsalt": "pyengine-par-sheet",
        "svg.fonttype": "none",
        "font.family": "DejaVu Sans",
        "font.size": 9,
        "axes.edgecolor": INK,
        "axes.labelcolor": INK,
        "xtick.color": INK,
        "ytick.color": INK,
        "axes.spines.top": False,
        "axes.spines.right": False,
    })
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _save(fig: Any, path: Path, chart: str, values: Any, title: str) -> None:
    meta = {"Title": title, "Description": json.dumps({"chart": chart, "values": values}), "Date": None}
    fig.savefig(path, format="svg", metadata=meta)


def _name_bars(bars: Any, chart: str) -> None:
    for i, bar in enumerate(bars):
        bar.set_gid(f"bar-{chart}-{i}")


def _distribution(ps: dict[str, Any], game: str, path: Path) -> None:
    buckets = ps["distribution"]["buckets"]
    labels = [bucket_label(b) for b in buckets]
    probs = [b["probability"] for b in buckets]
    fig = _figure()
    ax = fig.add_subplot()
    shown = [p if p > 0 else math.nan for p in probs]
    bars = ax.bar(range(len(probs)), shown, color=ACCENT, width=0.75)
    _name_bars(bars, "distribution")
    ax.set_yscale("log")
    ax.set_xticks(range(len(labels)), labels, rotation=40, ha="right")
    ax.set_xlabel("win in total bets")
    ax.set_ylabel("probability per round (log scale)")
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_title(f"{game}: the win distribution ({_source(ps['distribution']['source'])})", color=INK)
    _save(fig, path, "distribution", probs, f"{game} win distribution")


def _rtp_share(ps: dict[str, Any], rtp: float, game: str, path: Path) -> None:
    buckets = ps["distribution"]["buckets"]
    shares = [b["rtp_share"] for b in buckets]
    fig = _figure()
    ax = fig.add_subplot()
    bars = ax.bar(range(len(shares)), [s * 100 for s in shares], color=GOLD, width=0.75)
    _name_bars(bars, "rtp_share")
    ax.set_xticks(range(len(buckets)), [bucket_label(b) for b in buckets], rotation=40, ha="right")
    ax.set_xlabel("win in total bets")
    ax.set_ylabel("share of the RTP (%)")
    ax.set_ylim(bottom=0)
    ax.grid(axis="y", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_title(f"{game}: where the RTP of {rtp * 100:.2f}% comes from, by win size", color=INK)
    _save(fig, path, "rtp_share", shares, f"{game} RTP share by bucket")


def _components(report: dict[str, Any], game: str, path: Path) -> None:
    parts = list(report["breakdown"].items())
    fig = _figure(7.5, 0.9 + 0.38 * len(parts))
    ax = fig.add_subplot()
    values = [v * 100 for _, v in parts]
    colours = [ACCENT if v >= 0 else "#c0392b" for v in values]
    bars = ax.barh(range(len(parts)), values, color=colours, height=0.6)
    _name_bars(bars, "components")
    ax.set_yticks(range(len(parts)), [k.replace("_", " ") for k, _ in parts])
    ax.invert_yaxis()
    ax.axvline(0, color=INK, linewidth=0.8)
    ax.set_xlabel("share of the RTP (% of the total bet)")
    ax.grid(axis="x", color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    for i, v in enumerate(values):
        ax.annotate(f"{v:.4f}%", (max(v, 0), i), xytext=(4, 0), textcoords="offset points", va="center", color=INK)
    ax.set_title(f"{game}: the RTP by component, {report['rtp'] * 100:.4f}% in all", color=INK)
    _save(fig, path, "components", dict(report["breakdown"]), f"{game} RTP by component")


def _funnel(ps: dict[str, Any], rtp_centre: float, game: str, path: Path) -> None:
    sigma = ps["sigma"]["value"]
    spread = ps["spread"]["value"]
    ns = [10 ** (2 + i / 20) for i in range(101)]  # 10^2 .. 10^7
    fig = _figure()
    ax = fig.add_subplot()
    for key, z in (("95", 1.959963984540054), ("90", 1.6448536269514722)):
        lo = [(rtp_centre - z * sigma / math.sqrt(n)) * 100 for n in ns]
        hi = [(rtp_centre + z * sigma / math.sqrt(n)) * 100 for n in ns]
        ax.fill_between(ns, lo, hi, color=BANDS[key], label=f"{key}% of players")
    for key, marker in (("95", "o"), ("90", "s")):
        xs = [row["rounds"] for row in spread]
        for side in ("low", "high"):
            ax.plot(xs, [row[f"{side}_{key}"] * 100 for row in spread], marker, color=INK, markersize=3)
    ax.axhline(rtp_centre * 100, color=ACCENT, linewidth=1.2, label=f"RTP {rtp_centre * 100:.2f}%")
    ax.axhline(100, color=INK, linewidth=0.6, linestyle=":")
    ax.set_xscale("log")
    first = spread[1] if len(spread) > 1 else spread[0]
    pad = (first["high_95"] - first["low_95"]) * 100
    ax.set_ylim(rtp_centre * 100 - pad, rtp_centre * 100 + pad)
    ax.set_xlabel("rounds played (log scale)")
    ax.set_ylabel("a player's RTP (%)")
    ax.grid(color=GRID, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right", frameon=False)
    ax.set_title(f"{game}: the convergence funnel, RTP ± z·sigma/√N with sigma = {sigma:.3f}", color=INK)
    _save(fig, path, "funnel", {"rtp": rtp_centre, "sigma": sigma, "spread": spread}, f"{game} convergence funnel")


def _feature_lengths(ps: dict[str, Any], game: str, path: Path) -> None:
    tables = ps["feature_lengths"]
    fig = _figure(7.5, 0.6 + 2.6 * max(len(tables), 1))
    axes = fig.subplots(max(len(tables), 1), 1, squeeze=False)[:, 0]
    for i, (ax, t) in enumerate(zip(axes, tables, strict=False)):
        xs = [row["length"] for row in t["lengths"]]
        ps_ = [row["probability"] for row in t["lengths"]]
        bars = ax.bar(xs, ps_, color=ACCENT, width=0.7 * min((b - a for a, b in pairwise(xs)), default=1))
        _name_bars(bars, f"feature_lengths-{i}")
        if max(ps_) / min(ps_) > 1e3:
            ax.set_yscale("log")
            ax.set_ylabel("probability (log scale)")
        else:
            ax.set_ylabel("probability")
        ax.set_xlabel(t["measure"], wrap=True)
        ax.grid(axis="y", color=GRID, linewidth=0.6)
        ax.set_axisbelow(True)
        ax.set_title(f"{t['feature']}: mean {t['mean']:.3f}", color=INK)
    fig.suptitle(f"{game}: how long each feature runs", color=INK)
    _save(fig, path, "feature_lengths", tables, f"{game} feature lengths")


def _source(src: dict[str, Any]) -> str:
    if src["kind"] == "simulated":
        return f"simulated, {src['rounds']:,} rounds, seed {src['seed']}"
    return str(src["kind"])


def _source_line(src: dict[str, Any]) -> str:
    """The source and its method in one line (an exact method already says "exact")."""
    method = str(src.get("method", ""))
    return method if method.startswith(src["kind"]) else f"{_source(src)}: {method}"


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], cls: str = "") -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _every(every: float | None) -> str:
    return "not known" if every is None else f"1 in {every:,.1f}"


MET = {True: "yes", False: "no", None: "not known"}
"""How the page writes a guideline met, not met, or not known."""


def _pct(x: float, digits: int = 4) -> str:
    return f"{x * 100:.{digits}f}%"


STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; color: #2b2140; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #d8d2e6; }
table { border-collapse: collapse; margin: 0.6rem 0; } td, th { padding: 0.2rem 0.7rem; text-align: right; }
td:first-child, th:first-child { text-align: left; } thead th { border-bottom: 2px solid #7b4fd0; }
tbody tr:nth-child(odd) { background: #f5f2fb; } figure { margin: 1rem 0; } img { max-width: 100%; }
.source { color: #5d5477; font-size: 0.9rem; }
"""


def _title(report: dict[str, Any]) -> str:
    """The game's name, with the edits of a what-if."""
    from ..games import get_game

    name = get_game(report["game"]).name
    edits = report.get("edits")
    return f"{name} (what if: {', '.join(edits)})" if edits else name


def _apart(apart: dict[str, float]) -> list[str]:
    """The line under the buckets naming what the game pays apart from a round's win."""
    if not apart:
        return []
    paid = ", ".join(f"{html.escape(k)} {_pct(v)}" for k, v in apart.items())
    return [f'<p class="source" id="apart">The buckets hold the game\'s win; paid apart from it (by the clock, '
            f"not by the round): {paid} of the RTP.</p>"]


def _html(report: dict[str, Any]) -> str:
    ps = report["par_sheet"]
    game = _title(report)
    dist = ps["distribution"]
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(game)} par sheet</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(game)}: par sheet</h1>",
        f'<p class="source">From <code>python3 -m pyengine rtp {html.escape(report["game"])} --json</code>; the report '
        "itself "
        'is <a href="par_sheet.json">par_sheet.json</a>. Every figure says whether it is exact or simulated.</p>',
        "<h2>Summary</h2>",
        _table(
            ["Figure", "Value", "Source"],
            [
                ["RTP", _pct(report["rtp"]), "exact"],
                ["Target RTP", _pct(report["target_rtp"], 2), "the rule document"],
                ["Hit rate", f"{_pct(ps['hit_rate']['value'], 2)} (1 in {ps['hit_rate']['every']:,.2f})",
                 _source(ps["hit_rate"]["source"])],
                ["Sigma (total bets)", f"{ps['sigma']['value']:.4f}", _source(ps["sigma"]["source"])],
                ["Volatility index, 90%", f"{ps['volatility_index']['value']['90']:.3f}",
                 _source(ps["volatility_index"]["source"])],
                ["Volatility index, 95%", f"{ps['volatility_index']['value']['95']:.3f}",
                 _source(ps["volatility_index"]["source"])],
                ["Max win", ("at most " if ps["max_win"]["bound"] else "") + f"{ps['max_win']['x']:,.2f} x",
                 f"odds {ps['max_win']['odds']}"],
            ],
        ),
        f'<p class="source">Method: {html.escape(report["method"])}</p>',
        "<h2>Against a platform's approval figures</h2>",
        _table(
            ["Guideline", "This game", "Met", "Source"],
            [[c["asks"], _every(c["every"]), MET[c["met"]], _source(c["source"])] for c in ps["checks"]],
            "checks",
        ),
        "<h2>The win distribution</h2>",
        f'<p class="source">{html.escape(_source_line(dist["source"]))}</p>',
        _table(
            ["Win (total bets)", "Probability", "1 in", "RTP share"],
            [[bucket_label(b), f"{b['probability']:.6e}", b["odds"], _pct(b["rtp_share"])] for b in dist["buckets"]],
            "buckets",
        ),
        *_apart(dist.get("apart", {})),
        '<figure><img src="distribution.svg" alt="The win distribution by bucket, log scale"></figure>',
        '<figure><img src="rtp_share.svg" alt="The RTP share of each win bucket"></figure>',
        "<h2>The RTP by component</h2>",
        _table(["Component", "Share of the RTP"], [[k, _pct(v)] for k, v in report["breakdown"].items()], "components"),
        '<figure><img src="components.svg" alt="The RTP by component"></figure>',
        "<h2>The RTP's spread after N rounds</h2>",
        _table(
            ["Rounds", "90% of players", "95% of players"],
            [
                [f"{r['rounds']:,}", f"{_pct(r['low_90'], 2)} to {_pct(r['high_90'], 2)}",
                 f"{_pct(r['low_95'], 2)} to {_pct(r['high_95'], 2)}"]
                for r in ps["spread"]["value"]
            ],
            "spread",
        ),
        '<figure><img src="funnel.svg" alt="The convergence funnel"></figure>',
        "<h2>Features</h2>",
        _table(
            ["Feature", "Probability per round", "Every", "Source"],
            [
                [f["title"], f"{f['probability']:.6e}", f"{f['every']:,.1f}" if f["every"] else "never",
                 f["source"]["kind"]]
                for f in ps["features"]
            ],
            "features",
        ),
        "<h2>Feature lengths</h2>",
    ]
    for t in ps["feature_lengths"]:
        parts.append(f"<h3>{html.escape(t['feature'])}: {html.escape(t['measure'])}</h3>")
        parts.append(
            _table(
                ["Length", "Probability"],
                [[row["length"], f"{row['probability']:.6e}"] for row in t["lengths"]]
                + [["mean", f"{t['mean']:.4f}"]],
                "lengths",
            )
        )
    parts.append('<figure><img src="feature_lengths.svg" alt="Each feature\'s length distribution"></figure>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(report: dict[str, Any], out: Path) -> list[Path]:
    """Write the par sheet of ``report`` (`parsheet.par_sheet`'s) into the folder ``out``:
    ``index.html``, ``par_sheet.json`` and one SVG per chart of `CHARTS`. Returns the files."""
    if "par_sheet" not in report:
        raise ValueError("the report has no par sheet (an edited game without an exact distribution)")
    out.mkdir(parents=True, exist_ok=True)
    ps = report["par_sheet"]
    game = _title(report)
    centre = report["rtp"]  # the spread is around the exact RTP (`parsheet.par_sheet`)
    paths = {name: out / f"{name}.svg" for name in CHARTS}
    _distribution(ps, game, paths["distribution"])
    _rtp_share(ps, report["rtp"], game, paths["rtp_share"])
    _components(report, game, paths["components"])
    _funnel(ps, centre, game, paths["funnel"])
    _feature_lengths(ps, game, paths["feature_lengths"])
    (out / "par_sheet.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "index.html").write_text(_html(report))
    return [out / "index.html", out / "par_sheet.json", *paths.values()]
