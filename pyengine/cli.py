"""Command line: ``python -m pyengine games | rtp | simulate | play | link | replay | showcase``.

Bad arguments print one clear line and exit with status 2 (no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .errors import EngineError
from .events import Event
from .games import game_ids, get_game, plugin
from .link import decode, encode, first_round, link_of, play_link
from .math.simulate import POLICIES, SECONDS_PER_ROUND, SIM_START, simulate
from .model import MAX_BALANCE, Bet
from .rng import Rng, new_seed
from .session import Session

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"pyengine: {message}\n")


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return v


def _seed(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None
    if not 0 <= v < 1 << 64:
        raise argparse.ArgumentTypeError(f"seed {text!r} must be between 0 and 2**64-1")
    return v


def _setting(text: str) -> tuple[str, int]:
    """An operator setting NAME=VALUE: VALUE a whole number, or true / false."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    if value.lower() in ("true", "false"):
        return name, int(value.lower() == "true")
    try:
        return name, int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"setting {name}: {value!r} is not a whole number, true or false") from None


def _add_settings(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--setting",
        type=_setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an operator setting other than the game's default (repeatable), e.g. free_spin_cap_x=1000",
    )


def _add_par_sheet(p: argparse.ArgumentParser) -> None:
    """The options of the par sheet's simulated figures (for a game without an exact distribution)."""
    p.add_argument(
        "--rounds", type=_positive, default=None,
        help="rounds simulated for the par sheet's figures a game does not give exactly (1,000,000)",
    )
    p.add_argument("--seed", type=_seed, default=1, help="the simulation's seed (default 1)")
    p.add_argument("--workers", type=_positive, default=1, help="local processes for the simulation (default 1)")
    p.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler for the simulation, or 'local'"
    )


def _parser() -> _Parser:
    p = _Parser(prog="pyengine", description="The free-play slot studio's engine.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("games", help="list the game ids, one a line")

    r = sub.add_parser("rtp", help="the exact RTP with its breakdown")
    r.add_argument("game", choices=game_ids(), metavar="GAME")
    r.add_argument("--mode", default="base")
    r.add_argument("--json", action="store_true")
    r.add_argument("--lines", type=_positive, default=None, help="active lines (default: the most)")
    _add_settings(r)
    _add_par_sheet(r)
    r.add_argument(
        "--edit", action="append", default=[], metavar="EDIT",
        help="what if: strip:SET:REEL:SYMBOL:+N (or -N) changes a reel strip, pay:SYMBOL:COUNT:VALUE a pay "
        "(repeatable); the report is of the edited game",
    )

    rep = sub.add_parser("report", help="the par sheet as a folder: index.html, par_sheet.json and SVG plots")
    rep.add_argument("game", choices=game_ids(), metavar="GAME")
    rep.add_argument("--out", required=True, type=Path, metavar="DIR", help="the folder to write (made if missing)")
    rep.add_argument("--mode", default="base")
    rep.add_argument("--lines", type=_positive, default=None, help="active lines (default: the most)")
    _add_settings(rep)
    _add_par_sheet(rep)
    rep.add_argument("--edit", action="append", default=[], metavar="EDIT", help="what if: as rtp --edit")

    s = sub.add_parser("simulate", help="Monte Carlo through the real session")
    s.add_argument("game", choices=game_ids(), metavar="GAME")
    s.add_argument("--rounds", type=_positive, required=True)
    s.add_argument("--seed", type=_seed, default=1)
    s.add_argument("--choices", choices=POLICIES, default="first")
    s.add_argument("--mode", default="base")
    s.add_argument("--json", action="store_true")
    s.add_argument("--lines", type=_positive, default=None, help="active lines (default: the game's default bet)")
    s.add_argument("--workers", type=_positive, default=1, help="local processes that play the rounds (default 1)")
    s.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="a Dask scheduler's address (tcp://host:8786) to run the rounds on, or 'local' for a LocalCluster",
    )
    _add_settings(s)

    pl = sub.add_parser("play", help="play rounds, one JSON object per round")
    pl.add_argument("game", choices=game_ids(), metavar="GAME")
    pl.add_argument("--seed", type=_seed, default=None)
    pl.add_argument("--rounds", type=_positive, default=1)
    pl.add_argument("--choices", choices=POLICIES, default="first")
    pl.add_argument("--mode", default="base")
    pl.add_argument("--jsonl", action="store_true", required=True)
    pl.add_argument(
        "--real-clock",
        action="store_true",
        help="play on the computer's clock (default: the simulated clock of simulate, so a seed gives the same output)",
    )
    _add_settings(pl)

    lk = sub.add_parser("link", help="the replay token of a session's first round (as play plays it)")
    lk.add_argument("game", choices=game_ids(), metavar="GAME")
    lk.add_argument("--seed", type=_seed, required=True, help="the session's seed (play --seed)")
    lk.add_argument("--bet", type=_bet, default=None, help="LINES:BET_PER_LINE[:COINS] (default: the default bet)")
    lk.add_argument("--mode", default="base")
    lk.add_argument(
        "--choices", type=_choices, default=None, help="the answers to the round's decisions, comma-separated "
        "(default: the first choice offered each time)"
    )
    _add_settings(lk)

    rp = sub.add_parser("replay", help="replay a round link's token: its line as play prints it")
    rp.add_argument("token")
    rp.add_argument("--jsonl", action="store_true", required=True)

    sc = sub.add_parser("showcase", help="a round link for every feature and win tier, with its exact odds")
    sc.add_argument("game", choices=game_ids(), metavar="GAME")
    sc.add_argument("--json", action="store_true")
    sc.add_argument("--rounds", type=_positive, default=None, help="seeds searched for the win tiers (100,000)")
    sc.add_argument("--limit", type=_positive, default=None, help="most seeds searched for a feature (1,000,000)")
    return p


