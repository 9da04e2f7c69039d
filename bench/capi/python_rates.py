#!/usr/bin/env python3
"""How fast Python steps 4 v 4 matches through libcarom, against the C++ step
in the same run: the way trainers step (several ticks, or several matches, a
call; an environment that reads observations), a tick a call for contrast.

Each round runs every Python variant, then `carom-bench capi --json` for the
C++ rate of that moment; each Python rate is compared with the C++ rate of
its round, and the medians over the rounds are printed.

    CAROM_LIBRARY=build/bench/shared/libcarom/libcarom.so \\
    PYTHONPATH=shared/libcarom/python python3 bench/capi/python_rates.py \\
        --carom-bench build/bench/bench/carom-bench
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import carom

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(SOURCE, "shared", "libcarom", "python", "examples"))
from env import CaromEnv, CaromVecEnv  # noqa: E402

SLOTS = 8
SCHEDULE_TICKS = 4  # the inputs change every 4 ticks, as in carom-bench capi


def scheduled_input(slot, step):
    """bench/capi/step_rates.cpp's schedule, so every variant plays the same."""
    kick = carom.KICK if (step + slot) % 5 == 0 else 0
    return carom.MOVE | ((step // 8 + 3 * slot) % 16) | kick


# The schedule repeats every 640 steps: (step // 8) % 16 and step % 5.
SCHEDULE = [bytes(scheduled_input(s, step) for s in range(SLOTS)) for step in range(640)]


def full_match(game_map):
    match = carom.Match(game_map, 1)
    for slot in range(SLOTS):
        match.join(slot, "p")
    return match, match.save()


def timed(seconds, body):
    """Calls body() until `seconds` passed; body returns the ticks it stepped."""
    ticks = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        ticks += body()
    return ticks / (time.perf_counter() - start)


def run_tick(game_map, seconds):
    match, start = full_match(game_map)
    state = {"tick": 0}

    def body():
        for _ in range(64):
            match.step(SCHEDULE[(state["tick"] // SCHEDULE_TICKS) % 640])
            state["tick"] += 1
        if match.phase == carom.FINISHED:
            match.restore(start)
        return 64

    return timed(seconds, body)


def run_held(game_map, seconds, per_call):
    match, start = full_match(game_map)
    state = {"tick": 0}

    def body():
        for _ in range(16):
            match.step(SCHEDULE[(state["tick"] // SCHEDULE_TICKS) % 640], per_call)
            state["tick"] += per_call
            if match.phase == carom.FINISHED:
                match.restore(start)
        return 16 * per_call

    return timed(seconds, body)


def run_batch(game_map, seconds, count, per_call):
    pairs = [full_match(game_map) for _ in range(count)]
    batch = carom.Batch([m for m, _ in pairs])
    state = {"tick": 0}

    def body():
        inputs = SCHEDULE[(state["tick"] // SCHEDULE_TICKS) % 640] * count
        phases = batch.step(inputs, per_call)
        state["tick"] += per_call
        for i, phase in enumerate(phases):
            if phase == carom.FINISHED:
                batch.matches[i].restore(pairs[i][1])
        return count * per_call

    return timed(seconds, body)


def run_vec_env(map_path, seconds, count, per_call):
    env = CaromVecEnv(map_path, count=count, frame_skip=per_call)
    env.reset()
    state = {"step": 0}

    def body():
        actions = SCHEDULE[(state["step"] * per_call // SCHEDULE_TICKS) % 640] * count
        env.step(actions)
        state["step"] += 1
        return count * per_call

    return timed(seconds, body)


def run_env(map_path, seconds, per_call):
    env = CaromEnv(map_path, frame_skip=per_call)
    env.reset(seed=1)
    state = {"step": 0}

    def body():
        for _ in range(16):
            actions = SCHEDULE[(state["step"] * per_call // SCHEDULE_TICKS) % 640]
            _, _, terminated, truncated, _ = env.step(actions)
            state["step"] += 1
            if terminated or truncated:
                env.reset(seed=1)
        return 16 * per_call

    return timed(seconds, body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--carom-bench", required=True, help="the carom-bench program")
    parser.add_argument("--map", default=os.path.join(SOURCE, "shared", "game", "maps",
                                                      "arena.json"))
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=0.5, help="per variant and round")
    parser.add_argument("--ticks-per-call", type=int, default=4)
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    game_map = carom.Map.load(args.map)
    k, n = args.ticks_per_call, args.matches
    variants = {
        "Python Match.step, a tick a call": lambda: run_tick(game_map, args.seconds),
        f"Python Match.step, {k} ticks a call": lambda: run_held(game_map, args.seconds, k),
        f"Python Batch.step, {n} matches x {k} ticks":
            lambda: run_batch(game_map, args.seconds, n, k),
        f"Python env.py CaromVecEnv.step, {n} matches x {k} ticks, observations":
            lambda: run_vec_env(args.map, args.seconds, n, k),
        f"Python env.py CaromEnv.step, one match, {k} ticks, observations":
            lambda: run_env(args.map, args.seconds, k),
    }
    rates = {name: [] for name in variants}
    cpp = []
    for _ in range(args.rounds):
        for name, run in variants.items():
            rates[name].append(run())
        out = subprocess.run(
            [args.carom_bench, "capi", "--json", "--rounds", "1", "--seconds", str(args.seconds),
             "--map", args.map, "--ticks-per-call", str(k), "--matches", str(n)],
            check=True, capture_output=True, text=True).stdout
        cpp.append(json.loads(out)["cpp"]["ticks_per_s"])

    rows = [("C++ game::Match::step (carom-bench capi)", cpp, [1.0] * len(cpp))]
    for name, values in rates.items():
        rows.append((name, values, [v / c for v, c in zip(values, cpp)]))
    if args.json:
        print(json.dumps({name: {"ticks_per_s": round(statistics.median(v)),
                                 "vs_cpp": round(statistics.median(r), 4)}
                          for name, v, r in rows}))
        return 0
    print(f"4 v 4 on {os.path.basename(args.map)}, one core, {args.rounds} rounds of "
          f"{args.seconds} s per variant; vs C++: the median of each round's ratio")
    print(f"  {'variant':<58} {'ticks/s':>10} {'vs C++':>8}")
    for name, values, ratios in rows:
        print(f"  {name:<58} {statistics.median(values):>10.0f} "
              f"{statistics.median(ratios):>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
