#include "carom/client/frame.hpp"

namespace carom::client {

DiskLayout disk_layout_of(const game::Match& match) {
    return {match.puck_count(), match.slot_count(), match.disc_count()};
}

Frame frame_of(const game::Match& match, std::uint64_t server_tick) {
    Frame f;
    f.tick = server_tick;
    f.phase = match.phase();
    f.score = {match.score(game::Team::left), match.score(game::Team::right)};
    f.ticks_left = match.ticks_left();
    f.disks.reserve(disk_layout_of(match).size());
    for (std::uint32_t p = 0; p < match.puck_count(); ++p) {
        const physics::DiskState& d = match.puck_disk(p);
        f.disks.push_back({d.position, d.velocity});
    }
    for (game::Slot s = 0; s < match.slot_count(); ++s) {
        const physics::DiskState& d = match.player_disk(s);
        f.disks.push_back({d.position, d.velocity});
        if (match.active(s)) f.active_mask |= std::uint64_t{1} << s;
    }
    for (std::uint32_t i = 0; i < match.disc_count(); ++i) {
        const physics::DiskState& d = match.disc_disk(i);
        f.disks.push_back({d.position, d.velocity});
    }
    return f;
}

}  // namespace carom::client
