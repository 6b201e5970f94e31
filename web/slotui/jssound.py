"""The page's sound, fetched once the game is ready: the first load carries none of it.

The cue code (`slotui.cues`, every game's voice: ``slotui/games/<id>/sound.py``) and the
Web Audio side (`slotui.webaudio`, which loads ``sound.js``) travel in ``sound.zip``, made
by the build. `attach_app` fetches it, puts its folders on the ``__path__`` of the packages
already imported (``slotui`` and the game's screen package: zipimport reads the modules and
their bytecode in place), and hands the page to `webaudio.attach_app`, which puts the real
`cues.Sound` in the place of the controller's silent `slotui.sound.Sound`. Until then,
nothing is scheduled, as before the first tap or key.

The player's sound settings (muted, the volume: ``slotstudio:v1:sound``) are put on the
silent stand-in by `restore` before the game's first frame, so the speaker shows them from
the start, and a mute pressed before ``sound.zip`` arrives is what the real sound takes
over; an embed starts muted.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import zipfile
from typing import Any

from slotui import jspage
from slotui.jspage import nil

__all__ = ["SOUND_KEY", "SOUND_ZIP", "attach_app", "mount", "restore", "saved"]

SOUND_KEY = "slotstudio:v1:sound"
"""Where the player's sound settings are kept (localStorage): ``{"muted", "volume"}``."""

SOUND_ZIP = "./sound.zip"
"""The sound code's archive, beside the page (`build.py`'s ``sound_zip``)."""


def mount(path: str) -> list[str]:
    """Put the folders of the archive at ``path`` on the ``__path__`` of the packages they
    extend (those already imported: ``slotui``, ``slotui.games.<id>``); the folders added."""
    with zipfile.ZipFile(path) as zf:
        folders = {name.rpartition("/")[0] for name in zf.namelist()}
    added = []
    for name, module in list(sys.modules.items()):
        folder = name.replace(".", "/")
        where = getattr(module, "__path__", None)
        if where is None or folder not in folders:
            continue
        entry = f"{path}/{folder}"
        if entry not in where:
            where.append(entry)
            added.append(entry)
    importlib.invalidate_caches()
    return added


def saved() -> dict[str, Any]:
    """The saved sound settings; ``{}`` when there are none or they are unreadable (dropped)."""
    raw = jspage.window.localStorage.getItem(SOUND_KEY)
    if nil(raw):
        return {}
    try:
        text = str(raw)
        got = json.loads(text) if len(text) < 200 else {}
        return got if isinstance(got, dict) else {}
    except ValueError:  # unreadable: dropped, never fatal
        jspage.window.localStorage.removeItem(SOUND_KEY)
        return {}


def restore(app: Any) -> None:
    """The saved settings on the page's sound (the stand-in, before the first frame); an
    embed starts muted whatever was saved. Nothing is written."""
    sound = app.controller.sound
    got = saved()
    volume = got.get("volume", sound.volume)
    if isinstance(volume, int | float) and not isinstance(volume, bool):
        sound.volume = min(max(float(volume), 0.0), 1.0)
    sound.muted = True if app.embed else bool(got.get("muted", False))


async def _fetch() -> None:
    """``sound.zip`` onto Python's file system and its folders mounted (once)."""
    if importlib.util.find_spec("slotui.cues") is not None:
        return  # mounted already (or a checkout, where every module is on disk)
    res = await jspage.js.fetch(SOUND_ZIP)
    if not res.ok:
        raise RuntimeError(f"{SOUND_ZIP}: HTTP {res.status}")
    path = os.path.abspath("sound.zip")
    with open(path, "wb") as fh:
        fh.write(bytes((await res.arrayBuffer()).to_py()))
    mount(path)


async def attach_app(app: Any) -> list[Any]:
    """The page's sound for the app (`browser.App`): the proxies to keep alive."""
    await _fetch()
    webaudio = importlib.import_module("slotui.webaudio")
    proxies: list[Any] = await webaudio.attach_app(app)
    return proxies