def _bet(text: str) -> Bet:
    parts = text.split(":")
    if not 2 <= len(parts) <= 3 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"a bet is LINES:BET_PER_LINE[:COINS] in whole numbers, not {text!r}")
    return Bet(*(int(p) for p in parts))


def _choices(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def _round_line(seed: int, bet: Bet, win: int, events: Sequence[Event], mode: str, jackpot: int) -> dict[str, Any]:
    """One round as play and replay print it (play adds the balance before and after)."""
    line: dict[str, Any] = {"seed": seed, "bet": bet.to_json(), "win": win, "events": [e.to_json() for e in events]}
    if mode != "base" or jackpot:
        line |= {"mode": mode, "jackpot": jackpot}
    return line


def _print_line(line: dict[str, Any]) -> None:
    print(json.dumps(line, sort_keys=True, separators=(",", ":")))


def _cmd_link(args: argparse.Namespace) -> int:
    settings = dict(args.setting)
    record, _ = first_round(args.game, args.seed, bet=args.bet, mode=args.mode, choices=args.choices, settings=settings)
    print(encode(link_of(args.game, record, settings)))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    link = decode(args.token)
    events = play_link(link)
    end = events[-1]
    win = int(getattr(end, "win", 0))
    _print_line(_round_line(link.seed, link.bet, win, events, link.mode, link.jackpot))
    return 0


def _cmd_showcase(args: argparse.Namespace) -> int:
    from . import showcase as sc

    rounds = args.rounds or sc.ROUNDS
    limit = args.limit or max(sc.LIMIT, rounds)
    update, close = _progress_bar(limit)
    try:
        out = sc.showcase(args.game, rounds=rounds, limit=limit, progress=update)
    finally:
        close()
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    fmt = get_game(args.game).bets.format
    print(f"{out['game']} {out['version']}: {len(out['entries'])} entries ({out['stream']})")
    for e in out["entries"]:
        where = f"seed {e['seed']}" if e["seed"] is not None else f"round {e['round']} of seed 1"
        win = f"win {fmt(e['win']):>12} ({e['win_x']:,.2f}x)"
        print(f"  {e['id']:<22} {where:<18} {win}  {e['odds']['text']:<16} {e['title']}")
    for ident in out["missing"]:
        print(f"  {ident:<22} not found in the first {out['limit']:,} seeds")
    return 0


def _progress_bar(total: int) -> tuple[Callable[[int], None] | None, Callable[[], None]]:
    """A tqdm bar on a terminal for long runs (tqdm is the ``cli`` extra)."""
    if total < 200_000 or not sys.stderr.isatty():
        return None, lambda: None
    try:
        from tqdm import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, unit="round", unit_scale=True, file=sys.stderr)

    def update(n: int) -> None:
        bar.update(n)

    return update, bar.close


def _sheet(args: argparse.Namespace) -> dict[str, Any]:
    """The RTP report with its par sheet, as the options of `_add_par_sheet` ask."""
    from .math.parsheet import DEFAULT_ROUNDS, par_sheet

    if args.edit:
        from .math.whatif import edited_game, parse_edit, what_if

        edits = [parse_edit(e) for e in args.edit]
        report = what_if(args.game, edits, args.mode, dict(args.setting), args.lines)
        # Without an exact distribution of the mode, no par sheet: an edited game has no session to simulate.
        return par_sheet(args.game, args.mode, report=report, game=edited_game(args.game, edits))
    rounds = DEFAULT_ROUNDS if args.rounds is None else args.rounds
    update: Callable[[int], None] | None = None
    close: Callable[[], None] = lambda: None  # noqa: E731
    if not plugin(args.game).distribution:
        update, close = _progress_bar(rounds)
    try:
        return par_sheet(
            args.game, args.mode, dict(args.setting), args.lines,
            rounds=rounds, seed=args.seed, workers=args.workers, scheduler=args.scheduler, progress=update,
        )
    finally:
        close()


