/* carom.h: carom behind a C ABI (libcarom).
 *
 * Maps, the match, replays and a client without sockets, for any language
 * that can call C. The match steps exactly as carom-server's does, bit for
 * bit, on every machine: a program built on this header can follow a server's
 * match, verify a replay, or train bots on local matches.
 *
 * Conventions:
 * - Objects are opaque handles made by a *_create, *_load or *_open call and
 *   released by the matching *_free (which takes NULL). A handle is used by
 *   one thread at a time; different handles may be used on different threads.
 * - Calls that can fail return a carom_status; on failure carom_last_error()
 *   says why, in one line, until this thread's next failed call. Nothing
 *   throws across the ABI, and a failed call changes nothing (but
 *   carom_replay_step, which stops before the tick it could not step).
 * - The caller owns every buffer: a call fills at most `capacity` items and
 *   says how many there were in `*count`, so a second call with room for
 *   them all gets them all.
 * - A `const carom_match *` obtained from a client or a replay is borrowed:
 *   read-only, valid until the next call on its owner.
 * - Positions are in map units with y up, velocities in units per second,
 *   time in ticks of CAROM_TICK_RATE per second.
 */
#ifndef CAROM_H
#define CAROM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(CAROM_BUILDING_DLL)
#define CAROM_API __declspec(dllexport)
#elif defined(_WIN32)
#define CAROM_API
#else
#define CAROM_API __attribute__((visibility("default")))
#endif

/* Bumped when a declaration here changes incompatibly. */
#define CAROM_ABI_VERSION 4
#define CAROM_TICK_RATE 60
/* The largest datagram a client sends or accepts. */
#define CAROM_MAX_DATAGRAM 1200

typedef enum carom_status {
    CAROM_OK = 0,
    CAROM_ERROR_ARGUMENT = 1, /* a null pointer, an index out of range, a bad value */
    CAROM_ERROR_DATA = 2,     /* a map, replay or state refused: the message says why */
    CAROM_ERROR_IO = 3,       /* a file that could not be read */
    CAROM_ERROR_STATE = 4,    /* not now: a borrowed match (read-only), a full match, a
                               * match that holds no state yet */
    CAROM_ERROR_INTERNAL = 5  /* out of memory, or a bug */
} carom_status;

CAROM_API uint32_t carom_abi_version(void);
/* The library's version, e.g. "0.1.0". */
CAROM_API const char* carom_version(void);
/* Why this thread's last failed call failed ("" before any). */
CAROM_API const char* carom_last_error(void);

/* ---- Inputs: one byte per player per tick ----------------------------- */
/* Bits 0-3: one of 16 directions, k × 22.5° counter-clockwise from +x;
 * bit 4: moving; bit 5: kick. Other bits are ignored. */
#define CAROM_INPUT_MOVE 0x10u
#define CAROM_INPUT_KICK 0x20u
/* The input nearest to the wish (dx, dy), as the game quantises it: idle
 * when both are 0. */
CAROM_API uint8_t carom_input_toward(double dx, double dy, int kick);

/* ---- Maps -------------------------------------------------------------- */
typedef struct carom_map carom_map;

/* A map file: carom's JSON (*.json) or a HaxBall stadium (*.hbs). */
CAROM_API carom_status carom_map_load(const char* path, carom_map** out);
CAROM_API carom_status carom_map_parse_json(const char* text, size_t size, carom_map** out);
CAROM_API carom_status carom_map_parse_hbs(const char* text, size_t size, carom_map** out);
/* The binary form servers send and replays embed (schemas/map.fbs, "CMAP"). */
CAROM_API carom_status carom_map_from_binary(const uint8_t* bytes, size_t size, carom_map** out);
CAROM_API void carom_map_free(carom_map* map);

typedef struct carom_map_info {
    char name[65];
    double width, height; /* the field is [0, width] × [0, height] */
    uint32_t team_size;
    uint32_t slots; /* player slots: two teams of team_size */
    uint32_t pucks;
    uint32_t discs;  /* movable discs that are neither pucks nor players */
    uint32_t shapes; /* walls to draw: carom_map_shape */
    uint32_t posts;
    uint32_t goals;
    uint32_t match_seconds;
    uint32_t score_limit; /* 0: none */
    double player_radius, puck_radius;
    uint64_t hash; /* of the binary form: what servers name the map by */
} carom_map_info;
CAROM_API carom_status carom_map_get_info(const carom_map* map, carom_map_info* out);

