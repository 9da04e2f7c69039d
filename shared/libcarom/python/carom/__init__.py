"""carom from Python: maps, the match, replays and a client without sockets,
over libcarom's C ABI (ctypes: nothing else to install).

    import carom
    arena = carom.Map.load("arena.json")
    match = carom.Match(arena, seed=1)
    match.join(0, "me")
    match.step(bytes([carom.input_toward(1, 0)] + [0] * (arena.slots - 1)), ticks=4)
"""

from ._native import ABI_VERSION, lib
from .client import CLOSED, CONNECTED, CONNECTING, IDLE, MAX_DATAGRAM, Client
from .errors import CaromError
from .maps import Map
from .match import (DISC, Batch, END, FINISHED, GOAL, GOAL_PAUSE, KICK, KICKOFF, MOVE, PLAYER, PLAYING,
                    PUCK, Match, State, input_toward)
from .replay import Replay
from .tokens import (MAX_CONNECT_TOKEN, make_token, read_token_key, token_from_text, token_keygen,
                     token_text)

__version__ = lib.carom_version().decode()
TICK_RATE = 60

__all__ = [
    "ABI_VERSION", "TICK_RATE", "Batch", "CaromError", "Client", "Map", "Match", "Replay", "State",
    "input_toward", "MOVE", "KICK", "PLAYING", "GOAL_PAUSE", "FINISHED", "PUCK", "PLAYER",
    "DISC", "GOAL", "KICKOFF", "END", "IDLE", "CONNECTING", "CONNECTED", "CLOSED",
    "MAX_DATAGRAM", "MAX_CONNECT_TOKEN", "make_token", "read_token_key", "token_from_text",
    "token_keygen", "token_text",
]
