// carom-replay record: a headless bot match, as fast as the machine allows.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <variant>

#include "carom/cli/cli.hpp"
#include "carom/game/bot.hpp"
#include "carom/game/map.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/replay/reader.hpp"
#include "carom/replay/recorder.hpp"
#include "commands.hpp"
#include "load.hpp"
#ifdef CAROM_HAVE_MAP_FILES
#include "carom/maps/map_file.hpp"
#include "carom/maps/map_search.hpp"
#endif

namespace carom::tool {
namespace {

struct RecordOptions {
    std::string map;
    std::uint32_t players = 0;  // 0: every slot
    std::uint64_t ticks = 0;    // 0: until the match ends
    std::uint64_t seed = 1;
    std::string output;
    double kick_speed = 0.0;     // 0: the map's
    double churn_seconds = 0.0;  // 0: nobody joins or leaves
};

// A JSON map file, or a replay, whose embedded map is taken: builds without
// the JSON reader (the cross builds of the determinism matrix) record too.
Result<game::Map> load_map(const std::string& path) {
    char magic[8] = {};
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        const std::size_t got = std::fread(magic, 1, sizeof magic, f);
        std::fclose(f);
        if (got == sizeof magic && std::memcmp(magic, "CAROMRPL", sizeof magic) == 0) {
            auto read = replay::read_replay(path);
            if (!read) return fail(path + ": unreadable replay " + read.error().message);
            return std::move(read->header.map);
        }
    }
#ifdef CAROM_HAVE_MAP_FILES
    auto file = maps::resolve_map(path, maps::map_search_dirs());
    if (!file) return file.error();
    return maps::load_map_file(*file);
#else
    return fail(path +
                ": this build cannot read JSON maps (built without CAROM_MAP_FILES); "
                "give a replay to record on its map");
#endif
}

std::string bot_name(std::uint32_t n) {
    std::string name = "bot";
    name += std::to_string(n);
    return name;
}

int record(const RecordOptions& o) {
    auto loaded = load_map(o.map);
    if (!loaded) {
        std::fprintf(stderr, "carom-replay record: %s\n", loaded.error().message.c_str());
        return kExitUnreadable;
    }
    game::Map map = std::move(*loaded);
    if (o.kick_speed > 0.0) map.tuning.kick_speed = o.kick_speed;
    const std::uint32_t slots = 2 * map.team_size;
    if (o.players > slots) {
        std::fprintf(stderr, "carom-replay record: --players %u, map %s has %u slots\n", o.players,
                     game::printable_name(map.name).c_str(), slots);
        return kExitUnreadable;
    }

    // Fill slots alternately, left then right, as a server would.
    std::vector<game::RosterEntry> players;
    std::uint32_t next_bot = 0;
    {
        game::Match probe(map, o.seed);
        for (std::uint32_t i = 0; i < (o.players == 0 ? slots : o.players); ++i) {
            const auto slot = probe.free_slot(i % 2 == 0 ? game::Team::left : game::Team::right);
            probe.join(*slot, bot_name(next_bot));
            players.push_back({*slot, bot_name(next_bot++), true});
        }
    }
    game::Match match(map, o.seed);
    for (const game::RosterEntry& p : players)
        match.join(p.slot, p.name);
    replay::MatchRecorder recorder(o.output, match, "carom-replay record", players);
    const auto write_failed = [](const Error& error) {
        std::fprintf(stderr, "carom-replay record: %s\n", error.message.c_str());
        return kExitUnreadable;
    };
    if (const Status created = recorder.write_error(); !created)
        return write_failed(created.error());
    std::vector<game::Input> inputs(slots);
    // Joins and leaves come from their own generator, so they do not disturb the match's.
    game::Rng churn(o.seed ^ 0xC4A5E0F1A7B3D2E1ull);
    const auto churn_ticks = static_cast<std::uint64_t>(o.churn_seconds * game::kTickRate);

    const auto start = std::chrono::steady_clock::now();
    while (match.phase() != game::Phase::finished && (o.ticks == 0 || match.tick() < o.ticks)) {
        if (churn_ticks > 0 && match.tick() > 0 && match.tick() % churn_ticks == 0) {
            std::vector<game::Slot> active;
            for (game::Slot s = 0; s < slots; ++s)
                if (match.active(s)) active.push_back(s);
            const bool leave = !active.empty() && (active.size() == slots || churn.next() % 2 == 0);
            if (leave) {
                const game::Slot slot =
                    active[static_cast<std::size_t>(churn.next() % active.size())];
                recorder.leaving(match, slot);
                match.leave(slot);
            } else if (const auto slot = match.free_slot()) {
                const std::string name = bot_name(next_bot++);
                recorder.joining(match, *slot, name, true);
                match.join(*slot, name);
            }
        }
        for (game::Slot s = 0; s < slots; ++s)
            inputs[s] = game::bot_input(match, s);
        if (const Status recorded = recorder.stepped(match, match.step(inputs)); !recorded)
            return write_failed(recorded.error());
    }
    const Result<replay::Footer> finished = recorder.finish(match);
    if (!finished) return write_failed(finished.error());
    const replay::Footer& footer = *finished;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %s, %llu ticks (%.1f s of play), %u-%u, %s; %llu bytes, recorded in %.2f s\n",
                o.output.c_str(), game::printable_name(map.name).c_str(),
                static_cast<unsigned long long>(footer.final_tick),
                static_cast<double>(footer.final_tick) / game::kTickRate, footer.score[0],
                footer.score[1], replay::to_string(footer.result),
                static_cast<unsigned long long>(recorder.bytes_written()), seconds);
    return kExitOk;
}
}  // namespace

Command add_record(CLI::App& app) {
    auto o = std::make_shared<RecordOptions>();
    CLI::App* cmd = app.add_subcommand("record", "Play a headless bot match and record it");
    cmd->add_option("--map", o->map,
                    "Map name (arena), map file (JSON, schemas/map.fbs, or a HaxBall stadium "
                    "*.hbs), or a replay to take its map")
        ->required();
    cmd->add_option("--players", o->players, "Bots at the start (default: every slot)")
        ->check(carom::cli::finite(0, 1 << 16));
    cmd->add_option("--ticks", o->ticks,
                    "Stop after this many ticks (default: when the match ends)")
        ->check(carom::cli::at_least(0));
    cmd->add_option("--seed", o->seed, "Match seed")->capture_default_str();
    cmd->add_option("-o,--output", o->output, "Replay file to write")->required();
    cmd->add_option("--kick-speed", o->kick_speed, "Override the map's kick speed (units/s)")
        ->check(carom::cli::finite(0, game::limits::kKickSpeedMax));
    cmd->add_option("--churn", o->churn_seconds,
                    "Every this many seconds a bot leaves or a new one joins")
        ->check(carom::cli::finite(0, 86400));
    return {cmd, [o] { return record(*o); }};
}

}  // namespace carom::tool