typedef enum carom_shape_kind {
    CAROM_SHAPE_SEGMENT = 0, /* a to b */
    CAROM_SHAPE_ARC = 1,     /* around c, counter-clockwise from a to b */
    CAROM_SHAPE_PLANE = 2,   /* the points p with dot(p, n) = offset, n a unit vector */
    CAROM_SHAPE_BOX = 3      /* centre c, half extents (hx, hy) along axis n and its normal */
} carom_shape_kind;

typedef struct carom_shape {
    int32_t kind; /* carom_shape_kind */
    int32_t visible;
    uint32_t rgb; /* 0xRRGGBB, for a stadium's walls; 0: the default colour */
    double ax, ay, bx, by;
    double cx, cy;
    double nx, ny, offset;
    double hx, hy;
} carom_shape;
/* index < info.shapes: the map's boxes, then its segments, then its walls. */
CAROM_API carom_status carom_map_shape(const carom_map* map, uint32_t index, carom_shape* out);

typedef struct carom_circle {
    double x, y, radius;
    uint32_t rgb;
} carom_circle;
CAROM_API carom_status carom_map_post(const carom_map* map, uint32_t index, carom_circle* out);
/* A movable disc where it starts. */
CAROM_API carom_status carom_map_disc(const carom_map* map, uint32_t index, carom_circle* out);

typedef struct carom_goal {
    int32_t defender;      /* the team that defends it: 0 left, 1 right */
    double ax, ay, bx, by; /* the posts */
} carom_goal;
CAROM_API carom_status carom_map_goal(const carom_map* map, uint32_t index, carom_goal* out);

/* ---- The match ---------------------------------------------------------- */
typedef struct carom_match carom_match;
typedef struct carom_state carom_state;

typedef enum carom_phase {
    CAROM_PHASE_PLAYING = 0,
    CAROM_PHASE_GOAL_PAUSE = 1,
    CAROM_PHASE_FINISHED = 2
} carom_phase;

/* A match on `map` (which may be freed afterwards). */
CAROM_API carom_status carom_match_create(const carom_map* map, uint64_t seed, carom_match** out);
CAROM_API void carom_match_free(carom_match* match);

/* A free slot of `team` (0 left, 1 right, -1 either: the smaller team). */
CAROM_API carom_status carom_match_free_slot(const carom_match* match, int32_t team,
                                             uint32_t* slot);
CAROM_API carom_status carom_match_join(carom_match* match, uint32_t slot, const char* name);
CAROM_API carom_status carom_match_leave(carom_match* match, uint32_t slot);

/* Steps `ticks` ticks, each with `inputs[slot]` for every slot (count must
 * be info.slots; empty slots' inputs are ignored). The events are those of
 * the ticks stepped. A finished match does not step. */
CAROM_API carom_status carom_match_step(carom_match* match, const uint8_t* inputs, size_t count,
                                        uint32_t ticks);
/* The same for several matches in one call (trainers step many at once):
 * `inputs` holds each match's slot inputs in turn. `phases`, when not NULL,
 * gets each match's phase after the call (match_count of them). */
CAROM_API carom_status carom_matches_step(carom_match* const* matches, size_t match_count,
                                          const uint8_t* inputs, size_t input_count, uint32_t ticks,
                                          int32_t* phases);
/* What a trainer observes of several matches, in one call: for each match
 * in turn, CAROM_OBSERVE_HEAD values (tick, phase, left score, right score),
 * then x, y, vx, vy of every disk in carom_match_disks' order. */
#define CAROM_OBSERVE_HEAD 4
CAROM_API carom_status carom_matches_observe(const carom_match* const* matches, size_t match_count,
                                             double* values, size_t capacity, size_t* count);
/* The game's bot input for `slot` (what a server plays for an empty slot). */
CAROM_API carom_status carom_match_bot_input(const carom_match* match, uint32_t slot,
                                             uint8_t* input);

typedef struct carom_match_info {
    uint64_t tick;
    int32_t phase; /* carom_phase */
    uint32_t score[2];
    uint64_t ticks_left;
    uint32_t slots, pucks, discs;
    uint32_t players; /* slots taken */
    uint64_t seed;
} carom_match_info;
CAROM_API carom_status carom_match_get_info(const carom_match* match, carom_match_info* out);
/* The 64-bit hash of every bit that shapes the future: equal hashes, equal matches. */
CAROM_API carom_status carom_match_state_hash(const carom_match* match, uint64_t* hash);

