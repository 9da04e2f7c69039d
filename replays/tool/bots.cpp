// carom-replay bots: a bot-only match on the map and seed a replay's header
// carries, every slot a bot, so that any build (even one without map files)
// re-runs the bot AI and the rules from the same start and prints the hash.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "carom/game/bot.hpp"
#include "carom/game/printable_name.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

struct BotsOptions {
    std::string file;
    std::uint64_t ticks = 3600;
};

int bots(const BotsOptions& o) {
    const auto replay = load(o.file);
    if (!replay) {
        std::fprintf(stderr, "carom-replay bots: %s\n", replay.error().message.c_str());
        return kExitUnreadable;
    }
    const game::Map& map = replay->header.map;
    game::Match match(map, replay->header.seed);
    // Every slot, filled left then right as `record` fills them.
    const std::uint32_t slots = 2 * map.team_size;
    for (std::uint32_t i = 0; i < slots; ++i) {
        const auto slot = match.free_slot(i % 2 == 0 ? game::Team::left : game::Team::right);
        if (!slot) break;
        match.join(*slot, "bot" + std::to_string(i));
    }
    std::vector<game::Input> inputs(slots);
    while (match.phase() != game::Phase::finished && match.tick() < o.ticks) {
        for (game::Slot s = 0; s < slots; ++s)
            inputs[s] = game::bot_input(match, s);
        match.step(inputs);
    }
    std::printf("%s: bots on %s (seed %llu): %llu ticks, %u-%u, final hash %016llx\n",
                o.file.c_str(), game::printable_name(map.name).c_str(),
                static_cast<unsigned long long>(replay->header.seed),
                static_cast<unsigned long long>(match.tick()), match.score(game::Team::left),
                match.score(game::Team::right),
                static_cast<unsigned long long>(match.state_hash()));
    return kExitOk;
}

}  // namespace

Command add_bots(CLI::App& app) {
    auto o = std::make_shared<BotsOptions>();
    CLI::App* cmd = app.add_subcommand(
        "bots", "Play a bot-only match on a replay's map and seed and print its final hash");
    cmd->add_option("file", o->file, "Replay whose header gives the map and seed")->required();
    cmd->add_option("--ticks", o->ticks, "Stop after this many ticks, or when the match ends")
        ->capture_default_str();
    return {cmd, [o] { return bots(*o); }};
}

}  // namespace carom::tool
