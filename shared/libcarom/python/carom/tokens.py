"""Connect tokens, for a backend: a server started with --token-key FILE
admits only players with a token made with its key (schemas/PROTOCOL.md,
"Connect tokens"). Hand a token to its player only (over HTTPS): it holds
the session's keys.

    key = carom.read_token_key("server.key")       # carom-token keygen's file
    token = carom.make_token(key, 7, "ann", ["play.example.com:27960"], 60)
    text = carom.token_text(token)                 # for carom-client --token, or #token=
"""

import base64
import time
from ctypes import byref, c_char_p, c_size_t, create_string_buffer

from ._native import lib
from .errors import check

TOKEN_KEY_BYTES = 32
MAX_CONNECT_TOKEN = 1002


def token_keygen():
    """A new random token key (32 bytes)."""
    key = create_string_buffer(TOKEN_KEY_BYTES)
    check(lib.carom_token_keygen(key))
    return key.raw


def read_token_key(path):
    """The key of a key file (64 hexadecimal digits, as carom-token keygen writes)."""
    with open(path) as f:
        key = bytes.fromhex(f.read().strip())
    if len(key) != TOKEN_KEY_BYTES:
        raise ValueError(f"{path}: not a token key (64 hexadecimal digits)")
    return key


def make_token(key, player_id, name, servers, lifetime_s, user_data=b"", now_unix_s=None):
    """A token's bytes: player `player_id` named `name`, for the servers
    ("HOST:PORT" each, as the server names itself), good for `lifetime_s`
    seconds from now. CaromError when a value breaks a limit."""
    if len(key) != TOKEN_KEY_BYTES:
        raise ValueError(f"a token key is {TOKEN_KEY_BYTES} bytes")
    encoded = [s.encode() for s in servers]
    array = (c_char_p * max(1, len(encoded)))(*encoded)
    now = int(time.time()) if now_unix_s is None else now_unix_s
    out = create_string_buffer(MAX_CONNECT_TOKEN)
    size = c_size_t()
    check(lib.carom_token_make(bytes(key), player_id, name.encode(), array, len(encoded),
                               bytes(user_data), len(user_data), now, lifetime_s, out,
                               MAX_CONNECT_TOKEN, byref(size)))
    return out.raw[:size.value]


def token_text(token):
    """A token as carom-token writes it: base64url without padding."""
    return base64.urlsafe_b64encode(token).rstrip(b"=").decode()


def token_from_text(text):
    """A token's bytes from its text (a token file's line)."""
    text = text.strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
