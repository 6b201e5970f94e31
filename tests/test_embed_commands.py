"""The embedding page's commands (`slotui.embedapi`), on a real session in CPython: each
one done when the game can do it, refused with why (and nothing done) when it cannot, and
the messages that go with them (``balance``, ``noFunds``, ``exit``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pyengine.autoplay import AutoplayLimits
from slotui.embedapi import COMMANDS, PAUSED_TEXT, Commands
from slotui.words import tr
from tests.client_support import FakeHost, Rig, find_seed, idle, make_rig

ROOT = Path(__file__).resolve().parent.parent


class Host(FakeHost):
    """The page as the commands see it: the fake host, and the dialogs it closed."""

    closed_dialogs = 0

    def close_dialogs(self) -> None:
        self.closed_dialogs += 1


def rig(**kw: Any) -> tuple[Rig, Commands, Host]:
    r = make_rig(find_seed("loss"), **kw)
    host = Host()
    r.controller.host = host
    commands = Commands(r.controller, host, lambda: r.controller.now)
    return r, commands, host


def test_the_page_and_the_game_know_the_same_commands() -> None:
    """embed.js forwards exactly the commands the game runs."""
    js = (ROOT / "web" / "embed.js").read_text()
    listed = re.search(r"export const COMMANDS = \[(.*?)\];", js, re.S)
    assert listed is not None
    assert tuple(re.findall(r'"(\w+)"', listed.group(1))) == COMMANDS
    _, commands, _ = rig()
    for name in COMMANDS:
        assert callable(getattr(commands, f"_cmd_{name}")), name


def test_spin_starts_one_round_and_a_second_is_refused() -> None:
    r, commands, host = rig()
    before = r.session.balance
    first = commands.run("spin")
    assert first["ok"] is True
    assert r.session.balance == before - r.session.bet.total
    second = commands.run("spin")
    assert second == {"ok": False, "reason": "a round is being played", "state": second["state"]}
    assert r.session.balance == before - r.session.bet.total  # nothing more was staked
    r.settle()
    assert commands.run("getState")["state"]["canSpin"] is True
    # The balance the meters show is posted whenever it changes, ending where the round ends.
    assert host.posted("balance")[-1] == {"balance": r.session.balance}


def test_a_spin_the_balance_cannot_pay_posts_no_funds_and_changes_nothing() -> None:
    r, commands, host = rig(balance=1)
    snapshot = r.session.snapshot()
    result = commands.run("spin")
    assert result["ok"] is False
    assert "too small for the bet" in result["reason"]
    assert host.posted("noFunds") == [{"balance": 1, "bet": r.session.bet.total}]
    assert result["state"]["canSpin"] is False
    assert r.session.snapshot() == snapshot


def test_pause_holds_the_clock_and_the_input_until_resume() -> None:
    r, commands, host = rig()
    assert commands.run("spin")["ok"]
    r.run(100)
    assert commands.run("pause")["ok"]
    assert commands.run("pause")["reason"] == "the game is already paused"
    moving = r.controller.view.reels.moving
    events_left = len(r.controller.queue)
    r.run(20_000)  # nothing moves while paused, however long
    assert r.controller.view.reels.moving == moving
    assert len(r.controller.queue) == events_left
    r.controller.press("stop", r.controller.now)
    assert host.announcements[-1] == tr(PAUSED_TEXT) == "The game is paused by the page it is shown in."
    state = commands.run("getState")["state"]
    assert state["paused"] is True
    assert state["state"] == "paused"
    assert commands.run("spin")["reason"] == "the game is paused: send resume first"
    assert commands.run("resume")["ok"]
    assert commands.run("resume")["reason"] == "the game is not paused"
    r.settle()
    assert idle(r.controller)
    assert commands.run("getState")["state"]["inRound"] is False


def test_stop_autoplay_only_when_it_runs() -> None:
    r, commands, _ = rig()
    assert commands.run("stopAutoplay") == {
        "ok": False, "reason": "no autoplay is running", "state": commands.state(),
    }
    assert r.controller.start_autoplay(AutoplayLimits(rounds=10)) is None
    assert commands.run("spin")["reason"] == "autoplay is running: send stopAutoplay first"
    assert commands.run("stopAutoplay")["ok"]
    r.settle()
    assert r.controller.autoplay is None


def test_mute_and_unmute_say_when_there_is_nothing_to_change() -> None:
    r, commands, _ = rig()
    sound = r.controller.sound
    sound.set_muted(muted=True)
    assert commands.run("mute")["reason"] == "the sound is already off"
    assert commands.run("unmute")["ok"]
    assert sound.muted is False
    assert commands.state()["muted"] is False
    assert commands.run("unmute")["reason"] == "the sound is already on"
    assert commands.run("mute")["ok"]
    assert sound.muted is True


def test_the_paytable_and_the_rules_open_their_dialogs() -> None:
    _, commands, host = rig()
    assert commands.run("openPaytable")["ok"]
    assert commands.run("openRules")["ok"]
    assert host.dialogs == ["paytable", "help"]


def test_close_saves_tells_the_host_and_refuses_what_follows() -> None:
    r, commands, host = rig()
    assert commands.run("close")["ok"]
    assert host.posted("exit") == [{"balance": r.session.balance, "closed": True}]
    assert host.closed_dialogs == 1
    assert host.saves
    assert commands.run("spin")["reason"] == "the game was closed"
    assert commands.run("close")["reason"] == "the game is already closed"
    r.controller.press("spin", r.controller.now)
    assert r.session.in_round is False


def test_an_unknown_command_is_refused_with_the_list() -> None:
    _, commands, _ = rig()
    result = commands.run("deposit")
    assert result["ok"] is False
    assert "“deposit” is not a command" in result["reason"]
    assert all(name in result["reason"] for name in COMMANDS)
