/* replay_hash: re-simulates a carom replay with libcarom and prints its
 * final state hash, as `carom-replay verify` does.
 *
 *   cc replay_hash.c $(pkg-config --cflags --libs carom) -o replay_hash
 *   ./replay_hash match.crpl
 */
#include <stdio.h>

#include <carom.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s REPLAY.crpl\n", argv[0]);
        return 2;
    }
    carom_replay *replay = NULL;
    if (carom_replay_open(argv[1], &replay) != CAROM_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], carom_last_error());
        return 2;
    }
    carom_replay_info info;
    uint64_t stepped = 0, hash = 0;
    if (carom_replay_get_info(replay, &info) != CAROM_OK ||
        carom_replay_step(replay, info.ticks, &stepped) != CAROM_OK ||
        carom_match_state_hash(carom_replay_match(replay), &hash) != CAROM_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], carom_last_error());
        carom_replay_free(replay);
        return 1;
    }
    printf("%s: %llu ticks, final hash %016llx", argv[1], (unsigned long long)stepped,
           (unsigned long long)hash);
    int agrees = info.has_footer && info.final_hash == hash;
    printf(agrees ? ", as the file's footer says\n" : ", NOT the file's footer's\n");
    carom_replay_free(replay);
    return agrees ? 0 : 1;
}
