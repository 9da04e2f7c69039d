// carom-replay index DIR / find DIR: the SQLite index of a replay directory
// (shared/replay_index), rebuilt from the files and queried.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "carom/game/printable_name.hpp"
#include "carom/replay_index/index.hpp"
#include "commands.hpp"

namespace carom::tool {
namespace {

struct IndexOptions {
    std::string dir;
};

int index(const IndexOptions& o) {
    auto opened = replay_index::Index::open(o.dir);
    if (!opened) {
        std::fprintf(stderr, "carom-replay index: %s\n", opened.error().message.c_str());
        return kExitUnreadable;
    }
    const auto report = opened->sync();
    if (!report) {
        std::fprintf(stderr, "carom-replay index: %s\n", report.error().message.c_str());
        return kExitUnreadable;
    }
    std::printf("%s/%s: %llu added, %llu removed, %llu unchanged, %llu unreadable (left out)\n",
                o.dir.c_str(), replay_index::kIndexFileName,
                static_cast<unsigned long long>(report->added),
                static_cast<unsigned long long>(report->removed),
                static_cast<unsigned long long>(report->kept),
                static_cast<unsigned long long>(report->unreadable));
    return kExitOk;
}

struct FindOptions {
    std::string dir;
    replay_index::FindQuery query;
    bool json = false;
};

nlohmann::json to_json(const replay_index::MatchRow& r) {
    nlohmann::json players = nlohmann::json::array();
    for (const auto& p : r.players)
        players.push_back({{"slot", p.slot},
                           {"name", game::printable_name(p.name)},
                           {"team", p.team},
                           {"bot", p.bot}});
    return {{"file", r.file},
            {"bytes", r.file_bytes},
            {"room", r.room ? nlohmann::json(*r.room) : nlohmann::json()},
            {"map", game::printable_name(r.map)},
            {"seed", r.seed},
            {"start", r.start_time},
            {"end", r.end_time},
            {"ticks", r.ticks},
            {"seconds", r.seconds},
            {"score", {r.score_left, r.score_right}},
            {"result", r.result},
            {"final_hash", r.final_hash},
            {"format_version", r.format_version},
            {"core_version", r.core_version},
            {"producer", game::printable_name(r.producer)},
            {"players", players}};
}

int find(const FindOptions& o) {
    auto opened = replay_index::Index::open(o.dir);
    if (!opened) {
        std::fprintf(stderr, "carom-replay find: %s\n", opened.error().message.c_str());
        return kExitUnreadable;
    }
    const auto rows = opened->find(o.query);
    if (!rows) {
        std::fprintf(stderr, "carom-replay find: %s\n", rows.error().message.c_str());
        return kExitUnreadable;
    }
    for (const replay_index::MatchRow& r : *rows) {
        if (o.json) {
            std::printf("%s\n", to_json(r).dump().c_str());
            continue;
        }
        std::string players;
        for (const auto& p : r.players)
            players +=
                (players.empty() ? "" : ", ") + game::printable_name(p.name) + " (" + p.team + ")";
        std::printf("%s  %s  %s  %.0f s  %u-%u %s  %s\n", r.end_time.c_str(), r.file.c_str(),
                    game::printable_name(r.map).c_str(), r.seconds, r.score_left, r.score_right,
                    r.result.c_str(), players.c_str());
    }
    return kExitOk;
}

}  // namespace

Command add_index(CLI::App& app) {
    auto o = std::make_shared<IndexOptions>();
    CLI::App* cmd = app.add_subcommand(
        "index", "Rebuild DIR/index.sqlite from the replays in DIR (the files stay the truth)");
    cmd->add_option("dir", o->dir, "Replay directory")->required()->check(CLI::ExistingDirectory);
    return {cmd, [o] { return index(*o); }};
}

Command add_find(CLI::App& app) {
    auto o = std::make_shared<FindOptions>();
    CLI::App* cmd = app.add_subcommand(
        "find", "Matches in DIR's index (carom-replay index DIR builds it), oldest first");
    cmd->add_option("dir", o->dir, "Replay directory")->required()->check(CLI::ExistingDirectory);
    cmd->add_option("--player", o->query.player, "Someone who played in it (exact name)");
    cmd->add_option("--map", o->query.map, "Its map's name");
    cmd->add_option("--since", o->query.since,
                    "Ended at or after this UTC date or time (2026-01-31 or 2026-01-31T18:00:00Z)");
    cmd->add_flag("--json", o->json, "One JSON object per match");
    return {cmd, [o] { return find(*o); }};
}

}  // namespace carom::tool
