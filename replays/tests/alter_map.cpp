// replay_alter_map IN OUT: writes OUT, a copy of the replay IN whose
// embedded map has its first box moved by 1e-9 along x; everything else
// (inputs, roster, hashes, keyframes, footer) is IN's. A verifier must find
// that the file's map is not the one its match was played on. For the
// browser page's tests, which have no other way to make such a file.
#include <cstdio>

#include "carom/replay/reader.hpp"
#include "carom/replay/writer.hpp"

using namespace carom;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: replay_alter_map IN.crpl OUT.crpl\n");
        return 2;
    }
    auto read = replay::read_replay(argv[1]);
    if (!read || read->problem || !read->footer || read->header.map.boxes.empty()) {
        std::fprintf(stderr, "replay_alter_map: %s: want a whole replay on a map with a box\n",
                     argv[1]);
        return 2;
    }
    const replay::Replay& r = *read;
    replay::Header header = r.header;
    header.map.boxes[0].center.x += 1e-9;

    replay::ReplayWriter out(argv[2], header);
    std::vector<game::Input> applied(2 * std::size_t{r.header.map.team_size});
    std::size_t input = 0;
    std::size_t roster = 0;
    std::size_t event = 0;
    std::size_t keyframe = 0;
    const auto keyframes_at = [&](std::uint64_t tick) {
        for (; keyframe < r.keyframes.size() && r.keyframes[keyframe].state.tick == tick;
             ++keyframe)
            if (!out.add_keyframe(r.keyframes[keyframe])) return false;
        return true;
    };
    const auto failed = [&] {
        std::fprintf(stderr, "replay_alter_map: %s\n", out.write_error().error().message.c_str());
        return 2;
    };
    if (!keyframes_at(0)) return failed();
    for (std::uint64_t tick = 1; tick <= r.last_tick(); ++tick) {
        for (; roster < r.roster.size() && r.roster[roster].tick == tick; ++roster) {
            out.add_roster(r.roster[roster]);
            applied.at(r.roster[roster].slot) = {};  // a join or leave resets the input
        }
        for (; input < r.inputs.size() && r.inputs[input].tick == tick; ++input)
            applied.at(r.inputs[input].slot) = r.inputs[input].input;
        const std::size_t first = event;
        while (event < r.events.size() && r.events[event].tick == tick)
            ++event;
        // The file keeps the top tick_hash_bits of each hash: put them back on top.
        const std::uint64_t hash = r.tick_hash_bits >= 64
                                       ? r.hashes[tick - 1]
                                       : r.hashes[tick - 1] << (64 - r.tick_hash_bits);
        if (!out.add_tick(tick, applied, hash, std::span(r.events).subspan(first, event - first)) ||
            !keyframes_at(tick))
            return failed();
    }
    if (!out.finish(*r.footer)) return failed();
    return 0;
}