typedef enum carom_disk_kind {
    CAROM_DISK_PUCK = 0,
    CAROM_DISK_PLAYER = 1,
    CAROM_DISK_DISC = 2
} carom_disk_kind;

typedef struct carom_disk {
    int32_t kind;   /* carom_disk_kind */
    uint32_t index; /* the puck, the slot, the disc */
    int32_t team;   /* a player's: 0 left, 1 right; -1 otherwise */
    int32_t active; /* a player's slot is taken (free slots are parked off the field) */
    double x, y, vx, vy, radius;
} carom_disk;
/* Every disk: the pucks, then a disk per slot, then the movable discs. */
CAROM_API carom_status carom_match_disks(const carom_match* match, carom_disk* disks,
                                         size_t capacity, size_t* count);

typedef struct carom_player {
    uint32_t slot;
    int32_t team;
    int32_t active;
    char name[33];
    uint32_t goals;
    uint8_t last_input; /* the input byte (see Inputs) this player's last stepped tick
                         * applied: a free slot keeps its last player's */
} carom_player;
CAROM_API carom_status carom_match_player(const carom_match* match, uint32_t slot,
                                          carom_player* out);

typedef enum carom_event_kind {
    CAROM_EVENT_GOAL = 0,
    CAROM_EVENT_KICKOFF = 1,
    CAROM_EVENT_END = 2
} carom_event_kind;

typedef struct carom_event {
    int32_t kind; /* carom_event_kind */
    uint64_t tick;
    int32_t team;        /* goal: the scoring team; end: the winner */
    uint32_t puck;       /* goal: the puck */
    int32_t scorer;      /* goal: the slot credited, or -1 */
    int32_t own_goal_by; /* goal: the defender who put it in, or -1 */
    int32_t draw;        /* end: a draw */
} carom_event;
/* The events of the last carom_match_step (or of the replay's last step). */
CAROM_API carom_status carom_match_events(const carom_match* match, carom_event* events,
                                          size_t capacity, size_t* count);

/* The whole state, to go back to it later (search, training, rewinds). */
CAROM_API carom_status carom_match_save(const carom_match* match, carom_state** out);
/* Into a match on the same map: the state was saved from one. */
CAROM_API carom_status carom_match_restore(carom_match* match, const carom_state* state);
CAROM_API void carom_state_free(carom_state* state);

/* ---- Replays ------------------------------------------------------------ */
typedef struct carom_replay carom_replay;

/* A .crpl file (or its bytes), checked chunk by chunk: a file cut or damaged
 * after its header opens up to its last good chunk (carom_replay_info's
 * problem says where); one whose start is unusable is refused. */
CAROM_API carom_status carom_replay_open(const char* path, carom_replay** out);
CAROM_API carom_status carom_replay_open_bytes(const uint8_t* bytes, size_t size,
                                               carom_replay** out);
CAROM_API void carom_replay_free(carom_replay* replay);

typedef struct carom_replay_info {
    uint32_t format_version, core_version;
    char producer[65];
    char map_name[65];
    uint64_t seed;
    uint64_t ticks; /* the last tick recorded (a branch starts past 0, where its parent was) */
    uint32_t keyframes;
    int32_t has_footer;
    uint64_t final_hash; /* the footer's (0 without one) */
    uint32_t score[2];   /* the footer's */
    char problem[160];   /* why reading stopped early ("" when it did not) */
} carom_replay_info;
CAROM_API carom_status carom_replay_get_info(const carom_replay* replay, carom_replay_info* out);
/* The map the replay embeds (a new handle, the caller's to free). */
CAROM_API carom_status carom_replay_map(const carom_replay* replay, carom_map** out);

typedef struct carom_roster_entry {
    uint64_t tick; /* joined or left before this tick's step (0: at the start) */
    uint32_t slot;
    int32_t join; /* 1 joined, 0 left */
    int32_t bot;
    char name[33];
} carom_roster_entry;
/* Who played: the players at tick 0, then every join and leave. */
CAROM_API carom_status carom_replay_roster(const carom_replay* replay, carom_roster_entry* entries,
                                           size_t capacity, size_t* count);

