"""The page's words: the catalogues boot.js fetched for the page's language (``lang=``,
else the browser's), given to `slotui.words` before the game's first word.

boot.js fetches ``lang/<lang>.json`` (the shared client's) and
``static/games/<id>/lang/<lang>.json`` (the game's screen package's) beside the runtime and
puts the page's own words on it (web/words.js); this hands the same catalogues to Python.
With ``debug=1`` every string given out is kept (`words.record`), and the page can be asked
which of the texts it shows came from no catalogue (``slotStudio.strays(texts)``).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from pyengine.games import plugin, register

from slotui import jspage, words

__all__ = ["load", "package_of", "strays"]


def package_of(screen: str) -> str:
    """The package whose catalogue a screen module speaks from (its own, for a package)."""
    spec = importlib.util.find_spec(screen)
    if spec is not None and spec.submodule_search_locations is not None:
        return screen
    return screen.rpartition(".")[0]


def strays(texts: list[str], drawn: list[str], packages: tuple[str, ...] = (words.SHARED,)) -> list[str]:
    """Of the texts a page shows (``texts``) and draws (``drawn``), those no catalogue gave:
    given out by Python (`words.given`), or, for the page's own words (play.html's
    ``data-i18n``, put on it by web/words.js), a value of the language's catalogues."""
    given = words.given()
    values = {v for p in packages for v in words.catalogue(p).values() if not words.fields(v)}
    shown = given | values  # the page's own words too (those without fields, as boot.js puts them)
    return [t for t in texts if not words.from_catalogue(t, shown)] + [
        t for t in drawn if not words.from_catalogue(t, given)
    ]


async def load(game_id: str, *, debug: bool = False) -> list[Any]:
    """Speak the page's language with its catalogues; the proxies to keep alive."""
    page = await jspage.STUDIO.wordsReady
    lang = str(page.lang)
    words.use(lang)
    words.provide(words.SHARED, lang, page.shared.to_py())
    listed = jspage.STUDIO.games.games.to_py()
    info: dict[str, Any] = next((g for g in listed if g.get("id") == game_id), {})
    if info.get("module"):
        register(game_id, str(info["module"]))  # a game not shipped with the engine (as browser.App does)
    words.provide(package_of(plugin(game_id).screen), lang, page.game.to_py())
    words.allowed.update(str(sym.get("id", "")) for sym in info.get("symbols", ()) if isinstance(sym, dict))
    words.allowed.update(str(g.get("name", "")) for g in listed)  # brands: the same in every language
    words.allowed.update(str(g.get("currency", "")) for g in listed)
    if not debug:
        return []
    words.record()
    drawn: set[str] = set()
    words.drawn = drawn

    own = (words.SHARED, package_of(plugin(game_id).screen))

    def check(texts: Any) -> Any:
        return to_js(strays(list(texts.to_py()), sorted(drawn), own))

    proxy = create_proxy(check)
    jspage.STUDIO.strays = proxy
    return [proxy]
