#pragma once
// What one frame shows: the map, where the disks are drawn, and the HUD
// figures. Plain values, filled by the client (live) or the replay viewer.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "carom/game/map.hpp"
#include "carom/game/match.hpp"
#include "carom/render/grid.hpp"

namespace carom::render {

struct DiskView {
    game::Vec2 position;  // map units, y up
    double radius = 1.0;
    Ink ink = Ink::puck;             // team_left, team_right, puck, own, or wall (a stadium's disc)
    std::uint32_t rgb = kInkColour;  // a stadium disc's own colour
    std::optional<game::Slot> slot{};  // a player's disk: its slot (the name to draw beside it)
};

// What the phase line says.
enum class Phase : std::uint8_t { playing, kickoff, goal, final, waiting };

struct Hud {
    std::array<std::uint32_t, 2> score{};
    std::uint64_t ticks_left = 0;
    std::uint32_t tick_rate_hz = 60;
    Phase phase = Phase::playing;
    // Replaces the phase word when set: phase_banner() (scene_builder.hpp),
    // or what a host says instead (where a damaged replay stops).
    std::string banner;
    // Network figures; absent ones are left out (the replay viewer has none).
    std::optional<double> ping_ms;
    std::optional<double> loss;  // fraction in [0, 1]
    std::optional<double> kb_in_per_s;
    std::optional<double> kb_out_per_s;
    std::optional<std::uint64_t> server_tick;
    std::string note;  // shown last, e.g. "you: left" or a problem
};

struct RosterLine {
    std::string name;
    game::Team team = game::Team::left;
    std::uint32_t goals = 0;
    bool bot = false;
    bool you = false;
};

struct Scene {
    const game::Map* map = nullptr;
    std::span<const DiskView> disks;
    Hud hud;
    std::string help;                    // bottom line; empty: the arena takes it
    std::span<const RosterLine> roster;  // drawn over the arena when not empty
};

}  // namespace carom::render
