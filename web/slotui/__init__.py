"""slotui: the game client's logic, in plain Python.

State machine, animation timelines, layout and drawing behind a small canvas interface.
It runs unchanged in CPython (tests, against `canvas.RecordingCanvas`) and in the browser
(``web/main.py`` adapts a real canvas and the page). It only plays the engine's event log;
it never decides an outcome.
"""
