/* libcarom's C ABI, from C: every part of carom.h called as a C program
 * would, bad arguments included. CTest runs it in every preset (under ASan
 * and UBSan in the asan one).
 * Usage: abi_test MAPS_DIR REPLAY.crpl STADIUM.hbs */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carom.h"

static int failures = 0;

#define CHECK(cond)                                                    \
    do {                                                               \
        if (!(cond)) {                                                 \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                \
        }                                                              \
    } while (0)

#define CHECK_OK(call)                                                              \
    do {                                                                            \
        carom_status s_ = (call);                                                   \
        if (s_ != CAROM_OK) {                                                       \
            fprintf(stderr, "%s:%d: %s -> %d: %s\n", __FILE__, __LINE__, #call, (int)s_, \
                    carom_last_error());                                            \
            ++failures;                                                             \
        }                                                                           \
    } while (0)

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc((size_t)n + 1);
    if (bytes != NULL && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    if (bytes != NULL) bytes[n] = '\0';
    *size = (size_t)n;
    return bytes;
}

static void test_errors(void) {
    carom_map *map = NULL;
    CHECK(carom_abi_version() == CAROM_ABI_VERSION);
    CHECK(strlen(carom_version()) > 0);
    CHECK(carom_map_load("/nonexistent/arena.json", &map) == CAROM_ERROR_IO);
    CHECK(map == NULL);
    CHECK(strstr(carom_last_error(), "/nonexistent/arena.json") != NULL);
    CHECK(carom_map_parse_json("{", 1, &map) == CAROM_ERROR_DATA);
    CHECK(strlen(carom_last_error()) > 0);
    CHECK(carom_map_parse_json(NULL, 0, &map) == CAROM_ERROR_ARGUMENT);
    CHECK(strstr(carom_last_error(), "NULL") != NULL);
    CHECK(carom_map_from_binary((const uint8_t *)"CMAPxxxx", 8, &map) == CAROM_ERROR_DATA);
    CHECK(carom_match_create(NULL, 1, NULL) == CAROM_ERROR_ARGUMENT);
    carom_map_free(NULL); /* NULL is fine everywhere a handle is freed */
    carom_match_free(NULL);
    carom_replay_free(NULL);
    carom_client_free(NULL);
    carom_state_free(NULL);
}

static void test_map(const carom_map *map) {
    carom_map_info info;
    CHECK_OK(carom_map_get_info(map, &info));
    CHECK(strcmp(info.name, "arena") == 0);
    CHECK(info.width > 0 && info.height > 0);
    CHECK(info.slots == 2 * info.team_size);
    CHECK(info.pucks >= 1 && info.goals == 2 && info.shapes > 0);
    CHECK(info.hash != 0);
    for (uint32_t i = 0; i < info.shapes; ++i) {
        carom_shape s;
        CHECK_OK(carom_map_shape(map, i, &s));
        CHECK(s.kind >= CAROM_SHAPE_SEGMENT && s.kind <= CAROM_SHAPE_BOX);
    }
    carom_shape s;
    CHECK(carom_map_shape(map, info.shapes, &s) == CAROM_ERROR_ARGUMENT);
    carom_goal g;
    CHECK_OK(carom_map_goal(map, 0, &g));
    CHECK(g.defender == 0 || g.defender == 1);
    CHECK(carom_map_goal(map, 2, &g) == CAROM_ERROR_ARGUMENT);
}

/* Steps a match with the bot's inputs in every slot. */
static void step_with_bots(carom_match *match, uint32_t slots, uint32_t ticks) {
    uint8_t inputs[32];
    for (uint32_t t = 0; t < ticks; ++t) {
        for (uint32_t s = 0; s < slots; ++s)
            CHECK_OK(carom_match_bot_input(match, s, &inputs[s]));
        CHECK_OK(carom_match_step(match, inputs, slots, 1));
    }
}