/* The match as re-simulated at the replay's position (tick 0 on opening). */
CAROM_API const carom_match* carom_replay_match(const carom_replay* replay);
/* Steps up to `ticks` ticks (not beyond the last); *stepped says how many.
 * A tick whose changes the match refuses (a damaged file) is not stepped:
 * CAROM_ERROR_DATA, with the replay before it and *stepped set. */
CAROM_API carom_status carom_replay_step(carom_replay* replay, uint64_t ticks, uint64_t* stepped);
/* Goes to `tick` (at most the last), from the nearest keyframe before it. */
CAROM_API carom_status carom_replay_seek(carom_replay* replay, uint64_t tick);
/* A new match (the caller's to free) in the replay's state after `tick`
 * (0: the start), to play on from there: stepped with the recorded inputs it
 * stays the recorded match, hash for hash. The replay's position moves to
 * `tick`. A tick past the last: CAROM_ERROR_ARGUMENT. */
CAROM_API carom_status carom_replay_match_at(carom_replay* replay, uint64_t tick,
                                             carom_match** out);

typedef struct carom_verify_result {
    int32_t ok;          /* every tick's hash, every keyframe and the footer agree */
    uint64_t ticks;      /* ticks re-simulated and matched */
    uint64_t final_hash; /* the state hash after the last of them (tick 0's when none), with
                          * or without a footer: a file cut short has one too */
    int32_t diverged;
    uint64_t divergence_tick;
    char what[256]; /* "" when ok: else the first check that failed */
} carom_verify_result;
/* Re-simulates the whole replay against itself (the replay's position is
 * left as it was). */
CAROM_API carom_status carom_replay_verify(const carom_replay* replay, carom_verify_result* out);

/* ---- Scenes: what carom's screens draw --------------------------------- */
typedef enum carom_ink {
    CAROM_INK_LEFT = 0,
    CAROM_INK_RIGHT = 1,
    CAROM_INK_PUCK = 2,
    CAROM_INK_OWN = 3, /* the player's own disk */
    CAROM_INK_DISC = 4 /* a stadium's movable disc, in its rgb */
} carom_ink;

typedef struct carom_scene_disk {
    double x, y, radius;
    int32_t ink; /* carom_ink */
    uint32_t rgb;
    int32_t slot; /* a player's disk: its slot (carom_match_player names it); else -1 */
} carom_scene_disk;

typedef struct carom_scene_hud {
    uint32_t score[2];
    uint64_t ticks_left;
    char phase[16]; /* "playing", "kickoff", "goal", "final", "waiting" */
    /* What every carom screen says over the phase, or "": during a goal's
     * pause "GOAL! ann", "GOAL! own goal by bob", "GOAL! left" (no one
     * credited) or "GOAL!" (not known yet); at the final whistle "FINAL 3-2
     * left wins" or "FINAL 2-2 DRAW"; a replay viewer at the end of a file
     * that stops early says where and why. */
    char banner[96];
    char clock[16]; /* ticks_left as the HUD shows it: "m:ss", rounded up */
    /* What the HUD says of the phase: the banner, else "kick-off", "GOAL!",
     * "final" or "waiting" ("" while playing). */
    char phase_text[96];
} carom_scene_hud;

/* ---- The replay viewer ---------------------------------------------------- */
/* What carom-replay play does, for a program that shows a replay (the replay
 * page): a playhead on a timeline (the file's ticks, then the final
 * whistle's pause when the match finished), moved by keys and by the
 * caller's clock; the match brought to the playhead's tick from the nearest
 * keyframe; the goals; the scene with the HUD's words. The caller maps its
 * keys to carom_view_key and draws. */
typedef struct carom_viewer carom_viewer;

/* A viewer of `replay` at tick 0, paused, at 1x; the replay must outlive it. */
CAROM_API carom_status carom_viewer_create(const carom_replay* replay, carom_viewer** out);
CAROM_API void carom_viewer_free(carom_viewer* viewer);

