"""A Gymnasium-shaped environment over a local carom match, for training bots.

No dependency beyond the standard library and the carom package: reset()
and step(actions) as Gymnasium's API has them, so that a trainer can wrap
it in gymnasium.Env (or any other framework) in a few lines.

- The agents are the slots in `agents` (default: every slot); the game's bot
  plays the others.
- An action is an input byte per agent (0..63: carom.input_toward, MOVE,
  KICK), held for `frame_skip` ticks.
- The observation is, for each disk (pucks, then every slot's player, then
  the map's movable discs), x and y scaled to [-1, 1] over the field and
  vx, vy in units of the players' top speed.
- The reward of an agent is +1 for each goal its team scores and -1 for each
  it concedes, and at the final whistle +1 for a win, -1 for a loss, 0 for a
  draw. The episode terminates at the final whistle and is truncated after
  `max_ticks` ticks when given.
- Each step's info has the match's tick, score and state hash (equal hashes,
  equal matches: an episode can be checked against a replay or a server).

    python3 -m carom.env --map arena.json --episodes 1   # the bot against itself
"""

import argparse
import random
import sys

import carom


class CaromEnv:
    def __init__(self, map_path, agents=None, frame_skip=4, max_ticks=None, top_speed=40.0):
        # A map file, or a carom.Map (a replay's: carom.Replay(path).map()).
        self.map = map_path if isinstance(map_path, carom.Map) else carom.Map.load(map_path)
        self.slots = self.map.slots
        self._agents = list(range(self.slots)) if agents is None else list(agents)
        self.agents = list(self._agents)  # this episode's (reset's slot= may narrow them)
        self.frame_skip = frame_skip
        self.max_ticks = max_ticks
        info = self.map.info
        self._scale = (2.0 / info.width, 2.0 / info.height, 1.0 / top_speed)
        self._inputs = bytearray(self.slots)
        self.match = None

    def reset(self, seed=None, replay=None, tick=0, slot=None):
        """A new match; returns (observation, info).

        With `replay` (a carom.Replay, or a path to one, on this environment's
        map) the episode starts from that recorded match's state after `tick`
        instead, a real situation, with the roster it had then (empty slots
        stay empty). With `slot`, that slot is the episode's one agent (it must
        be held at that tick) and the game's bot plays every other player.
        """
        if replay is None:
            if slot is not None:
                raise ValueError("slot= takes over a player of a replay: give replay= too")
            self.agents = list(self._agents)
            self.match = carom.Match(self.map, random.getrandbits(63) if seed is None else seed)
            for s in range(self.slots):
                self.match.join(s, f"agent{s}" if s in self.agents else f"bot{s}")
        else:
            if not isinstance(replay, carom.Replay):
                replay = carom.Replay(replay)
            if replay.map().hash != self.map.hash:
                raise ValueError(
                    f"the replay is on map '{replay.map().name}', "
                    f"not this environment's '{self.map.name}'")
            if tick > replay.ticks:
                raise ValueError(f"tick {tick} is past the replay's last, {replay.ticks}")
            self.match = replay.match_at(tick)
            if slot is not None:
                if not 0 <= slot < self.slots or not self.match.player(slot).active:
                    raise ValueError(f"slot {slot}: nobody holds it at tick {tick}")
                self.agents = [slot]
            else:
                self.agents = list(self._agents)
        self._bots = [s for s in range(self.slots)
                      if s not in self.agents and self.match.player(s).active]
        self._teams = [self.match.player(s).team for s in range(self.slots)]
        return self.observe(), {"tick": self.match.info().tick,
                                "state_hash": self.match.state_hash()}

    def step(self, actions):
        """Holds each agent's input for frame_skip ticks; returns
        (observation, rewards, terminated, truncated, info), a reward per agent."""
        for slot, action in zip(self.agents, actions):
            self._inputs[slot] = action
        for slot in self._bots:
            self._inputs[slot] = self.match.bot_input(slot)
        self.match.step(bytes(self._inputs), self.frame_skip)
        rewards = [0.0] * len(self.agents)
        terminated = False
        for event in self.match.events():
            if event.kind == carom.GOAL:
                for i, slot in enumerate(self.agents):
                    rewards[i] += 1.0 if self._teams[slot] == event.team else -1.0
            elif event.kind == carom.END:
                terminated = True
                if not event.draw:
                    for i, slot in enumerate(self.agents):
                        rewards[i] += 1.0 if self._teams[slot] == event.team else -1.0
        info = self.match.info()
        truncated = self.max_ticks is not None and info.tick >= self.max_ticks and not terminated
        return self.observe(), rewards, terminated, truncated, {
            "tick": info.tick, "score": tuple(info.score), "state_hash": self.match.state_hash()}

    def observe(self):
        sx, sy, sv = self._scale
        observation = []
        for d in self.match.disks():
            observation += (d.x * sx - 1.0, d.y * sy - 1.0, d.vx * sv, d.vy * sv)
        return observation