static void test_match(const carom_map *map) {
    carom_map_info map_info;
    CHECK_OK(carom_map_get_info(map, &map_info));
    carom_match *match = NULL;
    CHECK_OK(carom_match_create(map, 42, &match));
    for (uint32_t i = 0; i < map_info.slots; ++i) {
        uint32_t slot = 99;
        CHECK_OK(carom_match_free_slot(match, -1, &slot));
        char name[16];
        snprintf(name, sizeof name, "p%u", i);
        CHECK_OK(carom_match_join(match, slot, name));
    }
    uint32_t slot;
    CHECK(carom_match_free_slot(match, -1, &slot) == CAROM_ERROR_STATE);
    CHECK(carom_match_join(match, 0, "again") == CAROM_ERROR_ARGUMENT);
    uint8_t few[1] = {0};
    CHECK(carom_match_step(match, few, 1, 1) == CAROM_ERROR_ARGUMENT);

    step_with_bots(match, map_info.slots, 600);
    carom_match_info info;
    CHECK_OK(carom_match_get_info(match, &info));
    CHECK(info.tick == 600);
    CHECK(info.players == map_info.slots);

    carom_disk disks[64];
    size_t count = 0;
    CHECK_OK(carom_match_disks(match, disks, 64, &count));
    CHECK(count == info.pucks + info.slots + info.discs);
    CHECK(disks[0].kind == CAROM_DISK_PUCK);
    CHECK(disks[info.pucks].kind == CAROM_DISK_PLAYER && disks[info.pucks].active);
    size_t needed = 0;
    CHECK_OK(carom_match_disks(match, NULL, 0, &needed)); /* asks how many */
    CHECK(needed == count);
    carom_player player;
    CHECK_OK(carom_match_player(match, 0, &player));
    CHECK(strcmp(player.name, "p0") == 0);

    /* Save, play on, restore, play on again: the same hash. */
    carom_state *state = NULL;
    CHECK_OK(carom_match_save(match, &state));
    step_with_bots(match, map_info.slots, 300);
    uint64_t first = 0, second = 0;
    CHECK_OK(carom_match_state_hash(match, &first));
    CHECK_OK(carom_match_restore(match, state));
    step_with_bots(match, map_info.slots, 300);
    CHECK_OK(carom_match_state_hash(match, &second));
    CHECK(first == second);

    /* Several ticks and several matches per call step as one at a time does. */
    carom_match *a = NULL, *b = NULL;
    CHECK_OK(carom_match_create(map, 7, &a));
    CHECK_OK(carom_match_create(map, 7, &b));
    CHECK_OK(carom_match_join(a, 0, "x"));
    CHECK_OK(carom_match_join(b, 0, "x"));
    uint8_t inputs[64] = {0};
    inputs[0] = CAROM_INPUT_MOVE | 3;
    for (int t = 0; t < 90; ++t) CHECK_OK(carom_match_step(a, inputs, map_info.slots, 1));
    carom_match *both[2] = {b, a};
    int32_t phases[2] = {-1, -1};
    CHECK_OK(carom_matches_step(both, 1, inputs, map_info.slots, 90, phases));
    CHECK(phases[0] == CAROM_PHASE_PLAYING && phases[1] == -1);
    CHECK_OK(carom_match_state_hash(a, &first));
    CHECK_OK(carom_match_state_hash(b, &second));
    CHECK(first == second);
    CHECK(carom_matches_step(both, 2, inputs, map_info.slots, 1, NULL) == CAROM_ERROR_ARGUMENT);

    /* Observations: the head, then the disks as carom_match_disks has them. */
    size_t values_count = 0;
    CHECK_OK(carom_matches_observe((const carom_match *const *)both, 2, NULL, 0, &values_count));
    CHECK(values_count == 2 * (CAROM_OBSERVE_HEAD + 4 * count));
    double values[2 * (CAROM_OBSERVE_HEAD + 4 * 64)];
    CHECK_OK(carom_matches_observe((const carom_match *const *)both, 2, values,
                                   sizeof values / sizeof values[0], &values_count));
    CHECK(values[0] == 90.0 && values[1] == CAROM_PHASE_PLAYING);
    carom_disk b_disks[64];
    CHECK_OK(carom_match_disks(b, b_disks, 64, &count));
    CHECK(values[CAROM_OBSERVE_HEAD] == b_disks[0].x && values[CAROM_OBSERVE_HEAD + 3] == b_disks[0].vy);
    carom_match_free(a);
    carom_match_free(b);

    carom_state_free(state);
    carom_match_free(match);
}

