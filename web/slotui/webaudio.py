"""The page's sound: `cues.Sound` played through ``sound.js`` (Web Audio), the player's
sound settings and the Settings volume.

Like `slotui.cues`, not on the first load: it travels in ``sound.zip`` (`slotui.jssound`
fetches it once the game is ready and calls `attach_app`).

``sound.js`` is fetched once the game is ready (the first load does not carry it); it makes
one AudioContext on the first tap or key (or resumes it) and suspends it while the page is
hidden. Muted or volume, remembered in localStorage (``slotstudio:v1:sound``); an embed
(``embed=1``) starts muted until the player taps the speaker. With ``debug=1``:
``slotStats.sounds`` lists every cue scheduled (``[name, context time]``),
``slotStats.audio`` the context's state (``none`` before the first gesture) and
``slotStats.soundMuted`` whether sound is off.
"""

from __future__ import annotations

import json
from typing import Any

from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from slotui import jspage
from slotui.jspage import nil
from slotui.jssound import SOUND_KEY, saved
from slotui.cues import WAVES, Cue, Sound, install

__all__ = ["SOUND_KEY", "WebAudioOut", "attach", "attach_app", "flat"]

_WAVE = {w: i for i, w in enumerate(WAVES)}


def flat(notes: Cue) -> list[float]:
    """A cue's notes as ``sound.js`` takes them: seven numbers each."""
    out: list[float] = []
    for n in notes:
        out += [n.freq, n.dur, n.at, float(_WAVE.get(n.wave, 0)), n.gain, n.to, n.attack]
    return out


class WebAudioOut:
    """`sound.Out` on ``sound.js``'s audio object."""

    def __init__(self, audio: Any) -> None:
        self.audio = audio

    @property
    def running(self) -> bool:
        return bool(self.audio.running())

    def time(self) -> float:
        return float(self.audio.time())

    def play(self, notes: Cue, at: float) -> Any:
        return self.audio.play(to_js(flat(notes)), at)

    def stop(self, handle: Any, when: float) -> None:
        self.audio.stop(handle, when)

    def set_level(self, volume: float, *, muted: bool) -> None:
        self.audio.setLevel(volume, muted)


async def attach(sound: Sound, *, embed: bool, save: bool, stats: Any | None) -> list[Any]:
    """Give ``sound`` its output once ``sound.js`` has loaded; the proxies to keep alive.
    Its settings are the player's as they stand (`jssound.restore` put the saved ones on the
    stand-in at the start, and a mute pressed since is kept)."""
    module = await jspage.STUDIO.loadSound()
    audio = module.createAudio()
    sound.attach(WebAudioOut(audio))
    audio.startIfAllowed()  # the page had a tap or key already (sticky activation): the context starts
    proxies: list[Any] = []
    slider = jspage.document.getElementById("set-volume")
    slider = None if nil(slider) else slider
    if slider is not None:
        slider.value = str(round(sound.volume * 100))

        def on_volume(*_args: Any) -> None:
            sound.set_volume(float(str(slider.value) or 0) / 100.0)

        proxies.append(create_proxy(on_volume))
        slider.addEventListener("input", proxies[-1])

    def changed(s: Sound) -> None:
        if save and not embed:
            jspage.window.localStorage.setItem(SOUND_KEY, json.dumps({"muted": s.muted, "volume": s.volume}))
        if stats is not None:
            stats.soundMuted = s.muted

    sound.changed.append(changed)
    kept = saved()
    if save and not embed and (kept.get("muted", False), kept.get("volume", sound.volume)) != (
        sound.muted, sound.volume):
        changed(sound)  # the player changed them on the stand-in, before the sound code came
    if stats is not None:
        stats.sounds = to_js([])
        stats.soundMuted = sound.muted
        stats.audio = str(audio.state)
        sound.listeners.append(lambda name, t: stats.sounds.push(to_js([name, round(t, 3)])))

        def on_state(state: Any) -> None:
            stats.audio = str(state)

        proxies.append(create_proxy(on_state))
        audio.onstate = proxies[-1]
    return proxies


async def attach_app(app: Any) -> list[Any]:
    """`attach` for the page's app (`browser.App`), its silent sound replaced by the real one
    (`cues.install`): a replay saves no setting."""
    stats = app.stats if app.debug else None
    return await attach(install(app.controller), embed=app.embed, save=app.replay is None, stats=stats)
