#include "replay/report.hpp"

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "json.hpp"

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
std::string json_file_keys(std::string_view bench, const LoadedReplay& file) {
    const replay::Header& h = file.replay.header;
    return fmt::format(
        "\"bench\":\"{}\",\"file\":{},\"map\":{},\"team_size\":{},\"ticks\":{},\"seconds\":{}",
        bench, json_string(file.path), json_string(h.map.name), h.map.team_size,
        file.replay.last_tick(), json_number(seconds_of_play(file), "{:.3f}"));
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
    fmt::print("\n-- {}: map {} ({} v {}), {} ticks ({:.1f} s), {} players at tick 0, {} "
               "joins/leaves, {} bytes, read in {:.2f} ms\n",
               file.path, r.header.map.name, r.header.map.team_size, r.header.map.team_size,
               r.last_tick(), seconds_of_play(file), r.header.players.size(), r.roster.size(),
               file.bytes.size(), file.read_ms);
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
    fmt::print(
        "{{{},\"verified\":{},\"problem\":{},\"warmup_runs\":{},\"runs\":{},\"read_ms\":{},"
        "\"median_ms\":{},\"best_ms\":{},\"us_per_tick\":{},\"best_us_per_tick\":{},"
        "\"ticks_per_s\":{},\"x_realtime\":{},\"best_x_realtime\":{},\"target_x_realtime\":{},"
        "\"x_target\":{},\"ten_minute_match_ms\":{}}}\n",
        json_file_keys("replay_verify", file), speed.verified,
        speed.verified ? "null" : json_string(speed.problem), settings.warmup_runs,
        settings.timed_runs, json_number(file.read_ms, "{:.3f}"),
        json_number(median * 1e3, "{:.3f}"), json_number(best * 1e3, "{:.3f}"),
        json_number(speed.us_per_tick(median), "{:.4f}"),
        json_number(speed.us_per_tick(best), "{:.4f}"),
        json_number(1e6 / speed.us_per_tick(median), "{:.0f}"),
        json_number(speed.x_realtime(median), "{:.1f}"),
        json_number(speed.x_realtime(best), "{:.1f}"), kTargetXRealtime,
        json_number(speed.x_realtime(median) / kTargetXRealtime, "{:.3f}"),
        json_number(speed.ten_minute_ms(median), "{:.2f}"));
    flush();
}

void print_json_size(const LoadedReplay& file, const SizeFigures& size) {
    const ByteBreakdown& b = size.bytes;
    const double stream = per_player_minute(b.input_stream(), size);
    fmt::print(
        "{{{},\"total_bytes\":{},\"player_minutes\":{},\"input_stream_bytes\":{},"
        "\"inputs_bytes\":{},\"roster_bytes\":{},\"events_bytes\":{},"
        "\"input_stream_bytes_per_player_minute\":{},\"target_bytes_per_player_minute\":{},"
        "\"x_target\":{},\"doom_bytes_per_player_minute\":{},\"rest_bytes\":{},"
        "\"hashes_bytes\":{},\"keyframes_bytes\":{},\"header_bytes\":{},\"footer_bytes\":{},"
        "\"framing_bytes\":{},\"rest_bytes_per_player_minute\":{},"
        "\"total_bytes_per_player_minute\":{}}}\n",
        json_file_keys("replay_size", file), b.total(),
        json_number(player_minutes(size.player_ticks), "{:.6g}"), b.input_stream(), b.inputs,
        b.roster, b.events, json_number(stream, "{:.1f}"), kTargetBytesPerPlayerMinute,
        json_number(stream / kTargetBytesPerPlayerMinute, "{:.3f}"), kDoomBytesPerPlayerMinute,
        b.rest(), b.hashes, b.keyframes, b.header, b.footer, b.framing,
        json_number(per_player_minute(b.rest(), size), "{:.1f}"),
        json_number(per_player_minute(b.total(), size), "{:.1f}"));
    flush();
}

}  // namespace carom::bench