typedef enum carom_view_key {
    CAROM_VIEW_PAUSE = 0,  /* pause, play; at the end, play again from the start */
    CAROM_VIEW_FASTER = 1, /* the next of carom_viewer_speeds */
    CAROM_VIEW_SLOWER = 2, /* the previous one */
    CAROM_VIEW_BACK_5S = 3,
    CAROM_VIEW_FORWARD_5S = 4,
    CAROM_VIEW_BACK_30S = 5,
    CAROM_VIEW_FORWARD_30S = 6,
    CAROM_VIEW_PREVIOUS_GOAL = 7, /* to the last goal before the match's tick */
    CAROM_VIEW_NEXT_GOAL = 8,     /* to the first goal after it */
    CAROM_VIEW_TICK_BACK = 9,     /* one tick, while paused */
    CAROM_VIEW_TICK_FORWARD = 10, /* one tick, while paused */
    CAROM_VIEW_HOME = 11,
    CAROM_VIEW_END = 12
} carom_view_key;

typedef struct carom_viewer_info {
    uint64_t tick;      /* the match's: min(position, last_tick) */
    uint64_t last_tick; /* the last tick the file holds */
    uint64_t length;    /* of the timeline: last_tick, then the final whistle's pause */
    uint64_t position;  /* the playhead, in [0, length] */
    double speed;       /* one of carom_viewer_speeds */
    int32_t paused;     /* playing stops, paused, at the end of the timeline */
    uint32_t tick_rate;
    uint32_t goals;
    char time[40]; /* the timeline's words: "m:ss.t / m:ss.t", the playhead and the length */
} carom_viewer_info;
CAROM_API carom_status carom_viewer_get_info(const carom_viewer* viewer, carom_viewer_info* out);

/* The speeds the viewer plays at, slowest first (0.25 to 16). */
CAROM_API carom_status carom_viewer_speeds(double* speeds, size_t capacity, size_t* count);
/* The speed of carom_viewer_speeds nearest to `speed`. */
CAROM_API carom_status carom_viewer_set_speed(carom_viewer* viewer, double speed);

/* A key (carom_view_key: CAROM_ERROR_ARGUMENT for another value), then the
 * match brought to the playhead. */
CAROM_API carom_status carom_viewer_press(carom_viewer* viewer, int32_t key);
/* Moves the playhead by `seconds` of the caller's clock at the viewer's
 * speed (nothing while paused), then brings the match to it. */
CAROM_API carom_status carom_viewer_advance(carom_viewer* viewer, double seconds);
/* Puts the playhead at `position` (at most the length) and brings the match
 * to its tick: from the nearest keyframe at or before it, or on from where it
 * is when that is shorter. *steps (when not NULL) says how many ticks it
 * re-simulated. The other moves fail as this one does: CAROM_ERROR_DATA when
 * the file asks for something the match refuses, the match at the tick
 * before. */
CAROM_API carom_status carom_viewer_seek(carom_viewer* viewer, uint64_t position, uint64_t* steps);

/* The match at the viewer's tick: borrowed, valid until the next call. */
CAROM_API const carom_match* carom_viewer_match(const carom_viewer* viewer);

typedef struct carom_viewer_goal {
    uint64_t tick;       /* the step that scored */
    int32_t team;        /* the scoring team: 0 left, 1 right */
    int32_t scorer;      /* the slot credited, or -1 */
    int32_t own_goal_by; /* the defender who put it in, or -1 */
} carom_viewer_goal;
CAROM_API carom_status carom_viewer_goals(const carom_viewer* viewer, carom_viewer_goal* goals,
                                          size_t capacity, size_t* count);

/* What carom-replay play draws at the viewer's tick, following `follow` (a
 * slot, or -1 for nobody): the disks (carom_scene_disk, below) and the HUD
 * (carom_scene_hud), whose banner is the one every carom screen shows. */
CAROM_API carom_status carom_viewer_scene(carom_viewer* viewer, int32_t follow,
                                          carom_scene_disk* disks, size_t capacity, size_t* count,
                                          carom_scene_hud* hud);

/* `ticks` as the viewer writes a time: "m:ss.t" (tenths rounded down), cut
 * to `capacity` bytes with its terminating NUL. */
CAROM_API carom_status carom_clock_text(uint64_t ticks, uint32_t tick_rate, char* text,
                                        size_t capacity);

/* ---- A client without sockets ---------------------------------------- */
/* The caller owns the socket, the clock and the thread: it feeds the client
 * each datagram from the server and the time, ticks it CAROM_TICK_RATE
 * times a second, sends the datagrams it takes from it, and reads what to
 * draw. The client keeps an exact copy of the room's match, predicts the
 * player's disk and interpolates the others, as carom-client does. */
