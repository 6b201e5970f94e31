"""Pick games: a board of cells hiding prizes, opened one at a time by the player.

The prizes are placed when the pick starts, before any choice: a uniform shuffle of the
board's prizes drawn from ``ctx.rng``. Whatever has been opened, the unopened cells still
hold a uniform shuffle of what is left (the shuffle is exchangeable), so every picking
strategy (fixed order, random, adaptive) sees the same sequence of prizes with the same
probabilities: the choice cannot change the RTP. The math therefore reads a pick as a
random order of its prizes, cut at the first stopper or after ``picks`` picks.

An open choice (a character, a colour) is a pick whose cells show their prizes (``faces``) and
are not shuffled: then the choice is the player's, and the game must make every prize
worth the same.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from ..data import Field
from ..errors import GameDataError
from ..events import PickEnd, PickReveal, PickStart
from ..round import Decision, RoundContext

__all__ = ["PICK", "PickResult", "PickRules", "play_board", "play_pick", "shuffled"]

PICK = "pick"
"""The decision kind of every pick; its choices are the unopened cells' numbers as text."""


@dataclass(frozen=True, slots=True)
class PickRules:
    """A pick board: ``prizes`` one per cell (labels the game reads), shown in ``columns``
    columns; it ends when a prize in ``stoppers`` is revealed or after ``picks`` picks
    (None: only a stopper ends it). ``faces`` is what each cell shows before it is picked,
    for an open choice (then the prizes are not shuffled); None hides every prize."""

    name: str
    prizes: tuple[str, ...]
    columns: int
    stoppers: frozenset[str] = frozenset()
    picks: int | None = None
    faces: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        n = len(self.prizes)
        source = f"pick {self.name!r}"
        if n < 1 or n > 100:
            raise GameDataError(source, "prizes", f"needs 1 to 100 cells, not {n}")
        if not 1 <= self.columns <= n:
            raise GameDataError(source, "columns", f"must be 1 to {n}, not {self.columns}")
        if self.picks is not None and not 1 <= self.picks <= n:
            raise GameDataError(source, "picks", f"must be 1 to {n}, not {self.picks}")
        if self.picks is None and not any(p in self.stoppers for p in self.prizes):
            raise GameDataError(source, "stoppers", "a pick without a number of picks needs a stopper on the board")
        if self.faces is not None and len(self.faces) != n:
            raise GameDataError(source, "faces", f"needs one face per cell ({n})")

    @property
    def cells(self) -> int:
        return len(self.prizes)

    @classmethod
    def from_field(cls, name: str, f: Field) -> PickRules:
        """A pick from a data section: ``columns``, ``board`` (prize label -> how many
        cells hold it, in cell order for ``faces``), optional ``stoppers`` (labels),
        ``picks`` (at most that many) and ``faces`` (true: an open choice whose cells show
        their prizes). Errors name the file and the field."""
        board: list[str] = []
        for label, count in f.get("board").items():
            board += [label] * count.as_int(minimum=1)
        stoppers_f = f.optional("stoppers", [])
        stoppers = frozenset(x.as_str() for x in stoppers_f.as_list())
        unknown = stoppers - set(board)
        if unknown:
            raise stoppers_f.error(f"{sorted(unknown)} are not on the board")
        picks_f = f.optional("picks", None)
        picks = None if picks_f.value is None else picks_f.as_int(minimum=1)
        faces = tuple(board) if f.optional("faces", default=False).as_bool() else None
        try:
            return cls(name, tuple(board), f.get("columns").as_int(minimum=1), stoppers, picks, faces)
        except GameDataError as exc:
            raise f.error(exc.problem) from None


@dataclass(frozen=True, slots=True)
class PickResult:
    """What the pick gave: the ``cells`` picked in order, the ``picked`` prizes in that
    order, and the whole ``board`` (every cell's prize)."""

    cells: tuple[int, ...]
    picked: tuple[str, ...]
    board: tuple[str, ...]


def shuffled(prizes: tuple[str, ...], ctx: RoundContext) -> tuple[str, ...]:
    """A uniform shuffle of ``prizes`` (Fisher-Yates, from the last cell down)."""
    board = list(prizes)
    below = ctx.rng.below
    for i in range(len(board) - 1, 0, -1):
        j = below(i + 1)
        board[i], board[j] = board[j], board[i]
    return tuple(board)


def play_pick(ctx: RoundContext, rules: PickRules) -> Generator[Decision, str, PickResult]:
    """Place the prizes (shuffled, unless the cells show their faces), then play the board."""
    board = rules.prizes if rules.faces is not None else shuffled(rules.prizes, ctx)
    return (yield from play_board(ctx, rules, board))


def play_board(ctx: RoundContext, rules: PickRules, board: tuple[str, ...]) -> Generator[Decision, str, PickResult]:
    """Wait on one `PICK` decision per pick of the placed ``board`` until a stopper or the
    last pick; reveal the unpicked cells at the end."""
    n = len(board)
    faces = rules.faces if rules.faces is not None else ("",) * n
    ctx.emit(PickStart(rules.name, n, rules.columns, faces))
    opened: list[int] = []
    picked: list[str] = []
    stoppers = rules.stoppers
    limit = rules.picks if rules.picks is not None else n
    while True:
        closed = tuple(str(i) for i in range(n) if i not in opened)
        choice = yield Decision(PICK, closed, revealed=tuple(zip(opened, picked, strict=True)))
        cell = int(choice)  # the session only sends one of ``closed``
        prize = board[cell]
        opened.append(cell)
        picked.append(prize)
        ctx.emit(PickReveal(rules.name, cell, prize))
        if prize in stoppers or len(opened) >= limit:
            break
    rest = tuple(i for i in range(n) if i not in opened)
    ctx.emit(PickEnd(rules.name, rest, tuple(board[i] for i in rest)))
    return PickResult(tuple(opened), tuple(picked), board)
