"""Book of Spells' showcase finder: which of the report's ``features`` a round shows.

A round shows ``free_spins`` when its base spin awards the feature, ``three_books`` /
``four_books`` / ``five_books`` for the Books of that spin, ``expanding_<symbol>`` for the
expanding symbol drawn and ``retrigger`` when a free spin awards more spins: the
definitions of the odds in `pyengine.games.book_of_spells.report.features`. It reads only
the events' types and fields (it runs on a million rounds in `pyengine.showcase`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...events import Event, ExpandingSymbolChosen, FreeSpinsAwarded, Spin

__all__ = ["BOOK", "shown"]

BOOK = "BOOK"
"""The symbol that is wild and scatter (the data's id)."""

_BOOKS = {3: "three_books", 4: "four_books", 5: "five_books"}


def shown(events: Sequence[Event]) -> set[str]:
    """The feature ids that one finished round's ``events`` show."""
    out: set[str] = set()
    base: Spin | None = None
    for e in events:
        if isinstance(e, Spin):
            if base is None:
                base = e
        elif isinstance(e, FreeSpinsAwarded):
            if e.retrigger:
                out.add("retrigger")
            else:
                out.add("free_spins")
                if base is not None:
                    books = sum(column.count(BOOK) for column in base.window)
                    if books in _BOOKS:
                        out.add(_BOOKS[books])
        elif isinstance(e, ExpandingSymbolChosen):
            out.add("expanding_" + e.symbol.lower())
    return out