/* A state restores into a match on its own map only. */
static void test_map_elsewhere(const carom_map *arena, const char *rink_path) {
    carom_map *rink = NULL;
    CHECK_OK(carom_map_load(rink_path, &rink));
    if (rink == NULL) return;
    carom_match *on_arena = NULL, *on_rink = NULL;
    CHECK_OK(carom_match_create(arena, 1, &on_arena));
    CHECK_OK(carom_match_create(rink, 1, &on_rink));
    carom_state *state = NULL;
    CHECK_OK(carom_match_save(on_arena, &state));
    CHECK(carom_match_restore(on_rink, state) == CAROM_ERROR_DATA);
    CHECK(strstr(carom_last_error(), "another map") != NULL);
    carom_state_free(state);
    carom_match_free(on_arena);
    carom_match_free(on_rink);
    carom_map_free(rink);
}

static void test_replay(const char *path) {
    carom_replay *replay = NULL;
    CHECK_OK(carom_replay_open(path, &replay));
    if (replay == NULL) return;
    carom_replay_info info;
    CHECK_OK(carom_replay_get_info(replay, &info));
    CHECK(info.has_footer && info.ticks > 600 && info.problem[0] == '\0');

    /* Step to the end: the final hash is the footer's. */
    uint64_t stepped = 0, hash = 0;
    CHECK_OK(carom_replay_step(replay, info.ticks + 100, &stepped));
    CHECK(stepped == info.ticks);
    CHECK_OK(carom_match_state_hash(carom_replay_match(replay), &hash));
    CHECK(hash == info.final_hash);
    /* A borrowed match is read-only. */
    CHECK(carom_match_step((carom_match *)carom_replay_match(replay), NULL, 0, 1) ==
          CAROM_ERROR_STATE);

    /* Seek back into the middle, then to the end again. */
    carom_match_info at;
    CHECK_OK(carom_replay_seek(replay, info.ticks / 2));
    CHECK_OK(carom_match_get_info(carom_replay_match(replay), &at));
    CHECK(at.tick == info.ticks / 2);
    CHECK_OK(carom_replay_seek(replay, info.ticks));
    CHECK_OK(carom_match_state_hash(carom_replay_match(replay), &hash));
    CHECK(hash == info.final_hash);

    carom_verify_result verdict;
    CHECK_OK(carom_replay_verify(replay, &verdict));
    CHECK(verdict.ok && verdict.final_hash == info.final_hash && verdict.ticks == info.ticks);

    /* A match of its own from a tick between keyframes: the replay's state there. */
    carom_match *taken = NULL;
    uint64_t recorded = 0, copied = 0;
    CHECK_OK(carom_replay_match_at(replay, info.ticks / 3 + 7, &taken));
    CHECK_OK(carom_match_state_hash(carom_replay_match(replay), &recorded));
    CHECK_OK(carom_match_state_hash(taken, &copied));
    CHECK(taken != NULL && copied == recorded);
    CHECK_OK(carom_match_get_info(taken, &at));
    CHECK(at.tick == info.ticks / 3 + 7);
    uint8_t idle[64] = {0}; /* two teams of at most 16 */
    CHECK(at.slots <= sizeof idle);
    CHECK_OK(carom_match_step(taken, idle, at.slots, 1)); /* it is the caller's to step */
    carom_match_free(taken);
    CHECK(carom_replay_match_at(replay, info.ticks + 1, &taken) == CAROM_ERROR_ARGUMENT);

    size_t count = 0;
    CHECK_OK(carom_replay_roster(replay, NULL, 0, &count));
    CHECK(count > 0);
    carom_map *map = NULL;
    CHECK_OK(carom_replay_map(replay, &map));
    carom_map_info map_info;
    CHECK_OK(carom_map_get_info(map, &map_info));
    CHECK(strcmp(map_info.name, info.map_name) == 0);
    carom_map_free(map);
    carom_replay_free(replay);

    /* The same bytes with one flipped in the middle: refused, or a verdict that is not ok. */
    size_t size = 0;
    char *bytes = read_file(path, &size);
    CHECK(bytes != NULL);
    if (bytes == NULL) return;
    bytes[size / 2] ^= 0x40;
    carom_replay *damaged = NULL;
    carom_status s = carom_replay_open_bytes((const uint8_t *)bytes, size, &damaged);
    if (s == CAROM_OK) {
        CHECK_OK(carom_replay_verify(damaged, &verdict));
        CHECK(!verdict.ok && verdict.what[0] != '\0');
        carom_replay_free(damaged);
    } else {
        CHECK(s == CAROM_ERROR_DATA && strlen(carom_last_error()) > 0);
    }
    free(bytes);
}

