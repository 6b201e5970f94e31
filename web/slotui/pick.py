"""The shared pick overlay: a board of cells the player opens one at a time.

Any game's pick (`pyengine.features.pick`) plays here from its events alone: `PickStart`
lays out the board (hidden cells, or the faces of an open choice), each `PickReveal`
turns one cell over, `PickEnd` shows what the unpicked cells held. The player answers
the pending ``pick`` decision by a click or tap on a cell, a digit key (1-9), or the
arrow keys and Enter; a reload mid-pick brings the same board back from the round's
events. What the cells say comes from the game's `PickLook`; nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pyengine import events as ev

from .beats import Beat, Timed, add_rebuilder, register
from .canvas import Canvas
from .layout import Layout, fit_size
from .stage import Stage
from .timing import clamp01, ease_out_cubic
from .words import either, number, tr

__all__ = ["PICK", "PickCell", "PickLook", "PickOverlay", "board", "look_of", "rebuild_pick", "waiting_on_pick"]

PICK = "pick"
"""The decision kind of every pick."""

GOLD = "#ffd24a"
INK = "#f5ecff"
MUTED = "#9d8cc4"
CELL = "#2b1852"
CELL_EDGE = "#7a5cc0"
FLIP_MS = 320.0


@dataclass(frozen=True, slots=True)
class PickLook:
    """A game's words and pictures for its picks (all optional).

    ``titles`` maps a pick's name to the line above its board; ``label`` gives a prize's
    text; ``sprite`` the picture key drawn for a face or a prize (None: text only);
    ``cover`` the picture of a hidden cell (drawn when the canvas has it), ``covers`` a
    pick's own one by its name; ``tally`` the line under the title while the board is up,
    from the stage and the board (e.g. what the cells opened so far add up to), brought up
    to date after every reveal; ``prompt`` the words under the board while it waits on the
    player (``prompts`` a pick's own by its name), ``ending`` those over the end, when the
    unpicked cells show what they held. ``area`` places a pick's board in a rectangle
    (x, y, w, h) of the canvas instead of over the reel window (None for the default), e.g.
    beside a scene the game draws for it; the picks named in ``scenes`` are played over
    such a scene (the game's own overlay, under the board), so their board does not dim the
    screen.
    ``button`` a button under the board (its label; "" for none) whose click or tap asks for
    the action ``button_action`` (e.g. a pick screen's own PAYTABLE).
    """

    titles: dict[str, str] = field(default_factory=dict)
    """A pick's name -> the catalogue key of its title (the game's catalogue, else the shared one)."""
    label: Callable[[str, str], str] | None = None
    sprite: Callable[[str, str], str | None] | None = None
    cover: str = "pick_cover"
    tally: Callable[[Any, PickOverlay], str] | None = None
    prompt: str = "pick.prompt"
    prompts: dict[str, str] = field(default_factory=dict)
    ending: str = "pick.ending"
    covers: dict[str, str] = field(default_factory=dict)
    area: Callable[[str, Layout], tuple[float, float, float, float] | None] | None = None
    scenes: frozenset[str] = frozenset()
    button: str = ""
    button_action: str = "paytable"
    words: Any = None
    """The game's catalogue (`words.of`): ``titles``, ``prompt``, ``prompts``, ``ending`` and
    ``button`` are its keys (a key it lacks is the shared catalogue's). Words are looked up
    when shown, in the language spoken then."""

    def say(self, key: str, /, **args: Any) -> str:
        """The words of ``key``: the game's, else the shared client's; a text that is no key of
        either is shown as it is (and `words.from_catalogue` finds it given by none)."""
        return either(self.words, key, key, **args)

    @property
    def button_text(self) -> str:
        return self.say(self.button) if self.button else ""

    def tally_text(self, c: Stage, overlay: PickOverlay) -> str:
        return self.tally(c, overlay) if self.tally is not None else ""

    def title(self, name: str) -> str:
        return self.say(self.titles.get(name, "pick.title"))

    def cover_of(self, name: str) -> str:
        return self.covers.get(name, self.cover)

    def prompt_of(self, name: str) -> str:
        return self.say(self.prompts.get(name, self.prompt))

    def place(self, name: str, L: Layout) -> tuple[float, float, float, float]:
        """The rectangle a pick's board is centred in: the game's ``area``, or the reel window."""
        rect = self.area(name, L) if self.area is not None else None
        return rect if rect is not None else (L.reels_x, L.reels_y, L.reels_w, L.reels_h)

    def text(self, name: str, prize: str) -> str:
        return self.label(name, prize) if self.label is not None else prize.upper()

    def picture(self, name: str, value: str) -> str | None:
        return self.sprite(name, value) if self.sprite is not None else None


@dataclass(slots=True)
class PickCell:
    """One cell: its face before it is opened, and once opened, its prize and when it
    turned (``picked``: the player opened it; else the end revealed it)."""

    face: str = ""
    prize: str | None = None
    turned_at: float = 0.0
    picked: bool = False


@dataclass(slots=True)
class PickOverlay:
    """The board on screen (an `overlay.Overlay`): its title and tally take the band above the reels."""

    writes_band = True

    name: str
    columns: int
    cells: list[PickCell]
    look: PickLook
    started: float = 0.0
    focus: int = 0
    waiting: bool = False
    """The round waits on the player's pick: the focus ring and the prompt show."""
    message: str = ""
    tally: str = ""
    """The game's line under the title (`PickLook.tally`)."""

    @property
    def rows(self) -> int:
        return -(-len(self.cells) // self.columns)

    def closed(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c.prize is None]

    def stats(self, layout: Layout, scale: float) -> dict[str, Any]:
        """The board for tests and embedding pages that drive the game (``slotStats.pick``):
        its name, which cells are open, whether it waits on the player or shows its end, the
        focused cell, each cell's box and its button's (None without one), in canvas pixels
        divided by ``scale`` (the page's CSS pixels)."""
        x0, y0, size, gap = self.geometry(layout)
        boxes = []
        for i in range(len(self.cells)):
            row, col = divmod(i, self.columns)
            x, y = x0 + col * (size + gap), y0 + row * (size + gap)
            boxes.append([x / scale, y / scale, size / scale, size / scale])
        button = self.button_rect(layout)
        return {
            "name": self.name,
            "open": [i for i, c in enumerate(self.cells) if c.prize is not None],
            "waiting": self.waiting,
            "ended": bool(self.message),
            "focus": self.focus,
            "boxes": boxes,
            "button": None if button is None else [v / scale for v in button],
        }

    def geometry(self, L: Layout) -> tuple[float, float, float, float]:
        """(x, y, cell size, gap) of the board, centred over the reel window (or the
        look's ``area`` for this pick)."""
        ax, ay, aw, ah = self.look.place(self.name, L)
        gap = L.cell * 0.06
        across = (aw - gap * (self.columns - 1)) / self.columns
        down = (ah - gap * (self.rows - 1)) / self.rows
        size = min(across, down)
        size = min(size * 0.94, L.cell * 1.1)
        w = self.columns * size + (self.columns - 1) * gap
        h = self.rows * size + (self.rows - 1) * gap
        return ax + (aw - w) / 2, ay + (ah - h) / 2, size, gap

    def cell_at(self, L: Layout, x: float, y: float) -> int | None:
        """The cell under the point (canvas pixels), or None."""
        x0, y0, size, gap = self.geometry(L)
        col, cx = divmod(x - x0, size + gap)
        row, cy = divmod(y - y0, size + gap)
        if col < 0 or row < 0 or col >= self.columns or cx > size or cy > size:
            return None
        i = int(row) * self.columns + int(col)
        return i if i < len(self.cells) else None

    def clear_pictures(self) -> set[str]:
        """The pictures on the open cells: their names are written under them, never on them
        (`textboxes.kept_clear`)."""
        found = set()
        for cell in self.cells:
            value = cell.prize if cell.prize is not None else cell.face
            picture = self.look.picture(self.name, value) if value else None
            if picture is not None:
                found.add(picture)
        return found

    def button_rect(self, L: Layout) -> tuple[float, float, float, float] | None:
        """(x, y, w, h) of the look's button under the board, or None without one."""
        if not self.look.button:
            return None
        _, y0, size, gap = self.geometry(L)
        h = L.cell * 0.34
        w = max(L.cell * 1.7, h * 0.6 * len(self.look.button_text))
        y = min(y0 + self.rows * (size + gap) + L.cell * 0.42, L.height - h - 4)
        return (L.width - w) / 2, y, w, h

    def action_at(self, L: Layout, x: float, y: float) -> str | None:
        """The action of the button under the point, or None."""
        rect = self.button_rect(L)
        if rect is None:
            return None
        bx, by, bw, bh = rect
        return self.look.button_action if bx <= x <= bx + bw and by <= y <= by + bh else None

    def move_focus(self, dx: int, dy: int) -> None:
        """Arrow keys: move to the nearest closed cell that way (wrapping in the row or column)."""
        closed = set(self.closed())
        if not closed:
            return
        n = len(self.cells)
        i = self.focus
        for _ in range(n):
            row, col = divmod(i, self.columns)
            col = (col + dx) % self.columns
            row = (row + dy) % self.rows
            i = row * self.columns + col
            if i < n and i in closed:
                self.focus = i
                return

    def draw(self, canvas: Canvas, L: Layout, now: float) -> None:
        u = ease_out_cubic((now - self.started) / 300.0)
        if self.name not in self.look.scenes:
            canvas.fill_rect(0, 0, L.width, L.height, f"rgba(6,2,18,{0.55 + 0.3 * u:.2f})")
        room = L.width * 0.92
        title = self.look.title(self.name)
        title_size = fit_size(title, min(L.top_h * 0.42, L.width * 0.06), room)
        if self.tally:
            # The title moves up to make room for the tally under it.
            title_size *= 0.8
            canvas.text(title, L.width / 2, L.top_h * 0.38 + title_size * 0.4, title_size, GOLD, max_width=room)
            canvas.text(self.tally, L.width / 2, L.top_h * 0.86, title_size * 0.7, INK, max_width=room)
        else:
            canvas.text(title, L.width / 2, L.top_h * 0.5 + title_size * 0.4, title_size, GOLD, max_width=room)
        x0, y0, size, gap = self.geometry(L)
        for i, cell in enumerate(self.cells):
            row, col = divmod(i, self.columns)
            self._cell(canvas, cell, x0 + col * (size + gap), y0 + row * (size + gap), size, now)
            if self.waiting and i == self.focus and cell.prize is None:
                x = x0 + col * (size + gap)
                y = y0 + row * (size + gap)
                canvas.stroke_rect(x - 3, y - 3, size + 6, size + 6, GOLD, max(3.0, size * 0.05))
        text = self.message or (self.look.prompt_of(self.name) if self.waiting else "")
        if text:
            below = min(y0 + self.rows * (size + gap) + L.cell * 0.22, L.height - 8)
            canvas.text(text, L.width / 2, below, fit_size(text, L.cell * 0.18, room), INK, max_width=room)
        rect = self.button_rect(L)
        if rect is not None:
            bx, by, bw, bh = rect
            canvas.fill_rect(bx, by, bw, bh, CELL)
            canvas.stroke_rect(bx, by, bw, bh, GOLD, max(2.0, bh * 0.06))
            canvas.text(self.look.button_text, bx + bw / 2, by + bh * 0.68, bh * 0.46, GOLD)

    def _cell(self, canvas: Canvas, cell: PickCell, x: float, y: float, size: float, now: float) -> None:
        look = self.look
        t = clamp01((now - cell.turned_at) / FLIP_MS) if cell.prize is not None else 0.0
        shown_prize = cell.prize is not None and t >= 0.5
        # The flip: the cell narrows to an edge, then opens on its prize.
        scale = abs(1.0 - 2.0 * t) if cell.prize is not None and t < 1.0 else 1.0
        w = max(size * scale, 1.0)
        cx = x + (size - w) / 2
        dim = cell.prize is not None and not cell.picked and shown_prize
        canvas.fill_rect(cx, y, w, size, "#1a0f33" if dim else CELL)
        canvas.stroke_rect(cx, y, w, size, GOLD if (shown_prize and cell.picked) else CELL_EDGE, max(2.0, size * 0.03))
        if w < size * 0.35:
            return
        value = cell.prize if shown_prize and cell.prize is not None else cell.face
        if not value:
            cover = look.cover_of(self.name)
            if canvas.has_sprite(cover):
                canvas.sprite(cover, cx, y, w, size)
            else:
                canvas.text("?", cx + w / 2, y + size * 0.66, size * 0.5, MUTED)
            return
        picture = look.picture(self.name, value)
        if picture is not None and canvas.has_sprite(picture):
            # The picture above, its name under it in the cell's lower band (never on it).
            canvas.push(alpha=0.45 if dim else 1.0)
            canvas.sprite(picture, cx + w * 0.16, y + size * 0.05, w * 0.68, size * 0.68)
            canvas.pop()
        label = look.text(self.name, value)
        color = MUTED if dim else GOLD if shown_prize else INK
        room = w * 0.9
        label_size = fit_size(label, size * (0.15 if picture else 0.24), room)
        canvas.text(label, cx + w / 2, y + size * (0.89 if picture else 0.6), label_size, color, max_width=room)


def look_of(c: Stage) -> PickLook:
    """The game's `PickLook`, or the defaults."""
    look = getattr(c.screen, "pick_look", None)
    return look if isinstance(look, PickLook) else PickLook()


def board(c: Stage) -> PickOverlay | None:
    """The pick board on screen, or None."""
    return c.view.overlay(PickOverlay)


def _start(e: ev.PickStart, c: Stage) -> Beat | None:
    c.view.remove(PickOverlay)
    overlay = PickOverlay(e.name, e.columns, [PickCell(face=f) for f in e.faces], look_of(c), started=c.now)
    c.view.overlays.append(overlay)
    overlay.tally = overlay.look.tally_text(c, overlay)
    c.view.highlights = []
    c.view.line_rows = None
    c.view.line_label = ""
    c.host.announce(tr("pick.say_start", title=overlay.look.title(e.name).capitalize(), n=number(e.cells)))
    return None


class RevealBeat(Timed):
    """A picked cell turns over and shows its prize."""

    def __init__(self, e: ev.PickReveal) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        overlay = board(c)
        self.ms = 0.0 if c.reduced_motion else FLIP_MS + c.timing.pause
        if overlay is None or not 0 <= self.e.cell < len(overlay.cells):
            self.ms = 0.0
            return
        cell = overlay.cells[self.e.cell]
        cell.prize = self.e.prize
        cell.picked = True
        cell.turned_at = now
        overlay.waiting = False
        overlay.tally = overlay.look.tally_text(c, overlay)
        closed = overlay.closed()
        if closed and overlay.focus not in closed:
            overlay.focus = min(closed, key=lambda i: abs(i - self.e.cell))
        prize = overlay.look.text(self.e.name, self.e.prize)
        c.host.announce(overlay.look.say("pick.say_reveal", cell=number(self.e.cell + 1), prize=prize))

    def hurry(self, c: Stage) -> None:
        super().hurry(c)
        overlay = board(c)
        if overlay is not None and 0 <= self.e.cell < len(overlay.cells):
            overlay.cells[self.e.cell].turned_at = c.now - FLIP_MS


class EndBeat(Timed):
    """The unpicked cells show what they held; then the board leaves."""

    def __init__(self, e: ev.PickEnd) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        overlay = board(c)
        self.ms = c.timing.line_show * (0.6 if c.reduced_motion else 1.2)
        if overlay is None:
            self.ms = 0.0
            return
        for cell, prize in zip(self.e.cells, self.e.prizes, strict=True):
            if 0 <= cell < len(overlay.cells):
                overlay.cells[cell].prize = prize
                overlay.cells[cell].turned_at = now
        overlay.waiting = False
        overlay.message = overlay.look.say(overlay.look.ending)
        held = ", ".join(overlay.look.text(self.e.name, p) for p in self.e.prizes)
        c.host.announce(overlay.look.say("pick.say_end", prizes=held))

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now):
            return False
        c.view.remove(PickOverlay)
        return True

    def hurry(self, c: Stage) -> None:
        self.ms = min(self.ms, c.now - self.t0 + c.timing.pause)


def waiting_on_pick(c: Stage) -> None:
    """The round waits on a pick: the board takes the player's input."""
    overlay = board(c)
    if overlay is None:
        return
    overlay.waiting = True
    closed = overlay.closed()
    if closed and overlay.focus not in closed:
        overlay.focus = closed[0]


def rebuild_pick(c: Stage, events: list[ev.Event]) -> None:
    """Recovery: the board of a pick still in play, with the cells opened so far."""
    start = next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], ev.PickStart)), None)
    if start is None or any(isinstance(e, ev.PickEnd) for e in events[start:]):
        return
    e = events[start]
    assert isinstance(e, ev.PickStart)
    overlay = PickOverlay(e.name, e.columns, [PickCell(face=f) for f in e.faces], look_of(c), started=c.now - 1e6)
    for later in events[start:]:
        if isinstance(later, ev.PickReveal) and 0 <= later.cell < len(overlay.cells):
            overlay.cells[later.cell] = PickCell(overlay.cells[later.cell].face, later.prize, c.now - 1e6, picked=True)
    c.view.remove(PickOverlay)
    c.view.overlays.append(overlay)
    overlay.tally = overlay.look.tally_text(c, overlay)
    if c.pending_kind == PICK:
        waiting_on_pick(c)


register(ev.PickStart.type, _start)
register(ev.PickReveal.type, lambda e, c: RevealBeat(e))
register(ev.PickEnd.type, lambda e, c: EndBeat(e))
add_rebuilder(rebuild_pick)
