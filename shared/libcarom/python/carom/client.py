"""A client without sockets: you own the socket and the clock."""

import os
import random
from ctypes import byref, c_size_t, c_uint8, create_string_buffer

from . import _native
from ._native import lib
from .errors import check
from .maps import Map
from .match import Match
from .tokens import token_from_text

IDLE, CONNECTING, CONNECTED, CLOSED = 0, 1, 2, 3
LEFT_INK, RIGHT_INK, PUCK_INK, OWN_INK, DISC_INK = 0, 1, 2, 3, 4
MAX_DATAGRAM = 1200


class Client:
    """carom-client's model: feed it the server's datagrams and the time
    (receive), tick it 60 times a second (tick), send what it gives
    (datagrams), steer it (set_input), and read the match or the scene."""

    def __init__(self, name="player", room=-1, spectator=False, token=None,
                 map_dirs=(), map_cache=None, bot=False, connect_token=None):
        """`token`: the reclaim token (random by default); `connect_token`:
        a connect token (bytes, or its text) for a server started with
        --token-key."""
        config = _native.ClientConfig()
        lib.carom_client_config_init(byref(config))
        self._strings = [name.encode(), ":".join(os.fspath(d) for d in map_dirs).encode()]
        config.name = self._strings[0]
        config.room = room
        config.spectator = 1 if spectator else 0
        config.token = token if token is not None else random.getrandbits(64)
        config.map_dirs = self._strings[1]
        if map_cache is not None:
            self._strings.append(os.fsencode(map_cache))
            config.map_cache = self._strings[-1]
        config.bot = 1 if bot else 0
        if connect_token is not None:
            if isinstance(connect_token, str):
                connect_token = token_from_text(connect_token)
            self._token = (c_uint8 * len(connect_token)).from_buffer_copy(connect_token)
            config.connect_token = self._token
            config.connect_token_size = len(connect_token)
        out = _native.handle()
        check(lib.carom_client_create(byref(config), byref(out)))
        self._handle = out
        self._buffer = create_string_buffer(MAX_DATAGRAM)
        self._scene = (_native.SceneDisk * 128)()

    def __del__(self):
        if getattr(self, "_handle", None):
            lib.carom_client_free(self._handle)
            self._handle = None

    def start(self, now_ms):
        check(lib.carom_client_start(self._handle, now_ms))

    def receive(self, data, now_ms):
        check(lib.carom_client_receive(self._handle, data, len(data), now_ms))

    def tick(self, now_ms):
        check(lib.carom_client_tick(self._handle, now_ms))

    def set_input(self, input_byte):
        check(lib.carom_client_set_input(self._handle, input_byte))

    def quit(self, now_ms):
        check(lib.carom_client_quit(self._handle, now_ms))

    def datagrams(self):
        """The datagrams waiting to be sent, oldest first (taken from the queue)."""
        size = c_size_t()
        while True:
            check(lib.carom_client_take_datagram(self._handle, self._buffer, MAX_DATAGRAM,
                                                 byref(size)))
            if size.value == 0:
                return
            yield self._buffer.raw[: size.value]

    def info(self):
        out = _native.ClientInfo()
        check(lib.carom_client_get_info(self._handle, byref(out)))
        return out

    def map(self):
        """The room's map (None until found or fetched); read-only, valid until
        the next call on the client."""
        handle = lib.carom_client_map(self._handle)
        return Map(handle, owned=False) if handle else None

    def match(self):
        """The client's exact copy of the room's match (None until a state came);
        read-only, valid until the next call on the client."""
        handle = lib.carom_client_match(self._handle)
        return Match(_borrowed=handle, _owner=self) if handle else None

    def scene(self, now_ms):
        """What carom-client would draw at now_ms: (disks, hud)."""
        count = c_size_t()
        hud = _native.SceneHud()
        check(lib.carom_client_scene(self._handle, now_ms, self._scene, len(self._scene),
                                     byref(count), byref(hud)))
        if count.value > len(self._scene):
            self._scene = (_native.SceneDisk * count.value)()
            return self.scene(now_ms)
        return list(self._scene[: count.value]), hud