static void test_stadium(const char *path) {
    size_t size = 0;
    char *text = read_file(path, &size);
    CHECK(text != NULL);
    if (text == NULL) return;
    carom_map *map = NULL;
    CHECK_OK(carom_map_parse_hbs(text, size, &map));
    carom_map_info info;
    CHECK_OK(carom_map_get_info(map, &info));
    CHECK(info.shapes > 0);
    carom_map_free(map);
    /* The text parsed is the map the file loads, bit for bit: the same hash. */
    CHECK_OK(carom_map_load(path, &map));
    carom_map_info loaded;
    CHECK_OK(carom_map_get_info(map, &loaded));
    CHECK(loaded.hash == info.hash);
    carom_map_free(map);
    CHECK(carom_map_parse_hbs("{\"name\": 1}", 11, &map) == CAROM_ERROR_DATA);
    free(text);
}

static void test_client(void) {
    carom_client_config config;
    carom_client_config_init(&config);
    CHECK(config.room == -1);
    config.name = "c";
    config.token = 12345;
    carom_client *client = NULL;
    CHECK_OK(carom_client_create(&config, &client));
    CHECK_OK(carom_client_start(client, 0));
    uint8_t datagram[CAROM_MAX_DATAGRAM];
    size_t size = 0;
    CHECK_OK(carom_client_take_datagram(client, datagram, sizeof datagram, &size));
    CHECK(size > 0 && size <= CAROM_MAX_DATAGRAM); /* the ConnectRequest */
    CHECK(carom_client_take_datagram(client, datagram, 10, &size) == CAROM_ERROR_ARGUMENT);
    /* Junk from the "server": dropped. */
    const uint8_t junk[5] = {1, 2, 3, 4, 5};
    CHECK_OK(carom_client_receive(client, junk, sizeof junk, 5));
    carom_client_info info;
    CHECK_OK(carom_client_get_info(client, &info));
    CHECK(info.state == CAROM_CLIENT_CONNECTING && !info.ended);
    CHECK(carom_client_match(client) == NULL && carom_client_map(client) == NULL);
    /* Nobody answers: it gives up after its connect timeout. */
    for (uint64_t ms = 0; ms <= 6000; ms += 16) CHECK_OK(carom_client_tick(client, ms));
    CHECK_OK(carom_client_get_info(client, &info));
    CHECK(info.state == CAROM_CLIENT_CLOSED && info.ended && info.exit_code != 0);
    /* Its counters: the junk came in, ConnectRequests went out, no state came. */
    CHECK(info.bytes_in == sizeof junk && info.bytes_out > 0);
    CHECK(info.full_states == 0 && info.state_check_failures == 0 && info.resyncs == 0);
    CHECK(strstr(info.message, "unreachable") != NULL);
    carom_scene_disk disks[8];
    size_t count = 99;
    carom_scene_hud hud;
    CHECK_OK(carom_client_scene(client, 6000, disks, 8, &count, &hud));
    CHECK(count == 0);
    carom_client_free(client);
}

/* The replay viewer: keys move the playhead as carom-replay play's do, the
 * scene names its players' slots and says the goal as every screen does. */
