#pragma once
// The screen the interactive client opens on to choose a room (arrows,
// Enter, s, r, q); its words are the room list's (carom/client/room_text.hpp).
#include <cstdint>
#include <optional>
#include <string>

#include "carom/protocol/status.hpp"
#include "carom/render/grid.hpp"
#include "carom/terminal/terminal.hpp"

namespace carom::play {

// What the user chose on the room screen.
struct RoomChoice {
    std::uint32_t room = 0;
    bool spectate = false;
};

// The room screen's state: the list, the selected row, and what a key does.
class RoomPicker {
  public:
    enum class Action : std::uint8_t { none, join, spectate, refresh, quit };

    explicit RoomPicker(protocol::ServerStatus status) : status_(std::move(status)) {}
    void set_status(protocol::ServerStatus status);
    Action on_key(const terminal::Key& key);
    RoomChoice choice() const;
    // The screen: title, the rooms (the selected one marked and inked), help; `note` under it.
    render::Grid draw(int width, int height, const std::string& server,
                      const std::string& note) const;

  private:
    protocol::ServerStatus status_;
    std::uint32_t selected_ = 0;
};

}  // namespace carom::play
