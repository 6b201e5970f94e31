"""Sound in CPython: `slotui.sound` under the real controller, with a recording output.

What is asserted is what was scheduled (cue names) and why, never when it sounds: a spin
schedules its whirr and one stop per reel, a win its chime by size and a loss none; every
game's golden rounds (its features) schedule the cues of their events; muted, or before
the audio context runs, nothing is scheduled; a quick stop and the round's end silence what
is still to sound; turbo shortens cues and drops the count-up's ticks. Every game has a
voice of its own that gives every cue. No game is named here: the games are asked.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games import GAME_IDS, get_game, plugin
from pyengine.link import link_of_record, link_session, replay_round
from slotui import replaymode
from slotui.controller import Controller
from slotui.keys import action_for_key
from slotui import sound as quiet
from slotui.cues import CUES, FAST_CUT, PLAIN, WAVES, Character, Note, Sound, cue_of, install, voice, voice_of, win_cue
from slotui.stage import screen_for
from tests.client_support import GAME, Rig, find_seed, idle, make_rig, play_round, wall_clock
from tests.golden_cases import golden_files


class ClockOut:
    """A recording `sound.Out` whose clock is the controller's."""

    def __init__(self, c: Controller, *, running: bool = True) -> None:
        self.c = c
        self.running = running
        self.played: list[tuple[float, tuple[Note, ...]]] = []
        self.stopped: list[tuple[int, float]] = []
        self.level: tuple[float, bool] = (1.0, False)

    def time(self) -> float:
        return self.c.now / 1000.0

    def play(self, notes: tuple[Note, ...], at: float) -> int:
        self.played.append((at, notes))
        return len(self.played) - 1

    def stop(self, handle: Any, when: float) -> None:
        self.stopped.append((int(handle), when))

    def set_level(self, volume: float, *, muted: bool) -> None:
        self.level = (volume, muted)


def heard(seed: int, *, game: str = GAME, turbo: bool = False, running: bool = True,
          muted: bool = False) -> tuple[Rig, ClockOut]:
    r = make_rig(seed, game=game, turbo=turbo)
    out = ClockOut(r.controller, running=running)
    install(r.controller).attach(out)
    r.controller.sound.muted = muted
    return r, out


def play(r: Rig) -> None:
    """A round as a player plays it: spin, Start, the first cell of a pick, and Collect."""

    def collect(c: Controller) -> None:
        if idle(c) and c.pending_kind == "collect_or_gamble":
            c.press("collect", c.now)

    play_round(r, watch=collect)


def names(r: Rig) -> list[str]:
    return [n for n, _ in r.controller.sound.log]


def reels(game: str = GAME) -> int:
    return len(get_game(game).describe()["reels"]["base"])


# -- the module on its own ------------------------------------------------------------------------
def test_a_voice_gives_every_cue_in_its_character() -> None:
    v = voice(Character(root=200.0), spin=(Note(100.0),))
    assert set(v.cues) == set(CUES)
    assert v.cues["spin"] == (Note(100.0),)
    for cue in PLAIN.cues.values():
        assert cue
        assert all(n.wave in WAVES and n.freq > 0 and 0 < n.gain <= 0.5 and n.dur > 0 for n in cue)


def test_a_wins_size_chooses_its_chime() -> None:
    assert win_cue(10, 100) == "win_small"
    assert win_cue(1500, 100) == "win_big"
    assert win_cue(5000, 100) == "win_mega"


