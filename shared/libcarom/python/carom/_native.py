"""The C ABI of carom.h, declared for ctypes: structures and prototypes.

The library is found, in order: at $CAROM_LIBRARY (a path to libcarom.so),
beside this package, then where the system's loader looks (an installed
prefix in the loader's path, or LD_LIBRARY_PATH).
"""

import ctypes
import ctypes.util
import os
from ctypes import (
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_double,
    c_int,
    c_int32,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)

ABI_VERSION = 4
OBSERVE_HEAD = 4  # CAROM_OBSERVE_HEAD


def _load():
    tried = []
    explicit = os.environ.get("CAROM_LIBRARY")
    candidates = [explicit] if explicit else []
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "libcarom.so"))
    candidates += ["libcarom.so.1", ctypes.util.find_library("carom")]
    for candidate in candidates:
        if not candidate:
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError as e:
            tried.append(f"{candidate}: {e}")
            if candidate == explicit:
                break  # the caller named it: no other library stands in for it
    raise ImportError(
        "carom: cannot load libcarom (set CAROM_LIBRARY to its path, or install "
        "carom and add its lib directory to the loader's path); tried:\n  "
        + "\n  ".join(tried)
    )


lib = _load()

# Each structure below declares carom.h's struct `c_name`; the package's tests
# check every one against the layout C's compiler gives it (carom_abi_layout).


class MapInfo(Structure):
    c_name = "carom_map_info"
    _fields_ = [
        ("name", c_char * 65),
        ("width", c_double),
        ("height", c_double),
        ("team_size", c_uint32),
        ("slots", c_uint32),
        ("pucks", c_uint32),
        ("discs", c_uint32),
        ("shapes", c_uint32),
        ("posts", c_uint32),
        ("goals", c_uint32),
        ("match_seconds", c_uint32),
        ("score_limit", c_uint32),
        ("player_radius", c_double),
        ("puck_radius", c_double),
        ("hash", c_uint64),
    ]


class Shape(Structure):
    c_name = "carom_shape"
    _fields_ = [
        ("kind", c_int32),
        ("visible", c_int32),
        ("rgb", c_uint32),
        ("ax", c_double),
        ("ay", c_double),
        ("bx", c_double),
        ("by", c_double),
        ("cx", c_double),
        ("cy", c_double),
        ("nx", c_double),
        ("ny", c_double),
        ("offset", c_double),
        ("hx", c_double),
        ("hy", c_double),
    ]


class Circle(Structure):
    c_name = "carom_circle"
    _fields_ = [("x", c_double), ("y", c_double), ("radius", c_double), ("rgb", c_uint32)]


class Goal(Structure):
    c_name = "carom_goal"
    _fields_ = [
        ("defender", c_int32),
        ("ax", c_double),
        ("ay", c_double),
        ("bx", c_double),
        ("by", c_double),
    ]


class MatchInfo(Structure):
    c_name = "carom_match_info"
    _fields_ = [
        ("tick", c_uint64),
        ("phase", c_int32),
        ("score", c_uint32 * 2),
        ("ticks_left", c_uint64),
        ("slots", c_uint32),
        ("pucks", c_uint32),
        ("discs", c_uint32),
        ("players", c_uint32),
        ("seed", c_uint64),
    ]


class Disk(Structure):
    c_name = "carom_disk"
    _fields_ = [
        ("kind", c_int32),
        ("index", c_uint32),
        ("team", c_int32),
        ("active", c_int32),
        ("x", c_double),
        ("y", c_double),
        ("vx", c_double),
        ("vy", c_double),
        ("radius", c_double),
    ]


class Player(Structure):
    c_name = "carom_player"
    _fields_ = [
        ("slot", c_uint32),
        ("team", c_int32),
        ("active", c_int32),
        ("name", c_char * 33),
        ("goals", c_uint32),
        ("last_input", c_uint8),
    ]


class Event(Structure):
    c_name = "carom_event"
    _fields_ = [
        ("kind", c_int32),
        ("tick", c_uint64),
        ("team", c_int32),
        ("puck", c_uint32),
        ("scorer", c_int32),
        ("own_goal_by", c_int32),
        ("draw", c_int32),
    ]


