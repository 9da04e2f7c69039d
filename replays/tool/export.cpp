// carom-replay export: per-tick entity states as JSON lines, for analysis and plots.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "carom/cli/cli.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/replay/resimulation.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

nlohmann::json disk_json(const physics::DiskState& d) {
    return {{"x", d.position.x}, {"y", d.position.y}, {"vx", d.velocity.x}, {"vy", d.velocity.y}};
}

nlohmann::json tick_json(const game::Match& m) {
    nlohmann::json players = nlohmann::json::array();
    for (game::Slot s = 0; s < m.slot_count(); ++s) {
        if (!m.active(s)) continue;
        nlohmann::json p = disk_json(m.player_disk(s));
        p["slot"] = s;
        p["name"] = game::printable_name(m.name(s));
        p["team"] = m.team_of(s) == game::Team::left ? "left" : "right";
        p["input"] = m.last_input(s).bits();
        players.push_back(p);
    }
    nlohmann::json pucks = nlohmann::json::array();
    for (std::uint32_t i = 0; i < m.puck_count(); ++i)
        pucks.push_back(disk_json(m.puck_disk(i)));
    nlohmann::json out = {{"tick", m.tick()},
                          {"phase", static_cast<int>(m.phase())},
                          {"score", {m.score(game::Team::left), m.score(game::Team::right)}},
                          {"hash", hex64(m.state_hash())},
                          {"players", players},
                          {"pucks", pucks}};
    if (m.disc_count() > 0) {  // maps of HaxBall's stadiums with movable discs
        nlohmann::json discs = nlohmann::json::array();
        for (std::uint32_t i = 0; i < m.disc_count(); ++i)
            discs.push_back(disk_json(m.disc_disk(i)));
        out["discs"] = std::move(discs);
    }
    return out;
}

int export_json(const std::string& file, std::uint64_t every) {
    const auto r = load(file);
    if (!r) {
        std::fprintf(stderr, "carom-replay export: %s\n", r.error().message.c_str());
        return kExitUnreadable;
    }
    replay::Resimulation sim(*r);
    std::printf("%s\n", tick_json(sim.match()).dump().c_str());
    while (sim.tick() < r->last_tick()) {
        if (const auto stepped = sim.step(); !stepped) {
            std::fprintf(stderr, "carom-replay export: %s: %s\n", file.c_str(),
                         stepped.error().message.c_str());
            return kExitUnreadable;
        }
        if (sim.tick() % every == 0 || sim.tick() == r->last_tick())
            std::printf("%s\n", tick_json(sim.match()).dump().c_str());
    }
    if (r->problem) {
        std::fprintf(stderr,
                     "carom-replay export: %s: exported up to tick %llu, the file stops %s\n",
                     file.c_str(), static_cast<unsigned long long>(r->last_tick()),
                     describe(*r->problem).c_str());
        return kExitUnreadable;
    }
    return kExitOk;
}

}  // namespace

Command add_export(CLI::App& app) {
    struct Options {
        std::string file;
        bool json = false;
        std::uint64_t every = 1;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "export", "Per-tick entity states as JSON, one object per line (tick 0 first)");
    cmd->add_option("file", o->file, "Replay file")->required();
    cmd->add_flag("--json", o->json, "JSON lines (the only format)")->required();
    cmd->add_option("--every", o->every, "Only every Nth tick")
        ->capture_default_str()
        ->check(carom::cli::finite(1, 1e18));
    return {cmd, [o] { return export_json(o->file, o->every); }};
}

}  // namespace carom::tool
