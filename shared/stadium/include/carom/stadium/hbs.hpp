#pragma once
// HaxBall's stadium files (.hbs, documented on the haxball-issues wiki,
// "Stadium (.hbs) File") imported as carom maps.
//
// Every documented field is either used or refused with the file, the field
// and the reason; fields that only set HaxBall's camera, background or
// hosting (cameraWidth, bg, canBeStored...) are accepted and listed in the
// notes, since carom's client draws the whole field and its own pitch.
// Keys outside the format and unknown collision flag names are passed over,
// as HaxBall does, and noted. docs/stadiums.md says what plays
// as in HaxBall and what differs.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "carom/game/map.hpp"
#include "carom/result.hpp"

namespace carom::stadium {

// What a stadium file leaves to the room that hosts it.
struct ImportOptions {
    std::uint32_t team_size = 0;  // 0: as many as both teams' spawn points, or 3
    std::uint32_t match_seconds = 180;
    std::uint32_t score_limit = 3;
};

struct Imported {
    game::Map map;
    std::vector<std::string> notes;  // fields accepted without an effect, and why
};

// `where` names the file in every error: "where: field: reason".
Result<Imported> import_stadium(std::string_view text, const std::string& where,
                                const ImportOptions& options = {});
Result<Imported> load_stadium_file(const std::filesystem::path& path,
                                   const ImportOptions& options = {});

// cot(degrees / 2) from + - * / alone (series of sine and cosine), so that
// an arc's centre is the same on every platform; degrees in (0, 360).
double cot_half_degrees(double degrees);

}  // namespace carom::stadium