typedef struct carom_client carom_client;

typedef struct carom_client_config {
    const char* name; /* NULL: "player" */
    int32_t room;     /* -1: the first room with space */
    int32_t spectator;
    uint64_t token;        /* random per player: the same token reclaims a slot */
    const char* map_dirs;  /* where <map>.json files are, ':'-separated; NULL: none */
    const char* map_cache; /* a directory for maps fetched from servers; NULL: none kept */
    int32_t bot;           /* the game's bot steers instead of carom_client_set_input */
    /* 1: the host says when a key goes up (carom_client_key with down 0), as
     * a browser does, and a key steers while it is down (a tap shorter than a
     * tick steers that one tick); 0: presses only, as most terminals report
     * them, each holding its direction for a moment. */
    int32_t key_releases;
    /* A connect token (carom_token_make's bytes) for a server started with
     * --token-key; NULL: none. Copied by carom_client_create, which fails
     * with CAROM_ERROR_DATA when the bytes are not a token. */
    const uint8_t* connect_token;
    size_t connect_token_size;
} carom_client_config;
CAROM_API void carom_client_config_init(carom_client_config* config);

CAROM_API carom_status carom_client_create(const carom_client_config* config, carom_client** out);
CAROM_API void carom_client_free(carom_client* client);

/* Starts the handshake. */
CAROM_API carom_status carom_client_start(carom_client* client, uint64_t now_ms);
/* One datagram from the server (any bytes: what is not valid is dropped). */
CAROM_API carom_status carom_client_receive(carom_client* client, const uint8_t* bytes, size_t size,
                                            uint64_t now_ms);
/* One client tick: retries and timeouts, then this tick's input sent. */
CAROM_API carom_status carom_client_tick(carom_client* client, uint64_t now_ms);
/* The input of the next ticks, until changed (the keys no longer steer). */
CAROM_API carom_status carom_client_set_input(carom_client* client, uint8_t input);

/* The keys a player steers with, as carom-client reads them (WASD or the
 * arrows, space): the host maps its own keys to these. */
typedef enum carom_key {
    CAROM_KEY_UP = 0,
    CAROM_KEY_DOWN = 1,
    CAROM_KEY_LEFT = 2,
    CAROM_KEY_RIGHT = 3,
    CAROM_KEY_KICK = 4
} carom_key;
/* A key pressed (down 1) or, with key_releases, let go (down 0): each tick
 * sends the input of the keys held (two directions make a diagonal). */
CAROM_API carom_status carom_client_key(carom_client* client, int32_t key, int32_t down,
                                        uint64_t now_ms);

/* A map's binary (as the server sends it: carom_client_map_bytes gives one)
 * that the host kept, offered before or while connecting: when Accepted
 * names its hash, the client plays it instead of fetching it, and
 * carom_client_info's map_source says "the host's cache". CAROM_ERROR_DATA
 * when the bytes are not a playable map. */
CAROM_API carom_status carom_client_add_map(carom_client* client, const uint8_t* bytes,
                                            size_t size);
/* The binary of the room's map once known (the bytes its hash is of), for
 * the host to keep: its size in *size; with a buffer of at least that many
 * bytes (capacity), the bytes too. CAROM_ERROR_STATE before the map is known. */
CAROM_API carom_status carom_client_map_bytes(const carom_client* client, uint8_t* buffer,
                                              size_t capacity, size_t* size);
/* Says goodbye to the server (one more datagram to send). */
CAROM_API carom_status carom_client_quit(carom_client* client, uint64_t now_ms);
/* The oldest datagram waiting to be sent: its size in *size (0: none),
 * removed from the queue. capacity must be at least CAROM_MAX_DATAGRAM. */
CAROM_API carom_status carom_client_take_datagram(carom_client* client, uint8_t* buffer,
                                                  size_t capacity, size_t* size);

typedef enum carom_client_state {
    CAROM_CLIENT_IDLE = 0,
    CAROM_CLIENT_CONNECTING = 1,
    CAROM_CLIENT_CONNECTED = 2,
    CAROM_CLIENT_CLOSED = 3
} carom_client_state;