class ReplayInfo(Structure):
    c_name = "carom_replay_info"
    _fields_ = [
        ("format_version", c_uint32),
        ("core_version", c_uint32),
        ("producer", c_char * 65),
        ("map_name", c_char * 65),
        ("seed", c_uint64),
        ("ticks", c_uint64),
        ("keyframes", c_uint32),
        ("has_footer", c_int32),
        ("final_hash", c_uint64),
        ("score", c_uint32 * 2),
        ("problem", c_char * 160),
    ]


class RosterEntry(Structure):
    c_name = "carom_roster_entry"
    _fields_ = [
        ("tick", c_uint64),
        ("slot", c_uint32),
        ("join", c_int32),
        ("bot", c_int32),
        ("name", c_char * 33),
    ]


class VerifyResult(Structure):
    c_name = "carom_verify_result"
    _fields_ = [
        ("ok", c_int32),
        ("ticks", c_uint64),
        ("final_hash", c_uint64),
        ("diverged", c_int32),
        ("divergence_tick", c_uint64),
        ("what", c_char * 256),
    ]


class ClientConfig(Structure):
    c_name = "carom_client_config"
    _fields_ = [
        ("name", c_char_p),
        ("room", c_int32),
        ("spectator", c_int32),
        ("token", c_uint64),
        ("map_dirs", c_char_p),
        ("map_cache", c_char_p),
        ("bot", c_int32),
        ("key_releases", c_int32),
        ("connect_token", POINTER(c_uint8)),
        ("connect_token_size", c_size_t),
    ]


class ClientInfo(Structure):
    c_name = "carom_client_info"
    _fields_ = [
        ("state", c_int32),
        ("client_id", c_uint32),
        ("room", c_uint32),
        ("slot", c_int32),
        ("team", c_int32),
        ("map_name", c_char * 65),
        ("has_map", c_int32),
        ("has_state", c_int32),
        ("server_tick", c_uint64),
        ("rtt_ms", c_double),
        ("ended", c_int32),
        ("exit_code", c_int32),
        ("message", c_char * 160),
        ("map_source", c_char * 160),
        ("full_states", c_uint64),
        ("state_check_failures", c_uint64),
        ("resyncs", c_uint64),
        ("bytes_in", c_uint64),
        ("bytes_out", c_uint64),
    ]


class SceneDisk(Structure):
    c_name = "carom_scene_disk"
    _fields_ = [
        ("x", c_double),
        ("y", c_double),
        ("radius", c_double),
        ("ink", c_int32),
        ("rgb", c_uint32),
        ("slot", c_int32),
    ]


class SceneHud(Structure):
    c_name = "carom_scene_hud"
    _fields_ = [
        ("score", c_uint32 * 2),
        ("ticks_left", c_uint64),
        ("phase", c_char * 16),
        ("banner", c_char * 96),
        ("clock", c_char * 16),
        ("phase_text", c_char * 96),
    ]


status = c_int
handle = c_void_p
_u8p = POINTER(c_uint8)

