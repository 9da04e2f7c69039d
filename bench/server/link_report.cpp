#include "server/link_report.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "json_line.hpp"
#include "server/harness.hpp"
#include "server/link.hpp"

namespace carom::bench {
namespace {

// "a" or "a-b": the range of a figure over the seeds.
std::string range(const std::vector<double>& v, const char* format) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const std::string a = fmt::format(fmt::runtime(format), *lo);
    const std::string b = fmt::format(fmt::runtime(format), *hi);
    return a == b ? a : a + "-" + b;
}

// The range of `field` of the runs.
template <class Field>
std::string range_of(const std::vector<LinkFigures>& runs, Field field, const char* format) {
    std::vector<double> v;
    for (const LinkFigures& f : runs)
        v.push_back(field(f));
    return range(v, format);
}

std::filesystem::path map_named(const std::string& name) {
    return arena_map().parent_path() / (name + ".json");
}

void print_link_json(const LinkRunOptions& r, const std::string& map, const LinkFigures& f) {
    const DownstreamBytes& d = f.down;
    print_json_line({
        {"bench", "server_link"},
        {"map", map},
        {"clients", f.clients},
        {"rtt_ms", r.link.rtt_ms},
        {"jitter_ms", r.link.jitter_ms},
        {"loss_percent", r.link.loss_percent},
        {"seed", r.seed},
        {"seconds", r.seconds},
        {"down_bytes_per_s", rounded(f.down_bytes_per_s, 1)},
        {"down_datagrams_per_s", rounded(f.down_datagrams_per_s, 2)},
        {"up_bytes_per_s", rounded(f.up_bytes_per_s, 1)},
        {"up_datagrams_per_s", rounded(f.up_datagrams_per_s, 2)},
        {"mean_update_bytes", rounded(f.mean_update_bytes, 2)},
        {"full_state_bytes", rounded(f.full_state_bytes, 0)},
        {"full_states", f.full_states},
        {"floor_bytes_per_s", rounded(f.floor_bytes_per_s, 1)},
        {"input_changes", f.input_changes},
        {"repeated_share", rounded(f.repeated_share, 5)},
        {"undecodable", f.undecodable},
        {"hash_mismatches", f.hash_mismatches},
        {"resyncs", f.resyncs},
        {"down",
         {
             {"framing", rounded(d.framing, 1)},
             {"seal", rounded(d.mac, 1)},
             {"tick", rounded(d.tick, 1)},
             {"state", rounded(d.state, 1)},
             {"age", rounded(d.age, 1)},
             {"sequence", rounded(d.sequence, 1)},
             {"count", rounded(d.count, 1)},
             {"first_changes", rounded(d.first_changes, 1)},
             {"resent_changes", rounded(d.resent_changes, 1)},
             {"unused", rounded(d.unused, 1)},
             {"more_framing", rounded(d.more_framing, 1)},
             {"rare", rounded(d.rare, 1)},
             {"full_states", rounded(d.full_states, 1)},
         }},
    });
}

// One run of `map` under `link` per seed (each a JSON line with --json).
std::vector<LinkFigures> run_seeds(const ServerOptions& o, const std::string& map,
                                   const LinkCondition& link) {
    std::vector<LinkFigures> runs;
    for (const std::uint64_t seed : o.seeds) {
        LinkRunOptions r;
        r.map = map_named(map);
        r.seconds = o.link_seconds;
        r.seed = seed;
        r.link = link;
        runs.push_back(run_link(r));
        if (o.json) print_link_json(r, map, runs.back());
    }
    return runs;
}

// Where the downstream bytes of one condition went, per client per second,
// ranges over the seeds.
void print_breakdown(const char* title, const std::vector<LinkFigures>& runs) {
    const auto col = [&](auto field) { return range_of(runs, field, "{:.0f}"); };
    fmt::print(
        "  {}: down {} B/s = framing {} + seal {} + tick {} + state {} + stream [age {} + "
        "sequence {} + "
        "count {} + changes {} (first {}, again {}) + unused {}] + more {} + rare {} + full "
        "states {}; floor {}\n",
        title, col([](const LinkFigures& f) { return f.down_bytes_per_s; }),
        col([](const LinkFigures& f) { return f.down.framing; }),
        col([](const LinkFigures& f) { return f.down.mac; }),
        col([](const LinkFigures& f) { return f.down.tick; }),
        col([](const LinkFigures& f) { return f.down.state; }),
        col([](const LinkFigures& f) { return f.down.age; }),
        col([](const LinkFigures& f) { return f.down.sequence; }),
        col([](const LinkFigures& f) { return f.down.count; }),
        col([](const LinkFigures& f) { return f.down.first_changes + f.down.resent_changes; }),
        col([](const LinkFigures& f) { return f.down.first_changes; }),
        col([](const LinkFigures& f) { return f.down.resent_changes; }),
        col([](const LinkFigures& f) { return f.down.unused; }),
        col([](const LinkFigures& f) { return f.down.more_framing; }),
        col([](const LinkFigures& f) { return f.down.rare; }),
        col([](const LinkFigures& f) { return f.down.full_states; }),
        col([](const LinkFigures& f) { return f.floor_bytes_per_s; }));
}

void print_conditions_row(double rtt, double loss, const std::vector<LinkFigures>& runs) {
    fmt::print(
        "  {:>4} {:>4}% | {:>11} {:>11} | {:>11} {:>11} | {:>9} {:>7} | {:>9} {:>10} "
        "{:>9}\n",
        rtt, loss,
        range_of(
            runs, [](const LinkFigures& f) { return f.down_bytes_per_s; }, "{:.0f}"),
        range_of(
            runs,
            [](const LinkFigures& f) { return f.down_bytes_per_s + 28.0 * f.down_datagrams_per_s; },
            "{:.0f}"),
        range_of(
            runs, [](const LinkFigures& f) { return f.up_bytes_per_s; }, "{:.0f}"),
        range_of(
            runs,
            [](const LinkFigures& f) { return f.up_bytes_per_s + 28.0 * f.up_datagrams_per_s; },
            "{:.0f}"),
        range_of(
            runs, [](const LinkFigures& f) { return f.mean_update_bytes; }, "{:.1f}"),
        range_of(
            runs, [](const LinkFigures& f) { return f.full_state_bytes; }, "{:.0f}"),
        range_of(
            runs, [](const LinkFigures& f) { return f.floor_bytes_per_s; }, "{:.0f}"),
        range_of(
            runs, [](const LinkFigures& f) { return 100.0 * f.repeated_share; }, "{:.2f}"),
        range_of(
            runs, [](const LinkFigures& f) { return static_cast<double>(f.hash_mismatches); },
            "{:.0f}"));
}

// The arena under every round trip and loss, then where the bytes go on
// loopback and at 100 ms with 5 % loss.
void report_conditions(const ServerOptions& o) {
    if (!o.json)
        fmt::print(
            "  {:>4} {:>5} | {:>11} {:>11} | {:>11} {:>11} | {:>9} {:>7} | {:>9} {:>10} {:>9}\n",
            "rtt", "loss", "down B/s", "+UDP/IP", "up B/s", "+UDP/IP", "update B", "full B",
            "floor B/s", "repeated %", "mismatch");
    std::vector<LinkFigures> loopback, target;
    for (const double rtt : o.rtts_ms) {
        for (const double loss : o.losses_percent) {
            const LinkCondition link{rtt, rtt > 0 ? 10.0 : 0.0, loss};
            const std::vector<LinkFigures> runs = run_seeds(o, "arena", link);
            if (rtt == 0 && loss == 0) loopback = runs;
            if (rtt == 100 && loss == 5) target = runs;
            if (!o.json) print_conditions_row(rtt, loss, runs);
        }
    }
    if (!o.json) {
        fmt::print("\nWhere the downstream bytes go (arena, per client per second):\n");
        if (!loopback.empty()) print_breakdown("loopback", loopback);
        if (!target.empty()) print_breakdown("100 ms, 5 %", target);
    }
}

// Each map full of clients, on loopback and at 100 ms with 5 % loss.
void report_maps(const ServerOptions& o) {
    if (!o.json)
        fmt::print(
            "\nBytes per player per match minute, each map full of clients playing the game's bot "
            "(payload "
            "down, up):\n");
    for (const std::string& map : o.link_maps) {
        for (const LinkCondition& link : {LinkCondition{0, 0, 0}, LinkCondition{100, 10, 5}}) {
            const std::vector<LinkFigures> runs = run_seeds(o, map, link);
            if (o.json) continue;
            fmt::print(
                "  {:>8} ({:>2} players) {:>3} ms {:>2} %: down {:>13} B/min, up {:>13} B/min, "
                "floor {:>11} B/min\n",
                map, runs.front().clients, link.rtt_ms, link.loss_percent,
                range_of(
                    runs, [](const LinkFigures& f) { return 60.0 * f.down_bytes_per_s; }, "{:.0f}"),
                range_of(
                    runs, [](const LinkFigures& f) { return 60.0 * f.up_bytes_per_s; }, "{:.0f}"),
                range_of(
                    runs, [](const LinkFigures& f) { return 60.0 * f.floor_bytes_per_s; },
                    "{:.0f}"));
        }
    }
    if (!o.json) fmt::print("\n");
}

}  // namespace

void report_link(const ServerOptions& o) {
    if (!o.json)
        fmt::print(
            "Bandwidth through the link simulator: every slot a client playing the game's bot, "
            "60 Hz updates,\n{} s of play a run, seeds {}: ranges over the seeds. Per client; "
            "payload, then with UDP/IP\n(28 B a datagram). Jitter ±10 ms each way (none at 0 ms). "
            "floor: the players' input changes.\n"
            "Repeated: player ticks the server had no input for. Mismatch: failed state checks at "
            "the "
            "clients.\n",
            o.link_seconds, fmt::join(o.seeds, " "));
    report_conditions(o);
    // --maps "": no per-map runs.
    if (o.link_maps.empty() || o.link_maps.front().empty()) return;
    report_maps(o);
}

}  // namespace carom::bench
