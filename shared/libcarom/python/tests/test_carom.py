"""The carom Python package over libcarom: maps, matches, replays, errors.

Run with CAROM_LIBRARY set to libcarom.so and CAROM_SOURCE_DIR to the tree:
    python3 -m unittest discover -s shared/libcarom/python/tests
"""

import os
import unittest

import carom

SOURCE = os.environ.get("CAROM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), *[".."] * 4))
MAPS = os.path.join(SOURCE, "shared", "game", "maps")
CORPUS = os.path.join(SOURCE, "replays", "corpus")


def full_match(game_map, seed):
    match = carom.Match(game_map, seed)
    for slot in range(game_map.slots):
        match.join(slot, f"p{slot}")
    return match


class MapTest(unittest.TestCase):
    def test_a_map_file_loads_with_its_shapes_and_goals(self):
        arena = carom.Map.load(os.path.join(MAPS, "arena.json"))
        self.assertEqual(arena.name, "arena")
        self.assertEqual(arena.slots, 8)
        self.assertEqual(len(arena.goals()), 2)
        self.assertEqual({g.defender for g in arena.goals()}, {0, 1})
        self.assertEqual(len(arena.shapes()), arena.info.shapes)

    def test_the_same_map_parsed_from_text_has_the_same_hash(self):
        path = os.path.join(MAPS, "rink.json")
        with open(path) as f:
            parsed = carom.Map.parse_json(f.read())
        self.assertEqual(parsed.hash, carom.Map.load(path).hash)

    def test_a_missing_file_and_bad_json_are_refused_with_the_reason(self):
        with self.assertRaises(carom.CaromError) as missing:
            carom.Map.load("/nonexistent/map.json")
        self.assertEqual(missing.exception.status, 3)
        self.assertIn("/nonexistent/map.json", str(missing.exception))
        with self.assertRaises(carom.CaromError) as bad:
            carom.Map.parse_json('{"name": "x", "size": [1, 1]}')
        self.assertEqual(bad.exception.status, 2)


class MatchTest(unittest.TestCase):
    def setUp(self):
        self.arena = carom.Map.load(os.path.join(MAPS, "arena.json"))

    def test_two_matches_of_one_seed_and_inputs_step_alike(self):
        a, b = full_match(self.arena, 5), full_match(self.arena, 5)
        for tick in range(300):
            inputs = bytes(a.bot_input(s) for s in range(8))
            a.step(inputs)
            b.step(inputs)
        self.assertEqual(a.state_hash(), b.state_hash())
        self.assertEqual(a.tick, 300)

    def test_several_ticks_and_several_matches_per_call_step_as_one_by_one(self):
        one, held, many = (full_match(self.arena, 9) for _ in range(3))
        inputs = bytes(carom.MOVE | (s * 3 % 16) | (carom.KICK if s % 2 else 0) for s in range(8))
        for _ in range(40):
            one.step(inputs)
        held.step(inputs, ticks=40)
        other = full_match(self.arena, 10)
        batch = carom.Batch([many, other])
        phases = batch.step(inputs * 2, ticks=40)
        self.assertEqual(list(phases), [carom.PLAYING, carom.PLAYING])
        self.assertEqual(one.state_hash(), held.state_hash())
        self.assertEqual(one.state_hash(), many.state_hash())
        observed = batch.observe()
        disks = many.disks()
        self.assertEqual(len(observed), 2 * batch.width)
        self.assertEqual(observed[0], 40.0)  # the tick
        self.assertEqual(observed[4:8].tolist(), [disks[0].x, disks[0].y, disks[0].vx, disks[0].vy])

    def test_restore_goes_back_exactly(self):
        match = full_match(self.arena, 3)
        match.step(bytes(8), ticks=10)
        saved = match.save()
        inputs = bytes(carom.input_toward(1.0, 0.5) for _ in range(8))
        match.step(inputs, ticks=200)
        first = match.state_hash()
        match.restore(saved)
        self.assertEqual(match.tick, 10)
        match.step(inputs, ticks=200)
        self.assertEqual(match.state_hash(), first)

    def test_a_full_match_is_played_to_its_end_with_events(self):
        rink = carom.Map.load(os.path.join(MAPS, "rink.json"))
        match = full_match(rink, 11)
        kinds = set()
        while match.phase != carom.FINISHED:
            match.step(bytes(match.bot_input(s) for s in range(rink.slots)), ticks=6)
            kinds.update(e.kind for e in match.events())
        self.assertIn(carom.END, kinds)
        self.assertIn(carom.KICKOFF, kinds)
        tick = match.tick
        match.step(bytes(rink.slots))  # a finished match does not step
        self.assertEqual(match.tick, tick)

    def test_wrong_input_counts_and_taken_slots_are_refused(self):
        match = full_match(self.arena, 1)
        with self.assertRaises(carom.CaromError):
            match.step(bytes(3))
        with self.assertRaises(carom.CaromError):
            match.join(0, "twice")

    def test_input_toward_quantises_to_sixteen_directions(self):
        self.assertEqual(carom.input_toward(1, 0), carom.MOVE | 0)
        self.assertEqual(carom.input_toward(0, 1), carom.MOVE | 4)
        self.assertEqual(carom.input_toward(0, 0, kick=True), carom.KICK)


class ReplayTest(unittest.TestCase):
    def test_every_corpus_file_steps_to_its_footer_hash(self):
        files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".crpl"))
        self.assertGreater(len(files), 5)
        for name in files:
            replay = carom.Replay(os.path.join(CORPUS, name))
            self.assertEqual(replay.step(replay.ticks + 1), replay.ticks)
            self.assertEqual(replay.match.state_hash(), replay.info.final_hash, name)

    def test_seek_and_verify(self):
        replay = carom.Replay(os.path.join(CORPUS, "duel-rink.crpl"))
        replay.seek(replay.ticks // 3)
        self.assertEqual(replay.match.tick, replay.ticks // 3)
        replay.seek(replay.ticks)
        self.assertEqual(replay.match.state_hash(), replay.info.final_hash)
        verdict = replay.verify()
        self.assertTrue(verdict.ok, verdict.what)
        self.assertEqual(verdict.final_hash, replay.info.final_hash)
        self.assertTrue(replay.roster())
        self.assertEqual(replay.map().name, replay.info.map_name.decode())

    def test_a_damaged_replay_never_verifies(self):
        with open(os.path.join(CORPUS, "duel-rink.crpl"), "rb") as f:
            data = bytearray(f.read())
        data[len(data) // 2] ^= 0x10
        try:
            verdict = carom.Replay(data=data).verify()
        except carom.CaromError as refused:
            self.assertEqual(refused.status, 2)
        else:
            self.assertFalse(verdict.ok)
            self.assertTrue(verdict.what)

    def test_a_cut_file_proves_nothing_but_gives_the_hash_of_its_last_tick(self):
        with open(os.path.join(CORPUS, "duel-rink.crpl"), "rb") as f:
            cut = f.read()[:9000]
        replay = carom.Replay(data=cut)
        verdict = replay.verify()
        self.assertFalse(verdict.ok)
        self.assertFalse(verdict.diverged)
        self.assertTrue(verdict.what.decode().startswith("incomplete: the file stops at byte"))
        self.assertGreater(verdict.ticks, 0)
        self.assertEqual(verdict.ticks, replay.ticks)
        replay.seek(verdict.ticks)
        self.assertNotEqual(verdict.final_hash, 0)
        self.assertEqual(verdict.final_hash, replay.match.state_hash())

    def test_a_match_taken_from_a_replay_tick_plays_on_as_recorded(self):
        replay = carom.Replay(os.path.join(CORPUS, "team-arena.crpl"))
        tick = 1234  # between two keyframes
        match = replay.match_at(tick)
        self.assertEqual(match.info().tick, tick)
        self.assertEqual(replay.match.tick, tick)
        self.assertEqual(match.state_hash(), replay.match.state_hash())
        # Given the recorded inputs it stays the recorded match, tick by tick.
        for _ in range(120):
            replay.step(1)
            match.step([replay.match.player(s).last_input for s in range(match.slots)])
            self.assertEqual(match.state_hash(), replay.match.state_hash(), replay.match.tick)
        # Given others, it is a match of its own (the replay's is read-only).
        match.step(bytes([carom.MOVE | 4]) * match.slots, 30)
        self.assertNotEqual(match.state_hash(), replay.match.state_hash())
        with self.assertRaises(carom.CaromError) as refused:
            replay.match_at(replay.ticks + 1)
        self.assertEqual(refused.exception.status, 1)
        self.assertIn("past the replay's last", str(refused.exception))

    def test_a_branch_starts_where_its_parent_was(self):
        # The replay reader's fuzz seed of a branch: a match from the state of tick 150.
        branch = carom.Replay(os.path.join(SOURCE, "shared", "replay", "fuzz", "corpus",
                                           "replay_reader", "branch-at-150"))
        self.assertEqual(branch.match.tick, 150)
        start = branch.match.state_hash()
        self.assertTrue(branch.verify().ok)
        with self.assertRaises(carom.CaromError) as refused:
            branch.match_at(149)
        self.assertIn("before the replay's start, 150", str(refused.exception))
        self.assertEqual(branch.match_at(150).state_hash(), start)
        branch.seek(0)  # seeking before the start stops at it
        self.assertEqual(branch.match.tick, 150)

    def test_an_environment_resets_into_a_replay_tick(self):
        from carom.env import CaromEnv
        path = os.path.join(CORPUS, "team-arena.crpl")
        replay = carom.Replay(path)
        replay.seek(900)
        recorded = replay.match.state_hash()
        env = CaromEnv(replay.map(), frame_skip=2)
        observation, info = env.reset(replay=path, tick=900, slot=3)
        self.assertEqual(info["tick"], 900)
        self.assertEqual(info["state_hash"], recorded)
        self.assertEqual(env.agents, [3])
        self.assertEqual(len(observation), 4 * len(env.match.disks()))
        _, rewards, _, _, info = env.step([carom.MOVE])
        self.assertEqual(info["tick"], 902)
        self.assertEqual(len(rewards), 1)
        # A fresh episode has every slot as an agent again.
        env.reset(seed=5)
        self.assertEqual(env.agents, list(range(env.slots)))
        with self.assertRaises(ValueError) as refused:
            env.reset(replay=replay, tick=replay.ticks + 1)
        self.assertIn("past the replay's last", str(refused.exception))
        with self.assertRaises(ValueError) as refused:
            env.reset(replay=replay, tick=10, slot=env.slots)
        self.assertIn("nobody holds it", str(refused.exception))
        other = CaromEnv(carom.Replay(os.path.join(CORPUS, "duel-rink.crpl")).map())
        with self.assertRaises(ValueError) as refused:
            other.reset(replay=replay, tick=10)
        self.assertIn("not this environment's", str(refused.exception))

    def test_a_borrowed_match_is_read_only(self):
        replay = carom.Replay(os.path.join(CORPUS, "duel-rink.crpl"))
        with self.assertRaises(carom.CaromError) as refused:
            replay.match.step(bytes(replay.match.slots))
        self.assertEqual(refused.exception.status, 4)


class TokenTest(unittest.TestCase):
    def test_a_token_made_through_libcarom_carries_its_servers_and_expiry_and_a_client_takes_it(self):
        key = carom.token_keygen()
        self.assertEqual(len(key), 32)
        self.assertNotEqual(key, carom.token_keygen())
        token = carom.make_token(key, 7, "ann", ["127.0.0.1:27960", "[::1]:27960"], 60,
                                 user_data=b"team=red", now_unix_s=1_800_000_000)
        self.assertLessEqual(len(token), carom.MAX_CONNECT_TOKEN)
        self.assertEqual(token[:4], b"CTOK")
        private_size = int.from_bytes(token[4:6], "little")
        private = token[6:6 + private_size]
        self.assertEqual(int.from_bytes(private[0:4], "little"), 1)  # token format
        self.assertEqual(int.from_bytes(private[8:16], "little"), 1_800_000_000)
        self.assertEqual(int.from_bytes(private[16:24], "little"), 1_800_000_060)
        # The public part: two 32-byte keys, then the servers.
        rest = token[6 + private_size + 64:]
        servers, at = [], 1
        for _ in range(rest[0]):
            servers.append(rest[at + 1:at + 1 + rest[at]].decode())
            at += 1 + rest[at]
        self.assertEqual(servers, ["127.0.0.1:27960", "[::1]:27960"])
        # The name and the user data travel sealed.
        self.assertNotIn(b"team=red", token)
        text = carom.token_text(token)
        self.assertEqual(carom.token_from_text(text + "\n"), token)
        carom.Client(name="ann", connect_token=token)
        carom.Client(name="ann", connect_token=text)

    def test_a_token_past_a_limit_and_bytes_that_are_no_token_are_refused(self):
        key = carom.token_keygen()
        for bad in [dict(name="a b"), dict(name="x" * 16), dict(servers=[]),
                    dict(servers=["h:1"] * 5), dict(servers=["h" * 65]), dict(servers=["nope"]),
                    dict(user_data=b"x" * 257), dict(lifetime_s=0)]:
            args = dict(name="ann", servers=["h:1"], lifetime_s=60, user_data=b"")
            args.update(bad)
            with self.assertRaises(carom.CaromError) as refused:
                carom.make_token(key, 1, args["name"], args["servers"], args["lifetime_s"],
                                 user_data=args["user_data"])
            self.assertEqual(refused.exception.status, 1)
        with self.assertRaises(carom.CaromError) as not_token:
            carom.Client(connect_token=b"CTOK" + bytes(20))
        self.assertEqual(not_token.exception.status, 2)


if __name__ == "__main__":
    unittest.main()
