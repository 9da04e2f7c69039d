#pragma once
// The replay viewer's keys (play.cpp maps the terminal's keys to them; the
// help line names them).
#include <cstdint>

namespace carom::tool {

enum class ViewKey : std::uint8_t {
    pause,
    faster,
    slower,
    back_5s,
    forward_5s,
    back_30s,
    forward_30s,
    previous_goal,
    next_goal,
    tick_back,
    tick_forward,
    home,
    end,
    roster,
    quit,
    other
};

inline constexpr const char* kViewerHelp =
    "space pause  +/- speed  <-/-> 5s  up/down 30s  [ ] goals  , . tick  Home/End  Tab names  q "
    "quit";

}  // namespace carom::tool
