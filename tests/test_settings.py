"""Operator settings: one schema per game, checked in one place (`games.base.SettingsSchema`)."""

from __future__ import annotations

import json
import re

import pytest

from pyengine.data import parse_data
from pyengine.errors import EngineError, GameDataError
from pyengine.games import get_game
from pyengine.games.base import SETTING_MAX, Setting, SettingsSchema
from pyengine.session import Session
from tests.games import a_game, has_settings, lacks

SCHEMA = SettingsSchema("Test", (Setting("cap_x", 100, minimum=1), Setting("gamble", 1, flag=True)))


def test_defaults_and_overrides() -> None:
    assert SCHEMA.defaults() == {"cap_x": 100, "gamble": 1}
    assert SCHEMA.validate({"cap_x": 7, "gamble": False}) == {"cap_x": 7, "gamble": 0}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ([("cap_x", 1)], "operator settings must be a mapping"),
        ("cap_x=1", "operator settings must be a mapping"),
        ({"cap_x": SETTING_MAX + 1}, f"at most {SETTING_MAX:,}"),
        ({"cap_x": 10**5000}, "must be an integer of at least 1"),
        ({1: 2}, "unknown setting 1; the settings are cap_x, gamble"),
        ({"gamble": 2}, "must be 0, 1, true or false"),
    ],
)
def test_bad_settings_are_refused(settings: object, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        SCHEMA.validate(settings)


def test_a_game_without_settings_says_so() -> None:
    game = get_game(a_game(lacks(has_settings), "no operator settings"))
    with pytest.raises(EngineError, match=f"unknown setting 'x'; {re.escape(game.name)} has no operator settings"):
        game.validate_settings({"x": 1})


def test_a_session_refuses_settings_that_are_not_a_mapping() -> None:
    game_id = a_game(has_settings, "operator settings")
    name = next(iter(get_game(game_id).default_settings()))
    with pytest.raises(EngineError, match="must be a mapping"):
        Session(game_id, settings=[(name, 0)])  # type: ignore[arg-type]


def test_defaults_from_the_data_are_checked_and_name_the_field() -> None:
    specs = (Setting("cap_x", 0, minimum=1),)
    good = parse_data("g.json", json.dumps({"defaults": {"cap_x": 50}}))
    assert SettingsSchema.from_field("G", good.get("defaults"), specs).defaults() == {"cap_x": 50}
    bad = parse_data("g.json", json.dumps({"defaults": {"cap_x": 0}}))
    with pytest.raises(GameDataError, match=r"g\.json: field 'defaults\.cap_x': must be at least 1, not 0"):
        SettingsSchema.from_field("G", bad.get("defaults"), specs)