typedef struct carom_client_info {
    int32_t state; /* carom_client_state */
    uint32_t client_id;
    uint32_t room;
    int32_t slot; /* -1: a spectator */
    int32_t team;
    char map_name[65];
    int32_t has_map;      /* found, or fetched from the server */
    int32_t has_state;    /* the copy holds the room's match */
    uint64_t server_tick; /* the server's tick of the copy's state (0 before has_state) */
    double rtt_ms;        /* the latest round trip, or -1 */
    int32_t ended;        /* over for this client: message says why */
    int32_t exit_code;    /* as carom-client's, once ended */
    char message[160];
    char map_source[160]; /* the file the map was found in, or "the server" (fetched) */
    /* Whether the copy of the match is sound. Every update carries a proof of
     * the server's state hash: a copy that fails it is dropped and a FullState
     * asked for (a resync), so a sound session shows state_check_failures and
     * resyncs at 0 after its first FullState. */
    uint64_t full_states;          /* FullStates taken (the first one included) */
    uint64_t state_check_failures; /* copies found not to be the server's */
    uint64_t resyncs;              /* times the copy was dropped for a FullState */
    uint64_t bytes_in;             /* datagram bytes received, and sent */
    uint64_t bytes_out;
} carom_client_info;
CAROM_API carom_status carom_client_get_info(const carom_client* client, carom_client_info* out);
/* The room's map (NULL until it is known) and the client's exact copy of
 * the match (NULL until a state came): borrowed. */
CAROM_API const carom_map* carom_client_map(const carom_client* client);
CAROM_API const carom_match* carom_client_match(const carom_client* client);

/* What carom-client would draw at now_ms: disks in drawing order (your disk
 * predicted, the others interpolated) and the HUD. */
CAROM_API carom_status carom_client_scene(carom_client* client, uint64_t now_ms,
                                          carom_scene_disk* disks, size_t capacity, size_t* count,
                                          carom_scene_hud* hud);

/* ---- Connect tokens: what a backend gives a player for a token server ----
 * (schemas/PROTOCOL.md, "Connect tokens"). A server started with
 * --token-key FILE admits only players with a token made with its key. */
#define CAROM_TOKEN_KEY_BYTES 32
/* The largest token carom_token_make makes. */
#define CAROM_MAX_CONNECT_TOKEN 1002
/* A new random key (32 bytes) into `key`: the file carom-token keygen
 * writes holds it as 64 hexadecimal digits. */
CAROM_API carom_status carom_token_keygen(uint8_t* key);
/* A token for player `player_id` named `name` (1-15 printable ASCII, no
 * spaces), good at the `server_count` servers ("HOST:PORT" as each server
 * names itself: 1 to 4, each at most 64 bytes) from `now_unix_s` for
 * `lifetime_s` seconds, with `user_data` (at most 256 bytes; NULL with 0).
 * Its size in *size; its bytes in `token` (capacity at least
 * CAROM_MAX_CONNECT_TOKEN is always enough). CAROM_ERROR_ARGUMENT when a
 * value breaks a limit, or the buffer is too small. As text (a file's line,
 * the play page's #token=), a token is base64url without padding. */
CAROM_API carom_status carom_token_make(const uint8_t* key, uint64_t player_id, const char* name,
                                        const char* const* servers, size_t server_count,
                                        const uint8_t* user_data, size_t user_data_size,
                                        uint64_t now_unix_s, uint64_t lifetime_s, uint8_t* token,
                                        size_t capacity, size_t* size);

/* ---- The status query: what a server runs, asked before any session ---- */
/* A StatusRequest datagram asking for the rooms from `first_room` (padded:
 * the reply is never larger), into buffer (capacity at least
 * CAROM_MAX_DATAGRAM); its size in *size. */
CAROM_API carom_status carom_status_request(uint32_t first_room, uint8_t* buffer, size_t capacity,
                                            size_t* size);
/* A datagram read as the server's Status reply, written as the JSON
 * `carom-client --list --json` prints (plus "first_room" and "rooms_total":
 * a reply lists the rooms that fit, ask again from the next); `server` names
 * the server in it. The text's length in *length (without its '\0'); with
 * capacity > *length, the text too. CAROM_ERROR_DATA when the bytes are not
 * a Status reply. */
CAROM_API carom_status carom_status_json(const uint8_t* bytes, size_t size, const char* server,
                                         char* out, size_t capacity, size_t* length);

#ifdef __cplusplus
}
#endif

#endif /* CAROM_H */
