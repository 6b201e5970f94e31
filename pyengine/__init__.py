"""pyengine: the pure-Python slot engine of the free-play slot studio.

Games are data plus a little composition; a round is a reproducible list of typed
events; money is exact; every stated RTP is computed exactly and checked by simulation.

>>> from pyengine import GAME_IDS, Session
>>> s = Session(GAME_IDS[0], balance=10_000, seed=42)
>>> s.spin()[0].type
'round_start'
"""

from .errors import EngineError
from .games import GAME_IDS, get_game
from .model import Bet
from .session import Session

__all__ = ["GAME_IDS", "Bet", "EngineError", "Session", "get_game"]
__version__ = "0.1.0"
