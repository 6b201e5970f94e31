"""A small game that is not shipped: it proves the shared pick feature end to end.

`pick_fixture` is registered only by the tests (`pyengine.games.register`), in CPython
and in the test build of the site (``build.py build --fixture``).
"""
