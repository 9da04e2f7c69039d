"""The match: exactly carom-server's, stepped here."""

from ctypes import byref, c_double, c_int32, c_size_t, c_uint8, c_uint32, c_uint64

from . import _native
from ._native import lib
from .errors import check

MOVE = 0x10
KICK = 0x20
PLAYING, GOAL_PAUSE, FINISHED = 0, 1, 2
PUCK, PLAYER, DISC = 0, 1, 2
GOAL, KICKOFF, END = 0, 1, 2


def input_toward(dx, dy, kick=False):
    """The input byte nearest to the wish (dx, dy): one of 16 directions, or idle."""
    return lib.carom_input_toward(dx, dy, 1 if kick else 0)


class State:
    """A saved match state (Match.save), to restore into a match on the same map."""

    def __init__(self, handle):
        self._handle = handle

    def __del__(self):
        if self._handle:
            lib.carom_state_free(self._handle)
            self._handle = None


class Match:
    """A match on `map` with `seed`. A match borrowed from a replay or a
    client (`owner` set) is read-only, and valid until its owner's next call."""

    def __init__(self, map=None, seed=0, _borrowed=None, _owner=None, _adopted=None):
        if _borrowed is not None:
            self._handle = _borrowed
            self._owner = _owner  # keeps the owner alive while this view is
        elif _adopted is not None:  # a handle made elsewhere, now this object's
            self._handle = _adopted
            self._owner = None
        else:
            out = _native.handle()
            check(lib.carom_match_create(map._handle, seed, byref(out)))
            self._handle = out
            self._owner = None
        info = self.info()
        self.slots = info.slots
        self._disks = (_native.Disk * (info.pucks + info.slots + info.discs))()
        self._events = (_native.Event * 16)()

    def close(self):
        if self._owner is None and self._handle:
            lib.carom_match_free(self._handle)
        self._handle = None

    def __del__(self):
        self.close()

    def info(self):
        out = _native.MatchInfo()
        check(lib.carom_match_get_info(self._handle, byref(out)))
        return out

    @property
    def tick(self):
        return self.info().tick

    @property
    def phase(self):
        return self.info().phase

    @property
    def score(self):
        return tuple(self.info().score)

    def free_slot(self, team=None):
        slot = c_uint32()
        check(lib.carom_match_free_slot(self._handle, -1 if team is None else team, byref(slot)))
        return slot.value

    def join(self, slot, name):
        check(lib.carom_match_join(self._handle, slot, name.encode()))

    def leave(self, slot):
        check(lib.carom_match_leave(self._handle, slot))

    def step(self, inputs, ticks=1):
        """Steps `ticks` ticks holding inputs[slot] (bytes, or ints) for every slot."""
        data = inputs if isinstance(inputs, bytes) else bytes(inputs)
        check(lib.carom_match_step(self._handle, data, len(data), ticks))

    def bot_input(self, slot):
        """What the game's bot would play in `slot` now."""
        out = c_uint8()
        check(lib.carom_match_bot_input(self._handle, slot, byref(out)))
        return out.value

    def state_hash(self):
        out = c_uint64()
        check(lib.carom_match_state_hash(self._handle, byref(out)))
        return out.value

    def disks(self):
        """Every disk (carom_disk): the pucks, a disk per slot, the movable discs.
        The array is reused by the next call."""
        count = c_size_t()
        check(lib.carom_match_disks(self._handle, self._disks, len(self._disks), byref(count)))
        return self._disks

    def player(self, slot):
        out = _native.Player()
        check(lib.carom_match_player(self._handle, slot, byref(out)))
        return out

    def events(self):
        """The events of the last step (goals, kick-offs, the end)."""
        count = c_size_t()
        check(lib.carom_match_events(self._handle, self._events, len(self._events), byref(count)))
        if count.value > len(self._events):
            self._events = (_native.Event * count.value)()
            return self.events()
        return list(self._events[: count.value])

    def save(self):
        out = _native.handle()
        check(lib.carom_match_save(self._handle, byref(out)))
        return State(out)

    def restore(self, state):
        check(lib.carom_match_restore(self._handle, state._handle))


class Batch:
    """Several matches stepped, and observed, in one call each: what trainers
    do to keep the cost of Python small beside the step's."""

    def __init__(self, matches):
        self.matches = list(matches)
        count = len(self.matches)
        self._handles = (_native.handle * count)(*(m._handle for m in self.matches))
        self.phases = (c_int32 * count)()
        self.slots = sum(m.slots for m in self.matches)
        size = c_size_t()
        check(lib.carom_matches_observe(self._handles, count, None, 0, byref(size)))
        self._values = (c_double * size.value)()
        self.observation = memoryview(self._values).cast("B").cast("d")
        self.width = size.value // count if count else 0  # values per match, when alike

    def replace(self, index, match):
        """Puts `match` in the place of match `index` (an environment's reset)."""
        if match.slots != self.matches[index].slots:
            raise ValueError("a match of another slot count")
        self.matches[index] = match
        self._handles[index] = match._handle

    def step(self, inputs, ticks=1):
        """Steps every match `ticks` ticks: `inputs` holds each match's slot
        inputs in turn. Returns each match's phase after it (self.phases)."""
        data = inputs if isinstance(inputs, bytes) else bytes(inputs)
        check(lib.carom_matches_step(self._handles, len(self.matches), data, len(data), ticks,
                                     self.phases))
        return self.phases

    def observe(self):
        """For each match in turn: tick, phase, left score, right score, then
        x, y, vx, vy of every disk. A view of doubles, rewritten by the next call."""
        size = c_size_t()
        check(lib.carom_matches_observe(self._handles, len(self.matches), self._values,
                                        len(self._values), byref(size)))
        return self.observation
