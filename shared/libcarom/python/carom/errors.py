"""Failures of libcarom calls, raised as CaromError."""

from ._native import lib

OK = 0
ERROR_ARGUMENT = 1
ERROR_DATA = 2
ERROR_IO = 3
ERROR_STATE = 4
ERROR_INTERNAL = 5


class CaromError(Exception):
    """A libcarom call failed: `status` is carom_status, the message says why."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def check(status):
    if status != OK:
        raise CaromError(status, lib.carom_last_error().decode("utf-8", "replace"))
