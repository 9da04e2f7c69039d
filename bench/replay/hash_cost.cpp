#include "replay/hash_cost.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "carom/game/bot.hpp"
#include "carom/game/match.hpp"
#include "replay/load.hpp"

namespace carom::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct HashOptions {
    std::uint64_t ticks = 3000;
};

// The corpus file whose header holds each shipped map.
constexpr const char* kMapSources[] = {"duel-rink.crpl", "team-arena.crpl",
                                       "ten-minutes-stadium.crpl"};

// `base` with as many walls as a map may hold, outside the field where no
// disk goes: the cost of the statics alone.
game::Map most_walls(game::Map base) {
    base.name += " + walls";
    for (std::size_t i = base.boxes.size(); i < game::limits::kBoxesMax; ++i) {
        const double x = 1000.0 + static_cast<double>(i % 32) * 30.0;
        const double y = 1000.0 + static_cast<double>(i / 32) * 30.0;
        base.boxes.push_back({{x, y}, {10.0, 10.0}, {1.0, 0.0}});
    }
    for (std::size_t i = base.segments.size(); i < game::limits::kSegmentsMax; ++i) {
        const double x = -3000.0 - static_cast<double>(i % 32) * 30.0;
        const double y = 1000.0 + static_cast<double>(i / 32) * 30.0;
        base.segments.push_back({{x, y}, {x + 20.0, y + 5.0}});
    }
    return base;
}

struct Figures {
    double step_us = 0, hash_us = 0;
    std::uint64_t last_hash = 0;
};

// A full bot match of `ticks` (or until it ends), timing step and hash apart.
Figures run(const game::Map& map, std::uint64_t ticks, game::StaticsInHash how) {
    game::Match match(map, 1, how);
    for (std::uint32_t i = 0; i < match.slot_count(); ++i)
        match.join(i, "bot" + std::to_string(i));
    std::vector<game::Input> inputs(match.slot_count());
    Clock::duration step{}, hash{};
    std::uint64_t n = 0;
    Figures f;
    for (; n < ticks && match.phase() != game::Phase::finished; ++n) {
        for (game::Slot s = 0; s < match.slot_count(); ++s)
            inputs[s] = game::bot_input(match, s);
        const auto t0 = Clock::now();
        match.step(inputs);
        const auto t1 = Clock::now();
        f.last_hash ^= match.state_hash();
        const auto t2 = Clock::now();
        step += t1 - t0;
        hash += t2 - t1;
    }
    const auto us = [n](Clock::duration d) {
        return std::chrono::duration<double, std::micro>(d).count() / static_cast<double>(n);
    };
    f.step_us = us(step);
    f.hash_us = us(hash);
    return f;
}

int run_hash(const HashOptions& o) {
    std::vector<game::Map> maps;
    for (const char* file : kMapSources) {
        const auto loaded = load_replay(
            (std::filesystem::path(CAROM_SOURCE_DIR) / "replays" / "corpus" / file).string());
        if (!loaded) {
            fmt::print(stderr, "carom-bench hash: {}\n", loaded.error().message);
            return 1;
        }
        maps.push_back(loaded->replay.header.map);
    }
    maps.push_back(most_walls(maps[1]));
    fmt::print("state hash per tick, bots on every slot, {} ticks (µs per tick)\n", o.ticks);
    fmt::print("{:<16} {:>7} {:>9} {:>15} {:>13} {:>8}\n", "map", "statics", "step",
               "hash streamed", "hash folded", "ratio");
    for (const game::Map& map : maps) {
        const Figures streamed = run(map, o.ticks, game::StaticsInHash::streamed);
        const Figures folded = run(map, o.ticks, game::StaticsInHash::folded);
        const std::size_t statics = map.boxes.size() + map.segments.size();
        fmt::print("{:<16} {:>7} {:>9.2f} {:>15.2f} {:>13.2f} {:>7.1f}x\n", map.name, statics,
                   (streamed.step_us + folded.step_us) / 2, streamed.hash_us, folded.hash_us,
                   streamed.hash_us / folded.hash_us);
    }
    return 0;
}

}  // namespace

void add_hash_command(CLI::App& app) {
    auto o = std::make_shared<HashOptions>();
    CLI::App* cmd = app.add_subcommand(
        "hash", "Match::state_hash() per tick: statics streamed (core 1-2) vs folded (core 3)");
    cmd->add_option("--ticks", o->ticks, "Ticks per match")->capture_default_str();
    cmd->callback([o] {
        if (run_hash(*o) != 0) throw CLI::RuntimeError(1);
    });
}

}  // namespace carom::bench
