/* carom_viewer.h: carom-replay's viewer behind the C ABI, for the browser
 * page (`carom-replay html`): any tick of a replay from its nearest keyframe,
 * the goals for the timeline, and the scene `carom-replay play` draws. It
 * extends carom.h, whose conventions it follows; the page's WebAssembly
 * module exports both.
 */
#ifndef CAROM_VIEWER_H
#define CAROM_VIEWER_H

#include "carom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_viewer carom_viewer;

/* A viewer of `replay` at tick 0; the replay must outlive it. */
CAROM_API carom_status carom_viewer_create(const carom_replay* replay, carom_viewer** out);
CAROM_API void carom_viewer_free(carom_viewer* viewer);

typedef struct carom_viewer_info {
    uint64_t tick;      /* where the viewer is */
    uint64_t last_tick; /* the last tick the file holds */
    uint64_t length;    /* of the timeline: last_tick, then the final whistle's pause */
    uint32_t tick_rate;
    uint32_t goals;
} carom_viewer_info;
CAROM_API carom_status carom_viewer_get_info(const carom_viewer* viewer, carom_viewer_info* out);

/* Goes to `tick` (at most the last): from the nearest keyframe at or before
 * it, or on from where it is when that is shorter. *steps (when not NULL)
 * says how many ticks it re-simulated. */
CAROM_API carom_status carom_viewer_seek(carom_viewer* viewer, uint64_t tick, uint64_t* steps);

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

/* What `carom-replay play` draws at the viewer's tick, following `follow`
 * (a slot, or -1 for nobody). The HUD's banner is the goal's ("GOAL! by
 * ann", "GOAL! own goal by bob") during its pause, the final whistle's at
 * the end of a finished match, or where a damaged file stops. */
CAROM_API carom_status carom_viewer_scene(carom_viewer* viewer, int32_t follow,
                                          carom_scene_disk* disks, size_t capacity, size_t* count,
                                          carom_scene_hud* hud);

#ifdef __cplusplus
}
#endif

#endif /* CAROM_VIEWER_H */
