"""Shared test configuration.

Hypothesis runs derandomized (a fixed example order) and without an example database, so a
run on a clean CI machine tries exactly what it tried here: a failure is reproducible,
never a coin toss.
"""

from __future__ import annotations

from hypothesis import settings

from pyengine.games import register

# The fixture game (not shipped) is a registered game in every test of the run.
register("pick_fixture", "tests.fixture_game.pick_fixture")

settings.register_profile("project", derandomize=True, database=None, deadline=None, print_blob=True)
settings.load_profile("project")

# The browser fixtures live in one place so that every browser test module shares one site
# build, one server and one Chromium (two Playwright instances cannot run side by side).
from tests.browser.fixtures import browser, games, playwright, server, site, visit  # noqa: E402, F401
