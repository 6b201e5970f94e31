"""Helpers the games' data tests share."""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["edited"]


def edited(root: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of a game's data with ``changes`` applied: ``a__b=v`` sets ``data["a"]["b"] = v``."""
    data: dict[str, Any] = copy.deepcopy(root)
    for path, value in changes.items():
        node = data
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return data
