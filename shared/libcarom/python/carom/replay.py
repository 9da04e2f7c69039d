"""Replays: read, stepped, sought through and verified."""

import os
from ctypes import byref, c_size_t, c_uint64

from . import _native
from ._native import lib
from .errors import check
from .maps import Map
from .match import Match


class Replay:
    """A .crpl file, re-simulated: `match` is the match at the replay's position."""

    def __init__(self, path=None, data=None):
        out = _native.handle()
        if data is not None:
            data = bytes(data)
            check(lib.carom_replay_open_bytes(data, len(data), byref(out)))
        else:
            check(lib.carom_replay_open(os.fsencode(path), byref(out)))
        self._handle = out
        self.info = _native.ReplayInfo()
        check(lib.carom_replay_get_info(out, byref(self.info)))
        self.match = Match(_borrowed=lib.carom_replay_match(out), _owner=self)

    def __del__(self):
        if getattr(self, "_handle", None):
            lib.carom_replay_free(self._handle)
            self._handle = None

    @property
    def ticks(self):
        return self.info.ticks

    def map(self):
        out = _native.handle()
        check(lib.carom_replay_map(self._handle, byref(out)))
        return Map(out)

    def roster(self):
        count = c_size_t()
        check(lib.carom_replay_roster(self._handle, None, 0, byref(count)))
        entries = (_native.RosterEntry * count.value)()
        check(lib.carom_replay_roster(self._handle, entries, count.value, byref(count)))
        return list(entries)

    def step(self, ticks=1):
        stepped = c_uint64()
        check(lib.carom_replay_step(self._handle, ticks, byref(stepped)))
        return stepped.value

    def seek(self, tick):
        check(lib.carom_replay_seek(self._handle, tick))

    def match_at(self, tick):
        """A new match in the replay's state after `tick`, to play on from
        there (the replay's position moves to `tick`)."""
        out = _native.handle()
        check(lib.carom_replay_match_at(self._handle, tick, byref(out)))
        return Match(_adopted=out)

    def verify(self):
        out = _native.VerifyResult()
        check(lib.carom_replay_verify(self._handle, byref(out)))
        return out
