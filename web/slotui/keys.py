"""Keyboard map: a key (``KeyboardEvent.code``) and the screen's context give an action.

Space spins and stops everywhere. Book of Spells adds every shortcut of its rules:
bet size Numpad+/-, Bet Max B, Collect Space/Enter/7/Numpad7, Paytable P/8/Numpad8,
Help H/9/Numpad9, Exit Q, Autoplay A, Spin S/0/Numpad0/Enter/Space, Lines Left/Right
and 1/2 (+Numpad), Gamble start 5/Numpad5, red 5/Numpad5, black 6/Numpad6, feature
start/play/hide Space/Enter/0/Numpad0/S.
"""

from __future__ import annotations

__all__ = ["action_for_key"]

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
}


def action_for_key(code: str, context: str) -> str | None:
    """The action for key ``code`` in ``context``.

    Contexts: ``idle``, ``spinning``, ``presenting``, ``collect_or_gamble``, ``gamble``,
    ``feature_start``, ``free_spins``, ``autoplay``, ``dialog``.
    """
    if context == "dialog":
        return "close" if code in ("Escape", "Space", "Enter", "KeyP", "KeyH") else None
    if code in _INFO:
        return _INFO[code]  # paytable and help open from anywhere
    if context == "autoplay":
        if code in ("KeyA", "Escape"):
            return "autoplay_stop"
        return "stop" if code in _SPIN else None
    if context in ("spinning", "presenting", "free_spins"):
        return "stop" if code in _SPIN else None
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