class CaromVecEnv:
    """`count` matches at once, each stepped and observed in one call for
    them all (carom.Batch): what trainers run to keep Python's share small.

    Every slot is an agent. step(actions) takes count × slots input bytes
    (match after match) and returns (observation, rewards, terminated,
    truncated, infos): the observation is carom.Batch.observe()'s view (per
    match: tick, phase, left score, right score, then x, y, vx, vy of every
    disk, in map units), rewards a (left, right) pair per match as
    CaromEnv's, terminated a flag per match, infos each match's state hash
    after the step ("state_hashes"; a match that terminated: its last). A
    match that terminated starts over at once with a new seed (the
    observation is then its first).
    """

    def __init__(self, map_path, count=16, frame_skip=4, seed=0):
        self.map = carom.Map.load(map_path)
        self.slots = self.map.slots
        self.count = count
        self.frame_skip = frame_skip
        self._seed = seed
        self.batch = carom.Batch([self._new_match() for _ in range(count)])
        self.width = self.batch.width
        self._scores = [(0, 0)] * count

    def _new_match(self):
        self._seed += 1
        match = carom.Match(self.map, self._seed)
        for slot in range(self.slots):
            match.join(slot, f"agent{slot}")
        return match

    def reset(self):
        for i in range(self.count):
            self.batch.replace(i, self._new_match())
        self._scores = [(0, 0)] * self.count
        return self.batch.observe()

    def step(self, actions):
        phases = list(self.batch.step(actions, self.frame_skip))
        observation = self.batch.observe()
        width = self.width
        lefts = observation[2::width].tolist()
        rights = observation[3::width].tolist()
        gains = [(left - old_left) - (right - old_right)
                 for left, right, (old_left, old_right) in zip(lefts, rights, self._scores)]
        terminated = [phase == carom.FINISHED for phase in phases]
        hashes = self.state_hashes()
        self._scores = list(zip(lefts, rights))
        if any(terminated):
            for i, done in enumerate(terminated):
                if done:
                    gains[i] += (lefts[i] > rights[i]) - (lefts[i] < rights[i])
                    self.batch.replace(i, self._new_match())
                    self._scores[i] = (0, 0)
            observation = self.batch.observe()
        rewards = [(gain, -gain) for gain in gains]
        return observation, rewards, terminated, [False] * self.count, {"state_hashes": hashes}

    def state_hashes(self):
        """Each match's state hash, in order."""
        return [match.state_hash() for match in self.batch.matches]


def main(argv=None):
    parser = argparse.ArgumentParser(description="Play episodes of the bot against itself")
    parser.add_argument("--map", required=True, help="a map file (.json or .hbs)")
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--frame-skip", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    env = CaromEnv(args.map, frame_skip=args.frame_skip)
    for episode in range(args.episodes):
        env.reset(seed=args.seed + episode)
        totals = [0.0] * len(env.agents)
        steps = 0
        terminated = truncated = False
        while not (terminated or truncated):
            # The bot's choice in every agent's slot: a stand-in for a policy.
            actions = [env.match.bot_input(slot) for slot in env.agents]
            _, rewards, terminated, truncated, info = env.step(actions)
            totals = [t + r for t, r in zip(totals, rewards)]
            steps += 1
        print(f"episode {episode}: {steps} steps, {info['tick']} ticks, score "
              f"{info['score'][0]}-{info['score'][1]}, rewards left {totals[0]:+.0f} "
              f"right {totals[-1]:+.0f}, state hash {info['state_hash']:016x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