static void test_viewer(const char *path) {
    carom_replay *replay = NULL;
    CHECK_OK(carom_replay_open(path, &replay));
    if (replay == NULL) return;
    carom_viewer *viewer = NULL;
    CHECK_OK(carom_viewer_create(replay, &viewer));
    carom_viewer_info info;
    CHECK_OK(carom_viewer_get_info(viewer, &info));
    CHECK(info.position == 0 && info.paused && info.speed == 1.0 && info.goals >= 2);
    CHECK(info.length > info.last_tick && strncmp(info.time, "0:00.0 / ", 9) == 0);
    carom_viewer_goal goals[2];
    size_t count = 0;
    CHECK_OK(carom_viewer_goals(viewer, goals, 2, &count));
    CHECK(count == info.goals);

    CHECK_OK(carom_viewer_press(viewer, CAROM_VIEW_NEXT_GOAL));
    CHECK_OK(carom_viewer_get_info(viewer, &info));
    CHECK(info.position == goals[0].tick && info.tick == goals[0].tick);
    CHECK_OK(carom_viewer_press(viewer, CAROM_VIEW_NEXT_GOAL));
    CHECK_OK(carom_viewer_press(viewer, CAROM_VIEW_PREVIOUS_GOAL));
    CHECK_OK(carom_viewer_get_info(viewer, &info));
    CHECK(info.position == goals[0].tick);
    CHECK(carom_viewer_press(viewer, 99) == CAROM_ERROR_ARGUMENT);

    /* In the goal's pause: "GOAL! ..." and every player's disk with its slot. */
    CHECK_OK(carom_viewer_seek(viewer, goals[0].tick + 30, NULL));
    carom_scene_disk disks[32];
    carom_scene_hud hud;
    CHECK_OK(carom_viewer_scene(viewer, -1, disks, 32, &count, &hud));
    CHECK(strncmp(hud.banner, "GOAL!", 5) == 0 && strcmp(hud.phase, "goal") == 0);
    CHECK(strchr(hud.clock, ':') != NULL);
    size_t players = 0;
    for (size_t i = 0; i < count && i < 32; ++i) {
        if (disks[i].ink == CAROM_INK_PUCK || disks[i].ink == CAROM_INK_DISC) {
            CHECK(disks[i].slot == -1);
        } else {
            CHECK(disks[i].slot >= 0);
            ++players;
        }
    }
    CHECK(players > 0);

    /* Faster, then played to the end: paused there, the final whistle said. */
    double speeds[8];
    CHECK_OK(carom_viewer_speeds(speeds, 8, &count));
    CHECK(count == 7 && speeds[0] == 0.25 && speeds[6] == 16.0);
    CHECK_OK(carom_viewer_press(viewer, CAROM_VIEW_FASTER));
    CHECK_OK(carom_viewer_press(viewer, CAROM_VIEW_PAUSE));
    CHECK_OK(carom_viewer_advance(viewer, 1.0));
    CHECK_OK(carom_viewer_get_info(viewer, &info));
    CHECK(info.speed == 2.0 && !info.paused && info.position == goals[0].tick + 30 + 120);
    CHECK_OK(carom_viewer_advance(viewer, 1e6));
    CHECK_OK(carom_viewer_get_info(viewer, &info));
    CHECK(info.paused && info.position == info.length && info.tick == info.last_tick);
    CHECK_OK(carom_viewer_scene(viewer, -1, disks, 32, &count, &hud));
    CHECK(strncmp(hud.banner, "FINAL ", 6) == 0);

    char text[16];
    CHECK_OK(carom_clock_text(5430, 60, text, sizeof text));
    CHECK(strcmp(text, "1:30.5") == 0);
    carom_viewer_free(viewer);
    carom_replay_free(replay);
}

/* A file cut short proves nothing, yet says the hash of its last tick. */
static void test_cut_replay(const char *path) {
    size_t size = 0;
    char *bytes = read_file(path, &size);
    CHECK(bytes != NULL && size > 9000);
    if (bytes == NULL) return;
    carom_replay *cut = NULL;
    CHECK_OK(carom_replay_open_bytes((const uint8_t *)bytes, 9000, &cut));
    free(bytes);
    if (cut == NULL) return;
    carom_verify_result verdict;
    CHECK_OK(carom_replay_verify(cut, &verdict));
    CHECK(!verdict.ok && !verdict.diverged && verdict.ticks > 0);
    uint64_t hash = 0;
    CHECK_OK(carom_replay_seek(cut, verdict.ticks));
    CHECK_OK(carom_match_state_hash(carom_replay_match(cut), &hash));
    CHECK(verdict.final_hash != 0 && verdict.final_hash == hash);
    carom_replay_free(cut);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MAPS_DIR REPLAY.crpl STADIUM.hbs\n", argv[0]);
        return 2;
    }
    char arena[4096], rink[4096];
    snprintf(arena, sizeof arena, "%s/arena.json", argv[1]);
    snprintf(rink, sizeof rink, "%s/rink.json", argv[1]);
    test_errors();
    carom_map *map = NULL;
    CHECK_OK(carom_map_load(arena, &map));
    if (map != NULL) {
        test_map(map);
        test_match(map);
        test_map_elsewhere(map, rink);
        carom_map_free(map);
    }
    test_replay(argv[2]);
    test_viewer(argv[2]);
    test_cut_replay(argv[2]);
    test_stadium(argv[3]);
    test_client();
    if (failures > 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("libcarom ABI: every check passed\n");
    return 0;
}
