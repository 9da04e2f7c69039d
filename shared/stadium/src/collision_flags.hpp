#pragma once
// HaxBall's collision flags ("cGroup": ["ball", "c0"]) as carom's group and
// mask bits (game::groups, the same bits as HaxBall's).
#include <cstdint>
#include <optional>
#include <string>

#include "carom/game/map.hpp"
#include "carom/result.hpp"
#include "import_notes.hpp"
#include "stadium_object.hpp"

namespace carom::stadium::detail {

// The bit of a flag's name; none for a name the format does not have.
std::optional<std::uint32_t> flag_bits(const std::string& name);

// The flags at `key` ORed together, or `fallback` when absent. A name with no
// bit is passed over with a note, as HaxBall passes over it.
Result<std::uint32_t> flags(const StadiumObject& o, const std::string& key, std::uint32_t fallback,
                            ImportNotes& notes);

// "cGroup" and "cMask", each `fallback`'s when absent.
Result<game::Collision> collision(const StadiumObject& o, game::Collision fallback,
                                  ImportNotes& notes);

}  // namespace carom::stadium::detail
