// Fuzz entry for the replay reader: any bytes as a replay file. What reads
// is also re-simulated when short, so the verifier meets damaged replays too
// (a long one would make each run slow without reaching more code).
#include <variant>
#include <vector>

#include "carom/replay/reader.hpp"
#include "carom/replay/verify.hpp"
#include "entries.hpp"

namespace carom::fuzz {

constexpr std::uint64_t kMaxVerifiedTicks = 400;

int replay_reader(std::span<const std::uint8_t> input) {
    const std::vector<std::uint8_t> bytes(input.begin(), input.end());
    const auto read = replay::read_replay(bytes);
    if (read && read->last_tick() <= kMaxVerifiedTicks)
        (void)replay::verify(*read, {.synctest = true, .progress = {}});
    return 0;
}

}  // namespace carom::fuzz
