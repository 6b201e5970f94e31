"""Pure win evaluators: a window and the rules go in, wins come out."""

from .cascade import positions_of_wins, refill
from .expanding import ExpandedResult, evaluate_expanding
from .lines import LineEvaluator, LineResult
from .scatter import ScatterResult, evaluate_scatter

__all__ = [
    "ExpandedResult",
    "LineEvaluator",
    "LineResult",
    "ScatterResult",
    "evaluate_expanding",
    "evaluate_scatter",
    "positions_of_wins",
    "refill",
]
