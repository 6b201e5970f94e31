"""Keyboard map: a key (``KeyboardEvent.code``) and the screen's context give an action.

Space spins and stops everywhere. The shortcuts every game shares: bet size Numpad+/-,
Bet Max B, Collect Space/Enter/7/Numpad7, Paytable P/8/Numpad8, Help H/9/Numpad9, Exit Q,
Autoplay A, Sound on/off M, Spin S/0/Numpad0/Enter/Space, Lines Left/Right and 1/2 (+Numpad), Gamble
start 5/Numpad5, red 5/Numpad5, black 6/Numpad6, feature start Space/Enter/0/Numpad0/S,
and in a coin game coins per line 3/4 (+Numpad) and [/] (the bet-size keys set its coin size).
On a pick board: 1-9 open that cell, the arrow keys move the focus and Space or Enter
opens the focused cell.
"""

from __future__ import annotations

from .words import tr

__all__ = ["DIALOG_CLOSE", "action_for_key", "shortcuts"]

_SPIN = {"Space", "Enter", "NumpadEnter", "Digit0", "Numpad0", "KeyS"}
_COLLECT = {"Space", "Enter", "NumpadEnter", "Digit7", "Numpad7"}

_INFO = {
    "KeyP": "paytable",
    "Digit8": "paytable",
    "Numpad8": "paytable",
    "KeyH": "help",
    "Digit9": "help",
    "Numpad9": "help",
}

_IDLE = {
    "NumpadAdd": "bet_up",
    "NumpadSubtract": "bet_down",
    "Equal": "bet_up",
    "Minus": "bet_down",
    "KeyB": "bet_max",
    "KeyQ": "exit",
    "KeyA": "autoplay",
    "ArrowLeft": "lines_down",
    "ArrowRight": "lines_up",
    "Digit1": "lines_down",
    "Numpad1": "lines_down",
    "Digit2": "lines_up",
    "Numpad2": "lines_up",
    "Digit3": "coins_down",
    "Numpad3": "coins_down",
    "Digit4": "coins_up",
    "Numpad4": "coins_up",
    "BracketLeft": "coins_down",
    "BracketRight": "coins_up",
}


DIALOG_CLOSE = frozenset({"Escape", "Space", "Enter", "NumpadEnter", "KeyP", "Digit8", "Numpad8", "KeyH", "Digit9",
                          "Numpad9", "KeyA"})
"""In an open dialog these keys close it: Escape, Space and Enter, and every key that opens one."""


def action_for_key(code: str, context: str) -> str | None:
    """The action for key ``code`` in ``context``.

    Contexts: ``idle``, ``spinning``, ``presenting``, ``collect_or_gamble``, ``gamble``,
    ``feature_start``, ``free_spins``, ``pick``, ``autoplay``, ``dialog``.
    """
    if context == "dialog":
        return "close" if code in DIALOG_CLOSE else None
    if code == "KeyM":
        return "sound"  # sound on or off, from anywhere
    if code in _INFO:
        return _INFO[code]  # paytable and help open from anywhere
    if context == "autoplay":
        if code in ("KeyA", "Escape"):
            return "autoplay_stop"
        return "stop" if code in _SPIN else None
    if context in ("spinning", "presenting", "free_spins"):
        return "stop" if code in _SPIN else None
    if context == "pick":
        return _pick_action(code)
    if context == "feature_start":
        return "start_feature" if code in _SPIN else None
    if context == "gamble":
        if code in ("Digit5", "Numpad5"):
            return "red"
        if code in ("Digit6", "Numpad6"):
            return "black"
        return "collect" if code in _COLLECT else None
    if context == "collect_or_gamble":
        # On desktop the Bet Max button becomes the Gamble button while gambling is possible.
        if code in ("Digit5", "Numpad5", "KeyB"):
            return "gamble"
        if code in _COLLECT:
            return "collect"
        if code in _SPIN:
            return "spin"
        return _IDLE.get(code)
    if code in _SPIN:
        return "spin"
    return _IDLE.get(code)