def test_events_have_cues_and_a_game_adds_its_own() -> None:
    assert cue_of(ev.FreeSpinsAwarded(10, 10, retrigger=False)) == ("feature_trigger", 0)
    assert cue_of(ev.FreeSpinsAwarded(5, 15, retrigger=True)) == ("retrigger", 0)
    assert cue_of(ev.ChoiceMade("feature_start", "start")) == ("feature_start", 0)
    assert cue_of(ev.ChoiceMade("collect_or_gamble", "collect")) is None
    assert cue_of(ev.RoundStart("g", 1, 1, 1, 1, 1, 1)) is None
    own = voice(Character(), events={"round_start": "jackpot"}, steps={"round_start": "lines"})
    assert cue_of(ev.RoundStart("g", 1, 3, 1, 1, 1, 1), own) == ("jackpot", 3)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_its_own_voice(game: str) -> None:
    """Each game's screen hands over a voice of its own (its files, not the shared ones)
    that gives every cue; its own event types name cues that exist; no two games sound alike."""
    importlib.import_module(plugin(game).screen)
    named = screen_for(game).voice
    assert isinstance(named, str), f"{game} names no voice module (its voice is fetched once the game is ready)"
    v = voice_of(named)
    assert v is not PLAIN, f"{game} has no voice of its own"
    assert set(CUES) <= set(v.cues)
    assert set(v.events.values()) <= set(CUES)
    others = [voice_of(screen_for(g).voice) for g in GAME_IDS if g != game]
    assert all(o.cues != v.cues for o in others)


# -- a spin -----------------------------------------------------------------------------------------
def test_a_losing_spin_schedules_its_whirr_and_one_stop_per_reel_and_no_win() -> None:
    r, out = heard(find_seed("loss"))
    play(r)
    got = names(r)
    assert got.count("spin") == 1
    assert got.count("reel_stop") == reels()
    assert not [n for n in got if n.startswith("win_")]
    assert len(out.played) == len(got)


def test_a_winning_spin_schedules_a_win_chime_and_the_count_up() -> None:
    r, _ = heard(find_seed("win"))
    play(r)
    got = names(r)
    assert got.count("reel_stop") == reels()
    assert any(n.startswith("win_") for n in got)


def test_muted_or_without_a_running_context_nothing_is_scheduled() -> None:
    for muted, running in ((True, True), (False, False)):
        r, out = heard(find_seed("win"), muted=muted, running=running)
        play(r)
        assert r.controller.sound.log == [], (muted, running)
        assert out.played == [], (muted, running)


def test_the_speaker_and_m_toggle_sound_and_the_bar_shows_it() -> None:
    r, out = heard(find_seed("win"))
    assert action_for_key("KeyM", "idle") == "sound"
    assert action_for_key("KeyM", "spinning") == "sound"
    told: list[bool] = []
    r.controller.sound.changed.append(lambda s: told.append(s.muted))
    r.press("sound")
    r.run(50)
    assert r.controller.sound.muted
    assert out.level == (r.controller.sound.volume, True)
    b = r.host.controls.buttons["sound"]
    assert (b.label, b.pressed) == ("MUTED", False)
    r.press("sound")
    r.run(50)
    assert told == [True, False]
    assert r.host.controls.buttons["sound"].pressed


def test_a_replay_page_still_mutes() -> None:
    r, _ = heard(find_seed("win"))
    r.controller.lock("Replay")
    r.press("sound")
    assert r.controller.sound.muted


def test_a_quick_stop_skips_the_stops_still_to_come() -> None:
    r, out = heard(find_seed("loss"))
    r.press("spin")
    r.run(50)
    assert names(r).count("reel_stop") == reels()
    r.press("stop")
    r.settle()
    got = names(r)
    assert got.count("reel_stop") == reels() + 1  # the ones still to come became one, at once
    assert out.stopped
    assert r.controller.sound.cut >= 1


def test_nothing_sounds_after_the_round_presentation_has_ended() -> None:
    """The round's end stops whatever would still sound: every cue scheduled ends, or is
    stopped, by the time the presentation is over."""
    r, out = heard(find_seed("win"))
    play(r)
    end = r.controller.now / 1000.0
    stops = dict(out.stopped)
    for i, (at, notes) in enumerate(out.played):
        last = at + max(n.end for n in notes)
        assert last <= end + 1e-6 or stops.get(i, 1e9) <= end + 1e-6, (i, r.controller.sound.log[i])


