#include "replay/report.hpp"

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "json_line.hpp"

namespace carom::bench {
namespace {

void flush() {
    std::fflush(stdout);
}

double seconds_of_play(const LoadedReplay& file) {
    return static_cast<double>(file.replay.last_tick()) / game::kTickRate;
}

double per_player_minute(std::uint64_t bytes, const SizeFigures& size) {
    return static_cast<double>(bytes) / player_minutes(size.player_ticks);
}

// The keys both lines start with.
JsonLine json_file_keys(std::string_view bench, const LoadedReplay& file) {
    const replay::Header& h = file.replay.header;
    return {{"bench", bench},
            {"file", file.path},
            {"map", h.map.name},
            {"team_size", h.map.team_size},
            {"ticks", file.replay.last_tick()},
            {"seconds", rounded(seconds_of_play(file), 3)}};
}

}  // namespace

void print_table_preamble(const VerifySettings& settings) {
    fmt::print(
        "carom-bench replay: replay::verify (no synctest) and the file's bytes, on recorded "
        "matches\n");
    fmt::print(
        "  verify: {} warm-up + {} timed runs per file, best and median; x real time = game "
        "time ({} ticks/s) / wall time; target >= {:.0f}x\n",
        settings.warmup_runs, settings.timed_runs, game::kTickRate, kTargetXRealtime);
    fmt::print(
        "  size: input stream = TickBatch inputs + roster changes + game events; player-minutes "
        "= sum over ticks of active players / {}; target <= {:.0f} B per player-minute at {} Hz "
        "(Doom's demo format: 4 B per player per tic at 35 Hz = {:.0f} B per player-minute); "
        "KB = 1000 B\n",
        60 * game::kTickRate, kTargetBytesPerPlayerMinute, game::kTickRate,
        kDoomBytesPerPlayerMinute);
    flush();
}

void print_table_file(const LoadedReplay& file) {
    const replay::Replay& r = file.replay;
    fmt::print(
        "\n-- {}: map {} ({} v {}), {} ticks ({:.1f} s), {} players at tick 0, {} "
        "joins/leaves, {} bytes, read in {:.2f} ms\n",
        file.path, r.header.map.name, r.header.map.team_size, r.header.map.team_size, r.last_tick(),
        seconds_of_play(file), r.header.players.size(), r.roster.size(), file.bytes.size(),
        file.read_ms);
    flush();
}

void print_table_verify(const VerifySpeed& speed) {
    const double median = speed.median_seconds;
    const double best = speed.best_seconds;
    fmt::print(
        "verify  median {:.2f} ms ({:.3f} us/tick): {:.0f}x real time = {:.2f} x the {:.0f}x "
        "target; best {:.2f} ms ({:.0f}x); a 10-minute match in {:.1f} ms\n",
        median * 1e3, speed.us_per_tick(median), speed.x_realtime(median),
        speed.x_realtime(median) / kTargetXRealtime, kTargetXRealtime, best * 1e3,
        speed.x_realtime(best), speed.ten_minute_ms(median));
    if (!speed.verified) fmt::print("        NOT VERIFIED: {}\n", speed.problem);
    flush();
}

void print_table_size(const SizeFigures& size) {
    const ByteBreakdown& b = size.bytes;
    const double stream = per_player_minute(b.input_stream(), size);
    fmt::print(
        "size    input stream {} B (inputs {}, roster {}, events {}) over {:.2f} player-minutes "
        "= {:.0f} B per player-minute = {:.2f} x the {:.0f} B target; Doom needs {:.0f} B "
        "(35 Hz), {:.1f} x this\n",
        b.input_stream(), b.inputs, b.roster, b.events, player_minutes(size.player_ticks), stream,
        stream / kTargetBytesPerPlayerMinute, kTargetBytesPerPlayerMinute,
        kDoomBytesPerPlayerMinute, kDoomBytesPerPlayerMinute / stream);
    fmt::print(
        "        rest {} B = {:.0f} B per player-minute (hashes {}, keyframes {}, header {}, "
        "footer {}, framing {}); file {} B = {:.0f} B per player-minute\n",
        b.rest(), per_player_minute(b.rest(), size), b.hashes, b.keyframes, b.header, b.footer,
        b.framing, b.total(), per_player_minute(b.total(), size));
    flush();
}

void print_json_verify(const LoadedReplay& file, const VerifySpeed& speed,
                       const VerifySettings& settings) {
    const double median = speed.median_seconds;
    const double best = speed.best_seconds;
    JsonLine line = json_file_keys("replay_verify", file);
    line["verified"] = speed.verified;
    line["problem"] = speed.verified ? JsonLine() : JsonLine(speed.problem);
    line["warmup_runs"] = settings.warmup_runs;
    line["runs"] = settings.timed_runs;
    line["read_ms"] = rounded(file.read_ms, 3);
    line["median_ms"] = rounded(median * 1e3, 3);
    line["best_ms"] = rounded(best * 1e3, 3);
    line["us_per_tick"] = rounded(speed.us_per_tick(median), 4);
    line["best_us_per_tick"] = rounded(speed.us_per_tick(best), 4);
    line["ticks_per_s"] = rounded(1e6 / speed.us_per_tick(median), 0);
    line["x_realtime"] = rounded(speed.x_realtime(median), 1);
    line["best_x_realtime"] = rounded(speed.x_realtime(best), 1);
    line["target_x_realtime"] = kTargetXRealtime;
    line["x_target"] = rounded(speed.x_realtime(median) / kTargetXRealtime, 3);
    line["ten_minute_match_ms"] = rounded(speed.ten_minute_ms(median), 2);
    print_json_line(line);
}

void print_json_size(const LoadedReplay& file, const SizeFigures& size) {
    const ByteBreakdown& b = size.bytes;
    const double stream = per_player_minute(b.input_stream(), size);
    JsonLine line = json_file_keys("replay_size", file);
    line["total_bytes"] = b.total();
    line["player_minutes"] = player_minutes(size.player_ticks);
    line["input_stream_bytes"] = b.input_stream();
    line["inputs_bytes"] = b.inputs;
    line["roster_bytes"] = b.roster;
    line["events_bytes"] = b.events;
    line["input_stream_bytes_per_player_minute"] = rounded(stream, 1);
    line["target_bytes_per_player_minute"] = kTargetBytesPerPlayerMinute;
    line["x_target"] = rounded(stream / kTargetBytesPerPlayerMinute, 3);
    line["doom_bytes_per_player_minute"] = kDoomBytesPerPlayerMinute;
    line["rest_bytes"] = b.rest();
    line["hashes_bytes"] = b.hashes;
    line["keyframes_bytes"] = b.keyframes;
    line["header_bytes"] = b.header;
    line["footer_bytes"] = b.footer;
    line["framing_bytes"] = b.framing;
    line["rest_bytes_per_player_minute"] = rounded(per_player_minute(b.rest(), size), 1);
    line["total_bytes_per_player_minute"] = rounded(per_player_minute(b.total(), size), 1);
    print_json_line(line);
}

}  // namespace carom::bench