_ARROWS = {"ArrowLeft": "pick_left", "ArrowRight": "pick_right", "ArrowUp": "pick_up", "ArrowDown": "pick_down"}


def _pick_action(code: str) -> str | None:
    """A key on a pick board: a digit opens that cell (1 is the first), arrows move, Enter opens."""
    for prefix in ("Digit", "Numpad"):
        if code.startswith(prefix) and code[len(prefix) :] in "123456789" and len(code) == len(prefix) + 1:
            return f"pick:{int(code[len(prefix):]) - 1}"
    if code in _ARROWS:
        return _ARROWS[code]
    if code in ("Space", "Enter", "NumpadEnter"):
        return "pick_enter"
    return None


_NAMES = {
    "ArrowLeft": "←",
    "ArrowRight": "→",
    "NumpadAdd": "Numpad+",
    "NumpadSubtract": "Numpad−",
    "Equal": "=",
    "Minus": "−",
    "BracketLeft": "[",
    "BracketRight": "]",
}
_WORDS = ("Space", "Enter", "NumpadEnter")
"""Keys named in the player's language (the catalogue's ``key.<code>``)."""
_ORDER = ("Space", "Enter", "NumpadEnter", "Arrow", "Digit", "Numpad", "Key")


def _key_names(codes: set[str] | frozenset[str]) -> str:
    """Key codes as the player reads them, in a fixed order: "Space, Enter, 0, Numpad0, S"."""

    def name(code: str) -> str:
        if code in _WORDS:
            return tr(f"key.{code}")
        if code in _NAMES:
            return _NAMES[code]
        if code.startswith("Numpad") and code[6:].isdigit():
            return tr("key.numpad", digit=code[6:])
        for prefix in ("Digit", "Key"):
            if code.startswith(prefix):
                return code[len(prefix) :]
        return code

    def rank(code: str) -> tuple[int, str]:
        return next((i for i, p in enumerate(_ORDER) if code.startswith(p)), len(_ORDER)), code

    return ", ".join(name(c) for c in sorted(codes, key=rank))


def shortcuts(
    *, lines: bool, gamble: bool, start: str, coins: bool = False, feature: bool = True, picks: bool = True
) -> list[str]:
    """Every keyboard shortcut, as the rules list them, from the same tables as
    `action_for_key` (``lines``: the lines can change; ``gamble``: the gamble is on;
    ``start``: what the feature keys start; ``coins``: a coin game, whose bet-size keys set
    the coin size; ``feature``: a round may wait on the player's Start; ``picks``: a round
    may show a pick)."""
    bet = {v: k for k, v in _IDLE.items()}
    def keys(*actions: str) -> str:
        return _key_names({c for c, a in _IDLE.items() if a in actions})

    out = [tr("keys.spin", keys=_key_names(_SPIN))]
    if feature:
        out.append(tr("keys.feature", keys=_key_names(_SPIN), start=start))
    out += [
        tr("keys.coin_size" if coins else "keys.bet_size", keys=keys("bet_up", "bet_down")),
        tr("keys.bet_max", keys=_key_names({bet["bet_max"]})),
    ]
    if coins:
        out.append(tr("keys.coins", keys=keys("coins_up", "coins_down")))
    if lines:
        out.append(tr("keys.lines", keys=keys("lines_up", "lines_down")))
    if gamble:
        out += [tr("keys.collect", keys=_key_names(_COLLECT)), tr("keys.gamble_start"), tr("keys.gamble_actions")]
    out += [
        tr("keys.paytable", keys=_key_names({c for c, a in _INFO.items() if a == "paytable"})),
        tr("keys.help", keys=_key_names({c for c, a in _INFO.items() if a == "help"})),
        tr("keys.exit", keys=_key_names({bet["exit"]})),
        tr("keys.autoplay", keys=_key_names({bet["autoplay"]})),
        tr("keys.sound"),
    ]
    if picks:
        out.append(tr("keys.pick"))
    out.append(tr("keys.dialog"))
    return out
