#!/usr/bin/env python3
"""A bot that plays on a real carom-server over UDP, in Python.

libcarom's client keeps the exact copy of the room's match (as carom-client
does); this program owns the socket, the clock and the loop, and steers by
the chase rule: run to the spot behind the nearest puck, facing the goal it
attacks, and kick when the puck is in reach.

    python3 bot.py --server 127.0.0.1:27960 --seconds 30

A server started with --token-key admits it with a connect token: --token
FILE (carom-token make's), or --token-key FILE, with which the bot makes its
own as a backend would (carom.make_token).
"""

import argparse
import math
import socket
import sys
import time

import carom

KICK_REACH = 1.5  # the game's default reach between the edges of player and puck


def nearest_puck(disks, pucks, me):
    return min(disks[:pucks], key=lambda p: (p.x - me.x) ** 2 + (p.y - me.y) ** 2)


def chase(match, map_, slot, team):
    """The chase rule's input for `slot` on the copy of the match."""
    info = match.info()
    if info.phase != carom.PLAYING:
        return 0
    disks = match.disks()
    me = disks[info.pucks + slot]
    puck = nearest_puck(disks, info.pucks, me)
    target = next(g for g in map_.goals() if g.defender != team)
    gx, gy = (target.ax + target.bx) / 2, (target.ay + target.by) / 2
    # The spot behind the puck on the line from the goal through it.
    dx, dy = puck.x - gx, puck.y - gy
    length = math.hypot(dx, dy) or 1.0
    behind = me.radius + puck.radius
    spot_x, spot_y = puck.x + dx / length * behind, puck.y + dy / length * behind
    gap = math.hypot(puck.x - me.x, puck.y - me.y) - me.radius - puck.radius
    if gap < KICK_REACH:
        return carom.input_toward(puck.x - me.x, puck.y - me.y, kick=True)
    return carom.input_toward(spot_x - me.x, spot_y - me.y)


def resolve(server):
    host, _, port = server.rpartition(":")
    host = host.strip("[]")
    family, _, _, _, address = socket.getaddrinfo(host, int(port), type=socket.SOCK_DGRAM)[0]
    return family, address


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="HOST:PORT of a carom-server")
    parser.add_argument("--name", default="pybot")
    parser.add_argument("--room", type=int, default=-1, help="-1: the first with space")
    parser.add_argument("--seconds", type=float, default=30.0, help="then leave")
    parser.add_argument("--maps-dir", action="append", default=[],
                        help="where <map>.json files are (else the map is fetched)")
    parser.add_argument("--token", help="a connect token file (carom-token make)")
    parser.add_argument("--token-key", help="a server's token key: the bot makes its own token")
    args = parser.parse_args()
    connect_token = None
    if args.token:
        with open(args.token) as f:
            connect_token = carom.token_from_text(f.read())
    elif args.token_key:
        connect_token = carom.make_token(carom.read_token_key(args.token_key), 1, args.name,
                                         [args.server], 60)

    family, address = resolve(args.server)
    sock = socket.socket(family, socket.SOCK_DGRAM)
    sock.connect(address)
    sock.setblocking(False)
    client = carom.Client(name=args.name, room=args.room, map_dirs=args.maps_dir,
                          connect_token=connect_token)
    start = time.monotonic()

    def now_ms():
        return int((time.monotonic() - start) * 1000)

    def flush():
        for datagram in client.datagrams():
            try:
                sock.send(datagram)
            except OSError:
                pass  # the server is not there yet: the handshake retries

    client.start(now_ms())
    flush()
    applied_moving = 0  # ticks the server applied a moving input of ours
    run = 0.0
    last_at = None
    kicks_sent = 0
    next_tick = time.monotonic()
    while True:
        while True:
            try:
                data = sock.recv(2048)
            except (BlockingIOError, ConnectionRefusedError):
                break
            client.receive(data, now_ms())
        info = client.info()
        if info.ended:
            break
        if time.monotonic() - start >= args.seconds:
            client.quit(now_ms())
            flush()
            break
        match = client.match()
        game_map = client.map()
        if match is not None and game_map is not None and info.slot >= 0:
            choice = chase(match, game_map, info.slot, info.team)
            kicks_sent += 1 if choice & carom.KICK else 0
            client.set_input(choice)
            me = match.disks()[match.info().pucks + info.slot]
            if last_at is not None:
                run += math.hypot(me.x - last_at[0], me.y - last_at[1])
            last_at = (me.x, me.y)
            if match.player(info.slot).last_input & carom.MOVE:
                applied_moving += 1
        client.tick(now_ms())
        flush()
        next_tick += 1 / carom.TICK_RATE
        time.sleep(max(0.0, next_tick - time.monotonic()))

    info = client.info()
    match = client.match()
    score = match.score if match is not None else (0, 0)
    disks, hud = client.scene(now_ms())  # what carom-client would draw now
    print(f"bot.py: {args.name} in room {info.room}, slot {info.slot}, on {info.map_name.decode()} "
          f"(from {info.map_source.decode() or 'nowhere'}): "
          f"ran {run:.0f} units, {applied_moving} ticks moving as the server applied, "
          f"{kicks_sent} kicks sent; score {score[0]}-{score[1]}; the last frame drew "
          f"{len(disks)} disks ({hud.phase.decode()}); "
          f"{info.message.decode() if info.ended else 'left'}")
    # Whether its copy of the match stayed the server's all along.
    print(f"bot.py: copy: {info.full_states} FullStates, {info.state_check_failures} state "
          f"checks failed, {info.resyncs} resyncs; {info.bytes_in} bytes in, "
          f"{info.bytes_out} bytes out")
    played = applied_moving > 0 and run > 0 and len(disks) > 0
    return 0 if played and (not info.ended or info.exit_code == 0) else 1


if __name__ == "__main__":
    sys.exit(main())
