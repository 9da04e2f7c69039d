// carom-replay info: what a replay holds, as text or JSON.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "carom/game/printable_name.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

const char* team_name(game::Team t) {
    return t == game::Team::left ? "left" : "right";
}

const char* event_name(game::MatchEvent::Kind k) {
    switch (k) {
        case game::MatchEvent::Kind::goal:
            return "goal";
        case game::MatchEvent::Kind::kickoff:
            return "kickoff";
        case game::MatchEvent::Kind::end:
            return "end";
    }
    return "unknown";
}

nlohmann::json describe_json(const std::string& path, const replay::Replay& r) {
    const replay::Header& h = r.header;
    nlohmann::json j;
    j["file"] = path;
    j["bytes"] = r.file_size;
    j["format_version"] = h.format_version;
    j["core_version"] = h.core_version;
    j["producer"] = h.producer;
    j["map"] = game::printable_name(h.map.name);
    j["team_size"] = h.map.team_size;
    j["tick_rate"] = h.tick_rate;
    j["seed"] = h.seed;
    j["final_pause_ticks"] = h.final_pause_ticks;
    j["start_tick"] = h.start_tick;
    if (h.parent) {
        j["parent"] = {{"hash", replay::to_hex(h.parent->hash)},
                       {"name", h.parent->name},
                       {"tick", h.start_tick}};
    } else {
        j["parent"] = nullptr;
    }
    j["ticks"] = r.last_tick() - r.first_tick();
    j["last_tick"] = r.last_tick();
    j["seconds"] = static_cast<double>(r.last_tick() - r.first_tick()) / h.tick_rate;
    j["keyframes"] = r.keyframes.size();
    j["input_changes"] = r.inputs.size();
    nlohmann::json players = nlohmann::json::array();
    for (const game::RosterEntry& p : h.players)
        players.push_back(
            {{"slot", p.slot}, {"name", game::printable_name(p.name)}, {"bot", p.bot}});
    j["players"] = players;
    nlohmann::json roster = nlohmann::json::array();
    for (const game::RosterChange& c : r.roster) {
        nlohmann::json e{{"tick", c.tick}, {"slot", c.slot}, {"kind", c.join ? "join" : "leave"}};
        if (c.join) {
            e["name"] = game::printable_name(c.name);
            e["bot"] = c.bot;
        }
        roster.push_back(e);
    }
    j["roster"] = roster;
    nlohmann::json events = nlohmann::json::array();
    for (const game::MatchEvent& e : r.events) {
        nlohmann::json o{{"tick", e.tick}, {"kind", event_name(e.kind)}};
        if (e.kind == game::MatchEvent::Kind::goal) {
            o["team"] = team_name(e.team);
            o["puck"] = e.puck;
            o["scorer"] = e.scorer ? nlohmann::json(*e.scorer) : nlohmann::json(nullptr);
            if (e.own_goal_by) o["own_goal_by"] = *e.own_goal_by;
        }
        if (e.kind == game::MatchEvent::Kind::end)
            o["winner"] = e.draw ? "draw" : team_name(e.team);
        events.push_back(o);
    }
    j["events"] = events;
    if (r.footer) {
        j["score"] = {r.footer->score[0], r.footer->score[1]};
        j["result"] = replay::to_string(r.footer->result);
        j["final_hash"] = hex64(r.footer->final_hash);
    } else {
        j["score"] = nullptr;
        j["result"] = "incomplete";
    }
    j["problem"] = r.problem ? nlohmann::json(describe(*r.problem)) : nlohmann::json(nullptr);
    return j;
}

void print_text(const nlohmann::json& j) {
    std::printf("%s\n", j["file"].get<std::string>().c_str());
    std::printf("  map %s (%u v %u), seed %llu, %llu ticks at %u Hz (%.1f s)\n",
                j["map"].get<std::string>().c_str(), j["team_size"].get<unsigned>(),
                j["team_size"].get<unsigned>(), j["seed"].get<unsigned long long>(),
                j["ticks"].get<unsigned long long>(), j["tick_rate"].get<unsigned>(),
                j["seconds"].get<double>());
    if (!j["parent"].is_null())
        std::printf("  a branch of %s (XXH3-128 %s) at tick %llu, played on to tick %llu\n",
                    j["parent"]["name"].get<std::string>().c_str(),
                    j["parent"]["hash"].get<std::string>().c_str(),
                    j["start_tick"].get<unsigned long long>(),
                    j["last_tick"].get<unsigned long long>());
    else if (j["start_tick"].get<unsigned long long>() != 0)
        std::printf("  starts from the state of tick %llu\n",
                    j["start_tick"].get<unsigned long long>());
    std::printf("  format %u, core %u, written by %s, %llu bytes, %zu keyframes\n",
                j["format_version"].get<unsigned>(), j["core_version"].get<unsigned>(),
                j["producer"].get<std::string>().c_str(), j["bytes"].get<unsigned long long>(),
                j["keyframes"].get<std::size_t>());
    std::printf("  players at the start:");
    for (const auto& p : j["players"])
        std::printf(" %s(slot %u)", p["name"].get<std::string>().c_str(),
                    p["slot"].get<unsigned>());
    std::printf("\n  joins/leaves: %zu; events:", j["roster"].size());
    for (const auto& e : j["events"]) {
        if (e["kind"] == "goal") {
            std::printf(" goal %s @%llu%s;", e["team"].get<std::string>().c_str(),
                        e["tick"].get<unsigned long long>(),
                        e.contains("own_goal_by") ? " (own goal)" : "");
        }
    }
    if (j["score"].is_null()) {
        std::printf("\n  result: incomplete\n");
    } else {
        std::printf("\n  score %u-%u, %s\n", j["score"][0].get<unsigned>(),
                    j["score"][1].get<unsigned>(), j["result"].get<std::string>().c_str());
    }
    if (!j["problem"].is_null())
        std::printf("  read stopped %s\n", j["problem"].get<std::string>().c_str());
}

}  // namespace

Command add_info(CLI::App& app) {
    struct Options {
        std::string file;
        bool json = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("info", "Header, duration, players, score and events");
    cmd->add_option("file", o->file, "Replay file")->required();
    cmd->add_flag("--json", o->json, "One JSON object on stdout");
    return {cmd, [o] {
                auto r = load(o->file);
                if (!r) {
                    std::fprintf(stderr, "carom-replay info: %s\n", r.error().message.c_str());
                    return kExitUnreadable;
                }
                const nlohmann::json j = describe_json(o->file, *r);
                if (o->json) {
                    std::printf("%s\n", j.dump().c_str());
                } else {
                    print_text(j);
                }
                return r->problem ? kExitUnreadable : kExitOk;
            }};
}

}  // namespace carom::tool