def test_turbo_shortens_every_cue_and_drops_the_ticks() -> None:
    r, out = heard(find_seed("win"), turbo=True)
    play(r)
    assert "tick" not in names(r)
    assert all(n.at <= FAST_CUT and n.dur <= FAST_CUT for _, notes in out.played for n in notes)
    slow, _ = heard(find_seed("win"))
    play(slow)
    if slow.controller.view.banner is None and any(n in ("win_big", "win_mega") for n in names(slow)):
        assert "tick" in names(slow)


def test_a_paused_game_is_silent_until_it_resumes() -> None:
    """An embedding page's pause: what rings stops and nothing is scheduled; resume, and it is."""
    r, out = heard(find_seed("loss"))
    r.press("spin")
    r.run(50)
    r.controller.sound.pause()
    assert len(out.stopped) == len(out.played)
    before = len(out.played)
    r.controller.sound.play("spin")
    assert len(out.played) == before
    r.controller.sound.resume()
    r.controller.sound.play("spin")
    assert len(out.played) == before + 1


def test_volume_is_kept_between_0_and_1() -> None:
    s = Sound()
    s.set_volume(3)
    assert s.volume == 1.0
    s.set_volume(-1)
    assert s.volume == 0.0


# -- every game's features -----------------------------------------------------------------------------
def _golden(path: Path) -> tuple[str, list[ev.Event], Rig, ClockOut]:
    record = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    link = link_of_record(record)
    session = link_session(link, wall_clock)
    events = replay_round(session, link)
    r = make_rig(0, session=session, game=link.game, turbo=True)
    out = ClockOut(r.controller)
    install(r.controller).attach(out)
    replaymode.start_replay(r.controller, events)
    return link.game, events, r, out


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_every_golden_round_schedules_the_cues_of_its_events(path: Path) -> None:
    """Each game's golden rounds (its features, its wins, its gamble) played back: every
    event with a cue scheduled it, in order, and every spin one stop per reel."""
    game, events, r, _ = _golden(path)
    r.until(lambda c: idle(c) and not c.queue and c.beat is None, 600_000)
    v = r.controller.sound.voice
    extra = ("reel_stop", "tick", "scatter")  # (the stops, the count-up, a scatter win's chime)
    wanted = [found[0] for e in events if (found := cue_of(e, v)) is not None and found[0] not in extra]
    got = [n for n in names(r) if n not in extra and not n.startswith("win_")]
    assert got == wanted, game
    spins = sum(isinstance(e, ev.Spin) for e in events)
    assert names(r).count("reel_stop") >= spins * reels(game) - spins  # (a free spin's may be hurried)
    if any(getattr(e, "category", "") == "win" for e in events):
        assert any(n.startswith("win_") for n in names(r)), game


# -- before the sound code arrives --------------------------------------------------------------------
def test_before_the_sound_code_arrives_the_controller_is_silent_and_then_the_real_one_takes_over() -> None:
    """The controller starts with the silent stand-in (`slotui.sound.Sound`: the cue code
    comes in sound.zip once the game is ready): a whole winning round calls it and nothing is
    scheduled; the player's mute and volume and a pause are kept when the real one takes over
    (`cues.install`), which then schedules."""
    r = make_rig(find_seed("win"))
    stand_in = r.controller.sound
    assert type(stand_in) is quiet.Sound
    assert not stand_in.live
    play(r)
    assert stand_in.log == []
    assert stand_in.cut == 0
    stand_in.toggle()
    stand_in.set_volume(0.3)
    stand_in.pause()
    real = install(r.controller)
    assert r.controller.sound is real
    assert isinstance(real, Sound)
    assert (real.muted, real.volume, real.paused) == (True, 0.3, True)
    assert real.voice is voice_of(r.controller.screen.voice)
    assert install(r.controller) is real  # once
    out = ClockOut(r.controller)
    real.attach(out)
    real.resume()
    real.set_muted(muted=False)
    play(r)
    assert names(r).count("reel_stop") == reels()
    assert len(out.played) == len(names(r))