def _print_par_sheet(sheet: dict[str, Any]) -> None:
    dist = sheet["distribution"]
    src = dist["source"]
    how = "exact" if src["kind"] == "exact" else f"simulated, {src['rounds']:,} rounds, seed {src['seed']}"
    print(f"  par sheet ({how}):")
    print(f"    hit rate {sheet['hit_rate']['value'] * 100:.2f}%   sigma {sheet['sigma']['value']:.3f}   "
          f"volatility index {sheet['volatility_index']['value']['90']:.2f} (90%), "
          f"{sheet['volatility_index']['value']['95']:.2f} (95%)")
    for b in dist["buckets"]:
        hi = b["high_x"]
        span = "0" if hi == 0 else (f">= {b['low_x']}x" if hi is None else f"[{b['low_x']}, {hi})x")
        print(f"    {span:<16} {b['probability'] * 100:9.5f}%  {b['odds']:<22} RTP share {b['rtp_share'] * 100:8.4f}%")
    for f in sheet["features"]:
        every = f"1 in {f['every']:,.0f}" if f["every"] else "never"
        print(f"    feature {f['title']}: {every}")
    for c in sheet["checks"]:
        seen = "not known" if c["every"] is None else f"1 in {c['every']:,.1f}"
        met = {True: "met", False: "not met", None: "not known"}[c["met"]]
        print(f"    guideline: {c['asks']}: {seen}, {met}")


def _cmd_rtp(args: argparse.Namespace) -> int:
    report = _sheet(args)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"{report['game']} ({report['mode']}): RTP {report['rtp'] * 100:.4f}%  target {report['target_rtp'] * 100:.2f}%"
    )
    for k, v in report["breakdown"].items():
        print(f"  {k:<24} {v * 100:9.4f}%")
    bound = "at most " if report["max_win_bound"] else ""  # a proven bound, not a win shown to be paid
    print(f"  max win {bound}{report['max_win_x']:.2f}x   computed in {report['seconds']:.2f}s")
    if report["settings"]:
        settings = ", ".join(f"{k}={v}" for k, v in report["settings"].items())
        print(f"  at {report['lines']} lines, operator settings: {settings}")
    p = report["max_win_probability"]
    if p is not None and report["max_win_bound"]:
        print(f"  the bound reached at most {report['max_win_odds']} rounds (p <= {p:.3g})")
    elif p is not None:
        print(f"  max win reached: {report['max_win_odds']} rounds (p = {p:.3g})")
    for line in report.get("summary", ()):
        print(f"  {line}")
    print(f"  method: {report['method']}")
    if report.get("edits"):
        print(f"  what if: {', '.join(report['edits'])}")
    if "par_sheet" in report:
        _print_par_sheet(report["par_sheet"])
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    try:
        from .math.parreport import write_report
    except ImportError:  # pragma: no cover - the cli extra is missing
        raise EngineError("report draws its plots with matplotlib: pip install 'pyengine[cli]'") from None
    report = _sheet(args)
    if "par_sheet" not in report:
        raise EngineError(f"an edited {args.game} has no exact distribution, so no par sheet to draw")
    for path in write_report(report, args.out):
        print(path)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    update, close = _progress_bar(args.rounds)
    try:
        result = simulate(
            args.game,
            args.rounds,
            seed=args.seed,
            choices=args.choices,
            mode=args.mode,
            settings=dict(args.setting),
            lines=args.lines,
            progress=update,
            workers=args.workers,
            scheduler=args.scheduler,
        )
    finally:
        close()
    out = result.to_json()
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"{out['game']} ({out['mode']}): {out['rounds']} rounds, RTP {out['rtp'] * 100:.3f}% "
        f"± {out['ci95'] * 100:.3f}% (95%), hit rate {out['hit_rate'] * 100:.2f}%, "
        f"sigma {out['stdev']:.2f}, max win {out['max_win_x']:.1f}x, features {out['features']}, "
        f"{out['rounds_per_second']:.0f} rounds/s"
    )
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    seed = new_seed() if args.seed is None else args.seed
    stake = game.price(game.bets.default, args.mode)
    # The simulated clock is simulate's: SIM_START, then SECONDS_PER_ROUND a round, so a
    # time jackpot drops in the same rounds on every run.
    tick = [SIM_START]

    def clock() -> float:
        return time.time() if args.real_clock else tick[0]

    balance = min(max(stake * args.rounds, 100_000), MAX_BALANCE)
    session = Session(game, balance=balance, seed=seed, settings=dict(args.setting), clock=clock)
    picker = Rng(seed ^ 0x5EED5EED)
    for i in range(args.rounds):
        tick[0] = SIM_START + i * SECONDS_PER_ROUND
        before = session.balance
        events: list[Event] = session.spin(mode=args.mode)
        while (d := session.pending) is not None:
            choice = d.choices[picker.below(len(d.choices))] if args.choices == "random" else d.choices[0]
            events += session.choose(choice)
        last = session.last_round
        assert last is not None
        line = _round_line(last.seed, last.bet, last.win, events, args.mode, last.jackpot)
        _print_line(line | {"balance_before": before, "balance_after": session.balance})
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "games":
            print("\n".join(game_ids()))
            return 0
        if args.command == "rtp":
            return _cmd_rtp(args)
        if args.command == "simulate":
            return _cmd_simulate(args)
        if args.command == "report":
            return _cmd_report(args)
        if args.command == "link":
            return _cmd_link(args)
        if args.command == "replay":
            return _cmd_replay(args)
        if args.command == "showcase":
            return _cmd_showcase(args)
        return _cmd_play(args)
    except EngineError as exc:
        print(f"pyengine: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
