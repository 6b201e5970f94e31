"""The games' screens: one package per game, ``slotui.games.<id>``, named by the game's
plug-in (`pyengine.games.Plugin.screen`).

The shared client never imports a game's screen by name: it asks the plug-in. On the page
each game's package travels with its art (``static/games/<id>/client.zip``) and is put on
this package's ``__path__`` when that game's page opens (`slotui.browser.load_screen`).
"""