_PROTOTYPES = {
    "carom_abi_version": (c_uint32, []),
    "carom_version": (c_char_p, []),
    "carom_last_error": (c_char_p, []),
    "carom_input_toward": (c_uint8, [c_double, c_double, c_int]),
    "carom_map_load": (status, [c_char_p, POINTER(handle)]),
    "carom_map_parse_json": (status, [c_char_p, c_size_t, POINTER(handle)]),
    "carom_map_parse_hbs": (status, [c_char_p, c_size_t, POINTER(handle)]),
    "carom_map_from_binary": (status, [c_char_p, c_size_t, POINTER(handle)]),
    "carom_map_free": (None, [handle]),
    "carom_map_get_info": (status, [handle, POINTER(MapInfo)]),
    "carom_map_shape": (status, [handle, c_uint32, POINTER(Shape)]),
    "carom_map_post": (status, [handle, c_uint32, POINTER(Circle)]),
    "carom_map_disc": (status, [handle, c_uint32, POINTER(Circle)]),
    "carom_map_goal": (status, [handle, c_uint32, POINTER(Goal)]),
    "carom_match_create": (status, [handle, c_uint64, POINTER(handle)]),
    "carom_match_free": (None, [handle]),
    "carom_match_free_slot": (status, [handle, c_int32, POINTER(c_uint32)]),
    "carom_match_join": (status, [handle, c_uint32, c_char_p]),
    "carom_match_leave": (status, [handle, c_uint32]),
    "carom_match_step": (status, [handle, c_char_p, c_size_t, c_uint32]),
    "carom_matches_step": (
        status,
        [POINTER(handle), c_size_t, c_char_p, c_size_t, c_uint32, POINTER(c_int32)],
    ),
    "carom_matches_observe": (
        status,
        [POINTER(handle), c_size_t, POINTER(c_double), c_size_t, POINTER(c_size_t)],
    ),
    "carom_match_bot_input": (status, [handle, c_uint32, _u8p]),
    "carom_match_get_info": (status, [handle, POINTER(MatchInfo)]),
    "carom_match_state_hash": (status, [handle, POINTER(c_uint64)]),
    "carom_match_disks": (status, [handle, POINTER(Disk), c_size_t, POINTER(c_size_t)]),
    "carom_match_player": (status, [handle, c_uint32, POINTER(Player)]),
    "carom_match_events": (status, [handle, POINTER(Event), c_size_t, POINTER(c_size_t)]),
    "carom_match_save": (status, [handle, POINTER(handle)]),
    "carom_match_restore": (status, [handle, handle]),
    "carom_state_free": (None, [handle]),
    "carom_replay_open": (status, [c_char_p, POINTER(handle)]),
    "carom_replay_open_bytes": (status, [c_char_p, c_size_t, POINTER(handle)]),
    "carom_replay_free": (None, [handle]),
    "carom_replay_get_info": (status, [handle, POINTER(ReplayInfo)]),
    "carom_replay_map": (status, [handle, POINTER(handle)]),
    "carom_replay_roster": (
        status,
        [handle, POINTER(RosterEntry), c_size_t, POINTER(c_size_t)],
    ),
    "carom_replay_match": (handle, [handle]),
    "carom_replay_step": (status, [handle, c_uint64, POINTER(c_uint64)]),
    "carom_replay_seek": (status, [handle, c_uint64]),
    "carom_replay_match_at": (status, [handle, c_uint64, POINTER(handle)]),
    "carom_replay_verify": (status, [handle, POINTER(VerifyResult)]),
    "carom_token_keygen": (status, [c_char_p]),
    "carom_token_make": (
        status,
        [c_char_p, c_uint64, c_char_p, POINTER(c_char_p), c_size_t, c_char_p, c_size_t, c_uint64,
         c_uint64, c_char_p, c_size_t, POINTER(c_size_t)],
    ),
    "carom_client_config_init": (None, [POINTER(ClientConfig)]),
    "carom_client_create": (status, [POINTER(ClientConfig), POINTER(handle)]),
    "carom_client_free": (None, [handle]),
    "carom_client_start": (status, [handle, c_uint64]),
    "carom_client_receive": (status, [handle, c_char_p, c_size_t, c_uint64]),
    "carom_client_tick": (status, [handle, c_uint64]),
    "carom_client_set_input": (status, [handle, c_uint8]),
    "carom_client_quit": (status, [handle, c_uint64]),
    "carom_client_take_datagram": (status, [handle, c_char_p, c_size_t, POINTER(c_size_t)]),
    "carom_client_get_info": (status, [handle, POINTER(ClientInfo)]),
    "carom_client_map": (handle, [handle]),
    "carom_client_match": (handle, [handle]),
    "carom_client_scene": (
        status,
        [handle, c_uint64, POINTER(SceneDisk), c_size_t, POINTER(c_size_t), POINTER(SceneHud)],
    ),
}

for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes

if lib.carom_abi_version() != ABI_VERSION:
    raise ImportError(
        f"carom: libcarom speaks ABI {lib.carom_abi_version()}, this package {ABI_VERSION}"
    )
