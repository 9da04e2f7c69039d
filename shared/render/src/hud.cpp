#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "hud.hpp"

namespace carom::render {
namespace {

std::string_view phase_word(Phase phase) {
    switch (phase) {
        case Phase::playing:
            return "";
        case Phase::kickoff:
            return "kick-off";
        case Phase::goal:
            return "GOAL!";
        case Phase::final:
            return "final";
        case Phase::waiting:
            return "waiting";
    }
    return "";
}

}  // namespace

std::string hud_clock(std::uint64_t ticks_left, std::uint32_t tick_rate_hz) {
    const std::uint64_t rate = tick_rate_hz == 0 ? 60 : tick_rate_hz;
    const std::uint64_t seconds = (ticks_left + rate - 1) / rate;  // 0:00 only at the whistle
    return fmt::format("{}:{:02}", seconds / 60, seconds % 60);
}

std::string hud_phase_text(const Hud& hud) {
    return hud.banner.empty() ? std::string(phase_word(hud.phase)) : hud.banner;
}

std::vector<HudPart> hud_parts(const Hud& hud) {
    // Most important first: parts are dropped from the end when space runs out.
    std::vector<HudPart> parts;
    parts.push_back({fmt::format("left {} : {} right", hud.score[0], hud.score[1]), Ink::text});
    parts.push_back({hud_clock(hud.ticks_left, hud.tick_rate_hz), Ink::text});
    const bool loud = hud.phase == Phase::goal || hud.phase == Phase::final;
    if (std::string phase = hud_phase_text(hud); !phase.empty())
        parts.push_back({std::move(phase), loud ? Ink::alert : Ink::text});
    if (hud.ping_ms) parts.push_back({fmt::format("ping {:.0f} ms", *hud.ping_ms), Ink::text});
    if (hud.loss) parts.push_back({fmt::format("loss {:.1f}%", *hud.loss * 100.0), Ink::text});
    if (hud.kb_in_per_s && hud.kb_out_per_s)
        parts.push_back(
            {fmt::format("{:.1f}/{:.1f} kB/s", *hud.kb_in_per_s, *hud.kb_out_per_s), Ink::text});
    if (hud.server_tick) parts.push_back({fmt::format("tick {}", *hud.server_tick), Ink::text});
    if (!hud.note.empty()) parts.push_back({hud.note, Ink::text});
    return parts;
}

std::vector<HudPart> fitting_parts(const Hud& hud, int width) {
    std::vector<HudPart> kept;
    int used = 0;
    for (HudPart& part : hud_parts(hud)) {
        const int needed = static_cast<int>(part.text.size()) + (kept.empty() ? 0 : 2);
        if (used + needed > width) break;
        used += needed;
        kept.push_back(std::move(part));
    }
    return kept;
}

std::string hud_line(const Hud& hud, int width) {
    std::string line;
    for (const HudPart& part : fitting_parts(hud, width)) {
        if (!line.empty()) line += "  ";
        line += part.text;
    }
    return line;
}

}  // namespace carom::render
