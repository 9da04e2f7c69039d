"""Maps: carom's JSON, HaxBall stadiums, or the binary servers send."""

import os
from ctypes import byref

from . import _native
from ._native import lib
from .errors import check


class Map:
    """A validated map. Load one with Map.load(path), Map.parse_json(text),
    Map.parse_hbs(text) or Map.from_binary(data)."""

    def __init__(self, handle, owned=True):
        self._handle = handle
        self._owned = owned
        info = _native.MapInfo()
        check(lib.carom_map_get_info(handle, byref(info)))
        self.info = info
        self.name = info.name.decode()

    @classmethod
    def load(cls, path):
        out = _native.handle()
        check(lib.carom_map_load(os.fsencode(path), byref(out)))
        return cls(out)

    @classmethod
    def parse_json(cls, text):
        return cls._made_by(lib.carom_map_parse_json, text)

    @classmethod
    def parse_hbs(cls, text):
        return cls._made_by(lib.carom_map_parse_hbs, text)

    @classmethod
    def from_binary(cls, data):
        return cls._made_by(lib.carom_map_from_binary, data)

    @classmethod
    def _made_by(cls, function, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        out = _native.handle()
        check(function(data, len(data), byref(out)))
        return cls(out)

    @property
    def slots(self):
        return self.info.slots

    @property
    def hash(self):
        return self.info.hash

    def shapes(self):
        """The walls to draw (carom_shape): boxes, segments, then a stadium's walls."""
        return [self._item(lib.carom_map_shape, _native.Shape, i) for i in range(self.info.shapes)]

    def posts(self):
        return [self._item(lib.carom_map_post, _native.Circle, i) for i in range(self.info.posts)]

    def discs(self):
        return [self._item(lib.carom_map_disc, _native.Circle, i) for i in range(self.info.discs)]

    def goals(self):
        return [self._item(lib.carom_map_goal, _native.Goal, i) for i in range(self.info.goals)]

    def _item(self, function, kind, index):
        out = kind()
        check(function(self._handle, index, byref(out)))
        return out

    def close(self):
        if self._owned and self._handle:
            lib.carom_map_free(self._handle)
        self._handle = None

    def __del__(self):
        self.close()

    def __repr__(self):
        return f"<carom.Map {self.name} {self.info.team_size} v {self.info.team_size}>"
